// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The paper's duration figure: for one group size, the duration of every
// strategy against the input size (S1-baseline, Row-by-Row, ZigZag, the
// method's strategy (Search or Exact), CBC where it ran, the lower bound).

#include "convoffload/optimise/PaperExperiments.h"

#include <QtGlobal>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Rows of other group sizes are ignored; a series without any point (CBC
/// not run) is left out. The caller owns the chart.
QChart *durationsBySizeChart(const std::vector<ExperimentRow> &rows, int groupSize);

} // namespace convoffload::ui
