#include "charts/StepChartView.h"

#include "charts/ChartFactory.h"

#include <QChart>
#include <QMouseEvent>

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

} // namespace convoffload::ui
