#pragma once
// One entry point that simulates any strategy spec by the fastest exact route.
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

namespace convoffload {

/// The fused S1 pass (FusedS1.h) for the S1 kinds when no trace is asked and
/// no patch repeats; otherwise expandStrategy + the general executor. Both
/// give the same result. Throws StrategyError when the spec cannot be expanded.
SimulationResult simulateStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options);

} // namespace convoffload
