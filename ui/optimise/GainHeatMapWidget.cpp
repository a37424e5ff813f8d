#include "optimise/GainHeatMapWidget.h"

#include <QPainter>

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

} // namespace convoffload::ui
