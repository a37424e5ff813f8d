// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/GroupsPanel.h"

#include "models/GroupListModel.h"
#include "models/StepKernelModel.h"
#include "panels/GroupTreeView.h"

#include "document/ProjectDocument.h"

#include "convoffload/io/Report.h"

#include <QAction>
#include <QItemSelection>
#include <QItemSelectionModel>
#include <QLabel>
#include <QToolBar>
#include <QTreeView>

#include <algorithm>
#include <QVBoxLayout>

namespace convoffload::ui {

namespace {

constexpr qint64 kMaxPatchesOpened = 20000;

} // namespace

GroupsPanel::GroupsPanel(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new GroupListModel(document, this))
    , m_steps(new StepKernelModel(document, this))
    , m_view(new GroupTreeView(this))
    , m_toolBar(new QToolBar(this))
    , m_message(new QLabel(this))
    , m_feedback(new QLabel(this))
    , m_dropPreview(new QLabel(this))
{
    m_feedback->setWordWrap(true);
    m_feedback->setTextFormat(Qt::RichText);
    m_view->setModel(m_model);
    m_view->setHeaderHidden(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragDropMode(QAbstractItemView::DragDrop);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->setDropIndicatorShown(true);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #D55E00"));
    m_message->hide();

    QList<QAction *> *into = &m_editActions;
    const auto action = [this, &into](const QString &text, const QString &iconText, const QKeySequence &key, const QString &tip,
                            void (GroupsPanel::*slot)()) {
        auto *a = new QAction(text, this);
        a->setIconText(iconText);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        a->setStatusTip(tip);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        into->append(a);
        return a;
    };
    action(tr("New group from selection"), tr("New"), QKeySequence(tr("Ctrl+G")),
        tr("Move the selected patches to a new group at the end"), &GroupsPanel::newGroupFromSelection);
    m_split = action(tr("Split selection off"), tr("Split"), QKeySequence(tr("Ctrl+Shift+G")),
        tr("Move the selected patches of a group into a new group right after it"), &GroupsPanel::splitSelection);
    m_merge = action(tr("Merge groups"), tr("Merge"), QKeySequence(tr("Ctrl+M")),
        tr("Merge the selected groups into the first of them (one group selected: merge it with the next)"),
        &GroupsPanel::mergeSelection);
    action(tr("Unassign selection"), tr("Unassign"), QKeySequence(Qt::Key_Backspace),
        tr("Take the selected patches out of their groups"), &GroupsPanel::unassignSelection);
    action(tr("Move group up"), tr("Up"), QKeySequence(tr("Ctrl+Up")), tr("Move the current group one place earlier"),
        &GroupsPanel::moveGroupUp);
    action(tr("Move group down"), tr("Down"), QKeySequence(tr("Ctrl+Down")), tr("Move the current group one place later"),
        &GroupsPanel::moveGroupDown);
    // The steps view's own actions: the selected kernels (of one step) move
    // as a drop would move them, one undo step each.
    into = &m_stepActions;
    action(tr("Move kernels to the previous step"), tr("◀ Step"), QKeySequence(tr("Alt+Up")),
        tr("Move the selected kernels into the step before theirs"), &GroupsPanel::kernelsToPreviousStep);
    action(tr("Move kernels to the next step"), tr("Step ▶"), QKeySequence(tr("Alt+Down")),
        tr("Move the selected kernels into the step after theirs"), &GroupsPanel::kernelsToNextStep);
    action(tr("Kernels to a new step"), tr("New step"), QKeySequence(tr("Ctrl+K")),
        tr("Move the selected kernels into a new step right after theirs, on the same patches (splits a block)"),
        &GroupsPanel::kernelsToNewStep);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->addActions(m_editActions);
    m_toolBar->addActions(m_stepActions);
    m_dropPreview->setWordWrap(true);
    m_dropPreview->hide();
    setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addActions(actions());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_feedback);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_dropPreview);
    layout->addWidget(m_message);
    connect(m_model, &GroupListModel::editRefused, this, &GroupsPanel::show);
    // A new tree opens its groups, unless there are so many patches that the
    // view would lay out millions of rows on the GUI thread (a 4096² layer
    // froze the window for minutes); then the groups start closed.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        qint64 patches = 0;
        for (int g = 0, n = m_model->rowCount(); g < n; ++g)
            patches += m_model->rowCount(m_model->index(g, 0));
        if (patches <= kMaxPatchesOpened)
            m_view->expandToDepth(0);
    });
    // An edit keeps the groups' expansion (the model carries it over); groups
    // it creates open like every group of a new tree.
    connect(m_model, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] {
        m_knownGroups.clear();
        for (int row = 0; row < m_model->rowCount(); ++row)
            m_knownGroups.insert(QPersistentModelIndex(m_model->index(row, 0)));
    });
    connect(m_model, &QAbstractItemModel::layoutChanged, this, [this] {
        for (int row = 0; row < m_model->rowCount(); ++row)
            if (const QModelIndex group = m_model->index(row, 0); !m_knownGroups.contains(QPersistentModelIndex(group)))
                m_view->expand(group);
        m_knownGroups.clear();
    });
    connect(m_steps, &StepKernelModel::editRefused, this, &GroupsPanel::show);
    connect(m_steps, &StepKernelModel::dropPreviewChanged, this, [this](const QString &text) {
        m_dropPreview->setText(text);
        m_dropPreview->setStyleSheet(text.startsWith(QStringLiteral("✗")) ? QStringLiteral("color: #D55E00") : QString());
        m_dropPreview->setVisible(!text.isEmpty());
    });
    connect(m_steps, &QAbstractItemModel::modelReset, this, &GroupsPanel::updateMode);
    connect(document, &ProjectDocument::simulationStarted, this, &GroupsPanel::updateFeedback);
    connect(document, &ProjectDocument::simulationChanged, this, &GroupsPanel::updateFeedback);
    connect(document, &ProjectDocument::comparisonChanged, this, &GroupsPanel::updateFeedback);
    connect(document, &ProjectDocument::momentChanged, this, &GroupsPanel::followMoment);
    updateFeedback();
    updateMode();
}

