// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the S1 and the kernel-streaming expansions (private to the model
// library): which outputs a step writes, per the write policy.

#include "convoffload/model/Ids.h"
#include "convoffload/model/Problem.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace convoffload::detail {

/// Steps list ids in ascending order; generated groups are mostly sorted already.
inline void sortIds(std::vector<std::uint32_t> &ids)
{
    if (!std::is_sorted(ids.begin(), ids.end()))
        std::sort(ids.begin(), ids.end());
}

/// Chooses the writes of each step according to the write policy. It holds
/// the outputs on chip, oldest first, each once: an output computed again
/// while still on chip (an invalid strategy) stays one element in its place,
/// as in the simulated memory, so it is written once.
class WriteScheduler {
public:
    explicit WriteScheduler(const Problem &problem)
        : m_problem(problem)
        , m_onChip(std::size_t(problem.layer.outputCount()), 0)
    {
    }

    /// Outputs to write before computing `compute` when the step's input and
    /// kernels will occupy `resident` elements. As late as possible: the
    /// fewest oldest outputs that make the footprint after the compute fit,
    /// counting the outputs the compute adds to the memory.
    std::vector<OutputId> writesBefore(std::int64_t resident, const std::vector<OutputId> &compute)
    {
        std::size_t count = 0;
        if (m_problem.options.write_policy == WritePolicy::NextStep) {
            count = m_pending.size();
        } else {
            std::int64_t fresh = 0;
            for (std::size_t i = 0; i < compute.size(); ++i) // compute is sorted: skip repeats
                fresh += !m_onChip[compute[i]] && (i == 0 || compute[i] != compute[i - 1]);
            const std::int64_t excess = resident + std::int64_t(m_pending.size()) + fresh - m_problem.hardware.mem_size;
            count = std::size_t(std::clamp<std::int64_t>(excess, 0, std::int64_t(m_pending.size())));
        }
        std::vector<OutputId> written(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(count));
        m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(count));
        for (OutputId o : written)
            m_onChip[o] = 0;
        return written;
    }
    /// `outputs` sorted ascending.
    void computed(const std::vector<OutputId> &outputs)
    {
        for (OutputId o : outputs)
            if (!m_onChip[o]) {
                m_onChip[o] = 1;
                m_pending.push_back(o);
            }
    }
    std::vector<OutputId> rest() { return {m_pending.begin(), m_pending.end()}; }

private:
    const Problem &m_problem;
    std::deque<OutputId> m_pending; // on chip, oldest first
    std::vector<std::uint8_t> m_onChip; // per output: in m_pending
};

} // namespace convoffload::detail
