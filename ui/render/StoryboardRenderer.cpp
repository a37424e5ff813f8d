// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/StoryboardRenderer.h"

#include "render/GridLegend.h"
#include "render/KernelStrip.h"
#include "render/StepName.h"

#include <QPainter>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

namespace {

/// The gap between the two strategies' bands, wider than between panels.
double bandGap(double gap) { return std::round(gap * 1.5); }

} // namespace

StoryboardArrangement StoryboardRenderer::arrange(
    int steps, int gridRows, int gridCols, const QSizeF &area, double headerH, double panelExtraH, double gap)
{
    StoryboardArrangement best;
    if (steps < 1 || gridRows < 1 || gridCols < 1)
        return best;
    const double w = area.width(), h = area.height(), between = bandGap(gap);
    const auto consider = [&](bool stacked, int rows, int cols) {
        double panelW = 0, gridH = 0;
        if (stacked) {
            panelW = (w - (cols - 1) * gap) / cols;
            gridH = (h - 2 * headerH - between - 2 * rows * panelExtraH - 2 * (rows - 1) * gap) / (2 * rows);
        } else {
            panelW = (w - between - 2 * (cols - 1) * gap) / (2 * cols);
            gridH = (h - headerH - rows * panelExtraH - (rows - 1) * gap) / rows;
        }
        const double cell = std::min(panelW / gridCols, gridH / gridRows);
        if (cell > best.cellSize + 1e-9)
            best = {stacked, rows, cols, cell};
    };
    for (int rows = 1; rows <= steps; ++rows)
        consider(true, rows, (steps + rows - 1) / rows);
    for (int cols = 1; cols <= steps; ++cols)
        consider(false, (steps + cols - 1) / cols, cols);
    best.cellSize = std::max(0.0, best.cellSize);
    return best;
}

StoryboardLayout StoryboardRenderer::layout(const QFontMetricsF &metrics, const QRectF &target, const Problem &problem, int steps,
    const std::vector<LegendRow> &legend, bool kernelStrips)
{
    const double h = metrics.height();
    const double margin = std::round(h * 0.4);
    const QRectF inner = target.adjusted(margin, margin, -margin, -margin);
    const double headerH = std::ceil(h * 1.25), labelH = std::ceil(h * 1.15), gap = std::round(h * 0.8);
    // The strip: a gap, then a band as high as a line of text (no caption).
    const double stripGap = kernelStrips ? std::round(h * 0.3) : 0.0;
    const double stripH = kernelStrips ? std::ceil(h * 0.8) : 0.0;
    const double legendH = GridLegend::height(metrics, inner.width(), legend);
    const double legendGap = std::round(h * 0.5);
    const QRectF body(inner.left(), inner.top(), inner.width(), std::max(0.0, inner.height() - legendH - legendGap));
    const int gridRows = GridRenderer::rowsOf(GridKind::Input, problem);
    const int gridCols = GridRenderer::colsOf(GridKind::Input, problem);

    StoryboardLayout out;
    StoryboardArrangement &a = out.arrangement;
    a = arrange(steps, gridRows, gridCols, body.size(), headerH, labelH + stripGap + stripH, gap);
    if (a.cellSize >= 8)
        a.cellSize = std::floor(a.cellSize); // whole pixels: crisp, even cells
    const double gw = gridCols * a.cellSize, gh = gridRows * a.cellSize;
    const double panelH = labelH + gh + stripGap + stripH;
    const double between = bandGap(gap);

    // The spare width widens the gaps (up to three times) and the edges, the
    // rest centres the block; the block is centred in the height.
    const int across = a.bandsStacked ? a.cols : 2 * a.cols;
    const double fixedW = across * gw + (across - 1) * gap + (a.bandsStacked ? 0.0 : between - gap);
    const double spareX = std::min(std::max(0.0, body.width() - fixedW) / (across + 1), 2 * gap);
    const double x0 = body.left() + std::max(0.0, body.width() - fixedW - (across + 1) * spareX) / 2;
    const double bandH = headerH + a.rows * panelH + (a.rows - 1) * gap;
    const double blockH = a.bandsStacked ? 2 * bandH + between : bandH;
    const double y0 = std::round(body.top() + std::max(0.0, (body.height() - blockH) / 2));

    // x of the panel in column `c` (0-based over the whole width).
    const auto panelX = [&](int c) {
        double x = x0 + spareX + c * (gw + gap + spareX);
        if (!a.bandsStacked && c >= a.cols)
            x += between - gap;
        return std::round(x);
    };
    out.labels.resize(std::size_t(steps));
    out.grids.resize(std::size_t(steps));
    out.strips.resize(std::size_t(steps));
    for (int s = 0; s < 2; ++s) {
        const double bandTop = a.bandsStacked ? y0 + s * (bandH + between) : y0;
        if (a.bandsStacked)
            out.headers[std::size_t(s)] = QRectF(body.left(), bandTop, body.width(), headerH);
        else {
            const double left = panelX(s * a.cols), right = panelX(s * a.cols + a.cols - 1) + gw;
            const double slack = spareX / 2;
            out.headers[std::size_t(s)] = QRectF(left - slack, bandTop, right - left + 2 * slack, headerH);
        }
        for (int k = 0; k < steps; ++k) {
            const int row = k / a.cols, col = k % a.cols;
            const double x = panelX(a.bandsStacked ? col : s * a.cols + col);
            const double y = std::round(bandTop + headerH + row * (panelH + gap));
            const double labelSlack = std::min(spareX, gap) / 2;
            out.labels[std::size_t(k)][std::size_t(s)] = QRectF(x - labelSlack, y, gw + 2 * labelSlack, labelH);
            out.grids[std::size_t(k)][std::size_t(s)] = GridGeometry{gridRows, gridCols, QPointF(x, y + labelH), a.cellSize};
            if (kernelStrips)
                out.strips[std::size_t(k)][std::size_t(s)] = QRectF(x, y + labelH + gh + stripGap, gw, stripH);
        }
    }
    if (a.bandsStacked) {
        const double y = std::round(y0 + bandH + between / 2) + 0.5;
        out.separator = QLineF(body.left(), y, body.right(), y);
    } else {
        const double x = std::round((panelX(a.cols - 1) + gw + panelX(a.cols)) / 2) + 0.5;
        out.separator = QLineF(x, y0, x, y0 + bandH);
    }
    out.legend = QRectF(inner.left(), inner.bottom() - legendH, inner.width(), legendH);
    return out;
}

