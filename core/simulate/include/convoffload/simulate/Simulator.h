// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Executes a list of steps action by action on the simulated on-chip memory:
// validity rules, durations, footprints, an optional action-level trace and an
// optional functional simulation on real values.
#include "convoffload/model/Problem.h"
#include "convoffload/model/S1Expander.h"
#include "convoffload/model/Step.h"
#include "convoffload/simulate/SimulationOptions.h"
#include "convoffload/simulate/SimulationResult.h"

namespace convoffload {

/// Throws std::invalid_argument when the problem itself is unsound
/// (Layer::problems / Hardware::problems non-empty).
SimulationResult simulate(const Problem &problem, const StepList &steps, const SimulationOptions &options = {});

/// The same result, the steps executed one at a time as `steps` expands them
/// (the step list is never held: a traced run of a big layer).
SimulationResult simulate(const Problem &problem, S1Expander &steps, const SimulationOptions &options = {});

} // namespace convoffload
