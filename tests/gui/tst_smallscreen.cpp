// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// On a 1024×600 screen (an offscreen screen of that size, a netbook's): the
// Optimise dialog keeps its buttons on the screen, and a window saved on a
// larger screen reopens within this one (issue 41, item 8).

#include "charts/ChartFactory.h"
#include "charts/ChartsPanel.h"
#include "document/ProjectDocument.h"
#include "mainwindow/MainWindow.h"
#include "network/NetworkPanel.h"
#include "optimise/OptimiseDialog.h"

#include "convoffload/io/ProjectFile.h"

#include "ChartTexts.h"

#include <QAbstractSpinBox>
#include <QChart>
#include <QLegend>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QScrollArea>
#include <QTabBar>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QHeaderView>
#include <QTest>
#include <QTreeWidget>

#include <fstream>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

const QRect kScreen(0, 0, 1024, 600);

} // namespace

class TestSmallScreen : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadSmallScreenTests"));
        QSettings().clear();
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry(), kScreen);
    }

    // The dialog fits the screen and every button lies inside it, whole; the
    // form, the chart and the summary scroll instead (they ask for more
    // height than the screen has).
    void optimiseDialogButtonsOnScreen()
    {
        const Project project = loadProject(sample("lenet5-conv1.json").toStdString());
        OptimiseDialog dialog(project.problem, {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY2(dialog.height() <= kScreen.height() && dialog.width() <= kScreen.width(),
            qPrintable(QStringLiteral("%1×%2").arg(dialog.width()).arg(dialog.height())));
        QVERIFY2(dialog.minimumSizeHint().height() <= kScreen.height() - 40, // a title bar's room
            qPrintable(QString::number(dialog.minimumSizeHint().height())));
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_OPTIMISE")) // a look at it as a user would
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_OPTIMISE"));
        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        QVERIFY(buttons);
        QCOMPARE(buttons->buttons().size(), 4); // Optimise, Stop, Add to project, Close
        for (QAbstractButton *button : buttons->buttons()) {
            if (!button->isVisible())
                continue;
            const QRect onScreen(button->mapToGlobal(QPoint(0, 0)), button->size());
            QVERIFY2(kScreen.contains(onScreen),
                qPrintable(QStringLiteral("%1 at %2,%3 %4×%5")
                               .arg(button->text())
                               .arg(onScreen.x())
                               .arg(onScreen.y())
                               .arg(onScreen.width())
                               .arg(onScreen.height())));
            QVERIFY(dialog.rect().contains(QRect(button->mapTo(&dialog, QPoint(0, 0)), button->size())));
        }
    }

    // A fresh configuration at 1024\u00d7600 with a layer open: every field
    // of the layer and hardware editor shows whole inside its dock (the
    // third field of a row was cut), and no dock tab title is cut ("Layer
    // and \u2026", "G\u2026", a Charts tab behind scroll arrows).
    void freshLayoutReads()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(sample("lenet5-conv1.json")));
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && window.document()->cursor(), 20000);
        QTest::qWait(100);
        QStringList problems;
        auto *problem = window.findChild<QDockWidget *>(QStringLiteral("problemDock"));
        QVERIFY(problem);
        problem->raise();
        QTest::qWait(20);
        auto *scroll = problem->findChild<QScrollArea *>();
        for (QAbstractSpinBox *field : problem->findChildren<QAbstractSpinBox *>()) {
            if (!field->isVisible())
                continue;
            const QWidget *viewport = scroll ? scroll->viewport() : problem->widget();
            const QRect inView(field->mapTo(viewport, QPoint(0, 0)), field->size());
            // Across: whole inside the dock (a field below the fold scrolls into view).
            if (inView.left() < 0 || inView.right() >= viewport->width())
                problems << QStringLiteral("%1 cut: x %2..%3 in a %4 px view")
                                .arg(field->objectName())
                                .arg(inView.left())
                                .arg(inView.right())
                                .arg(viewport->width());
        }
        for (const QTabBar *bar : window.findChildren<QTabBar *>()) {
            if (!bar->isVisible())
                continue;
            for (int i = 0; i < bar->count(); ++i) {
                const int needed = bar->fontMetrics().horizontalAdvance(bar->tabText(i).remove(QLatin1Char('&')));
                const QRect shown = bar->tabRect(i);
                const bool vertical = bar->shape() == QTabBar::RoundedWest || bar->shape() == QTabBar::RoundedEast
                    || bar->shape() == QTabBar::TriangularWest || bar->shape() == QTabBar::TriangularEast;
                if ((vertical ? shown.height() : shown.width()) < needed + 8 || !bar->rect().contains(shown))
                    problems << QStringLiteral("tab %1 cut (%2 px for %3)").arg(bar->tabText(i)).arg(shown.width()).arg(needed);
            }
        }
        for (const QDockWidget *d : window.findChildren<QDockWidget *>())
            if (d->isVisible())
                qInfo("%s %dx%d", qPrintable(d->objectName()), d->width(), d->height());
        qInfo("centre %dx%d, minimum %dx%d", window.centralWidget()->width(), window.centralWidget()->height(),
            window.centralWidget()->minimumSizeHint().width(), window.centralWidget()->minimumSizeHint().height());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // A fresh configuration at 1024\u00d7600: every chart tab's legend
    // reads whole in the narrow Charts dock, its last entry too (Qt cut the
    // footprint's "mem_size = 65536" to "..."): the legend takes its short
    // labels, then smaller type (fitChartLegend).
    void chartLegendsFit_data()
    {
        QTest::addColumn<QString>("project");
        QTest::newRow("lenet5-conv1") << QStringLiteral("lenet5-conv1.json");
        QTest::newRow("streaming resnet18") << QStringLiteral("streaming/resnet18-layer3-conv.json");
    }
    void chartLegendsFit()
    {
        QFETCH(QString, project);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(sample(qPrintable(project))));
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && window.document()->cursor(), 30000);
        ChartsPanel *charts = window.charts();
        QStringList problems;
        for (ChartsPanel::Tab tab :
            {ChartsPanel::FootprintTab, ChartsPanel::DurationsTab, ChartsPanel::CumulativeTab, ChartsPanel::SweepTab}) {
            charts->setCurrentTab(tab);
            QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy(), 30000);
            QTest::qWait(50);
            QChart *chart = charts->chart(tab);
            for (const QString &cut : cutLegendTexts(chart))
                problems << QStringLiteral("tab %1 (%2 px): %3").arg(tab).arg(chart->size().width()).arg(cut);
            // Every chart whole: titles broken onto lines rather than cut (the
            // sweep's "\u2026, crossover at G \u2248 16.6" was), the Durations
            // chart's binned step axis too ("785 steps, 5 per bar: mean,
            // line: longest" was cut); only a long strategy name may give way.
            for (const QString &cut : cutChartTexts(chart,
                     QString::fromStdString(
                         window.document()->project().strategies[std::size_t(window.document()->currentStrategy())].name)))
                problems << QStringLiteral("tab %1 (%2 px): %3").arg(tab).arg(chart->size().width()).arg(cut);
            // Legible: never under the smallest text on screen.
            QVERIFY(chart->legend()->font().pointSizeF() >= kScreenLegendMinPoints - 1e-9);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // A network opened at 1024\u00d7600 from the start page, or over an open
    // layer: the Network dock shows every layer of ResNet-8 (9 rows; it
    // showed 3) and its chart gets room to read (it got 60 px).
    void networkDockReads_data()
    {
        QTest::addColumn<bool>("layerOpen");
        QTest::addColumn<bool>("beforeShow"); // as from the command line
        QTest::newRow("from the start page") << false << false;
        QTest::newRow("over an open layer") << true << false;
        QTest::newRow("from the command line") << false << true;
    }
    void networkDockReads()
    {
        QFETCH(bool, layerOpen);
        QFETCH(bool, beforeShow);
        MainWindow window;
        if (beforeShow) // the first layout of the shown window gave the dock a quarter back
            QVERIFY(window.openFile(sample("networks/resnet8.json")));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (layerOpen) {
            QVERIFY(window.openFile(sample("lenet5-conv1.json")));
            QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && window.document()->cursor(), 20000);
        }
        if (!beforeShow)
            QVERIFY(window.openFile(sample("networks/resnet8.json")));
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("networkDock"));
        auto *tree = dock->findChild<QTreeWidget *>();
        QVERIFY(tree);
        QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() == 9, 20000);
        QTest::qWait(50);
        const QRect last = tree->visualItemRect(tree->topLevelItem(8));
        QVERIFY2(!last.isEmpty() && last.bottom() < tree->viewport()->height(),
            qPrintable(QStringLiteral("last row at %1, viewport %2 tall, dock %3 tall")
                           .arg(last.bottom())
                           .arg(tree->viewport()->height())
                           .arg(dock->height())));
        // The duration and the share in view beside the best strategy's
        // name (long kernel-blocked names pushed them out).
        QTRY_VERIFY_WITH_TIMEOUT(!tree->topLevelItem(8)->text(NetworkPanel::ShareColumn).isEmpty(), 20000);
        QTest::qWait(20);
        for (const int column : {int(NetworkPanel::DurationColumn), int(NetworkPanel::ShareColumn)}) {
            const int right = tree->header()->sectionViewportPosition(column) + tree->header()->sectionSize(column);
            QVERIFY2(right <= tree->viewport()->width(),
                qPrintable(QStringLiteral("column %1 ends at %2 of %3").arg(column).arg(right).arg(tree->viewport()->width())));
        }
        auto *tabs = dock->findChild<QTabWidget *>();
        QVERIFY(tabs);
        tabs->setCurrentIndex(1);
        QTest::qWait(20);
        QVERIFY2(tabs->currentWidget()->height() >= 200,
            qPrintable(QStringLiteral("chart %1 tall, dock %2, centre %3 (minimum %4)")
                           .arg(tabs->currentWidget()->height())
                           .arg(dock->height())
                           .arg(window.centralWidget()->height())
                           .arg(window.centralWidget()->minimumSizeHint().height())));
        tabs->setCurrentIndex(0);
        // The window does not grow past the screen to make that room.
        QVERIFY2(window.height() <= kScreen.height(), qPrintable(QString::number(window.height())));
    }

    // A window saved at 1280×720 (on a larger screen) reopens within this
    // one, its status bar on the screen (it kept 1280×720: Qt moves a
    // restored window onto the screen but keeps its size on X11).
    void savedGeometryFitsTheScreen()
    {
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.setGeometry(0, 0, 1280, 720); // as it was on the larger screen
            QTest::qWait(20);
            QCOMPARE(window.size(), QSize(1280, 720));
            QVERIFY(window.close()); // saves the geometry
        }
        QVERIFY(QSettings().allKeys().size() > 0);
        MainWindow window;
        // Where the window is placed before it is shown: the offscreen
        // platform fits a shown window to its screen itself, a window
        // manager need not (X11 kept 1280×720, its status bar off the screen).
        QVERIFY2(window.width() <= kScreen.width() && window.height() <= kScreen.height(),
            qPrintable(QStringLiteral("%1×%2").arg(window.width()).arg(window.height())));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(20);
        // The client area fits, as a first run places it: at most the window
        // manager's frame passes the screen's edge until it is fitted too
        // (WindowLayout::fitFrameOnScreen; the offscreen platform's frame is
        // 2 px and not off the top, so it stays).
        const QRect client = window.geometry();
        const QRect frame = window.frameGeometry();
        const QRect tolerated = kScreen.adjusted(0, 0, frame.right() - client.right(), frame.bottom() - client.bottom());
        QVERIFY2(client.width() <= kScreen.width() && client.height() <= kScreen.height() && tolerated.contains(client),
            qPrintable(QStringLiteral("%1,%2 %3×%4").arg(client.x()).arg(client.y()).arg(client.width()).arg(client.height())));
        const QRect status(window.statusBar()->mapToGlobal(QPoint(0, 0)), window.statusBar()->size());
        QVERIFY(tolerated.contains(status));
    }
};

// The offscreen platform with one 1024×600 screen.
int main(int argc, char *argv[])
{
    const QString config = QDir::temp().filePath(QStringLiteral("convoffload-screen-1024x600.json"));
    std::ofstream(config.toStdString())
        << R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": 1024, "height": 600, "logicalDpi": 96}]})";
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + QFile::encodeName(config));
    QApplication app(argc, argv);
    TestSmallScreen test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_smallscreen.moc"
