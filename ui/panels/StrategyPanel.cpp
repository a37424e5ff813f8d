// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/StrategyPanel.h"

#include "document/AddStrategyCommand.h"
#include "document/ProjectDocument.h"
#include "document/RemoveStrategyCommand.h"
#include "models/StrategyListModel.h"
#include "panels/AddHeuristicDialog.h"
#include "panels/StrategyDelegate.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/StrategyCsv.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QListView>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

bool problemIsSound(const Problem &p) { return p.layer.problems().empty() && p.hardware.problems().empty(); }

std::string localPath(const QString &path) { return QFile::encodeName(path).toStdString(); }

} // namespace

StrategyPanel::StrategyPanel(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new StrategyListModel(document, this))
    , m_view(new QListView)
{
    m_view->setModel(m_model);
    m_view->setItemDelegate(new StrategyDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->setUniformItemSizes(true);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    const auto makeAction
        = [this](const QString &text, const QString &iconText, const QKeySequence &key, const QString &tip, auto slot) {
              auto *action = new QAction(text, this);
              action->setIconText(iconText);
              action->setShortcut(key);
              action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
              action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
              action->setStatusTip(tip);
              connect(action, &QAction::triggered, this, slot);
              addAction(action);
              m_view->addAction(action);
              return action;
          };
    m_add = makeAction(tr("&Add Heuristic…"), tr("Add…"), QKeySequence(Qt::Key_Insert),
        tr("Add an S1-baseline, Row-by-Row or ZigZag strategy"), &StrategyPanel::showAddDialog);
    m_duplicate = makeAction(tr("D&uplicate as Groups"), tr("Duplicate"), QKeySequence(Qt::CTRL | Qt::Key_D),
        tr("Copy the selected strategy as explicit groups, to edit by hand"), [this] {
            if (const QString error = duplicateCurrent(); !error.isEmpty())
                showError(tr("Duplicate Strategy"), error);
        });
    m_rename = makeAction(
        tr("&Rename"), tr("Rename"), QKeySequence(Qt::Key_F2), tr("Rename the selected strategy"), &StrategyPanel::renameCurrent);
    m_delete
        = makeAction(tr("&Delete"), tr("Delete"), QKeySequence(QKeySequence::Delete), tr("Delete the selected strategy"), [this] {
              if (const QString error = deleteCurrent(); !error.isEmpty())
                  showError(tr("Delete Strategy"), error);
          });
    m_import = makeAction(tr("&Import CSV…"), tr("Import…"), QKeySequence(),
        tr("Add a strategy from a CSV of groups (patch,group / row,col,group / 0-1 matrix)"), &StrategyPanel::showImportDialog);
    m_export = makeAction(tr("&Export CSV…"), tr("Export…"), QKeySequence(),
        tr("Save the selected strategy's groups as patch,row,col,group"), &StrategyPanel::showExportDialog);
    for (QAction *a : {m_import, m_export})
        a->setToolTip(a->statusTip());

    auto *buttons = new QGridLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(2);
    QAction *const order[] = {m_add, m_duplicate, m_rename, m_delete, m_import, m_export};
    for (int i = 0; i < 6; ++i) {
        auto *button = new QToolButton;
        button->setDefaultAction(order[i]);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(button, i / 3, i % 3);
    }

    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_view, 1);
    column->addLayout(buttons);

    connect(m_model, &StrategyListModel::renameRefused, this,
        [this](const QString &reason) { showError(tr("Rename Strategy"), reason); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (!m_selecting && current.isValid())
            m_document->setCurrentStrategy(current.row());
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &StrategyPanel::selectCurrent);
    connect(m_document, &ProjectDocument::currentStrategyChanged, this, &StrategyPanel::selectCurrent);
    connect(m_document, &ProjectDocument::problemChanged, this, &StrategyPanel::updateActions);
    connect(m_document, &ProjectDocument::strategyInserted, this, &StrategyPanel::updateActions);
    connect(m_document, &ProjectDocument::strategyRemoved, this, &StrategyPanel::updateActions);
    connect(m_document, &ProjectDocument::projectReset, this, &StrategyPanel::updateActions);
    selectCurrent();
}

void StrategyPanel::selectCurrent()
{
    const int current = m_document->currentStrategy();
    const QModelIndex index = current >= 0 && current < m_model->rowCount() ? m_model->index(current) : QModelIndex();
    m_selecting = true;
    if (index.isValid())
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    else
        m_view->selectionModel()->clear();
    m_selecting = false;
    updateActions();
}

void StrategyPanel::updateActions()
{
    const int current = m_document->currentStrategy();
    const bool selected = current >= 0 && current < int(m_document->project().strategies.size());
    const bool sound = problemIsSound(m_document->problem());
    m_duplicate->setEnabled(selected && sound);
    m_rename->setEnabled(selected);
    m_delete->setEnabled(selected);
    m_export->setEnabled(selected && sound);
    m_import->setEnabled(m_document->problem().layer.problems().empty());
}

// Failed actions are reported in a window-modal box that does not block the
// caller (open(), not exec()), so tests and scripts can drive the panel.
void StrategyPanel::showError(const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString StrategyPanel::addHeuristic(StrategyKind kind, std::int64_t groupSize, const QString &name)
{
    const QString trimmed = name.trimmed();
    if (const QString problem = m_model->renameProblem(-1, trimmed); !problem.isEmpty())
        return problem;
    if (kind == StrategyKind::Groups)
        return tr("Explicit groups are added by duplicating a strategy or importing a CSV.");
    StrategySpec spec;
    spec.name = trimmed.toStdString();
    spec.kind = kind;
    if (kind != StrategyKind::S1Baseline) {
        if (groupSize < 1)
            return tr("The group size must be at least 1.");
        spec.group_size = groupSize;
    }
    const int at = int(m_document->project().strategies.size());
    m_document->undoStack()->push(new AddStrategyCommand(m_document, at, spec));
    return {};
}

QString StrategyPanel::duplicateCurrent()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return tr("Select a strategy to duplicate.");
    const StrategySpec &source = m_document->project().strategies[std::size_t(current)];
    StrategySpec copy;
    try {
        copy.groups = groupsOf(m_document->problem(), source);
    } catch (const std::exception &e) {
        return tr("“%1” cannot be expanded into groups: %2").arg(fromStd(source.name), fromStd(e.what()));
    }
    copy.kind = StrategyKind::Groups;
    copy.name = m_document->uniqueStrategyName(fromStd(source.name) + tr(" copy")).toStdString();
    m_document->undoStack()->push(new AddStrategyCommand(m_document, current + 1, copy));
    return {};
}

QString StrategyPanel::deleteCurrent()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return tr("Select a strategy to delete.");
    m_document->undoStack()->push(new RemoveStrategyCommand(m_document, current));
    return {};
}

