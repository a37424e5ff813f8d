// The GUI's networks: the Import Network (ONNX) dialog's preview and the
// project it saves, the Network dock's analysis (durations worked out by
// hand in tst_network) and opening a layer from it in the main window; the
// network chart's bars (the same hand-worked durations split by what they
// are spent on) and opening a layer by clicking its bar.
#include "charts/ChartFactory.h"
#include "document/ProjectDocument.h"
#include "mainwindow/MainWindow.h"
#include "network/NetworkChart.h"
#include "network/NetworkImportDialog.h"
#include "network/NetworkPanel.h"

#include "convoffload/io/ProjectFile.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QHorizontalStackedBarSeries>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QValueAxis>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

const QByteArray kToy = R"({"format": "convoffload-project", "version": 2,
 "hardware": {"mem_size": 100, "nbop_pe": 4},
 "layers": [{"name": "a", "layer": {"c_in": 1, "h_in": 2, "w_in": 2, "h_k": 1, "w_k": 1, "n": 1}},
            {"name": "b", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1}}]})";

// The toy with a third layer "c": a 3×3 kernel is 9 operations, over
// nbop_pe = 4, so not one patch fits a step and no strategy is valid.
const QByteArray kToyWithInvalid = R"({"format": "convoffload-project", "version": 2,
 "hardware": {"mem_size": 100, "nbop_pe": 4},
 "layers": [{"name": "a", "layer": {"c_in": 1, "h_in": 2, "w_in": 2, "h_k": 1, "w_k": 1, "n": 1}},
            {"name": "b", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1}},
            {"name": "c", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 3, "w_k": 3, "n": 1}}]})";

QString writeToy(const QTemporaryDir &dir, const QByteArray &text = kToy)
{
    const QString path = dir.filePath(QStringLiteral("toy.json"));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(text);
    return path;
}

QList<qreal> barValues(const QBarSet *set)
{
    QList<qreal> values;
    for (int i = 0; i < set->count(); ++i)
        values << set->at(i);
    return values;
}

} // namespace

class TestNetworkGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadTests"));
        QSettings().clear();
    }

    void importDialogPreview()
    {
        NetworkImportDialog dialog;
        QCOMPARE(dialog.setModel(sample("networks/lenet5.onnx")), QString());
        QCOMPARE(dialog.setHardwareFile(sample("networks/lenet5-hardware.json")), QString());
        QTreeWidget *preview = dialog.preview();
        QCOMPARE(preview->topLevelItemCount(), 2);
        QCOMPARE(preview->topLevelItem(0)->text(0), QStringLiteral("Layers found (2)"));
        QCOMPARE(preview->topLevelItem(0)->child(1)->text(0), QStringLiteral("conv2"));
        QVERIFY(preview->topLevelItem(0)->child(1)->text(1).startsWith(QStringLiteral("6×14×14 · 16×5×5")));
        QCOMPARE(preview->topLevelItem(1)->childCount(), 0);
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_DIALOG"))
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_DIALOG"));
        // What it saves is what the CLI's import makes (the committed project).
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("lenet5.json"));
        QCOMPARE(dialog.saveTo(out), QString());
        QCOMPARE(loadNetwork(out.toStdString()) == loadNetwork(sample("networks/lenet5.json").toStdString()), true);
    }

    void importDialogRefusals()
    {
        NetworkImportDialog dialog;
        QVERIFY(dialog.setModel(sample("networks/lenet5-hardware.json")).contains(QStringLiteral("not an ONNX model")));
        QVERIFY(!dialog.network());
        QVERIFY(dialog.setHardwareFile(sample("networks/lenet5.onnx")).contains(QStringLiteral("line 1")));
        const QString dilated = QStringLiteral(CONVOFFLOAD_ONNX_TESTDATA "/pytorch-converted/test_Conv2d_dilated/model.onnx");
        if (QFile::exists(dilated)) {
            QVERIFY(!dialog.setModel(dilated).isEmpty());
            QVERIFY(!dialog.network());
            const QTreeWidgetItem *skipped = dialog.preview()->topLevelItem(1);
            QCOMPARE(skipped->childCount(), 1);
            QVERIFY(skipped->child(0)->text(1).contains(QStringLiteral("dilation")));
        }
    }

    void networkDock()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir)), QString());
        QVERIFY(analysed.wait(10000));
        QTreeWidget *tree = panel.tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->text(NetworkPanel::DurationColumn), QStringLiteral("10"));
        QCOMPARE(tree->topLevelItem(1)->text(NetworkPanel::BestColumn), QStringLiteral("ZigZag"));
        QCOMPARE(tree->topLevelItem(1)->text(NetworkPanel::DurationColumn), QStringLiteral("22"));
        QCOMPARE(tree->topLevelItem(1)->text(NetworkPanel::ShareColumn), QStringLiteral("68.8 %")); // 22 / 32
        QCOMPARE(tree->topLevelItem(1)->text(NetworkPanel::ValidColumn), QStringLiteral("✔"));
        QSignalSpy activated(&panel, &NetworkPanel::layerActivated);
        emit tree->itemActivated(tree->topLevelItem(1), 0);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 1);
        QVERIFY(!panel.openNetwork(dir.filePath(QStringLiteral("missing.json"))).isEmpty());
    }

    // The toy's durations (tst_network's toyNetworkByHand, t = 1): a = 4
    // pixel loads + 1 kernel load + 4 writes + 1 compute = 10; b (ZigZag) =
    // 10 pixel loads + 4 kernel elements + 4 writes + 4 computes = 22, over
    // half of 32: starred.
    void networkChartByHand()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QVERIFY(!panel.chart());
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir)), QString());
        QVERIFY(analysed.wait(10000));
        QChart *chart = panel.chart();
        QVERIFY(chart);
        QHorizontalStackedBarSeries *bars = networkBars(chart);
        QVERIFY(bars);
        QCOMPARE(bars->count(), 4); // no invalid layer: no hatched set
        const QList<QBarSet *> sets = bars->barSets();
        QCOMPARE(sets[0]->label(), QStringLiteral("load input"));
        QCOMPARE(barValues(sets[0]), (QList<qreal>{10, 4})); // bottom up: b, then a
        QCOMPARE(sets[1]->label(), QStringLiteral("load kernels"));
        QCOMPARE(barValues(sets[1]), (QList<qreal>{4, 1}));
        QCOMPARE(sets[2]->label(), QStringLiteral("write back"));
        QCOMPARE(barValues(sets[2]), (QList<qreal>{4, 4}));
        QCOMPARE(sets[3]->label(), QStringLiteral("compute"));
        QCOMPARE(barValues(sets[3]), (QList<qreal>{4, 1}));
        auto *layers = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(layers);
        QCOMPARE(layers->categories(), (QStringList{QStringLiteral("★ b"), QStringLiteral("a")}));
        QCOMPARE(networkBarLayer(chart, 0), 1);
        QCOMPARE(networkBarLayer(chart, 1), 0);
        QCOMPARE(networkBarLayer(chart, 2), -1);
        QVERIFY(plainChartTitle(chart).contains(QStringLiteral("total 32 cycles")));

        // Clicking b's bar selects its row and opens it, as a double-click.
        QSignalSpy activated(&panel, &NetworkPanel::layerActivated);
        emit bars->clicked(0, sets[3]); // b's bar, the bottom one
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 1);
        QCOMPARE(panel.tree()->currentItem(), panel.tree()->topLevelItem(1));

        // Exported like every figure.
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QCOMPARE(panel.saveChart(png, QSize(800, 400)), QString());
        QCOMPARE(QImage(png).size(), QSize(800, 400));
        QVERIFY(!panel.saveChart(dir.filePath(QStringLiteral("chart.txt")), QSize(800, 400)).isEmpty());

        // A new network clears the chart until its analysis ends.
        QCOMPARE(panel.openNetwork(writeToy(dir)), QString());
        QVERIFY(!panel.chart());
        QVERIFY(analysed.wait(10000));
    }

    // A layer without a valid strategy: no duration, all four parts 0, a
    // hatched bar the plot's height, marked ✖; the total stays 32.
    void networkChartMarksInvalidLayers()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir, kToyWithInvalid)), QString());
        QVERIFY(analysed.wait(10000));
        QCOMPARE(panel.tree()->topLevelItem(2)->text(NetworkPanel::ValidColumn), QStringLiteral("✖"));
        QHorizontalStackedBarSeries *bars = networkBars(panel.chart());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 5);
        const QList<QBarSet *> sets = bars->barSets();
        QCOMPARE(barValues(sets[0]), (QList<qreal>{0, 10, 4})); // c, b, a
        QCOMPARE(barValues(sets[3]), (QList<qreal>{0, 4, 1}));
        QCOMPARE(sets[4]->label(), QStringLiteral("no valid strategy"));
        auto *y = qobject_cast<QValueAxis *>(panel.chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(y);
        QVERIFY(y->max() > 22);
        QCOMPARE(barValues(sets[4]), (QList<qreal>{y->max(), 0, 0}));
        QCOMPARE(sets[4]->brush().style(), Qt::BDiagPattern);
        auto *layers = qobject_cast<QBarCategoryAxis *>(panel.chart()->axes(Qt::Vertical).value(0));
        QCOMPARE(layers->categories(), (QStringList{QStringLiteral("✖ c"), QStringLiteral("★ b"), QStringLiteral("a")}));
        QVERIFY(plainChartTitle(panel.chart()).contains(QStringLiteral("total 32 cycles")));
    }

    void mainWindowOpensALayer()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        auto *panel = window.findChild<NetworkPanel *>();
        QVERIFY(panel);
        QSignalSpy analysed(panel, &NetworkPanel::analysed);
        QCOMPARE(panel->openNetwork(writeToy(dir)), QString());
        QVERIFY(analysed.wait(10000));
        emit panel->tree()->itemActivated(panel->tree()->topLevelItem(1), 0);
        const Layer &layer = window.document()->project().problem.layer;
        QCOMPARE(layer.h_in, 3);
        QCOMPARE(layer.h_k, 2);
        QCOMPARE(window.document()->project().problem.hardware.nbop_pe, std::int64_t(4));
        // The layer's best strategy comes along, selected.
        QCOMPARE(window.document()->project().strategies.size(), std::size_t(1));
        QCOMPARE(window.document()->project().strategies[0].name, std::string("ZigZag"));
        QCOMPARE(window.document()->currentStrategy(), 0);
        // Clicking a's bar in the network chart opens a.
        QHorizontalStackedBarSeries *bars = networkBars(panel->chart());
        QVERIFY(bars);
        emit bars->clicked(1, bars->barSets().first()); // a's bar, the top one
        QCOMPARE(window.document()->project().problem.layer.h_in, 2);
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT")) {
            panel->parentWidget()->raise();
            window.resize(1400, 900);
            QTest::qWait(300);
            window.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT"));
        }
    }

    // CONVOFFLOAD_SCREENSHOT_NETWORK=out.png: the window at 1280×720 with
    // ResNet-8 in the Network dock (to look at; asserts nothing more).
    void resnet8Screenshot()
    {
        if (!qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_NETWORK"))
            QSKIP("set CONVOFFLOAD_SCREENSHOT_NETWORK to take the screenshot");
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        auto *panel = window.findChild<NetworkPanel *>();
        QVERIFY(panel);
        QSignalSpy analysed(panel, &NetworkPanel::analysed);
        QVERIFY(window.openFile(sample("networks/resnet8.json")));
        QVERIFY(analysed.wait(120000));
        panel->parentWidget()->raise();
        panel->tabs()->setCurrentIndex(1);
        QTest::qWait(300);
        window.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK"));
        panel->chartView()->grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK") + QStringLiteral(".view.png"));
        panel->tabs()->setCurrentWidget(panel->tree());
        QTest::qWait(100);
        window.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK") + QStringLiteral(".layers.png"));
        QCOMPARE(panel->saveChart(
                     qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK") + QStringLiteral(".chart.png"), QSize(1000, 500)),
            QString());
    }

    // File › Open of a network project shows it in the Network dock (the
    // single-layer document refuses it); a layer opened from there leaves
    // the start page.
    void fileOpenSendsANetworkToTheDock()
    {
        QTemporaryDir dir;
        const QString path = writeToy(dir);
        QVERIFY(isNetworkProjectFile(path.toStdString()));
        QVERIFY(!isNetworkProjectFile(sample("lenet5-conv1.json").toStdString()));
        QVERIFY(!isNetworkProjectFile(dir.filePath(QStringLiteral("missing.json")).toStdString()));
        MainWindow window;
        window.show();
        auto *panel = window.findChild<NetworkPanel *>();
        QVERIFY(panel);
        QSignalSpy analysed(panel, &NetworkPanel::analysed);
        QVERIFY(window.startPageShown());
        QVERIFY(window.openFile(path));
        QCOMPARE(panel->networkPath(), path);
        QVERIFY(panel->parentWidget()->isVisible());
        QVERIFY(analysed.wait(10000));
        emit panel->tree()->itemActivated(panel->tree()->topLevelItem(0), 0);
        QCOMPARE(window.document()->project().problem.layer.h_in, 2);
        QVERIFY(!window.startPageShown());
    }
};

QTEST_MAIN(TestNetworkGui)
#include "tst_network_gui.moc"
