// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The work estimate is an upper bound on memory (docs/design/performance.md,
// "Work estimate against the measured peak"): each simulation runs in a
// forked child, whose peak resident set is reset after a warm-up run (so the
// program's code and the allocator's first arenas are not counted) and read
// from /proc/self/status at the end; its growth must not exceed the bytes
// the CLI (estimateSimulation) and the GUI (estimateStrategy) budget for it.
// The samples and random layers of up to a few hundred MB of state.

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include "TestProblems.h"

#include <QDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

using namespace convoffload;

Q_DECLARE_METATYPE(convoffload::Problem)
Q_DECLARE_METATYPE(convoffload::StrategySpec)

namespace {

/// A field of /proc/self/status in bytes (its values are in kB).
double statusBytes(const char *field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0)
            return 1024.0 * std::stod(line.substr(key.size()));
    return -1;
}

/// The growth of the peak resident set while `work` runs in a forked child,
/// after `warmUp` ran there; -1 when the child failed (its message in `error`).
double peakGrowth(const std::function<void()> &warmUp, const std::function<void()> &work, std::string &error)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return -1;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        double growth = -1;
        try {
            warmUp();
            std::ofstream("/proc/self/clear_refs") << "5"; // VmHWM := VmRSS
            const double before = statusBytes("VmHWM");
            work();
            growth = statusBytes("VmHWM") - before;
        } catch (const std::exception &e) {
            const std::string text = e.what();
            [[maybe_unused]] const ssize_t n = ::write(fds[1], text.data(), std::min<std::size_t>(text.size(), 500));
            ::_exit(2);
        }
        [[maybe_unused]] const ssize_t n = ::write(fds[1], &growth, sizeof growth);
        ::_exit(0);
    }
    ::close(fds[1]);
    char buffer[512];
    std::size_t got = 0;
    for (ssize_t n; (n = ::read(fds[0], buffer + got, sizeof buffer - got)) > 0;)
        got += std::size_t(n);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof(double)) {
        error = WIFEXITED(status) ? std::string(buffer, got) : "the child died of signal " + std::to_string(WTERMSIG(status));
        return -1;
    }
    double growth = 0;
    std::memcpy(&growth, buffer, sizeof growth);
    return growth;
}

/// How many times each patch is computed: 1, or the kernel blocks of a
/// kernels-outer kernel-blocked strategy (what the CLI's estimate takes).
std::int64_t visitsOf(const Problem &problem, const StrategySpec &spec)
{
    if (spec.kind != StrategyKind::KernelBlocked)
        return 1;
    const std::int64_t block = std::max<std::int64_t>(1, spec.kernel_block.value_or(problem.layer.n));
    return (problem.layer.n + block - 1) / block;
}

void addRow(const std::string &name, const Problem &problem, const StrategySpec &spec)
{
    QTest::newRow(name.c_str()) << problem << spec;
}

StrategySpec generated(StrategyKind kind, std::optional<std::int64_t> groupSize = std::nullopt)
{
    StrategySpec spec;
    spec.name = strategyKindName(kind);
    spec.kind = kind;
    spec.group_size = groupSize;
    return spec;
}

} // namespace

