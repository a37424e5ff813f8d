// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "explore/ParetoPlotView.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace convoffload::ui {

ParetoPlotView::ParetoPlotView(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(320, 240);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ParetoPlotView::setPlot(std::shared_ptr<const ParetoPlot> plot, const QString &emptyText)
{
    m_plot = std::move(plot);
    m_emptyText = emptyText;
    update();
}

// A finger's width around the marker: the markers are small.
double ParetoPlotView::hitRadius() const { return std::max(6.0, QFontMetricsF(font()).height() * 0.6); }

int ParetoPlotView::pointAt(QPointF position) const
{
    if (!m_plot || m_plot->empty())
        return -1;
    return m_plot->pointAt(QRectF(rect()), font(), position, hitRadius());
}

QPointF ParetoPlotView::positionOf(int index) const
{
    if (!m_plot || index < 0 || index >= int(m_plot->points().size()))
        return {};
    return m_plot->geometry(QRectF(rect()), font()).positions[std::size_t(index)];
}

void ParetoPlotView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (!m_plot || m_plot->empty()) {
        paintPlotPlaceholder(painter, rect(), palette(), m_emptyText);
        return;
    }
    m_plot->paint(painter, QRectF(rect()), font());
}

void ParetoPlotView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        if (const int index = pointAt(event->position()); index >= 0)
            emit pointClicked(index);
    QWidget::mousePressEvent(event);
}

bool ParetoPlotView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int index = pointAt(help->pos());
        if (index < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const ParetoPlotPoint &p = m_plot->points()[std::size_t(index)];
        QString tip = tr("Point %1: mem_size %2, %3\ntotal duration %4 cycles")
                          .arg(p.point)
                          .arg(ParetoPlot::memoryLabel(p.mem_size), m_plot->series()[std::size_t(p.series)])
                          .arg(plotNumber(p.duration));
        if (!p.valid)
            tip += tr("\na layer has no valid strategy here: the total is incomplete");
        if (p.front)
            tip += tr("\non the Pareto front");
        tip += tr("\nClick to apply this hardware to the open project");
        QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace convoffload::ui
