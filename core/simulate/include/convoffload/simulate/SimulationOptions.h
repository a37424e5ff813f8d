// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How to run a simulation: trace, functional check, tensors, cancel, progress.
#include "convoffload/model/TensorData.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>

namespace convoffload {

/// Thrown by simulate() when SimulationOptions::cancel is raised.
struct Cancelled : std::runtime_error {
    Cancelled()
        : std::runtime_error("cancelled")
    {
    }
};

struct SimulationOptions {
    bool trace = true;
    bool functional = true;
    std::uint64_t seed = 1; // for generated tensors
    const TensorData *data = nullptr; // explicit tensors instead of seeded ones
    /// Off: no per-step stats, only their totals (SimulationResult::totals),
    /// for summaries; the memory then does not grow with the number of steps.
    bool step_stats = true;
    bool keep_output = false; // functional: hand back the DRAM output (FunctionalResult::dram_output)
    int max_diagnostics_per_rule = 50; // the rest are counted, not listed
    /// Long runs (big layers, sweeps) poll this every few hundred steps and
    /// throw Cancelled when it is set; another thread may set it.
    const std::atomic<bool> *cancel = nullptr;
    /// Called every few hundred steps with (steps done, steps in all).
    std::function<void(std::size_t, std::size_t)> progress;
};

} // namespace convoffload