bool GroupsPanel::showsSteps() const { return m_view->model() == m_steps; }

void GroupsPanel::followMoment()
{
    // Compute step k computes group k (one compute step a group), or the
    // tree's step k when it shows steps; the drain computes none.
    const int step = m_document->moment().step;
    const int rows = showsSteps() ? m_steps->rowCount() : m_model->unassignedRow();
    m_model->setCurrentGroup(!showsSteps() && step >= 0 && step < rows ? step : -1);
    if (step < 0 || step >= rows || !isVisible())
        return;
    if (!showsSteps() && !m_shownPatches.empty())
        return; // the patches the user selected stay in view
    m_view->scrollTo(m_view->model()->index(step, 0), QAbstractItemView::EnsureVisible);
}

void GroupsPanel::showPatches(const std::vector<std::uint32_t> &patches)
{
    m_shownPatches = patches;
    if (showsSteps())
        return; // the steps tree lists kernels, not patches
    // One range per run of rows of a group: a rubber band over a big layer
    // selects thousands of patches.
    const QModelIndexList rows = m_model->indexesOfPatches(PatchList(patches.begin(), patches.end()));
    QItemSelection selection;
    for (qsizetype i = 0; i < rows.size();) {
        qsizetype end = i + 1;
        while (end < rows.size() && rows[end].parent() == rows[i].parent() && rows[end].row() == rows[end - 1].row() + 1)
            ++end;
        selection.select(rows[i], rows[end - 1]);
        i = end;
    }
    const QModelIndex first = rows.value(0);
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!first.isValid()) {
        followMoment();
        return;
    }
    for (const QItemSelectionRange &range : selection)
        m_view->expand(range.parent());
    m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    if (isVisible())
        m_view->scrollTo(first, QAbstractItemView::EnsureVisible);
}

void GroupsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    const QModelIndex current = m_view->currentIndex();
    if (!showsSteps() && !m_shownPatches.empty() && current.isValid())
        m_view->scrollTo(current, QAbstractItemView::EnsureVisible);
    else
        followMoment();
}

