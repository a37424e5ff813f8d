// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/GridRenderer.h"
#include "render/StepName.h"

#include "render/CellMarks.h"
#include "render/KernelStrip.h"
#include "render/Palette.h"

#include "convoffload/simulate/TransferRuns.h"

#include <QBrush>
#include <QImage>
#include <QLineF>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPen>
#include <QVector>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace convoffload::ui {

namespace {

constexpr double kMinCellForLines = 4.0; // px: thinner cells get no grid lines
// A partly computed output cell shows each part (done, pending) on at least
// this share of its height, and no more than kMinFillUnits.
constexpr double kMinFillShare = 0.25;
constexpr double kMinFillUnits = 4.0;
constexpr int kMaxCellLabels = 65536; // in-cell texts drawn at most

QColor gridLineColour() { return QColor(0, 0, 0, 40); }
QColor axisColour() { return QColor(0x55, 0x55, 0x55); }

// Smallest of 1, 2, 5, 10, 20, 50, ... that is >= needed.
int niceStep(double needed)
{
    if (!(needed > 1.0))
        return 1;
    for (int decade = 1; decade < 100000000; decade *= 10)
        for (int m : {1, 2, 5})
            if (m * decade >= needed)
                return m * decade;
    return 100000000;
}

QString fromView(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

QString inputName(const Problem &problem)
{
    const Layer &l = problem.layer;
    QString name = QStringLiteral("Input %1×%2×%3").arg(l.c_in).arg(l.paddedHeight()).arg(l.paddedWidth());
    if (l.paddedHeight() != l.h_in || l.paddedWidth() != l.w_in)
        name += QStringLiteral(" (padded)");
    return name;
}

QString outputName(const Problem &problem)
{
    const Layer &l = problem.layer;
    return QStringLiteral("Output %1×%2×%3").arg(l.n).arg(l.hOut()).arg(l.wOut());
}

QFont scaledFont(const QFont &font, double factor)
{
    QFont f = font;
    if (f.pixelSize() > 0)
        f.setPixelSize(std::max(8, int(std::lround(f.pixelSize() * factor))));
    else
        f.setPointSizeF(std::max(6.0, f.pointSizeF() * factor));
    return f;
}

} // namespace

// --- GridGeometry -------------------------------------------------------------

std::optional<GridCell> GridGeometry::cellAt(const QPointF &p) const
{
    if (cellSize <= 0)
        return std::nullopt;
    const double x = (p.x() - origin.x()) / cellSize, y = (p.y() - origin.y()) / cellSize;
    if (!(x >= 0 && y >= 0 && x < cols && y < rows))
        return std::nullopt;
    return GridCell{int(y), int(x)};
}

QRect GridGeometry::cellsIn(const QRectF &area) const
{
    if (cellSize <= 0 || area.isEmpty())
        return {};
    return cellsOfUnits(QRectF((area.left() - origin.x()) / cellSize, (area.top() - origin.y()) / cellSize,
        area.width() / cellSize, area.height() / cellSize));
}

QRect GridGeometry::cellsOfUnits(const QRectF &u) const
{
    if (u.isEmpty())
        return {};
    // Clamp in doubles first: zoomed-in views produce coordinates far outside int range.
    const int c0 = int(std::clamp(std::floor(u.left()), 0.0, double(cols)));
    const int c1 = int(std::clamp(std::ceil(u.right()), 0.0, double(cols)));
    const int r0 = int(std::clamp(std::floor(u.top()), 0.0, double(rows)));
    const int r1 = int(std::clamp(std::ceil(u.bottom()), 0.0, double(rows)));
    if (c1 <= c0 || r1 <= r0)
        return {};
    return QRect(c0, r0, c1 - c0, r1 - r0);
}

QRectF GridGeometry::rectOf(const QRect &cells) const
{
    return QRectF(origin.x() + cells.x() * cellSize, origin.y() + cells.y() * cellSize, cells.width() * cellSize,
        cells.height() * cellSize);
}

GridGeometry GridGeometry::fit(int rows, int cols, const QRectF &area)
{
    GridGeometry g;
    g.rows = rows;
    g.cols = cols;
    if (rows <= 0 || cols <= 0 || area.width() <= 0 || area.height() <= 0) {
        g.origin = area.topLeft();
        return g;
    }
    g.cellSize = std::min(area.width() / cols, area.height() / rows);
    g.origin = area.center() - QPointF(cols * g.cellSize / 2, rows * g.cellSize / 2);
    return g;
}

// --- texts and legends --------------------------------------------------------

QString GridRenderer::momentText(const StepCursor &cursor)
{
    const Moment m = cursor.moment();
    const QString s = stepName(m.step, cursor.result());
    const bool drain = m.step >= 0 && m.step < cursor.stepCount() && cursor.result().steps[std::size_t(m.step)].drain;
    if (m.step < 0 || drain) // the drain computes nothing: no action to name
        return s;
    return s + QStringLiteral(", ") + fromView(actionName(m.action));
}

QString GridRenderer::inputTitle(const Problem &problem, const StepCursor &cursor)
{
    return inputName(problem) + QStringLiteral(" — ") + momentText(cursor);
}

QString GridRenderer::outputTitle(const Problem &problem, const StepCursor &cursor)
{
    return outputName(problem) + QStringLiteral(" — ") + momentText(cursor);
}

QStringList GridRenderer::titleChoices(GridKind kind, const Problem &problem, const StepCursor &cursor)
{
    const QString name = kind == GridKind::Input ? inputName(problem) : outputName(problem);
    const QString shortName = name.section(QLatin1Char(' '), 0, 0); // "Input", "Output"
    const QString moment = momentText(cursor);
    const QString step = stepName(cursor.moment().step, cursor.result());
    QStringList choices{name + QStringLiteral(" — ") + moment, shortName + QStringLiteral(" — ") + moment};
    if (step != moment)
        choices << shortName + QStringLiteral(" — ") + step;
    choices << step;
    return choices;
}

std::vector<LegendRow> GridRenderer::inputLegend(
    const Problem &problem, const StepCursor &cursor, const GridStyle &style, const QString &caption)
{
    using K = LegendItem::Kind;
    LegendRow row{caption, {}};
    if (style.heatMap) {
        const std::uint32_t max = cursor.maxLoadsSoFar();
        if (max <= 6) {
            row.items.push_back({K::Text, {}, QStringLiteral("loads so far:"), {}, {}});
            for (std::uint32_t k = 0; k <= max; ++k)
                row.items.push_back({K::Swatch, Palette::heat(max ? double(k) / max : 0.0), QString::number(k), {}, {}});
        } else {
            row.items.push_back({K::Gradient, {}, QStringLiteral("loads so far"), QStringLiteral("0"), QString::number(max)});
        }
    } else {
        for (PixelState s : {PixelState::Loaded, PixelState::Kept, PixelState::Freed, PixelState::Off})
            row.items.push_back({K::Swatch, Palette::pixel(s), Palette::pixelLabel(s), {}, {}});
    }
    const Layer &l = problem.layer;
    if (l.pad_top || l.pad_bottom || l.pad_left || l.pad_right)
        row.items.push_back({K::Hatch, Palette::pixel(PixelState::Off),
            problem.options.padding_in_dram ? QStringLiteral("padding (zeros in DRAM)")
                                            : QStringLiteral("padding (made on chip)"),
            {}, {}});
    if (l.isGrouped() && !style.heatMap)
        row.items.push_back({K::PartialFill, Palette::pixel(PixelState::Kept),
            QStringLiteral("filled: share of the %1 channel groups on chip").arg(l.group), {}, {}});
    if (style.outlineGroup)
        row.items.push_back({K::Outline, Palette::cursor(), QStringLiteral("patches of the current group"), {}, {}});
    if (style.dmaRuns && problem.hardware.transfer)
        row.items.push_back(dmaRunsLegend(dmaRunOutlines(problem, cursor)));
    return {row};
}

bool GridRenderer::streamsKernels(const StepCursor &cursor)
{
    const std::vector<StepStats> &steps = cursor.result().steps;
    for (std::size_t k = 0; k < steps.size(); ++k)
        if (!steps[k].drain && ((k > 0 && steps[k].loaded_kernels > 0) || steps[k].freed_kernels > 0))
            return true;
    return false;
}

bool GridRenderer::breaksReload(const StepCursor &cursor) { return !cursor.result().reload.patches.empty(); }

std::vector<LegendRow> GridRenderer::outputLegend(
    const GridStyle &style, const QString &caption, bool partialFill, bool reloadBroken)
{
    using K = LegendItem::Kind;
    LegendRow row{caption, {}};
    for (OutputState s :
        {OutputState::Computed, OutputState::Written, OutputState::OnChip, OutputState::Done, OutputState::Pending})
        row.items.push_back({K::Swatch, Palette::output(s), Palette::outputLabel(s), {}, {}});
    if (partialFill)
        row.items.push_back({K::PartialFill, Palette::output(OutputState::Done),
            QStringLiteral("filled: share of the N outputs computed"), {}, {}});
    if (style.outlineGroup)
        row.items.push_back({K::Outline, Palette::cursor(), QStringLiteral("current group"), {}, {}});
    if (style.reloadMarks && reloadBroken)
        row.items.push_back({K::Corner, Palette::assumption(), Palette::assumptionLabel(), {}, {}});
    return {row};
}

std::vector<LegendRow> GridRenderer::gridsLegend(const Problem &problem, const StepCursor &cursor, const GridStyle &style)
{
    std::vector<LegendRow> rows = inputLegend(problem, cursor, style, QStringLiteral("Input:"));
    for (LegendRow &row : outputLegend(style, QStringLiteral("Output:"), streamsKernels(cursor), breaksReload(cursor)))
        rows.push_back(std::move(row));
    if (style.heatMap)
        return rows; // the input's colours are counts there, not states
    // The palette gives on-chip inputs and outputs one colour, and not-on-chip
    // pixels and pending outputs another: each is listed once.
    using K = LegendItem::Kind;
    const LegendItem onChip{K::Swatch, Palette::pixel(PixelState::Kept), QStringLiteral("on chip"), {}, {}};
    const LegendItem offChip{K::Swatch, Palette::pixel(PixelState::Off), QStringLiteral("not on chip / pending"), {}, {}};
    const LegendItem group{K::Outline, Palette::cursor(), QStringLiteral("current group"), {}, {}};
    LegendRow merged;
    auto add = [&merged](const LegendItem &item) {
        if (std::find(merged.items.begin(), merged.items.end(), item) == merged.items.end())
            merged.items.push_back(item);
    };
    for (const LegendRow &row : rows)
        for (const LegendItem &item : row.items) {
            const bool shared = item.kind == K::Swatch && (item.color == onChip.color || item.color == offChip.color);
            if (shared)
                add(item.color == onChip.color ? onChip : offChip);
            else if (item.kind == K::Outline)
                add(group);
            else
                add(item);
        }
    // What happens at this step first, then the states it leaves, then the
    // marks (padding, the group, partly computed, the reload corner).
    const std::array<QColor, 4> events{Palette::pixel(PixelState::Loaded), Palette::pixel(PixelState::Freed),
        Palette::output(OutputState::Computed), Palette::output(OutputState::Written)};
    auto rank = [&events](const LegendItem &item) {
        if (item.kind != K::Swatch)
            return 2;
        return std::find(events.begin(), events.end(), item.color) != events.end() ? 0 : 1;
    };
    std::stable_sort(merged.items.begin(), merged.items.end(),
        [&rank](const LegendItem &a, const LegendItem &b) { return rank(a) < rank(b); });
    return {merged};
}

void GridRenderer::paintTitle(QPainter &painter, const QRectF &rect, const QStringList &choices)
{
    if (choices.isEmpty())
        return;
    const QFontMetricsF fm(painter.font(), painter.device());
    for (const QString &choice : choices)
        if (fm.horizontalAdvance(choice) <= rect.width()) {
            paintTitle(painter, rect, choice);
            return;
        }
    paintTitle(painter, rect, choices.back());
}

void GridRenderer::paintTitle(QPainter &painter, const QRectF &rect, const QString &title)
{
    if (rect.isEmpty())
        return;
    const QFontMetricsF fm(painter.font(), painter.device());
    painter.save();
    painter.setPen(textColour());
    painter.drawText(rect, Qt::AlignHCenter | Qt::AlignVCenter, fm.elidedText(title, Qt::ElideRight, rect.width()));
    painter.restore();
}

QStringList GridRenderer::named(const GridStyle &style, const QStringList &choices)
{
    if (style.strategy.isEmpty())
        return choices;
    // The strategy's name first, with each choice; then the choices alone
    // (a narrow figure keeps the moment rather than cut it).
    QStringList out;
    for (const QString &choice : choices)
        out << style.strategy + QStringLiteral(" — ") + choice;
    return out + choices;
}

// --- layout ------------------------------------------------------------------

int GridRenderer::rowsOf(GridKind kind, const Problem &problem)
{
    return kind == GridKind::Input ? problem.layer.paddedHeight() : problem.layer.hOut();
}

int GridRenderer::colsOf(GridKind kind, const Problem &problem)
{
    return kind == GridKind::Input ? problem.layer.paddedWidth() : problem.layer.wOut();
}

QFont GridRenderer::figureFont(const QFont &base, const QRectF &target)
{
    QFont f = base;
    const double side = std::min(target.width(), target.height());
    f.setPixelSize(int(std::clamp(std::lround(side / 40.0), 11L, 20L)));
    return f;
}

QFont GridRenderer::figureFont(const QFont &base, const QRectF &target, const GridStyle &style)
{
    return style.font ? *style.font : figureFont(base, target);
}

QSizeF GridRenderer::axisSize(const QFontMetricsF &metrics, int rows, int cols)
{
    const double h = metrics.height();
    const int widest = std::max(rows, cols) - 1;
    return QSizeF(std::ceil(metrics.horizontalAdvance(QString::number(std::max(widest, 0))) * 0.9 + h * 0.5), std::ceil(h * 1.1));
}

int GridRenderer::outputsComputed(const Problem &problem, const StepCursor &cursor, PatchId patch)
{
    int done = 0;
    for (int k = 0; k < problem.layer.n; ++k)
        done += cursor.output(outputId(problem.layer, patch, KernelId(k))) != OutputState::Pending;
    return done;
}

double GridRenderer::kernelStripBand(const QFontMetricsF &metrics, GridKind kind, const GridStyle &style)
{
    if (kind != GridKind::Input || !style.kernelStrip)
        return 0.0;
    return std::round(metrics.height() * 0.6) + KernelStrip::height(metrics);
}

QRect GridRenderer::patchPixels(const Layer &layer, PatchId patch)
{
    const Grid g = patchPosition(layer, patch);
    return QRect(g.col * layer.stride_w, g.row * layer.stride_h, layer.spanW(), layer.spanH());
}

std::vector<QRect> GridRenderer::patchCells(const Layer &layer, PatchId patch)
{
    if (!layer.isDilated())
        return {patchPixels(layer, patch)};
    std::vector<QRect> cells;
    cells.reserve(std::size_t(layer.h_k) * std::size_t(layer.w_k));
    forEachPatchPixel(layer, true, patch, [&](PixelId p) {
        const Grid g = pixelPosition(layer, p);
        cells.emplace_back(g.col, g.row, 1, 1);
    });
    return cells;
}

double GridRenderer::partialFillHeight(double cellHeight, int part, int whole)
{
    // In proportion, but neither part thinner than kMinFillShare of the cell
    // (at most kMinFillUnits): 1 of 16 is under a pixel of a 12-px cell, and
    // the step's work would not show.
    const double least = std::min(cellHeight * kMinFillShare, kMinFillUnits);
    return std::clamp(cellHeight * double(part) / whole, least, cellHeight - least);
}

GridFigureLayout GridRenderer::layout(GridKind kind, const QFontMetricsF &metrics, const QRectF &target, const Problem &problem,
    const StepCursor &cursor, const GridStyle &style)
{
    const double h = metrics.height();
    const double margin = std::round(h * 0.5);
    const QRectF inner = target.adjusted(margin, margin, -margin, -margin);
    const double titleH = style.labels && style.title ? std::ceil(h * 1.3) : 0.0;
    const double titleGap = style.labels && style.title ? std::round(h * 0.3) : 0.0;
    double legendH = style.legend ? GridLegend::height(metrics, inner.width(),
                         kind == GridKind::Input ? inputLegend(problem, cursor, style)
                                                 : outputLegend(style, {}, streamsKernels(cursor), breaksReload(cursor)))
                                  : 0.0;
    double legendGap = style.legend ? std::round(h * 0.6) : 0.0;
    const double stripH = kernelStripBand(metrics, kind, style);
    const int rows = rowsOf(kind, problem), cols = colsOf(kind, problem);
    const QSizeF axis = style.labels ? axisSize(metrics, rows, cols) : QSizeF(0, 0);
    // The grid comes first: where the legend would leave the grid less
    // height than itself (a short view, the docks below dragged tall), it
    // gives way, rather than the grid shrinking to a sliver under it.
    if (inner.height() - titleH - titleGap - axis.height() - stripH - legendGap - legendH < legendH)
        legendH = legendGap = 0.0;

    const QRectF gridArea(inner.left() + axis.width(), inner.top() + titleH + titleGap + axis.height(),
        std::max(0.0, inner.width() - axis.width()),
        std::max(0.0, inner.height() - titleH - titleGap - axis.height() - stripH - legendGap - legendH));
    GridGeometry g = GridGeometry::fit(rows, cols, gridArea);
    if (g.cellSize >= 8)
        g.cellSize = std::floor(g.cellSize); // whole pixels: crisp, even cells
    const double gw = cols * g.cellSize, gh = rows * g.cellSize;
    const double blockW = axis.width() + gw;
    const double blockH = titleH + titleGap + axis.height() + gh + stripH + legendGap + legendH;
    const double x0 = std::round(inner.left() + std::max(0.0, (inner.width() - blockW) / 2));
    const double y0 = std::round(inner.top() + std::max(0.0, (inner.height() - blockH) / 2));
    g.origin = QPointF(x0 + axis.width(), y0 + titleH + titleGap + axis.height());

    GridFigureLayout out;
    out.geometry = g;
    out.title = QRectF(inner.left(), y0, inner.width(), titleH);
    out.topAxis = QRectF(g.origin.x(), g.origin.y() - axis.height(), gw, axis.height());
    out.leftAxis = QRectF(x0, g.origin.y(), axis.width(), gh);
    if (stripH > 0)
        out.kernelStrip = QRectF(
            inner.left(), g.origin.y() + gh + stripH - KernelStrip::height(metrics), inner.width(), KernelStrip::height(metrics));
    out.legend = QRectF(inner.left(), g.origin.y() + gh + stripH + legendGap, inner.width(), legendH);
    return out;
}

// --- cells -----------------------------------------------------------------------

void GridRenderer::paintCellColours(QPainter &painter, const GridGeometry &geometry, QRect cells, GridKind kind,
    const Problem &problem, const StepCursor &cursor, const GridStyle &style)
{
    const Layer &l = problem.layer;
    QRgb stateColours[5] = {};
    const bool heat = kind == GridKind::Input && style.heatMap;
    std::uint32_t maxLoads = 0;
    if (kind == GridKind::Input) {
        for (PixelState s : {PixelState::Off, PixelState::Kept, PixelState::Loaded, PixelState::Freed})
            stateColours[int(s)] = Palette::pixel(s).rgb();
        if (heat) {
            maxLoads = cursor.maxLoadsSoFar();
            m_heatColours.resize(std::size_t(maxLoads) + 1);
            for (std::uint32_t k = 0; k <= maxLoads; ++k)
                m_heatColours[k] = Palette::heat(maxLoads ? double(k) / maxLoads : 0.0).rgb();
        }
    } else {
        for (OutputState s :
            {OutputState::Pending, OutputState::OnChip, OutputState::Computed, OutputState::Written, OutputState::Done})
            stateColours[int(s)] = Palette::output(s).rgb();
    }
    auto colourAt = [&](int row, int col) -> QRgb {
        if (kind == GridKind::Output)
            return stateColours[int(cursor.patch(patchId(l, row, col)))];
        const PixelId p = pixelId(l, row, col);
        if (heat)
            return m_heatColours[std::min(cursor.loadsSoFar(p), maxLoads)];
        return stateColours[int(cursor.pixel(p))];
    };

    const QPaintEngine *engine = painter.paintEngine();
    if (engine && engine->type() == QPaintEngine::Raster) {
        // One image pixel per cell, scaled without smoothing: a single blit
        // whatever the number of cells.
        if (m_cells.width() < cells.width() || m_cells.height() < cells.height())
            m_cells = QImage(
                std::max(cells.width(), m_cells.width()), std::max(cells.height(), m_cells.height()), QImage::Format_RGB32);
        for (int r = 0; r < cells.height(); ++r) {
            auto *line = reinterpret_cast<QRgb *>(m_cells.scanLine(r));
            for (int c = 0; c < cells.width(); ++c)
                line[c] = colourAt(cells.y() + r, cells.x() + c);
        }
        painter.drawImage(geometry.rectOf(cells), m_cells, QRectF(0, 0, cells.width(), cells.height()));
        return;
    }
    // Vector devices (SVG, PDF): one rectangle per run of equal colour.
    for (int r = cells.top(); r <= cells.bottom(); ++r) {
        int c = cells.left();
        while (c <= cells.right()) {
            const QRgb colour = colourAt(r, c);
            int end = c + 1;
            while (end <= cells.right() && colourAt(r, end) == colour)
                ++end;
            painter.fillRect(geometry.rectOf(QRect(c, r, end - c, 1)), QColor(colour));
            c = end;
        }
    }
}

void GridRenderer::paintPartialPatches(
    QPainter &painter, const GridGeometry &geometry, const Problem &problem, const StepCursor &cursor, QRect cells)
{
    const int n = problem.layer.n;
    if (n <= 1 || geometry.cellSize < 3) // no room to show a fraction
        return;
    const QColor pending = Palette::output(OutputState::Pending);
    for (int r = cells.top(); r <= cells.bottom(); ++r)
        for (int c = cells.left(); c <= cells.right(); ++c) {
            const int done = outputsComputed(problem, cursor, patchId(problem.layer, r, c));
            if (done == 0 || done == n)
                continue;
            const QRectF cell = geometry.cellRect(r, c);
            const double missing = cell.height() - partialFillHeight(cell.height(), done, n);
            painter.fillRect(QRectF(cell.left(), cell.top(), cell.width(), missing), pending);
        }
}

void GridRenderer::paintPartialPixels(
    QPainter &painter, const GridGeometry &geometry, const Problem &problem, const StepCursor &cursor, QRect cells)
{
    const Layer &l = problem.layer;
    const int g = l.group;
    if (g <= 1 || geometry.cellSize < 3) // no room to show a fraction
        return;
    const QColor off = Palette::pixel(PixelState::Off), freed = Palette::pixel(PixelState::Freed);
    for (int r = cells.top(); r <= cells.bottom(); ++r)
        for (int c = cells.left(); c <= cells.right(); ++c) {
            const PixelId p = pixelId(l, r, c);
            const int onChip = cursor.slicesOnChip(p);
            if (onChip == 0 || onChip == g)
                continue;
            // The cell's colour is the state of what is on chip (kept or
            // loaded now); the part not on chip says whether the step just
            // freed it, as a whole pixel's cell would.
            bool freedNow = false;
            for (int group = 0; group < g && !freedNow; ++group)
                freedNow = cursor.slice(sliceId(l, p, group)) == PixelState::Freed;
            const QRectF cell = geometry.cellRect(r, c);
            const double missing = cell.height() - partialFillHeight(cell.height(), onChip, g);
            painter.fillRect(QRectF(cell.left(), cell.top(), cell.width(), missing), freedNow ? freed : off);
        }
}

void GridRenderer::paintGridLines(QPainter &painter, const GridGeometry &geometry, QRect cells)
{
    if (geometry.cellSize < kMinCellForLines)
        return;
    const QRectF area = geometry.rectOf(cells);
    QVector<QLineF> lines;
    lines.reserve(cells.width() + cells.height() + 2);
    for (int c = cells.left(); c <= cells.right() + 1; ++c) {
        const double x = geometry.origin.x() + c * geometry.cellSize;
        lines.append(QLineF(x, area.top(), x, area.bottom()));
    }
    for (int r = cells.top(); r <= cells.bottom() + 1; ++r) {
        const double y = geometry.origin.y() + r * geometry.cellSize;
        lines.append(QLineF(area.left(), y, area.right(), y));
    }
    // A clip makes the raster engine blend the translucent lines span by span
    // in this thread: unclipped, Qt 6 hands each line's spans to its thread
    // pool, which costs ~60 ms for 450 lines instead of ~1.5 ms.
    painter.save();
    painter.setClipRect(area.adjusted(-1, -1, 1, 1), Qt::IntersectClip);
    // Fainter on small cells, where the lines would dominate the colours.
    QColor colour = gridLineColour();
    if (geometry.cellSize < 8)
        colour.setAlpha(colour.alpha() * 3 / 5);
    painter.setPen(QPen(colour, 0));
    painter.drawLines(lines);
    painter.restore();
}

void GridRenderer::paintUnionOutline(
    QPainter &painter, const GridGeometry &geometry, const std::vector<QRect> &parts, const QColor &colour)
{
    QRect box;
    for (const QRect &r : parts)
        box |= r;
    box &= geometry.allCells();
    if (box.isEmpty())
        return;
    const int w = box.width(), h = box.height();
    std::vector<std::uint8_t> mask(std::size_t(w) * h, 0);
    for (QRect r : parts) {
        r = r.intersected(box).translated(-box.topLeft());
        for (int y = r.top(); y <= r.bottom(); ++y)
            std::fill_n(mask.begin() + std::ptrdiff_t(y) * w + r.left(), r.width(), std::uint8_t(1));
    }
    auto in = [&](int y, int x) { return x >= 0 && y >= 0 && x < w && y < h && mask[std::size_t(y) * w + x]; };
    const double cs = geometry.cellSize;
    const double ox = geometry.origin.x() + box.left() * cs, oy = geometry.origin.y() + box.top() * cs;
    QVector<QLineF> lines;
    // The outline runs just outside the group (shifted half a pen width
    // outwards) so it never hides the colour of small cells. An edge's side
    // is +1 when the group lies below it (right of it, for vertical edges).
    constexpr double kWidth = 2.0;
    const double half = kWidth / 2;
    // Walks the edge lines i = 0..count (rows of horizontal edges, columns of
    // vertical ones) and emits each run of edge cells j with the same side.
    const auto runs = [](int count, int length, auto sideAt, auto emitRun) {
        for (int i = 0; i <= count; ++i)
            for (int j = 0; j < length;) {
                const int side = sideAt(i, j);
                if (side == 0) {
                    ++j;
                    continue;
                }
                const int start = j;
                while (j < length && sideAt(i, j) == side)
                    ++j;
                emitRun(i, start, j, side);
            }
    };
    runs(
        h, w, [&](int y, int x) { return int(in(y, x)) - int(in(y - 1, x)); },
        [&](int y, int from, int to, int side) {
            const double yy = oy + y * cs - side * half;
            lines.append(QLineF(ox + from * cs, yy, ox + to * cs, yy));
        });
    runs(
        w, h, [&](int x, int y) { return int(in(y, x)) - int(in(y, x - 1)); },
        [&](int x, int from, int to, int side) {
            const double xx = ox + x * cs - side * half;
            lines.append(QLineF(xx, oy + from * cs, xx, oy + to * cs));
        });
    // Square caps extend each segment by half a width: the corners close.
    painter.setPen(QPen(colour, kWidth, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawLines(lines);
}

DmaRunOutlines GridRenderer::dmaRunOutlines(const Problem &problem, const StepCursor &cursor)
{
    DmaRunOutlines out;
    if (!problem.hardware.transfer)
        return out;
    out.layout = problem.hardware.transfer->layout;
    out.burst = problem.hardware.transfer->burst;
    const Moment m = cursor.moment();
    const Trace &trace = cursor.result().trace;
    if (m.step < 0 || m.step >= cursor.stepCount() || int(m.action) < int(Action::LoadInput)
        || trace.actions.size() < std::size_t(m.step + 1) * kActionCount)
        return out;
    out.shown = true;
    const ActionRecord &load = trace.record(m.step, Action::LoadInput);
    const InputLoadRuns runs
        = inputLoadRuns(problem, std::span<const SliceId>(trace.ids.data() + load.begin, std::size_t(load.end - load.begin)));
    out.runs = std::int64_t(runs.runs.size());
    out.blocks = runs.blocks();
    // Stretches with the same pixels (a run in each channel plane under
    // nchw) share an outline.
    std::map<std::pair<std::int64_t, std::int64_t>, int> stretches;
    for (const TransferRunPixels &p : runs.pixels)
        ++stretches[{p.first, p.last}];
    const StoredInput stored = storedInput(problem);
    out.outlines.reserve(stretches.size());
    for (const auto &[range, count] : stretches) {
        DmaOutline o;
        o.first = range.first;
        o.last = range.second;
        o.runs = count;
        const std::int64_t y0 = range.first / stored.cols, y1 = range.second / stored.cols;
        for (std::int64_t y = y0; y <= y1; ++y) {
            const int x0 = y == y0 ? int(range.first % stored.cols) : 0;
            const int x1 = y == y1 ? int(range.second % stored.cols) : stored.cols - 1;
            o.rows.emplace_back(stored.col0 + x0, stored.row0 + int(y), x1 - x0 + 1, 1);
            o.bounds |= o.rows.back();
        }
        out.outlines.push_back(std::move(o));
    }
    return out;
}

QString GridRenderer::dmaRunsText(const DmaRunOutlines &runs)
{
    return QStringLiteral("%1 %2, %3 %4 of %5")
        .arg(runs.runs)
        .arg(runs.runs == 1 ? QStringLiteral("run") : QStringLiteral("runs"))
        .arg(runs.blocks)
        .arg(runs.blocks == 1 ? QStringLiteral("block") : QStringLiteral("blocks"))
        .arg(runs.burst);
}

LegendItem GridRenderer::dmaRunsLegend(const DmaRunOutlines &runs)
{
    return {LegendItem::Kind::DashedOutline, Palette::dmaRun(0),
        runs.shown ? QStringLiteral("DMA runs of the step\u2019s load: %1").arg(dmaRunsText(runs))
                   : QStringLiteral("DMA runs of the step\u2019s load (from a4)"),
        {}, {}};
}

void GridRenderer::paintDmaRuns(QPainter &painter, const GridGeometry &geometry, const DmaRunOutlines &runs, QRect cells)
{
    cells &= geometry.allCells();
    if (!runs.shown || cells.isEmpty() || geometry.cellSize < 3)
        return; // thinner cells would show the dashes as noise
    // The stroke is centred on the outline and clipped to its inside: what
    // shows is an inner band, so two runs that touch keep their own edges.
    const double band = std::clamp(geometry.cellSize * 0.12, 1.5, 3.0);
    for (std::size_t i = 0; i < runs.outlines.size(); ++i) {
        const DmaOutline &o = runs.outlines[i];
        if (!o.bounds.intersects(cells))
            continue;
        QPainterPath path;
        for (const QRect &r : o.rows)
            path.addRect(geometry.rectOf(r));
        path = path.simplified();
        painter.save();
        painter.setClipPath(path, Qt::IntersectClip);
        QPen pen(Palette::dmaRun(i), 2 * band, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
        pen.setDashPattern({2.0, 1.0});
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        painter.restore();
    }
}

void GridRenderer::paintInputCells(QPainter &painter, const GridGeometry &geometry, const Problem &problem,
    const StepCursor &cursor, const GridStyle &style, QRect cells)
{
    cells &= geometry.allCells();
    if (cells.isEmpty() || geometry.cellSize <= 0)
        return;
    const Layer &l = problem.layer;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    paintCellColours(painter, geometry, cells, GridKind::Input, problem, cursor, style);
    if (!style.heatMap)
        paintPartialPixels(painter, geometry, problem, cursor, cells);

    // Padding: hatched, and the real input framed with a dashed line.
    const QRect inner(l.pad_left, l.pad_top, l.w_in, l.h_in);
    if (inner != geometry.allCells()) {
        const int cols = geometry.cols;
        const QRect bands[] = {QRect(0, 0, cols, l.pad_top), QRect(0, l.pad_top + l.h_in, cols, l.pad_bottom),
            QRect(0, l.pad_top, l.pad_left, l.h_in), QRect(l.pad_left + l.w_in, l.pad_top, l.pad_right, l.h_in)};
        for (const QRect &band : bands) {
            const QRect part = band & cells;
            if (!part.isEmpty())
                painter.fillRect(geometry.rectOf(part), hatchBrush());
        }
    }
    paintGridLines(painter, geometry, cells);
    if (inner != geometry.allCells()) {
        painter.setPen(QPen(QColor(0x33, 0x33, 0x33), 1, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(geometry.rectOf(inner));
    }

    // Reload counts in cells big enough to hold them.
    const QFontMetricsF fm(painter.font(), painter.device());
    if (style.labels && style.heatMap
        && geometry.cellSize >= std::max(fm.height() * 1.2, fm.horizontalAdvance(QStringLiteral("00")) + 4)
        && qint64(cells.width()) * cells.height() <= kMaxCellLabels) {
        painter.setPen(textColour());
        for (int r = cells.top(); r <= cells.bottom(); ++r)
            for (int c = cells.left(); c <= cells.right(); ++c)
                if (const std::uint32_t n = cursor.loadsSoFar(pixelId(l, r, c)))
                    painter.drawText(geometry.cellRect(r, c), Qt::AlignCenter, QString::number(n));
    }

    // The frame first: the group's outline stays on top where they meet.
    painter.setPen(QPen(frameColour(), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(geometry.bounds());
    if (style.outlineGroup) {
        std::vector<QRect> parts;
        for (PatchId p : cursor.currentPatches())
            for (const QRect &part : patchCells(l, p))
                parts.push_back(part);
        paintUnionOutline(painter, geometry, parts, Palette::cursor());
    }
    if (style.dmaRuns && problem.hardware.transfer)
        paintDmaRuns(painter, geometry, dmaRunOutlines(problem, cursor), cells);
    painter.restore();
}

void GridRenderer::paintOutputCells(QPainter &painter, const GridGeometry &geometry, const Problem &problem,
    const StepCursor &cursor, const GridStyle &style, QRect cells)
{
    cells &= geometry.allCells();
    if (cells.isEmpty() || geometry.cellSize <= 0)
        return;
    const Layer &l = problem.layer;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    paintCellColours(painter, geometry, cells, GridKind::Output, problem, cursor, style);
    paintPartialPatches(painter, geometry, problem, cursor, cells);
    paintGridLines(painter, geometry, cells);

    // Patch ids in the top-left corner of cells big enough (the centre keeps the colour).
    const QFont small = style.font ? *style.font : scaledFont(painter.font(), 0.8);
    const QFontMetricsF fm(small, painter.device());
    const QString widest = QString::number(std::max<std::int64_t>(l.patchCount() - 1, 0));
    if (style.labels && geometry.cellSize >= std::max(fm.height() * 2.2, fm.horizontalAdvance(widest) * 1.6)
        && qint64(cells.width()) * cells.height() <= kMaxCellLabels) {
        painter.setFont(small);
        painter.setPen(textColour());
        const double pad = std::max(2.0, geometry.cellSize * 0.06);
        for (int r = cells.top(); r <= cells.bottom(); ++r)
            for (int c = cells.left(); c <= cells.right(); ++c)
                painter.drawText(geometry.cellRect(r, c).adjusted(pad, pad / 2, -pad, -pad), Qt::AlignLeft | Qt::AlignTop,
                    QString::number(patchId(l, r, c)));
    }

    if (style.reloadMarks)
        paintAssumptionMarks(painter, geometry, l, assumptionPatchesAt(cursor, l, cells), cells);

    // The frame first: the group's outline stays on top where they meet.
    painter.setPen(QPen(frameColour(), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(geometry.bounds());
    if (style.outlineGroup) {
        std::vector<QRect> parts;
        for (PatchId p : cursor.currentPatches()) {
            const Grid g = patchPosition(l, p);
            parts.emplace_back(g.col, g.row, 1, 1);
        }
        paintUnionOutline(painter, geometry, parts, Palette::cursor());
    }
    painter.restore();
}

QRectF GridRenderer::markerRect(const QRectF &cell)
{
    // Small cells are filled whole; bigger ones keep a rim of their state colour.
    if (cell.width() < 6)
        return cell;
    const double side = std::max(3.0, std::round(cell.width() * 0.5));
    return QRectF(cell.center().x() - side / 2, cell.center().y() - side / 2, side, side);
}

void GridRenderer::paintFieldPreview(
    QPainter &painter, const GridGeometry &geometry, const Layer &layer, const FieldPreview &preview, QRect cells)
{
    cells &= geometry.allCells();
    if (cells.isEmpty() || geometry.cellSize <= 0 || preview.pixels() == 0)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    std::vector<QRect> parts;
    parts.reserve(preview.pixels());
    const auto mark = [&](const std::vector<PixelId> &pixels, const QColor &colour) {
        for (PixelId p : pixels) {
            const Grid g = pixelPosition(layer, p);
            parts.emplace_back(g.col, g.row, 1, 1);
            if (!cells.contains(g.col, g.row))
                continue;
            const QRectF marker = markerRect(geometry.cellRect(g.row, g.col));
            painter.fillRect(marker, colour);
            if (marker.width() >= 6) {
                painter.setPen(QPen(Palette::previewOutline(), 1));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(marker.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    };
    mark(preview.kept, Palette::previewKept());
    mark(preview.added, Palette::previewAdded());
    paintUnionOutline(painter, geometry, parts, Palette::previewOutline());
    painter.restore();
}

void GridRenderer::paintPatchFlags(
    QPainter &painter, const GridGeometry &geometry, const Layer &layer, const std::vector<PatchId> &patches, QRect cells)
{
    cells &= geometry.allCells();
    if (cells.isEmpty() || geometry.cellSize <= 0)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (PatchId p : patches) {
        const Grid g = patchPosition(layer, p);
        if (cells.contains(g.col, g.row))
            paintFlag(painter, geometry.cellRect(g.row, g.col), Palette::flag());
    }
    painter.restore();
}

std::vector<PatchId> GridRenderer::assumptionPatchesAt(const StepCursor &cursor, const Layer &layer, QRect cells)
{
    const std::vector<PatchId> &patches = cursor.result().reload.patches;
    std::vector<PatchId> shown;
    if (cells.isEmpty())
        return shown;
    // Patch ids are row-major: only the rows shown are looked at.
    const auto first = std::lower_bound(patches.begin(), patches.end(), PatchId(patchId(layer, cells.top(), 0)));
    const auto last = std::lower_bound(patches.begin(), patches.end(), PatchId(patchId(layer, cells.bottom() + 1, 0)));
    for (auto it = first; it != last; ++it)
        if (cursor.patch(*it) != OutputState::Pending)
            shown.push_back(*it);
    return shown;
}

void GridRenderer::paintAssumptionMarks(
    QPainter &painter, const GridGeometry &geometry, const Layer &layer, const std::vector<PatchId> &patches, QRect cells)
{
    cells &= geometry.allCells();
    if (cells.isEmpty() || geometry.cellSize <= 0)
        return;
    // Patch ids are row-major: only the rows shown are looked at.
    const auto first = std::lower_bound(patches.begin(), patches.end(), PatchId(patchId(layer, cells.top(), 0)));
    const auto last = std::lower_bound(patches.begin(), patches.end(), PatchId(patchId(layer, cells.bottom() + 1, 0)));
    const qreal ratio = painter.device() ? painter.device()->devicePixelRatioF() : 1.0;
    const bool raster = painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::Raster
        && painter.transform().type() <= QTransform::TxTranslate;
    if (raster && geometry.cellSize * ratio < 2) {
        // Cells under 2 device pixels: a mark (half the cell's side) is a
        // speck, and a million of them stamped one by one took 80-130 ms of
        // the GUI thread at the last step of a 1024x1024 layer. Each mark's
        // ink (an eighth of its cell) goes to the device pixel under it
        // instead, and one image is drawn: the same darkness where marks are
        // dense, one pass over the marked patches.
        const QRectF area = geometry.rectOf(cells);
        const QPointF origin(std::floor(area.left() * ratio) / ratio, std::floor(area.top() * ratio) / ratio);
        const QSize size(
            int(std::ceil((area.right() - origin.x()) * ratio)) + 1, int(std::ceil((area.bottom() - origin.y()) * ratio)) + 1);
        std::vector<float> cover(std::size_t(size.width()) * std::size_t(size.height()), 0.0f);
        const double ink = geometry.cellSize * ratio * geometry.cellSize * ratio / 8; // device px² per mark
        const double side = geometry.cellSize / 2;
        for (auto it = first; it != last; ++it) {
            const Grid g = patchPosition(layer, *it);
            if (!cells.contains(g.col, g.row))
                continue;
            const QRectF cell = geometry.cellRect(g.row, g.col);
            // The triangle's centroid: a third of its side in from the corner.
            const int x = std::clamp(int((cell.right() - side / 3 - origin.x()) * ratio), 0, size.width() - 1);
            const int y = std::clamp(int((cell.top() + side / 3 - origin.y()) * ratio), 0, size.height() - 1);
            cover[std::size_t(y) * std::size_t(size.width()) + std::size_t(x)] += float(ink);
        }
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        const QColor colour = Palette::assumption();
        for (int y = 0; y < size.height(); ++y) {
            auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
            for (int x = 0; x < size.width(); ++x) {
                const int alpha
                    = int(std::lround(255 * std::min(1.0f, cover[std::size_t(y) * std::size_t(size.width()) + std::size_t(x)])));
                line[x] = qPremultiply(qRgba(colour.red(), colour.green(), colour.blue(), alpha));
            }
        }
        image.setDevicePixelRatio(ratio);
        painter.save();
        painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
        painter.drawImage(origin, image);
        painter.restore();
        return;
    }
    std::vector<QRectF> marked;
    for (auto it = first; it != last; ++it) {
        const Grid g = patchPosition(layer, *it);
        if (cells.contains(g.col, g.row))
            marked.push_back(geometry.cellRect(g.row, g.col));
    }
    paintCorners(painter, marked, Palette::assumption());
}

void GridRenderer::paintAxes(
    QPainter &painter, const GridGeometry &geometry, const QRectF &topAxis, const QRectF &leftAxis, QRect cells, bool fixedFont)
{
    cells &= geometry.allCells();
    if (cells.isEmpty() || geometry.cellSize <= 0)
        return;
    painter.save();
    if (!fixedFont)
        painter.setFont(scaledFont(painter.font(), 0.85));
    const QFontMetricsF fm(painter.font(), painter.device());
    painter.setPen(axisColour());
    if (!topAxis.isEmpty()) {
        const double need = fm.horizontalAdvance(QString::number(geometry.cols - 1)) + fm.height() * 0.6;
        const int step = niceStep(need / geometry.cellSize);
        for (int c = (cells.left() + step - 1) / step * step; c <= cells.right(); c += step) {
            const double x = geometry.origin.x() + (c + 0.5) * geometry.cellSize;
            if (x < topAxis.left() || x > topAxis.right())
                continue;
            painter.drawText(QRectF(x - need / 2, topAxis.top(), need, topAxis.height()), Qt::AlignHCenter | Qt::AlignBottom,
                QString::number(c));
        }
    }
    if (!leftAxis.isEmpty()) {
        const double need = fm.height() * 1.05;
        const int step = niceStep(need / geometry.cellSize);
        const double pad = fm.height() * 0.3;
        for (int r = (cells.top() + step - 1) / step * step; r <= cells.bottom(); r += step) {
            const double y = geometry.origin.y() + (r + 0.5) * geometry.cellSize;
            if (y < leftAxis.top() || y > leftAxis.bottom())
                continue;
            painter.drawText(QRectF(leftAxis.left(), y - need / 2, leftAxis.width() - pad, need),
                Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
        }
    }
    painter.restore();
}

// --- figures ---------------------------------------------------------------------

void GridRenderer::paintInputGrid(QPainter &painter, const QRectF &target, const Problem &problem, const StepCursor &cursor,
    const GridStyle &style, const QRectF &exposedCells)
{
    painter.save();
    painter.setFont(figureFont(painter.font(), target, style));
    const GridFigureLayout lay
        = layout(GridKind::Input, QFontMetricsF(painter.font(), painter.device()), target, problem, cursor, style);
    if (!exposedCells.isEmpty()) {
        paintInputCells(painter, lay.geometry, problem, cursor, style, lay.geometry.cellsOfUnits(exposedCells));
        painter.restore();
        return;
    }
    painter.fillRect(target, Qt::white);
    paintInputCells(painter, lay.geometry, problem, cursor, style, lay.geometry.allCells());
    if (!lay.kernelStrip.isEmpty())
        KernelStrip::paint(painter, lay.kernelStrip, problem, cursor, style.labels);
    if (style.labels) {
        if (style.title)
            paintTitle(painter, lay.title, named(style, titleChoices(GridKind::Input, problem, cursor)));
        paintAxes(painter, lay.geometry, lay.topAxis, lay.leftAxis, lay.geometry.allCells(), style.font.has_value());
    }
    if (style.legend)
        GridLegend::paint(painter, lay.legend, inputLegend(problem, cursor, style));
    painter.restore();
}

void GridRenderer::paintOutputGrid(
    QPainter &painter, const QRectF &target, const Problem &problem, const StepCursor &cursor, const GridStyle &style)
{
    painter.save();
    painter.setFont(figureFont(painter.font(), target, style));
    const GridFigureLayout lay
        = layout(GridKind::Output, QFontMetricsF(painter.font(), painter.device()), target, problem, cursor, style);
    painter.fillRect(target, Qt::white);
    paintOutputCells(painter, lay.geometry, problem, cursor, style, lay.geometry.allCells());
    if (style.labels) {
        if (style.title)
            paintTitle(painter, lay.title, named(style, titleChoices(GridKind::Output, problem, cursor)));
        paintAxes(painter, lay.geometry, lay.topAxis, lay.leftAxis, lay.geometry.allCells(), style.font.has_value());
    }
    if (style.legend)
        GridLegend::paint(painter, lay.legend, outputLegend(style, {}, streamsKernels(cursor), breaksReload(cursor)));
    painter.restore();
}

void GridRenderer::paintGrids(
    QPainter &painter, const QRectF &target, const Problem &problem, const StepCursor &cursor, const GridStyle &style)
{
    painter.save();
    painter.setFont(figureFont(painter.font(), target, style));
    const QFontMetricsF fm(painter.font(), painter.device());
    const double h = fm.height();
    const double margin = std::round(h * 0.5);
    const QRectF inner = target.adjusted(margin, margin, -margin, -margin);
    // A main title (the moment), then one subtitle per grid.
    // Without the title the subtitles stay: they name the grids.
    const double subtitleH = style.labels ? std::ceil(h * 1.3) : 0.0;
    const double titleH = style.title ? subtitleH : 0.0;
    const double titleGap = style.labels && style.title ? std::round(h * 0.3) : 0.0;
    const std::vector<LegendRow> legend = style.legend ? gridsLegend(problem, cursor, style) : std::vector<LegendRow>{};
    const double legendH = style.legend ? GridLegend::height(fm, inner.width(), legend) : 0.0;
    const double legendGap = style.legend ? std::round(h * 0.6) : 0.0;
    const double stripH = kernelStripBand(fm, GridKind::Input, style);

    const int rowsIn = rowsOf(GridKind::Input, problem), colsIn = colsOf(GridKind::Input, problem);
    const int rowsOut = rowsOf(GridKind::Output, problem), colsOut = colsOf(GridKind::Output, problem);
    const QSizeF axisIn = style.labels ? axisSize(fm, rowsIn, colsIn) : QSizeF(0, 0);
    const QSizeF axisOut = style.labels ? axisSize(fm, rowsOut, colsOut) : QSizeF(0, 0);
    const double axisH = std::max(axisIn.height(), axisOut.height());
    const double between = std::round(h * 2);

    const double availW = inner.width() - axisIn.width() - axisOut.width() - between;
    const double head = titleH + titleGap + subtitleH + axisH;
    const double availH = inner.height() - head - stripH - legendGap - legendH;
    double cs = std::max(0.0, std::min(availW / (colsIn + colsOut), availH / std::max(rowsIn, rowsOut)));
    if (cs >= 8)
        cs = std::floor(cs);
    const double wIn = colsIn * cs, wOut = colsOut * cs, gridH = std::max(rowsIn, rowsOut) * cs;
    const double blockW = axisIn.width() + wIn + between + axisOut.width() + wOut;
    const double blockH = head + gridH + stripH + legendGap + legendH;
    const double x0 = std::round(inner.left() + std::max(0.0, (inner.width() - blockW) / 2));
    const double y0 = std::round(inner.top() + std::max(0.0, (inner.height() - blockH) / 2));
    const double gridTop = y0 + head;

    GridGeometry in{rowsIn, colsIn, QPointF(x0 + axisIn.width(), gridTop), cs};
    GridGeometry out{rowsOut, colsOut, QPointF(x0 + axisIn.width() + wIn + between + axisOut.width(), gridTop), cs};

    painter.fillRect(target, Qt::white);
    paintInputCells(painter, in, problem, cursor, style, in.allCells());
    paintOutputCells(painter, out, problem, cursor, style, out.allCells());
    if (stripH > 0) {
        const double stripHeight = KernelStrip::height(fm);
        KernelStrip::paint(painter, QRectF(inner.left(), gridTop + gridH + stripH - stripHeight, inner.width(), stripHeight),
            problem, cursor, style.labels);
    }
    if (style.labels) {
        QString moment = momentText(cursor);
        if (!moment.isEmpty())
            moment[0] = moment[0].toUpper();
        QFont bold = painter.font();
        bold.setBold(true);
        if (style.title) {
            painter.save();
            painter.setFont(bold);
            paintTitle(painter, QRectF(inner.left(), y0, inner.width(), titleH), named(style, {moment}));
            painter.restore();
        }
        const double subY = y0 + titleH + titleGap;
        // A narrow grid drops the sizes rather than cut them.
        paintTitle(
            painter, QRectF(x0, subY, axisIn.width() + wIn, subtitleH), QStringList{inputName(problem), QStringLiteral("Input")});
        paintTitle(painter, QRectF(out.origin.x() - axisOut.width(), subY, axisOut.width() + wOut, subtitleH),
            QStringList{outputName(problem), QStringLiteral("Output")});
        paintAxes(painter, in, QRectF(in.origin.x(), gridTop - axisH, wIn, axisH),
            QRectF(x0, gridTop, axisIn.width(), rowsIn * cs), in.allCells(), style.font.has_value());
        paintAxes(painter, out, QRectF(out.origin.x(), gridTop - axisH, wOut, axisH),
            QRectF(out.origin.x() - axisOut.width(), gridTop, axisOut.width(), rowsOut * cs), out.allCells(),
            style.font.has_value());
    }
    if (style.legend)
        GridLegend::paint(painter, QRectF(inner.left(), gridTop + gridH + stripH + legendGap, inner.width(), legendH), legend);
    painter.restore();
}

} // namespace convoffload::ui
