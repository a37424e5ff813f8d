// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a caller follows and stops any optimiser: time limit, cancel, progress.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

namespace convoffload {

/// One point of the live progress chart. Durations use the problem's units.
struct OptimiseProgress {
    double seconds = 0;
    std::optional<double> incumbent; // best valid duration so far
    std::optional<double> bound; // best proven lower bound so far
};
using ProgressCallback = std::function<void(const OptimiseProgress &)>;

struct OptimiseControl {
    double time_limit_s = 10;
    const std::atomic<bool> *cancel = nullptr; // raised by the caller to stop early
    ProgressCallback progress; // called from the thread that called the optimiser, at most ~20 times a second
    /// During a search's `--prove` (OptimiseRequest::prove): the states the
    /// relaxed bound kept so far and its seconds, as often as `progress`.
    std::function<void(std::int64_t states, double seconds)> proof_progress;
};

} // namespace convoffload
