// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/S1Strategy.h"

#include "convoffload/model/S1Expander.h"

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
    S1Expander expander(problem, groups.size(), [&](std::size_t g) { return std::span<const PatchId>(groups[g]); });
    StepList steps(expander.stepCount());
    for (Step &step : steps)
        expander.next(step);
    return steps;
}

} // namespace convoffload
