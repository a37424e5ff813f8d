// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strategies that stream kernels (docs/reference/strategies.md#steps-strategies): explicit compute steps (kind
// `steps`) and the `kernel-blocked` generator, their expansion into general
// steps, and the one entry point that expands any strategy.

#include "convoffload/model/ComputeStep.h"
#include "convoffload/model/S1Strategy.h"

#include <cstdint>
#include <vector>

namespace convoffload {

using KernelBlock = std::vector<KernelId>;

/// Kernels 0..n-1 in id order, cut into consecutive blocks of `blockSize`
/// (the last may be smaller). Throws StrategyError unless 1 ≤ blockSize ≤ n.
std::vector<KernelBlock> kernelBlocks(int n, std::int64_t blockSize);

/// The default group size of `kernel-blocked`: floor(nbop_pe / (C_in·H_K·W_K·B)),
/// the most patches a step can compute with B kernels. B must be ≥ 1.
std::int64_t kernelBlockedGroupSize(const Problem &problem, std::int64_t kernelBlock);

/// The `kernel-blocked` generator: patches in `order` cut into groups of
/// `groupSize`, kernels in blocks of `kernelBlock`, one step per (group,
/// block). kernels-outer: for block j, the groups forwards when j is even,
/// backwards when odd; patches-outer: for group i, the blocks forwards when i
/// is even, backwards when odd. Throws StrategyError for a group size < 1 or
/// a block size outside 1..n.
ComputeSteps kernelBlocked(
    const Layer &layer, std::int64_t groupSize, std::int64_t kernelBlock, PatchOrder order, KernelLoop loop);

/// The loops of `kernelBlocked` over any ordered patch groups and kernel
/// blocks: kernels-outer walks the groups forwards for even blocks and
/// backwards for odd ones; patches-outer walks the blocks forwards for even
/// groups and backwards for odd ones. One step per (group, block).
ComputeSteps kernelBlockedSteps(const Groups &groups, const std::vector<KernelBlock> &blocks, KernelLoop loop);

/// Step `step` of kernelBlockedSteps(groups, blocks, loop), as the indices
/// of its group and block, for walking the steps without listing them.
struct KernelBlockedStep {
    std::size_t group = 0, block = 0;
};
KernelBlockedStep kernelBlockedStepAt(std::size_t step, std::size_t groups, std::size_t blocks, KernelLoop loop);

/// What `kernelBlocked` (the generator) cuts a spec of kind `kernel-blocked`
/// into, with computeStepsOf's checks and messages.
struct KernelBlockedParts {
    Groups groups;
    std::vector<KernelBlock> blocks;
    KernelLoop loop = KernelLoop::KernelsOuter;
};
KernelBlockedParts kernelBlockedPartsOf(const Problem &problem, const StrategySpec &spec);

/// Every kernel on every patch of each group: an S1 strategy as compute steps.
ComputeSteps stepsOfGroups(const Layer &layer, const Groups &groups);

/// The compute steps of any spec (S1 kinds through groupsOf). Throws
/// StrategyError, with a message naming the strategy and, for explicit
/// steps, the step (1-based, as simulation findings count them), the action
/// and the element: no steps, an empty step, a patch or kernel id out of
/// range, a block size B = 0 or B > N, a group size that cannot be derived.
ComputeSteps computeStepsOf(const Problem &problem, const StrategySpec &spec);

/// Expands compute steps (docs/reference/strategies.md#steps-strategies), step i with U_i = U(patches_i) and
/// K_i = kernels_i: F_inp = M_inp \ U_i, F_ker = M_ker \ K_i, writes by the
/// write policy, I_slice = U_i \ M_inp, K_sub = K_i \ M_ker, Out = patches_i ×
/// kernels_i (listed as given, so a pair named twice is computed twice); then
/// a drain that writes the rest and frees everything. Every step having all
/// kernels gives exactly expandS1 of the same groups. Ids must be in range and
/// no step empty (throws StrategyError). Cost is linear in what the steps name.
StepList expandSteps(const Problem &problem, const ComputeSteps &steps);

/// The steps any strategy runs: expandS1(groupsOf) for the S1 kinds,
/// expandSteps(computeStepsOf) for the kernel-streaming ones. Throws StrategyError.
StepList expandStrategy(const Problem &problem, const StrategySpec &spec);

} // namespace convoffload
