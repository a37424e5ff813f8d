// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A general step (F_inp, F_ker, W, I_slice, K_sub, Out) of docs/reference/model.md#steps, and the
// six actions it runs in order. A strategy, once expanded, is a list of steps
// ending with a drain step (no compute) that writes and frees what is left.

#include "convoffload/model/Ids.h"

#include <string>
#include <vector>

namespace convoffload {

enum class Action : int {
    FreeInput = 0, // a1
    FreeKernels, // a2
    Write, // a3
    LoadInput, // a4
    LoadKernels, // a5
    Compute // a6
};
constexpr int kActionCount = 6;
std::string actionName(Action a); // "a1 free input", ...
/// Stable identifier for files, e.g. "free_input".
std::string actionIdentifier(Action a);

struct Step {
    std::vector<SliceId> free_input; // F_inp: input slices (pixels when g = 1)
    std::vector<KernelId> free_kernels; // F_ker
    std::vector<OutputId> write; // W
    std::vector<SliceId> load_input; // I_slice: input slices (pixels when g = 1)
    std::vector<KernelId> load_kernels; // K_sub
    std::vector<OutputId> compute; // Out

    bool isDrain() const { return compute.empty(); }
    bool operator==(const Step &) const = default;
};

using StepList = std::vector<Step>;

} // namespace convoffload
