// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/CellMarks.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPen>

#include <algorithm>
#include <array>
#include <cmath>

namespace convoffload::ui {

// A cell that breaks a rule: hatch, a thick frame inside the cell and a white
// line inside the frame, so it reads on every state colour, vermillion too.
void paintFlag(QPainter &p, const QRectF &cell, const QColor &colour)
{
    const double w = std::clamp(cell.width() / 8, 2.0, 4.0);
    p.fillRect(cell, QBrush(colour, Qt::FDiagPattern));
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(colour, w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(cell.adjusted(w / 2, w / 2, -w / 2, -w / 2));
    if (cell.width() >= 4 * w) {
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(cell.adjusted(w + 0.5, w + 0.5, -w - 0.5, -w - 0.5));
    }
}

// A patch that breaks the reload assumption: a triangle in the cell's top
// right corner, white-edged so it reads on every state colour.
/// The reload assumption's corner mark on each of `cells` (all one size).
/// On screen and in raster images the mark is drawn antialiased into a few
/// stamps (one per quarter-pixel offset of a cell's corner) and stamped on
/// every cell: a polygon per cell made the marks the grids' largest cost on
/// a layer that breaks the bound widely. Vector figures (SVG, PDF) keep one
/// polygon per cell.
void paintCorners(QPainter &p, const std::vector<QRectF> &cells, const QColor &colour)
{
    if (cells.empty())
        return;
    // Half the cell's side (an eighth of its area), so the cell's own state
    // still shows: a floor of 3 px blackened whole grids of 3-px cells in
    // paper-size figures.
    const double side = std::min(cells.front().width() * 0.5, 14.0);
    const QPen pen = side >= 6 ? QPen(Qt::white, 1) : QPen(Qt::NoPen);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const bool raster = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster
        && p.transform().type() <= QTransform::TxTranslate && p.transform().dx() == std::floor(p.transform().dx())
        && p.transform().dy() == std::floor(p.transform().dy());
    if (raster && cells.size() > 4) {
        constexpr int kSteps = 4; // quarter pixels: a mark is at most 1/8 px off
        const qreal ratio = p.device()->devicePixelRatioF();
        const int extent = int(std::ceil(side)) + 3; // the mark, its pen and the offset
        std::array<QImage, kSteps * kSteps> stamps;
        for (const QRectF &cell : cells) {
            const QPointF corner(cell.right() - side, cell.top());
            const QPointF whole(std::floor(corner.x()), std::floor(corner.y()));
            const int qx = std::min(kSteps - 1, int((corner.x() - whole.x()) * kSteps + 0.5));
            const int qy = std::min(kSteps - 1, int((corner.y() - whole.y()) * kSteps + 0.5));
            QImage &stamp = stamps[std::size_t(qy * kSteps + qx)];
            if (stamp.isNull()) {
                stamp = QImage(QSize(extent, extent) * ratio, QImage::Format_ARGB32_Premultiplied);
                stamp.setDevicePixelRatio(ratio);
                stamp.fill(Qt::transparent);
                QPainter sp(&stamp);
                sp.setRenderHint(QPainter::Antialiasing, true);
                sp.setPen(pen);
                sp.setBrush(colour);
                const QPointF at(1 + double(qx) / kSteps, 1 + double(qy) / kSteps);
                const QPointF shape[3] = {at + QPointF(side, 0), at, at + QPointF(side, side)};
                sp.drawConvexPolygon(shape, 3);
            }
            p.drawImage(whole - QPointF(1, 1), stamp);
        }
    } else {
        p.setPen(pen);
        p.setBrush(colour);
        for (const QRectF &cell : cells) {
            const QPointF shape[3]
                = {cell.topRight(), QPointF(cell.right() - side, cell.top()), QPointF(cell.right(), cell.top() + side)};
            p.drawConvexPolygon(shape, 3);
        }
    }
    p.restore();
}

} // namespace convoffload::ui
