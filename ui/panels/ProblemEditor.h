// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
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

#include <span>
#include <vector>

class QFormLayout;
class QLabel;
class QVBoxLayout;

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
    /// Why the last key typed into a field was refused (a minus sign in a
    /// field that cannot be negative), as its tooltip said; empty if none.
    QString lastRefusal() const { return m_lastRefusal; }

protected:
    /// A minus sign typed into a field that cannot be negative: the spin box
    /// dropped it without a word, so "-5" became 5; it is refused with why.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class EditorKind { Int, Int64, Real, Check, Policy, Layout };
    enum class Section { Layer, Hardware, Options }; // a group box each
    /// One editable field of the form; fieldTable() lists them in form order.
    struct FieldSpec {
        Section section = Section::Layer;
        const char *rowLabel = nullptr; // starts a row of the form; null: the field joins the previous row
        const char *rowTip = nullptr; // the row label's tooltip; null: the tooltips of its fields
        const char *key = nullptr; // "layer.h_k"; the part after the dot prefixes the core's messages
        EditorKind kind = EditorKind::Int;
        double min = 0, max = 0; // the spin boxes' range
        const char *text = nullptr; // a check box's text
        const char *tip = nullptr; // the editor's tooltip
        double (*get)(const Problem &) = nullptr; // the field's value, as the editor holds it
        void (*set)(Problem &, double) = nullptr;
        bool (*enabled)(const Problem &) = nullptr; // null: always editable (the transfer fields need a transfer model)
    };
    struct Field {
        const FieldSpec *spec;
        QString key; // "layer.h_k"
        QString name; // "h_k": the prefix of the core's messages
        QString tip; // the tooltip without messages
        QWidget *editor = nullptr;
        int row = -1; // index into m_rows
        QStringList errors, warnings;
    };
    struct Row {
        QLabel *message = nullptr; // under the row's editors, hidden when empty
    };

    static std::span<const FieldSpec> fieldTable();
    static QString sectionTitle(Section section);
    void addSection(QVBoxLayout *column, Section section);
    void addRow(QFormLayout *form, std::span<const FieldSpec> fields);
    void addDerivedFigures(QVBoxLayout *column);
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
    QString m_lastRefusal;
};

} // namespace convoffload::ui
