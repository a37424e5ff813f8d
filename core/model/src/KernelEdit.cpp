// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/KernelEdit.h"

#include "convoffload/model/S1Strategy.h"

#include <algorithm>
#include <string>

namespace convoffload {

namespace {

std::string stepName(std::size_t index) { return "step " + std::to_string(index + 1); }

// The checks both edits share; returns the source step's kernels without `kernels`.
std::vector<KernelId> remaining(const ComputeSteps &steps, std::size_t from, const std::vector<KernelId> &kernels)
{
    if (kernels.empty())
        throw StrategyError("no kernel selected: select the kernels to move");
    if (from >= steps.size())
        throw StrategyError(stepName(from) + " does not exist: the strategy has " + std::to_string(steps.size()) + " steps");
    std::vector<KernelId> sorted = kernels;
    std::sort(sorted.begin(), sorted.end());
    if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
        throw StrategyError("kernel " + std::to_string(*twice) + " is listed twice");
    const std::vector<KernelId> &own = steps[from].kernels;
    std::vector<KernelId> left;
    for (KernelId k : sorted)
        if (std::find(own.begin(), own.end(), k) == own.end())
            throw StrategyError("kernel " + std::to_string(k) + " is not computed by " + stepName(from));
    for (KernelId k : own)
        if (!std::binary_search(sorted.begin(), sorted.end(), k))
            left.push_back(k);
    return left;
}

} // namespace

ComputeSteps moveKernels(const ComputeSteps &steps, std::size_t from, const std::vector<KernelId> &kernels, std::size_t to)
{
    std::vector<KernelId> left = remaining(steps, from, kernels);
    if (to >= steps.size())
        throw StrategyError(stepName(to) + " does not exist: the strategy has " + std::to_string(steps.size()) + " steps");
    if (to == from)
        throw StrategyError("the kernels are in " + stepName(to) + " already: nothing to move");
    ComputeSteps out = steps;
    std::vector<KernelId> &target = out[to].kernels;
    for (KernelId k : kernels)
        if (std::find(target.begin(), target.end(), k) != target.end())
            throw StrategyError("kernel " + std::to_string(k) + " is computed by " + stepName(to) + " already");
    target.insert(target.end(), kernels.begin(), kernels.end());
    std::sort(target.begin(), target.end());
    out[from].kernels = std::move(left);
    if (out[from].kernels.empty())
        out.erase(out.begin() + std::ptrdiff_t(from));
    return out;
}

ComputeSteps moveKernelsToNewStep(
    const ComputeSteps &steps, std::size_t from, const std::vector<KernelId> &kernels, std::size_t position)
{
    std::vector<KernelId> left = remaining(steps, from, kernels);
    if (position > steps.size())
        throw StrategyError(
            "position " + std::to_string(position + 1) + " is past the last step (" + std::to_string(steps.size()) + ")");
    if (left.empty() && (position == from || position == from + 1))
        throw StrategyError("these are all the kernels of " + stepName(from) + ": it would stay as it is");
    ComputeStep added{steps[from].patches, kernels};
    std::sort(added.kernels.begin(), added.kernels.end());
    ComputeSteps out = steps;
    out[from].kernels = std::move(left);
    out.insert(out.begin() + std::ptrdiff_t(position), std::move(added));
    const std::size_t source = position <= from ? from + 1 : from;
    if (out[source].kernels.empty())
        out.erase(out.begin() + std::ptrdiff_t(source));
    return out;
}

} // namespace convoffload
