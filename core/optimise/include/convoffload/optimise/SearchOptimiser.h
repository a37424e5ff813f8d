#pragma once
// A solver-free optimiser for S1 strategies: compact tilings and the
// heuristics as starting points, then simulated annealing over group
// membership and group order with incremental (delta) evaluation.
//
// Determinism: for a given instance, seed and move budget the result is the
// same on every run and platform. OptimiseControl::time_limit_s and
// OptimiseControl::cancel are safety caps: when either cuts the run short the
// result is the best strategy found so far, which then depends on timing
// (result.timed_out / result.cancelled say so).
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <vector>

namespace convoffload {

struct SearchOptions {
    std::uint64_t seed = 1;
    std::int64_t max_moves = 0; // 0 = automatic, scaled by instance size
    bool stop_at_lower_bound = true; // a strategy reaching the bound cannot be improved
};

/// Method "search". Status Optimal only when the duration reaches
/// lowerBound(instance), Feasible otherwise, NoSolution when no strategy satisfying every
/// constraint was found. Never worse than the best feasible heuristic; the
/// duration equals evaluate(instance, result.groups).duration.
OptimiseResult searchOptimise(const S1Instance &instance, const SearchOptions &options = {}, const OptimiseControl &control = {});

/// The move budget used when SearchOptions::max_moves is 0.
std::int64_t automaticMoveBudget(const S1Instance &instance);

/// Compact tilings used as starting points: bands of h output rows (or
/// columns) walked across in serpentine order, cut into groups of G, for every
/// band height h from 1 to min(G, extent). Each is evaluated; with exactly K_min
/// groups, as every cut of one order into groups of G.
std::vector<NamedGroups> tilingCandidates(const S1Instance &instance);

} // namespace convoffload
