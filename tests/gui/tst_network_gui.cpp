// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The GUI's networks: the Import Network (ONNX) dialog's preview and the
// project it saves, the Network dock's analysis (durations worked out by
// hand in tst_network) and opening a layer from it in the main window; the
// network chart's bars (the same hand-worked durations split by what they
// are spent on) and opening a layer by clicking its bar.
#include "document/AddStrategyCommand.h"
#include "document/EditProblemCommand.h"
#include "document/ProjectDocument.h"
#include "export/ExportPreset.h"
#include "grid/GridView.h"
#include "mainwindow/MainWindow.h"
#include "network/LayerShapeText.h"
#include "network/NetworkImportDialog.h"
#include "network/NetworkPanel.h"
#include "network/NetworkPlot.h"
#include "network/NetworkPlotView.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/StrategySimulation.h"

#include "TestOnnxModels.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QApplication>
#include <QTimer>
#include <QMessageBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <QTreeWidget>

#include <algorithm>

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

// The toy with two convolutions the import skipped: 4 in the model.
const QByteArray kToyWithSkipped = QByteArray(kToy).replace("}}]}",
    R"x(}}], "skipped": [{"node": "dw", "reason": "depthwise convolution (group = 2)"},
                     {"node": "up", "reason": "transposed convolution (ConvTranspose)"}]})x");

// The toy with layer b's own explicit groups G, one patch each in
// row-major order: the optimised family (tst_network: 23).
const QByteArray kToyWithGroups = R"({"format": "convoffload-project", "version": 2,
 "hardware": {"mem_size": 100, "nbop_pe": 4},
 "layers": [{"name": "a", "layer": {"c_in": 1, "h_in": 2, "w_in": 2, "h_k": 1, "w_k": 1, "n": 1}},
            {"name": "b", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1},
             "strategies": [{"name": "G", "kind": "groups", "groups": [[0], [1], [2], [3]]}]}]})";

struct Bar {
    std::size_t layer;
    QString family; // empty when the layer has no valid strategy
    QString strategy;
    std::vector<double> parts; // input loads, kernel loads, writes, compute
    bool best;
    bool operator==(const Bar &) const = default;
};

std::vector<Bar> bars(const NetworkPlot &plot)
{
    std::vector<Bar> out;
    for (const NetworkPlotRow &r : plot.rows())
        out.push_back({r.layer, r.family ? QString::fromStdString(strategyFamilyName(*r.family)) : QString(), r.strategy,
            {r.split.input_loads, r.split.kernel_loads, r.split.writes, r.split.compute}, r.best});
    return out;
}

/// Every text of the plot drawn at `width` (as tall as it asks) fits its
/// rectangle, and the rectangles stay inside the figure.
void checkTextsFit(const NetworkPlot &plot, double width, const QFont &font)
{
    const QRectF figure(0, 0, width, plot.heightFor(width, font));
    for (const PlacedText &t : plot.texts(figure, font)) {
        const QRectF need = QFontMetricsF(t.font).boundingRect(t.rect, t.flags, t.text);
        QVERIFY2(need.width() <= t.rect.width() + 0.5 && need.height() <= t.rect.height() + 0.5,
            qPrintable(QStringLiteral("'%1' needs %2×%3 in %4×%5 at width %6")
                           .arg(t.text)
                           .arg(need.width())
                           .arg(need.height())
                           .arg(t.rect.width())
                           .arg(t.rect.height())
                           .arg(width)));
        QVERIFY2(figure.contains(t.rect), qPrintable(t.text));
    }
}

