// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A grid view's legend, measured and painted once for as long as it stays
// the same: shaping its labels cost about a millisecond per frame (profile
// of convoffload-bench-edit), and an edit rarely changes the legend.

#include "render/GridLegend.h"

#include <QFont>
#include <QImage>

#include <vector>

namespace convoffload::ui {

class LegendCache {
public:
    /// GridLegend::height for `font` on `device`, `width` wide.
    double height(const QFont &font, const QPaintDevice *device, double width, const std::vector<LegendRow> &rows);
    /// GridLegend::paint in `rect`, from an image of the legend
    /// painted with the painter's font and the application's palette.
    void paint(QPainter &painter, const QRectF &rect, const std::vector<LegendRow> &rows);

private:
    QFont m_heightFont;
    double m_heightWidth = -1, m_height = 0;
    std::vector<LegendRow> m_heightRows;

    QImage m_image;
    QFont m_imageFont;
    QSizeF m_imageSize;
    QPointF m_imageOffset; // the legend's sub-pixel offset, drawn into the image
    qreal m_imageRatio = 0;
    qint64 m_imagePalette = 0;
    std::vector<LegendRow> m_imageRows;
};

} // namespace convoffload::ui
