// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Method "exact": a search for an incumbent, a beam of the dynamic
// programming that may improve it, then the dynamic programming of
// S1InstanceBound.h pruned by it (the proof of `--prove`), within one time
// limit. When the dynamic programming ends, nothing beats the incumbent even
// with the reload bound dropped (proven optimal), or its best ordered
// partition is below the incumbent: that partition is rebuilt, and when it
// respects the reload bound it is the optimum itself; otherwise its duration
// is the bound. Beyond the dynamic programming's reach (over 64 patches or
// 256 needed pixels), or when a cap, the time limit or Stop ends it, the
// result is the search's strategy with the best bound known (status
// feasible, with its gap) and the proof says why.
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/S1InstanceBoundProof.h"
#include "convoffload/optimise/SearchOptimiser.h"

#include <cstdint>

namespace convoffload {

struct ExactOptions {
    SearchOptions search; // the incumbent's search
    /// Share of the time limit the search may use when the proof can run
    /// (it stops earlier at a proven bound); the proof has the rest.
    double search_share = 0.15;
    /// Share of the time limit for the beam of the dynamic programming
    /// (PartitionBoundLimits::beam_width) after the search: widths 250,
    /// 2000, 16 000 while the share lasts, each result a candidate incumbent.
    double beam_share = 0.15;
    /// On layers beyond the dynamic programming but of at most 128 patches:
    /// the share of the time for the complete load-once search after the
    /// search (a strategy loading every pixel once is optimal; none raises
    /// the bound by one).
    double load_once_share = 0.5;
    std::int64_t max_states = 40000000; // the proof's cap, under 3 GB
};

struct ExactOutcome {
    OptimiseResult result; // method "exact"
    BoundProof proof;
};

/// What the exact method can settle on an instance, known before it runs
/// (the Optimise dialog says it when the method is chosen).
enum class ExactReach {
    Proof, // up to 64 patches and 256 needed pixels: the dynamic programming
    LoadOnceOnly, // up to 128 patches: only whether a strategy loads every pixel once
    SearchOnly, // beyond: the search's strategy and the bound, never a proof
};
ExactReach exactReach(const S1Instance &instance);

ExactOutcome exactOptimise(const S1Instance &instance, const ExactOptions &options, const OptimiseControl &control);

/// The proof step after a search (`--prove`, and the second half of
/// exactOptimise): proves or bounds `result` in place (status, lower bound,
/// seconds, history) and reports progress on `control`, its seconds counted
/// after the search's.
BoundProof proveSearchResult(
    const S1Instance &instance, OptimiseResult &result, const BoundProofLimits &limits, const OptimiseControl &control);

} // namespace convoffload
