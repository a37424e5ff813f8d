// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Network-wide optimisation (`network --optimize`, the Network dock's
// Optimise network…): the search optimiser on every layer an S1 strategy can
// run on, one after the other, the time budget of the whole network shared
// in proportion to the layers' best heuristic durations. Each strategy found
// joins its layer's candidates (considerCandidate), so it becomes the best
// where it is shorter.
#include "convoffload/optimise/Optimiser.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

/// Where a network optimisation is: layer `layer` (an index of the
/// analysis) is the `position`-th (from 1) of the `count` optimised, with
/// its own time limit and the optimiser's latest progress (its incumbent).
struct NetworkOptimiseProgress {
    std::size_t layer = 0;
    std::size_t position = 0, count = 0;
    double time_limit_s = 0;
    OptimiseProgress progress;
};

struct NetworkOptimiseOptions {
    double time_limit_s = 10; // of the whole network
    OptimiseRequest request; // seed, moves, threads (the method is the search)
    std::string strategy_name = "Optimised (search)"; // made unique within each layer
    /// Raised by the caller: the layer being optimised stops and keeps its
    /// incumbent, the layers after it are not started.
    const std::atomic<bool> *cancel = nullptr;
    /// Called (on the calling thread) when a layer starts and with its
    /// optimiser's progress.
    std::function<void(const NetworkOptimiseProgress &)> progress;
};

/// What the optimiser gave one layer.
struct LayerOptimisation {
    std::size_t layer = 0; // index in the analysis
    double time_limit_s = 0;
    /// The strategy found (its name unique among the layer's candidates),
    /// nullopt when none (stopped before a first solution, or `note`).
    std::optional<StrategySpec> strategy;
    std::optional<double> duration; // the strategy's simulated duration
    bool improved = false; // it became the layer's best
    bool cancelled = false; // stopped early: the incumbent so far
    std::string note; // why the optimiser could not take the layer
};

/// A layer the optimiser did not take, and why (layerSkipReason).
struct SkippedLayer {
    std::size_t layer = 0; // index in the analysis
    std::string reason;
};

struct NetworkOptimisation {
    std::vector<LayerOptimisation> layers; // the layers started, in graph order
    std::size_t planned = 0; // layers an S1 strategy can run on
    /// The layers not optimisable, in graph order: a caller says which and
    /// why (a user took "Optimised 8 layers" for all of them, when the
    /// largest, with streamed kernels, had been left out).
    std::vector<SkippedLayer> skipped;
    bool cancelled = false;
};

/// Whether the optimiser runs on `layer`: its kernels fit and at least one
/// patch fits a step.
bool layerOptimisable(const LayerAnalysis &layer);
/// Why the optimiser does not run on `layer`, in words; empty when it does.
std::string layerSkipReason(const LayerAnalysis &layer);

/// Each layer's share of `total` seconds, in proportion to its best
/// duration (at least 1), at least 0.05 s; 0 for a layer not optimisable.
std::vector<double> networkTimeShares(const NetworkAnalysis &analysis, double total);

/// Optimises every optimisable layer of `analysis` in graph order and
/// updates it (candidates, best, total, dominating). A layer the optimiser
/// refuses (InstanceError) keeps its heuristics and says why in `note`.
NetworkOptimisation optimiseNetwork(NetworkAnalysis &analysis, const NetworkOptimiseOptions &options);

} // namespace convoffload
