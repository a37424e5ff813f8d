// convoffload-bench-edit: how long a hand edit takes to reach the views on
// LeNet-5 conv1 (784 patches, 98 groups): from the edit (one undo command
// pushed by the group model) until the document has the new simulation with
// its trace and cursor, and until the comparison and sweep are refreshed too.
// Baseline in the same run: the core alone (expand + simulate with trace).
// Also: where the edit-to-view time goes (push, snapshot in and views updated,
// grid and chart repaints), and the step charts given a new simulation
// updated in place (ChartRefresh) against rebuilt, both in the same run.

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "mainwindow/MainWindow.h"
#include "charts/ChartsPanel.h"
#include "charts/ChartFactory.h"
#include "document/ProjectDocument.h"
#include "grid/GridView.h"
#include "export/HeadlessPlatform.h"
#include "models/GroupListModel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

struct Stats {
    double mean, worst;
};
Stats stats(const std::vector<double> &v)
{
    return {std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()), *std::max_element(v.begin(), v.end())};
}

} // namespace

int main(int argc, char *argv[])
{
    if (noDisplay())
        useOffscreenPlatform();
    QApplication app(argc, argv);
    const QString path = QStringLiteral(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json");
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    if (!window.openFile(path))
        return 1;
    ProjectDocument &doc = *window.document();
    doc.setCurrentStrategy(2); // ZigZag, G = 8: the first edit turns it into groups
    while (doc.busy() || !doc.cursor())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 2);
    GroupListModel model(&doc);

    constexpr int kEdits = 30;
    std::vector<double> toSimulation, toEverything, core, pushed, toSnapshot, gridsPaint, chartsPaint;
    std::vector<double> chartsInPlace, chartsRebuilt; // the step charts given the same snapshot again
    for (int i = 0; i < kEdits; ++i) {
        const Groups &groups = model.groups();
        // Move the last patch of group i into group i + 1 (a real edit each time).
        const int from = i % int(groups.size() - 1);
        const PatchList patch{groups[std::size_t(from)].back()};
        QElapsedTimer clock;
        clock.start();
        const QString error = model.moveToGroup(patch, from + 1);
        pushed.push_back(clock.nsecsElapsed() / 1e6); // the synchronous part: command, models, panels reset
        if (!error.isEmpty()) {
            std::fprintf(stderr, "edit %d refused: %s\n", i, qPrintable(error));
            return 1;
        }
        while (!doc.cursor() || doc.simulation()->spec != doc.project().strategies[2])
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 2);
        // The window's slots ran on the signal (charts updated, flags placed); paint the grids and charts now.
        toSnapshot.push_back(clock.nsecsElapsed() / 1e6);
        window.inputGrid()->repaint();
        window.outputGrid()->repaint();
        gridsPaint.push_back(clock.nsecsElapsed() / 1e6 - toSnapshot.back());
        window.charts()->repaint();
        chartsPaint.push_back(clock.nsecsElapsed() / 1e6 - toSnapshot.back() - gridsPaint.back());
        toSimulation.push_back(clock.nsecsElapsed() / 1e6);
        while (doc.busy())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 2);
        toEverything.push_back(clock.nsecsElapsed() / 1e6);

        // The step charts alone, same run: updated in place (same shape)
        // against rebuilt (from a placeholder, as every edit did before).
        {
            const auto snapshot = doc.simulation();
            ChartsPanel &charts = *window.charts();
            const QString name = QString::fromStdString(snapshot->spec.name);
            QElapsedTimer chartClock;
            chartClock.start();
            charts.setSimulation(&snapshot->problem, &snapshot->result, name);
            charts.repaint();
            chartsInPlace.push_back(chartClock.nsecsElapsed() / 1e6);
            charts.setSimulation(nullptr, nullptr);
            chartClock.restart();
            charts.setSimulation(&snapshot->problem, &snapshot->result, name);
            charts.repaint();
            chartsRebuilt.push_back(chartClock.nsecsElapsed() / 1e6);
        }

        QElapsedTimer coreClock;
        coreClock.start();
        SimulationOptions options;
        options.seed = doc.project().data.seed;
        runStrategy(doc.problem(), doc.project().strategies[2], options);
        core.push_back(coreClock.nsecsElapsed() / 1e6);
    }
    const Stats a = stats(toSimulation), e = stats(toEverything), c = stats(core);
    std::printf("convoffload-bench-edit: LeNet-5 conv1 (784 patches), %d edits of ZigZag's groups (moveToGroup)\n", kEdits);
    std::printf("  edit -> new simulation, grids and charts repainted         mean %7.2f ms   worst %7.2f ms\n", a.mean, a.worst);
    std::printf("  edit -> also the comparison of all strategies refreshed    mean %7.2f ms   worst %7.2f ms\n", e.mean, e.worst);
    const Stats pu = stats(pushed), sn = stats(toSnapshot), gp = stats(gridsPaint), cp = stats(chartsPaint);
    std::printf(
        "    of which: edit pushed (command, models and panels reset)  mean %7.2f ms   worst %7.2f ms\n", pu.mean, pu.worst);
    std::printf(
        "              edit -> snapshot taken in (views updated)       mean %7.2f ms   worst %7.2f ms\n", sn.mean, sn.worst);
    std::printf(
        "              grids repainted                                 mean %7.2f ms   worst %7.2f ms\n", gp.mean, gp.worst);
    std::printf(
        "              charts repainted                                mean %7.2f ms   worst %7.2f ms\n", cp.mean, cp.worst);
    const Stats ip = stats(chartsInPlace), rb = stats(chartsRebuilt);
    std::printf(
        "  step charts given a new simulation: updated in place        mean %7.2f ms   worst %7.2f ms\n", ip.mean, ip.worst);
    std::printf("                                      rebuilt                 mean %7.2f ms   worst %7.2f ms   (ratio %.1fx)\n",
        rb.mean, rb.worst, ip.mean > 0 ? rb.mean / ip.mean : 0.0);
    std::printf("  core alone (expand + simulate + functional check)          mean %7.2f ms   worst %7.2f ms\n", c.mean, c.worst);
    std::printf("  overhead of the document, worker, model and views: %.2f ms per edit (ratio %.1fx the core)\n", a.mean - c.mean,
        c.mean > 0 ? a.mean / c.mean : 0.0);
    const bool interactive = a.worst < 100.0;
    std::printf(
        "%s\n", interactive ? "bench-edit: every edit reached the views within 100 ms" : "bench-edit: SLOWER than 100 ms");
    return interactive ? 0 : 1;
}
