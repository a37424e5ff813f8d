#include "convoffload/model/S1Strategy.h"

#include "WriteScheduler.h"

#include <algorithm>

namespace convoffload {

std::string strategyKindName(StrategyKind kind)
{
    switch (kind) {
    case StrategyKind::S1Baseline:
        return "s1-baseline";
    case StrategyKind::RowByRow:
        return "row-by-row";
    case StrategyKind::ZigZag:
        return "zigzag";
    case StrategyKind::Groups:
        return "groups";
    case StrategyKind::Steps:
        return "steps";
    case StrategyKind::KernelBlocked:
        return "kernel-blocked";
    }
    return "?";
}

std::optional<StrategyKind> strategyKindFromName(const std::string &s)
{
    for (StrategyKind k : {StrategyKind::S1Baseline, StrategyKind::RowByRow, StrategyKind::ZigZag, StrategyKind::Groups,
             StrategyKind::Steps, StrategyKind::KernelBlocked})
        if (strategyKindName(k) == s)
            return k;
    return std::nullopt;
}

bool isS1Kind(StrategyKind kind) { return kind != StrategyKind::Steps && kind != StrategyKind::KernelBlocked; }

namespace {

Groups cutIntoGroups(const std::vector<PatchId> &order, std::int64_t groupSize)
{
    Groups groups;
    groups.reserve(order.size() / std::size_t(groupSize) + 1);
    for (std::size_t begin = 0; begin < order.size(); begin += std::size_t(groupSize)) {
        const std::size_t end = std::min(order.size(), begin + std::size_t(groupSize));
        groups.emplace_back(order.begin() + std::ptrdiff_t(begin), order.begin() + std::ptrdiff_t(end));
    }
    return groups;
}

std::vector<PatchId> rowMajorOrder(const Layer &layer)
{
    std::vector<PatchId> order(std::size_t(layer.patchCount()));
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = PatchId(i);
    return order;
}

void requirePositive(std::int64_t groupSize)
{
    if (groupSize < 1)
        throw StrategyError("group size must be at least 1, got " + std::to_string(groupSize));
}

} // namespace

Groups s1Baseline(const Layer &layer) { return cutIntoGroups(rowMajorOrder(layer), 1); }

Groups rowByRow(const Layer &layer, std::int64_t groupSize)
{
    requirePositive(groupSize);
    return cutIntoGroups(rowMajorOrder(layer), groupSize);
}

Groups zigzag(const Layer &layer, std::int64_t groupSize)
{
    requirePositive(groupSize);
    std::vector<PatchId> order;
    order.reserve(std::size_t(layer.patchCount()));
    for (int i = 0; i < layer.hOut(); ++i)
        for (int k = 0; k < layer.wOut(); ++k)
            order.push_back(patchId(layer, i, i % 2 == 0 ? k : layer.wOut() - 1 - k));
    return cutIntoGroups(order, groupSize);
}

Groups groupsOf(const Problem &problem, const StrategySpec &spec)
{
    const Layer &layer = problem.layer;
    const std::string who = "strategy '" + spec.name + "': ";
    if (!isS1Kind(spec.kind))
        throw StrategyError(who + "kind " + strategyKindName(spec.kind)
            + " streams kernels: it has compute steps (patches × kernels), not S1 groups");
    if (spec.kind == StrategyKind::Groups) {
        for (std::size_t g = 0; g < spec.groups.size(); ++g) {
            if (spec.groups[g].empty())
                throw StrategyError(who + "group " + std::to_string(g) + " is empty");
            for (PatchId p : spec.groups[g])
                if (std::int64_t(p) >= layer.patchCount())
                    throw StrategyError(who + "group " + std::to_string(g) + " names patch " + std::to_string(p)
                        + ", but the layer has " + std::to_string(layer.patchCount()) + " patches (ids 0.."
                        + std::to_string(layer.patchCount() - 1) + ")");
        }
        if (spec.groups.empty())
            throw StrategyError(who + "it has no groups");
        return spec.groups;
    }
    if (spec.kind == StrategyKind::S1Baseline)
        return s1Baseline(layer);

    const std::int64_t g = spec.group_size.value_or(problem.nbPatchesMax());
    if (g < 1) {
        if (spec.group_size)
            throw StrategyError(who + "group_size must be at least 1, got " + std::to_string(g));
        throw StrategyError(who + "nb_patches_max is 0: one patch with all " + std::to_string(layer.n) + " kernels needs "
            + std::to_string(layer.opsPerOutput() * layer.n) + " MACs but nbop_pe is " + std::to_string(problem.hardware.nbop_pe)
            + "; set group_size or raise nbop_pe");
    }
    return spec.kind == StrategyKind::RowByRow ? rowByRow(layer, g) : zigzag(layer, g);
}

StepList expandS1(const Problem &problem, const Groups &groups)
{
    const Layer &layer = problem.layer;
    const bool paddingInDram = problem.options.padding_in_dram;
    const std::int64_t kernelFootprint = layer.kernelElements() * layer.n;

    // M_inp after step i is exactly U(g_i), so a pixel is on chip before step
    // i+1 iff it was marked by group i: one mark array, no set operations.
    std::vector<std::uint32_t> mark(std::size_t(layer.pixelCount()), 0);
    std::vector<PixelId> previous, current;
    detail::WriteScheduler writes(problem);
    StepList steps;
    steps.reserve(groups.size() + 1);

    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].empty())
            throw StrategyError("group " + std::to_string(g) + " is empty");
        const std::uint32_t stamp = std::uint32_t(g + 2); // 0 = never marked, so group 0 keeps nothing
        Step step;
        step.compute.reserve(groups[g].size() * std::size_t(layer.n));
        current.clear();
        for (PatchId patch : groups[g])
            forEachPatchPixel(layer, paddingInDram, patch, [&](PixelId p) {
                if (mark[p] == stamp)
                    return;
                if (mark[p] != stamp - 1)
                    step.load_input.push_back(p);
                mark[p] = stamp;
                current.push_back(p);
            });
        for (PixelId p : previous)
            if (mark[p] != stamp)
                step.free_input.push_back(p);
        if (g == 0)
            for (int k = 0; k < layer.n; ++k)
                step.load_kernels.push_back(KernelId(k));
        for (PatchId patch : groups[g])
            for (int k = 0; k < layer.n; ++k)
                step.compute.push_back(outputId(layer, patch, KernelId(k)));
        detail::sortIds(step.load_input);
        detail::sortIds(step.free_input);
        detail::sortIds(step.compute);

        step.write = writes.writesBefore(std::int64_t(current.size()) * layer.c_in + kernelFootprint, step.compute);
        detail::sortIds(step.write);
        writes.computed(step.compute);
        steps.push_back(std::move(step));
        std::swap(previous, current);
    }

    Step drain;
    drain.write = writes.rest();
    std::sort(drain.write.begin(), drain.write.end());
    drain.free_input = previous;
    std::sort(drain.free_input.begin(), drain.free_input.end());
    if (!groups.empty())
        for (int k = 0; k < layer.n; ++k)
            drain.free_kernels.push_back(KernelId(k));
    steps.push_back(std::move(drain));
    return steps;
}

} // namespace convoffload
