// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What one compute step of a kernel-streaming strategy computes (docs/reference/strategies.md#steps-strategies):
// a list of patches and a list of kernels, every kernel on every patch. The
// parameters of the `kernel-blocked` generator live here too, so that a
// StrategySpec can hold them.

#include "convoffload/model/Ids.h"

#include <optional>
#include <string>
#include <vector>

namespace convoffload {

/// One step of a `steps` strategy: Out = patches × kernels.
struct ComputeStep {
    std::vector<PatchId> patches;
    std::vector<KernelId> kernels;
    bool operator==(const ComputeStep &) const = default;
};
using ComputeSteps = std::vector<ComputeStep>;

/// The order in which `kernel-blocked` walks the patches before cutting them
/// into groups of G (the two S1 heuristics).
enum class PatchOrder { RowByRow, ZigZag };
std::string patchOrderName(PatchOrder order); // "row-by-row", "zigzag"
std::optional<PatchOrder> patchOrderFromName(const std::string &name);

/// Which loop of `kernel-blocked` is the outer one.
enum class KernelLoop {
    KernelsOuter, // for each kernel block, every group (serpentine)
    PatchesOuter // for each group, every kernel block (serpentine)
};
std::string kernelLoopName(KernelLoop loop); // "kernels-outer", "patches-outer"
std::optional<KernelLoop> kernelLoopFromName(const std::string &name);

} // namespace convoffload
