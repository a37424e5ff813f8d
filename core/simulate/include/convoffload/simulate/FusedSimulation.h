// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fast path: simulates S1 groups or compute steps (docs/reference/strategies.md#steps-strategies) directly,
// without expanding them into step lists. One pass with a per-pixel and
// per-kernel stamp (which step last needed it), per-pixel load counters and a
// per-output "computed" flag gives loads, frees, writes, footprints,
// durations, diagnostics and the functional check exactly as the general
// executor does on the expanded steps, without the trace (the general
// executor builds that).
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/Simulator.h"

#include <optional>

namespace convoffload {

/// The same result as simulate(problem, expandS1(problem, groups), options).
/// nullopt when options.trace is set or when a patch appears twice (the
/// general executor reports those recomputations), or a group is empty or
/// names a patch out of range. Throws like simulate() on an unsound problem.
std::optional<SimulationResult> simulateS1Fused(const Problem &problem, const Groups &groups, const SimulationOptions &options);

/// The same, for groups given as one patch order cut every G patches (the
/// generated S1 strategies), without a vector per group.
std::optional<SimulationResult> simulateS1Fused(
    const Problem &problem, const PatchSequence &sequence, const SimulationOptions &options);

/// The same result as simulate(problem, expandSteps(problem, steps), options),
/// with the same nullopt cases: a (patch, kernel) pair named twice, an empty
/// step, an id out of range, a trace asked for.
std::optional<SimulationResult> simulateStepsFused(
    const Problem &problem, const ComputeSteps &steps, const SimulationOptions &options);

/// The same, for the steps kernelBlockedSteps(parts.groups, parts.blocks,
/// parts.loop) lists, walked without listing them.
std::optional<SimulationResult> simulateKernelBlockedFused(
    const Problem &problem, const KernelBlockedParts &parts, const SimulationOptions &options);

} // namespace convoffload
