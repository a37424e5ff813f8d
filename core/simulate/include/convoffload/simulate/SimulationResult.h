// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a simulation reports: per-step statistics, the located findings, the
// action-level trace and the functional check's verdict.
#include "convoffload/model/Diagnostic.h"
#include "convoffload/model/Step.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

/// On-chip occupancy in elements.
struct Footprint {
    std::int64_t input = 0, kernels = 0, output = 0;
    std::int64_t total() const { return input + kernels + output; }
    bool operator==(const Footprint &) const = default;
};

/// What one action did: the ids it touched and the footprint after it.
struct ActionRecord {
    Action action = Action::FreeInput;
    std::uint32_t begin = 0, end = 0; // range into Trace::ids
    Footprint after;
};

/// The action-level trace: 6 records per step, ids in one flat arena so the
/// cost stays linear in what the strategy touches.
struct Trace {
    std::vector<ActionRecord> actions;
    std::vector<std::uint32_t> ids;
    const ActionRecord &record(int stepIndex, Action a) const { return actions[std::size_t(stepIndex) * kActionCount + int(a)]; }
    std::vector<std::uint32_t> idsOf(int stepIndex, Action a) const;
};

struct StepStats {
    std::int64_t freed_input = 0; // elements
    std::int64_t freed_kernels = 0; // elements
    std::int64_t written = 0; // elements (outputs)
    std::int64_t loaded_input = 0; // elements
    std::int64_t loaded_kernels = 0; // elements
    std::int64_t computed = 0; // outputs
    std::int64_t peak_footprint = 0; // max over the step's actions
    Footprint after; // after the step's last action
    double load_duration = 0, write_duration = 0, compute_duration = 0;
    double kernel_load_duration = 0; // the kernel loads' part of load_duration (0 when preloaded)
    double duration() const { return load_duration + write_duration + compute_duration; }
    bool drain = false;
    // The transfer model (docs/reference/model.md#transfer-cost), counted
    // only when the hardware has one: DMA runs and aligned bursts of the
    // loads (input and paid kernel loads) and of the writes, and the set-up
    // part of load_duration + write_duration.
    std::int64_t load_runs = 0, load_bursts = 0, write_runs = 0, write_bursts = 0;
    double setup_duration = 0;
    bool operator==(const StepStats &) const = default;
};

/// What the steps add up to: all a comparison row needs of them.
struct StepTotals {
    int compute_steps = 0; // steps that compute (the drain excluded)
    double duration = 0; // sum of the steps' durations, in step order
    std::int64_t loaded_input = 0, loaded_kernels = 0, written = 0; // elements
    std::int64_t peak_footprint = 0; // max over the steps
    std::int64_t runs = 0; // transfer model: DMA runs of loads and writes
    double setup_duration = 0; // ... and their set-up time
    void add(const StepStats &s);
};

enum class FunctionalStatus { Skipped, Pass, Fail };
std::string functionalStatusName(FunctionalStatus s); // "skipped", "pass", "fail"

struct FunctionalResult {
    FunctionalStatus status = FunctionalStatus::Skipped;
    std::string message; // first mismatch, named, when Fail
    /// The simulated DRAM output by output id (patch * N + kernel), kept only
    /// with SimulationOptions::keep_output (every value is the reference's
    /// when status is Pass). Callers that map the integers back to their own
    /// values (the ONNX import's dequantisation) read what the schedule
    /// computed here.
    std::vector<std::int64_t> dram_output;
};

/// The paper's reload assumption (every input pixel and every kernel is
/// loaded at most max_loads_per_element times), checked over the whole run and
/// counted in full: the diagnostics list only the first few elements that
/// break it. Not a rule of the model: a strategy that breaks it still runs
/// correctly (docs/reference/model.md#validity lists these as warnings).
struct ReloadCheck {
    int bound = 0; // max_loads_per_element
    std::int64_t pixels = 0; // distinct pixels loaded more than `bound` times (grouped: one of its slices)
    std::int64_t slices = 0; // distinct input slices beyond it, each warned about once (= pixels when g = 1)
    std::int64_t kernels = 0; // distinct kernels loaded more than `bound` times
    /// Ascending: every patch computed at a step that loads one of its pixels,
    /// or one of the kernels it is computed with, beyond the bound.
    std::vector<PatchId> patches;
    bool met() const { return pixels == 0 && kernels == 0; }
};

struct SimulationResult {
    std::vector<Diagnostic> diagnostics; // errors then warnings, each in step order
    std::int64_t suppressed_diagnostics = 0;
    std::int64_t error_count = 0, warning_count = 0; // listed or not; warnings include the reload-bound ones
    std::vector<StepStats> steps; // one per step, the drain included
    /// Set instead of `steps` when SimulationOptions::step_stats is off (a
    /// comparison or sweep of a big layer with small groups, where 120 bytes
    /// a step add up to gigabytes): `steps` is then empty and the accessors
    /// below read these totals, folded in step order (the same values).
    std::optional<StepTotals> totals;
    Trace trace; // empty unless requested
    FunctionalResult functional;
    std::vector<std::uint32_t> input_load_counts; // per input slice (per pixel when g = 1): times loaded
    std::vector<std::uint32_t> kernel_load_counts; // per kernel: times loaded (kernel streaming reloads them)
    ReloadCheck reload;
    bool transfer_model = false; // the hardware had a transfer model: the runs below are counted

    bool valid() const;
    int computeSteps() const; // steps that compute (the paper's n)
    double totalDuration() const;
    std::int64_t loadedInput() const; // elements
    std::int64_t loadedKernels() const; // elements
    std::int64_t written() const; // elements
    std::int64_t peakFootprint() const;
    std::int64_t transferRuns() const; // DMA runs of every load and write (transfer model)
    double setupDuration() const; // their set-up time, part of totalDuration()
    std::vector<const Diagnostic *> errors() const;
    std::vector<const Diagnostic *> warnings() const;
    /// Warnings other than the reload bound's (one per element beyond it).
    std::int64_t plainWarningCount() const { return warning_count - reload.slices - reload.kernels; }
};

} // namespace convoffload
