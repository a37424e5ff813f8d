// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The first run and help: the start page (bundled samples, recent files, New
// Project), File › New, the Help menu's guide, shortcuts and About, and menu
// shortcuts that work wherever the focus is (grids, charts).

#include "mainwindow/MainWindow.h"
#include "charts/ChartsPanel.h"
#include "document/ProjectDocument.h"
#include "grid/GridView.h"
#include "panels/DiagnosticsPanel.h"
#include "start/BundledSamples.h"
#include "start/HelpDialog.h"
#include "start/HelpText.h"
#include "start/NewProjectDialog.h"
#include "start/StartPage.h"

#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QListWidgetItem *itemStarting(QListWidget *list, const QString &prefix)
{
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->text().startsWith(prefix))
            return list->item(i);
    return nullptr;
}

void waitIdle(MainWindow &window) { QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && window.document()->cursor(), 20000); }

} // namespace

class TestStartPage : public QObject {
    Q_OBJECT
private slots:
    // Settings and samples go where CTest points XDG_CONFIG_HOME and
    // XDG_DATA_HOME, a folder of this suite in this build tree (not
    // QStandardPaths' test mode: ~/.qttest is shared by every build tree).
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadStartTests")); }
    void init() { QSettings().clear(); }

    // Every sample of samples/ is bundled, described by its layer.
    void bundledSamples()
    {
        const QList<BundledSample> samples = convoffload::ui::bundledSamples();
        const QStringList files = QDir(QStringLiteral(CONVOFFLOAD_SAMPLES)).entryList({QStringLiteral("*.json")}, QDir::Files);
        QCOMPARE(samples.size(), files.size());
        bool found = false;
        for (const BundledSample &s : samples)
            if (s.file == QLatin1String("paper-example.json")) {
                found = true;
                QCOMPARE(s.label, QStringLiteral("paper-example\ninput 2×5×5, 2 kernels 3×3"));
            }
        QVERIFY(found);
        QTemporaryDir dir;
        QString error;
        const QString copy = extractBundledSample(QStringLiteral("paper-example.json"), dir.path(), &error);
        QVERIFY2(!copy.isEmpty(), qPrintable(error));
        QFile original(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")), copied(copy);
        QVERIFY(original.open(QIODevice::ReadOnly) && copied.open(QIODevice::ReadOnly));
        QCOMPARE(copied.readAll(), original.readAll());
        QVERIFY(QFileInfo(copy).isWritable());
        QVERIFY(extractBundledSample(QStringLiteral("nope.json"), dir.path(), &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("nope.json")));
    }

    // Started with no file: the start page, not empty grids; a sample opens
    // from it, and the next start lists it among the recent files.
    void startPageOpensSamplesAndRecentFiles()
    {
        QString opened;
        {
            MainWindow window;
            window.show();
            QVERIFY(window.startPageShown());
            StartPage *page = window.startPage();
            QVERIFY(page->isVisible());
            QCOMPARE(page->sampleList()->count(), 10);
            QListWidgetItem *paper = itemStarting(page->sampleList(), QStringLiteral("paper-example"));
            QVERIFY(paper);
            emit page->sampleList()->itemActivated(paper);
            QVERIFY(!window.startPageShown());
            QCOMPARE(window.document()->project().strategies.size(), std::size_t(4));
            opened = window.document()->filePath();
            QCOMPARE(QFileInfo(opened).fileName(), QStringLiteral("paper-example.json"));
            QVERIFY(opened.startsWith(bundledSampleFolder()));
            waitIdle(window);
        }
        MainWindow again;
        again.show();
        QVERIFY(again.startPageShown());
        QListWidgetItem *recent = itemStarting(again.startPage()->recentList(), QStringLiteral("paper-example.json"));
        QVERIFY(recent);
        emit again.startPage()->recentList()->itemActivated(recent);
        QVERIFY(!again.startPageShown());
        QCOMPARE(again.document()->filePath(), QFileInfo(opened).absoluteFilePath());
        waitIdle(again);
    }

    // The New Project dialog: LeNet-5 conv1 to start with, the heuristics ticked.
    void newProjectDialog()
    {
        NewProjectDialog dialog;
        const Project start = dialog.project();
        QCOMPARE(start.problem.layer.h_in, 32);
        QCOMPARE(start.problem.layer.n, 6);
        QCOMPARE(start.strategies.size(), std::size_t(3));
        dialog.heuristicBox(StrategyKind::S1Baseline)->setChecked(false);
        Problem changed = dialog.draft()->problem();
        changed.hardware.mem_size = 500;
        dialog.draft()->setProblem(changed);
        const Project project = dialog.project();
        QCOMPARE(project.problem.hardware.mem_size, 500);
        QCOMPARE(project.strategies.size(), std::size_t(2));
        QCOMPARE(project.strategies[0].kind, StrategyKind::RowByRow);
        QCOMPARE(project.strategies[1].kind, StrategyKind::ZigZag);
        QVERIFY(!project.strategies[1].group_size); // nb_patches_max
    }

    // File › New (Ctrl+N) runs the dialog and opens its untitled project.
    void fileNew()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTimer::singleShot(0, &window, [] {
            QTRY_VERIFY(qobject_cast<NewProjectDialog *>(QApplication::activeModalWidget()));
            static_cast<QDialog *>(QApplication::activeModalWidget())->accept();
        });
        window.newProject();
        QVERIFY(!window.startPageShown());
        QCOMPARE(window.document()->project().strategies.size(), std::size_t(3));
        QVERIFY(window.document()->filePath().isEmpty());
        QCOMPARE(window.document()->problem().layer.w_in, 32);
        waitIdle(window);
        QCOMPARE(window.document()->cursor()->stepCount(), 785); // 784 patches + drain (S1-baseline)
    }

