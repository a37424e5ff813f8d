// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The project's strategies: a list with a validity badge and the duration of
// each (from the document's comparison), and the actions that edit the list —
// add a heuristic, duplicate as explicit groups, rename, delete, import and
// export the strategy CSV. Every edit is an undo command; selecting a row
// makes it the document's current strategy.

#include "convoffload/model/S1Strategy.h"

#include <QWidget>

#include <cstdint>

class QAction;
class QListView;

namespace convoffload::ui {

class ProjectDocument;
class StrategyListModel;

class StrategyPanel : public QWidget {
    Q_OBJECT
public:
    explicit StrategyPanel(ProjectDocument *document, QWidget *parent = nullptr);

    StrategyListModel *model() const { return m_model; }
    QListView *view() const { return m_view; }

    // For the main window's Strategy menu. Their shortcuts (Ins, Ctrl+D, F2,
    // Del) are scoped to this panel (Qt::WidgetWithChildrenShortcut) so Del in
    // another view does not delete a strategy; widen the context to make them
    // window-wide.
    QAction *addHeuristicAction() const { return m_add; }
    QAction *duplicateAction() const { return m_duplicate; }
    QAction *renameAction() const { return m_rename; }
    QAction *deleteAction() const { return m_delete; }
    QAction *importCsvAction() const { return m_import; }
    QAction *exportCsvAction() const { return m_export; }

    // What the actions do once their dialog is answered; each returns an error
    // message for the user, empty on success.
    QString addHeuristic(StrategyKind kind, std::int64_t groupSize, const QString &name);
    QString duplicateCurrent();
    QString deleteCurrent();
    QString importCsv(const QString &path);
    QString exportCsv(const QString &path) const;

public slots:
    void showAddDialog();
    void renameCurrent();
    void showImportDialog();
    void showExportDialog();

private:
    void showError(const QString &title, const QString &message);
    void selectCurrent();
    void updateActions();

    ProjectDocument *m_document;
    StrategyListModel *m_model;
    QListView *m_view;
    QAction *m_add, *m_duplicate, *m_rename, *m_delete, *m_import, *m_export;
    bool m_selecting = false; // selection set from the document: do not echo it back
};

} // namespace convoffload::ui
