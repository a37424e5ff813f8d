// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Simulations of generated strategies shared between analyses whose
// hardware differs only in mem_size, and between identical layers of one
// network: what an exploration's points have in common
// (docs/design/performance.md#exploration).
//
// Under the next-step write policy the memory size changes no action of a
// run, only the memory-overflow finding: the run is simulated once with an
// unbounded memory, and a point's memory then decides validity by the peak
// footprint (an overflow is exactly a peak above mem_size). Under
// as-late-as-possible writes the memory decides the writes: nothing is
// shared.
#include "convoffload/simulate/NetworkAnalysis.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace convoffload {

/// Thread-safe; at most `maxEntries` runs are kept (then it starts afresh),
/// so a sweep of many points holds a bounded memory.
class CandidateCache {
public:
    explicit CandidateCache(std::size_t maxEntries = 200000)
        : m_maxEntries(maxEntries)
    {
    }

    /// The key of `spec` on `problem` without its mem_size; nullopt when the
    /// run cannot be shared (explicit groups or steps, as-late-as-possible
    /// writes).
    static std::optional<std::string> keyOf(const Problem &problem, const StrategySpec &spec);

    /// The candidate simulated with an unbounded memory (its name that of
    /// the first spec stored under the key).
    std::optional<LayerCandidate> find(const std::string &key) const;
    void insert(const std::string &key, const LayerCandidate &candidate);

    std::int64_t hits() const;
    std::int64_t misses() const;

private:
    mutable std::mutex m_mutex;
    std::size_t m_maxEntries;
    std::unordered_map<std::string, LayerCandidate> m_entries;
    mutable std::int64_t m_hits = 0, m_misses = 0;
};

} // namespace convoffload
