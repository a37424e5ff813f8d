// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// File › Import Network (ONNX)…: choose a model and the hardware, give
// sizes to its graph inputs' symbolic dimensions, preview the convolutions
// found (with their shapes) and the ones skipped (with the reason), then save
// the network project (docs/user/networks.md, "Import an ONNX model").
#include "convoffload/model/Network.h"
#include "convoffload/onnx/OnnxImport.h"

#include <QDialog>

#include <optional>
#include <string>
#include <vector>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTreeWidget;
class QCheckBox;
class QFormLayout;
class QScrollArea;
class QTimer;
class QAbstractButton;

namespace convoffload::ui {

class NetworkImportDialog : public QDialog {
    Q_OBJECT
public:
    explicit NetworkImportDialog(QWidget *parent = nullptr);

    /// Imports `path` and fills the preview; the error when it cannot.
    QString setModel(const QString &path);
    /// Where Browse… for a model starts: the folder of the last model read,
    /// else the installed samples' networks (a folder of models), else the
    /// current folder (empty).
    static QString modelFolder();
    /// Takes the hardware and options of a hardware file (or any project).
    /// A file it cannot read is refused until another is read or the field
    /// is cleared: no import with hardware the user did not choose.
    QString setHardwareFile(const QString &path);
    /// Why Import and Save… is disabled, empty when it is enabled.
    QString importRefusal() const;
    Accelerator accelerator() const;
    /// The network to save; empty until a model imports with a layer.
    std::optional<Network> network() const;
    /// Saves network() to `path`; the error, or empty.
    QString saveTo(const QString &path);
    /// Where the last save went.
    QString savedPath() const { return m_savedPath; }
    QTreeWidget *preview() const { return m_preview; }
    /// The shape field of the graph input `name`, null when the model has none.
    QLineEdit *inputShapeField(const QString &name) const;
    /// The message beside that field (empty when the field is valid).
    QString inputShapeError(const QString &name) const;
    /// The shapes the preview and network() were imported with.
    const InputShapes &importedShapes() const { return m_importedShapes; }

private:
    // One row per graph input the model's runs feed.
    struct ShapeRow {
        GraphInput input;
        QString modelText; // the field's first text: left as it is, the model's own shape is imported
        QLineEdit *edit;
        QLabel *error;
    };
    // A row's widgets, made once and reused for the next model.
    struct ShapeWidgets {
        QLabel *label;
        QLineEdit *edit;
        QLabel *error;
    };
    // What the fields say now: the shapes to import, or a message per row.
    struct FieldShapes {
        InputShapes shapes;
        std::vector<QString> errors; // one per row, empty when valid
        bool valid() const;
    };

    void fillShapeRows(const std::vector<GraphInput> &inputs);
    FieldShapes readShapeFields() const;
    void showShapeErrors(const FieldShapes &fields);
    void shapesEdited(); // validate, re-import when the shapes changed
    QString runImport(const InputShapes &shapes);
    void updateImportButton(bool focus);
    QAbstractButton *importButton() const;
    void browseModel();
    void browseHardware();
    void saveAndAccept();

    QLineEdit *m_modelPath;
    QLineEdit *m_hardwarePath;
    QString m_readModel, m_readHardware; // the paths last read, as shown (not read again on leaving the field)
    QString m_hardwareError; // the hardware file named cannot be read: nothing is imported
    QSpinBox *m_memSize;
    QSpinBox *m_nbopPe;
    QDoubleSpinBox *m_tl, *m_tw, *m_tacc;
    QCheckBox *m_strategies;
    QFormLayout *m_form;
    QScrollArea *m_shapeArea;
    std::vector<ShapeWidgets> m_shapeWidgets; // as many as the most inputs a model had
    std::vector<ShapeRow> m_shapeRows; // the model's inputs, on the first widgets
    QTimer *m_shapeTimer; // re-imports a moment after the last key, not on every key
    QTreeWidget *m_preview;
    QLabel *m_message;
    QDialogButtonBox *m_buttons;
    Hardware m_fileHardware; // dram_size and the reload bound come from the file
    Options m_options;
    std::string m_modelBytes; // read once: every preview and the import saved come from the same bytes
    std::optional<NetworkImport> m_import;
    InputShapes m_importedShapes; // what m_import was made with
    QString m_savedPath;
};

} // namespace convoffload::ui
