// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/ComparisonView.h"

#include <QPainter>

namespace convoffload::ui {

ComparisonView::ComparisonView(QWidget *parent)
    : QWidget(parent)
{
    setAutoFillBackground(false);
    setMinimumSize(240, 160);
}

void ComparisonView::setRows(std::vector<CompareRow> rows, const QString &emptyText)
{
    if (rows.empty())
        m_plot.reset();
    else
        m_plot.emplace(std::move(rows));
    m_emptyText = emptyText;
    update();
}

void ComparisonView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (m_plot)
        m_plot->paint(painter, QRectF(rect()), font());
    else
        paintPlotPlaceholder(painter, rect(), palette(), m_emptyText);
}

} // namespace convoffload::ui
