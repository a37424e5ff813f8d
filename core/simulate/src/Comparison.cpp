#include "convoffload/simulate/Comparison.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StrategySimulation.h"

namespace convoffload {

SimulationResult runStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options)
{
    return simulateStrategy(problem, spec, options);
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
    try {
        const SimulationResult r = runStrategy(problem, spec, options);
        row.valid = r.valid();
        row.steps = r.computeSteps();
        row.total_duration = r.totalDuration();
        row.loaded_input = r.loadedInput();
        row.loaded_kernels = r.loadedKernels();
        row.written = r.written();
        row.peak_footprint = r.peakFootprint();
        row.errors = r.error_count;
        row.warnings = r.warning_count;
        row.functional = r.functional.status;
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

} // namespace convoffload
