#pragma once
// A general step (F_inp, F_ker, W, I_slice, K_sub, Out) of SPEC §2, and the
// six actions it runs in order. A strategy, once expanded, is a list of steps
// ending with a drain step (no compute) that writes and frees what is left.

#include "convoffload/Ids.h"

#include <string_view>
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
std::string_view actionName(Action a); // "a1 free input", ...
std::string_view actionShortName(Action a); // "free_input", ...

struct Step {
    std::vector<PixelId> freeInput; // F_inp
    std::vector<KernelId> freeKernels; // F_ker
    std::vector<OutputId> write; // W
    std::vector<PixelId> loadInput; // I_slice
    std::vector<KernelId> loadKernels; // K_sub
    std::vector<OutputId> compute; // Out

    bool isDrain() const { return compute.empty(); }
    bool operator==(const Step &) const = default;
};

using StepList = std::vector<Step>;

} // namespace convoffload
