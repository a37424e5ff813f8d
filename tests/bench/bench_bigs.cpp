// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench-bigs: a big layer through the GUI's own route. It writes
// a project (SIZE×SIZE input, one 3×3 kernel, ZigZag G), opens it with
// ProjectDocument (the worker simulates with the trace, the document builds
// the StepCursor, the comparison and sweep workers start as in the window),
// then seeks as a user would: to the middle, to the end, back to the start,
// to random moments, and plays forward step by step. It prints the seek
// times (this thread's CPU time: the GUI thread's work, which the load of a
// shared machine does not inflate, and wall time), the cursor's and the
// trace's bytes, and the process's peak resident memory (VmHWM).
//
// Usage: convoffload-bench-bigs [--size 4096] [--group 64] [--seeks 20]
//                               [--window] (open it in the MainWindow and
//                               paint the grids too, offscreen)
//                               [--no-wait] (do not wait for the comparison
//                               and the sweep's first points)
// The last line is machine-readable for tests/bench/scaling.py:
//   result size=… patches=… steps=… open_ms=… seek_mid_ms=… seek_end_ms=…
//          seek_worst_ms=… play_ms_per_step=… cursor_bytes=… trace_bytes=…
//          peak_rss_kb=…
// Exit status 1 when the simulation fails (its message is printed).

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/WorkEstimate.h"
#include "document/ProjectDocument.h"
#include "export/HeadlessPlatform.h"
#include "mainwindow/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <random>
#include <string>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// A /proc/self/status field in kB (VmHWM: peak resident, VmRSS: now).
long statusKb(const char *field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.starts_with(field))
            return std::stol(line.substr(std::strlen(field) + 1));
    return -1;
}

Project bigProject(int size, std::int64_t group)
{
    Project project;
    Layer &l = project.problem.layer;
    l.c_in = 1;
    l.h_in = l.w_in = size;
    l.h_k = l.w_k = 3;
    l.n = 1;
    project.problem.hardware.nbop_pe = 9 * group;
    project.problem.hardware.mem_size = std::int64_t(1) << 40;
    project.problem.hardware.dram_size = std::int64_t(1) << 40;
    project.data.seed = 1;
    StrategySpec zigzag;
    zigzag.name = "ZigZag";
    zigzag.kind = StrategyKind::ZigZag;
    zigzag.group_size = group;
    project.strategies = {zigzag};
    return project;
}

struct SeekTime {
    double cpu_ms = 0, wall_ms = 0;
};

SeekTime timedSeek(ProjectDocument &doc, Moment m)
{
    QElapsedTimer wall;
    wall.start();
    const double start = cpuSeconds();
    doc.seek(m);
    return {(cpuSeconds() - start) * 1e3, double(wall.nsecsElapsed()) / 1e6};
}

} // namespace

