#include "optimise/GainHeatMapWidget.h"

#include "optimise/GainHeatMap.h"

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
    paintGainHeatMap(painter, QRectF(rect()), m_rows);
}

} // namespace convoffload::ui
