// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the simulate library: what both executors (the general one of
// Simulator.cpp and the fused pass of FusedSimulation.cpp) share — the run's
// problem and options, the result being built with its reporter, the
// functional simulation, the on-chip counts — and the parts of a run that are
// the same in both: polling for cancel and progress, the DRAM check at the
// start and the hand-over at the end.

#include "ChipMemory.h"
#include "ReloadTally.h"
#include "Reporter.h"

#include "convoffload/simulate/SimulationOptions.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace convoffload::detail {

/// Throws std::invalid_argument naming the layer's or the hardware's first problem.
void requireSound(const Problem &problem);

class Executor {
protected:
    Executor(const Problem &problem, const SimulationOptions &options);

    static constexpr std::size_t kPollEvery = 256; // steps between polls

    /// Throws Cancelled when the cancel flag is raised; reports progress.
    void poll(std::size_t done, std::size_t total) const;
    Footprint footprint() const
    {
        return {m_pixelsOnChip * m_inputUnitElements, m_kernelsOnChip * m_layer.kernelElements(), m_outputsOnChip};
    }
    /// After an action: the footprint, into the step's peak and final
    /// footprint, and the finding when it exceeds the memory; returns it.
    /// Always inlined: both executors call it six times per step, and as a
    /// call it cost the fused pass 4 %.
    [[gnu::always_inline]] Footprint noteFootprint(int step, Action action)
    {
        const Footprint now = footprint();
        StepStats &stats = m_result.steps.back();
        stats.peak_footprint = std::max(stats.peak_footprint, now.total());
        stats.after = now;
        if (now.total() > m_problem.hardware.mem_size) [[unlikely]]
            m_reporter.memoryOverflow(step, action, now, m_problem.hardware.mem_size);
        return now;
    }
    /// The finding when the tensors do not fit in DRAM.
    void checkDram();
    /// The end of a run: the functional verdict, the findings errors first
    /// (each kind in step order), the load counts and the reload tally handed over and, without
    /// step stats, the steps folded into their totals.
    SimulationResult finish(std::vector<std::uint32_t> &&inputLoads, std::vector<std::uint32_t> &&kernelLoads);

    const Problem &m_problem;
    const Layer &m_layer;
    const SimulationOptions &m_options;
    SimulationResult m_result;
    Reporter m_reporter;
    ReloadTally m_reload; // the reload assumption, tallied in full
    TensorData m_seeded; // the functional simulation's tensors when none are given
    std::optional<ChipMemory> m_chip; // the functional simulation, when asked
    // Input units on chip and their size: slices of C_in/g elements in the
    // general executor, whole pixels (every slice) in the fused S1 pass.
    std::int64_t m_pixelsOnChip = 0, m_kernelsOnChip = 0, m_outputsOnChip = 0;
    std::int64_t m_inputUnitElements;
};

} // namespace convoffload::detail
