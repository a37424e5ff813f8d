// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A solver-free optimiser for S1 strategies: compact tilings and the
// heuristics as starting points, then simulated annealing over group
// membership and group order with incremental (delta) evaluation.
//
// Two ways to run:
// - Anytime (SearchOptions::max_moves = 0): the search improves its best
//   strategy until OptimiseControl::time_limit_s, and stops earlier only when
//   it reaches lowerBound() (or on cancel). The result depends on timing.
// - With a move budget: each chain makes at most max_moves moves. For a given
//   instance, seed, budget and number of threads the result is the same on
//   every run and platform (chains do not exchange strategies; ties go to the
//   lowest chain), and with several threads it is never worse than with one
//   (chain 0 is the one-thread run). The time limit still caps the run.
// Chains run on SearchOptions::threads threads; OptimiseControl::cancel and
// the time limit stop all of them within a few milliseconds, and the result
// is the best strategy found so far (result.cancelled / result.timed_out say
// so). Progress is reported from the calling thread.
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <vector>

namespace convoffload {

struct SearchOptions {
    std::uint64_t seed = 1;
    std::int64_t max_moves = 0; // moves of each chain; 0 = none: until the time limit or the lower bound
    int threads = 0; // chains, one per thread; 0 = std::thread::hardware_concurrency()
    bool stop_at_lower_bound = true; // a strategy reaching the bound cannot be improved
};

/// Method "search". Status Optimal only when the duration reaches
/// lowerBound(instance), Feasible otherwise, NoSolution when no strategy satisfying every
/// constraint was found. Never worse than the best feasible heuristic; the
/// duration equals evaluate(instance, result.groups).duration.
OptimiseResult searchOptimise(const S1Instance &instance, const SearchOptions &options = {}, const OptimiseControl &control = {});

/// A move budget scaled to the instance (about a second on the paper's grid):
/// for callers that want a quick, reproducible search; the anytime search
/// spends it in its first rounds.
std::int64_t automaticMoveBudget(const S1Instance &instance);

/// Compact tilings used as starting points: bands of h output rows (or
/// columns) walked across in serpentine order, cut into groups of G, for every
/// band height h from 1 to min(G, extent). Each is evaluated; with exactly K_min
/// groups, as every cut of one order into groups of G. Those made before
/// `deadline` passes (a layer of a million patches has hundreds, each
/// evaluated in full).
std::vector<NamedGroups> tilingCandidates(const S1Instance &instance, const Deadline &deadline = {});

} // namespace convoffload
