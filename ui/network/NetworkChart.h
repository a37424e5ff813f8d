#pragma once
// The network chart: every layer's best duration in graph order (top to
// bottom, horizontal bars so that layer names read whole), stacked
// into input loads, kernel loads, writes and compute (cycles), the layers
// that dominate the total starred, the layers without a valid strategy drawn
// as a full-height hatched bar marked ✖. A pure function of the analysis, in
// the house style of ui/charts, so the dock and an export draw the same.
#include "convoffload/simulate/NetworkAnalysis.h"

#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
class QHorizontalStackedBarSeries;
QT_END_NAMESPACE

namespace convoffload::ui {

/// A layer's best duration by what it is spent on (cycles); all 0 and
/// `valid` false when no strategy is valid. The four sum to the duration:
/// input loads = loaded_input·t_l, kernel loads = loaded_kernels·t_l (0 with
/// kernels_preloaded), writes = written·t_w, compute the rest (t_acc per
/// compute step).
struct LayerDurationSplit {
    bool valid = false;
    double input_loads = 0, kernel_loads = 0, writes = 0, compute = 0;
    double total() const { return input_loads + kernel_loads + writes + compute; }
};
LayerDurationSplit layerDurationSplit(const LayerAnalysis &layer);

/// The bar label of a layer: its name, "★ " before a dominating layer's,
/// "✖ " before one without a valid strategy.
QString networkBarLabel(const NetworkAnalysis &analysis, std::size_t layer);

/// The chart, the first layer on top. The caller owns it.
QChart *networkChart(const NetworkAnalysis &analysis);
/// Its bars, nullptr when `chart` is not a network chart. Bar index 0 is
/// the bottom one, the last layer (Qt's order): see networkBarLayer.
QHorizontalStackedBarSeries *networkBars(const QChart *chart);
/// The layer of bar index `bar` (as clicked() gives it), -1 when none.
int networkBarLayer(const QChart *chart, int bar);

} // namespace convoffload::ui
