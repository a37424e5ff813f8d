// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// File › Import Network (ONNX)…: choose a model and the hardware, preview
// the convolutions found (with their shapes) and the ones skipped (with the
// reason), then save the network project.
#include "convoffload/model/Network.h"
#include "convoffload/onnx/OnnxImport.h"

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTreeWidget;
class QCheckBox;

namespace convoffload::ui {

class NetworkImportDialog : public QDialog {
    Q_OBJECT
public:
    explicit NetworkImportDialog(QWidget *parent = nullptr);

    /// Imports `path` and fills the preview; the error when it cannot.
    QString setModel(const QString &path);
    /// Takes the hardware and options of a hardware file (or any project).
    QString setHardwareFile(const QString &path);
    Accelerator accelerator() const;
    /// The network to save; empty until a model imports with a layer.
    std::optional<Network> network() const;
    /// Saves network() to `path`; the error, or empty.
    QString saveTo(const QString &path);
    /// Where the last save went.
    QString savedPath() const { return m_savedPath; }
    QTreeWidget *preview() const { return m_preview; }

private:
    void browseModel();
    void browseHardware();
    void saveAndAccept();

    QLineEdit *m_modelPath;
    QLineEdit *m_hardwarePath;
    QString m_readModel, m_readHardware; // the paths last read, as shown (not read again on leaving the field)
    QSpinBox *m_memSize;
    QSpinBox *m_nbopPe;
    QDoubleSpinBox *m_tl, *m_tw, *m_tacc;
    QCheckBox *m_strategies;
    QTreeWidget *m_preview;
    QLabel *m_message;
    QDialogButtonBox *m_buttons;
    Hardware m_fileHardware; // dram_size and the reload bound come from the file
    Options m_options;
    std::optional<NetworkImport> m_import;
    QString m_savedPath;
};

} // namespace convoffload::ui
