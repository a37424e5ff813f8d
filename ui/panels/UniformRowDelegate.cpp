// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "panels/UniformRowDelegate.h"

#include <QApplication>
#include <QStyle>

namespace convoffload::ui {

QSize UniformRowDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    QStyleOptionViewItem decorated = option;
    initStyleOption(&decorated, index);
    // The style sizes a decoration by decorationSize (the view's icon size),
    // icon or not.
    decorated.features |= QStyleOptionViewItem::HasDecoration;
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    size.setHeight(
        std::max(size.height(), style->sizeFromContents(QStyle::CT_ItemViewItem, &decorated, {}, option.widget).height()));
    return size;
}

} // namespace convoffload::ui
