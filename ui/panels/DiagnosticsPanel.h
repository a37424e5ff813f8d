// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The current simulation's findings: errors (red cross) first, then the
// paper's reload assumption (a heading row with the full count — pixels,
// kernels, patches — and the first elements that break it, black corner
// icon), then plain warnings (amber triangle), each in the simulator's order;
// the reason a strategy could not be expanded, a failed functional check and
// how many were not listed. The summary is the core's verdict (Verdict.h).
// Activating a finding moves the document to its step and action and asks
// the grids to highlight the element it names.

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace convoffload::ui {

class ProjectDocument;

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    /// Item data (column 0, this role): the index into result.diagnostics, -1 for other rows.
    static constexpr int DiagnosticIndexRole = Qt::UserRole;

    explicit DiagnosticsPanel(ProjectDocument *document, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    /// The one-line summary above the list ("ZigZag runs correctly, breaks the
    /// reload assumption on 840 pixels; functional check pass.").
    QString summary() const;
    /// What activating a row does: seek to the finding's step (steps are
    /// 1-based in diagnostics; step 0, the whole strategy, does not seek) and
    /// emit elementHighlighted. Rows that are not findings do nothing.
    void activate(QTreeWidgetItem *item);

signals:
    /// The element a finding names ("pixel (3,0)", "output O[1](0,2)"), empty when none.
    void elementHighlighted(const QString &element);

private:
    void rebuild();

    ProjectDocument *m_document;
    QLabel *m_summary;
    QTreeWidget *m_tree;
};

} // namespace convoffload::ui