void GroupsPanel::updateMode()
{
    const bool steps = m_steps->showsSteps();
    QAbstractItemModel *want = steps ? static_cast<QAbstractItemModel *>(m_steps) : m_model;
    if (m_view->model() != want) {
        m_view->setModel(want);
        show(QString());
    }
    for (QAction *a : m_editActions) {
        a->setEnabled(!steps);
        a->setVisible(!steps);
    }
    for (QAction *a : m_stepActions) {
        a->setEnabled(steps);
        a->setVisible(steps);
    }
    m_view->setToolTip(steps ? tr("Each step computes its patches with its kernels. Drag kernels onto another step,\n"
                                  "or between steps for a new step on the same patches. Every edit can be undone.")
                             : tr("Drag patches onto a group, onto \"Unassigned\" or between groups (a new group);\n"
                                  "drag a group between groups to reorder it. Every edit can be undone."));
    if (steps) {
        qint64 kernels = 0;
        for (const ComputeStep &s : m_steps->steps())
            kernels += qint64(s.kernels.size());
        // After the view's own reset handler, which closes every row.
        if (kernels <= kMaxPatchesOpened)
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (showsSteps())
                        m_view->expandToDepth(0);
                },
                Qt::QueuedConnection);
        if (!m_steps->problem().isEmpty())
            show(m_steps->problem());
    }
}

QString GroupsPanel::lastMessage() const { return m_message->isVisible() ? m_message->text() : QString(); }

QString GroupsPanel::feedback() const { return m_feedback->text(); }

QString GroupsPanel::dropPreviewText() const { return m_dropPreview->isVisible() ? m_dropPreview->text() : QString(); }

// What every edit is judged by: valid or not (and why), the total duration and
// how it compares with the best valid heuristic of the project.
void GroupsPanel::updateFeedback()
{
    const auto snapshot = m_document->simulation();
    const int current = m_document->currentStrategy();
    const auto &strategies = m_document->project().strategies;
    const bool stale = !snapshot || current < 0 || current >= int(strategies.size())
        || snapshot->spec != strategies[std::size_t(current)] || snapshot->problem != m_document->problem();
    if (m_document->busy() && stale) {
        m_feedback->setText(tr("<i>Simulating…</i>"));
        return;
    }
    if (!snapshot) {
        m_feedback->setText(QString());
        return;
    }
    if (!snapshot->failure.empty()) {
        m_feedback->setText(
            tr("<b style='color:#D55E00'>✗</b> %1").arg(QString::fromStdString(snapshot->failure).toHtmlEscaped()));
        return;
    }
    const SimulationResult &r = snapshot->result;
    const Verdict verdict = verdictOf(r);
    const QString words = QString::fromStdString(verdictText(verdict)).toHtmlEscaped();
    QString text = verdict.status == StrategyStatus::Invalid  ? tr("<b style='color:#D55E00'>✗ %1</b>").arg(words)
        : verdict.status == StrategyStatus::BreaksAssumptions ? tr("<b style='color:#9A6700'>◥ %1</b>").arg(words)
                                                              : tr("<b style='color:#009E73'>✓ %1</b>").arg(words);
    const auto number = [](double v) { return QString::fromStdString(formatNumber(v)); }; // 1668052, not 1.66805e+06
    text += tr(" · duration <b>%1</b>").arg(number(r.totalDuration()));
    const CompareRow *best = nullptr;
    for (const CompareRow &row : m_document->comparison())
        if (row.kind != strategyKindName(StrategyKind::Groups) && row.kind != strategyKindName(StrategyKind::Steps)
            && row.failure.empty() && row.valid && (!best || row.total_duration < best->total_duration))
            best = &row;
    if (best && best->name == snapshot->spec.name) { // a comparison with itself says nothing
        text += tr(" · the best heuristic of the project");
    } else if (best) {
        const double delta = r.totalDuration() - best->total_duration;
        const QString sign = delta > 0 ? QStringLiteral("+") : QString();
        text += tr(" · %1%2 (%3%4 %) vs best heuristic %5")
                    .arg(sign)
                    .arg(number(delta))
                    .arg(sign)
                    .arg(best->total_duration > 0 ? 100.0 * delta / best->total_duration : 0.0, 0, 'f', 1)
                    .arg(QString::fromStdString(best->name).toHtmlEscaped());
    }
    if (!r.valid() && !r.diagnostics.empty())
        text += QStringLiteral("<br><span style='color:#D55E00'>%1</span>")
                    .arg(QString::fromStdString(r.diagnostics.front().message).toHtmlEscaped());
    m_feedback->setText(text);
}

void GroupsPanel::show(const QString &error)
{
    m_message->setText(error);
    m_message->setVisible(!error.isEmpty());
}

std::vector<std::uint32_t> GroupsPanel::selectedPatches() const
{
    std::vector<std::uint32_t> patches;
    for (const QModelIndex &i : m_view->selectionModel()->selectedIndexes())
        if (i.parent().isValid())
            patches.push_back(std::uint32_t(i.data(GroupListModel::PatchIdRole).toInt()));
    return patches;
}

