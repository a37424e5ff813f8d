// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The optimiser's time limit bounds the whole run, not only the method's own
// loop (docs/reference/cli.md#optimize): every method, on layers whose set-up,
// bounds or heuristics alone took minutes, returns within a few times the
// limit with a valid strategy or a message saying where the time ran out.
// Wall-clock checks are acceptable here: they check a limit, not a speed, and
// the margin is four times the limit (eight under the sanitizers).

#include "convoffload/io/ProjectFile.h"
#include "convoffload/optimise/Optimiser.h"
#include "convoffload/optimise/SegmentBound.h"

#include "TestProblems.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

using namespace convoffload;

Q_DECLARE_METATYPE(convoffload::Problem)

namespace {

#ifdef __SANITIZE_ADDRESS__
constexpr qint64 kMarginMs = 4000;
#else
constexpr qint64 kMarginMs = 2000;
#endif
constexpr double kLimitSeconds = 0.5;
#ifdef __SANITIZE_ADDRESS__
constexpr double kLateWriteSeconds = 0.6;
#else
constexpr double kLateWriteSeconds = 0.3;
#endif

/// A 1×1 kernel on one channel: one pixel per patch, so the layer has as many
/// patches as pixels.
Problem pointwise(int height, int width)
{
    Problem p;
    p.layer = {1, height, width, 1, 1, 1, 1, 1, 0, 0, 0, 0};
    p.hardware.mem_size = 1000000;
    p.hardware.nbop_pe = 64;
    return p;
}

/// Every method `optimize --method` accepts (docs/reference/cli.md#optimize).
const char *const kMethods[] = {"search", "ilp", "exact"};

} // namespace

class TestTimeLimits : public QObject {
    Q_OBJECT

private slots:
    void everyMethodStopsInTime_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<Problem>("problem");

        // 4098 x 4098 with 3 x 3 kernels: 16.8 M patches of 9 pixels;
        // setting up the instance alone took 4.5 s here, the heuristics and
        // the search's tilings and seeds came after it.
        Problem huge = pointwise(4098, 4098);
        huge.layer.h_k = huge.layer.w_k = 3;
        huge.hardware.nbop_pe = 9 * 64;
        // One pixel padded by 2^20 rows: 1 M patches of padding; the segment
        // bound's largest group union ran for minutes.
        Problem padded = pointwise(1, 1);
        padded.layer.pad_top = 1 << 20;
        // nbop_pe near 2^62, so G (and the sizes the segment bound tried
        // one by one) is near 2^62.
        Problem hugeGroups = pointwise(64, 64);
        hugeGroups.layer.h_k = hugeGroups.layer.w_k = 3;
        hugeGroups.hardware.nbop_pe = std::numeric_limits<std::int64_t>::max() / 2;
        hugeGroups.hardware.mem_size = std::numeric_limits<std::int64_t>::max() / 2;
        // 1024 x 1024 with 3 x 3 kernels: 1 M patches, set up in well under
        // the limit, so the methods' own phases meet it.
        Problem large = pointwise(1026, 1026);
        large.layer.h_k = large.layer.w_k = 3;

        // 64 kernels of 3 x 3 that do not fit beside a patch: the
        // kernel-blocked family is simulated member by member instead.
        Problem streamed = pointwise(1026, 1026);
        streamed.layer.h_k = streamed.layer.w_k = 3;
        streamed.layer.n = 64;
        streamed.hardware.mem_size = 200;
        streamed.hardware.nbop_pe = 9 * 64;

