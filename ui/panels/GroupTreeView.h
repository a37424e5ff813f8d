// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Groups dock's tree: a QTreeView that, while patches or kernels are
// dragged over it, tells its model (GroupListModel or StepKernelModel, both
// StrategyEditModels) where they would land so the model's drop preview
// follows the drop indicator (a group or step, or a new one between two), and
// clears the preview when the drag leaves, drops or is cancelled.
// Rows have one height (UniformRowDelegate), so an edit or new findings never
// make the view measure every row again.

#include <QTreeView>

namespace convoffload::ui {

class StrategyEditModel;

class GroupTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit GroupTreeView(QWidget *parent = nullptr);

protected:
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void startDrag(Qt::DropActions supportedActions) override;

private:
    StrategyEditModel *editModel() const;
    void clearPreview();
};

} // namespace convoffload::ui