int GroupsPanel::currentGroup() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? i.data(GroupListModel::GroupIndexRole).toInt() : -1;
}

std::vector<int> GroupsPanel::selectedGroups() const
{
    std::vector<int> groups;
    for (const QModelIndex &i : m_view->selectionModel()->selectedIndexes())
        if (!i.parent().isValid() && !i.data(GroupListModel::IsUnassignedRole).toBool())
            groups.push_back(i.data(GroupListModel::GroupIndexRole).toInt());
    std::sort(groups.begin(), groups.end());
    return groups;
}

void GroupsPanel::splitSelection()
{
    // The selected patches' group; patches of several groups cannot be split at once.
    int group = -1;
    for (const QModelIndex &i : m_view->selectionModel()->selectedIndexes()) {
        if (!i.parent().isValid())
            continue;
        const int g = i.data(GroupListModel::GroupIndexRole).toInt();
        if (g < 0 || (group >= 0 && g != group)) {
            show(tr("Select patches of one group to split them off it."));
            return;
        }
        group = g;
    }
    if (group < 0) {
        show(tr("Select the patches to split off their group."));
        return;
    }
    show(m_model->split(group, selectedPatches()));
}

void GroupsPanel::mergeSelection()
{
    std::vector<int> groups = selectedGroups();
    if (groups.empty() && currentGroup() >= 0)
        groups.push_back(currentGroup());
    if (groups.size() == 1)
        groups.push_back(groups.front() + 1); // with the next one (refused when it is the last)
    if (groups.size() == 2) // name them as the model's merge does
        show(m_model->merge(groups[0], groups[1]));
    else
        show(m_model->mergeAll(groups));
}

std::optional<GroupsPanel::SelectedKernels> GroupsPanel::selectedKernels()
{
    SelectedKernels selected;
    for (const QModelIndex &i : m_view->selectionModel()->selectedIndexes()) {
        if (!i.parent().isValid())
            continue;
        const int step = i.data(StepKernelModel::StepIndexRole).toInt();
        if (selected.step >= 0 && step != selected.step) {
            show(tr("Select kernels of one step: kernels of two steps cannot move at once."));
            return std::nullopt;
        }
        selected.step = step;
        selected.kernels.push_back(std::uint32_t(i.data(StepKernelModel::KernelIdRole).toInt()));
    }
    if (selected.step < 0) {
        show(tr("Select the kernels to move (the rows under a step)."));
        return std::nullopt;
    }
    return selected;
}

void GroupsPanel::kernelsToPreviousStep()
{
    if (const auto k = selectedKernels()) {
        if (k->step == 0)
            show(tr("Step 1 is the first step: there is no step before it."));
        else
            showStepEdit(m_steps->moveKernels(k->step, k->kernels, k->step - 1), k->step - 1);
    }
}

void GroupsPanel::kernelsToNextStep()
{
    if (const auto k = selectedKernels()) {
        if (k->step + 1 >= int(m_steps->steps().size()))
            show(tr("Step %1 is the last step: there is no step after it.").arg(k->step + 1));
        else
            showStepEdit(m_steps->moveKernels(k->step, k->kernels, k->step + 1), k->step + 1);
    }
}

void GroupsPanel::kernelsToNewStep()
{
    if (const auto k = selectedKernels())
        showStepEdit(m_steps->moveKernelsToNewStep(k->step, k->kernels, k->step + 1), k->step + 1);
}

void GroupsPanel::showStepEdit(const QString &refusal, int step)
{
    show(refusal);
    if (!refusal.isEmpty() || step < 0 || step >= m_steps->rowCount())
        return;
    // The edit rebuilt the tree (an edited copy of a generated strategy is
    // another strategy): the step that received the kernels stays in view,
    // current and open, not wherever the reset left the view.
    const QModelIndex index = m_steps->index(step, 0);
    m_view->expand(index);
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void GroupsPanel::newGroupFromSelection() { show(m_model->newGroup(selectedPatches())); }
void GroupsPanel::unassignSelection() { show(m_model->unassignPatches(selectedPatches())); }
void GroupsPanel::moveGroupUp() { show(m_model->moveGroup(currentGroup(), currentGroup() - 1)); }
void GroupsPanel::moveGroupDown() { show(m_model->moveGroup(currentGroup(), currentGroup() + 1)); }

} // namespace convoffload::ui
