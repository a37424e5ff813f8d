// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heat maps of the paper's experiments: one cell per (input size, group
// size) instance. The gain map is the paper's figure, coloured by how much
// shorter the best optimised strategy is than the best of Row-by-Row and
// ZigZag; the gap map shows which instances are proven optimal (✓) and how far
// the others are from their lower bound. Plain QPainter drawings, so the GUI
// view, the export dialog and `convoffload-cli experiments` share them.

#include "convoffload/optimise/PaperExperiments.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QFont;
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

enum class ExperimentHeatMap {
    Gain, // best optimised against the best heuristic (the paper's figure)
    Gap, // best optimised against the lower bound, ✓ where they meet
};

/// Sequential, colour-blind-safe ramp from white (no gain) to dark blue
/// (`maxGain` or more).
QColor gainColour(double gain, double maxGain);

/// Sequential ramp from white (no gap: proven) to a dark Okabe–Ito
/// vermillion (`maxGap` or more).
QColor gapColour(double gap, double maxGap);

/// The fill of a proven instance on the gap map: a light Okabe–Ito bluish
/// green, apart from both ramps.
QColor provenColour();

/// Draws the heat map with axes, a label per cell and a colour scale.
void paintExperimentHeatMap(
    QPainter &painter, const QRectF &target, const std::vector<ExperimentRow> &rows, ExperimentHeatMap map);

/// The instance whose cell lies under `point` of a heat map painted into
/// `target` with `font` as the painter's font; nullptr off the cells. The
/// widget's tooltips use it.
const ExperimentRow *experimentRowAt(
    const std::vector<ExperimentRow> &rows, const QRectF &target, const QFont &font, const QPointF &point);

/// A cell's tooltip: the instance, its durations and what the map shows of it.
QString experimentCellTip(const ExperimentRow &row, ExperimentHeatMap map);

inline void paintGainHeatMap(QPainter &painter, const QRectF &target, const std::vector<ExperimentRow> &rows)
{
    paintExperimentHeatMap(painter, target, rows, ExperimentHeatMap::Gain);
}

} // namespace convoffload::ui
