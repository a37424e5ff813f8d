// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// BackgroundJob, the one way long work leaves the GUI thread: finished once per
// run, progress on the GUI thread, cancel, a destructor that cancels before it
// waits (for the job, the document and the main window), and a restart in the
// gap between the worker's end and the delivery of its result.

#include "convoffload/io/ProjectFile.h"
#include "document/ProjectDocument.h"
#include "models/StrategyListModel.h"
#include "jobs/BackgroundJob.h"
#include "mainwindow/MainWindow.h"
#include "optimise/ExperimentsDialog.h"
#include "optimise/OptimiseDialog.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <memory>
#include <thread>

using namespace convoffload;
using namespace convoffload::ui;
using namespace std::chrono_literals;

namespace {

// Generous bounds for a loaded 2-core machine: the long work takes 30 s (the
// document's sweep of a big layer about 40 s of CPU); stopping must take < 5 s.
constexpr int kLongMs = 30'000;
constexpr qint64 kPromptMs = 5'000;

/// Work that runs `ms` milliseconds unless cancelled; returns whether it was.
bool sleepUnlessCancelled(const std::atomic<bool> *cancel, int ms)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        if (cancel->load())
            return true;
        std::this_thread::sleep_for(2ms);
    }
    return false;
}

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

/// A layer whose group-size sweep (G = 1..128, two simulations of 158 404
/// patches each) takes about 40 s of CPU on the 2-core machine.
Project bigProject()
{
    Project project = loadProject(sample("paper-example.json").toStdString());
    project.problem.layer = {3, 400, 400, 3, 3, 16, 1, 1, 0, 0, 0, 0};
    project.problem.hardware.nbop_pe = 27 * 16 * 64; // nb_patches_max 64: the sweep goes to 128
    project.problem.hardware.mem_size = 1 << 30;
    project.strategies = {{"ZigZag", StrategyKind::ZigZag, 16, {}}};
    return project;
}

