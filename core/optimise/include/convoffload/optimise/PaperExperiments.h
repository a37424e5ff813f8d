// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The paper's ILP evaluation (section 7) made repeatable: square inputs of
// H_in = W_in pixels, a 3x3 kernel, stride 1, one kernel, groups of at most G
// patches, duration Σ|I_slice| + n (t_l = t_acc = 1, kernels preloaded, writes
// free), exactly K_min groups. Memory is sized as the paper assumes: enough for
// every kernel, G whole patches and their outputs.
#include "convoffload/optimise/Optimiser.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

/// The layer and hardware of one instance. The reload bound is set to
/// H_K·W_K = 9, which no S1 strategy can exceed (a pixel lies in at most nine
/// patches), so the heuristics stay valid MIP starts as in the paper.
Problem paperInstance(int inputSize, int groupSize);

struct ExperimentGrid {
    int size_from = 4, size_to = 12; // H_in = W_in
    int group_from = 2, group_to = 10; // G
    /// Search (the default) or Exact. Exact spends the time limit on each
    /// instance (a search, then the proof), so it proves what it can.
    OptimiseMethod method = OptimiseMethod::Search;
    double search_time_limit_s = 10;
    /// 0 = automaticMoveBudget() for the search, none for exact (the time
    /// limit ends it); the time limit caps it.
    std::int64_t search_max_moves = 0;
    /// The search without a move budget: the anytime search, until
    /// search_time_limit_s or its lower bound (the CLI's explicit --time-limit).
    bool search_anytime = false;
    int threads = 0; // of the search; 0 = every hardware thread
    std::uint64_t seed = 1;
    double ilp_time_limit_s = 0; // 0: the ILP is not run
    std::string worker_path; // CBC worker; empty = next to the running executable
    bool ilp_start_from_search = false; // see OptimiseRequest

    /// The instances of the grid, every size with every G.
    int instances() const { return std::max(0, size_to - size_from + 1) * std::max(0, group_to - group_from + 1); }
};

struct ExperimentRow {
    int input_size = 0, group_size = 0;
    std::int64_t patches = 0, min_groups = 0;
    double row_by_row = 0, zigzag = 0;
    double s1_baseline = 0; // one patch per step (n = patches, not K_min): the paper's reference
    double lower_bound = 0; // the best known: simple bound or CBC's
    OptimiseResult search; // or exact's, with ExperimentGrid::method Exact
    std::optional<OptimiseResult> ilp;

    double bestHeuristic() const { return std::min(row_by_row, zigzag); }
    /// Best valid optimised duration (search or CBC).
    double bestOptimised() const;
    /// (best heuristic - best optimised) / best heuristic: the paper's gain figure.
    double gain() const { return (bestHeuristic() - bestOptimised()) / bestHeuristic(); }
    /// (best optimised - lower bound) / best optimised.
    double gap() const { return (bestOptimised() - lower_bound) / bestOptimised(); }
    /// The best optimised strategy meets the lower bound (to rounding: CBC's
    /// bound is a float): it is optimal.
    bool proven() const { return bestOptimised() <= lower_bound + 1e-6; }
    /// Stopped before its time limit and not proven: its figures are the
    /// best so far, not the instance's result.
    bool stopped() const { return !proven() && (search.cancelled || (ilp && ilp->cancelled)); }
};

/// Called after each instance with its row and the count done so far.
using ExperimentProgress = std::function<void(const ExperimentRow &, int done, int total)>;

/// Called while an instance runs (its input size and G) with the
/// optimiser's progress: incumbent, bound, seconds into the instance. An
/// exact run can take the whole time limit on one instance.
using ExperimentInstanceProgress = std::function<void(int input_size, int group_size, const OptimiseProgress &)>;

std::vector<ExperimentRow> runPaperExperiments(const ExperimentGrid &grid, const std::atomic<bool> *cancel = nullptr,
    const ExperimentProgress &progress = {}, const ExperimentInstanceProgress &running = {});

std::string experimentsToCsv(const std::vector<ExperimentRow> &rows);
std::string experimentsToText(const std::vector<ExperimentRow> &rows);
nlohmann::ordered_json experimentsToJson(const std::vector<ExperimentRow> &rows);

} // namespace convoffload
