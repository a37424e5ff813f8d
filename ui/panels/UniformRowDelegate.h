// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The item delegate of a view with uniform row heights (QTreeView measures
// only its first row then): every row is as tall as a row with a decoration
// (warning icon) would be, whether or not the row measured has one, so rows
// that get an icon later are not clipped.

#include <QStyledItemDelegate>

namespace convoffload::ui {

class UniformRowDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace convoffload::ui