    // Ctrl+D (Duplicate as Groups) from the output grid and from a chart; F1
    // (Guide) from the grid.
    void shortcutsFromAnyFocus()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")));
        waitIdle(window);
        const std::size_t before = window.document()->project().strategies.size();
        window.outputGrid()->setFocus();
        QTRY_VERIFY(window.outputGrid()->hasFocus());
        QTest::keyClick(window.outputGrid(), Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(window.document()->project().strategies.size(), before + 1);
        QChartView *chart = window.charts()->chartView(ChartsPanel::FootprintTab);
        chart->setFocus();
        QTRY_VERIFY(chart->hasFocus());
        QTest::keyClick(chart, Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(window.document()->project().strategies.size(), before + 2);
        window.inputGrid()->setFocus();
        QTest::keyClick(window.inputGrid(), Qt::Key_F1);
        auto *guide = window.findChild<HelpDialog *>(QStringLiteral("guideDialog"));
        QVERIFY(guide && guide->isVisible());
        guide->close();
    }

    // An impossible layer (kernel taller than the padded input): the findings
    // panel says why nothing is simulated, not "Simulating…".
    void impossibleLayerIsNotSimulating()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")));
        waitIdle(window);
        auto *kernelHeight = window.findChild<QSpinBox *>(QStringLiteral("layer.h_k"));
        QVERIFY(kernelHeight);
        kernelHeight->setValue(9); // as typed in the Layer and hardware editor
        QTRY_VERIFY(!window.document()->busy());
        QTest::qWait(50);
        QVERIFY2(
            !window.diagnostics()->summary().contains(QStringLiteral("Simulating")), qPrintable(window.diagnostics()->summary()));
    }

    // A `steps` strategy's kernel edits are in the Groups menu while it is
    // current (the menu was empty: only the group edits were there, hidden).
    void groupsMenuFollowsTheStrategy()
    {
        MainWindow window;
        QVERIFY(window.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/streaming/vgg16-cifar-conv2-2.json")));
        QMenu *groups = nullptr;
        for (QAction *a : window.menuBar()->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Groups"))
                groups = a->menu();
        QVERIFY(groups);
        const auto visible = [&] {
            QStringList names;
            for (const QAction *a : groups->actions())
                if (a->isVisible() && !a->isSeparator())
                    names << a->text();
            return names;
        };
        QTRY_VERIFY(visible().contains(QStringLiteral("Kernels to a new step")));
        QVERIFY(!visible().contains(QStringLiteral("Merge groups")));
        QVERIFY(window.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")));
        QTRY_VERIFY(visible().contains(QStringLiteral("Merge groups")));
        QVERIFY(!visible().contains(QStringLiteral("Kernels to a new step")));
    }

    // The guide, the shortcuts (from the menus) and About (paper, version).
    void helpTexts()
    {
        const QString guide = guideHtml();
        for (const char *needed : {"mem_size", "six actions", "drain", "Colours", "What to do first", "Okabe", "stream kernels"})
            QVERIFY2(guide.contains(QLatin1String(needed)), needed);
        MainWindow window;
        const QString keys = shortcutsHtml(window.menuBar());
        for (const QKeySequence &k : {QKeySequence(QKeySequence::Open), QKeySequence(QKeySequence::New),
                 QKeySequence(Qt::CTRL | Qt::Key_D), QKeySequence(Qt::CTRL | Qt::Key_E), QKeySequence(Qt::Key_Right),
                 QKeySequence(Qt::CTRL | Qt::Key_Y), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                 QKeySequence(Qt::CTRL | Qt::Key_I), QKeySequence(Qt::ALT | Qt::Key_Up), QKeySequence(Qt::CTRL | Qt::Key_K)})
            QVERIFY2(keys.contains(k.toString(QKeySequence::NativeText).toHtmlEscaped()), qPrintable(k.toString()));
        QVERIFY(keys.contains(QLatin1String("Duplicate as Groups")));
        QVERIFY(!keys.contains(QLatin1Char('&') + QLatin1String("Open")));
        // The grid's keys are UTF-8 text: read as Latin-1 the dash showed "1 â€“ 9".
        QVERIFY2(keys.contains(QStringLiteral("1 \u2013 9")), qPrintable(keys.right(600)));
        const QString about = aboutHtml(QStringLiteral("9.8.7"));
        QVERIFY(about.contains(QLatin1String("9.8.7")));
        QVERIFY(about.contains(QLatin1String("Convolutions Predictable Offloading to an Accelerator")));
        QVERIFY(about.contains(QLatin1String("ERTS 2026")));
    }
};

QTEST_MAIN(TestStartPage)
#include "tst_startpage.moc"
