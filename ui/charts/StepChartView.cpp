#include "charts/StepChartView.h"

#include "charts/ChartFactory.h"

#include <QChart>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QShowEvent>

namespace convoffload::ui {

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
    if (chart())
        fitChartTitle(chart(), chart()->size().width());
}

void StepChartView::showEvent(QShowEvent *event)
{
    QChartView::showEvent(event);
    if (chart())
        fitChartTitle(chart(), chart()->size().width() > 0 ? chart()->size().width() : width());
}

} // namespace convoffload::ui
