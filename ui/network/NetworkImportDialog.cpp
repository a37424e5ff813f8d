// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/NetworkImportDialog.h"

#include "network/LayerShapeText.h"
#include "network/OpenFileAndApply.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/onnx/OnnxNetwork.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <climits>

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
        if (path.isEmpty() || path == m_readHardware)
            return;
        const QString error = setHardwareFile(QDir::fromNativeSeparators(path));
        m_message->setText(error.isEmpty() ? QString() : tr("Hardware file: %1").arg(error));
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

    auto *form = new QFormLayout;
    form->addRow(tr("Model:"), withBrowse(m_modelPath, browseModel));
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
}

void NetworkImportDialog::browseModel()
{
    openFileAndApply(this, {tr("ONNX model"), {}, tr("ONNX models (*.onnx);;All files (*)"), tr("Cannot import the model")},
        [this](const QString &path) { return setModel(path); });
}

void NetworkImportDialog::browseHardware()
{
    openFileAndApply(this, {tr("Hardware"), {}, tr("JSON (*.json);;All files (*)"), tr("Cannot read the hardware")},
        [this](const QString &path) { return setHardwareFile(path); });
}

QString NetworkImportDialog::setModel(const QString &path)
{
    m_preview->clear();
    m_import.reset();
    m_modelPath->setText(QDir::toNativeSeparators(path));
    m_readModel = m_modelPath->text();
    QString error;
    try {
        m_import = importOnnx(path.toStdString());
    } catch (const std::exception &e) {
        error = QString::fromStdString(e.what());
    }
    if (m_import) {
        auto *found = new QTreeWidgetItem(m_preview, {tr("Layers found (%1)").arg(m_import->layers.size())});
        for (const ImportedConv &c : m_import->layers)
            new QTreeWidgetItem(found, {QString::fromStdString(c.name), layerShapeText(c.layer), tr("imported")});
        auto *skipped = new QTreeWidgetItem(m_preview, {tr("Skipped (%1)").arg(m_import->skipped.size())});
        for (const SkippedNode &s : m_import->skipped)
            new QTreeWidgetItem(skipped, {QString::fromStdString(s.node), QString::fromStdString(s.reason), tr("skipped")});
        m_preview->expandAll();
        if (m_import->layers.empty())
            error = tr("No convolution the layer model can hold: every one is skipped (%1).")
                        .arg(QString::fromStdString(skippedCounts(m_import->skipped)));
    }
    QStringList warnings;
    if (m_import) {
        for (const std::string &n : m_import->notes)
            warnings << tr("Note: %1").arg(QString::fromStdString(n));
        for (const std::string &w : m_import->warnings)
            warnings << QString::fromStdString(w);
    }
    m_message->setText(error.isEmpty() ? warnings.join(QLatin1Char('\n')) : error);
    for (QAbstractButton *b : m_buttons->buttons())
        if (m_buttons->buttonRole(b) == QDialogButtonBox::AcceptRole) {
            b->setEnabled(network().has_value());
            if (b->isEnabled())
                b->setFocus(); // the model is read: saving is what is left (Enter)
        }
    return error;
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
        return {};
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
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
    if (!m_import || m_import->layers.empty())
        return std::nullopt;
    return networkFromImport(
        *m_import, accelerator(), m_strategies->isChecked(), QFileInfo(m_modelPath->text()).fileName().toStdString());
}

QString NetworkImportDialog::saveTo(const QString &path)
{
    const std::optional<Network> n = network();
    if (!n)
        return tr("No model imported.");
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
