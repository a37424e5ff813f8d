// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The naive reference: an independent route, written straight from the paper's
// definitions (sections 2-4) and docs/reference/model.md and docs/reference/strategies.md, that the fast engine is checked
// and measured against.
//
// It deliberately shares no logic with the fast engine: memory is a plain
// std::set of element tuples, patches are rebuilt from the paper's formula
// P(i,j) = [0,C_in) x [s_h.i, s_h.i+H_K) x [s_w.j, s_w.j+W_K) (channels of
// the kernel's group, rows and columns spaced by the dilation), and every rule
// is checked by looking elements up one by one. Only the Layer / Hardware /
// Options / Step structs, the Rule enum and the id conventions of Ids.h
// (pixel = row*paddedWidth+col, patch = i*W_out+j, output = patch*N+kernel)
// are shared. It is slow on purpose: clarity over speed.

#include "convoffload/model/Diagnostic.h"
#include "convoffload/model/TensorData.h"
#include "convoffload/model/Problem.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/model/Step.h"

#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace convoffload::naive {

/// One channel of one pixel of the padded input: I[c][row][col].
struct InputElement {
    int c = 0, row = 0, col = 0;
    auto operator<=>(const InputElement &) const = default;
};

/// One output value O[l][i][j] (kernel l, output row i, output column j).
struct OutputElement {
    int kernel = 0, i = 0, j = 0;
    auto operator<=>(const OutputElement &) const = default;
};

using KernelIndex = int;

/// A step as the paper writes it: six sets (F_inp, F_ker, W, I_slice, K_sub, Out).
struct NaiveStep {
    std::set<InputElement> free_input;
    std::set<KernelIndex> free_kernels;
    std::set<OutputElement> write;
    std::set<InputElement> load_input;
    std::set<KernelIndex> load_kernels;
    std::set<OutputElement> compute;
    bool operator==(const NaiveStep &) const = default;
};
using NaiveSteps = std::vector<NaiveStep>;

/// P(i,j) as a set of input elements: the pixels (i·s_h + a·d_h, j·s_w + b·d_w),
/// every channel, or with `kernel` ≥ 0 only the channels of that kernel's
/// group (docs/reference/model.md#grouped-and-dilated); padding elements are
/// left out when the padding is synthesised on chip (options.padding_in_dram false).
std::set<InputElement> patchElements(const Problem &problem, int i, int j, int kernel = -1);

/// S1 expansion from the definitions (docs/reference/strategies.md#s1-strategies), as set-based steps.
NaiveSteps naiveExpandS1Sets(const Problem &problem, const Groups &groups);

/// Kernel-streaming expansion from the definitions (docs/reference/strategies.md#steps-strategies), as set-based
/// steps: U_i = U(patches_i), K_i = kernels_i, F_inp = M_inp \ U_i,
/// F_ker = M_ker \ K_i, I_slice = U_i \ M_inp, K_sub = K_i \ M_ker,
/// Out = patches_i × K_i, writes by the write policy, then the drain.
NaiveSteps naiveExpandStepsSets(const Problem &problem, const ComputeSteps &steps);

/// Set-based steps as id lists, each sorted ascending.
StepList toStepList(const Layer &layer, const NaiveSteps &steps);

/// naiveExpandS1Sets converted to ids, ready for either executor.
StepList naiveExpandS1(const Problem &problem, const Groups &groups);

/// naiveExpandStepsSets converted to ids.
StepList naiveExpandSteps(const Problem &problem, const ComputeSteps &steps);

struct NaiveFootprint {
    std::int64_t input = 0, kernels = 0, output = 0; // elements
    std::int64_t total() const { return input + kernels + output; }
    bool operator==(const NaiveFootprint &) const = default;
};

struct NaiveStepReport {
    std::array<NaiveFootprint, kActionCount> after{}; // footprint after a1..a6
    // Data that really moved: loads count even when the data was already on
    // chip (the transfer happens) but not padding synthesised on chip; frees
    // and writes count only what was on chip.
    std::int64_t loaded_input = 0; // elements of I_slice transferred
    std::int64_t loaded_kernels = 0; // elements of K_sub
    std::int64_t freed_input = 0; // elements of F_inp that were on chip
    std::int64_t freed_kernels = 0; // elements of F_ker that were on chip
    std::int64_t written = 0; // outputs of W that were on chip
    std::int64_t computed = 0; // outputs listed in Out
    double duration = 0;
};

/// (1-based step, rule). End-of-strategy checks (OutputNotWritten,
/// MemoryNotEmpty) are located at the last step. ReloadBound is reported once
/// per element, at the load that crosses max_loads_per_element.
using Violation = std::pair<int, Rule>;

struct NaiveOptions {
    bool functional = false;
    std::uint64_t seed = 1; // seededTensors(layer, seed) ...
    const TensorData *data = nullptr; // ... unless explicit tensors are given
};

struct NaiveReport {
    std::vector<NaiveStepReport> steps;
    std::set<Violation> errors;
    std::set<Violation> warnings;
    std::vector<std::string> messages; // one readable line per violation found

    /// Functional check (when requested): pass, or the first output in tensor
    /// order O[l][i][j] (kernel, then row, then column) whose DRAM value
    /// differs from the direct convolution or that never reached DRAM.
    bool functionalChecked = false;
    bool functionalPass = false;
    std::optional<OutputElement> firstWrongOutput;
    std::string functionalMessage;

    bool valid() const { return errors.empty(); }
    double totalDuration() const;
    std::int64_t loadedInput() const;
    std::int64_t loadedKernels() const;
    std::int64_t written() const;
    std::int64_t peakFootprint() const;
};

/// Runs the steps action by action (a1..a6) on set-based memory.
NaiveReport naiveExecute(const Problem &problem, const StepList &steps, const NaiveOptions &options = {});

/// O[l][i][j] by the paper's formula on the padded input, straight from the
/// tensors' layout (input [c][h][w] unpadded, kernels [n][c][h][w]).
std::map<OutputElement, std::int64_t> naiveConvolution(const Layer &layer, const TensorData &data);

/// Output id of an output element (patch * N + kernel).
OutputId naiveOutputId(const Layer &layer, const OutputElement &o);

} // namespace convoffload::naive
