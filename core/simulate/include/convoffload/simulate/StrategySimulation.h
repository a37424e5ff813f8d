#pragma once
// One entry point that simulates any strategy spec by the fastest exact route.
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

namespace convoffload {

/// The fused pass (FusedSimulation.h) when no trace is asked and no output
/// is computed twice, for every kind (S1 groups or compute steps); otherwise
/// expandStrategy + the general executor. Both give the same result. Throws
/// StrategyError when the spec cannot be expanded.
SimulationResult simulateStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options);

} // namespace convoffload
