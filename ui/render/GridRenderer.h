// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Headless renderer of the input and output grids: one cell per padded input
// pixel (coloured by its state at the cursor's moment, or by its reload count;
// on a grouped layer a pixel holding some of its channel groups is filled in
// proportion) and one cell per patch of the output. Paints with any QPainter, so the grid
// views, the export dialog and the tests draw the same picture.

#include "convoffload/model/GroupEdit.h"
#include "convoffload/simulate/StepCursor.h"
#include "render/GridLegend.h"

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QImage>
#include <QPointF>
#include <QRect>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

class QPainter;

namespace convoffload::ui {

struct GridStyle {
    bool heatMap = false; // input cells by reload count instead of state
    bool outlineGroup = true; // outline the patches of the current group
    bool legend = true;
    bool labels = true; // title, row/column indices, counts and ids in big cells
    bool title = true; // with labels: the title over the grids (exported figures leave it to the caption)
    bool kernelStrip = true; // input figures: the kernel strip under the grid
    bool reloadMarks = true; // output: mark every patch that breaks the reload assumption (SimulationResult::reload)
    /// Input: under a transfer model, outline each DMA run of the moment's
    /// step's input load (GridRenderer::dmaRunOutlines); nothing without one.
    bool dmaRuns = false;
    /// A fixed figure font (export presets): every text of the figure at this
    /// size, axis indices included. Unset: a font sized to the target.
    std::optional<QFont> font;
    /// The strategy drawn, named in the figure's title when not empty
    /// (exported figures: on screen the window names it).
    QString strategy;
};

enum class GridKind { Input, Output };

struct GridCell {
    int row = 0, col = 0;
    bool operator==(const GridCell &) const = default;
};

/// Square cells laid out from `origin`: cell (row, col) covers
/// [origin.x + col·cellSize, +cellSize) × [origin.y + row·cellSize, +cellSize).
/// Ranges of cells are QRects in cell units (x = column, y = row).
struct GridGeometry {
    int rows = 0, cols = 0;
    QPointF origin;
    double cellSize = 0;

    QRectF bounds() const { return QRectF(origin.x(), origin.y(), cols * cellSize, rows * cellSize); }
    QRectF cellRect(int row, int col) const
    {
        return QRectF(origin.x() + col * cellSize, origin.y() + row * cellSize, cellSize, cellSize);
    }
    /// The cell under a point, nullopt outside the grid.
    std::optional<GridCell> cellAt(const QPointF &p) const;
    /// Cells that overlap `area` (painter coordinates), clamped to the grid.
    QRect cellsIn(const QRectF &area) const;
    /// Cells that overlap a rectangle in cell units, clamped to the grid.
    QRect cellsOfUnits(const QRectF &cellUnits) const;
    /// The painter rectangle of a range of cells.
    QRectF rectOf(const QRect &cells) const;
    QRect allCells() const { return QRect(0, 0, cols, rows); }
    /// The largest square cells that fit `area`, the grid centred in it.
    static GridGeometry fit(int rows, int cols, const QRectF &area);
};

/// Where a one-grid figure puts its parts.
struct GridFigureLayout {
    QRectF title, topAxis, leftAxis, legend;
    QRectF kernelStrip; // input figures with GridStyle::kernelStrip; else empty
    GridGeometry geometry;
};

/// One outline of the input grid's DMA runs: consecutive stored pixels, one
/// rectangle per row they cover (cell units; a run goes on at the next row's
/// start when it reaches a row's end).
struct DmaOutline {
    std::vector<QRect> rows;
    QRect bounds;
    std::int64_t first = 0, last = 0; // stored pixel indices (StoredInput), inclusive
    /// The runs (or, for an nchw run that goes on into the next plane, its
    /// part in one plane) over exactly these pixels: 1 under nhwc (more only
    /// when runs share one pixel of a grouped layer); under nchw one in each
    /// channel plane that loads them (C_in with one group).
    int runs = 1;
};

/// The DMA runs of the moment's step's input load (docs/user/visualiser.md#dma-runs).
struct DmaRunOutlines {
    /// A transfer model is set and the moment is at or after the step's
    /// input load (a4): the outlines show what the load moved.
    bool shown = false;
    Layout layout = Layout::Nchw;
    std::int64_t runs = 0, blocks = 0, burst = 1; // the load's descriptors and blocks (the simulator's, kernels aside)
    /// Distinct pixel stretches, in stored order: under nchw the runs of
    /// every channel plane that load the same pixels share one.
    std::vector<DmaOutline> outlines;
};

class GridRenderer {
public:
    /// The padded input, one cell per pixel. `exposedCells` (cell units:
    /// x = column, y = row) limits the painting to those cells; empty = all.
    void paintInputGrid(QPainter &painter, const QRectF &target, const Problem &problem, const StepCursor &cursor,
        const GridStyle &style, const QRectF &exposedCells = {});
    /// The output, one cell per patch, coloured by its most advanced output.
    void paintOutputGrid(
        QPainter &painter, const QRectF &target, const Problem &problem, const StepCursor &cursor, const GridStyle &style);
    /// Input and output side by side, same cell size, one shared legend:
    /// the "grid" figure of the export.
    void paintGrids(
        QPainter &painter, const QRectF &target, const Problem &problem, const StepCursor &cursor, const GridStyle &style);

