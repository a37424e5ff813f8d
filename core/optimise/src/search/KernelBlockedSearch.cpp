// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/KernelBlockedSearch.h"

#include "convoffload/model/Arithmetic.h"
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <algorithm>
#include <limits>

namespace convoffload {

namespace {

CompareRow simulateSteps(
    const Problem &problem, const ComputeSteps &steps, const std::string &name, const OptimiseControl &control)
{
    CompareRow row;
    row.name = name;
    row.kind = strategyKindName(StrategyKind::Steps);
    StrategySpec spec{name, StrategyKind::Steps, std::nullopt, {}};
    spec.steps = steps;
    try {
        setRowFigures(row, simulateStrategy(problem, spec, rankingOptions(control.cancel)));
    } catch (const StrategyError &e) {
        row.failure = e.what();
    }
    return row;
}

Groups memberGroups(const Layer &layer, const KernelBlockedParams &member)
{
    return member.order == PatchOrder::RowByRow ? rowByRow(layer, member.group_size) : zigzag(layer, member.group_size);
}

} // namespace

std::vector<KernelBlockedParams> chosenMembers(const Problem &problem, const FamilyChoice &choice)
{
    std::vector<KernelBlockedParams> members
        = choice.kernel_block ? kernelBlockedMembers(problem, *choice.kernel_block, true) : kernelBlockedFamily(problem);
    if (choice.loop)
        std::erase_if(members, [&](const KernelBlockedParams &m) { return m.loop != *choice.loop; });
    if (choice.group_size) {
        std::vector<KernelBlockedParams> fixed;
        for (KernelBlockedParams m : members) {
            m.group_size = *choice.group_size;
            if (std::find(fixed.begin(), fixed.end(), m) == fixed.end())
                fixed.push_back(m);
        }
        members = std::move(fixed);
        // A G beyond every member's limit leaves nothing above: still try it
        // on the chosen blocks, so the refusal is the simulation's reason.
        if (members.empty() && choice.kernel_block)
            for (const KernelLoop loop : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter})
                if (!choice.loop || *choice.loop == loop)
                    for (const PatchOrder order : {PatchOrder::ZigZag, PatchOrder::RowByRow})
                        members.push_back({loop, order, *choice.kernel_block, *choice.group_size});
    }
    return members;
}

namespace {

/// What a pixel costs under kernel blocks of B on a grouped layer
/// (docs/reference/model.md#grouped-and-dilated): a block's step needs the
/// slices of its kernels' groups, C_in/g elements each.
struct BlockSlices {
    std::int64_t most = 0; // the most slices of a pixel one block's step holds
    std::int64_t perPass = 0; // slices of a pixel loaded walking every block once, kernels-outer
    std::int64_t perWalk = 0; // ... walking the blocks in a row, patches-outer (consecutive blocks share groups)
};

BlockSlices blockSlices(const Layer &layer, std::int64_t b)
{
    BlockSlices s;
    std::int64_t previousLast = -1;
    for (const KernelBlock &block : kernelBlocks(layer.n, b)) {
        const std::int64_t first = layer.groupOfKernel(block.front()), last = layer.groupOfKernel(block.back());
        s.most = std::max(s.most, last - first + 1);
        s.perPass += last - first + 1;
        s.perWalk += last - std::max(first, previousLast + 1) + 1;
        previousLast = last;
    }
    return s;
}

} // namespace

