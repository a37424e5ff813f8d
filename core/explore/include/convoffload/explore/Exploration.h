// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One design point of an exploration evaluated as `network` would on that
// hardware, and written as one self-contained JSON Lines line
// (docs/reference/explore.md).
#include "convoffload/explore/DesignSpace.h"
#include "convoffload/model/Network.h"
#include "convoffload/optimise/NetworkOptimisation.h"
#include "convoffload/simulate/CandidateCache.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

/// What decides a point's result beyond the target and the lists.
struct ExploreOptions {
    bool generate = true; // false: the target's own strategies only (--own-only)
    /// Seconds of the search optimiser per point (`network --optimize`); 0: none.
    double optimise_s = 0;
    std::uint64_t seed = 1; // the CLI's --seed default, so default options name the CLI's run
    std::optional<std::int64_t> moves; // the search's move budget: with a seed, reproducible
    int threads = 0; // layers analysed at once (0: the cores); never changes a result
    const std::atomic<bool> *cancel = nullptr; // raising it throws Cancelled
    /// Runs shared between points that differ in mem_size alone, and between
    /// identical layers (CandidateCache.h); never changes a line. Null: none.
    CandidateCache *cache = nullptr;
};

/// The run id: 16 hex digits hashing the target file's bytes, the lists,
/// the options that change results and the program's version, so lines of
/// different runs never mix and every shard of one run agrees.
std::string exploreRunId(const std::string &targetBytes, const DesignSpace &space, std::int64_t maxPoints,
    const ExploreOptions &options, const std::string &version);

struct ExploredLayer {
    std::string name;
    /// The best valid strategy, as `network` chooses it; nullopt when none is valid.
    std::optional<std::string> strategy;
    double duration = 0;
    std::int64_t peak_footprint = 0;
};

struct ExploredPoint {
    std::int64_t point = 0;
    Hardware hardware;
    std::vector<ExploredLayer> layers;
    std::int64_t skipped = 0; // convolutions of the model that are not layers
    double total_duration = 0; // Σ of the layers' best durations
    bool all_valid = false; // every layer has a valid best
};

/// Analyses `target` on the hardware of `point` (analyseNetwork, then
/// optimiseNetwork when options.optimise_s > 0). No functional check runs.
ExploredPoint explorePoint(const Network &target, const DesignSpace &space, std::int64_t point, const ExploreOptions &options);

/// The point as one line of JSON without its newline: run, point, points,
/// hardware, layers, skipped, total_duration, all_valid. The same point
/// always gives the same bytes.
std::string exploreLine(const std::string &runId, std::int64_t points, const ExploredPoint &result);

} // namespace convoffload
