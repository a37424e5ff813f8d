// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/KernelBlockedFamily.h"

#include "convoffload/model/KernelStreaming.h"

#include <algorithm>
#include <functional>

namespace convoffload {

std::string kernelBlockedParamsText(const KernelBlockedParams &params)
{
    return kernelLoopName(params.loop) + ", " + patchOrderName(params.order) + ", B = " + std::to_string(params.kernel_block)
        + ", G = " + std::to_string(params.group_size);
}

StrategySpec kernelBlockedSpec(const KernelBlockedParams &params, const std::string &name)
{
    StrategySpec spec;
    spec.name = name;
    spec.kind = StrategyKind::KernelBlocked;
    spec.group_size = params.group_size;
    spec.kernel_block = params.kernel_block;
    spec.order = params.order;
    spec.loop = params.loop;
    return spec;
}

bool kernelsFit(const Problem &problem)
{
    const Layer &layer = problem.layer;
    const std::int64_t kernels = layer.kernelElements() * layer.n;
    const std::int64_t patch = std::int64_t(layer.c_in) * layer.h_k * layer.w_k; // every slice of a patch's pixels
    return problem.nbPatchesMax() >= 1 && kernels + patch + layer.n <= problem.hardware.mem_size;
}

std::vector<std::int64_t> familyKernelBlocks(int n)
{
    std::vector<std::int64_t> blocks;
    for (std::int64_t b = 1; b <= n; ++b)
        if (n % b == 0)
            blocks.push_back(b);
    for (std::int64_t b = 1; b < n; b *= 2)
        blocks.push_back(b);
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    return blocks;
}

std::int64_t largestKernelBlock(const Problem &problem)
{
    const std::int64_t kernel = problem.layer.kernelElements();
    if (kernel < 1)
        return 0;
    const std::int64_t byOps = problem.hardware.nbop_pe / kernel;
    const std::int64_t byMemory = std::max<std::int64_t>(problem.hardware.mem_size - kernel, 0) / (kernel + 1);
    return std::max<std::int64_t>(0, std::min({byOps, byMemory, std::int64_t(problem.layer.n)}));
}

std::vector<std::int64_t> familyGroupSizes(std::int64_t largest, std::int64_t rowLength)
{
    std::vector<std::int64_t> sizes;
    if (largest < 1)
        return sizes;
    for (std::int64_t g = 1; g <= std::min<std::int64_t>(largest, 16); ++g)
        sizes.push_back(g);
    for (std::int64_t g = 20; g < largest; g = g + g / 4)
        sizes.push_back(g);
    if (rowLength >= 1 && rowLength <= largest)
        sizes.push_back(rowLength);
    sizes.push_back(largest);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::vector<KernelBlockedParams> kernelBlockedMembers(const Problem &problem, std::int64_t b, bool bothLoops)
{
    const Layer &layer = problem.layer;
    std::vector<KernelBlockedParams> members;
    if (b < 1 || b > layer.n || layer.kernelElements() < 1)
        return members;
    const std::int64_t byOps = kernelBlockedGroupSize(problem, b);
    // The block's kernels, the step's G·B outputs and at least one patch's
    // input (C_in·H_K·W_K when padding is loaded like any pixel) are on chip
    // together at a6.
    const std::int64_t onePatch = problem.options.padding_in_dram ? layer.kernelElements() : 0;
    const std::int64_t byMemory = (problem.hardware.mem_size - b * layer.kernelElements() - onePatch) / b;
    const std::int64_t largest = std::min({byOps, byMemory, layer.patchCount()});
    std::vector<std::int64_t> sizes = familyGroupSizes(largest, layer.wOut());
    std::reverse(sizes.begin(), sizes.end());
    for (const std::int64_t g : sizes)
        for (const KernelLoop loop : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter}) {
            if (loop == KernelLoop::PatchesOuter && b == layer.n && !bothLoops)
                continue;
            for (const PatchOrder order : {PatchOrder::ZigZag, PatchOrder::RowByRow})
                members.push_back({loop, order, b, g});
        }
    return members;
}

std::vector<KernelBlockedParams> kernelBlockedFamily(const Problem &problem)
{
    std::vector<KernelBlockedParams> family;
    std::vector<std::int64_t> blocks = familyKernelBlocks(problem.layer.n);
    if (const std::int64_t largest = largestKernelBlock(problem); largest >= 1)
        blocks.push_back(largest);
    std::sort(blocks.begin(), blocks.end(), std::greater<>());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    for (const std::int64_t b : blocks) {
        const std::vector<KernelBlockedParams> members = kernelBlockedMembers(problem, b);
        family.insert(family.end(), members.begin(), members.end());
    }
    return family;
}

} // namespace convoffload
