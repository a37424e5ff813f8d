// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/Verdict.h"

#include <algorithm>

namespace convoffload {

namespace {

std::string counted(std::int64_t n, const char *one, const char *many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

} // namespace

std::string strategyStatusName(StrategyStatus s)
{
    switch (s) {
    case StrategyStatus::Invalid:
        return "invalid";
    case StrategyStatus::BreaksAssumptions:
        return "breaks-assumptions";
    case StrategyStatus::MeetsAssumptions:
        return "meets-assumptions";
    }
    return "invalid";
}

std::optional<StrategyStatus> strategyStatusFromName(const std::string &name)
{
    for (const StrategyStatus s : {StrategyStatus::Invalid, StrategyStatus::BreaksAssumptions, StrategyStatus::MeetsAssumptions})
        if (strategyStatusName(s) == name)
            return s;
    return std::nullopt;
}

Verdict verdictOf(std::int64_t errors, std::int64_t warnings, std::int64_t reloadPixels, std::int64_t reloadKernels, int bound,
    FunctionalStatus functional, std::int64_t reloadSlices)
{
    Verdict v;
    v.errors = errors;
    v.reload_pixels = reloadPixels;
    v.reload_kernels = reloadKernels;
    v.plain_warnings = std::max<std::int64_t>(0, warnings - (reloadSlices < 0 ? reloadPixels : reloadSlices) - reloadKernels);
    v.bound = bound;
    v.functional = functional;
    v.status = errors > 0                       ? StrategyStatus::Invalid
        : reloadPixels > 0 || reloadKernels > 0 ? StrategyStatus::BreaksAssumptions
                                                : StrategyStatus::MeetsAssumptions;
    return v;
}

Verdict verdictOf(const SimulationResult &result)
{
    return verdictOf(result.error_count, result.warning_count, result.reload.pixels, result.reload.kernels, result.reload.bound,
        result.functional.status, result.reload.slices);
}

std::string reloadAssumptionText(std::int64_t pixels, std::int64_t kernels)
{
    if (pixels <= 0 && kernels <= 0)
        return {};
    std::string on;
    if (pixels > 0)
        on = counted(pixels, "pixel", "pixels");
    if (kernels > 0)
        on += (on.empty() ? "" : " and ") + counted(kernels, "kernel", "kernels");
    return "breaks the reload assumption on " + on;
}

std::string verdictText(const Verdict &v)
{
    if (v.status == StrategyStatus::Invalid)
        return "invalid: " + counted(v.errors, "error", "errors");
    const std::string runs = v.functional == FunctionalStatus::Fail ? "runs, but the functional check fails" : "runs correctly";
    if (v.status == StrategyStatus::BreaksAssumptions)
        return runs + ", " + reloadAssumptionText(v.reload_pixels, v.reload_kernels);
    return runs + ", meets the paper's assumptions";
}

std::string verdictSummary(const Verdict &v)
{
    std::string text = verdictText(v);
    if (v.plain_warnings > 0)
        text += "; "
            + counted(v.plain_warnings, v.status == StrategyStatus::Invalid ? "warning" : "other warning",
                v.status == StrategyStatus::Invalid ? "warnings" : "other warnings");
    return text;
}

std::string reloadAssumptionRule(int bound)
{
    return "at most " + counted(bound, "load", "loads") + " per pixel and per kernel (max_loads_per_element)";
}

} // namespace convoffload
