// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "grid/LegendCache.h"

#include <QGuiApplication>
#include <QPaintEngine>
#include <QPainter>
#include <QPalette>

#include <cmath>

namespace convoffload::ui {

double LegendCache::height(const QFont &font, const QPaintDevice *device, double width, const std::vector<LegendRow> &rows)
{
    if (width != m_heightWidth || font != m_heightFont || rows != m_heightRows) {
        m_height = GridLegend::height(QFontMetricsF(font, device), width, rows);
        m_heightFont = font;
        m_heightWidth = width;
        m_heightRows = rows;
    }
    return m_height;
}

void LegendCache::paint(QPainter &painter, const QRectF &rect, const std::vector<LegendRow> &rows)
{
    const bool raster = painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::Raster
        && painter.transform().type() <= QTransform::TxTranslate;
    if (!raster) { // vector figures keep their text as text
        GridLegend::paint(painter, rect, rows);
        return;
    }
    const QPointF whole(std::floor(rect.left()), std::floor(rect.top()));
    const QPointF offset = rect.topLeft() - whole;
    const qreal ratio = painter.device()->devicePixelRatioF();
    const qint64 palette = QGuiApplication::palette().cacheKey();
    if (m_image.isNull() || rect.size() != m_imageSize || offset != m_imageOffset || ratio != m_imageRatio
        || painter.font() != m_imageFont || palette != m_imagePalette || rows != m_imageRows) {
        const QSize size(int(std::ceil(offset.x() + rect.width())), int(std::ceil(offset.y() + rect.height())));
        m_image = QImage(size * ratio, QImage::Format_ARGB32_Premultiplied);
        m_image.setDevicePixelRatio(ratio);
        m_image.fill(Qt::transparent);
        QPainter imagePainter(&m_image);
        imagePainter.setFont(painter.font());
        imagePainter.setRenderHints(painter.renderHints());
        GridLegend::paint(imagePainter, QRectF(offset, rect.size()), rows);
        m_imageSize = rect.size();
        m_imageOffset = offset;
        m_imageRatio = ratio;
        m_imageFont = painter.font();
        m_imagePalette = palette;
        m_imageRows = rows;
    }
    painter.drawImage(whole, m_image);
}

} // namespace convoffload::ui
