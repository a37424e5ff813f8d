// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The main window on a 1280×720 screen (an offscreen screen of that size):
// it opens within the screen, every dock and tab title is readable, and the
// layout the user leaves comes back unchanged at every start.

#include "mainwindow/MainWindow.h"
#include "mainwindow/WindowLayout.h"
#include "charts/ChartsPanel.h"
#include "charts/ComparisonView.h"
#include "charts/ChartFactory.h"
#include "document/ChangeStrategyCommand.h"
#include "document/ProjectDocument.h"

#include "ChartTexts.h"

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QDockWidget>
#include <QFile>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>
#include <QTreeWidget>
#include <QTest>

#include <cstdlib>
#include <fstream>
#include <map>

using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

/// Every dock's geometry in window coordinates, by object name.
std::map<QString, QRect> dockGeometries(const QMainWindow &window)
{
    std::map<QString, QRect> geometries;
    for (const QDockWidget *d : window.findChildren<QDockWidget *>())
        geometries[d->objectName()] = d->isVisible() ? d->geometry() : QRect();
    return geometries;
}

/// Tab titles shown shorter than they are ("Gr…"), as "title (shown width < needed)".
QStringList elidedTabs(const QWidget &window)
{
    QStringList elided;
    for (const QTabBar *bar : window.findChildren<QTabBar *>()) {
        if (!bar->isVisible())
            continue;
        for (int i = 0; i < bar->count(); ++i) {
            const int needed = bar->fontMetrics().horizontalAdvance(bar->tabText(i).remove(QLatin1Char('&')));
            const QRect shown = bar->tabRect(i);
            const bool offBar = !bar->rect().contains(shown);
            if (shown.width() < needed + 8 || offBar)
                elided << QStringLiteral("%1 (%2 px for %3)").arg(bar->tabText(i)).arg(shown.width()).arg(needed);
        }
    }
    return elided;
}

/// The title as the chart draws it, in plain text (lines apart by \n).
QString shownChartTitle(const QChart *chart)
{
    for (const QGraphicsItem *item : chart->childItems())
        if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
            text && text->toHtml().contains(QStringLiteral("<br")))
            return text->toPlainText().replace(QChar::LineSeparator, QLatin1Char('\n'));
    return {};
}

