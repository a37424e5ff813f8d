// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A whole network at a glance (docs/reference/cli.md#network `network`): for every layer, whether
// its kernels fit on chip, the strategies tried (the project's own and the
// generated heuristics, kernel-streaming ones where the kernels do not fit),
// the shortest valid one and the assumptions it breaks; the network's total
// and the layers that dominate it.
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/model/Network.h"
#include "convoffload/model/StrategyFamily.h"
#include "convoffload/simulate/Comparison.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace convoffload {

class CandidateCache;

/// All N kernels fit on chip next to one patch and its N outputs:
/// N·K + C_in·H_K·W_K + N ≤ mem_size with K = (C_in/g)·H_K·W_K. When they do not, an S1
/// strategy (every kernel kept on chip) cannot be valid.
/// (Memory only; `kernelsFit` of KernelBlockedFamily.h also asks that one
/// patch with all N kernels stays within nbop_pe.)
bool kernelsFitOnChip(const Problem &problem);

/// The strategies `network` generates for a layer, each the head of a chain
/// of group sizes (analyseLayer): S1-baseline, Row-by-Row and ZigZag when
/// nb_patches_max ≥ 1 and the kernels fit; and, whether or not they fit,
/// kernel-blocked in both orders and both loops for every power of two
/// B < N up to largestKernelBlock, largest first (B = N is an S1 heuristic,
/// and fits only where they are generated). The blocks do not depend on mem_size and each condition
/// only turns true with more memory, so more memory only adds candidates.
std::vector<StrategySpec> generatedStrategies(const Problem &problem);

/// A lower bound on the duration of any strategy of the layer that makes
/// `computeSteps` compute steps: every output written once, t_acc per
/// compute step, and every input element some patch reads and (unless
/// kernels are preloaded) every kernel element loaded once, again in each of
/// `inputPasses` (`kernelPasses`) runs of steps that each need them all, but
/// for the mem_size elements that can be on chip when a run begins. On a
/// grouped layer, input passes of kernel blocks of `kernelBlock` (> 0) need
/// only their blocks' groups' slices (docs/reference/model.md#grouped-and-dilated).
double durationLowerBound(const Problem &problem, std::int64_t computeSteps, std::int64_t inputPasses = 1,
    std::int64_t kernelPasses = 1, std::int64_t kernelBlock = 0);

/// A generated strategy (S1-baseline, Row-by-Row, ZigZag, kernel-blocked)
/// of a dense layer, bounded from one walk of its patch order instead of a
/// simulation of its steps (docs/reference/cli.md#network): its input and
/// kernel loads counted exactly, every output written once, t_acc a step.
/// Under the linear cost that is its duration; a transfer model only adds
/// to it. nullopt for any other spec or a grouped layer.
std::optional<double> generatedLowerBound(const Problem &problem, const StrategySpec &spec);

/// The strategies an import stores with a layer (`--strategies default`):
/// S1-baseline, Row-by-Row and ZigZag when the kernels fit and
/// nb_patches_max ≥ 1; otherwise kernel-blocked ZigZag with B_max, kernels
/// outer and patches outer (none when not even one kernel fits). A
/// generator whose groups overflow the memory is shrunk until they fit, by
/// simulating it; on a layer whose simulation the work estimate puts over
/// half a second, Row-by-Row's and ZigZag's G is instead the largest whose
/// groups fit with every window loaded whole (an import stays quick).
std::vector<StrategySpec> defaultLayerStrategies(const Problem &problem);

/// defaultLayerStrategies of each problem, on `threads` threads (0: one
/// per hardware thread), equal problems worked out once: the same as one
/// call per problem.
std::vector<std::vector<StrategySpec>> defaultStrategiesOf(const std::vector<Problem> &problems, std::size_t threads = 0);

