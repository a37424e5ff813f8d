// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/NetworkImportDialog.h"

#include "network/InputShapeText.h"
#include "network/LayerShapeText.h"
#include "network/OpenFileAndApply.h"

#include "convoffload/io/OutOfMemory.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/onnx/OnnxNetwork.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QCoreApplication>
#include <QSpinBox>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <utility>

namespace convoffload::ui {

namespace {

QWidget *withBrowse(QLineEdit *edit, QPushButton *browse)
{
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    return row;
}

QDoubleSpinBox *timeBox(QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(0, 1e9);
    box->setDecimals(3);
    box->setValue(1);
    return box;
}

// The words of the shape fields' messages: dark vermillion, as the problem editor's errors.
const QColor kErrorText(0xA8, 0x3A, 0x00);

// Shape fields shown before the area scrolls: a model has one or two inputs
// (PaddleOCR's one image), a few have more.
constexpr int kShapeRowsShown = 3;

} // namespace

NetworkImportDialog::NetworkImportDialog(QWidget *parent)
    : QDialog(parent)
    , m_modelPath(new QLineEdit(this))
    , m_hardwarePath(new QLineEdit(this))
    , m_memSize(new QSpinBox(this))
    , m_nbopPe(new QSpinBox(this))
    , m_tl(timeBox(this))
    , m_tw(timeBox(this))
    , m_tacc(timeBox(this))
    , m_strategies(new QCheckBox(tr("Store the default heuristics with every layer"), this))
    , m_form(new QFormLayout)
    , m_shapeArea(new QScrollArea(this))
    , m_shapeTimer(new QTimer(this))
    , m_preview(new QTreeWidget(this))
    , m_message(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Import Network (ONNX)"));
    // A path typed or pasted is read when the field is left (Tab, Return).
    m_modelPath->setPlaceholderText(tr("an ONNX model (.onnx): type a path or Browse…"));
    m_hardwarePath->setPlaceholderText(tr("optional: a hardware file or a project"));
    connect(m_modelPath, &QLineEdit::editingFinished, this, [this] {
        const QString path = m_modelPath->text().trimmed();
        if (!path.isEmpty() && path != m_readModel)
            setModel(QDir::fromNativeSeparators(path));
    });
    connect(m_hardwarePath, &QLineEdit::editingFinished, this, [this] {
        const QString path = m_hardwarePath->text().trimmed();
        if (path.isEmpty() && !m_hardwareError.isEmpty()) { // cleared: the fields' hardware, as with no file
            m_hardwareError.clear();
            m_readHardware.clear();
            m_message->clear();
            updateImportButton(false);
        }
        if (path.isEmpty() || path == m_readHardware)
            return;
        setHardwareFile(QDir::fromNativeSeparators(path));
    });
    m_memSize->setRange(1, INT_MAX);
    m_memSize->setValue(int(Hardware{}.mem_size));
    m_memSize->setSuffix(tr(" elements"));
    m_nbopPe->setRange(1, INT_MAX);
    m_nbopPe->setValue(int(Hardware{}.nbop_pe));
    m_nbopPe->setSuffix(tr(" MACs"));
    m_strategies->setChecked(true);
    auto *browseModel = new QPushButton(tr("Browse…"), this);
    connect(browseModel, &QPushButton::clicked, this, &NetworkImportDialog::browseModel);
    auto *browseHardware = new QPushButton(tr("Browse…"), this);
    connect(browseHardware, &QPushButton::clicked, this, &NetworkImportDialog::browseHardware);

    auto *form = m_form;
    form->addRow(tr("Model:"), withBrowse(m_modelPath, browseModel));
    // The graph inputs' shapes, filled by setModel (fillShapeRows).
    m_shapeArea->setFrameShape(QFrame::NoFrame);
    m_shapeArea->setWidgetResizable(true);
    m_shapeArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *shapeRows = new QWidget;
    auto *shapeGrid = new QGridLayout(shapeRows);
    shapeGrid->setContentsMargins(0, 0, 0, 0);
    shapeGrid->setColumnStretch(1, 1);
    shapeGrid->setRowStretch(1000, 1); // the rows at the top however few
    m_shapeArea->setWidget(shapeRows);
    form->addRow(tr("Input shapes:"), m_shapeArea);
    form->setRowVisible(m_shapeArea, false);
    m_shapeTimer->setSingleShot(true);
    m_shapeTimer->setInterval(400);
    connect(m_shapeTimer, &QTimer::timeout, this, &NetworkImportDialog::shapesEdited);
    form->addRow(tr("Hardware file:"), withBrowse(m_hardwarePath, browseHardware));
    form->addRow(tr("mem_size:"), m_memSize);
    form->addRow(tr("nbop_pe:"), m_nbopPe);
    form->addRow(tr("t_l / t_w / t_acc:"), [&] {
        auto *row = new QWidget(this);
        auto *l = new QHBoxLayout(row);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(m_tl);
        l->addWidget(m_tw);
        l->addWidget(m_tacc);
        return row;
    }());
    form->addRow(QString(), m_strategies);

    m_preview->setColumnCount(3);
    m_preview->setHeaderLabels({tr("Convolution"), tr("Shape / reason"), tr("Status")});
    m_preview->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_preview->setRootIsDecorated(true);
    m_message->setWordWrap(true);
    auto *save = m_buttons->addButton(tr("Import and Save…"), QDialogButtonBox::AcceptRole);
    save->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NetworkImportDialog::saveAndAccept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);
    resize(760, 560);
    browseModel->setFocus(); // the first thing to do; setModel() moves on to the save button
    m_job.setFinishedHandler([this](ImportRun run) { runFinished(std::move(run)); });
}

