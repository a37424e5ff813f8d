// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One entry point to the optimisers for the CLI, the GUI and the experiments:
// a problem and a request in, a validated `groups` strategy out.
#include "convoffload/optimise/KernelBlockedSearch.h"
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/S1InstanceBoundProof.h"
#include "convoffload/simulate/Comparison.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace convoffload {

/// Exact: a search for an incumbent, then the dynamic programming that proves
/// it or finds the optimum (ExactOptimiser.h), on layers of at most 64 outputs;
/// up to 128, the load-once proof.
enum class OptimiseMethod { Search, Ilp, Exact };
std::string optimiseMethodName(OptimiseMethod method); // "search", "ilp", "exact"
std::optional<OptimiseMethod> optimiseMethodFromName(const std::string &text);

struct OptimiseRequest {
    OptimiseMethod method = OptimiseMethod::Search;
    OptimiseSettings settings; // group size, group count rule
    std::uint64_t seed = 1; // search and exact
    std::int64_t max_moves = 0; // search and exact: moves of each chain; 0 = none, until the time limit or the bound
    int threads = 0; // search and exact: chains, one per thread; 0 = every hardware thread
    std::string worker_path; // ILP only; empty = next to the running executable
    /// ILP only: CBC's MIP start. The paper starts from the best heuristic;
    /// starting from a short search hands CBC a better incumbent, so its time
    /// goes into the bound. Without a feasible heuristic a search is used anyway.
    bool ilp_start_from_search = false;
    /// When the layer's kernels do not fit (kernelsFit false), search the
    /// kernel-blocked family instead of refusing (docs/reference/strategies.md#kernel-blocked). Off by default
    /// so that callers that only handle `groups` results (the GUI's dialog
    /// today) keep their refusal; the CLI's `optimize` sets it, and a caller
    /// that sets it must build its strategy with toStrategy().
    bool stream_kernels = false;
    /// With stream_kernels, the family members allowed (loop, B; G comes
    /// from settings.group_size). The search then regroups the best of them
    /// (regroupKernelBlocked); the ILP returns it as it is.
    FamilyChoice family;
    /// Search only: after the search, try to prove its strategy optimal by
    /// the relaxed optimum pruned by it (S1InstanceBoundProof.h), within
    /// these limits. Off by default: the search alone is what --moves reproduces.
    bool prove = false;
    std::int64_t prove_max_states = 40000000; // --prove and exact

    double prove_time_limit_s = 60;
};

/// What a caller shows about an optimisation: the result and what it is
/// measured against.
struct OptimiseReport {
    S1Instance instance;
    OptimiseResult result;
    std::optional<NamedGroups> best_heuristic; // feasible for the instance
    std::vector<NamedGroups> heuristics; // Row-by-Row and ZigZag, feasible or not
    double lower_bound = 0;
    /// Set when the layer's kernels do not fit (kernelsFit false): no S1
    /// strategy can run, so the optimiser tried every member of the
    /// kernel-blocked family and `result` is the best one (its groups are the
    /// member's patch groups); `instance` and the heuristics are then empty.
    std::optional<FamilyMember> kernel_blocked;
    std::int64_t kernel_blocked_tried = 0; // members simulated
    /// Method search on such a layer: the best member regrouped by the
    /// search; `result` holds its groups and exact duration.
    std::optional<RegroupResult> regrouped;
    std::optional<BoundProof> proof; // with request.prove
    /// With a transfer model (docs/reference/model.md#transfer-cost) on an
    /// S1 layer: the S1 optimisers and their bounds use the paper's linear
    /// cost, so the result and the heuristics are simulated again under the
    /// real cost here (durations by name, the result's first).
    std::vector<std::pair<std::string, double>> transfer_durations;

    /// (best heuristic - result) / best heuristic; nullopt when either is missing.
    std::optional<double> gainOverHeuristic() const;
};

/// Runs the requested method. A layer whose kernels do not fit
/// (kernelsFit false) has no S1 strategy: with request.stream_kernels every
/// member of the kernel-blocked family that request.family allows is
/// simulated instead (chosenMembers) and the best is the result; the
/// search method then regroups its patches (regroupKernelBlocked, within
/// the time left), never ending worse than that member. Throws InstanceError when the
/// problem cannot be optimised (invalid layer, G above nb_patches_max, one
/// patch too big for the memory, no valid kernel-blocked member); solver
/// trouble is a Failed result, not an exception.
OptimiseReport optimise(const Problem &problem, const OptimiseRequest &request, const OptimiseControl &control);

/// The result as a project strategy: "groups"; when the kernels do not fit,
/// "steps" for a regrouped member, else "kernel-blocked" with its parameters.
StrategySpec toStrategy(const OptimiseReport &report, const std::string &name);

nlohmann::ordered_json optimiseReportToJson(const OptimiseReport &report);
std::string optimiseReportToText(const OptimiseReport &report);

} // namespace convoffload
