#pragma once
// Strategies side by side: one summary row per strategy of a project, and the
// Row-by-Row vs ZigZag sweep over group sizes.
#include "convoffload/model/Project.h"
#include "convoffload/simulate/Simulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace convoffload {

/// Simulates one strategy of a project: groups or compute steps, expansion
/// (expandStrategy), simulation.
/// Throws StrategyError when the strategy cannot be expanded.
SimulationResult runStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options);

struct CompareRow {
    std::string name;
    std::string kind;
    std::int64_t group_size = 0; // 0 for explicit groups or steps; G of a generator
    std::string failure; // set when the strategy could not be expanded
    bool valid = false;
    int steps = 0;
    double total_duration = 0;
    std::int64_t loaded_input = 0, loaded_kernels = 0, written = 0, peak_footprint = 0;
    std::int64_t errors = 0, warnings = 0;
    FunctionalStatus functional = FunctionalStatus::Skipped;
};

std::vector<CompareRow> compareStrategies(const Project &project, const SimulationOptions &options);

struct SweepRow {
    std::int64_t group_size = 0;
    CompareRow row_by_row, zigzag;
};

/// Row-by-Row and ZigZag for every group size in [from, to] (the paper's
/// group-size figure). Sizes beyond nb_patches_max are simulated and marked
/// invalid (too many ops), so the curve can still be drawn.
std::vector<SweepRow> sweepGroupSizes(
    const Problem &problem, std::int64_t from, std::int64_t to, const SimulationOptions &options);

} // namespace convoffload
