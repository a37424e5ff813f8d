// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// File › Import Network (ONNX)…: choose a model and the hardware, give
// sizes to its graph inputs' symbolic dimensions, preview the convolutions
// found (with their shapes) and the ones skipped (with the reason), then save
// the network project (docs/user/networks.md, "Import an ONNX model").
#include "jobs/BackgroundJob.h"

#include "convoffload/model/Network.h"
#include "convoffload/onnx/GraphInput.h"
#include "convoffload/onnx/OnnxImport.h"

#include <QDialog>

#include <memory>
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

    /// Reads and imports `path` off the GUI thread (a model of hundreds of
    /// megabytes takes a second); the shape fields, the preview and the
    /// message follow when it ends. A model chosen meanwhile waits its turn.
    void setModel(const QString &path);
    /// A model is being read or imported: the preview says so, Import and
    /// Save… waits for it.
    bool isImporting() const { return m_job.isRunning(); }
    /// Runs the event loop until the reading and importing asked for so far
    /// have shown their result; then modelError(). For tests and scripts.
    QString waitForImport();
    /// Why the model last read cannot be imported (unreadable, not ONNX, no
    /// convolution the model can hold), empty when it imported.
    QString modelError() const { return m_modelError; }
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
    // What a run off the GUI thread gives back: the model's bytes and graph
    // inputs (when it read the file) and the import of the given shapes.
    struct ImportRun {
        QString path; // the model to read, empty when its bytes were read before
        std::string where; // the model's path, as messages name it
        std::shared_ptr<const std::string> bytes;
        std::vector<GraphInput> inputs;
        InputShapes shapes;
        std::optional<NetworkImport> import;
        QString error;
    };
    void startRun(const QString &readPath, const InputShapes &shapes);
    void runFinished(ImportRun run);
    void showModelRead(const ImportRun &run);
    void runImport(const InputShapes &shapes);
    void showImport(const ImportRun &run);
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
    // Read once: every preview and the import saved come from the same bytes.
    std::shared_ptr<const std::string> m_modelBytes;
    std::optional<NetworkImport> m_import;
    InputShapes m_importedShapes; // what m_import was made with (or is being made with)
    QString m_modelError;
    QString m_savedPath;
    BackgroundJob<ImportRun, int> m_job{this};
    // Asked for while a run was under way: the newest model, else the newest shapes.
    QString m_queuedModel;
    std::optional<InputShapes> m_queuedShapes;
    bool m_saveWhenImported = false; // Import and Save… was pressed during a run
};

} // namespace convoffload::ui
