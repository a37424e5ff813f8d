// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/CandidateCache.h"

#include <cstdio>

namespace convoffload {

std::optional<std::string> CandidateCache::keyOf(const Problem &problem, const StrategySpec &spec)
{
    if (spec.kind == StrategyKind::Groups || spec.kind == StrategyKind::Steps
        || problem.options.write_policy != WritePolicy::NextStep)
        return std::nullopt;
    const Layer &l = problem.layer;
    const Hardware &h = problem.hardware;
    const Options &o = problem.options;
    const Transfer t = h.transfer.value_or(Transfer{});
    char key[512];
    // Every field that can change a run, mem_size aside; doubles exactly.
    std::snprintf(key, sizeof key,
        "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d|%lld %a %a %a %lld %d %d %d %lld %a|%d %d|%d %lld %lld %d %d", l.c_in,
        l.h_in, l.w_in, l.h_k, l.w_k, l.n, l.stride_h, l.stride_w, l.pad_top, l.pad_bottom, l.pad_left, l.pad_right, l.group,
        l.dilation_h, l.dilation_w, static_cast<long long>(h.nbop_pe), h.t_l, h.t_w, h.t_acc, static_cast<long long>(h.dram_size),
        h.max_loads_per_element, h.transfer.has_value() ? 1 : 0, int(t.layout), static_cast<long long>(t.burst), t.t_setup,
        o.kernels_preloaded ? 1 : 0, o.padding_in_dram ? 1 : 0, int(spec.kind),
        static_cast<long long>(spec.group_size.value_or(-1)), static_cast<long long>(spec.kernel_block.value_or(-1)),
        int(spec.order), int(spec.loop));
    return std::string(key);
}

std::optional<LayerCandidate> CandidateCache::find(const std::string &key) const
{
    const std::lock_guard guard(m_mutex);
    const auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        ++m_misses;
        return std::nullopt;
    }
    ++m_hits;
    return it->second;
}

void CandidateCache::insert(const std::string &key, const LayerCandidate &candidate)
{
    const std::lock_guard guard(m_mutex);
    if (m_entries.size() >= m_maxEntries)
        m_entries.clear();
    m_entries.emplace(key, candidate);
}

std::int64_t CandidateCache::hits() const
{
    const std::lock_guard guard(m_mutex);
    return m_hits;
}

std::int64_t CandidateCache::misses() const
{
    const std::lock_guard guard(m_mutex);
    return m_misses;
}

} // namespace convoffload
