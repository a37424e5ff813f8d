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

namespace {

std::vector<PatchId> zigzagOrder(const Layer &layer)
{
    std::vector<PatchId> order;
    order.reserve(std::size_t(layer.patchCount()));
    for (int i = 0; i < layer.hOut(); ++i)
        for (int k = 0; k < layer.wOut(); ++k)
            order.push_back(patchId(layer, i, i % 2 == 0 ? k : layer.wOut() - 1 - k));
    return order;
}

} // namespace

Groups zigzag(const Layer &layer, std::int64_t groupSize)
{
    requirePositive(groupSize);
    return cutIntoGroups(zigzagOrder(layer), groupSize);
}

std::optional<PatchSequence> patchSequenceOf(const Problem &problem, const StrategySpec &spec)
{
    const Layer &layer = problem.layer;
    if (spec.kind == StrategyKind::S1Baseline)
        return PatchSequence{rowMajorOrder(layer), 1};
    if (spec.kind != StrategyKind::RowByRow && spec.kind != StrategyKind::ZigZag)
        return std::nullopt;
    const std::int64_t g = spec.group_size.value_or(problem.nbPatchesMax());
    if (g < 1) {
        const std::string who = "strategy '" + spec.name + "': ";
        if (spec.group_size)
            throw StrategyError(who + "group_size must be at least 1, got " + std::to_string(g));
        throw StrategyError(who + "nb_patches_max is 0: one patch with all " + std::to_string(layer.n) + " kernels needs "
            + std::to_string(layer.opsPerOutput() * layer.n) + " MACs but nbop_pe is " + std::to_string(problem.hardware.nbop_pe)
            + "; set group_size or raise nbop_pe");
    }
    return PatchSequence{spec.kind == StrategyKind::RowByRow ? rowMajorOrder(layer) : zigzagOrder(layer), g};
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
    const PatchSequence sequence = *patchSequenceOf(problem, spec);
    return cutIntoGroups(sequence.order, sequence.group_size);
}

StepList expandS1(const Problem &problem, const Groups &groups)
{
    const Layer &layer = problem.layer;
    const bool paddingInDram = problem.options.padding_in_dram;
    const std::int64_t kernelFootprint = layer.kernelElements() * layer.n;
    const std::int64_t patchArea = std::int64_t(layer.h_k) * layer.w_k;

    // M_inp after step i is exactly U(g_i), so a pixel is on chip before step
    // i+1 iff it was marked by group i: one mark array, no set operations.
    // mark >> 1 == g + 2: the pixel is in U(g) (0 = never marked, so group 0
    // keeps nothing); the low bit: it is loaded by step g, not kept.
    std::vector<std::uint32_t> mark(std::size_t(layer.pixelCount()), 0);
    std::vector<PixelId> previous, current;
    std::vector<PatchId> sorted;
    detail::WriteScheduler writes(problem);
    StepList steps;
    steps.reserve(groups.size() + 1);

    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group &group = groups[g];
        if (group.empty())
            throw StrategyError("group " + std::to_string(g) + " is empty");
        const std::uint32_t here = std::uint32_t(g + 2), in = here << 1;
        Step step;

        // The pixels' bounding box: when the group is compact (a run of a
        // row, a zigzag turn), U(g) and I_slice come out ascending by
        // scanning it, with no sort; a scattered group is sorted instead.
        int top = layer.paddedHeight(), bottom = -1, left = layer.paddedWidth(), right = -1;
        for (PatchId patch : group) {
            const Grid o = patchPosition(layer, patch);
            top = std::min(top, o.row * layer.stride_h);
            bottom = std::max(bottom, o.row * layer.stride_h + layer.h_k - 1);
            left = std::min(left, o.col * layer.stride_w);
            right = std::max(right, o.col * layer.stride_w + layer.w_k - 1);
        }
        const std::int64_t box = std::int64_t(bottom - top + 1) * (right - left + 1);
        const bool scanBox = box <= 2 * patchArea * std::int64_t(group.size());

        current.clear();
        for (PatchId patch : group)
            forEachPatchPixel(layer, paddingInDram, patch, [&](PixelId p) {
                const std::uint32_t was = mark[p] >> 1;
                if (was == here)
                    return;
                mark[p] = in | (was == here - 1 ? 0u : 1u);
                if (!scanBox)
                    current.push_back(p);
            });
        if (scanBox) {
            for (int r = top; r <= bottom; ++r)
                for (int c = left; c <= right; ++c) {
                    const PixelId p = pixelId(layer, r, c);
                    if (mark[p] >> 1 == here)
                        current.push_back(p);
                }
        } else {
            std::sort(current.begin(), current.end());
        }
        for (PixelId p : current)
            if (mark[p] & 1u)
                step.load_input.push_back(p);
        for (PixelId p : previous) // ascending, so F_inp is too
            if (mark[p] >> 1 != here)
                step.free_input.push_back(p);
        if (g == 0)
            for (int k = 0; k < layer.n; ++k)
                step.load_kernels.push_back(KernelId(k));

        // Out in ascending ids: patches ascending (zigzag's odd rows come
        // reversed), every kernel of a patch, a patch named twice twice.
        const std::vector<PatchId> *patches = &group;
        if (!std::is_sorted(group.begin(), group.end())) {
            sorted.assign(group.begin(), group.end());
            std::sort(sorted.begin(), sorted.end());
            patches = &sorted;
        }
        step.compute.reserve(group.size() * std::size_t(layer.n));
        for (std::size_t i = 0; i < patches->size();) {
            std::size_t j = i;
            while (j < patches->size() && (*patches)[j] == (*patches)[i])
                ++j;
            for (int k = 0; k < layer.n; ++k)
                for (std::size_t repeat = i; repeat < j; ++repeat)
                    step.compute.push_back(outputId(layer, (*patches)[i], KernelId(k)));
            i = j;
        }

        step.write = writes.writesBefore(std::int64_t(current.size()) * layer.c_in + kernelFootprint, step.compute);
        detail::sortIds(step.write);
        writes.computed(step.compute);
        steps.push_back(std::move(step));
        std::swap(previous, current);
    }

    Step drain;
    drain.write = writes.rest();
    std::sort(drain.write.begin(), drain.write.end());
    drain.free_input = previous; // ascending
    if (!groups.empty())
        for (int k = 0; k < layer.n; ++k)
            drain.free_kernels.push_back(KernelId(k));
    steps.push_back(std::move(drain));
    return steps;
}

} // namespace convoffload
