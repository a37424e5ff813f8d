// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one entry point that simulates a strategy spec (S1 groups, a generator,
// compute steps, kernel-blocked): every caller that has a spec, not steps,
// comes here, so all of them take the same fastest exact route.
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

namespace convoffload {

/// Simulates one strategy of a problem. The fused pass (FusedSimulation.h)
/// when no trace is asked and no output is computed twice, for every kind
/// (S1 groups or compute steps); otherwise expandStrategy + the general
/// executor. Both give the same result. Throws StrategyError when the spec
/// cannot be expanded.
SimulationResult simulateStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options);

} // namespace convoffload
