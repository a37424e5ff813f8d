// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a caller follows and stops any optimiser: time limit, cancel, progress.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace convoffload {

/// One point of the live progress chart. Durations use the problem's units.
struct OptimiseProgress {
    double seconds = 0;
    std::optional<double> incumbent; // best valid duration so far
    std::optional<double> bound; // best proven lower bound so far
};
using ProgressCallback = std::function<void(const OptimiseProgress &)>;

/// What an optimiser is doing, for a live status: on a large layer the ILP
/// spends seconds building and writing its model before CBC reports
/// anything, and a status that only follows the progress points stood still
/// on the start strategy's numbers for the whole run.
enum class OptimisePhase {
    Preparing, // the instance, the heuristics, the bounds
    Searching, // the search (also the ILP's short start search)
    Exact, // the exact method: searching, then proving
    BuildingModel, // the ILP's model in memory
    WritingModel, // the model written as MPS for the CBC worker
    Solving, // CBC runs
    Simulating, // strategies simulated (the kernel-blocked family, the transfer model, CBC's answer checked)
};
std::string optimisePhaseName(OptimisePhase phase); // "preparing", "searching", ... "simulating"

struct OptimiseControl {
    double time_limit_s = 10;
    const std::atomic<bool> *cancel = nullptr; // raised by the caller to stop early
    ProgressCallback progress; // called from the thread that called the optimiser, at most ~20 times a second
    /// During a search's `--prove` (OptimiseRequest::prove): the states the
    /// relaxed bound kept so far and its seconds, as often as `progress`.
    std::function<void(std::int64_t states, double seconds)> proof_progress;
    /// Called when the optimiser enters a phase, with the seconds since it
    /// was called, from the same thread as `progress`.
    std::function<void(OptimisePhase phase, double seconds)> phase;
};

} // namespace convoffload
