#pragma once
// A lower bound stronger than "every pixel once" for small instances: the
// optimum over every ordered partition with the reload bound relaxed, by
// dynamic programming over (patches done, last group). A pixel is loaded by
// a group exactly when the group before does not hold it, so the loads of a
// strategy are Σ|U_t \ U_t-1| and the state needs only the last group's
// union. The reload bound is the one constraint that needs more history: it
// is dropped, which can only lower the optimum, so the result is always a
// sound lower bound, and it is the optimum itself when the reload bound cannot
// bind (no pixel lies in more patches than the bound).
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <optional>

namespace convoffload {

struct PartitionBoundLimits {
    std::int64_t max_states = 400000; // (done, last group) states kept over all steps
    std::int64_t max_work = 8000000; // groups tried, over all states (under a second)
    /// Loads of a known strategy: states that cannot beat it are pruned (the
    /// result is unchanged, since the relaxed optimum is at most it).
    std::optional<std::int64_t> known_loads;
};

/// The relaxed optimum as a duration; nullopt when the instance has over 64
/// patches or 256 needed pixels, or the states or the work exceed their limits.
std::optional<double> partitionLowerBound(const S1Instance &instance, const PartitionBoundLimits &limits = {});

/// Whether the reload bound cannot bind on this instance: then the relaxed
/// optimum is the optimum.
bool reloadBoundIsSlack(const S1Instance &instance);

} // namespace convoffload
