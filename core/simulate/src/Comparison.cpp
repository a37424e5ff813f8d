// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/Comparison.h"

#include "convoffload/model/Arithmetic.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <algorithm>
#include <iterator>

namespace convoffload {

void setRowFigures(CompareRow &row, const SimulationResult &r)
{
    row.valid = r.valid();
    row.steps = r.computeSteps();
    row.total_duration = r.totalDuration();
    row.loaded_input = r.loadedInput();
    row.loaded_kernels = r.loadedKernels();
    row.written = r.written();
    row.peak_footprint = r.peakFootprint();
    row.errors = r.error_count;
    row.warnings = r.warning_count;
    row.reload_pixels = r.reload.pixels;
    row.reload_slices = r.reload.slices;
    row.reload_kernels = r.reload.kernels;
    row.reload_bound = r.reload.bound;
    row.transfer_model = r.transfer_model;
    row.transfer_runs = r.transferRuns();
    row.setup_duration = r.setupDuration();
    row.functional = r.functional.status;
}

Verdict verdictOf(const CompareRow &row)
{
    return verdictOf(
        row.errors, row.warnings, row.reload_pixels, row.reload_kernels, row.reload_bound, row.functional, row.reload_slices);
}

namespace {

CompareRow summarise(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options)
{
    CompareRow row;
    row.name = spec.name;
    row.kind = strategyKindName(spec.kind);
    if (spec.kind == StrategyKind::RowByRow || spec.kind == StrategyKind::ZigZag)
        row.group_size = spec.group_size.value_or(problem.nbPatchesMax());
    else if (spec.kind == StrategyKind::S1Baseline)
        row.group_size = 1;
    else if (spec.kind == StrategyKind::KernelBlocked)
        row.group_size = spec.group_size.value_or(kernelBlockedGroupSize(problem, spec.kernel_block.value_or(problem.layer.n)));
    // A row needs the steps' totals only: without per-step stats, a sweep's
    // small groups on a big layer do not hold 120 bytes a step.
    SimulationOptions totalsOnly = options;
    totalsOnly.step_stats = false;
    try {
        setRowFigures(row, simulateStrategy(problem, spec, totalsOnly));
    } catch (const StrategyError &e) {
        row.failure = e.what();
    }
    return row;
}

} // namespace

std::vector<CompareRow> compareStrategies(const Project &project, const SimulationOptions &options)
{
    std::vector<CompareRow> rows;
    for (const StrategySpec &spec : project.strategies)
        rows.push_back(summarise(project.problem, spec, options));
    return rows;
}

std::vector<SweepRow> sweepGroupSizes(
    const Problem &problem, std::int64_t from, std::int64_t to, const SimulationOptions &options)
{
    std::vector<SweepRow> rows;
    for (std::int64_t g = from; g <= to; ++g) {
        SweepRow row;
        row.group_size = g;
        row.row_by_row = summarise(problem, {"Row-by-Row", StrategyKind::RowByRow, g, {}}, options);
        row.zigzag = summarise(problem, {"ZigZag", StrategyKind::ZigZag, g, {}}, options);
        rows.push_back(row);
    }
    return rows;
}

SimulationOptions rankingOptions(const std::atomic<bool> *cancel)
{
    SimulationOptions options;
    options.trace = false;
    options.functional = false;
    options.max_diagnostics_per_rule = 1;
    options.step_stats = false; // a ranking reads totals only
    options.cancel = cancel;
    return options;
}

FamilySearch searchMembers(
    const Problem &problem, const std::vector<KernelBlockedParams> &members, const SimulationOptions &options)
{
    const SimulationOptions quick = rankingOptions(options.cancel);
    FamilySearch search;
    search.members.reserve(members.size());
    for (const KernelBlockedParams &params : members) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        if (options.progress)
            options.progress(search.members.size(), members.size());
        FamilyMember member{params, summarise(problem, kernelBlockedSpec(params, kernelBlockedParamsText(params)), quick)};
        const CompareRow &r = member.row;
        if (r.failure.empty() && r.valid && (!search.best || r.total_duration < search.members[*search.best].row.total_duration))
            search.best = search.members.size();
        search.members.push_back(std::move(member));
    }
    if (search.best && options.functional) {
        FamilyMember &best = search.members[*search.best];
        best.row = summarise(problem, kernelBlockedSpec(best.params, best.row.name), options);
    }
    return search;
}

