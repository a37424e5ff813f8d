// The GUI's networks: the Import Network (ONNX) dialog's preview and the
// project it saves, the Network dock's analysis (durations worked out by
// hand in tst_network) and opening a layer from it in the main window.
#include "document/ProjectDocument.h"
#include "mainwindow/MainWindow.h"
#include "network/NetworkImportDialog.h"
#include "network/NetworkPanel.h"

#include "convoffload/io/ProjectFile.h"

#include <QDockWidget>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

const QByteArray kToy = R"({"format": "convoffload-project", "version": 2,
 "hardware": {"mem_size": 100, "nbop_pe": 4},
 "layers": [{"name": "a", "layer": {"c_in": 1, "h_in": 2, "w_in": 2, "h_k": 1, "w_k": 1, "n": 1}},
            {"name": "b", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1}}]})";

QString writeToy(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("toy.json"));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(kToy);
    return path;
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
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT")) {
            panel->parentWidget()->raise();
            window.resize(1400, 900);
            QTest::qWait(300);
            window.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT"));
        }
    }
};

QTEST_MAIN(TestNetworkGui)
#include "tst_network_gui.moc"
