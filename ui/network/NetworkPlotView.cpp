// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/NetworkPlotView.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace convoffload::ui {

NetworkPlotView::NetworkPlotView(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(240, 120);
    setMouseTracking(false);
}

void NetworkPlotView::setPlot(std::optional<NetworkPlot> plot, const QString &emptyText)
{
    m_plot = std::move(plot);
    m_emptyText = emptyText;
    setCursor(m_plot ? Qt::PointingHandCursor : Qt::ArrowCursor);
    fitHeight();
    updateGeometry();
    update();
}

int NetworkPlotView::heightForWidth(int width) const { return m_plot ? int(m_plot->heightFor(width, font())) : 120; }

void NetworkPlotView::fitHeight()
{
    // As tall as the rows need at this width: the scroll area around it
    // scrolls instead of squeezing (or cutting) the rows.
    const int h = heightForWidth(width());
    if (minimumHeight() != h)
        setMinimumHeight(h);
}

int NetworkPlotView::layerAt(QPointF point) const
{
    if (!m_plot)
        return -1;
    const int row = m_plot->rowAt(QRectF(rect()), font(), point);
    return row < 0 ? -1 : int(m_plot->rows()[std::size_t(row)].layer);
}

void NetworkPlotView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (m_plot)
        m_plot->paint(painter, QRectF(rect()), font());
    else
        paintPlotPlaceholder(painter, rect(), palette(), m_emptyText);
}

void NetworkPlotView::mousePressEvent(QMouseEvent *event)
{
    const int layer = layerAt(event->position());
    if (event->button() == Qt::LeftButton && layer >= 0)
        emit layerClicked(layer);
    QWidget::mousePressEvent(event);
}

void NetworkPlotView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitHeight();
}

bool NetworkPlotView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_plot) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = m_plot->rowAt(QRectF(rect()), font(), help->pos());
        if (row < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const NetworkPlotRow &r = m_plot->rows()[std::size_t(row)];
        QString tip = m_plot->layerLabel(r.layer);
        if (r.family)
            tip += tr("\n%1: %2, %3 cycles\nload input %4 · load kernels %5 · write back %6 · compute %7")
                       .arg(QString::fromStdString(strategyFamilyName(*r.family)), r.strategy)
                       .arg(r.split.total(), 0, 'g', 12)
                       .arg(r.split.input_loads, 0, 'g', 12)
                       .arg(r.split.kernel_loads, 0, 'g', 12)
                       .arg(r.split.writes, 0, 'g', 12)
                       .arg(r.split.compute, 0, 'g', 12);
        else
            tip += tr("\nno valid strategy");
        QToolTip::showText(help->globalPos(), tip + tr("\nClick to open the layer in every view"), this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace convoffload::ui
