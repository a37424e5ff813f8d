// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The expansion of S1 groups into steps (expandS1), one step at a time: a
// traced run of a big layer executes each step as it comes instead of
// holding the whole step list (on a 4096² layer about as large as the trace).

#include "convoffload/model/Problem.h"
#include "convoffload/model/Step.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace convoffload {

namespace detail {
class WriteScheduler;
}

class S1Expander {
public:
    /// Group g of `count` is `group(g)`; the spans must outlive the expander.
    S1Expander(const Problem &problem, std::size_t count, std::function<std::span<const PatchId>(std::size_t)> group);
    ~S1Expander();
    S1Expander(const S1Expander &) = delete;
    S1Expander &operator=(const S1Expander &) = delete;

    /// The number of steps: one per group and the final drain.
    std::size_t stepCount() const { return m_count + 1; }
    /// At least as many ids as the steps name in all: each pixel of each
    /// patch loaded and freed once, each output computed and written once,
    /// each kernel loaded and freed.
    std::size_t idBound() const;
    /// The next step into `step` (cleared first); false after the drain.
    /// Throws StrategyError for an empty group.
    bool next(Step &step);

private:
    void expandGroup(std::size_t g, Step &step);
    void drain(Step &step);

    const Problem &m_problem;
    std::size_t m_count;
    std::function<std::span<const PatchId>(std::size_t)> m_group;
    std::size_t m_next = 0;
    // M_inp after step i is exactly U(g_i), so a pixel is on chip before step
    // i+1 iff it was marked by group i: one mark array, no set operations.
    // mark >> 1 == g + 2: the pixel is in U(g) (0 = never marked, so group 0
    // keeps nothing); the low bit: it is loaded by step g, not kept.
    std::vector<std::uint32_t> m_mark;
    std::vector<PixelId> m_previous, m_current;
    std::vector<PatchId> m_sorted;
    std::unique_ptr<detail::WriteScheduler> m_writes;
};

} // namespace convoffload