void openAndWait(MainWindow &window, const char *name)
{
    QVERIFY(window.openFile(sample(name)));
    QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && window.document()->cursor(), 20000);
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadLayoutTests"));
        QSettings().clear();
    }

    void initialRect_data()
    {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("expected");
        QTest::newRow("1280x720") << QRect(0, 0, 1280, 720) << QRect(0, 0, 1280, 720);
        QTest::newRow("1280x690 under a panel") << QRect(0, 30, 1280, 690) << QRect(0, 30, 1280, 690);
        QTest::newRow("1920x1080 centred") << QRect(0, 0, 1920, 1080) << QRect(260, 90, 1400, 900);
        QTest::newRow("second screen") << QRect(1920, 0, 1600, 1000) << QRect(1920 + 100, 50, 1400, 900);
    }
    void initialRect()
    {
        QFETCH(QRect, available);
        QFETCH(QRect, expected);
        QCOMPARE(initialWindowRect(available, kPreferredWindowSize), expected);
    }

    // The first start on the 1280×720 screen: the whole window on it.
    void opensWithinTheScreen()
    {
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry(), QRect(0, 0, 1280, 720));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(QRect(0, 0, 1280, 720).contains(window.frameGeometry()) || window.size() == QSize(1280, 720),
            qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));
        // The title bar on the screen. Placed as a client area the size of the
        // screen, it ended above it under openbox; the window is shrunk by the
        // frame once the window manager has put one on. The offscreen platform
        // frames windows inward, so this cannot fail here: seen under Xvfb and
        // openbox (docs/user/visualiser.md, "Window").
        QVERIFY(window.frameGeometry().top() >= 0 && window.frameGeometry().left() >= 0);
        QVERIFY(window.width() <= 1280 && window.height() <= 720);
    }

    // At 1280×720 and 1920×1080, with a project open: every dock is on
    // screen, wide and tall enough for its contents' minimum, and no tab title
    // is cut.
    void everyDockReadable_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("network"); // a network project open in the Network dock
        QTest::newRow("1280x720") << QSize(1280, 720) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
        QTest::newRow("1280x720 network") << QSize(1280, 720) << true;
    }
    void everyDockReadable()
    {
        QFETCH(QSize, size);
        QFETCH(bool, network);
        MainWindow window;
        window.setGeometry(QRect(QPoint(0, 0), size));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (network) {
            QVERIFY(window.openFile(sample("networks/resnet8.json")));
            // The layers are listed once the dock's analysis has run.
            const auto *tree = window.findChild<QDockWidget *>(QStringLiteral("networkDock"))->findChild<QTreeWidget *>();
            QVERIFY(tree);
            QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() == 9, 20000);
        } else {
            openAndWait(window, "lenet5-conv1.json");
        }
        QTest::qWait(50);
        QCOMPARE(window.size(), size);
        for (QDockWidget *d : window.findChildren<QDockWidget *>()) {
            d->raise(); // a tabbed dock shows when its tab is chosen
            QTest::qWait(10);
            QVERIFY2(d->isVisible(), qPrintable(d->objectName()));
            QVERIFY2(window.rect().contains(d->geometry()), qPrintable(d->objectName()));
            const QSize minimum = d->widget()->minimumSizeHint();
            QVERIFY2(d->widget()->width() >= minimum.width(), qPrintable(d->objectName()));
            QVERIFY2(d->widget()->height() >= std::min(minimum.height(), 120), qPrintable(d->objectName()));
            QVERIFY2(d->widget()->width() >= 250, qPrintable(d->objectName()));
            const QStringList elided = elidedTabs(window);
            QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(", "))));
        }
    }

    // A network opened at 1280\u00d7720, from the start page or over an open
    // layer: its table shows every layer of ResNet-8 (9) and its chart gets
    // room to read (it showed about 3 rows and a 60 px chart over a layer).
    // Opening a layer from the network gives the grids their room back.
    void networkDockReads_data()
    {
        QTest::addColumn<bool>("layerOpen");
        QTest::newRow("from the start page") << false;
        QTest::newRow("over an open layer") << true;
    }
    void networkDockReads()
    {
        QFETCH(bool, layerOpen);
        MainWindow window;
        window.setGeometry(QRect(0, 0, 1280, 720));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (layerOpen)
            openAndWait(window, "lenet5-conv1.json");
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
        auto *tabs = dock->findChild<QTabWidget *>();
        QVERIFY(tabs);
        tabs->setCurrentIndex(1);
        QTest::qWait(20);
        QVERIFY2(tabs->currentWidget()->height() >= 200, qPrintable(QString::number(tabs->currentWidget()->height())));
        tabs->setCurrentIndex(0);
        // A layer opened from the network: the grids get their room back.
        const int tall = dock->height();
        emit tree->itemActivated(tree->topLevelItem(0), 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->cursor(), 20000);
        QTest::qWait(50);
        QVERIFY2(dock->height() < tall * 3 / 4, qPrintable(QStringLiteral("%1 then %2").arg(tall).arg(dock->height())));
    }

    // At 1280×720, no text of any chart is cut: titles with their numbers,
    // legends, axis labels; the comparison's names, headings and values fit
    // where they are drawn.
    void chartTextFits_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QString>("rename"); // a name for the current strategy; empty: keep it
        QTest::addColumn<int>("rowGroups"); // > 0: the current strategy becomes Row-by-Row with groups of this size
        QTest::newRow("lenet5-conv1") << QStringLiteral("lenet5-conv1.json") << QString() << 0;
        QTest::newRow("paper-example") << QStringLiteral("paper-example.json") << QString() << 0;
        // A name as long as the kernel-blocked ones of resnet8's stage3_conv2
        // cut the title's first line and lost its second at 1280×720.
        QTest::newRow("long strategy name") << QStringLiteral("lenet5-conv1.json")
                                            << QStringLiteral("Kernel-blocked row-by-row kernels-outer B=2 (tuned by hand)") << 0;
        // 16 steps and the drain: labels 1, 2, 4, … 14 and "drain" gave each
        // less room than "drain" needs, and Qt showed "dr…".
        QTest::newRow("16 steps") << QStringLiteral("lenet5-conv1.json") << QString() << 49;
    }
    void chartTextFits()
    {
        QFETCH(QString, project);
        QFETCH(QString, rename);
        QFETCH(int, rowGroups);
        MainWindow window;
        window.setGeometry(0, 0, 1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openAndWait(window, qPrintable(project));
        if (!rename.isEmpty() || rowGroups > 0) {
            ProjectDocument *doc = window.document();
            convoffload::StrategySpec spec = doc->project().strategies.at(std::size_t(doc->currentStrategy()));
            if (!rename.isEmpty())
                spec.name = rename.toStdString();
            if (rowGroups > 0) {
                spec.kind = convoffload::StrategyKind::RowByRow;
                spec.group_size = rowGroups;
            }
            doc->undoStack()->push(new ChangeStrategyCommand(doc, doc->currentStrategy(), spec, QStringLiteral("edit")));
            QTRY_VERIFY_WITH_TIMEOUT(!doc->busy() && doc->cursor(), 20000);
            if (rowGroups > 0)
                QCOMPARE(doc->cursor()->stepCount(), 784 / rowGroups + 1); // and the drain
        }
        ChartsPanel *charts = window.charts();
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->busy() && charts->comparisonView()->plot(), 20000);
        for (ChartsPanel::Tab tab :
            {ChartsPanel::FootprintTab, ChartsPanel::DurationsTab, ChartsPanel::CumulativeTab, ChartsPanel::SweepTab}) {
            charts->setCurrentTab(tab);
            QTRY_VERIFY(charts->chart(tab)->series().size() > 0);
            QTest::qWait(30);
            QVERIFY(charts->chartView(tab)->width() >= 300);
            const QStringList cut = cutChartTexts(charts->chart(tab), rename);
            QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("tab %1: ").arg(tab) + cut.join(QStringLiteral("; "))));
            // The title whole but for the strategy's name: what is drawn, and
            // the summary on its second line.
            const QString full = plainChartTitle(charts->chart(tab));
            const QString shown = shownChartTitle(charts->chart(tab));
            const QString name = QString::fromStdString(
                window.document()->project().strategies.at(std::size_t(window.document()->currentStrategy())).name);
            const qsizetype named = tab == ChartsPanel::SweepTab ? 0 : name.size(); // the sweep compares two by name
            QVERIFY2(full.startsWith(name.left(named)), qPrintable(full));
            QVERIFY2(shown.endsWith(QString(full).mid(named).replace(QStringLiteral(": "), QStringLiteral("\n"))),
                qPrintable(QStringLiteral("tab %1 shows \"%2\" of \"%3\"").arg(tab).arg(shown, full)));
        }
        charts->setCurrentTab(ChartsPanel::CompareTab);
        ComparisonView *compare = charts->comparisonView();
        QTest::qWait(30);
        const QRectF canvas(compare->rect());
        for (const PlacedText &t : compare->plot()->texts(canvas, compare->font())) {
            QVERIFY2(canvas.contains(t.rect), qPrintable(t.text));
            const QFontMetricsF fm(t.font);
            const QRectF needed = fm.boundingRect(QRectF(0, 0, t.rect.width(), 1e6), t.flags, t.text);
            QVERIFY2(needed.width() <= t.rect.width() + 0.5 && needed.height() <= t.rect.height() + 0.5, qPrintable(t.text));
        }
    }

    // A window resized after its first show (a window manager placing it, or
    // -qwindowgeometry for --screenshot, applied after the show event) gets
    // the docks of a window shown at that size, until the user presses on a
    // dock separator.
    void resizedAfterShowMatchesShownAtSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("800x600 to 1280x720") << QSize(1280, 720);
        QTest::newRow("800x600 to 1920x1080") << QSize(1920, 1080);
    }
    void resizedAfterShowMatchesShownAtSize()
    {
        QFETCH(QSize, size);
        MainWindow atSize;
        atSize.setGeometry(QRect(QPoint(0, 0), size));
        atSize.show();
        QVERIFY(QTest::qWaitForWindowExposed(&atSize));
        QTest::qWait(50);
        const std::map<QString, QRect> expected = dockGeometries(atSize);

        MainWindow resized;
        resized.setGeometry(0, 0, 800, 600);
        resized.show();
        QVERIFY(QTest::qWaitForWindowExposed(&resized));
        QTest::qWait(20);
        auto *charts = resized.findChild<QDockWidget *>(QStringLiteral("chartsDock"));
        const int narrow = charts->width();
        resized.resize(size);
        QTest::qWait(50);
        QCOMPARE(resized.size(), size);
        QVERIFY(charts->width() > narrow);
        const std::map<QString, QRect> docks = dockGeometries(resized);
        for (const auto &[name, rect] : expected)
            QVERIFY2(docks.at(name) == rect,
                qPrintable(QStringLiteral("%1: %2x%3, shown at size: %4x%5")
                               .arg(name)
                               .arg(docks.at(name).width())
                               .arg(docks.at(name).height())
                               .arg(rect.width())
                               .arg(rect.height())));

        // Once the user has pressed on the window (a separator), the docks
        // keep their sizes when the window is resized.
        QTest::mousePress(&resized, Qt::LeftButton, {}, QPoint(resized.width() / 2, resized.height() / 2));
        QTest::mouseRelease(&resized, Qt::LeftButton, {}, QPoint(resized.width() / 2, resized.height() / 2));
        const int kept = charts->width();
        resized.resize(size + QSize(100, 50)); // would give a wider Charts dock
        QTest::qWait(50);
        QCOMPARE(charts->width(), kept);
    }

    // A dock resized without the mouse (the keyboard, accessibility, or
    // resizeDocks as here: no press on the window) keeps its size when the
    // window is resized, as after a mouse drag. Opening a project is not such
    // a resize: the docks follow the window until then.
    void dockResizedWithoutTheMouseIsKept()
    {
        MainWindow window;
        window.setGeometry(0, 0, 800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(20);
        openAndWait(window, "lenet5-conv1.json");
        QTest::qWait(20);
        auto *charts = window.findChild<QDockWidget *>(QStringLiteral("chartsDock"));
        const int narrow = charts->width();
        window.resize(1280, 720); // Charts: 34 % of the width, 340 px at least
        QTest::qWait(50);
        QCOMPARE(charts->width(), 435);
        QVERIFY(charts->width() > narrow);

        window.resizeDocks({charts}, {380}, Qt::Horizontal);
        QTest::qWait(20);
        const int kept = charts->width();
        QVERIFY(kept < 435);
        window.resize(1380, 770); // would give 469 px
        QTest::qWait(50);
        QCOMPARE(charts->width(), kept);
    }

    // Closing saves the layout, the next start restores it: four starts in a
    // row give the same window and the same docks, to the pixel.
    void restartKeepsTheLayout()
    {
        std::map<QString, QRect> first;
        QSize firstSize;
        for (int start = 0; start < 4; ++start) {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            openAndWait(window, "lenet5-conv1.json");
            QTest::qWait(50);
            const std::map<QString, QRect> docks = dockGeometries(window);
            QVERIFY(docks.size() >= 7); // the seven of MainDocks and any added since
            if (start == 0) {
                first = docks;
                firstSize = window.size();
            } else {
                QCOMPARE(window.size(), firstSize);
                for (const auto &[name, rect] : first)
                    QVERIFY2(docks.at(name) == rect,
                        qPrintable(QStringLiteral("start %1, %2: %3,%4 %5x%6 (first: %7,%8 %9x%10)")
                                       .arg(start)
                                       .arg(name)
                                       .arg(docks.at(name).x())
                                       .arg(docks.at(name).y())
                                       .arg(docks.at(name).width())
                                       .arg(docks.at(name).height())
                                       .arg(rect.x())
                                       .arg(rect.y())
                                       .arg(rect.width())
                                       .arg(rect.height())));
            }
            QVERIFY(window.close());
        }
    }

    // A layout the user changed (a narrower Charts dock) comes back as left.
    void restartKeepsTheUsersLayout()
    {
        int width = 0;
        for (int start = 0; start < 3; ++start) {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *charts = window.findChild<QDockWidget *>(QStringLiteral("chartsDock"));
            if (start == 0) {
                window.resizeDocks({charts}, {500}, Qt::Horizontal);
                QTest::qWait(20);
                width = charts->width();
            }
            QCOMPARE(charts->width(), width);
            QVERIFY(window.close());
        }
    }
};

// The offscreen platform with one 1280×720 screen.
int main(int argc, char *argv[])
{
    const QString config = QDir::temp().filePath(QStringLiteral("convoffload-screen-1280x720.json"));
    std::ofstream(config.toStdString())
        << R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96}]})";
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + QFile::encodeName(config));
    QApplication app(argc, argv);
    TestWindowLayout test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_windowlayout.moc"
