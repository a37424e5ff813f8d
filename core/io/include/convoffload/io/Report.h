// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Simulation summaries, comparisons and group-size sweeps as JSON, CSV or
// plain text, for the CLI and the GUI's metrics export. Shapes of the JSON follow docs/reference/cli.md

#include "convoffload/simulate/Comparison.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace convoffload {

/// docs/reference/cli.md#simulate `simulate --json`; per_step lists every step, the drain last.
nlohmann::ordered_json simulationToJson(const Problem &problem, const std::string &name, const SimulationResult &result);
/// simulationToJson(...).dump(2) + "\n" (the same JSON, the same text)
/// except that reload_assumption.patch_ids is written on one line, without
/// a json node per id (`simulate --json` and the GUI's metrics export).
std::string simulationToJsonText(const Problem &problem, const std::string &name, const SimulationResult &result);
std::string simulationToText(const Problem &problem, const std::string &name, const SimulationResult &result);

/// The layer's S1 figures: patches, nb_patches_max, K_min, K_max, sizes.
nlohmann::ordered_json problemSummary(const Problem &problem);

nlohmann::ordered_json compareToJson(const Problem &problem, const std::vector<CompareRow> &rows);
std::string compareToCsv(const std::vector<CompareRow> &rows);
std::string compareToText(const std::vector<CompareRow> &rows);

nlohmann::ordered_json sweepToJson(const Problem &problem, const std::vector<SweepRow> &rows);
std::string sweepToCsv(const std::vector<SweepRow> &rows);
std::string sweepToText(const std::vector<SweepRow> &rows);

/// A duration or count as users read it: whole values as integers, others
/// with six significant digits.
std::string formatNumber(double v);

/// One CSV field, quoted by libcsv when it needs to be.
std::string csvField(const std::string &text);

} // namespace convoffload
