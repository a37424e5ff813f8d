#pragma once
// The paper's duration figure: for one group size, the duration of every
// strategy against the input size (S1-baseline, Row-by-Row, ZigZag, the
// search, CBC where it ran, the lower bound).

#include "convoffload/optimise/PaperExperiments.h"

#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Series names, in the order they are added to the chart.
QString durationSeriesName(int index);
constexpr int kDurationSeriesCount = 6;

/// Rows of other group sizes are ignored; a series without any point (CBC
/// not run) is left out. The caller owns the chart.
QChart *durationsBySizeChart(const std::vector<ExperimentRow> &rows, int groupSize);

} // namespace convoffload::ui