class TestWorkEstimate : public QObject {
    Q_OBJECT

private slots:
    void estimateBoundsThePeak_data()
    {
        QTest::addColumn<Problem>("problem");
        QTest::addColumn<StrategySpec>("spec");
        const QDir samples(QStringLiteral(CONVOFFLOAD_SAMPLES));
        QStringList files;
        for (const QString &f : samples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            files << samples.filePath(f);
        const QDir streaming(samples.filePath(QStringLiteral("streaming")));
        for (const QString &f : streaming.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            files << streaming.filePath(f);
        for (const QString &file : files) {
            const Project project = loadProject(file.toStdString());
            for (const StrategySpec &spec : project.strategies)
                addRow(QFileInfo(file).completeBaseName().toStdString() + " " + spec.name, project.problem, spec);
        }

        // The GUI's big-layer benchmark (docs/design/performance.md, "Big
        // layers in the GUI"), where the older estimate was 17 % short.
        Problem big;
        big.layer = {1, 2048, 2048, 3, 3, 1, 1, 1, 0, 0, 0, 0};
        big.hardware.nbop_pe = 9 * 64;
        big.hardware.mem_size = 100000;
        addRow("2048x2048 k3 zigzag G 64", big, generated(StrategyKind::ZigZag, 64));

        // Random layers of up to 2^21 pixels and 2^23 outputs (hundreds of MB
        // of state), with room for a few patches.
        std::mt19937_64 random(20261202);
        const auto pick = [&random](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
        for (int i = 0; i < 12; ++i) {
            Problem p;
            const int k = 2 * pick(0, 2) + 1;
            p.layer = {pick(1, 8), pick(64, 1024), pick(64, 1024), k, k, pick(1, 16), pick(1, 2), pick(1, 2), pick(0, 2),
                pick(0, 2), pick(0, 2), pick(0, 2)};
            p.layer.group = 1;
            const std::int64_t perPatch = p.layer.c_in * k * k * p.layer.n;
            const std::int64_t g = pick(1, 64);
            p.hardware.nbop_pe = perPatch * g;
            p.hardware.mem_size = p.layer.n * p.layer.kernelElements() + g * (p.layer.c_in * k * k * 2 + p.layer.n) + 4096;
            p.hardware.dram_size = std::int64_t(1) << 40;
            if (!p.layer.problems().empty() || !p.hardware.problems().empty())
                continue;
            const std::string name = "random " + std::to_string(i) + " (" + std::to_string(p.layer.c_in) + "x"
                + std::to_string(p.layer.h_in) + "x" + std::to_string(p.layer.w_in) + ", k" + std::to_string(k) + ", n"
                + std::to_string(p.layer.n) + ", G " + std::to_string(g) + ")";
            addRow(name + " s1-baseline", p, generated(StrategyKind::S1Baseline));
            addRow(name + " zigzag", p, generated(StrategyKind::ZigZag, g));
        }
    }
    void estimateBoundsThePeak()
    {
#ifdef __SANITIZE_ADDRESS__
        QSKIP("AddressSanitizer's shadow memory and quarantine are not what the estimate is about");
#endif
        QFETCH(Problem, problem);
        QFETCH(StrategySpec, spec);
        const auto warmUp = [] {
            SimulationOptions options;
            options.trace = true;
            simulateStrategy(paperExampleProblem(), generated(StrategyKind::ZigZag, 2), options);
            options.trace = false;
            simulateStrategy(paperExampleProblem(), generated(StrategyKind::ZigZag, 2), options);
        };
        // The CLI: simulate (no trace) and export --figure trace (a trace),
        // both against estimateSimulation; the GUI's traced run against
        // estimateStrategy.
        for (const bool trace : {false, true}) {
            SimulationOptions options;
            options.trace = trace;
            options.functional = true;
            std::string error;
            const double peak = peakGrowth(
                warmUp, [&] { simulateStrategy(problem, spec, options); }, error);
            QVERIFY2(peak >= 0, error.c_str());
            const double cli = estimateSimulation(problem, true, true, visitsOf(problem, spec)).bytes;
            const double gui = estimateStrategy(problem, spec, true, trace).bytes;
            qInfo("%s: trace %d, peak %.1f MB, estimateSimulation %.1f MB, estimateStrategy %.1f MB", QTest::currentDataTag(),
                int(trace), peak / 1e6, cli / 1e6, gui / 1e6);
            QVERIFY2(
                peak <= cli, qPrintable(QStringLiteral("peak %1 MB > estimateSimulation %2 MB").arg(peak / 1e6).arg(cli / 1e6)));
            QVERIFY2(
                peak <= gui, qPrintable(QStringLiteral("peak %1 MB > estimateStrategy %2 MB").arg(peak / 1e6).arg(gui / 1e6)));
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkEstimate)
#include "tst_workestimate.moc"
