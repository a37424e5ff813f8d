// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/GroupTreeView.h"

#include "models/StrategyEditModel.h"
#include "panels/UniformRowDelegate.h"

#include <QDragMoveEvent>
#include <QDropEvent>

namespace convoffload::ui {

GroupTreeView::GroupTreeView(QWidget *parent)
    : QTreeView(parent)
{
    setUniformRowHeights(true);
    setItemDelegate(new UniformRowDelegate(this));
}

StrategyEditModel *GroupTreeView::editModel() const { return qobject_cast<StrategyEditModel *>(model()); }

void GroupTreeView::clearPreview()
{
    if (StrategyEditModel *m = editModel())
        m->clearDropPreview();
}

void GroupTreeView::dragMoveEvent(QDragMoveEvent *event)
{
    QTreeView::dragMoveEvent(event); // places the drop indicator and asks the model
    StrategyEditModel *m = editModel();
    if (!m)
        return;
    // Where the drop would go, as QAbstractItemView turns the indicator into
    // dropMimeData's (row, parent).
    const QModelIndex index = indexAt(event->position().toPoint());
    int row = -1;
    QModelIndex parent;
    switch (dropIndicatorPosition()) {
    case AboveItem:
        row = index.row();
        parent = index.parent();
        break;
    case BelowItem:
        row = index.row() + 1;
        parent = index.parent();
        break;
    case OnItem:
        parent = index;
        break;
    case OnViewport:
        break;
    }
    m->previewDrop(event->mimeData(), row, parent);
}

void GroupTreeView::dragLeaveEvent(QDragLeaveEvent *event)
{
    clearPreview();
    QTreeView::dragLeaveEvent(event);
}

void GroupTreeView::dropEvent(QDropEvent *event)
{
    clearPreview();
    QTreeView::dropEvent(event);
}

void GroupTreeView::startDrag(Qt::DropActions supportedActions)
{
    QTreeView::startDrag(supportedActions);
    clearPreview(); // a cancelled drag may end outside every target
}

} // namespace convoffload::ui
