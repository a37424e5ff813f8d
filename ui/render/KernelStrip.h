// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernel strip: one cell per kernel (or per run of consecutive kernels
// when N is too large for the width), coloured like the input grid — loaded
// now, kept, freed now, not on chip — with the kernels the moment's step
// computes with outlined. Drawn under the input grid by the grid view, the
// grid figures and the storyboard, so a kernel-streaming strategy shows which
// kernels are on chip at every moment (an S1 strategy shows them all kept).
// On a grouped layer a band along the cells' bottom alternates two tints from
// one channel group of kernels to the next (docs/reference/model.md#grouped-and-dilated).

#include "convoffload/simulate/StepCursor.h"

#include <QColor>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>

#include <optional>

class QPainter;

namespace convoffload::ui {

/// Where the strip's caption and cells go in a rectangle.
struct KernelStripLayout {
    QRectF caption; // "Kernels" (empty without labels)
    QRectF cells; // all cells, left to right
    int cellCount = 0;
    int kernelsPerCell = 1; // cell c holds kernels [c·k, min((c+1)·k, N))
    double cellWidth = 0;

    QRectF cellRect(int cell) const { return QRectF(cells.left() + cell * cellWidth, cells.top(), cellWidth, cells.height()); }
    /// The cell under a point, nullopt outside the cells.
    std::optional<int> cellAt(const QPointF &p) const;
    int firstKernel(int cell) const { return cell * kernelsPerCell; }
};

class KernelStrip {
public:
    /// Cells narrower than this get several kernels each.
    static constexpr double kMinCellWidth = 6.0;

    /// The strip's height for a font: one line and a little air.
    static double height(const QFontMetricsF &metrics);
    /// Kernels per cell for N kernels and at most `maxCells` cells: 1 when
    /// they fit, else the smallest power of two ≥ ceil(N / maxCells), so that
    /// cells line up with kernel blocks of a power-of-two size.
    static int kernelsPerCell(int n, int maxCells);
    static KernelStripLayout layout(const QFontMetricsF &metrics, const QRectF &rect, int n, bool labels, int groups = 1);
    /// The state a cell shows for kernels [first, first + count): the most
    /// telling of theirs, loaded now > freed now > kept > not on chip.
    static PixelState cellState(const StepCursor &cursor, int first, int count);
    /// The caption: "Kernels", "Kernels (4 per cell)", or on a grouped
    /// layer with a kernel a cell "Kernels (g = 2)".
    static QString caption(const KernelStripLayout &layout, int groups = 1);
    /// The tint of the group band under the kernels of channel group `group`:
    /// dark for even groups, light for odd ones.
    static QColor groupTint(int group);
    /// The group band's height in a cell of height `cellHeight`.
    static double groupBandHeight(double cellHeight);
    static void paint(QPainter &painter, const QRectF &rect, const Problem &problem, const StepCursor &cursor, bool labels);
    /// Tooltip text of the cell at `pos` ("kernels 4–7: 2 kept, 2 loaded now";
    /// on a grouped layer "kernel 3 (channel group 1): kept on chip"); empty outside.
    static QString toolTipAt(const QFontMetricsF &metrics, const QRectF &rect, const Problem &problem, const StepCursor &cursor,
        bool labels, const QPointF &pos);
};

} // namespace convoffload::ui