S1Instance blockInstance(const Problem &problem, const KernelBlockedParams &member, const OptimiseSettings &settings)
{
    const Layer &layer = problem.layer;
    const std::int64_t b = member.kernel_block;
    if (b < 1 || b > layer.n)
        throw InstanceError("kernel block " + std::to_string(b) + " outside 1..N = " + std::to_string(layer.n));
    Problem block = problem;
    block.layer.n = int(b);
    // One block's kernels as a dense layer of C_in/g channels: the same
    // kernel size and MACs; the pixel's elements are set below.
    block.layer.c_in = layer.sliceChannels();
    block.layer.group = 1;
    block.hardware.max_loads_per_element = 1 << 30; // no bound
    OptimiseSettings blockSettings = settings;
    blockSettings.group_size = member.group_size;
    S1Instance in = makeS1Instance(block, blockSettings);
    in.layer = layer; // positions and names are the layer's
    const Hardware &hw = problem.hardware;
    const double blocks = double(ceilDiv(std::int64_t(layer.n), b));
    const double kernelLoad = problem.options.kernels_preloaded ? 0.0 : hw.t_l;
    // With g = 1 a block holds the pixel's one slice: C_in elements, each
    // pass loading them again (kernels-outer) or once (patches-outer). A
    // grouped layer's patches-outer walk reloads the slices of each group it
    // moves to, which the instance prices per pixel loaded (an estimate: the
    // regrouping keeps a result only when the simulator confirms it is faster).
    const BlockSlices slices = blockSlices(layer, b);
    const double channels = double(layer.sliceChannels());
    in.elements_per_pixel = slices.most * layer.sliceChannels();
    if (member.loop == KernelLoop::KernelsOuter) {
        in.cost_per_pixel_load = hw.t_l * channels * double(slices.perPass);
        in.cost_per_group = blocks * hw.t_acc;
    } else {
        in.cost_per_pixel_load = hw.t_l * channels * double(slices.perWalk);
        in.cost_per_group = blocks * hw.t_acc + kernelLoad * double((layer.n - b) * layer.kernelElements());
    }
    // Every kernel loaded once, every output written once; patches-outer's
    // first group loads the N - B kernels its cost_per_group counts too.
    const std::int64_t kernelsOnce
        = member.loop == KernelLoop::KernelsOuter ? std::int64_t(layer.n) * layer.kernelElements() : b * layer.kernelElements();
    in.constant_cost = kernelLoad * double(kernelsOnce) + hw.t_w * double(layer.outputCount());
    return in;
}

S1Instance regroupInstance(const Problem &problem, const KernelBlockedParams &member, const OptimiseSettings &settings)
{
    S1Instance in = blockInstance(problem, member, settings);
    in.transfer = S1TransferCost::makeKernelBlocked(problem, member.loop, member.kernel_block);
    if (in.transfer)
        in.cost_per_group = double(ceilDiv(std::int64_t(problem.layer.n), member.kernel_block)) * problem.hardware.t_acc;
    return in;
}

RegroupResult regroupKernelBlocked(const Problem &problem, const FamilyMember &start, const OptimiseSettings &settings,
    const SearchOptions &options, const OptimiseControl &control)
{
    const S1Instance instance = regroupInstance(problem, start.params, settings);
    const std::vector<KernelBlock> blocks = kernelBlocks(problem.layer.n, start.params.kernel_block);
    SearchOptions searchOptions = options;
    // The linear instance's bound counts kernels-outer's input at every
    // pass, more than the turns load: no bound of the transfer cost there.
    if (instance.transfer && start.params.loop == KernelLoop::KernelsOuter)
        searchOptions.stop_at_lower_bound = false;
    RegroupResult result;
    result.start = start;
    result.transfer_cost = instance.transfer.has_value();
    result.search = searchOptimise(instance, searchOptions, control);
    result.groups = memberGroups(problem.layer, start.params);
    result.steps = kernelBlockedSteps(result.groups, blocks, start.params.loop);
    result.row = start.row;
    result.row.kind = strategyKindName(StrategyKind::Steps);
    if (result.search.hasSolution() && result.search.groups != result.groups) {
        ComputeSteps steps = kernelBlockedSteps(result.search.groups, blocks, start.params.loop);
        const CompareRow row = simulateSteps(problem, steps, start.row.name, control);
        const bool startValid = start.row.failure.empty() && start.row.valid;
        if (row.failure.empty() && row.valid && (!startValid || row.total_duration < start.row.total_duration)) {
            result.groups = result.search.groups;
            result.steps = std::move(steps);
            result.row = row;
            result.improved = true;
        }
    }
    return result;
}

} // namespace convoffload
