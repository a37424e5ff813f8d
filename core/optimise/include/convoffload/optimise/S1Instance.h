// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The optimisation problem of the paper's section 5 in the compact form every
// optimiser shares (the ILP, the search, the lower bound, solution import):
// which pixels each patch needs, the limits every group must respect and the
// duration of an ordered partition, without expanding it into steps.
#include "convoffload/model/Problem.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/optimise/Deadline.h"
#include "convoffload/optimise/S1TransferCost.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace convoffload {

/// The paper fixes the number of groups to K_min to keep the ILP small; the
/// other choice allows any number up to a cap (more computes, maybe fewer loads).
enum class GroupCount { ExactlyKMin, AtMostCap };

struct OptimiseSettings {
    std::optional<std::int64_t> group_size; // G; default nb_patches_max
    GroupCount group_count = GroupCount::ExactlyKMin;
    std::int64_t max_groups = 0; // AtMostCap only; 0 = one group per patch
};

struct InstanceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct S1Instance {
    Layer layer; // for positions and names
    std::int64_t patches = 0;
    std::int64_t pixels = 0; // pixel ids are in [0, pixels): the padded grid
    /// Sorted pixels each patch needs loaded (padding excluded when it is
    /// synthesised on chip).
    std::vector<std::vector<PixelId>> patch_pixels;
    /// Sorted union of every patch's pixels: what any strategy loads at least once.
    std::vector<PixelId> needed_pixels;

    std::int64_t group_size = 1; // G
    std::int64_t min_groups = 1; // K_min = ceil(patches / G)
    std::int64_t max_groups = 1; // == min_groups with GroupCount::ExactlyKMin
    GroupCount group_count = GroupCount::ExactlyKMin;

    // Memory of a step, in elements: C_in per pixel of U(g), N outputs per
    // patch of g, and every kernel (S1 keeps them all on chip).
    std::int64_t mem_size = 0;
    std::int64_t elements_per_pixel = 1;
    std::int64_t elements_per_patch = 1;
    std::int64_t fixed_elements = 0;
    int max_loads_per_pixel = 2;

    // Duration = cost_per_pixel_load·Σ|I_slice| + cost_per_group·n + constant_cost,
    // the constant being the kernel loads (unless preloaded) and every output
    // written once: exactly what the simulator reports for the expanded groups.
    double cost_per_pixel_load = 1;
    double cost_per_group = 1;
    double constant_cost = 0;

    /// Set (by the caller that minimises it, never by makeS1Instance): the
    /// transfer model's cost replaces the linear one in evaluate() and in
    /// the search. Every linear duration is a lower bound of it (a run of m
    /// elements touches at least m/B blocks), so the bounds stay sound.
    std::optional<S1TransferCost> transfer;

    bool fitsMemory(std::int64_t unionPixels, std::int64_t groupPatches) const
    {
        return unionPixels * elements_per_pixel + groupPatches * elements_per_patch + fixed_elements <= mem_size;
    }
    double duration(std::int64_t loadedPixels, std::int64_t groups) const
    {
        return cost_per_pixel_load * double(loadedPixels) + cost_per_group * double(groups) + constant_cost;
    }
};

/// Throws InstanceError naming the reason: the problem is invalid, G is below 1
/// or above nb_patches_max, a single patch does not fit the memory, or the cap
/// on groups is below K_min. Throws TimeLimitReached once `deadline` passes
/// (a layer of 16 M patches takes seconds to set up).
S1Instance makeS1Instance(const Problem &problem, const OptimiseSettings &settings = {}, const Deadline &deadline = {});

struct S1Evaluation {
    bool feasible = false;
    std::string violation; // the first broken constraint, in words; empty when feasible
    std::string rule_violation; // the first broken constraint other than the reload bound
    std::int64_t reload_pixels
        = 0; // pixel slices (pixels when g = 1) loaded more than max_loads_per_pixel times (the paper's assumption)
    std::int64_t loaded_pixels = 0; // Σ|I_slice| counted in pixels
    std::int64_t groups = 0;
    double duration = 0; // meaningful when every patch is placed once; under `transfer`, its cost
};

/// Checks every constraint of the problem (each patch exactly once, group size,
/// group count, memory, reload bound) and computes the duration.
S1Evaluation evaluate(const S1Instance &instance, const Groups &groups);

/// How groups fare, in the words the simulator's verdict uses: empty when
/// feasible; "breaks the problem: …" for any constraint but the reload bound;
/// "runs correctly, breaks the reload assumption on 840 pixels" otherwise.
std::string evaluationVerdict(const S1Evaluation &evaluation);

/// Every needed pixel loaded once and K_min computes, raised by the segment
/// bound where it applies (SegmentBound.h).
double lowerBound(const S1Instance &instance);

struct NamedGroups {
    std::string name;
    Groups groups;
    S1Evaluation evaluation;
};

/// Row-by-Row and ZigZag with group size G, each evaluated, in that order.
/// Throws TimeLimitReached when `deadline` passes before the second.
std::vector<NamedGroups> heuristicCandidates(const S1Instance &instance, const Deadline &deadline = {});

/// The feasible candidate of least duration; nullopt when none is feasible.
std::optional<NamedGroups> bestFeasible(const std::vector<NamedGroups> &candidates);

/// The feasible heuristic of least duration; nullopt when none is feasible.
std::optional<NamedGroups> bestFeasibleHeuristic(const S1Instance &instance);

} // namespace convoffload