        for (const char *method : kMethods) {
            QTest::addRow("%s, kernels streamed, 1 M patches", method) << QString::fromLatin1(method) << streamed;
            QTest::addRow("%s, 16.8 M patches", method) << QString::fromLatin1(method) << huge;
            QTest::addRow("%s, pad_top 2^20", method) << QString::fromLatin1(method) << padded;
            QTest::addRow("%s, G near 2^62", method) << QString::fromLatin1(method) << hugeGroups;
            QTest::addRow("%s, 1 M patches", method) << QString::fromLatin1(method) << large;
        }
    }
    void everyMethodStopsInTime()
    {
        QFETCH(QString, method);
        QFETCH(Problem, problem);
        QVERIFY(problem.layer.problems().empty());
        QVERIFY(problem.hardware.problems().empty());

        OptimiseRequest request;
        const std::optional<OptimiseMethod> parsed = optimiseMethodFromName(method.toStdString());
        QVERIFY(parsed.has_value());
        request.method = *parsed;
        request.worker_path = CONVOFFLOAD_CBC_WORKER;
        request.stream_kernels = true; // as the CLI's optimize
        OptimiseControl control;
        control.time_limit_s = kLimitSeconds;

        QElapsedTimer timer;
        timer.start();
        const OptimiseReport report = optimise(problem, request, control);
        const qint64 ms = timer.elapsed();
        qInfo("%lld ms: %s (%s)", static_cast<long long>(ms), optimiseStatusName(report.result.status).c_str(),
            report.result.message.c_str());
        QVERIFY2(ms < kMarginMs, qPrintable(QStringLiteral("took %1 ms").arg(ms)));

        const OptimiseResult &r = report.result;
        if (r.hasSolution()) {
            // Every patch placed once, each group within G: checked by the
            // instance's own evaluation only when it exists (a run that ran
            // out of time while setting it up returns a heuristic's groups).
            std::int64_t placed = 0;
            for (const Group &group : r.groups)
                placed += std::int64_t(group.size());
            QCOMPARE(placed, problem.layer.patchCount());
        } else {
            QVERIFY2(r.message.find("time limit") != std::string::npos || r.status == OptimiseStatus::Failed, r.message.c_str());
            QVERIFY2(!r.message.empty(), "no solution and no message");
        }
    }

    // A time limit that runs out while the ILP's model is written for CBC
    // (LeNet-5 conv1: 2.3 M rows, about 3 s of writing on a loaded 2-core
    // machine, which starts about 0.5 s in under a 1.5 s limit) ends the
    // run within about 0.1 s of it, with the message that says so (it ended
    // 0.2 to 0.6 s past it). Where the model is written before the limit
    // (a fast machine), there is nothing to measure.
    void ilpStopsWhileTheModelIsWritten()
    {
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json");
        OptimiseRequest request;
        request.method = OptimiseMethod::Ilp;
        request.worker_path = CONVOFFLOAD_CBC_WORKER;
        OptimiseControl control;
        control.time_limit_s = 1.5;
        double writing = -1;
        control.phase = [&](OptimisePhase phase, double seconds) {
            if (phase == OptimisePhase::WritingModel)
                writing = seconds;
        };
        QElapsedTimer timer;
        timer.start();
        const OptimiseReport report = optimise(project.problem, request, control);
        const double seconds = timer.elapsed() / 1000.0;
        const double late = seconds - control.time_limit_s;
        qInfo("writing from %.2f s; limit %.2f s, returned after %.2f s: %.3f s late (%s)", writing, control.time_limit_s,
            seconds, late, report.result.message.c_str());
        if (writing < 0 || writing >= control.time_limit_s
            || report.result.message.find("while the model was written for CBC") == std::string::npos)
            QSKIP("the limit did not run out while the model was written here");
        QVERIFY2(
            report.result.message.find("the time limit was reached while the model was written for CBC") != std::string::npos,
            report.result.message.c_str());
        QVERIFY(report.result.hasSolution()); // the start strategy
        QVERIFY2(report.result.status != OptimiseStatus::Failed, report.result.message.c_str());
        // Measured on the loaded 2-core machine (load 3.2): 0.011 to 0.020 s
        // late; 0.08 to 0.17 s when the run waited for the killed writer to
        // die (its memory unmapped) and polled every 20 ms, 0.6 s reported
        // in issue 41. The bound is a guard generous enough for any load,
        // the lateness is in the print.
        QVERIFY2(late < kLateWriteSeconds, qPrintable(QString::number(late)));
    }

    // The largest group union by its closed form against every group size
    // tried one by one (what the code did before), on layers where the sizes
    // are few enough to try.
    void largestGroupUnionAgainstEverySize_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<qint64>("memSize");
        QTest::addColumn<qint64>("nbopPe");
        QTest::addColumn<bool>("anyCount");
        for (const int size : {5, 9, 14})
            for (const int kernel : {1, 2, 3})
                for (const qint64 mem : {qint64(40), qint64(90), qint64(400), qint64(5000)})
                    for (const qint64 nbop : {qint64(kernel * kernel), qint64(7 * kernel * kernel), qint64(1000)})
                        for (const bool any : {false, true})
                            QTest::addRow("%dx%d k%d mem %lld nbop %lld %s", size, size, kernel, static_cast<long long>(mem),
                                static_cast<long long>(nbop), any ? "any" : "kmin")
                                << size << kernel << mem << nbop << any;
    }
    void largestGroupUnionAgainstEverySize()
    {
        QFETCH(int, size);
        QFETCH(int, kernel);
        QFETCH(qint64, memSize);
        QFETCH(qint64, nbopPe);
        QFETCH(bool, anyCount);
        Problem p;
        p.layer = {1, size, size, kernel, kernel, 1, 1, 1, 0, 0, 0, 0};
        p.hardware.mem_size = memSize;
        p.hardware.nbop_pe = nbopPe;
        OptimiseSettings settings;
        if (anyCount)
            settings.group_count = GroupCount::AtMostCap;
        S1Instance in;
        try {
            in = makeS1Instance(p, settings);
        } catch (const InstanceError &) {
            QSKIP("one patch does not fit: no instance");
        }
        // Every size from the smallest a group can have to G.
        std::int64_t widest = 0;
        for (const auto &pixels : in.patch_pixels)
            widest = std::max(widest, std::int64_t(pixels.size()));
        const std::int64_t fewest = anyCount ? 1 : std::max<std::int64_t>(1, in.patches - (in.min_groups - 1) * in.group_size);
        std::int64_t most = 0;
        for (std::int64_t s = fewest; s <= in.group_size; ++s) {
            const std::int64_t room = (in.mem_size - in.fixed_elements - s * in.elements_per_patch) / in.elements_per_pixel;
            most = std::max(most, std::min(s * widest, room));
        }
        const std::int64_t held = std::min(most, std::int64_t(in.needed_pixels.size()));
        QCOMPARE(largestGroupUnion(in), held);

        // The segment bound with every number of full segments tried (what
        // the code did before trying only the one or two that can sum up).
        const Layer &l = in.layer;
        const std::int64_t ab = std::int64_t(l.h_k - 1) * (l.w_k - 1);
        const auto fewestPixels = [ab](std::int64_t m) {
            return m <= 0 ? 0 : std::int64_t(std::ceil(double(m) + 2.0 * std::sqrt(double(ab) * double(m)) + double(ab) - 1e-9));
        };
        std::optional<std::int64_t> expected;
        if (!anyCount) {
            expected = 0;
            const std::int64_t n = in.min_groups;
            for (std::int64_t steps = 1; steps <= n; ++steps) {
                const std::int64_t k = (n + steps - 1) / steps;
                const std::int64_t segment = std::min(in.patches, steps * in.group_size);
                std::optional<std::int64_t> least;
                for (std::int64_t full = 0; full < k; ++full) {
                    const std::int64_t free = in.patches - full * segment - (k - 1 - full);
                    if (free < 1 || free > segment)
                        continue;
                    const std::int64_t sum = full * fewestPixels(segment) + (k - 1 - full) * fewestPixels(1) + fewestPixels(free);
                    least = least ? std::min(*least, sum) : sum;
                }
                expected = std::max(*expected, least.value_or(0) - (k - 1) * held);
            }
        }
        QCOMPARE(segmentLoadBound(in), expected);
    }
};

QTEST_GUILESS_MAIN(TestTimeLimits)
#include "tst_timelimits.moc"
