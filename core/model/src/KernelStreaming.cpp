// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/KernelStreaming.h"

#include "WriteScheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace convoffload {

namespace {

std::string idRange(std::int64_t count) { return "ids 0.." + std::to_string(count - 1); }

/// Located like a simulation finding: "step 3, a5 load kernels, kernel 7: ...".
std::string at(std::size_t stepIndex, Action action, const std::string &element)
{
    return "step " + std::to_string(stepIndex + 1) + ", " + actionName(action) + ", " + element;
}

/// Throws StrategyError for what expandSteps cannot expand; `who` prefixes it.
void checkExpandable(const Layer &layer, const ComputeSteps &steps, const std::string &who)
{
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const ComputeStep &s = steps[i];
        if (s.patches.empty() || s.kernels.empty())
            throw StrategyError(who + "step " + std::to_string(i + 1) + " has no " + (s.patches.empty() ? "patches" : "kernels")
                + ": a step that computes nothing is reserved for the final drain");
        for (PatchId p : s.patches)
            if (std::int64_t(p) >= layer.patchCount())
                throw StrategyError(who + at(i, Action::Compute, "patch " + std::to_string(p)) + ": no such patch (the layer has "
                    + std::to_string(layer.patchCount()) + " patches, " + idRange(layer.patchCount()) + ")");
        for (KernelId k : s.kernels)
            if (std::int64_t(k) >= layer.n)
                throw StrategyError(who + at(i, Action::LoadKernels, kernelName(k))
                    + ": no such kernel (the layer has n = " + std::to_string(layer.n) + " kernels, " + idRange(layer.n) + ")");
    }
}

void requireBlock(int n, std::int64_t blockSize)
{
    if (blockSize < 1 || blockSize > n)
        throw StrategyError("kernel_block must be between 1 and N = " + std::to_string(n) + ", got " + std::to_string(blockSize));
}

} // namespace

std::vector<KernelBlock> kernelBlocks(int n, std::int64_t blockSize)
{
    requireBlock(n, blockSize);
    std::vector<KernelBlock> blocks;
    for (int first = 0; first < n; first += int(blockSize)) {
        KernelBlock block;
        for (int k = first; k < std::min<std::int64_t>(n, first + blockSize); ++k)
            block.push_back(KernelId(k));
        blocks.push_back(std::move(block));
    }
    return blocks;
}

std::int64_t kernelBlockedGroupSize(const Problem &problem, std::int64_t kernelBlock)
{
    return problem.hardware.nbop_pe / (problem.layer.kernelElements() * std::max<std::int64_t>(kernelBlock, 1));
}

ComputeSteps kernelBlocked(
    const Layer &layer, std::int64_t groupSize, std::int64_t kernelBlock, PatchOrder order, KernelLoop loop)
{
    const std::vector<KernelBlock> blocks = kernelBlocks(layer.n, kernelBlock);
    const Groups groups = order == PatchOrder::RowByRow ? rowByRow(layer, groupSize) : zigzag(layer, groupSize);
    return kernelBlockedSteps(groups, blocks, loop);
}

KernelBlockedStep kernelBlockedStepAt(std::size_t step, std::size_t groups, std::size_t blocks, KernelLoop loop)
{
    // The outer index picks the direction of the inner walk (serpentine), so
    // the step that ends one pass and the one that starts the next share data.
    const auto inner = [](std::size_t outer, std::size_t count, std::size_t k) { return outer % 2 == 0 ? k : count - 1 - k; };
    if (loop == KernelLoop::KernelsOuter) {
        const std::size_t j = step / groups;
        return {inner(j, groups, step % groups), j};
    }
    const std::size_t i = step / blocks;
    return {i, inner(i, blocks, step % blocks)};
}

ComputeSteps kernelBlockedSteps(const Groups &groups, const std::vector<KernelBlock> &blocks, KernelLoop loop)
{
    ComputeSteps steps;
    const std::size_t count = groups.size() * blocks.size();
    steps.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const KernelBlockedStep at = kernelBlockedStepAt(i, groups.size(), blocks.size(), loop);
        steps.push_back({groups[at.group], blocks[at.block]});
    }
    return steps;
}

ComputeSteps stepsOfGroups(const Layer &layer, const Groups &groups)
{
    KernelBlock all;
    for (int k = 0; k < layer.n; ++k)
        all.push_back(KernelId(k));
    ComputeSteps steps;
    steps.reserve(groups.size());
    for (const Group &g : groups)
        steps.push_back({g, all});
    return steps;
}

KernelBlockedParts kernelBlockedPartsOf(const Problem &problem, const StrategySpec &spec)
{
    const Layer &layer = problem.layer;
    const std::string who = "strategy '" + spec.name + "': ";
    const std::int64_t b = spec.kernel_block.value_or(layer.n);
    try {
        requireBlock(layer.n, b);
    } catch (const StrategyError &e) {
        throw StrategyError(who + e.what());
    }
    const std::int64_t g = spec.group_size.value_or(kernelBlockedGroupSize(problem, b));
    if (g < 1) {
        if (spec.group_size)
            throw StrategyError(who + "group_size must be at least 1, got " + std::to_string(g));
        throw StrategyError(who + "no patch fits a step: one patch with a block of " + std::to_string(b) + " kernels needs "
            + std::to_string(layer.opsPerOutput() * b) + " MACs but nbop_pe is " + std::to_string(problem.hardware.nbop_pe)
            + "; set group_size, lower kernel_block or raise nbop_pe");
    }
    return {spec.order == PatchOrder::RowByRow ? rowByRow(layer, g) : zigzag(layer, g), kernelBlocks(layer.n, b), spec.loop};
}

