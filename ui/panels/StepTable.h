// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The step table: follows the document's moment (its step's row is selected)
// and moves the document to a step when the user picks a row. Every column is
// as wide as its widest cell and every row as tall as one line, as
// ResizeToContents would make them, but measured on a few cells (the model's
// widestRows) when the steps change, not on every cell of every row.

#include <QTableView>

namespace convoffload::ui {

class ProjectDocument;
class StepTableModel;

class StepTable : public QTableView {
    Q_OBJECT
public:
    explicit StepTable(ProjectDocument *document, QWidget *parent = nullptr);

    StepTableModel *stepModel() const { return m_model; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void showMoment();
    /// Each column as wide as its header and its widest cell.
    void fitColumns();
    /// Every row one line high (measured once per font and style).
    void fitRows();
    void userPicked(const QModelIndex &index);

    ProjectDocument *m_document;
    StepTableModel *m_model;
    bool m_following = false; // selecting the moment's row: do not seek back
    bool m_rowsFitted = false; // the row height was measured on a row of the current font and style
};

} // namespace convoffload::ui
