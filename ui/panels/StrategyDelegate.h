// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How StrategyPanel's list draws a strategy: two lines, the validity badge and
// the name, then the kind, the group size and the duration. Renaming edits the
// name line only.

#include <QStyledItemDelegate>

namespace convoffload::ui {

/// Reads StrategyListModel's StatusRole and SummaryRole.
class StrategyDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    static constexpr int kMargin = 4;
};

} // namespace convoffload::ui
