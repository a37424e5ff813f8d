// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hand edits of a kernel-streaming strategy's compute steps (docs/reference/strategies.md#steps-strategies): the
// kernels of one step move to another step, or split off into a new step on
// the same patches. Pure functions from ComputeSteps to ComputeSteps, no Qt,
// with the rules of GroupEdit: an edit that makes no sense (an empty
// selection, an index out of range, a kernel the step does not compute, a move
// that changes nothing) throws StrategyError with a sentence the UI shows as
// the reason a drop was refused; a step left without kernels is dropped;
// indices name steps as they are before the edit. Whether the result computes
// every (patch, kernel) pair once is the simulator's finding, not a refusal.

#include "convoffload/model/ComputeStep.h"

#include <cstddef>
#include <vector>

namespace convoffload {

/// Takes `kernels` (all computed by step `from`) out of it and adds them to
/// step `to`, whose kernels stay ascending. Refuses an empty list, a kernel
/// listed twice, a step out of range, `from == to`, a kernel step `from` does
/// not compute and one step `to` computes already.
ComputeSteps moveKernels(const ComputeSteps &steps, std::size_t from, const std::vector<KernelId> &kernels, std::size_t to);

/// Takes `kernels` (all computed by step `from`) out of it into a new step
/// computing them on the same patches, inserted before step `position`
/// (0..size; size appends). Refuses as moveKernels does, and moving all of a
/// step's kernels next to itself (nothing would change).
ComputeSteps moveKernelsToNewStep(
    const ComputeSteps &steps, std::size_t from, const std::vector<KernelId> &kernels, std::size_t position);

} // namespace convoffload
