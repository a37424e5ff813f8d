#pragma once
// The S1 fast path: simulates groups directly, without expanding them into
// step lists. One pass over the groups with a per-pixel stamp (which group
// last needed it) and load counter and a per-patch "computed" flag gives
// loads, frees, writes, footprints, durations, diagnostics and the functional
// check exactly as simulate(problem, expandS1(problem, groups), options)
// does, without the trace (the general executor builds that).
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

#include <optional>

namespace convoffload {

/// nullopt when a patch appears twice in the groups (the general executor
/// reports those recomputations) or when options.trace is set. Groups must be
/// non-empty with patch ids in range (groupsOf guarantees both). Throws like
/// simulate() on an unsound problem.
std::optional<SimulationResult> simulateS1Fused(const Problem &problem, const Groups &groups, const SimulationOptions &options);

} // namespace convoffload