void StrategyPanel::renameCurrent()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= m_model->rowCount())
        return;
    const QModelIndex index = m_model->index(current);
    m_view->setFocus();
    m_view->scrollTo(index);
    m_view->edit(index);
}

QString StrategyPanel::importCsv(const QString &path)
{
    Groups groups;
    try {
        groups = loadGroupsCsv(m_document->problem().layer, localPath(path));
    } catch (const std::exception &e) {
        return fromStd(e.what());
    }
    StrategySpec spec;
    spec.kind = StrategyKind::Groups;
    spec.groups = std::move(groups);
    const QString base = QFileInfo(path).completeBaseName();
    spec.name = m_document->uniqueStrategyName(base.isEmpty() ? tr("Imported") : base).toStdString();
    const int at = int(m_document->project().strategies.size());
    m_document->undoStack()->push(new AddStrategyCommand(m_document, at, spec));
    return {};
}

QString StrategyPanel::exportCsv(const QString &path) const
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return tr("Select a strategy to export.");
    const Problem &problem = m_document->problem();
    try {
        const Groups groups = groupsOf(problem, m_document->project().strategies[std::size_t(current)]);
        writeTextFileAtomically(localPath(path), groupsToCsv(problem.layer, groups));
    } catch (const std::exception &e) {
        return fromStd(e.what());
    }
    return {};
}

void StrategyPanel::showAddDialog()
{
    auto *dialog = new AddHeuristicDialog(m_document, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const QString error = addHeuristic(dialog->kind(), dialog->groupSize(), dialog->name()); !error.isEmpty())
            showError(tr("Add Strategy"), error);
    });
    dialog->open();
}

void StrategyPanel::showImportDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Strategy CSV"), QFileInfo(m_document->filePath()).path(),
        tr("Strategy CSV (*.csv *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = importCsv(path); !error.isEmpty())
        showError(tr("Import Strategy CSV"), error);
}

void StrategyPanel::showExportDialog()
{
    const int current = m_document->currentStrategy();
    if (current < 0 || current >= int(m_document->project().strategies.size()))
        return;
    QString name = fromStd(m_document->project().strategies[std::size_t(current)].name);
    name.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    const QString folder = QFileInfo(m_document->filePath()).path();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Strategy CSV"), folder + QLatin1Char('/') + name + QStringLiteral(".csv"), tr("Strategy CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (const QString error = exportCsv(path); !error.isEmpty())
        showError(tr("Export Strategy CSV"), error);
}

} // namespace convoffload::ui
