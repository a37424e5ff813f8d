// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a simulation says about a strategy, in the one set of words every
// view uses (CLI, GUI, exports): it breaks the model's rules (errors: it does
// not run), or it runs correctly and meets the paper's assumptions or breaks
// them (today the one assumption checked is the reload bound,
// max_loads_per_element). Plain warnings (useless loads) are counted apart.

#include "convoffload/simulate/SimulationResult.h"

#include <cstdint>
#include <optional>
#include <string>

namespace convoffload {

enum class StrategyStatus {
    Invalid, // breaks a rule of the model: the run is wrong
    BreaksAssumptions, // runs correctly; some element is loaded more than the reload bound allows
    MeetsAssumptions // runs correctly and meets the paper's assumptions
};
std::string strategyStatusName(StrategyStatus s); // "invalid", "breaks-assumptions", "meets-assumptions"
std::optional<StrategyStatus> strategyStatusFromName(const std::string &name);

/// The figures the words are made of.
struct Verdict {
    StrategyStatus status = StrategyStatus::Invalid;
    std::int64_t errors = 0;
    std::int64_t reload_pixels = 0, reload_kernels = 0; // distinct elements beyond the bound
    std::int64_t plain_warnings = 0; // warnings other than the reload bound's
    int bound = 0; // max_loads_per_element
    FunctionalStatus functional = FunctionalStatus::Skipped;
};

Verdict verdictOf(const SimulationResult &result);
/// A verdict from the figures alone (a comparison row keeps no result).
/// `reloadSlices`: the reload warnings on input (one per slice beyond the
/// bound; a grouped layer's pixel has g slices), reloadPixels when negative.
Verdict verdictOf(std::int64_t errors, std::int64_t warnings, std::int64_t reloadPixels, std::int64_t reloadKernels, int bound,
    FunctionalStatus functional, std::int64_t reloadSlices = -1);

/// "breaks the reload assumption on 840 pixels", "… on 840 pixels and 3
/// kernels", "… on 2 kernels"; empty when nothing breaks it.
std::string reloadAssumptionText(std::int64_t pixels, std::int64_t kernels);
/// The state in one phrase: "invalid: 3 errors", "runs correctly, breaks the
/// reload assumption on 840 pixels", "runs correctly, meets the paper's
/// assumptions" ("runs, but the functional check fails, …" when it does).
std::string verdictText(const Verdict &verdict);
/// verdictText and, when there are any, the plain warnings: "…; 2 other warnings".
std::string verdictSummary(const Verdict &verdict);
/// "at most 2 loads per pixel and per kernel": the assumption itself.
std::string reloadAssumptionRule(int bound);

} // namespace convoffload
