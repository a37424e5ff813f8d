// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/StrategyDelegate.h"

#include "models/StrategyListModel.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace convoffload::ui {

QSize StrategyDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const int lines = option.fontMetrics.lineSpacing() * 2 + 3 * kMargin;
    return {size.width(), std::max(size.height(), lines)};
}

void StrategyDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    const QString name = opt.text;
    opt.text.clear();
    opt.icon = QIcon();
    opt.features &= ~QStyleOptionViewItem::HasDecoration;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

    const QRect r = opt.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int line = opt.fontMetrics.lineSpacing();
    const int badgeSize = std::min(line, 16);
    const auto status = StrategyListModel::Status(index.data(StrategyListModel::StatusRole).toInt());
    const QRect badgeRect(r.left(), r.top() + (line - badgeSize) / 2, badgeSize, badgeSize);
    StrategyListModel::badge(status).paint(painter, badgeRect);

    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    QColor text = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const int textLeft = badgeRect.right() + kMargin + 2;
    painter->save();
    painter->setPen(text);
    QFont bold = opt.font;
    bold.setBold(true);
    painter->setFont(bold);
    const QRect nameRect(textLeft, r.top(), r.right() - textLeft, line);
    painter->drawText(
        nameRect, Qt::AlignLeft | Qt::AlignVCenter, QFontMetrics(bold).elidedText(name, Qt::ElideRight, nameRect.width()));
    painter->setFont(opt.font);
    text.setAlphaF(selected ? 0.85 : 0.65);
    painter->setPen(text);
    const QRect summaryRect(textLeft, r.top() + line + kMargin, r.right() - textLeft, line);
    painter->drawText(summaryRect, Qt::AlignLeft | Qt::AlignVCenter,
        opt.fontMetrics.elidedText(index.data(StrategyListModel::SummaryRole).toString(), Qt::ElideRight, summaryRect.width()));
    painter->restore();
}

void StrategyDelegate::updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &) const
{
    // Over the name only, so the summary stays readable while renaming.
    const int line = option.fontMetrics.lineSpacing();
    const int left = kMargin + std::min(line, 16) + kMargin;
    QRect r = option.rect.adjusted(left, 0, -kMargin, 0);
    r.setHeight(std::max(editor->sizeHint().height(), line + 2 * kMargin));
    editor->setGeometry(r);
}

} // namespace convoffload::ui