ComputeSteps computeStepsOf(const Problem &problem, const StrategySpec &spec)
{
    const Layer &layer = problem.layer;
    const std::string who = "strategy '" + spec.name + "': ";
    if (isS1Kind(spec.kind))
        return stepsOfGroups(layer, groupsOf(problem, spec));
    if (spec.kind == StrategyKind::Steps) {
        if (spec.steps.empty())
            throw StrategyError(who + "it has no steps");
        checkExpandable(layer, spec.steps, who);
        return spec.steps;
    }
    const KernelBlockedParts parts = kernelBlockedPartsOf(problem, spec);
    return kernelBlockedSteps(parts.groups, parts.blocks, parts.loop);
}

StepList expandSteps(const Problem &problem, const ComputeSteps &plan)
{
    const Layer &layer = problem.layer;
    if (const std::vector<std::string> problems = layer.problems(); !problems.empty())
        throw std::invalid_argument(problems.front()); // as the simulator does: the ids below assume a sound layer
    checkExpandable(layer, plan, {});
    const bool paddingInDram = problem.options.padding_in_dram;

    // M_inp after step i is exactly U_i and M_ker exactly K_i, so an element
    // is on chip before step i+1 iff step i marked it: one mark array per
    // kind of element, no set operations (as in expandS1). Input is marked
    // per slice: U_i holds the slices (pixel, γ(k)) of the step's patches
    // for the groups of its kernels (slice = pixel when g = 1).
    std::vector<std::uint32_t> pixelMark(std::size_t(layer.sliceCount()), 0), kernelMark(std::size_t(layer.n), 0);
    std::vector<SliceId> previous, current;
    std::vector<int> groups; // the groups of the step's kernels, ascending
    std::vector<std::uint8_t> hasGroup(std::size_t(layer.group), 0);
    std::vector<KernelId> previousKernels, currentKernels;
    std::vector<PatchId> sortedPatches;
    std::vector<KernelId> sortedKernels;
    detail::WriteScheduler writes(problem);
    StepList steps;
    steps.reserve(plan.size() + 1);

    for (std::size_t i = 0; i < plan.size(); ++i) {
        const ComputeStep &planned = plan[i];
        const std::uint32_t stamp = std::uint32_t(i + 2); // 0 = never marked, so step 1 keeps nothing
        Step step;
        current.clear();
        std::fill(hasGroup.begin(), hasGroup.end(), 0);
        for (KernelId k : planned.kernels)
            hasGroup[std::size_t(layer.groupOfKernel(k))] = 1;
        groups.clear();
        for (int group = 0; group < layer.group; ++group)
            if (hasGroup[std::size_t(group)])
                groups.push_back(group);
        for (PatchId patch : planned.patches)
            forEachPatchPixel(layer, paddingInDram, patch, [&](PixelId pixel) {
                for (int group : groups) {
                    const SliceId p = sliceId(layer, pixel, group);
                    if (pixelMark[p] == stamp)
                        continue;
                    if (pixelMark[p] != stamp - 1)
                        step.load_input.push_back(p);
                    pixelMark[p] = stamp;
                    current.push_back(p);
                }
            });
        for (SliceId p : previous)
            if (pixelMark[p] != stamp)
                step.free_input.push_back(p);

        currentKernels.clear();
        for (KernelId k : planned.kernels) {
            if (kernelMark[k] == stamp)
                continue;
            if (kernelMark[k] != stamp - 1)
                step.load_kernels.push_back(k);
            kernelMark[k] = stamp;
            currentKernels.push_back(k);
        }
        for (KernelId k : previousKernels)
            if (kernelMark[k] != stamp)
                step.free_kernels.push_back(k);
        detail::sortIds(step.load_input);
        detail::sortIds(step.free_input);
        detail::sortIds(step.load_kernels);
        detail::sortIds(step.free_kernels);

        // Out = patches × kernels in ascending id order (patch·N + kernel):
        // both factors sorted, so the products come out sorted and a repeat
        // (a pair named twice) stays next to its twin, as a sort would leave it.
        sortedPatches.assign(planned.patches.begin(), planned.patches.end());
        detail::sortIds(sortedPatches);
        sortedKernels.assign(planned.kernels.begin(), planned.kernels.end());
        detail::sortIds(sortedKernels);
        step.compute.reserve(planned.patches.size() * planned.kernels.size());
        for (PatchId patch : sortedPatches)
            for (KernelId k : sortedKernels)
                step.compute.push_back(outputId(layer, patch, k));

        const std::int64_t resident
            = std::int64_t(current.size()) * layer.sliceChannels() + std::int64_t(currentKernels.size()) * layer.kernelElements();
        step.write = writes.writesBefore(resident, step.compute);
        detail::sortIds(step.write);
        writes.computed(step.compute);
        steps.push_back(std::move(step));
        std::swap(previous, current);
        std::swap(previousKernels, currentKernels);
    }

    Step drain;
    drain.write = writes.rest();
    std::sort(drain.write.begin(), drain.write.end());
    drain.free_input = previous;
    std::sort(drain.free_input.begin(), drain.free_input.end());
    drain.free_kernels = previousKernels;
    std::sort(drain.free_kernels.begin(), drain.free_kernels.end());
    steps.push_back(std::move(drain));
    return steps;
}

StepList expandStrategy(const Problem &problem, const StrategySpec &spec)
{
    if (isS1Kind(spec.kind))
        return expandS1(problem, groupsOf(problem, spec));
    return expandSteps(problem, computeStepsOf(problem, spec));
}

} // namespace convoffload