/// A point on the bar of `layer` in the view, found by asking the view.
QPoint pointOnLayer(const NetworkPlotView &view, int layer)
{
    for (int y = 0; y < view.height(); ++y)
        if (view.layerAt(QPointF(view.width() * 0.7, y)) == layer)
            return QPoint(int(view.width() * 0.7), y + 3);
    return {};
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
        dialog.setModel(sample("networks/lenet5.onnx"));
        QCOMPARE(dialog.waitForImport(), QString());
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

    // The model is read and imported off the GUI thread (a model of
    // hundreds of megabytes takes a second): setModel() returns at once with
    // the dialog saying what it does; a second model chosen meanwhile wins;
    // Import and Save\u2026 pressed meanwhile saves when the import is shown.
    void importDialogImportsOffTheGuiThread()
    {
        NetworkImportDialog dialog;
        dialog.setModel(sample("networks/lenet5-hardware.json")); // not a model: its error must not be shown
        QVERIFY(dialog.isImporting());
        dialog.setModel(sample("networks/lenet5.onnx"));
        QVERIFY(dialog.isImporting());
        QCOMPARE(dialog.preview()->topLevelItemCount(), 0);
        QVERIFY(!dialog.network());
        bool saysReading = false;
        for (QLabel *label : dialog.findChildren<QLabel *>())
            saysReading = saysReading || label->text() == QStringLiteral("Reading lenet5.onnx\u2026");
        QVERIFY(saysReading);
        QCOMPARE(dialog.waitForImport(), QString());
        QVERIFY(!dialog.isImporting());
        QCOMPARE(dialog.preview()->topLevelItem(0)->text(0), QStringLiteral("Layers found (2)"));
        QVERIFY(dialog.network().has_value());
    }

    // Browse\u2026 for a model opened a folder with no model in it: it starts
    // in the folder of the last model read, and before any, in the samples'
    // networks where they are installed (a system data folder here).
    void importDialogBrowsesWhereModelsAre()
    {
        QSettings().remove(QStringLiteral("network/modelFolder"));
        QTemporaryDir data;
        const QString installed = data.filePath(QStringLiteral("convoffload/samples/networks"));
        QVERIFY(QDir().mkpath(installed));
        const QByteArray saved = qgetenv("XDG_DATA_DIRS");
        const QByteArray savedHome = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_DIRS", data.path().toUtf8());
        qputenv("XDG_DATA_HOME", data.filePath(QStringLiteral("home")).toUtf8());
        const QString first = NetworkImportDialog::modelFolder();
        qputenv("XDG_DATA_DIRS", saved);
        qputenv("XDG_DATA_HOME", savedHome);
        QCOMPARE(QFileInfo(first).canonicalFilePath(), QFileInfo(installed).canonicalFilePath());
        NetworkImportDialog dialog;
        dialog.setModel(sample("networks/lenet5.onnx"));
        QCOMPARE(dialog.waitForImport(), QString());
        QCOMPARE(
            QFileInfo(NetworkImportDialog::modelFolder()).canonicalFilePath(), QFileInfo(sample("networks")).canonicalFilePath());
    }

    // Paths typed into the fields are read when the field is left, as
    // Browse… reads the file chosen (the fields took no typing).
    void importDialogReadsTypedPaths()
    {
        NetworkImportDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QList<QLineEdit *> fields = dialog.findChildren<QLineEdit *>();
        QLineEdit *model = nullptr, *hardware = nullptr;
        for (QLineEdit *f : fields) {
            if (f->placeholderText().contains(QStringLiteral("ONNX model")))
                model = f;
            if (f->placeholderText().contains(QStringLiteral("hardware file")))
                hardware = f;
        }
        QVERIFY(model && hardware && !model->isReadOnly() && !hardware->isReadOnly());
        model->setFocus();
        QTest::keyClicks(model, sample("networks/lenet5.onnx"));
        QTest::keyClick(model, Qt::Key_Tab);
        QCOMPARE(dialog.waitForImport(), QString());
        QCOMPARE(dialog.preview()->topLevelItem(0)->text(0), QStringLiteral("Layers found (2)"));
        hardware->setFocus();
        QTest::keyClicks(hardware, sample("networks/lenet5-hardware.json"));
        QTest::keyClick(hardware, Qt::Key_Tab);
        QVERIFY(dialog.network());
        QCOMPARE(
            dialog.network()->hardware == loadAccelerator(sample("networks/lenet5-hardware.json").toStdString()).hardware, true);
        // A path that is not a model says why, in the dialog.
        model->setFocus();
        model->selectAll();
        QTest::keyClicks(model, sample("networks/lenet5-hardware.json"));
        QTest::keyClick(model, Qt::Key_Tab);
        QVERIFY(!dialog.network());
        dialog.waitForImport();
        QVERIFY(!dialog.network());
        const auto says = [&](const QString &what) {
            for (QLabel *label : dialog.findChildren<QLabel *>())
                if (label->text().contains(what))
                    return true;
            return false;
        };
        QVERIFY(says(QStringLiteral("not an ONNX model")));
        // A model that does not exist, a hardware file that is not one: each
        // says why, and the hardware read before stays.
        model->setFocus();
        model->selectAll();
        QTest::keyClicks(model, QStringLiteral("/nonexistent/model.onnx"));
        QTest::keyClick(model, Qt::Key_Tab);
        QVERIFY(!dialog.network());
        dialog.waitForImport();
        QVERIFY(says(QStringLiteral("/nonexistent/model.onnx")));
        hardware->setFocus();
        hardware->selectAll();
        QTest::keyClicks(hardware, sample("networks/lenet5.onnx"));
        QTest::keyClick(hardware, Qt::Key_Tab);
        QVERIFY(says(QStringLiteral("Hardware file: ")));
        QCOMPARE(dialog.accelerator().hardware == loadAccelerator(sample("networks/lenet5-hardware.json").toStdString()).hardware,
            true);
    }

    // Save in the unsaved-network prompt where the save fails (its folder is
    // gone): the reason is shown, the caller is told to stop, and the
    // optimised strategies are still there.
    void unsavedNetworkSaveThatFailsLosesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("net")));
        const QString path = dir.filePath(QStringLiteral("net/lenet5.json"));
        QVERIFY(QFile::copy(sample("networks/lenet5.json"), path));
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QSignalSpy optimised(&panel, &NetworkPanel::optimised);
        QCOMPARE(panel.openNetwork(path), QString());
        QVERIFY(analysed.wait(60000));
        QVERIFY(panel.startOptimisation(1.0));
        QVERIFY(optimised.wait(60000));
        QVERIFY(panel.isModified());
        const Network before = *panel.network();
        QVERIFY(QDir(dir.filePath(QStringLiteral("net"))).removeRecursively());
        QStringList shown;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                shown << box->text();
                box->button(box->standardButtons() & QMessageBox::Save ? QMessageBox::Save : QMessageBox::Ok)->click();
            }
        });
        poll.start(10);
        const bool goOn = panel.maybeSaveNetwork();
        poll.stop();
        QCOMPARE(goOn, false);
        QCOMPARE(shown.size(), 2); // the question, then why the save failed
        QVERIFY2(shown[1].contains(QStringLiteral("net/lenet5.json: cannot create a temporary file")), qPrintable(shown[1]));
        QVERIFY(panel.isModified());
        QCOMPARE(*panel.network() == before, true);
    }

    // The shape text the dock and the import preview show: group and
    // dilation only when not 1, so a dense layer's text is as before.
    void layerShapeTextShowsGroupAndDilation()
    {
        Layer l;
        l.c_in = 32, l.h_in = 16, l.w_in = 16, l.n = 32, l.h_k = 3, l.w_k = 3;
        l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = 1;
        QCOMPARE(ui::layerShapeText(l), QStringLiteral("32×16×16 · 32×3×3, stride 1×1, pads 1 1 1 1"));
        l.group = 32;
        QCOMPARE(ui::layerShapeText(l), QStringLiteral("32×16×16 · 32×3×3, stride 1×1, pads 1 1 1 1, g=32"));
        l.dilation_h = 2;
        l.dilation_w = 3;
        QCOMPARE(ui::layerShapeText(l), QStringLiteral("32×16×16 · 32×3×3, stride 1×1, pads 1 1 1 1, g=32, d=2×3"));
        l.group = 1;
        QCOMPARE(ui::layerShapeText(l), QStringLiteral("32×16×16 · 32×3×3, stride 1×1, pads 1 1 1 1, d=2×3"));
    }

    // A hardware file that cannot be read is refused: Import and Save… is
    // disabled and says why, nothing is saved with the fields' defaults
    // (mem_size 1000, nbop_pe 1000); clearing the field or reading a good
    // file enables it again (issue 41, item 7).
    void importDialogRefusesUnreadableHardware()
    {
        NetworkImportDialog dialog;
        dialog.setModel(sample("networks/lenet5.onnx"));
        QCOMPARE(dialog.waitForImport(), QString());
        QAbstractButton *import = nullptr;
        for (QAbstractButton *b : dialog.findChildren<QAbstractButton *>())
            if (b->text().startsWith(QStringLiteral("Import and Save")))
                import = b;
        QVERIFY(import);
        QVERIFY(import->isEnabled()); // a model alone imports with the fields' hardware
        const QString error = dialog.setHardwareFile(sample("networks/lenet5.onnx"));
        QVERIFY(error.contains(QStringLiteral("line 1")));
        QVERIFY(!dialog.network());
        QVERIFY(!import->isEnabled());
        QVERIFY2(import->toolTip().contains(error), qPrintable(import->toolTip()));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("net.json"));
        QVERIFY(dialog.saveTo(out).contains(error));
        QVERIFY(!QFile::exists(out));
        // A missing file is refused alike.
        QVERIFY(!dialog.setHardwareFile(dir.filePath(QStringLiteral("none.json"))).isEmpty());
        QVERIFY(!import->isEnabled());
        // The field cleared: the values in the fields, as with no file.
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QLineEdit *hardware = nullptr;
        for (QLineEdit *f : dialog.findChildren<QLineEdit *>())
            if (f->placeholderText().contains(QStringLiteral("hardware file")))
                hardware = f;
        QVERIFY(hardware);
        hardware->setFocus();
        hardware->clear();
        QTest::keyClick(hardware, Qt::Key_Tab);
        QVERIFY(import->isEnabled());
        QVERIFY(import->toolTip().isEmpty());
        // A good file read: enabled, with its hardware.
        QCOMPARE(dialog.setHardwareFile(sample("networks/lenet5-hardware.json")), QString());
        QVERIFY(import->isEnabled());
        QCOMPARE(
            dialog.network()->hardware == loadAccelerator(sample("networks/lenet5-hardware.json").toStdString()).hardware, true);
    }

    void importDialogRefusals()
    {
        NetworkImportDialog dialog;
        dialog.setModel(sample("networks/lenet5-hardware.json"));
        QVERIFY(dialog.waitForImport().contains(QStringLiteral("not an ONNX model")));
        QVERIFY(!dialog.network());
        QVERIFY(dialog.setHardwareFile(sample("networks/lenet5.onnx")).contains(QStringLiteral("line 1")));
        const QString conv3d = QStringLiteral(CONVOFFLOAD_ONNX_TESTDATA "/pytorch-converted/test_Conv3d/model.onnx");
        if (QFile::exists(conv3d)) {
            // Every convolution skipped: the message counts them per category.
            dialog.setModel(conv3d);
            QCOMPARE(dialog.waitForImport(),
                QStringLiteral("No convolution the layer model can hold: every one is skipped (1 3-D convolution)."));
            QVERIFY(!dialog.network());
            const QTreeWidgetItem *skipped = dialog.preview()->topLevelItem(1);
            QCOMPARE(skipped->childCount(), 1);
            QVERIFY(skipped->child(0)->text(1).contains(QStringLiteral("3-D convolution")));
        }
    }

    // A model whose input x is [N, 3, height, ?] (a symbolic batch, a named
    // and an unnamed size, as paddle2onnx exports) into a Conv of 8 kernels
    // 3×3, stride 2, pads 1: its row shows the model's shape, a size typed
    // imports the convolution, a wrong one is refused beside the field.
    void importDialogInputShapes()
    {
        QTemporaryDir dir;
        onnx::ModelProto m = onnxmodels::emptyModel({{0, "N"}, {3}, {0, "height"}, {0, nullptr}});
        onnxmodels::addWeights(m, "w", {8, 3, 3, 3});
        onnx::NodeProto &conv = onnxmodels::addConv(m, "c", "x", "w", "y");
        onnxmodels::setInts(conv, "strides", {2, 2});
        onnxmodels::setInts(conv, "pads", {1, 1, 1, 1});
        const QString path = dir.filePath(QStringLiteral("symbolic.onnx"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(m.SerializeAsString()));
        }
        NetworkImportDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.setModel(path);
        QCOMPARE(dialog.waitForImport(),
            QStringLiteral("No convolution the layer model can hold: every one is skipped (1 dynamic input dimension)."));
        QLineEdit *field = dialog.inputShapeField(QStringLiteral("x"));
        QVERIFY(field);
        QCOMPARE(field->text(), QStringLiteral("1, 3, height, ?")); // the batch as the import takes it
        QApplication::processEvents();
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_SHAPES_START"))
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_SHAPES_START"));
        QVERIFY(field->toolTip().contains(QStringLiteral("--input-shape")));
        QCOMPARE(dialog.focusWidget(), field); // the sizes are what is left to give
        QAbstractButton *importButton = nullptr;
        for (QAbstractButton *b : dialog.findChildren<QAbstractButton *>())
            if (b->text().startsWith(QStringLiteral("Import")))
                importButton = b;
        QVERIFY(importButton && !importButton->isEnabled());
        // Keyboard: the field comes right after the model's path.
        QLineEdit *model = nullptr;
        for (QLineEdit *f : dialog.findChildren<QLineEdit *>())
            if (f->placeholderText().contains(QStringLiteral("ONNX model")))
                model = f;
        QVERIFY(model);
        QCOMPARE(model->nextInFocusChain(), field);

        // 64×48 by hand: h_out = (64 + 1 + 1 − 3)/2 + 1 = 32, w_out = (48 + 2 − 3)/2 + 1 = 24.
        const auto type = [&](const QString &text) {
            field->setFocus();
            field->selectAll();
            QTest::keyClicks(field, text);
        };
        type(QStringLiteral("1, 3, 64, 48"));
        QTRY_COMPARE(
            dialog.preview()->topLevelItem(0)->text(0), QStringLiteral("Layers found (1)")); // a moment after the last key
        QCOMPARE(dialog.preview()->topLevelItem(0)->child(0)->text(0), QStringLiteral("c"));
        QCOMPARE(
            dialog.preview()->topLevelItem(0)->child(0)->text(1), QStringLiteral("3×64×48 · 8×3×3, stride 2×2, pads 1 1 1 1"));
        QCOMPARE(dialog.preview()->topLevelItem(1)->childCount(), 0);
        QVERIFY(importButton->isEnabled());
        QCOMPARE(dialog.inputShapeError(QStringLiteral("x")), QString());
        QApplication::processEvents(); // the layout follows the message shown
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_SHAPES"))
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_SHAPES"));

        // Refused at once, beside the field: the import's own words, or why the text is no shape.
        const std::vector<std::pair<QString, QString>> refused = {
            {QStringLiteral("1, 3, 64"), QStringLiteral("the graph input 'x' has rank 4, [1, 3, 64] gives 3 sizes")},
            {QStringLiteral("1, 4, 64, 48"), QStringLiteral("dimension 1 of the graph input 'x' is 3 in the model, not 4")},
            {QStringLiteral("1, 3, 0, 48"), QStringLiteral("'x': the sizes must be at least 1, got [1, 3, 0, 48]")},
            {QStringLiteral("1, 3, 64, wide"), QStringLiteral("'wide' is not a size: write whole numbers separated by commas")},
            {QStringLiteral("1, 3, height, 48"),
                QStringLiteral("dimension 2 (height) has no size yet: give every dimension a size")},
        };
        for (const auto &[text, message] : refused) {
            type(text);
            QCOMPARE(dialog.inputShapeError(QStringLiteral("x")), message);
            QVERIFY(!importButton->isEnabled());
            QVERIFY(!dialog.network());
            QTest::keyClick(field, Qt::Key_Tab); // leaving the field imports nothing new
            QVERIFY(!importButton->isEnabled());
            QCOMPARE(dialog.inputShapeError(QStringLiteral("x")), message);
        }
        const auto shown = [&](const QString &message) {
            for (QLabel *label : dialog.findChildren<QLabel *>())
                if (label->isVisible() && label->text() == message)
                    return true;
            return false;
        };
        QVERIFY(shown(QStringLiteral("dimension 2 (height) has no size yet: give every dimension a size")));
        QApplication::processEvents(); // the layout follows the message shown
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_SHAPES_ERROR"))
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_SHAPES_ERROR"));
        // The dialog fits a 1280×720 screen.
        QVERIFY(dialog.minimumSizeHint().width() <= 1280 && dialog.minimumSizeHint().height() <= 720);
        QVERIFY(dialog.width() <= 1280 && dialog.height() <= 720);

        // Leaving the field imports at once; the network saved has that layer.
        type(QStringLiteral("1,3,64,48"));
        QTest::keyClick(field, Qt::Key_Tab);
        QVERIFY(importButton->isEnabled());
        QCOMPARE(dialog.importedShapes(), (InputShapes{{"x", {1, 3, 64, 48}}}));
        const QString out = dir.filePath(QStringLiteral("symbolic.json"));
        QCOMPARE(dialog.saveTo(out), QString());
        const Network saved = loadNetwork(out.toStdString());
        QCOMPARE(saved.layers.size(), std::size_t(1));
        QCOMPARE(saved.layers[0].layer.h_in, 64);
        QCOMPARE(saved.layers[0].layer.w_in, 48);
        QCOMPARE(saved.layers[0].layer.hOut(), 32);
        QCOMPARE(saved.layers[0].layer.wOut(), 24);
        QVERIFY(saved.skipped.empty());
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
    // half of 32: starred. Both only have heuristics: one bar each.
    void networkChartByHand()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        panel.resize(900, 500);
        QVERIFY(!panel.plotView()->plot());
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir)), QString());
        QVERIFY(analysed.wait(10000));
        const NetworkPlot *plot = panel.plotView()->plot();
        QVERIFY(plot);
        QCOMPARE(bars(*plot),
            (std::vector<Bar>{{0, QStringLiteral("heuristic"), QStringLiteral("Row-by-Row"), {4, 1, 4, 1}, true},
                {1, QStringLiteral("heuristic"), QStringLiteral("ZigZag"), {10, 4, 4, 4}, true}}));
        QCOMPARE(plot->layerLabel(0), QStringLiteral("a"));
        QCOMPARE(plot->layerLabel(1), QStringLiteral("★ b"));
        QVERIFY(plot->title().contains(QStringLiteral("total 32 cycles")));
        QVERIFY(!plot->title().contains(QStringLiteral("convolutions"))); // nothing skipped

        // Clicking b's bar selects its row and opens it, as a double-click.
        panel.tabs()->setCurrentIndex(1);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy activated(&panel, &NetworkPanel::layerActivated);
        const QPoint onB = pointOnLayer(*panel.plotView(), 1);
        QVERIFY(!onB.isNull());
        QTest::mouseClick(panel.plotView(), Qt::LeftButton, {}, onB);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 1);
        QCOMPARE(panel.tree()->currentItem(), panel.tree()->topLevelItem(1));

        // Exported like every figure: 1000 wide, as tall as its rows need.
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QCOMPARE(panel.saveChart(png), QString());
        QCOMPARE(QImage(png).size(), QSize(1000, int(plot->heightFor(1000, panel.font()))));
        QVERIFY(!panel.saveChart(dir.filePath(QStringLiteral("chart.txt"))).isEmpty());
        // At a preset (issue 41, item 4): its width, at least its height, its
        // dpi; 85 mm at 300 dpi is 1004 px (85 / 25.4 × 300 = 1003.9).
        const ExportPreset column = *exportPresetFromName(QStringLiteral("paper-column"));
        const QString columnPng = dir.filePath(QStringLiteral("chart-column.png"));
        QCOMPARE(panel.saveChart(columnPng, column), QString());
        const QImage columnImage(columnPng);
        QVERIFY2(std::abs(columnImage.width() - 1004) <= 1, qPrintable(QString::number(columnImage.width())));
        QVERIFY(columnImage.height() >= 65 / 25.4 * 300 - 2); // the preset's 65 mm at least
        QCOMPARE(qRound(columnImage.dotsPerMeterX() * 0.0254), 300);
        // Without its heading, the chart is shorter by it.
        const Figure titled = networkFigure(*panel.analysis(), presetFont(column), 321);
        const Figure untitled = networkFigure(*panel.analysis(), presetFont(column), 321, false);
        QVERIFY(untitled.preferredSize.height() < titled.preferredSize.height());

        // A new network clears the chart until its analysis ends.
        QCOMPARE(panel.openNetwork(writeToy(dir)), QString());
        QVERIFY(!panel.plotView()->plot());
        QVERIFY(analysed.wait(10000));
    }

    // Layer b's own groups G (row-major, one patch each: 11 pixel loads, 4
    // kernel elements, 4 writes, 4 computes = 23) are the optimised family:
    // a second, lighter bar under b's heuristic best (ZigZag, 22).
    void networkChartShowsEachFamily()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir, kToyWithGroups)), QString());
        QVERIFY(analysed.wait(10000));
        const NetworkPlot *plot = panel.plotView()->plot();
        QVERIFY(plot);
        QCOMPARE(bars(*plot),
            (std::vector<Bar>{{0, QStringLiteral("heuristic"), QStringLiteral("Row-by-Row"), {4, 1, 4, 1}, true},
                {1, QStringLiteral("heuristic"), QStringLiteral("ZigZag"), {10, 4, 4, 4}, true},
                {1, QStringLiteral("optimised"), QStringLiteral("G"), {11, 4, 4, 4}, false}}));
    }

    // A layer without a valid strategy: one grey bar, no family, marked ✖;
    // the total stays 32 and says it is incomplete.
    void networkChartMarksInvalidLayers()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir, kToyWithInvalid)), QString());
        QVERIFY(analysed.wait(10000));
        QCOMPARE(panel.tree()->topLevelItem(2)->text(NetworkPanel::ValidColumn), QStringLiteral("✖"));
        const NetworkPlot *plot = panel.plotView()->plot();
        QVERIFY(plot);
        QCOMPARE(plot->rows().size(), std::size_t(3));
        QCOMPARE(bars(*plot).back(), (Bar{2, QString(), QString(), {0, 0, 0, 0}, false}));
        QCOMPARE(plot->layerLabel(2), QStringLiteral("✖ c"));
        QVERIFY(plot->title().contains(QStringLiteral("total 32 cycles")));
        bool incomplete = false;
        for (const PlacedText &t : plot->texts(QRectF(0, 0, 800, 600), panel.font()))
            incomplete = incomplete || t.text.contains(QStringLiteral("incomplete"));
        QVERIFY(incomplete);
    }

    // Convolutions the import skipped are not in the total (32, a and b):
    // the title says how many of the model's 4 it covers, the line under it
    // how many it leaves out, and so does the dock's summary.
    void networkChartSaysSkippedConvolutions()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir, kToyWithSkipped)), QString());
        QVERIFY(analysed.wait(10000));
        const NetworkPlot *plot = panel.plotView()->plot();
        QVERIFY(plot);
        QCOMPARE(plot->title(), QStringLiteral("Network: total 32 cycles over 2 layers (2 of 4 convolutions)"));
        bool says = false;
        for (const PlacedText &t : plot->texts(QRectF(0, 0, 800, 600), panel.font()))
            says = says || t.text.contains(QStringLiteral("2 of 4 convolutions: 2 skipped by the import, not in the total"));
        QVERIFY(says);
        QVERIFY2(panel.summary()->text().contains(QStringLiteral("2 of 4 convolutions: 2 skipped by the import")),
            qPrintable(panel.summary()->text()));
    }

    // Eight equal layers (1×2×2, one 1×1 kernel): the fewest that make half
    // of the total are four, so four dominate. The summary names three and
    // counts the fourth; its tooltip names all four.
    void networkSummaryCapsTheDominatingLayers()
    {
        QByteArray text = "{\"format\": \"convoffload-project\", \"version\": 2, \"hardware\": {\"mem_size\": 100, "
                          "\"nbop_pe\": 4}, \"layers\": [";
        for (int i = 0; i < 8; ++i)
            text += QByteArray(i ? "," : "") + "{\"name\": \"l" + QByteArray::number(i)
                + "\", \"layer\": {\"c_in\": 1, \"h_in\": 2, \"w_in\": 2, \"h_k\": 1, \"w_k\": 1, \"n\": 1}}";
        text += "]}";
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(writeToy(dir, text)), QString());
        QVERIFY(analysed.wait(10000));
        const QString summary = panel.summary()->text();
        QVERIFY2(summary.contains(QStringLiteral("; dominated by l0, l1, l2 and 1 more.")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("l3")), qPrintable(summary));
        QVERIFY2(panel.summary()->toolTip().endsWith(QStringLiteral("l0, l1, l2, l3")), qPrintable(panel.summary()->toolTip()));
    }

    // No text is cut: ResNet-8 (a streamed layer, long strategy names) at
    // a dock's width, the export's and a paper column's with its 7 pt font.
    void networkChartTextsFit()
    {
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(sample("networks/resnet8.json")), QString());
        QVERIFY(analysed.wait(120000));
        const NetworkPlot *plot = panel.plotView()->plot();
        QVERIFY(plot);
        // A row per family with a valid candidate: the 9 layers, each with
        // one best (kernel-blocked rows too where a block below N fits).
        std::vector<std::size_t> bests;
        for (const NetworkPlotRow &r : plot->rows())
            if (r.best)
                bests.push_back(r.layer);
        QCOMPARE(bests, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
        checkTextsFit(*plot, 600, panel.font());
        checkTextsFit(*plot, 1000, panel.font());
        const ExportPreset column = *exportPresetFromName(QStringLiteral("paper-column"));
        checkTextsFit(*plot, presetLayoutSize(column).width(), presetFont(column));
    }

    // The Valid column's glyph had no legend: its header says what each
    // glyph means, and each cell's tooltip starts with its own.
    void validGlyphsAreExplained()
    {
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(sample("networks/resnet8.json")), QString());
        QVERIFY(analysed.wait(60000));
        const QString legend = panel.tree()->headerItem()->toolTip(NetworkPanel::ValidColumn);
        for (const char *meaning :
            {"meets the paper's assumptions", "breaks the reload assumption", "with warnings", "no valid strategy"})
            QVERIFY2(legend.contains(QLatin1String(meaning)), qPrintable(legend));
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = panel.tree()->topLevelItem(i);
            const QString glyph = item->text(NetworkPanel::ValidColumn);
            QVERIFY(!glyph.isEmpty());
            QVERIFY2(legend.contains(glyph), qPrintable(glyph));
            const QString tip = item->toolTip(NetworkPanel::ValidColumn);
            QVERIFY2(tip.startsWith(glyph + QLatin1Char(' ')) && tip.size() > glyph.size() + 10, qPrintable(tip));
        }
    }

    // Optimise network\u2026 on ResNet-8, reproducibly (moves and a seed):
    // the summary names every layer whose kernels do not fit (found here by
    // the model's own rule, kernelsFitOnChip) as not optimised, with why;
    // the best each layer shows is in the dock's network, so that the file
    // Save network\u2026 writes, analysed with its own strategies only,
    // gives every layer the same best duration; a second run with the same
    // seed and moves gives the same strategies, and the summary says so.
    void optimiseNetworkSaysWhatItSkippedAndSaves()
    {
        const auto run = [](NetworkPanel &panel, const ui::NetworkOptimiseChoice &choice) {
            QSignalSpy optimised(&panel, &NetworkPanel::optimised);
            return panel.startOptimisation(choice) && optimised.wait(120000);
        };
        ui::NetworkOptimiseChoice choice;
        choice.reproducible = true;
        choice.moves = 3000;
        choice.seed = 7;
        std::vector<std::vector<StrategySpec>> firstRun;
        for (int attempt = 0; attempt < 2; ++attempt) {
            NetworkPanel panel;
            QSignalSpy analysed(&panel, &NetworkPanel::analysed);
            QCOMPARE(panel.openNetwork(sample("networks/resnet8.json")), QString());
            QVERIFY(analysed.wait(60000));
            QVERIFY(run(panel, choice));
            const NetworkAnalysis &a = *panel.analysis();
            const QString summary = panel.summary()->text();
            int streamed = 0;
            for (std::size_t i = 0; i < a.layers.size(); ++i)
                if (!kernelsFitOnChip(a.layers[i].problem)) {
                    ++streamed;
                    QVERIFY2(
                        summary.contains(QString::fromStdString(a.layers[i].name) + QStringLiteral(" (its kernels do not fit")),
                        qPrintable(summary));
                }
            QVERIFY(streamed > 0); // ResNet-8 has a streamed layer
            QCOMPARE(int(panel.lastOptimisation()->skipped.size()), streamed);
            QVERIFY2(summary.contains(
                         QStringLiteral("Optimised %1 of %2 layers").arg(int(a.layers.size()) - streamed).arg(a.layers.size())),
                qPrintable(summary));
            QVERIFY2(summary.contains(QStringLiteral("Reproducible on any machine: "))
                    && summary.contains(QStringLiteral("--seed 7 --moves 3000 --threads 1")),
                qPrintable(summary));
            QTemporaryDir dir;
            const QString file = dir.filePath(QStringLiteral("saved.json"));
            QCOMPARE(panel.saveNetworkTo(file), QString());
            NetworkAnalysisOptions ownOnly;
            ownOnly.generate = false;
            const NetworkAnalysis saved = analyseNetwork(loadNetwork(file.toStdString()), ownOnly);
            QCOMPARE(saved.layers.size(), a.layers.size());
            for (std::size_t i = 0; i < a.layers.size(); ++i)
                QCOMPARE(saved.layers[i].duration(), a.layers[i].duration());
            std::vector<std::vector<StrategySpec>> strategies;
            for (const NetworkLayer &layer : panel.network()->layers)
                strategies.push_back(layer.strategies);
            if (attempt == 0)
                firstRun = strategies;
            else
                QVERIFY(strategies == firstRun);
        }
        // By time, the summary says it is not reproducible.
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(sample("networks/lenet5.json")), QString());
        QVERIFY(analysed.wait(60000));
        ui::NetworkOptimiseChoice byTime;
        byTime.time_limit_s = 0.5;
        QVERIFY(run(panel, byTime));
        QVERIFY2(panel.summary()->text().contains(QStringLiteral("Not reproducible: ")), qPrintable(panel.summary()->text()));
        QVERIFY2(
            panel.summary()->text().contains(QStringLiteral("Optimised 2 of 2 layers")), qPrintable(panel.summary()->text()));
    }

    // Optimise network… on LeNet-5: both layers optimised, the strategies
    // added to the dock's network under their name, each one's duration what
    // an independent simulation of it gives, the chart's optimised family;
    // saved, they load back. Then Stop in the first layer: its incumbent is
    // kept, the second layer is not started.
    void optimiseNetworkAndStop()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QSignalSpy optimised(&panel, &NetworkPanel::optimised);
        QCOMPARE(panel.openNetwork(sample("networks/lenet5.json")), QString());
        QVERIFY(analysed.wait(60000));
        const std::vector<double> before{panel.analysis()->layers[0].duration(), panel.analysis()->layers[1].duration()};
        const std::size_t own0 = panel.network()->layers[0].strategies.size();
        QVERIFY(panel.startOptimisation(2.0));
        QVERIFY(panel.busy());
        QVERIFY(!panel.startOptimisation(2.0)); // one at a time
        QVERIFY(optimised.wait(120000));
        QVERIFY(!panel.busy());
        const NetworkOptimisation o = *panel.lastOptimisation();
        QVERIFY(!o.cancelled);
        QCOMPARE(o.layers.size(), std::size_t(2));
        QVERIFY(panel.isModified());
        for (std::size_t i = 0; i < 2; ++i) {
            const LayerOptimisation &l = o.layers[i];
            QCOMPARE(l.layer, i);
            QVERIFY(l.strategy && l.duration);
            const NetworkLayer &layer = panel.network()->layers[i];
            QCOMPARE(layer.strategies.back(), *l.strategy);
            QCOMPARE(layer.strategies.back().name, std::string("Optimised (search)"));
            QCOMPARE(simulateStrategy(panel.network()->problemOf(i), *l.strategy, {}).totalDuration(), *l.duration);
            QCOMPARE(panel.analysis()->layers[i].duration(), std::min(before[i], *l.duration));
        }
        QCOMPARE(panel.network()->layers[0].strategies.size(), own0 + 1);
        std::size_t optimisedBars = 0;
        for (const NetworkPlotRow &r : panel.plotView()->plot()->rows())
            optimisedBars += r.family == StrategyFamily::Optimised ? 1 : 0;
        QCOMPARE(optimisedBars, std::size_t(2));
        // Closing or replacing the network now asks first: Cancel keeps it,
        // Discard lets the caller go on.
        const auto answer = [&](QMessageBox::StandardButton button) {
            QString asked;
            QTimer poll;
            connect(&poll, &QTimer::timeout, this, [&] {
                if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                    asked = box->text();
                    box->button(button)->click();
                }
            });
            poll.start(10);
            const bool goOn = panel.maybeSaveNetwork();
            poll.stop();
            return std::pair(goOn, asked);
        };
        const auto [cancelled, question] = answer(QMessageBox::Cancel);
        QVERIFY2(question.contains(QStringLiteral("strategies the optimiser added that are not saved")), qPrintable(question));
        QCOMPARE(cancelled, false);
        QVERIFY(panel.isModified());
        QCOMPARE(answer(QMessageBox::Discard).first, true);
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_OPTIMISED")) {
            panel.resize(1000, 380);
            panel.tabs()->setCurrentIndex(1);
            panel.show();
            QTest::qWait(300);
            panel.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_OPTIMISED"));
        }
        const QString saved = dir.filePath(QStringLiteral("lenet5-optimised.json"));
        QCOMPARE(panel.saveNetworkTo(saved), QString());
        QVERIFY(!panel.isModified());
        QCOMPARE(loadNetwork(saved.toStdString()) == *panel.network(), true);

        // Stop: a budget far beyond the wait. conv1's Row-by-Row (5891)
        // meets the search's lower bound at once, so conv1 ends proven;
        // Stop comes once conv2 has an incumbent, which is kept.
        QCOMPARE(panel.openNetwork(sample("networks/lenet5.json")), QString());
        QVERIFY(analysed.wait(60000));
        QVERIFY(panel.startOptimisation(600.0));
        QTRY_VERIFY_WITH_TIMEOUT(panel.summary()->text().contains(QStringLiteral("layer 2 of 2: conv2"))
                && panel.summary()->text().contains(QStringLiteral("— incumbent ")),
            60000);
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_PROGRESS")) {
            panel.resize(1000, 200);
            panel.show();
            QTest::qWait(200);
            panel.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_PROGRESS"));
        }
        panel.stop();
        QVERIFY(optimised.wait(60000));
        const NetworkOptimisation stopped = *panel.lastOptimisation();
        QVERIFY(stopped.cancelled);
        QCOMPARE(stopped.planned, std::size_t(2));
        QCOMPARE(stopped.layers.size(), std::size_t(2));
        QVERIFY(!stopped.layers[0].cancelled);
        QVERIFY(stopped.layers[1].strategy && stopped.layers[1].duration && stopped.layers[1].cancelled);
        QCOMPARE(panel.network()->layers[1].strategies.back(), *stopped.layers[1].strategy);
        QCOMPARE(simulateStrategy(panel.network()->problemOf(1), *stopped.layers[1].strategy, {}).totalDuration(),
            *stopped.layers[1].duration);
        QVERIFY(panel.summary()->text().startsWith(QStringLiteral("Optimisation stopped in layer 2 of 2")));
    }

    // Opening another network while one is optimised stops the optimisation
    // and drops what it found: it belongs to the other network.
    void openingAnotherNetworkDropsTheOptimisation()
    {
        QTemporaryDir dir;
        NetworkPanel panel;
        QSignalSpy analysed(&panel, &NetworkPanel::analysed);
        QCOMPARE(panel.openNetwork(sample("networks/lenet5.json")), QString());
        QVERIFY(analysed.wait(60000));
        QVERIFY(panel.startOptimisation(600.0));
        QCOMPARE(panel.openNetwork(writeToy(dir)), QString());
        QVERIFY(analysed.wait(60000));
        QVERIFY(!panel.busy());
        QVERIFY(!panel.lastOptimisation());
        QVERIFY(!panel.isModified());
        QCOMPARE(panel.network()->layers.size(), std::size_t(2));
        QVERIFY(panel.network()->layers[0].strategies.empty());
        QCOMPARE(panel.analysis()->total_duration, 32.0);
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
        // Named after the layer (the toy network has no name), not "Untitled".
        QCOMPARE(window.document()->displayName(), QStringLiteral("b"));
        QVERIFY2(window.windowTitle().startsWith(QStringLiteral("b[*]")), qPrintable(window.windowTitle()));
        // Clicking a's bar in the network chart opens a.
        panel->parentWidget()->raise();
        panel->tabs()->setCurrentIndex(1);
        QTest::qWait(100);
        const QPoint onA = pointOnLayer(*panel->plotView(), 0);
        QVERIFY(!onA.isNull());
        QTest::mouseClick(panel->plotView(), Qt::LeftButton, {}, onA);
        QCOMPARE(window.document()->project().problem.layer.h_in, 2);
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT")) {
            panel->parentWidget()->raise();
            window.resize(1400, 900);
            QTest::qWait(300);
            window.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT"));
        }
    }

    // An edited layer of the network goes back into it (issue 41): Update
    // layer in network is off until the layer shown differs from what the
    // network holds; it then puts the strategies back (the analysis's best,
    // added on opening, left out), analyses the network again and marks it
    // modified, and the layer is no longer asked to be saved on its own.
    // Undoing the edit offers it again. The shared hardware goes too only
    // when asked; another project opened ends the offer.
    void editedLayerGoesBackIntoTheNetwork()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        auto *panel = window.findChild<NetworkPanel *>();
        QVERIFY(panel);
        QSignalSpy analysed(panel, &NetworkPanel::analysed);
        QCOMPARE(panel->openNetwork(writeToy(dir)), QString());
        QVERIFY(analysed.wait(10000));
        const Network before = *panel->network();
        emit panel->tree()->itemActivated(panel->tree()->topLevelItem(1), 0);
        QCOMPARE(panel->openLayer(), 1);
        QToolButton *update = panel->updateLayerButton();
        QVERIFY(update->isVisibleTo(panel));
        QVERIFY(!update->isEnabled());
        QVERIFY(!panel->isModified());
        ProjectDocument *doc = window.document();
        // The analysis's best (ZigZag) came along; the user adds a strategy.
        QCOMPARE(doc->project().strategies.size(), before.layers[1].strategies.size() + 1);
        const StrategySpec mine{"Mine", StrategyKind::RowByRow, 2, {}};
        doc->undoStack()->push(new AddStrategyCommand(doc, int(doc->project().strategies.size()), mine));
        QVERIFY(update->isEnabled());
        QVERIFY(window.updateLayerInNetwork(false));
        {
            const NetworkLayer &b = panel->network()->layers[1];
            QCOMPARE(b.strategies.size(), before.layers[1].strategies.size() + 1); // Mine, not ZigZag
            QCOMPARE(b.strategies.back(), mine);
            QCOMPARE(b.layer, before.layers[1].layer);
        }
        QCOMPARE(panel->network()->layers[0], before.layers[0]);
        QCOMPARE(panel->network()->hardware, before.hardware);
        QVERIFY(panel->isModified());
        QVERIFY(!update->isEnabled());
        QVERIFY(update->isVisibleTo(panel)); // still the layer shown
        QVERIFY(doc->undoStack()->isClean());
        QVERIFY(analysed.wait(10000)); // analysed again
        // Undo: the layer differs from the network again, and redo not.
        doc->undoStack()->undo();
        QVERIFY(update->isEnabled());
        doc->undoStack()->redo();
        QVERIFY(!update->isEnabled());
        // The hardware is the network's, shared by its layers: it goes only when asked.
        Problem bigger = doc->problem();
        bigger.hardware.mem_size += 100;
        doc->undoStack()->push(new EditProblemCommand(doc, bigger, QStringLiteral("mem_size")));
        QVERIFY(update->isEnabled());
        QVERIFY(panel->hardwareDiffers(doc->project()));
        QVERIFY(window.updateLayerInNetwork(false));
        QCOMPARE(panel->network()->hardware, before.hardware);
        QVERIFY(window.updateLayerInNetwork(true));
        QCOMPARE(panel->network()->hardware.mem_size, bigger.hardware.mem_size);
        QVERIFY(analysed.wait(10000));
        // Another project opened: the network's layer is no longer shown.
        QVERIFY(window.openFile(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")));
        QCOMPARE(panel->openLayer(), -1);
        QVERIFY(!update->isEnabled());
        QVERIFY(!update->isVisibleTo(panel));
        const Network kept = *panel->network();
        QVERIFY(!window.updateLayerInNetwork(false));
        QCOMPARE(*panel->network(), kept);
    }

    // File › Export Network Chart… is there for users who look for every
    // figure under File: off until the Network dock has an analysis, on
    // once it has (the menu checks as it opens).
    void fileMenuExportsTheNetworkChart()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        auto *action = window.findChild<QAction *>(QStringLiteral("exportNetworkChart"));
        QVERIFY(action);
        QMenu *file = window.menuBar()->actions().value(0)->menu();
        QVERIFY(file && file->actions().contains(action));
        emit file->aboutToShow();
        QVERIFY(!action->isEnabled());
        auto *panel = window.findChild<NetworkPanel *>();
        QSignalSpy analysed(panel, &NetworkPanel::analysed);
        QCOMPARE(panel->openNetwork(writeToy(dir)), QString());
        emit file->aboutToShow();
        QCOMPARE(action->isEnabled(), panel->canSaveChart()); // still analysing, or already done
        QVERIFY(analysed.count() > 0 || analysed.wait(10000));
        emit file->aboutToShow();
        QVERIFY(action->isEnabled());
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
        panel->plotView()->grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK") + QStringLiteral(".view.png"));
        panel->tabs()->setCurrentWidget(panel->tree());
        QTest::qWait(100);
        window.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK") + QStringLiteral(".layers.png"));
        QCOMPARE(
            panel->saveChart(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_NETWORK") + QStringLiteral(".chart.png")), QString());
    }

    // At 1280×720 the Network dock takes its share of the height under the
    // grids, no more: a minimum of 18 chart lines made it about 360 px tall
    // and left the grids a sliver, and View › Reset Layout could not undo it.
    void networkDockLeavesTheGridsRoom()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *panel = window.findChild<NetworkPanel *>();
        QVERIFY(panel);
        QSignalSpy analysed(panel, &NetworkPanel::analysed);
        QVERIFY(window.startPageShown());
        QVERIFY(window.openFile(sample("networks/lenet5.json")));
        QVERIFY(analysed.wait(60000));
        // No layer on screen yet: the start page gives the dock half the
        // height (it showed two and a half rows of the table).
        QTRY_VERIFY2(panel->parentWidget()->height() >= window.height() * 45 / 100,
            qPrintable(QString::number(panel->parentWidget()->height())));
        emit panel->tree()->itemActivated(panel->tree()->topLevelItem(0), 0);
        QTRY_VERIFY(window.document()->cursor() != nullptr);
        QCOMPARE(window.document()->displayName(), QStringLiteral("lenet5 › conv1"));
        panel->tabs()->setCurrentIndex(1); // the chart, the taller of the two tabs
        QTest::qWait(200);
        const auto check = [&](const char *when) {
            const int dock = panel->parentWidget()->height();
            const int grid = window.inputGrid()->height();
            QVERIFY2(dock <= window.height() * 3 / 10 && grid >= window.height() * 45 / 100,
                qPrintable(QStringLiteral("%1: dock %2 px, input grid %3 px of a %4 px window")
                               .arg(QLatin1String(when))
                               .arg(dock)
                               .arg(grid)
                               .arg(window.height())));
        };
        check("opened");
        // Reset Layout keeps the dock and the same shares.
        const QList<QAction *> actions = window.findChildren<QAction *>();
        const auto reset = std::find_if(actions.begin(), actions.end(),
            [](const QAction *a) { return a->text().remove(QLatin1Char('&')) == QLatin1String("Reset Layout"); });
        QVERIFY(reset != actions.end());
        (*reset)->trigger();
        QTest::qWait(200);
        QVERIFY(panel->parentWidget()->isVisible());
        check("after Reset Layout");
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
