// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the grids' cells and the legend's swatches draw alike, so that a
// legend entry looks like the cells it explains: the ink (texts, frames, the
// padding's hatch), the flag of a cell that breaks a rule and the reload
// assumption's corner mark. Private to render/ (GridRenderer, GridLegend).

#include <QBrush>
#include <QColor>
#include <QRectF>

#include <vector>

class QPainter;

namespace convoffload::ui {

inline QColor frameColour() { return QColor(0x66, 0x66, 0x66); }
inline QColor textColour() { return QColor(0x22, 0x22, 0x22); }
inline QBrush hatchBrush() { return QBrush(QColor(0, 0, 0, 120), Qt::BDiagPattern); }

/// A cell that breaks a rule, framed and hatched in `colour`.
void paintFlag(QPainter &p, const QRectF &cell, const QColor &colour);
/// The reload-assumption corner on every cell of `cells`, stamped from
/// images on raster devices (CellMarks.cpp says why).
void paintCorners(QPainter &p, const std::vector<QRectF> &cells, const QColor &colour);

} // namespace convoffload::ui
