// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/SimulationResult.h"

#include <algorithm>

namespace convoffload {

std::string functionalStatusName(FunctionalStatus s)
{
    switch (s) {
    case FunctionalStatus::Skipped:
        return "skipped";
    case FunctionalStatus::Pass:
        return "pass";
    case FunctionalStatus::Fail:
        return "fail";
    }
    return "?";
}

std::vector<std::uint32_t> Trace::idsOf(int stepIndex, Action a) const
{
    const ActionRecord &r = record(stepIndex, a);
    return {ids.begin() + r.begin, ids.begin() + r.end};
}

void StepTotals::add(const StepStats &s)
{
    compute_steps += s.drain ? 0 : 1;
    duration += s.duration();
    loaded_input += s.loaded_input;
    loaded_kernels += s.loaded_kernels;
    written += s.written;
    peak_footprint = std::max(peak_footprint, s.peak_footprint);
    runs += s.load_runs + s.write_runs;
    setup_duration += s.setup_duration;
}

bool SimulationResult::valid() const { return error_count == 0; }

int SimulationResult::computeSteps() const
{
    if (totals)
        return totals->compute_steps;
    return int(std::count_if(steps.begin(), steps.end(), [](const StepStats &s) { return !s.drain; }));
}

namespace {
template <typename F> std::int64_t sumOf(const std::vector<StepStats> &steps, F field)
{
    std::int64_t total = 0;
    for (const StepStats &s : steps)
        total += field(s);
    return total;
}
} // namespace

double SimulationResult::totalDuration() const
{
    if (totals)
        return totals->duration;
    double total = 0;
    for (const StepStats &s : steps)
        total += s.duration();
    return total;
}
std::int64_t SimulationResult::loadedInput() const
{
    return totals ? totals->loaded_input : sumOf(steps, [](const StepStats &s) { return s.loaded_input; });
}
std::int64_t SimulationResult::loadedKernels() const
{
    return totals ? totals->loaded_kernels : sumOf(steps, [](const StepStats &s) { return s.loaded_kernels; });
}
std::int64_t SimulationResult::written() const
{
    return totals ? totals->written : sumOf(steps, [](const StepStats &s) { return s.written; });
}
std::int64_t SimulationResult::transferRuns() const
{
    return totals ? totals->runs : sumOf(steps, [](const StepStats &s) { return s.load_runs + s.write_runs; });
}
double SimulationResult::setupDuration() const
{
    if (totals)
        return totals->setup_duration;
    double sum = 0;
    for (const StepStats &s : steps)
        sum += s.setup_duration;
    return sum;
}
std::int64_t SimulationResult::peakFootprint() const
{
    if (totals)
        return totals->peak_footprint;
    std::int64_t peak = 0;
    for (const StepStats &s : steps)
        peak = std::max(peak, s.peak_footprint);
    return peak;
}

std::vector<const Diagnostic *> SimulationResult::errors() const
{
    std::vector<const Diagnostic *> out;
    for (const Diagnostic &d : diagnostics)
        if (d.severity == Severity::Error)
            out.push_back(&d);
    return out;
}

std::vector<const Diagnostic *> SimulationResult::warnings() const
{
    std::vector<const Diagnostic *> out;
    for (const Diagnostic &d : diagnostics)
        if (d.severity == Severity::Warning)
            out.push_back(&d);
    return out;
}

} // namespace convoffload
