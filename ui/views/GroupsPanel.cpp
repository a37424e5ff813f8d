#include "views/GroupsPanel.h"

#include "views/GroupListModel.h"

#include <QAction>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace convoffload::ui {

GroupsPanel::GroupsPanel(ProjectDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_model(new GroupListModel(document, this))
    , m_view(new QTreeView(this))
    , m_message(new QLabel(this))
{
    m_view->setModel(m_model);
    m_view->setHeaderHidden(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragDropMode(QAbstractItemView::DragDrop);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->setDropIndicatorShown(true);
    m_view->setToolTip(tr("Drag patches onto a group, onto \"Unassigned\" or between groups (a new group);\n"
                          "drag a group between groups to reorder it. Every edit can be undone."));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #D55E00"));
    m_message->hide();

    const auto action = [this](const QString &text, const QKeySequence &key, void (GroupsPanel::*slot)()) {
        auto *a = new QAction(text, this);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    action(tr("New group from selection"), QKeySequence(tr("Ctrl+G")), &GroupsPanel::newGroupFromSelection);
    action(tr("Unassign selection"), QKeySequence(Qt::Key_Backspace), &GroupsPanel::unassignSelection);
    action(tr("Move group up"), QKeySequence(tr("Ctrl+Up")), &GroupsPanel::moveGroupUp);
    action(tr("Move group down"), QKeySequence(tr("Ctrl+Down")), &GroupsPanel::moveGroupDown);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addActions(actions());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_message);
    connect(m_model, &GroupListModel::editRefused, this, &GroupsPanel::show);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_view->expandToDepth(0); });
}

QString GroupsPanel::lastMessage() const { return m_message->isVisible() ? m_message->text() : QString(); }

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

void GroupsPanel::newGroupFromSelection() { show(m_model->newGroup(selectedPatches())); }
void GroupsPanel::unassignSelection() { show(m_model->unassignPatches(selectedPatches())); }
void GroupsPanel::moveGroupUp() { show(m_model->moveGroup(currentGroup(), currentGroup() - 1)); }
void GroupsPanel::moveGroupDown() { show(m_model->moveGroup(currentGroup(), currentGroup() + 1)); }

} // namespace convoffload::ui
