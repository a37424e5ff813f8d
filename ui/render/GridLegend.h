// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The legend of a grid figure: rows of entries (a swatch, a hatch, a
// gradient, … and its label), wrapped to the figure's width, each line
// centred. One routine measures and paints, so the height a layout keeps for
// the legend is the height painted. GridRenderer says what the grids'
// legends hold; the grid figures, the storyboard and the views' LegendCache
// lay them out here.

#include <QColor>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace convoffload::ui {

/// One entry of a legend.
struct LegendItem {
    enum class Kind { Swatch, Hatch, Outline, DashedOutline, Gradient, Text, Marker, Flag, PartialFill, Corner };
    Kind kind = Kind::Swatch;
    QColor color;
    QString label;
    QString low, high; // Gradient: the counts at its two ends
    bool operator==(const LegendItem &) const = default;
};

/// A line of a legend, with an optional caption ("Input:").
struct LegendRow {
    QString caption;
    std::vector<LegendItem> items;
    bool operator==(const LegendRow &) const = default;
};

class GridLegend {
public:
    /// Rows of items, wrapped to the rectangle's width, each line centred.
    static void paint(QPainter &painter, const QRectF &rect, const std::vector<LegendRow> &rows);
    /// The height paint takes for `rows`, `width` wide.
    static double height(const QFontMetricsF &metrics, double width, const std::vector<LegendRow> &rows);
};

} // namespace convoffload::ui
