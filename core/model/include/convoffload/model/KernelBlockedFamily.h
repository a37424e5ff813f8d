// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The members of the `kernel-blocked` family (docs/reference/strategies.md#kernel-blocked) that `compare`, the
// optimiser and `sweep --kernel-blocks` try: a bounded enumeration of
// (loop, order, B, G), and whether a layer needs it at all (its kernels do
// not fit beside one patch, so no S1 strategy can run).

#include "convoffload/model/ComputeStep.h"
#include "convoffload/model/S1Strategy.h"

#include <cstdint>
#include <string>
#include <vector>

namespace convoffload {

/// One member of the family: the four parameters of a `kernel-blocked` spec.
struct KernelBlockedParams {
    KernelLoop loop = KernelLoop::KernelsOuter;
    PatchOrder order = PatchOrder::ZigZag;
    std::int64_t kernel_block = 1; // B
    std::int64_t group_size = 1; // G
    bool operator==(const KernelBlockedParams &) const = default;
};

/// "kernels-outer, zigzag, B = 16, G = 4"
std::string kernelBlockedParamsText(const KernelBlockedParams &params);

/// A `kernel-blocked` strategy with these parameters, every one explicit.
StrategySpec kernelBlockedSpec(const KernelBlockedParams &params, const std::string &name);

/// True when an S1 strategy can run at all: one patch with all N kernels
/// stays within nbop_pe, and the N kernels, one patch's C_in·H_K·W_K inputs
/// and its N outputs fit mem_size together. When false, only strategies that
/// stream kernels can compute the layer.
bool kernelsFit(const Problem &problem);

/// The block sizes tried: every divisor of n, every power of two below n,
/// and n itself, ascending (at most about 2·log2(n) + the divisors: 17 for
/// n = 256, 20 for n = 512).
std::vector<std::int64_t> familyKernelBlocks(int n);

/// The largest block that can run one patch at a time: B·C_in·H_K·W_K ≤
/// nbop_pe, and B kernels, one patch's C_in·H_K·W_K inputs and its B outputs
/// within mem_size; at most n, 0 when not even one kernel fits.
std::int64_t largestKernelBlock(const Problem &problem);

/// The group sizes tried up to `largest` (the op limit's G for that B, at
/// most the number of patches): every size up to 16, then sizes growing by
/// a quarter each (20, 25, 31, ...), `rowLength` (W_out: where Row-by-Row
/// groups align with output rows) and `largest` itself; ascending, at most
/// 16 + log_1.25(largest / 16) + 2 values (40 for 4096 patches).
std::vector<std::int64_t> familyGroupSizes(std::int64_t largest, std::int64_t rowLength);

/// Every member worth simulating, for the blocks of familyKernelBlocks plus
/// largestKernelBlock (where the kernels are reloaded least), B descending (so B = N, the S1 heuristics,
/// come first and win ties), then G descending, then kernels-outer before
/// patches-outer, zigzag before row-by-row. A member is left out when a step
/// could not respect the limits whatever the layout: more than nbop_pe MACs
/// (G·B·C_in·H_K·W_K), or B kernels, the G·B outputs and one patch's
/// C_in·H_K·W_K inputs (when padding_in_dram) above mem_size.
/// Patches-outer is left out when B = N (one block: the same strategy as
/// kernels-outer). Empty when not even G = B = 1 fits.
std::vector<KernelBlockedParams> kernelBlockedFamily(const Problem &problem);

/// The members of kernelBlockedFamily with block size `kernelBlock`, in the
/// same order (patches-outer included even for B = N when `bothLoops`).
std::vector<KernelBlockedParams> kernelBlockedMembers(const Problem &problem, std::int64_t kernelBlock, bool bothLoops = false);

} // namespace convoffload
