// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The network chart: for every layer in graph order (top to bottom), one
// horizontal bar per strategy family (StrategyFamily.h) holding that
// family's best valid strategy, its duration stacked into input loads,
// kernel loads, writes and compute (cycles), all on one scale. The layer's
// best over every family (the one counted in the total) is bold; the layers
// that dominate the total are starred; a layer without a valid strategy
// gets one grey hatched bar across the plot, marked ✖.
//
// Drawn with a QPainter at any size (the Network dock, its Save chart…,
// `convoffload-cli export --figure network`), so all three draw the same
// figure. Nothing is elided: labels wrap and the figure asks for the height
// its rows need (heightFor). texts() gives every text with its rectangle so
// tests can check that each fits.
#include "charts/TextPlacer.h"
#include "export/Figures.h"

#include "convoffload/simulate/NetworkAnalysis.h"

#include <QFont>
#include <QRectF>
#include <QString>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

/// A strategy's duration by what it is spent on (cycles): input loads =
/// loaded_input·t_l, kernel loads = loaded_kernels·t_l (0 with
/// kernels_preloaded), writes = written·t_w, compute the rest (t_acc per
/// compute step). All 0 without a candidate.
struct LayerDurationSplit {
    double input_loads = 0, kernel_loads = 0, writes = 0, compute = 0;
    double total() const { return input_loads + kernel_loads + writes + compute; }
};
LayerDurationSplit durationSplit(const LayerAnalysis &layer, const LayerCandidate *candidate);

/// One bar of the chart.
struct NetworkPlotRow {
    std::size_t layer = 0;
    std::optional<StrategyFamily> family; // nullopt: the layer has no valid strategy
    QString strategy; // the family's best strategy
    LayerDurationSplit split;
    bool best = false; // the layer's best over every family
};

class NetworkPlot {
public:
    explicit NetworkPlot(const NetworkAnalysis &analysis);

    /// Every bar, layer by layer in graph order, families in the order of
    /// kStrategyFamilies.
    const std::vector<NetworkPlotRow> &rows() const { return m_rows; }
    /// A layer's name, "★ " before a dominating layer's, "✖ " before one
    /// without a valid strategy.
    QString layerLabel(std::size_t layer) const;
    /// One line: "Network: total N cycles over L layers".
    QString title() const;
    /// Whether the figure draws its heading (figures for a paper leave it to
    /// the caption); the line with the total and the marks' key stays.
    void setTitleShown(bool shown) { m_titleShown = shown; }

    /// The height the figure needs at `width` with `font` (every row a line
    /// or more).
    double heightFor(double width, const QFont &font) const;
    void paint(QPainter &painter, const QRectF &rect, const QFont &font) const;
    std::vector<PlacedText> texts(const QRectF &rect, const QFont &font) const;
    /// The row (an index of rows()) drawn at `point`, -1 when none.
    int rowAt(const QRectF &rect, const QFont &font, QPointF point) const;

private:
    struct Layout {
        std::vector<PlacedText> texts;
        std::vector<QRectF> rows; // the band of each row, across the figure
        double bottom = 0;
    };
    Layout layOut(QPainter *painter, const QRectF &rect, const QFont &font) const;

    std::vector<QString> m_names;
    std::vector<bool> m_dominating;
    std::vector<NetworkPlotRow> m_rows;
    double m_total = 0;
    std::int64_t m_withoutValid = 0;
    std::int64_t m_convolutions = 0; // of the model: the layers and the skipped ones
    bool m_titleShown = true;
};

/// The network chart as an exportable figure at `width` (its height is what
/// the rows need), every text from `font` (the application's by default),
/// without its heading when `title` is false (--no-title).
Figure networkFigure(const NetworkAnalysis &analysis, const std::optional<QFont> &font, int width, bool title = true);

} // namespace convoffload::ui
