// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "optimise/GainHeatMapWidget.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace convoffload::ui {

void GainHeatMapWidget::setRows(std::vector<ExperimentRow> rows)
{
    m_rows = std::move(rows);
    update();
}

void GainHeatMapWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paintExperimentHeatMap(painter, QRectF(rect()), m_rows, m_map);
}

bool GainHeatMapWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        if (const ExperimentRow *row = experimentRowAt(m_rows, QRectF(rect()), font(), help->pos())) {
            QToolTip::showText(help->globalPos(), experimentCellTip(*row, m_map), this);
            return true;
        }
    }
    return QWidget::event(event); // off the cells: the widget's own tooltip, if any
}

} // namespace convoffload::ui
