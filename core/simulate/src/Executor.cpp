// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "Executor.h"

#include <algorithm>
#include <stdexcept>

namespace convoffload::detail {

void requireSound(const Problem &problem)
{
    std::vector<std::string> problems = problem.layer.problems();
    const std::vector<std::string> hw = problem.hardware.problems();
    problems.insert(problems.end(), hw.begin(), hw.end());
    if (!problems.empty())
        throw std::invalid_argument(problems.front());
}

Executor::Executor(const Problem &problem, const SimulationOptions &options)
    : m_problem(problem)
    , m_layer(problem.layer)
    , m_options(options)
    , m_reporter(m_result, m_layer, options.max_diagnostics_per_rule)
    , m_reload(m_layer, problem.options.padding_in_dram, problem.hardware.max_loads_per_element)
    , m_inputUnitElements(m_layer.sliceChannels())
{
    m_result.transfer_model = problem.hardware.transfer.has_value();
    if (!options.functional)
        return;
    if (!options.data)
        m_seeded = seededTensors(m_layer, options.seed);
    m_chip.emplace(problem, options.data ? *options.data : m_seeded);
}

void Executor::poll(std::size_t done, std::size_t total) const
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
    if (m_options.progress)
        m_options.progress(done, total);
}

void Executor::checkDram()
{
    const std::int64_t total = dramElements(m_problem);
    if (total > m_problem.hardware.dram_size)
        m_reporter.dramOverflow(total, m_problem.hardware.dram_size);
}

SimulationResult Executor::finish(std::vector<std::uint32_t> &&inputLoads, std::vector<std::uint32_t> &&kernelLoads)
{
    if (m_chip)
        m_result.functional = m_chip->check(m_options.keep_output);
    std::stable_sort(m_result.diagnostics.begin(), m_result.diagnostics.end(),
        [](const Diagnostic &a, const Diagnostic &b) { return a.severity < b.severity; });
    m_result.input_load_counts = std::move(inputLoads);
    m_result.kernel_load_counts = std::move(kernelLoads);
    m_reload.finish(m_result);
    if (!m_options.step_stats && !m_result.totals) {
        StepTotals totals;
        for (const StepStats &s : m_result.steps)
            totals.add(s);
        m_result.totals = totals;
        m_result.steps = {};
    }
    return std::move(m_result);
}

} // namespace convoffload::detail