    // Building blocks, for views that zoom and pan with their own geometry.

    /// Cells of `cells` (clamped) with padding hatch, grid lines, counts, and
    /// the current group's outline.
    void paintInputCells(QPainter &painter, const GridGeometry &geometry, const Problem &problem, const StepCursor &cursor,
        const GridStyle &style, QRect cells);
    void paintOutputCells(QPainter &painter, const GridGeometry &geometry, const Problem &problem, const StepCursor &cursor,
        const GridStyle &style, QRect cells);
    /// The receptive-field preview of a drop over the input cells of `cells`:
    /// a marker in every pixel of the field (Palette::previewKept for the
    /// pixels the group reads already, previewAdded for those the drop adds)
    /// and the field's outline.
    static void paintFieldPreview(
        QPainter &painter, const GridGeometry &geometry, const Layer &layer, const FieldPreview &preview, QRect cells);
    /// Marks the output cells of `patches` (ascending) that lie in `cells`
    /// as breaking a rule (Palette::flag frame and hatch).
    static void paintPatchFlags(
        QPainter &painter, const GridGeometry &geometry, const Layer &layer, const std::vector<PatchId> &patches, QRect cells);
    /// The square a preview marker fills in a cell.
    static QRectF markerRect(const QRectF &cell);
    /// Row indices in `leftAxis` and column indices in `topAxis`, for the
    /// cells of `cells` only, thinned out so they never overlap.
    /// The indices are a little smaller than the painter's font, unless
    /// `fixedFont` (a preset's size, the smallest a report allows).
    static void paintAxes(QPainter &painter, const GridGeometry &geometry, const QRectF &topAxis, const QRectF &leftAxis,
        QRect cells, bool fixedFont = false);
    /// One line, centred and elided to the rectangle.
    static void paintTitle(QPainter &painter, const QRectF &rect, const QString &title);
    /// The first of `choices` (longest first) that fits on one line, the last
    /// elided when none does.
    static void paintTitle(QPainter &painter, const QRectF &rect, const QStringList &choices);

    /// The DMA runs of the cursor's step's input load, from the core's
    /// inputLoadRuns over the trace's a4 ids.
    static DmaRunOutlines dmaRunOutlines(const Problem &problem, const StepCursor &cursor);
    /// "12 runs, 30 blocks of 8": the load's descriptors and bursts.
    static QString dmaRunsText(const DmaRunOutlines &runs);
    /// The legend's entry for the outlines, naming the load's runs and blocks.
    static LegendItem dmaRunsLegend(const DmaRunOutlines &runs);
    /// Each outline that meets `cells`, inside its cells (an inner dashed
    /// stroke, so touching runs keep apart and the group's outline, drawn
    /// outside, stays visible), colours alternating in stored order.
    static void paintDmaRuns(QPainter &painter, const GridGeometry &geometry, const DmaRunOutlines &runs, QRect cells);

