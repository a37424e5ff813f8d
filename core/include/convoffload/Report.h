#pragma once
// What the CLI (and later the GUI's metrics export) reports about strategies:
// simulation summaries, comparisons and group-size sweeps, as JSON, CSV or
// plain text. Shapes of the JSON follow SPEC §6.

#include "convoffload/Project.h"
#include "convoffload/Simulator.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace convoffload {

/// Simulates one strategy of a project: groups, expansion, simulation.
/// Throws StrategyError when the strategy cannot be expanded.
SimulationResult runStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options);

/// SPEC §6 `simulate --json`; per_step lists every step, the drain last.
nlohmann::ordered_json simulationToJson(const Problem &problem, const std::string &name, const SimulationResult &result);
std::string simulationToText(const Problem &problem, const std::string &name, const SimulationResult &result);

/// The layer's S1 figures: patches, nb_patches_max, K_min, K_max, sizes.
nlohmann::ordered_json problemSummary(const Problem &problem);

struct CompareRow {
    std::string name;
    std::string kind;
    std::int64_t groupSize = 0; // 0 for explicit groups
    std::string failure; // set when the strategy could not be expanded
    bool valid = false;
    int steps = 0;
    double totalDuration = 0;
    std::int64_t loadedInput = 0, loadedKernels = 0, written = 0, peakFootprint = 0;
    std::int64_t errors = 0, warnings = 0;
    FunctionalStatus functional = FunctionalStatus::Skipped;
};

std::vector<CompareRow> compareStrategies(const Project &project, const SimulationOptions &options);
nlohmann::ordered_json compareToJson(const Problem &problem, const std::vector<CompareRow> &rows);
std::string compareToCsv(const std::vector<CompareRow> &rows);
std::string compareToText(const std::vector<CompareRow> &rows);

struct SweepRow {
    std::int64_t groupSize = 0;
    CompareRow rowByRow, zigzag;
};

/// Row-by-Row and ZigZag for every group size in [from, to] (the paper's
/// group-size figure). Sizes beyond nb_patches_max are simulated and marked
/// invalid (too many ops), so the curve can still be drawn.
std::vector<SweepRow> sweepGroupSizes(
    const Problem &problem, std::int64_t from, std::int64_t to, const SimulationOptions &options);
nlohmann::ordered_json sweepToJson(const Problem &problem, const std::vector<SweepRow> &rows);
std::string sweepToCsv(const std::vector<SweepRow> &rows);
std::string sweepToText(const std::vector<SweepRow> &rows);

/// One CSV field, quoted by libcsv when it needs to be.
std::string csvField(const std::string &text);

} // namespace convoffload
