// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Qt Charts built from core results: footprint, durations, cumulative
// duration and group-size sweep (the strategy comparison is ComparisonPlot).
// Pure functions of their
// inputs, no widget involved, so the GUI's chart panel, the export dialog and
// `convoffload-cli export` draw the same figures (render them with
// FigureExport's chartPainter).
//
// Step charts share one horizontal coordinate: step k (0-based index into
// SimulationResult::steps, the drain last) sits at x = k; in the per-action
// footprint step k spans (k-1, k], action a (0..5) the slot
// [k-1 + a/6, k-1 + (a+1)/6] drawn at the footprint after it, so "after the
// compute" is at x = k in both modes. Each step chart carries a cursor (a
// QLineSeries named "current step"): a vertical line at x = k on the per-step
// footprint and the cumulative duration, a box around the bar on the duration
// chart and around the step's six actions per action. moveCursor moves it
// without rebuilding the chart.
//
// A step chart of more steps (or actions) than `maxBins` (stepChartBins of
// its width) draws them in bins (StepBins; docs/user/visualiser.md, "Charts"):
// the footprint each bin's highest step or action, the durations each bin's
// mean step with a line at its longest, the cumulative duration its total at
// each bin's end; the step axis's title says so ("3137 steps, bars of 4").
// The x coordinate stays the step's, so the cursor and clicks do not change.
// Durations of more than 150 steps are stacked areas, a stair per bin, not bars.

#include "convoffload/model/Problem.h"
#include "convoffload/io/Report.h"
#include "convoffload/simulate/Simulator.h"

#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QBarSet;
class QChart;
class QColor;
class QFont;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace convoffload::ui {

/// The bins of a step chart (stepChartBins) when the caller does not know
/// its width: a figure 1400 pixels wide.
inline constexpr int kDefaultStepBins = 436;

/// Legend name of the cursor line of every step chart.
QString cursorSeriesName();

/// Sets every text of `chart` from `font`: the title bold and 10 % larger,
/// the legend, axis labels and axis titles at its size (export presets).
/// When the legend's entries would not fit in one row of `width`, the legend
/// moves to the right of the plot, one entry a line (Qt cuts a row that is
/// too long).
void setChartFont(QChart *chart, const QFont &font, qreal width);
/// Fits the legend's entries to a chart `width` pixels wide, under the
/// plot: the long labels when they fit on one row, else the short ones,
/// else the short ones in smaller type down to `minPointSize`, else the
/// legend goes to the right of the plot, one entry a line. Starts again from
/// the long labels and the legend's font each time: call again at any width.
void fitChartLegend(QChart *chart, qreal width, qreal minPointSize);
/// The smallest legend text on screen (fitChartLegend in a narrow dock).
inline constexpr qreal kScreenLegendMinPoints = 7.0;

/// Fits the title's lines to a chart `width` pixels wide: on a line too
/// long the strategy's name gives way ("Kernel-blocked row-… — on-chip
/// footprint"), so that what is drawn and the summary line stay whole (Qt
/// would cut the line's end and drop the summary). The full title is kept:
/// call again at any width.
void fitChartTitle(QChart *chart, qreal width);
/// Thins the labels of a step axis (every other one, keeping the first and
/// "drain") until each has room for "drain" in a chart `width` wide: Qt
/// gives every label the axis's width over their count, and elides.
void thinStepLabels(QChart *chart, qreal width);

/// A chart's title as plain text on one line (titles are two lines of rich
/// text: "strategy — what<br>summary"), for file metadata and messages.
QString plainChartTitle(const QChart *chart);

/// Stacked input / kernels / output footprint (elements) per step
/// (StepStats::after) or, when `perAction` and the result holds a trace, after
/// every action; plus the capacity line at mem_size. `cursorStep` is a 0-based
/// step index, -1 for no cursor. `strategy` names the figure when not empty.
/// The caller owns the chart.
QChart *footprintChart(const Problem &problem, const SimulationResult &result, int cursorStep, bool perAction,
    const QString &strategy = {}, int maxBins = kDefaultStepBins);

/// Stacked load / write / compute duration (cycles) of every step. With a
/// transfer model (result.transfer_model) the load and the write show their
/// data only and a "DMA set-up" set (StepStats::setup_duration) stacks on
/// them, so the set-up set sums to result.setupDuration().
QChart *durationChart(
    const SimulationResult &result, int cursorStep, const QString &strategy = {}, int maxBins = kDefaultStepBins);
/// The same with the load split into input loads and kernel loads
/// (loadSplit), so a kernel-streaming strategy shows what its kernels cost;
/// under a transfer model the set-up split instead, as above.
QChart *durationChart(const Problem &problem, const SimulationResult &result, int cursorStep, const QString &strategy = {},
    int maxBins = kDefaultStepBins);

/// A step's load cycles split by what was loaded: input elements·t_l and
/// kernel elements·t_l (0 with kernels_preloaded); they sum to load_duration.
/// With a transfer model: load_duration − kernel_load_duration and
/// kernel_load_duration, set-up included.
struct LoadSplit {
    double input = 0, kernels = 0;
};
LoadSplit loadSplit(const Problem &problem, const StepStats &step);

/// Running total of the step durations (cycles); ends at totalDuration().
QChart *cumulativeDurationChart(
    const SimulationResult &result, int cursorStep, const QString &strategy = {}, int maxBins = kDefaultStepBins);

/// Row-by-Row and ZigZag total duration against the group size: solid lines
/// and filled markers where the strategy is valid on the hardware, dashed
/// lines and hollow markers where it is not; crossovers marked.
QChart *sweepChart(const std::vector<SweepRow> &rows);

/// Moves the cursor line of a step chart to `cursorStep` (-1 hides it) by
/// replacing its two points; does nothing on charts without a cursor.
void moveCursor(QChart *chart, int cursorStep);
/// The cursor series of a step chart, nullptr when it has none.
QLineSeries *cursorSeries(const QChart *chart);

/// The 0-based step shown at horizontal value `x` of a step chart, -1 when x
/// is outside its steps (or the chart is not a step chart).
int stepAt(const QChart *chart, double x);

/// Index of the valid, expanded row with the smallest total duration (the
/// first on ties), -1 when none is valid.
int bestRow(const std::vector<CompareRow> &rows);

/// Group sizes where the faster of the two sweep curves changes, as the x of
/// the crossing (linear interpolation between the two sizes around it).
std::vector<double> sweepCrossovers(const std::vector<SweepRow> &rows);

/// The house style of every chart, for charts built elsewhere (the network
/// chart): white background, no frame, bold title (rich text allowed),
/// legend below. The caller owns the chart.
QChart *styledChart(const QString &title);
/// A bar set in `colour` with a darker border, as the duration charts draw.
QBarSet *styledBarSet(const QString &name, const QColor &colour);
/// A value axis from 0 to a little above `top`, with round ticks.
QValueAxis *zeroBasedValueAxis(const QString &title, double top);

} // namespace convoffload::ui
