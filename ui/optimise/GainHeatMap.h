#pragma once
// The paper's gain figure: one cell per (input size, group size) instance,
// coloured by how much shorter the best optimised strategy is than the best of
// Row-by-Row and ZigZag. A plain QPainter drawing, so the GUI view, the
// export dialog and `convoffload-cli experiments --figure` share it.

#include "convoffload/optimise/PaperExperiments.h"

#include <QColor>
#include <QRectF>

#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Sequential, colour-blind-safe ramp from white (no gain) to dark blue
/// (`maxGain` or more).
QColor gainColour(double gain, double maxGain);

/// Draws the heat map with axes, per-cell percentages and a colour scale.
void paintGainHeatMap(QPainter &painter, const QRectF &target, const std::vector<ExperimentRow> &rows);

} // namespace convoffload::ui
