// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The state of every pixel and output at one moment of a simulated strategy:
// what the visualiser colours. Input is tracked per pixel slice (pixel,
// group) as the trace names it (docs/reference/model.md#grouped-and-dilated)
// and answered per pixel: with g = 1 a slice is its pixel. A moment is "after action a of step k"; the
// cursor replays the action-level trace to get there, forward incrementally,
// backward from the nearest checkpoint, so stepping stays cheap on big layers.
// Checkpoints hold a compact copy of the state (a byte per slice and output,
// load counts in a byte while they fit) and are few: at most
// kMaxCheckpoints, fewer when they would exceed the memory budget, evenly
// spaced over the strategy. The cursor's memory is thus a fixed multiple of
// the layer's size, whatever the number of steps, and a seek back replays at
// most one spacing (about an eighth of the steps, or all of them when even
// one checkpoint would exceed the budget).

#include "convoffload/simulate/Simulator.h"

#include <cstdint>
#include <vector>

namespace convoffload {

/// What a pixel is at a moment, relative to the step being shown.
enum class PixelState : std::uint8_t {
    Off, // not on chip, not freed in this step
    Kept, // on chip, kept from an earlier step
    Loaded, // loaded by this step (up to the moment)
    Freed // freed by this step (up to the moment) and not on chip
};

/// What an output element is at a moment.
enum class OutputState : std::uint8_t {
    Pending, // not computed yet
    OnChip, // computed by an earlier step, still on chip
    Computed, // computed by this step
    Written, // written back by this step
    Done // written back by an earlier step
};

struct Moment {
    int step = 0; // 0-based index into SimulationResult::steps
    Action action = Action::Compute; // the moment is right after this action
    bool operator==(const Moment &) const = default;
};

class StepCursor {
public:
    static constexpr int kMaxCheckpoints = 8;
    static constexpr std::size_t kDefaultCheckpointBudget = std::size_t(256) << 20; // bytes

    /// `result` must hold a trace (SimulationOptions::trace) and outlive the cursor.
    StepCursor(const Problem &problem, const SimulationResult &result, std::size_t checkpointBudget = kDefaultCheckpointBudget);

    int stepCount() const { return int(m_result->steps.size()); }
    const SimulationResult &result() const { return *m_result; }
    Moment moment() const { return m_moment; }
    /// Clamps to the strategy; cost O(ids touched between the two moments),
    /// or from the nearest checkpoint when going back.
    void seek(Moment moment);

    /// A pixel's state over its slices: Loaded when the moment's step loaded
    /// one that is on chip, else Freed when it freed one and none is on
    /// chip, else Kept when one is on chip, else Off (g = 1: its one slice).
    PixelState pixel(PixelId p) const;
    /// One slice's state, in the same terms.
    PixelState slice(SliceId s) const;
    /// How many of the pixel's g slices are on chip at the moment (0..g):
    /// a kernel-streaming step holds only the groups of its kernels.
    int slicesOnChip(PixelId p) const;
    /// The groups whose slice of the pixel is on chip, ascending.
    std::vector<int> groupsOnChip(PixelId p) const;
    /// A kernel's state at the moment, in the pixels' terms: loaded or freed
    /// by the moment's step, kept from an earlier one, or not on chip.
    PixelState kernel(KernelId k) const;
    OutputState output(OutputId o) const;
    /// Patch state for an output grid that shows one cell per patch: the most
    /// advanced state over its N outputs (Written > Computed > OnChip > Done > Pending).
    OutputState patch(PatchId p) const;
    /// Times a pixel has been loaded up to the moment (reload heat map): the
    /// most of its slices', as the reload bound is per element.
    std::uint32_t loadsSoFar(PixelId p) const;
    std::uint32_t sliceLoadsSoFar(SliceId s) const { return m_loads[s]; }
    std::uint32_t maxLoadsSoFar() const;
    /// Footprint after the moment's action.
    Footprint footprint() const;
    /// Patches computed by the moment's step (the "current group"), ascending.
    std::vector<PatchId> currentPatches() const;
    /// Kernels the moment's step computes with, ascending.
    std::vector<KernelId> currentKernels() const;
    /// 0-based steps that load a pixel (any of its slices), over the whole strategy.
    std::vector<int> stepsLoading(PixelId p) const;

    /// Steps between checkpoints (0: none, seeking back replays from the start).
    int checkpointSpacing() const { return m_checkpointEvery; }
    /// Bytes the checkpoints hold now, and the cursor's whole state with them.
    std::size_t checkpointBytes() const;
    std::size_t memoryBytes() const;

private:
    struct State {
        std::vector<std::uint8_t> input; // per slice: on chip
        std::vector<std::uint8_t> output; // 0 pending, 1 on chip, 2 written
        std::vector<std::uint8_t> loads8; // load counts when all fit in a byte...
        std::vector<std::uint32_t> loads32; // ... else these
        std::vector<std::uint8_t> kernels; // on chip
        std::size_t bytes() const { return input.size() + output.size() + loads8.size() + loads32.size() * 4 + kernels.size(); }
    };
    State snapshot() const;
    void resetTo(int checkpointStep);
    void applyStep(int step, int lastAction); // actions 0..lastAction of `step`
    void markStep(int step, int lastAction); // what the moment's step did
    void clearMarks();
    void countSlicesOnChip(); // m_slicesOn from m_input

    const Problem *m_problem;
    const SimulationResult *m_result;
    Moment m_moment{-1, Action::Compute}; // -1: nothing applied yet
    int m_group = 1; // slices per pixel
    std::vector<std::uint8_t> m_input, m_output; // per slice; per output
    std::vector<std::uint32_t> m_loads; // per slice
    std::vector<std::uint32_t> m_slicesOn; // per pixel when g > 1: its slices on chip (kept with m_input)
    std::vector<std::uint8_t> m_pixelMark, m_outputMark; // this step's loads/frees (per slice), computes/writes
    std::vector<SliceId> m_markedPixels;
    std::vector<OutputId> m_markedOutputs;
    std::vector<std::uint8_t> m_kernels, m_kernelMark; // on chip; this step's loads/frees
    std::vector<KernelId> m_markedKernels;
    int m_checkpointEvery = 0; // steps; 0: no checkpoints
    std::vector<std::pair<int, State>> m_checkpoints; // state after step k, every m_checkpointEvery steps
};

} // namespace convoffload
