// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The schedule as a Chrome Trace Event file that Perfetto and
// chrome://tracing open (docs/reference/trace.md): one cost unit = 1 µs, a
// "Steps" track and one track per timed action, counters for the
// footprint and the capacity.

#include "convoffload/model/ComputeStep.h"
#include "convoffload/model/Problem.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/SimulationResult.h"

#include <string>

namespace convoffload {

/// The trace of `result` (which must hold per-step stats) of `spec`, whose
/// compute steps are `plan` (computeStepsOf): JSON text, one event a line.
std::string traceToJson(
    const Problem &problem, const StrategySpec &spec, const ComputeSteps &plan, const SimulationResult &result);

} // namespace convoffload
