// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The storyboard figure: the first K compute steps of two strategies as small
// multiples, like the paper's Row-by-Row / ZigZag comparison figure. One input
// grid a panel, each labelled with its step (StepName), the panels of a
// strategy under its name, one shared legend at the bottom. The panels are
// arranged to fill the canvas: each strategy a band of rows (steps left to
// right, wrapping) or a band of columns, whichever gives the largest cells.
// A strategy that streams kernels gets the kernel strip under every grid.

#include "render/GridRenderer.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QRectF>
#include <QString>

#include <array>
#include <vector>

class QPainter;

namespace convoffload::ui {

/// How the 2 × K panels are arranged on the canvas.
struct StoryboardArrangement {
    bool bandsStacked = true; // strategies one above the other; else side by side
    int rows = 1, cols = 1; // panels of one strategy's band
    double cellSize = 0; // grid cell side, the same in every panel
};

/// Where every part of a storyboard goes.
struct StoryboardLayout {
    StoryboardArrangement arrangement;
    std::array<QRectF, 2> headers; // strategy names
    std::vector<std::array<QRectF, 2>> labels; // per step, per strategy: the step label
    std::vector<std::array<GridGeometry, 2>> grids; // per step, per strategy
    std::vector<std::array<QRectF, 2>> strips; // per step, per strategy: the kernel strip (empty without)
    QLineF separator; // a thin line between the two strategies' bands
    QRectF legend;
};

class StoryboardRenderer {
public:
    /// The arrangement with the largest cells for `steps` panels per strategy
    /// of a `gridRows` × `gridCols` grid in `area`, given the height of a
    /// strategy header, the height a panel adds to its grid (step label,
    /// kernel strip) and the gap between panels.
    static StoryboardArrangement arrange(
        int steps, int gridRows, int gridCols, const QSizeF &area, double headerH, double panelExtraH, double gap);
    /// `kernelStrips`: a kernel strip under every grid (strategies that
    /// stream kernels: GridRenderer::streamsKernels).
    static StoryboardLayout layout(const QFontMetricsF &metrics, const QRectF &target, const Problem &problem, int steps,
        const std::vector<LegendRow> &legend, bool kernelStrips = false);
    /// Paints the storyboard of the first `steps` compute steps of the two
    /// cursors' strategies (the cursors are moved). `style.font` fixes the
    /// font (export presets); otherwise it is sized to the target.
    void paint(QPainter &painter, const QRectF &target, const Problem &problem, const std::array<StepCursor *, 2> &cursors,
        const std::array<QString, 2> &names, int steps, const GridStyle &style);

private:
    GridRenderer m_grid;
};

} // namespace convoffload::ui