/// One tried strategy and what the simulation said.
struct LayerCandidate {
    StrategySpec spec;
    CompareRow row;
    /// The assumptions it breaks: one line per rule that reported (warnings
    /// for a valid strategy, errors first otherwise) with its first finding;
    /// the counts are the row's errors and warnings.
    std::vector<std::string> broken;
};

struct LayerAnalysis {
    std::string name;
    Problem problem;
    bool kernels_fit = false;
    std::int64_t nb_patches_max = 0;
    std::vector<LayerCandidate> candidates; // the project's strategies first, then the generated ones
    std::ptrdiff_t best = -1; // shortest valid candidate; -1 when none is valid

    const LayerCandidate *bestCandidate() const { return best < 0 ? nullptr : &candidates[std::size_t(best)]; }
    /// The best's duration, 0 when there is none.
    double duration() const;
    /// The shortest valid candidate of `family` (the first of equals, as
    /// `best`); nullptr when the family has none valid.
    const LayerCandidate *bestOf(StrategyFamily family) const;
};

struct NetworkAnalysis {
    std::vector<LayerAnalysis> layers;
    std::vector<SkippedConv> skipped;
    double total_duration = 0; // sum of the layers' best durations
    std::int64_t layers_without_valid = 0;
    /// Layer indices by decreasing duration: the fewest whose durations make
    /// at least half of the total.
    std::vector<std::size_t> dominating;

    /// The convolutions of the model: the layers and the skipped ones (1 for
    /// a version-1 project).
    std::int64_t convolutions() const { return std::int64_t(layers.size() + skipped.size()); }
    /// Every convolution of the model imported, every layer with a valid
    /// best: only then is total_duration the network's
    /// (docs/reference/cli.md#network `complete`).
    bool complete() const { return skipped.empty() && layers_without_valid == 0; }
};

struct NetworkAnalysisOptions {
    bool generate = true; // false: only the project's own strategies
    /// Polled between simulations; raising it throws Cancelled.
    const std::atomic<bool> *cancel = nullptr;
    /// Called with (layers done, layers), from one thread at a time, before
    /// the first layer and after each.
    std::function<void(std::size_t, std::size_t)> progress;
    /// Layers analysed at once, each on its own thread; 0: as many as the
    /// machine has cores. The result does not depend on it.
    int threads = 0;
    /// Runs of generated strategies shared across analyses (CandidateCache.h):
    /// best, validity, durations and peaks are those of a fresh analysis; a
    /// candidate invalid only for its memory counts one memory-overflow
    /// error and says so in one `broken` line, where a fresh run lists its
    /// first finding. Null: every candidate is simulated.
    CandidateCache *cache = nullptr;
};

/// Simulates (no trace, no functional check) the candidates of one layer:
/// the project's own, then the grid of every generated strategy at its own
/// group size G (the op limit's), G/4, G/16, … and 1: the heuristics at their own group size
/// first, then by increasing durationLowerBound, stopping at the first that
/// cannot beat the best so far (so the best is the whole grid's). A candidate whose simulation the work estimate puts over the
/// budget is not run (its failure says so).
LayerAnalysis analyseLayer(const std::string &name, const Problem &problem, const std::vector<StrategySpec> &own,
    const NetworkAnalysisOptions &options = {});

/// Simulates one more candidate of a layer (an optimised strategy) and makes
/// it the best when it is valid and shorter.
void considerCandidate(LayerAnalysis &layer, const StrategySpec &spec);

NetworkAnalysis analyseNetwork(const Network &network, const NetworkAnalysisOptions &options = {});

/// What analyseNetwork will cost before it starts: the work estimate of
/// every candidate of every layer (the project's own, and the generated ones
/// unless `generate` is false) simulated one after the other; the memory of
/// `threads` layers held at once (at most the number of layers).
WorkEstimate estimateNetworkAnalysis(const Network &network, bool generate, std::size_t threads);

/// Recomputes the total, the count of layers without a valid strategy and
/// the dominating layers (after considerCandidate).
void summariseNetwork(NetworkAnalysis &analysis);

} // namespace convoffload
