// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a step chart's tooltip says about the step under the mouse: the
// numbers of the steps table (StepStats) that the chart draws, so a user
// reads them without counting grid lines.

#include <QString>

namespace convoffload {
struct SimulationResult;
}

namespace convoffload::ui {

enum class StepChartKind { Footprint, Durations, Cumulative };

/// Rich text for 0-based `step` of `result` (empty when out of range).
QString stepHoverText(const SimulationResult &result, int step, StepChartKind kind);

} // namespace convoffload::ui
