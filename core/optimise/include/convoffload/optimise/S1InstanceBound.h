// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
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

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

struct PartitionBoundLimits {
    std::int64_t max_states = 400000; // (done, last group) states kept over all steps
    std::int64_t max_work = 1000000; // groups tried, over all states (about 0.1 s)
    /// Loads of a known strategy: states that cannot beat it are pruned (the
    /// result is unchanged, since the relaxed optimum is at most it).
    std::optional<std::int64_t> known_loads;
    /// Keep only what could end strictly below this duration (the proof of
    /// an incumbent): when nothing is left, the relaxed optimum, hence the
    /// optimum, is at least it.
    std::optional<double> below_duration;
    const std::atomic<bool> *cancel = nullptr; // checked every few thousand groups tried
    std::optional<std::chrono::steady_clock::time_point> deadline; // checked with cancel
    /// Keep every step's states so that the partition reaching `bound` can be
    /// rebuilt (PartitionBoundOutcome::partition). Without it only two steps
    /// are held at a time; the states cap counts all steps either way.
    bool keep_partition = false;
    /// Threads expanding each step's states (the result is the same for any number).
    int threads = 1;
    /// Called from the calling thread with the states kept so far, about every 65 000 groups tried.
    std::function<void(std::int64_t states)> progress;
    /// Above 0: a beam, a heuristic and no bound. Each step keeps only this
    /// many states, those of least loads plus pixels the patches left need
    /// beyond the last group's union, so `bound` is then only the best
    /// partition found (below below_duration), and may be above the optimum.
    std::int64_t beam_width = 0;
};

/// How a run of the dynamic programming ended.
enum class PartitionBoundEnd {
    Finished, // every state expanded: `bound` is exact (or nothing is below below_duration)
    TooLarge, // over 64 patches or 256 needed pixels, or too many first groups: not tried
    StatesCapHit, // max_states reached
    WorkCapHit, // max_work reached
    Cancelled,
    TimedOut // deadline passed
};
std::string partitionBoundEndName(PartitionBoundEnd end); // "finished", "too large", "states cap hit", ...

struct PartitionBoundOutcome {
    PartitionBoundEnd end = PartitionBoundEnd::TooLarge;
    /// Finished only: the relaxed optimum, or the best below below_duration;
    /// nullopt when nothing is (below it).
    std::optional<double> bound;
    std::int64_t states = 0; // kept over all steps, when it ended
    std::int64_t work = 0; // groups tried
    /// With keep_partition, when `bound` is set: an ordered partition of that
    /// duration (reload bound ignored).
    Groups partition;
};

/// The dynamic programming with its full outcome.
PartitionBoundOutcome partitionBound(const S1Instance &instance, const PartitionBoundLimits &limits);

/// The relaxed optimum as a duration; nullopt when the instance has over
/// 64 patches or 256 needed pixels, the states or the work exceed their limits, or on cancel.
std::optional<double> partitionLowerBound(const S1Instance &instance, const PartitionBoundLimits &limits = {});

/// Whether the reload bound cannot bind on this instance: then the relaxed
/// optimum is the optimum.
bool reloadBoundIsSlack(const S1Instance &instance);

} // namespace convoffload
