// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One step numbering for every view (grid titles, the step control, exported
// figures): the paper's compute steps 1..n, then the drain, named after the
// step it follows. "step 40 of 98", "drain (after step 98)".

#include <QString>

namespace convoffload {
struct SimulationResult;
}

namespace convoffload::ui {

/// The name of the 0-based `step` of a simulation of `count` steps whose last
/// step is the drain when `lastIsDrain`; "before step 1 of n" for step -1.
QString stepName(int step, int count, bool lastIsDrain);
/// The same for a step of `result`.
QString stepName(int step, const SimulationResult &result);
/// The short form, for small panels: "step 40", "drain", "before step 1".
QString shortStepName(int step, const SimulationResult &result);

} // namespace convoffload::ui
