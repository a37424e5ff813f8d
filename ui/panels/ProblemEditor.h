#pragma once
// The layer / hardware / options form. Every change pushes one
// EditProblemCommand ("layer.h_k"; typing in one field merges into one undo
// step); Layer::problems() and Hardware::problems() are shown at the field
// they name, and the S1 figures derived from the problem are shown read-only.
// Undo, redo and loading refresh the form without pushing anything.

#include "convoffload/model/Problem.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <vector>

class QFormLayout;
class QLabel;

namespace convoffload::ui {

class ProjectDocument;

class ProblemEditor : public QWidget {
    Q_OBJECT
public:
    explicit ProblemEditor(ProjectDocument *document, QWidget *parent = nullptr);

    /// The editor of a field named by its key path ("layer.h_k",
    /// "hardware.mem_size", "options.write_policy"); null for an unknown key.
    QWidget *editorFor(const QString &key) const;
    /// The problems (errors, then warnings) currently shown at a field, one per
    /// line; empty when the field is fine.
    QString messageAt(const QString &key) const;
    /// Problems no field claims (shown above the form).
    QString generalMessage() const;

private:
    enum class EditorKind { Int, Int64, Real, Check, Policy };
    struct Field {
        QString key; // "layer.h_k"
        QString name; // "h_k": the prefix of the core's messages
        EditorKind kind;
        QWidget *editor = nullptr;
        QString tip; // the tooltip without messages
        std::function<double(const Problem &)> get;
        std::function<void(Problem &, double)> set;
        int row = -1; // index into m_rows
        QStringList errors, warnings;
    };
    struct Row {
        QLabel *message = nullptr; // under the row's editors, hidden when empty
    };

    void addRow(QFormLayout *form, const QString &label, const QString &labelTip, const std::vector<Field> &fields);
    QWidget *makeEditor(Field &field);
    void onEdited(int fieldIndex);
    double editorValue(const Field &field) const;
    void setEditorValue(Field &field, double value);
    void refresh();
    void showMessages();
    void updateDerived();
    const Field *find(const QString &key) const;

    ProjectDocument *m_document;
    std::vector<Field> m_fields;
    std::vector<Row> m_rows;
    QLabel *m_general = nullptr;
    QLabel *m_output = nullptr, *m_patches = nullptr, *m_nbPatchesMax = nullptr, *m_kRange = nullptr, *m_layerSize = nullptr;
};

} // namespace convoffload::ui