void StoryboardRenderer::paint(QPainter &painter, const QRectF &target, const Problem &problem,
    const std::array<StepCursor *, 2> &cursors, const std::array<QString, 2> &names, int steps, const GridStyle &style)
{
    painter.save();
    painter.fillRect(target, Qt::white);
    painter.setFont(GridRenderer::figureFont(painter.font(), target, style));
    const QFontMetricsF metrics(painter.font(), painter.device());
    std::vector<LegendRow> legend = GridRenderer::inputLegend(problem, *cursors[0], style);
    const bool strips = GridRenderer::streamsKernels(*cursors[0]) || GridRenderer::streamsKernels(*cursors[1]);
    if (strips && !legend.empty()) // the strips have no caption of their own
        legend.front().items.push_back({LegendItem::Kind::Text, {}, QStringLiteral("bar under a grid: its kernels"), {}, {}});
    const StoryboardLayout lay = layout(metrics, target, problem, steps, legend, strips);

    painter.setPen(QPen(QColor(0, 0, 0, 60), 1));
    painter.drawLine(lay.separator);
    QFont bold = painter.font();
    bold.setBold(true);
    for (std::size_t s = 0; s < 2; ++s) {
        painter.save();
        painter.setFont(bold);
        GridRenderer::paintTitle(painter, lay.headers[s], names[s]);
        painter.restore();
    }
    for (int k = 0; k < steps; ++k)
        for (std::size_t s = 0; s < 2; ++s) {
            StepCursor &cursor = *cursors[s];
            cursor.seek({k, Action::Compute});
            const GridGeometry &g = lay.grids[std::size_t(k)][s];
            m_grid.paintInputCells(painter, g, problem, cursor, style, g.allCells());
            if (strips)
                KernelStrip::paint(painter, lay.strips[std::size_t(k)][s], problem, cursor, false);
            GridRenderer::paintTitle(painter, lay.labels[std::size_t(k)][s],
                QStringList{stepName(k, cursor.result()), shortStepName(k, cursor.result())});
        }
    GridLegend::paint(painter, lay.legend, legend);
    painter.restore();
}

} // namespace convoffload::ui