bool onGuiThread() { return QThread::currentThread() == QCoreApplication::instance()->thread(); }

} // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadTests")); // the main window's settings
        QSettings().clear();
    }

    // Every accepted start gets exactly one finished handler call, with its own
    // result, and the job is running until that call.
    void finishedOncePerRun()
    {
        BackgroundJob<int> job;
        std::vector<int> results;
        bool runningInHandler = true;
        job.setFinishedHandler([&](int r) {
            QVERIFY(onGuiThread());
            runningInHandler = job.isRunning();
            results.push_back(r);
        });
        QSignalSpy started(&job, &BackgroundJobBase::started);
        QSignalSpy finished(&job, &BackgroundJobBase::finished);
        for (int run = 1; run <= 3; ++run) {
            QVERIFY(job.start([run](const JobControl<int> &) { return run; }));
            QVERIFY(job.isRunning());
            QVERIFY(finished.wait(10000));
            QVERIFY(!job.isRunning());
        }
        QTest::qWait(50); // nothing else is on its way
        QCOMPARE(results, (std::vector<int>{1, 2, 3}));
        QCOMPARE(started.size(), 3);
        QCOMPARE(finished.size(), 3);
        QVERIFY(!runningInHandler);
    }

    // Every report arrives, in order, on the GUI thread and before the result.
    void everyProgressOnTheGuiThread()
    {
        BackgroundJob<int, int> job(nullptr, ProgressDelivery::Every);
        std::vector<int> seen;
        bool allOnGui = true, afterFinish = false, finishedYet = false;
        job.setProgressHandler([&](int p) {
            allOnGui = allOnGui && onGuiThread();
            afterFinish = afterFinish || finishedYet;
            seen.push_back(p);
        });
        job.setFinishedHandler([&](int) { finishedYet = true; });
        QSignalSpy finished(&job, &BackgroundJobBase::finished);
        auto workerOnGui = std::make_shared<std::atomic<bool>>(true);
        QVERIFY(job.start([workerOnGui](const JobControl<int> &control) {
            workerOnGui->store(onGuiThread());
            for (int i = 0; i < 5000; ++i)
                control.report(i);
            return 0;
        }));
        QVERIFY(finished.wait(10000));
        QVERIFY(!workerOnGui->load());
        QTest::qWait(50);
        QCOMPARE(int(seen.size()), 5000);
        for (int i = 0; i < 5000; ++i)
            QCOMPARE(seen[std::size_t(i)], i);
        QVERIFY(allOnGui);
        QVERIFY(!afterFinish);
    }

    // A worker that reports in a tight loop is thinned out; the last report
    // still arrives, before the result.
    void latestProgressIsThrottled()
    {
        BackgroundJob<int, int> job(nullptr, ProgressDelivery::Latest);
        std::vector<int> seen;
        bool allOnGui = true;
        job.setProgressHandler([&](int p) {
            allOnGui = allOnGui && onGuiThread();
            seen.push_back(p);
        });
        int lastBeforeResult = -1;
        job.setFinishedHandler([&](int) { lastBeforeResult = seen.empty() ? -1 : seen.back(); });
        QSignalSpy finished(&job, &BackgroundJobBase::finished);
        constexpr int reports = 200'000;
        QVERIFY(job.start([](const JobControl<int> &control) {
            for (int i = 0; i < reports; ++i)
                control.report(i);
            return 0;
        }));
        QVERIFY(finished.wait(10000));
        QVERIFY(allOnGui);
        QCOMPARE(lastBeforeResult, reports - 1);
        QVERIFY2(seen.size() < std::size_t(reports) / 10, qPrintable(QString::number(seen.size())));
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }

    // cancel() stops long work; its finished handler still comes, once.
    void cancelStopsALongJob()
    {
        BackgroundJob<bool> job;
        std::optional<bool> cancelled;
        job.setFinishedHandler([&](bool c) { cancelled = c; });
        QSignalSpy finished(&job, &BackgroundJobBase::finished);
        QVERIFY(job.start([](const JobControl<int> &control) { return sleepUnlessCancelled(control.cancelFlag(), kLongMs); }));
        QTest::qWait(100);
        QVERIFY(job.isRunning());
        QVERIFY(!job.isCancelled());
        QElapsedTimer timer;
        timer.start();
        job.cancel();
        QVERIFY(finished.wait(int(kPromptMs)));
        QVERIFY2(timer.elapsed() < kPromptMs, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(cancelled, std::optional<bool>(true));
        QVERIFY(job.isCancelled());
        QCOMPARE(finished.size(), 1);
        // The next run starts with its flag down.
        QVERIFY(job.start([](const JobControl<int> &control) { return control.isCancelled(); }));
        QVERIFY(!job.isCancelled());
        QVERIFY(finished.wait(10000));
        QCOMPARE(cancelled, std::optional<bool>(false));
    }

    // The destructor raises the flag before it waits: it returns promptly and
    // no handler is called.
    void destroyingTheJobReturnsPromptly()
    {
        auto job = std::make_unique<BackgroundJob<bool>>();
        bool handled = false;
        job->setFinishedHandler([&](bool) { handled = true; });
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        QVERIFY(job->start([sawCancel](const JobControl<int> &control) {
            const bool c = sleepUnlessCancelled(control.cancelFlag(), kLongMs);
            sawCancel->store(c);
            return c;
        }));
        QTest::qWait(100);
        QElapsedTimer timer;
        timer.start();
        job.reset();
        QVERIFY2(timer.elapsed() < kPromptMs, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(sawCancel->load());
        QTest::qWait(50);
        QVERIFY(!handled);
    }

    // The worker has returned but its result is not delivered yet: the job is
    // still running, a restart is refused, the one result arrives once, and
    // the next start is a fresh run.
    void restartInTheGapIsRefused()
    {
        BackgroundJob<int> job;
        std::vector<int> results;
        job.setFinishedHandler([&](int r) { results.push_back(r); });
        QSignalSpy finished(&job, &BackgroundJobBase::finished);
        QVERIFY(job.start([](const JobControl<int> &) { return 1; }));
        job.waitForWorker(); // no event processed: the result is on its way
        QVERIFY(job.isRunning());
        QVERIFY(!job.start([](const JobControl<int> &) { return 2; }));
        QVERIFY(finished.wait(10000));
        QTest::qWait(50);
        QCOMPARE(results, std::vector<int>{1});
        QVERIFY(!job.isRunning());
        QVERIFY(job.start([](const JobControl<int> &) { return 3; }));
        QVERIFY(finished.wait(10000));
        QTest::qWait(50);
        QCOMPARE(results, (std::vector<int>{1, 3}));
        QCOMPARE(finished.size(), 2);
    }

    // A finished handler may start the next run (the document's queued
    // requests): that run is delivered on its own, once.
    void restartFromTheHandler()
    {
        BackgroundJob<int> job;
        std::vector<int> results;
        job.setFinishedHandler([&](int r) {
            results.push_back(r);
            if (r < 3)
                QVERIFY(job.start([r](const JobControl<int> &) { return r + 1; }));
        });
        QSignalSpy finished(&job, &BackgroundJobBase::finished);
        QVERIFY(job.start([](const JobControl<int> &) { return 1; }));
        QTRY_COMPARE(finished.size(), 3);
        QTest::qWait(50);
        QCOMPARE(results, (std::vector<int>{1, 2, 3}));
        QVERIFY(!job.isRunning());
    }

    // The Optimise dialog in the same gap: its Run is refused, Stop/finished
    // come once, and the next run adds exactly one more finished.
    void optimiseDialogRestartInTheGap()
    {
        const Project project = loadProject(sample("paper-example.json").toStdString());
        OptimiseDialog dialog(project.problem, {});
        dialog.setTimeLimit(0.5);
        auto *job = dialog.findChild<BackgroundJobBase *>(QStringLiteral("optimise"));
        QVERIFY(job);
        QSignalSpy finished(&dialog, &OptimiseDialog::finished);
        dialog.start();
        job->waitForWorker();
        QVERIFY(dialog.isRunning());
        dialog.start(); // refused: the first result is on its way
        QVERIFY(finished.wait(10000));
        QTest::qWait(100);
        QCOMPARE(finished.size(), 1);
        QVERIFY(!dialog.isRunning());
        QVERIFY(dialog.report() && dialog.report()->result.hasSolution());
        dialog.start();
        QVERIFY(dialog.isRunning());
        QVERIFY(finished.wait(10000));
        QTest::qWait(100);
        QCOMPARE(finished.size(), 2);
    }

    void experimentsDialogRestartInTheGap()
    {
        ExperimentsDialog dialog;
        ExperimentGrid grid;
        grid.size_from = grid.size_to = 4;
        grid.group_from = grid.group_to = 2;
        grid.search_time_limit_s = 0.2;
        dialog.setGrid(grid);
        auto *job = dialog.findChild<BackgroundJobBase *>(QStringLiteral("experiments"));
        QVERIFY(job);
        QSignalSpy finished(&dialog, &ExperimentsDialog::finished);
        dialog.start();
        job->waitForWorker();
        QVERIFY(dialog.isRunning());
        dialog.start(); // refused: it would clear the table under the delivery
        QVERIFY(finished.wait(10000));
        QTest::qWait(100);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(dialog.rows().size(), std::size_t(1));
        dialog.start();
        QVERIFY(finished.wait(10000));
        QTest::qWait(100);
        QCOMPARE(finished.size(), 2);
        QCOMPARE(dialog.rows().size(), std::size_t(1)); // the second run's row, not both
    }

    // Closing the Experiments dialog's owner mid-run does not wait for the grid.
    void destroyingTheExperimentsDialogReturnsPromptly()
    {
        auto dialog = std::make_unique<ExperimentsDialog>();
        ExperimentGrid grid;
        grid.size_from = 4;
        grid.size_to = 12;
        grid.group_from = 2;
        grid.group_to = 10;
        grid.search_time_limit_s = 10; // 81 instances: many minutes
        dialog->setGrid(grid);
        dialog->start();
        QTest::qWait(300);
        QVERIFY(dialog->isRunning());
        QElapsedTimer timer;
        timer.start();
        dialog.reset();
        QVERIFY2(timer.elapsed() < kPromptMs, qPrintable(QString::number(timer.elapsed())));
    }

    // ~ProjectDocument cancels its simulation, comparison and sweep before it
    // waits: destroying it during a sweep of a big layer is prompt.
    void destroyingTheDocumentDuringASweepReturnsPromptly()
    {
        auto doc = std::make_unique<ProjectDocument>();
        for (const char *name : {"simulation", "comparison", "sweep"})
            QVERIFY2(doc->findChild<BackgroundJobBase *>(QLatin1String(name)), name);
        QSignalSpy progress(doc.get(), &ProjectDocument::progress);
        doc->resetToProject(bigProject());
        auto *sweep = doc->findChild<BackgroundJobBase *>(QStringLiteral("sweep"));
        QVERIFY(sweep->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 10000);
        QTest::qWait(300);
        QVERIFY(doc->busy() && sweep->isRunning());
        QElapsedTimer timer;
        timer.start();
        doc.reset();
        qInfo("the document was destroyed in %lld ms", timer.elapsed());
        QVERIFY2(timer.elapsed() < kPromptMs, qPrintable(QString::number(timer.elapsed())));
    }

    // The same when the main window closes (an Optimise dialog running too).
    void closingTheMainWindowDuringASweepReturnsPromptly()
    {
        auto window = std::make_unique<MainWindow>();
        window->show();
        // An optimisation of LeNet-5's conv1 (stopped only by its 600 s limit), then the big layer.
        QVERIFY(window->openFile(sample("lenet5-conv1.json")));
        auto *optimise = window->findChild<QAction *>(QStringLiteral("optimiseAction"));
        QVERIFY(optimise);
        optimise->trigger();
        auto *dialog = window->findChild<OptimiseDialog *>();
        QVERIFY(dialog);
        dialog->setTimeLimit(600);
        dialog->start();
        window->document()->resetToProject(bigProject());
        // The window still paints while the optimiser and the sweep run (the
        // jobs leave Qt's global pool, which the raster engine waits on, alone).
        QElapsedTimer painting;
        painting.start();
        QTest::qWait(300);
        QVERIFY(!window->grab().isNull());
        QVERIFY2(painting.elapsed() < kPromptMs, qPrintable(QString::number(painting.elapsed())));
        QVERIFY(window->document()->busy());
        QVERIFY(dialog->isRunning());
        QVERIFY(window->close());
        QElapsedTimer timer;
        timer.start();
        window.reset();
        qInfo("the window was destroyed in %lld ms", timer.elapsed());
        QVERIFY2(timer.elapsed() < kPromptMs, qPrintable(QString::number(timer.elapsed())));
    }

    // The document in the gap: a new strategy is chosen after the worker
    // simulated the old one but before its result was taken in. The stale
    // snapshot is never shown; the chosen strategy's is, once.
    void documentRestartInTheGap()
    {
        ProjectDocument doc;
        doc.setSynchronousLimit(0); // the paper's Example is small enough to be simulated without a worker
        QCOMPARE(doc.load(sample("paper-example.json")), QString());
        QTRY_VERIFY(!doc.busy() && doc.simulation());
        QVERIFY(doc.project().strategies.size() >= 3);
        auto *job = doc.findChild<BackgroundJobBase *>(QStringLiteral("simulation"));
        QVERIFY(job);
        QSignalSpy changed(&doc, &ProjectDocument::simulationChanged);
        std::vector<std::string> shown;
        connect(&doc, &ProjectDocument::simulationChanged, this, [&] { shown.push_back(doc.simulation()->spec.name); });
        doc.setCurrentStrategy(1);
        QVERIFY(job->isRunning());
        job->waitForWorker(); // strategy 1 is simulated, its result on its way
        doc.setCurrentStrategy(2);
        QVERIFY(job->isRunning());
        QTRY_VERIFY(!doc.busy());
        QTest::qWait(100);
        const std::string chosen = doc.project().strategies[2].name;
        QCOMPARE(shown, std::vector<std::string>{chosen});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(doc.simulation()->spec.name, chosen);
    }

    // Cancel on the document: every job ends, the simulation says so.
    void documentCancelEndsEveryJob()
    {
        ProjectDocument doc;
        doc.resetToProject(bigProject());
        QVERIFY(doc.busy());
        QElapsedTimer timer;
        timer.start();
        doc.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!doc.busy(), int(kPromptMs));
        QVERIFY2(timer.elapsed() < kPromptMs, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(doc.simulation());
        QCOMPARE(doc.simulation()->failure, std::string("simulation cancelled"));
    }

    // Above the concurrent-jobs threshold (a layer of about 1200² and up) the
    // simulation, the comparison and the sweep run one after the other;
    // below it side by side. The threshold is lowered so that the paper's
    // Example takes the big layers' route.
    void bigLayersRunTheirJobsOneAtATime_data()
    {
        QTest::addColumn<bool>("big");
        QTest::addColumn<int>("mostAtOnce");
        QTest::newRow("under the threshold: side by side") << false << 3;
        QTest::newRow("over the threshold: one at a time") << true << 1;
    }
    void bigLayersRunTheirJobsOneAtATime()
    {
        QFETCH(bool, big);
        QFETCH(int, mostAtOnce);
        ProjectDocument doc;
        doc.setSynchronousLimit(0); // the paper's Example is small enough to be simulated without a worker
        if (big)
            doc.setConcurrentJobBytes(1);
        std::vector<BackgroundJobBase *> jobs;
        for (const char *name : {"simulation", "comparison", "sweep"}) {
            jobs.push_back(doc.findChild<BackgroundJobBase *>(QLatin1String(name)));
            QVERIFY(jobs.back());
        }
        int most = 0;
        const auto count = [&] {
            const int running = int(std::count_if(jobs.begin(), jobs.end(), [](auto *j) { return j->isRunning(); }));
            most = std::max(most, running);
        };
        connect(&doc, &ProjectDocument::progress, this, count);
        connect(&doc, &ProjectDocument::simulationChanged, this, count);
        connect(&doc, &ProjectDocument::comparisonChanged, this, count);
        QCOMPARE(doc.load(sample("paper-example.json")), QString());
        count();
        QTRY_VERIFY_WITH_TIMEOUT(!doc.busy(), 20000);
        QCOMPARE(most, mostAtOnce);
        // Every job ran to its end.
        QVERIFY(doc.simulation() && doc.simulation()->failure.empty() && doc.cursor());
        QCOMPARE(doc.comparison().size(), doc.project().strategies.size());
        QVERIFY(!doc.sweep().empty());
    }

    // A layer over the memory budget is refused before it runs, with what it
    // would need and the limit, in the simulation and in every comparison
    // row. The budget is lowered so that the paper's Example is over it.
    void overTheMemoryBudgetIsRefusedWithWhatItNeeds()
    {
        ProjectDocument doc;
        doc.setSynchronousLimit(0);
        WorkBudget budget;
        budget.bytes = 1000;
        doc.setWorkBudget(budget);
        QCOMPARE(doc.load(sample("paper-example.json")), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!doc.busy(), 20000);
        const double needs = estimateStrategy(doc.problem(), doc.project().strategies.front(), true, true).bytes;
        QVERIFY2(needs > 2 * budget.bytes, qPrintable(QString::number(needs)));
        QVERIFY(doc.simulation());
        const std::string &failure = doc.simulation()->failure;
        QVERIFY2(failure.starts_with("not simulated: this simulation would take about"), failure.c_str());
        const std::string named = "need about " + bytesText(needs) + " of memory (the limit is 1 kB)";
        QVERIFY2(failure.find(named) != std::string::npos, failure.c_str());
        QVERIFY(!doc.cursor());
        QCOMPARE(doc.comparison().size(), doc.project().strategies.size());
        for (const CompareRow &row : doc.comparison())
            QVERIFY2(row.failure.starts_with("not simulated: "), row.failure.c_str());
    }

    // A 483-byte project of days of work: the document refuses it at once
    // with what it would need, in the simulation and in every comparison row,
    // instead of keeping a core busy for days.
    void daysOfWorkAreRefusedNotRun()
    {
        ProjectDocument doc;
        QVERIFY(doc.load(QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/hostile/project-days-of-work.json")).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!doc.busy(), 20000);
        QVERIFY(doc.simulation());
        const std::string &failure = doc.simulation()->failure;
        QVERIFY2(failure.starts_with("not simulated: this simulation would take about"), failure.c_str());
        QVERIFY2(failure.find("days") != std::string::npos, failure.c_str());
        QCOMPARE(doc.comparison().size(), std::size_t(1));
        QVERIFY(doc.comparison().front().failure.starts_with("not simulated: "));
        // The strategy list says it was not simulated, not that it is broken.
        const StrategyListModel strategies(&doc);
        const QString summary = strategies.data(strategies.index(0), StrategyListModel::SummaryRole).toString();
        QVERIFY2(summary.endsWith(QStringLiteral("not simulated: too much work")), qPrintable(summary));
        const QString tip = strategies.data(strategies.index(0), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("work estimate is over the budget")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("expanded")), qPrintable(tip));
    }
};

QTEST_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