namespace {
const QString kModelFolderKey = QStringLiteral("network/modelFolder");
} // namespace

QString NetworkImportDialog::modelFolder()
{
    const QString last = QSettings().value(kModelFolderKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    // The samples are installed beside the program's bin/ (share/convoffload/
    // samples), or in a system data folder: the folder a new user opened
    // held no model at all.
    QStringList candidates{
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/convoffload/samples/networks"))};
    candidates << QStandardPaths::locateAll(
        QStandardPaths::GenericDataLocation, QStringLiteral("convoffload/samples/networks"), QStandardPaths::LocateDirectory);
    for (const QString &folder : candidates)
        if (QFileInfo(folder).isDir())
            return QDir::cleanPath(folder);
    return {};
}

void NetworkImportDialog::browseModel()
{
    openFileAndApply(this,
        {tr("ONNX model"), modelFolder(), tr("ONNX models (*.onnx);;All files (*)"), tr("Cannot import the model")},
        [this](const QString &path) {
            setModel(path); // read off the GUI thread: an error shows in the dialog, beside the model
            return QString();
        });
}

void NetworkImportDialog::browseHardware()
{
    openFileAndApply(this, {tr("Hardware"), {}, tr("JSON (*.json);;All files (*)"), tr("Cannot read the hardware")},
        [this](const QString &path) { return setHardwareFile(path); });
}

void NetworkImportDialog::setModel(const QString &path)
{
    m_preview->clear();
    m_import.reset();
    m_importedShapes.clear();
    m_modelBytes.reset();
    m_queuedShapes.reset();
    m_shapeTimer->stop();
    m_modelPath->setText(QDir::toNativeSeparators(path));
    m_readModel = m_modelPath->text();
    fillShapeRows({});
    m_message->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    updateImportButton(false);
    if (m_job.isRunning()) {
        m_queuedModel = path; // after the run under way, whose result is then dropped
        return;
    }
    startRun(path, {});
}

void NetworkImportDialog::startRun(const QString &readPath, const InputShapes &shapes)
{
    ImportRun request;
    request.path = readPath;
    request.where = (readPath.isEmpty() ? m_readModel : readPath).toStdString();
    request.bytes = m_modelBytes;
    request.shapes = shapes;
    m_job.start([request = std::move(request)](const BackgroundJob<ImportRun, int>::Control &) {
        ImportRun run = request;
        const std::string &where = run.where;
        try {
            if (!run.path.isEmpty()) {
                auto bytes = std::make_shared<std::string>(readTextFile(where, kMaxOnnxFileBytes));
                run.inputs = graphInputsOfBytes(*bytes, where);
                run.bytes = std::move(bytes);
            }
        } catch (const std::exception &e) {
            run.error = QString::fromStdString(errorMessage(e, "reading the model", where));
            run.bytes.reset();
            return run;
        }
        try {
            run.import = importOnnxBytes(*run.bytes, where, {}, run.shapes);
        } catch (const std::exception &e) {
            run.error = QString::fromStdString(errorMessage(e, "importing the model", where));
        }
        return run;
    });
}

void NetworkImportDialog::runFinished(ImportRun run)
{
    if (!m_queuedModel.isEmpty()) { // a newer model was chosen: this run's result is stale
        const QString path = std::exchange(m_queuedModel, QString());
        startRun(path, {});
        return;
    }
    if (!run.path.isEmpty())
        showModelRead(run);
    else
        showImport(run);
    if (m_queuedShapes) {
        const InputShapes shapes = *std::exchange(m_queuedShapes, std::nullopt);
        if (shapes != m_importedShapes) {
            runImport(shapes);
            return;
        }
    }
    if (std::exchange(m_saveWhenImported, false))
        saveAndAccept();
}

void NetworkImportDialog::showModelRead(const ImportRun &run)
{
    if (!run.bytes) {
        fillShapeRows({});
        m_modelError = run.error;
        m_message->setText(run.error);
        updateImportButton(false);
        return;
    }
    m_modelBytes = run.bytes;
    QSettings().setValue(kModelFolderKey, QFileInfo(run.path).absolutePath()); // a model was read: Browse… starts here next time
    fillShapeRows(run.inputs);
    showImport(run);
    // Sizes to give come next: the first field with a symbolic dimension.
    if (!network())
        for (const ShapeRow &row : m_shapeRows)
            if (row.edit->isEnabled()
                && std::any_of(row.input.dims.begin() + (row.input.dims.empty() ? 0 : 1), row.input.dims.end(),
                    [](const GraphInputDim &d) { return !d.size; })) {
                row.edit->setFocus();
                break;
            }
}

QString NetworkImportDialog::waitForImport()
{
    while (m_job.isRunning()) {
        m_job.waitForWorker();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50); // delivers the result, which may start the next run
    }
    return m_modelError;
}

QLineEdit *NetworkImportDialog::inputShapeField(const QString &name) const
{
    for (const ShapeRow &row : m_shapeRows)
        if (QString::fromStdString(row.input.name) == name)
            return row.edit;
    return nullptr;
}

QString NetworkImportDialog::inputShapeError(const QString &name) const
{
    for (const ShapeRow &row : m_shapeRows)
        if (QString::fromStdString(row.input.name) == name)
            return row.error->text();
    return {};
}

void NetworkImportDialog::fillShapeRows(const std::vector<GraphInput> &inputs)
{
    // The fields are kept and reused, never deleted here: a path read on
    // Tab (editingFinished) is read while the focus moves to the first
    // field, which must outlive the read.
    auto *grid = static_cast<QGridLayout *>(m_shapeArea->widget()->layout());
    while (m_shapeWidgets.size() < inputs.size()) {
        QWidget *rows = m_shapeArea->widget();
        ShapeWidgets w{new QLabel(rows), new QLineEdit(rows), new QLabel(rows)};
        w.label->setBuddy(w.edit);
        w.error->setWordWrap(true);
        QPalette palette = w.error->palette();
        palette.setColor(QPalette::WindowText, kErrorText);
        w.error->setPalette(palette);
        const int at = int(2 * m_shapeWidgets.size());
        grid->addWidget(w.label, at, 0);
        grid->addWidget(w.edit, at, 1);
        grid->addWidget(w.error, at + 1, 1);
        connect(w.edit, &QLineEdit::textEdited, this, [this] {
            showShapeErrors(readShapeFields()); // at once: the message and the button follow each key
            updateImportButton(false);
            m_shapeTimer->start();
        });
        connect(w.edit, &QLineEdit::editingFinished, this, [this] {
            if (m_shapeTimer->isActive()) {
                m_shapeTimer->stop();
                shapesEdited();
            }
        });
        m_shapeWidgets.push_back(w);
    }
    m_shapeRows.clear();
    for (std::size_t i = 0; i < m_shapeWidgets.size(); ++i) {
        const ShapeWidgets &w = m_shapeWidgets[i];
        const bool used = i < inputs.size();
        w.label->setVisible(used);
        w.edit->setVisible(used);
        w.error->setVisible(false);
        if (!used) {
            w.edit->setObjectName(QString());
            continue;
        }
        const GraphInput &input = inputs[i];
        const QString name = QString::fromStdString(input.name);
        const ShapeRow row{input, inputShapeText(input), w.edit, w.error};
        w.label->setText(name + QLatin1Char(':'));
        w.edit->setObjectName(QStringLiteral("inputShape:") + name);
        w.edit->setText(row.modelText);
        w.edit->setEnabled(input.tensor);
        w.edit->setPlaceholderText(input.tensor ? tr("the model gives no shape: sizes separated by commas, e.g. 1, 3, 640, 640")
                                                : tr("not a tensor: it takes no shape"));
        w.edit->setToolTip(input.tensor
                ? tr("The sizes of the graph input '%1', separated by commas, as the CLI's --input-shape %1=… takes them. "
                     "A symbolic dimension, shown by its name, needs a size for the convolutions after it to be imported; "
                     "left as shown, the model's own shape is used (a symbolic batch counts as 1). The preview follows "
                     "what you type.")
                      .arg(name)
                : QString());
        m_shapeRows.push_back(row);
    }
    // The fields come right after the model's path in the tab order.
    QWidget *previous = m_modelPath;
    for (const ShapeRow &row : m_shapeRows) {
        setTabOrder(previous, row.edit);
        previous = row.edit;
    }
    m_form->setRowVisible(m_shapeArea, !m_shapeRows.empty());
    showShapeErrors(readShapeFields());
    // A Tab that was moving to a field now hidden lands on the next visible widget.
    QTimer::singleShot(0, this, [this] {
        if (QWidget *f = focusWidget(); f && !f->isVisible())
            focusNextChild();
    });
}

bool NetworkImportDialog::FieldShapes::valid() const
{
    return std::all_of(errors.begin(), errors.end(), [](const QString &e) { return e.isEmpty(); });
}

NetworkImportDialog::FieldShapes NetworkImportDialog::readShapeFields() const
{
    FieldShapes fields;
    for (const ShapeRow &row : m_shapeRows) {
        QString error;
        const auto compact = [](QString text) { return text.remove(QLatin1Char(' ')); };
        const QString text = compact(row.edit->text().simplified());
        // Left as the model has it (or emptied): no shape given, the model's own is imported.
        const bool asModel = text.isEmpty() || text == compact(row.modelText);
        if (row.edit->isEnabled() && !asModel) {
            const InputShapeParse parse = parseInputShape(row.edit->text(), row.input);
            error = parse.error;
            if (error.isEmpty()) {
                try {
                    checkInputShape(row.input, parse.dims); // the import's own rules and words
                    fields.shapes.emplace_back(row.input.name, parse.dims);
                } catch (const InputShapeError &e) {
                    error = QString::fromStdString(e.what());
                }
            }
        }
        fields.errors.push_back(error);
    }
    return fields;
}

void NetworkImportDialog::showShapeErrors(const FieldShapes &fields)
{
    for (std::size_t i = 0; i < m_shapeRows.size(); ++i) {
        const ShapeRow &row = m_shapeRows[i];
        row.error->setText(fields.errors[i]);
        row.error->setVisible(!fields.errors[i].isEmpty());
        // A field's message is also read by a screen reader with the field.
        row.edit->setAccessibleDescription(fields.errors[i]);
    }
    // While a field is invalid the preview is of the last valid shapes: greyed.
    m_preview->setEnabled(fields.valid());
    // As tall as the rows, messages included, up to kShapeRowsShown rows with a message each; then it scrolls.
    QLayout *grid = m_shapeArea->widget()->layout();
    grid->invalidate(); // a message shown or hidden changes the rows' heights
    const int width = std::max(m_shapeArea->viewport()->width(), 400);
    const int content = grid->hasHeightForWidth() ? grid->totalHeightForWidth(width) : grid->totalSizeHint().height();
    const int rowHeight = m_modelPath->sizeHint().height() + 2 * std::max(0, grid->spacing());
    m_shapeArea->setFixedHeight(std::clamp(content, 1, 2 * kShapeRowsShown * rowHeight));
}

void NetworkImportDialog::shapesEdited()
{
    const FieldShapes fields = readShapeFields();
    showShapeErrors(fields);
    if (fields.valid() && m_modelBytes && fields.shapes != m_importedShapes)
        runImport(fields.shapes);
    updateImportButton(false);
}

void NetworkImportDialog::runImport(const InputShapes &shapes)
{
    if (m_job.isRunning()) {
        m_queuedShapes = shapes; // the newest edit, after the run under way
        return;
    }
    m_preview->clear();
    m_import.reset();
    m_importedShapes = shapes;
    m_message->setText(tr("Importing with the shapes given…"));
    startRun({}, shapes);
}

void NetworkImportDialog::showImport(const ImportRun &run)
{
    m_preview->clear();
    m_import = run.import;
    m_importedShapes = run.shapes;
    QString error = run.error;
    bool dynamic = false;
    if (m_import) {
        auto *found = new QTreeWidgetItem(m_preview, {tr("Layers found (%1)").arg(m_import->layers.size())});
        for (const ImportedConv &c : m_import->layers)
            new QTreeWidgetItem(found, {QString::fromStdString(c.name), layerShapeText(c.layer), tr("imported")});
        auto *skipped = new QTreeWidgetItem(m_preview, {tr("Skipped (%1)").arg(m_import->skipped.size())});
        for (const SkippedNode &s : m_import->skipped) {
            new QTreeWidgetItem(skipped, {QString::fromStdString(s.node), QString::fromStdString(s.reason), tr("skipped")});
            dynamic = dynamic || skippedCategory(s.reason) == "dynamic input dimension";
        }
        m_preview->expandAll();
        if (m_import->layers.empty())
            error = tr("No convolution the layer model can hold: every one is skipped (%1).")
                        .arg(QString::fromStdString(skippedCounts(m_import->skipped)));
    }
    m_modelError = error;
    QStringList warnings;
    if (m_import) {
        for (const std::string &n : m_import->notes)
            warnings << tr("Note: %1").arg(QString::fromStdString(n));
        for (const std::string &w : m_import->warnings)
            warnings << QString::fromStdString(w);
    }
    // The skipped reasons name the CLI's flag; here the sizes go in the fields.
    const QString remedy = dynamic && !m_shapeRows.empty()
        ? tr("Convolutions with a symbolic input size are skipped: give the sizes in Input shapes above.")
        : QString();
    QStringList lines = error.isEmpty() ? warnings : QStringList{error};
    if (!remedy.isEmpty())
        lines.prepend(remedy);
    if (!m_hardwareError.isEmpty()) // still refused: say why above the model's notes
        lines.prepend(tr("Hardware file: %1").arg(m_hardwareError));
    m_message->setText(lines.join(QLatin1Char('\n')));
    updateImportButton(true);
}

QAbstractButton *NetworkImportDialog::importButton() const
{
    for (QAbstractButton *b : m_buttons->buttons())
        if (m_buttons->buttonRole(b) == QDialogButtonBox::AcceptRole)
            return b;
    return nullptr;
}

void NetworkImportDialog::updateImportButton(bool focus)
{
    QAbstractButton *b = importButton();
    b->setEnabled(network().has_value());
    b->setToolTip(importRefusal()); // why it is disabled; nothing when it is not
    if (focus && b->isEnabled() && !qobject_cast<QLineEdit *>(focusWidget()))
        b->setFocus(); // the model is read: saving is what is left (Enter)
}

QString NetworkImportDialog::setHardwareFile(const QString &path)
{
    try {
        const Accelerator a = loadAccelerator(path.toStdString());
        m_hardwarePath->setText(QDir::toNativeSeparators(path));
        m_readHardware = m_hardwarePath->text();
        m_memSize->setValue(int(std::min<std::int64_t>(a.hardware.mem_size, INT_MAX)));
        m_nbopPe->setValue(int(std::min<std::int64_t>(a.hardware.nbop_pe, INT_MAX)));
        m_tl->setValue(a.hardware.t_l);
        m_tw->setValue(a.hardware.t_w);
        m_tacc->setValue(a.hardware.t_acc);
        m_fileHardware = a.hardware;
        m_options = a.options;
        m_hardwareError.clear();
        m_message->clear();
        updateImportButton(false);
        return {};
    } catch (const std::exception &e) {
        // The file named stays in the field with the reason, and nothing is
        // imported until it is fixed or cleared: importing with the hardware
        // the fields held before (the defaults, mem_size 1000) would save a
        // network for an accelerator the user did not choose.
        m_hardwarePath->setText(QDir::toNativeSeparators(path));
        m_readHardware = m_hardwarePath->text();
        m_hardwareError = QString::fromStdString(e.what());
        m_message->setText(tr("Hardware file: %1").arg(m_hardwareError));
        updateImportButton(false);
        return m_hardwareError;
    }
}

QString NetworkImportDialog::importRefusal() const
{
    if (!m_hardwareError.isEmpty())
        return tr("The hardware file cannot be read (%1): choose another or clear the field to use the values below.")
            .arg(m_hardwareError);
    if (!network())
        return tr("Nothing to import yet: choose an ONNX model with a convolution the layer model can hold (and the sizes "
                  "of its inputs).");
    return {};
}

Accelerator NetworkImportDialog::accelerator() const
{
    Accelerator a;
    a.hardware = m_fileHardware;
    a.hardware.mem_size = m_memSize->value();
    a.hardware.nbop_pe = m_nbopPe->value();
    a.hardware.t_l = m_tl->value();
    a.hardware.t_w = m_tw->value();
    a.hardware.t_acc = m_tacc->value();
    a.options = m_options;
    return a;
}

std::optional<Network> NetworkImportDialog::network() const
{
    // Only the import of the shapes the fields say now: none while a field
    // is invalid or its edit not yet imported, nor while the hardware file
    // named cannot be read.
    if (!m_hardwareError.isEmpty() || !m_import || m_import->layers.empty())
        return std::nullopt;
    const FieldShapes fields = readShapeFields();
    if (!fields.valid() || fields.shapes != m_importedShapes)
        return std::nullopt;
    return networkFromImport(
        *m_import, accelerator(), m_strategies->isChecked(), QFileInfo(m_modelPath->text()).fileName().toStdString());
}

QString NetworkImportDialog::saveTo(const QString &path)
{
    const std::optional<Network> n = network();
    if (!n)
        return m_hardwareError.isEmpty() ? tr("No model imported.") : importRefusal();
    try {
        saveNetwork(*n, path.toStdString());
        m_savedPath = path;
        return {};
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

void NetworkImportDialog::saveAndAccept()
{
    if (m_shapeTimer->isActive()) { // an edit not yet imported: import it, save what it shows
        m_shapeTimer->stop();
        shapesEdited();
    }
    if (m_job.isRunning()) { // saved when the import under way has shown its result
        m_saveWhenImported = true;
        return;
    }
    if (!network())
        return;
    // Beside the model, under a name no file has yet: the model's own
    // project (resnet8.json beside resnet8.onnx) is not offered for overwriting.
    const QFileInfo model(m_modelPath->text());
    QString proposed = model.dir().filePath(model.completeBaseName() + QStringLiteral(".json"));
    for (int n = 2; QFileInfo::exists(proposed) && n < 1000; ++n)
        proposed = model.dir().filePath(model.completeBaseName() + QStringLiteral("-%1.json").arg(n));
    QString path = QFileDialog::getSaveFileName(this, tr("Save network project"), proposed, tr("ConvOffload projects (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    const QString error = saveTo(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot save the network"), error);
        return;
    }
    accept();
}

} // namespace convoffload::ui