FamilySearch searchKernelBlocked(const Problem &problem, const SimulationOptions &options)
{
    return searchMembers(problem, kernelBlockedFamily(problem), options);
}

std::optional<CompareRow> familyRow(const FamilySearch &search)
{
    const FamilyMember *best = search.bestMember();
    if (!best)
        return std::nullopt;
    CompareRow row = best->row;
    row.name = "best kernel-blocked (" + kernelBlockedParamsText(best->params) + ")";
    return row;
}

std::string familyModeName(FamilyMode mode)
{
    switch (mode) {
    case FamilyMode::Auto:
        return "auto";
    case FamilyMode::Always:
        return "always";
    case FamilyMode::Never:
        return "never";
    }
    return "auto";
}

std::optional<FamilyMode> familyModeFromName(const std::string &name)
{
    for (const FamilyMode mode : {FamilyMode::Auto, FamilyMode::Always, FamilyMode::Never})
        if (familyModeName(mode) == name)
            return mode;
    return std::nullopt;
}

double familySearchSeconds(const Problem &problem, const std::vector<KernelBlockedParams> &members)
{
    double seconds = 0;
    for (const KernelBlockedParams &params : members)
        seconds += estimateSimulation(problem, false, false, ceilDiv(std::int64_t(problem.layer.n), params.kernel_block)).seconds;
    return seconds;
}

std::vector<KernelBlockSweepRow> sweepKernelBlocks(const Problem &problem, std::int64_t from, std::int64_t to,
    std::optional<std::int64_t> groupSize, std::optional<PatchOrder> order, const SimulationOptions &options)
{
    std::vector<KernelBlockSweepRow> rows;
    for (std::int64_t b = from; b <= to; ++b) {
        std::vector<KernelBlockedParams> members;
        if (groupSize || order) {
            // Only what was asked for; G defaults to the op limit's.
            const std::int64_t g = groupSize.value_or(kernelBlockedGroupSize(problem, b));
            for (const KernelLoop loop : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter})
                for (const PatchOrder o : {PatchOrder::ZigZag, PatchOrder::RowByRow})
                    if (!order || o == *order)
                        members.push_back({loop, o, b, std::max<std::int64_t>(g, 1)});
        } else {
            members = kernelBlockedMembers(problem, b, true);
        }
        const FamilySearch kernelsOuter = searchMembers(
            problem,
            [&] {
                std::vector<KernelBlockedParams> m;
                std::copy_if(members.begin(), members.end(), std::back_inserter(m),
                    [](const KernelBlockedParams &p) { return p.loop == KernelLoop::KernelsOuter; });
                return m;
            }(),
            options);
        const FamilySearch patchesOuter = searchMembers(
            problem,
            [&] {
                std::vector<KernelBlockedParams> m;
                std::copy_if(members.begin(), members.end(), std::back_inserter(m),
                    [](const KernelBlockedParams &p) { return p.loop == KernelLoop::PatchesOuter; });
                return m;
            }(),
            options);
        const auto pick = [&](const FamilySearch &search) -> std::optional<FamilyMember> {
            if (const FamilyMember *best = search.bestMember())
                return *best;
            if ((groupSize || order) && !search.members.empty())
                return search.members.front(); // asked for: shown even when invalid
            return std::nullopt;
        };
        rows.push_back({b, pick(kernelsOuter), pick(patchesOuter)});
    }
    return rows;
}

} // namespace convoffload