int main(int argc, char *argv[])
{
    int size = 4096, seeks = 20;
    std::int64_t group = 64;
    bool window = false, noWait = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--size" && i + 1 < argc)
            size = std::atoi(argv[++i]);
        else if (a == "--group" && i + 1 < argc)
            group = std::atoll(argv[++i]);
        else if (a == "--seeks" && i + 1 < argc)
            seeks = std::atoi(argv[++i]);
        else if (a == "--window")
            window = true;
        else if (a == "--no-wait")
            noWait = true;
        else {
            std::fprintf(stderr, "usage: %s [--size N] [--group G] [--seeks K] [--window] [--no-wait]\n", argv[0]);
            return 1;
        }
    }
    if (noDisplay())
        useOffscreenPlatform();
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.json"));
    saveProject(bigProject(size, group), path.toStdString());
    const long baseKb = statusKb("VmRSS:");

    QElapsedTimer clock;
    clock.start();
    std::unique_ptr<MainWindow> mainWindow;
    std::unique_ptr<ProjectDocument> ownDocument;
    ProjectDocument *doc = nullptr;
    if (window) {
        mainWindow = std::make_unique<MainWindow>();
        mainWindow->resize(1400, 900);
        mainWindow->show();
        doc = mainWindow->document();
    } else {
        ownDocument = std::make_unique<ProjectDocument>();
        doc = ownDocument.get();
    }
    bool compared = false, swept = false; // the comparison is in; the sweep is past G = 2
    QObject::connect(doc, &ProjectDocument::comparisonChanged, [&] { compared = true; });
    QObject::connect(doc, &ProjectDocument::progress,
        [&](const QString &what, int percent) { swept |= what.startsWith(QStringLiteral("Sweeping")) && percent >= 2; });
    if (window) {
        if (!mainWindow->openFile(path))
            return 1;
    } else if (const QString error = ownDocument->load(path); !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    while (!doc->simulation())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    const double openMs = double(clock.nsecsElapsed()) / 1e6;
    if (!doc->simulation()->failure.empty() || !doc->cursor()) {
        std::printf("simulation refused or failed: %s\n", doc->simulation()->failure.c_str());
        std::printf("result size=%d refused=1 peak_rss_kb=%ld\n", size, statusKb("VmHWM:"));
        return 1;
    }
    const StepCursor &cursor = *doc->cursor();
    const int steps = cursor.stepCount();
    const Layer &layer = doc->problem().layer;
    std::printf("%dx%d input, one 3x3 kernel, ZigZag G = %lld: %lld patches, %d steps%s\n", size, size, (long long)group,
        (long long)layer.patchCount(), steps, window ? " (MainWindow, offscreen)" : " (ProjectDocument)");
    std::printf("open (load, simulate with trace on the worker, cursor at step 1): %.0f ms wall\n", openMs);

    const auto paint = [&] {
        if (mainWindow) {
            QCoreApplication::processEvents(); // the grids and charts repaint for the new moment
            mainWindow->grab();
        }
    };
    const auto report = [&](const char *what, SeekTime t) {
        std::printf("  %-34s %8.1f ms CPU %8.1f ms wall\n", what, t.cpu_ms, t.wall_ms);
        paint();
    };
    const SeekTime mid = timedSeek(*doc, {steps / 2, Action::Compute});
    report("seek to the middle", mid);
    const SeekTime end = timedSeek(*doc, {steps - 1, Action::Compute});
    report("seek to the end", end);
    report("seek back to the start", timedSeek(*doc, {0, Action::FreeInput}));
    std::mt19937 rng(7);
    SeekTime worst;
    double sum = 0;
    for (int k = 0; k < seeks; ++k) {
        const SeekTime t = timedSeek(*doc, {int(rng() % std::uint32_t(steps)), Action(rng() % kActionCount)});
        worst.cpu_ms = std::max(worst.cpu_ms, t.cpu_ms);
        worst.wall_ms = std::max(worst.wall_ms, t.wall_ms);
        sum += t.cpu_ms;
        paint();
    }
    std::printf("  %d random seeks: mean %.1f ms CPU, worst %.1f ms CPU, %.1f ms wall\n", seeks, sum / std::max(seeks, 1),
        worst.cpu_ms, worst.wall_ms);
    // Play: one step at a time from the middle, as the play button does.
    const int played = std::min(1000, steps / 2 - 1);
    doc->seek({steps / 2, Action::Compute});
    const double playStart = cpuSeconds();
    for (int k = 1; k <= played; ++k)
        doc->seek({steps / 2 + k, Action::Compute});
    const double playMs = (cpuSeconds() - playStart) * 1e3 / std::max(played, 1);
    std::printf("  play %d steps: %.3f ms CPU a step\n", played, playMs);

    const long afterSeeksKb = statusKb("VmHWM:");
    // The comparison and the sweep run after the simulation on a big layer;
    // wait for the comparison and the sweep's first group sizes (G = 1, 2:
    // the most steps), so their peaks count too.
    if (!noWait) {
        QElapsedTimer waited;
        waited.start();
        while (!(compared && (swept || !doc->busy())))
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        std::printf("comparison and sweep G = 1, 2 done %.0f ms after the seeks\n", double(waited.nsecsElapsed()) / 1e6);
    }
    const SimulationResult &r = doc->simulation()->result;
    const std::size_t traceBytes
        = r.trace.ids.capacity() * sizeof(std::uint32_t) + r.trace.actions.capacity() * sizeof(ActionRecord);
    const std::size_t stepBytes = r.steps.capacity() * sizeof(StepStats);
    const long peakKb = statusKb("VmHWM:"), nowKb = statusKb("VmRSS:");
    std::printf("memory: cursor %.1f MB (checkpoints %.1f MB, every %d steps), trace %.1f MB, step stats %.1f MB\n",
        double(cursor.memoryBytes()) / 1e6, double(cursor.checkpointBytes()) / 1e6, cursor.checkpointSpacing(),
        double(traceBytes) / 1e6, double(stepBytes) / 1e6);
    std::printf("process: peak resident after the seeks %.0f MB\n", double(afterSeeksKb) / 1024);
    const double estimate = estimateStrategy(doc->problem(), doc->simulation()->spec, true, true).bytes;
    std::printf("estimate of the traced simulation (estimateStrategy): %.0f MB; measured above the start: %.0f MB\n",
        estimate / 1e6, double(afterSeeksKb - baseKb) * 1024 / 1e6);
    std::printf("process: peak resident (VmHWM) %.0f MB, resident now %.0f MB, at start %.0f MB; %.1f bytes per pixel\n",
        double(peakKb) / 1024, double(nowKb) / 1024, double(baseKb) / 1024, double(peakKb) * 1024 / double(layer.pixelCount()));
    std::printf("result size=%d patches=%lld steps=%d open_ms=%.1f seek_mid_ms=%.2f seek_end_ms=%.2f seek_worst_ms=%.2f "
                "play_ms_per_step=%.4f cursor_bytes=%zu trace_bytes=%zu peak_rss_kb=%ld estimate_bytes=%.0f\n",
        size, (long long)layer.patchCount(), steps, openMs, mid.cpu_ms, end.cpu_ms, worst.cpu_ms, playMs, cursor.memoryBytes(),
        traceBytes, peakKb, estimate);
    doc->cancel();
    return 0;
}