    static QString momentText(const StepCursor &cursor); // "step 2/6, a4 load input"
    static QString inputTitle(const Problem &problem, const StepCursor &cursor);
    static QString outputTitle(const Problem &problem, const StepCursor &cursor);
    /// A grid's title and its shorter forms for narrow grids, longest first:
    /// "Output 6×28×28 — step 40 of 784, a6 compute", "Output — step 40 of
    /// 784, a6 compute", "Output — step 40 of 784", "step 40 of 784".
    static QStringList titleChoices(GridKind kind, const Problem &problem, const StepCursor &cursor);
    /// `choices` led by the style's strategy name, when it has one.
    static QStringList named(const GridStyle &style, const QStringList &choices);
    static std::vector<LegendRow> inputLegend(
        const Problem &problem, const StepCursor &cursor, const GridStyle &style, const QString &caption = {});
    /// With `partialFill` (the strategy streams kernels: streamsKernels), the
    /// legend also explains the partly filled cells.
    /// `reloadBroken`: list the reload-assumption mark (GridStyle::reloadMarks).
    static std::vector<LegendRow> outputLegend(
        const GridStyle &style, const QString &caption = {}, bool partialFill = false, bool reloadBroken = false);
    /// The legend of the side-by-side "grid" figure: one row where the two
    /// grids share their colours (on chip, not on chip / pending, the current
    /// group), so a narrow figure (a paper's column) keeps its room for the
    /// grids; with the heat map, the input's and the output's captioned rows.
    static std::vector<LegendRow> gridsLegend(const Problem &problem, const StepCursor &cursor, const GridStyle &style);
    /// True when the cursor's simulation breaks the reload assumption on some patch.
    static bool breaksReload(const StepCursor &cursor);
    /// Marks the output cells of `patches` (ascending) that lie in `cells`
    /// with the reload-assumption corner (Palette::assumption).
    /// The patches whose reload mark shows at the cursor's moment: those of
    /// SimulationResult::reload computed by then (a pending patch has not
    /// broken anything yet), in the rows of `cells`, ascending.
    static std::vector<PatchId> assumptionPatchesAt(const StepCursor &cursor, const Layer &layer, QRect cells);
    static void paintAssumptionMarks(
        QPainter &painter, const GridGeometry &geometry, const Layer &layer, const std::vector<PatchId> &patches, QRect cells);
    /// True when some step other than the first loads kernels, or one before
    /// the drain frees some: output cells can then be partly computed.
    static bool streamsKernels(const StepCursor &cursor);

    static int rowsOf(GridKind kind, const Problem &problem);
    static int colsOf(GridKind kind, const Problem &problem);
    /// Title, axes, grid and legend of a one-grid figure in `target`.
    static GridFigureLayout layout(GridKind kind, const QFontMetricsF &metrics, const QRectF &target, const Problem &problem,
        const StepCursor &cursor, const GridStyle &style);
    /// The font figures use: `base` sized to the target (11–20 px).
    static QFont figureFont(const QFont &base, const QRectF &target);
    /// The style's fixed font when it has one, else figureFont.
    static QFont figureFont(const QFont &base, const QRectF &target, const GridStyle &style);
    /// Axis strip sizes for a grid of that many rows and columns.
    static QSizeF axisSize(const QFontMetricsF &metrics, int rows, int cols);
    /// How many of a patch's N outputs are computed (on chip, written or done) at the moment.
    static int outputsComputed(const Problem &problem, const StepCursor &cursor, PatchId patch);
    /// Height of the band under an input grid that holds the kernel strip (0 when off).
    static double kernelStripBand(const QFontMetricsF &metrics, GridKind kind, const GridStyle &style);
    /// Range of patches' pixels in the padded input (cell units): the span
    /// of the patch, which a dilated patch reads only every d-th of.
    static QRect patchPixels(const Layer &layer, PatchId patch);
    /// The cells a patch reads, padding included: its span as one rectangle,
    /// or one cell per position when the layer is dilated.
    static std::vector<QRect> patchCells(const Layer &layer, PatchId patch);
    /// The height of the part of a cell that shows `part` of `whole` (0 <
    /// part < whole), from its bottom; neither it nor the rest thinner than a
    /// quarter of the cell (at most 4 units), so that one of many still shows.
    static double partialFillHeight(double cellHeight, int part, int whole);

private:
    void paintCellColours(QPainter &painter, const GridGeometry &geometry, QRect cells, GridKind kind, const Problem &problem,
        const StepCursor &cursor, const GridStyle &style);
    /// Output cells whose patch has only part of its N outputs computed:
    /// the missing fraction, from the top, in the pending colour.
    static void paintPartialPatches(
        QPainter &painter, const GridGeometry &geometry, const Problem &problem, const StepCursor &cursor, QRect cells);
    /// Input cells of a grouped layer with only some of their g slices on
    /// chip: the missing fraction, from the top, in the not-on-chip colour
    /// (freed-now when the step freed one of those slices).
    static void paintPartialPixels(
        QPainter &painter, const GridGeometry &geometry, const Problem &problem, const StepCursor &cursor, QRect cells);
    static void paintGridLines(QPainter &painter, const GridGeometry &geometry, QRect cells);
    static void paintUnionOutline(
        QPainter &painter, const GridGeometry &geometry, const std::vector<QRect> &parts, const QColor &colour);

    QImage m_cells; // one pixel per cell, reused between frames
    std::vector<QRgb> m_heatColours;
};

} // namespace convoffload::ui
