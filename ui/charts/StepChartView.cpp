// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/StepChartView.h"

#include "charts/ChartFactory.h"

#include <QChart>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QShowEvent>
#include <QToolTip>

namespace convoffload::ui {

bool StepChartView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && hoverText && chart()) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QPointF inChart = chart()->mapFromScene(mapToScene(help->pos()));
        if (chart()->plotArea().contains(inChart)) {
            const int step = stepAt(chart(), chart()->mapToValue(inChart).x());
            if (const QString text = step >= 0 ? hoverText(step) : QString(); !text.isEmpty()) {
                QToolTip::showText(help->globalPos(), text, viewport());
                return true;
            }
        }
    }
    return QChartView::viewportEvent(event);
}

void StepChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && onStepClicked && chart()) {
        const QPointF inChart = chart()->mapFromScene(mapToScene(event->position().toPoint()));
        if (chart()->plotArea().contains(inChart)) {
            const int step = stepAt(chart(), chart()->mapToValue(inChart).x());
            if (step >= 0) {
                onStepClicked(step);
                event->accept();
                return;
            }
        }
    }
    QChartView::mousePressEvent(event);
}

void StepChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event); // the chart takes the new size first
    if (chart()) {
        fitChartTitle(chart(), chart()->size().width());
        fitChartLegend(chart(), chart()->size().width(), kScreenLegendMinPoints);
    }
}

void StepChartView::showEvent(QShowEvent *event)
{
    QChartView::showEvent(event);
    if (chart()) {
        const qreal shown = chart()->size().width() > 0 ? chart()->size().width() : width();
        fitChartTitle(chart(), shown);
        fitChartLegend(chart(), shown, kScreenLegendMinPoints);
    }
}

} // namespace convoffload::ui
