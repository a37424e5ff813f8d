// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// `optimize --prove`: after the search, the relaxed optimum
// (S1InstanceBound.h) computed with every state that cannot end strictly
// below the incumbent pruned. Nothing left proves the incumbent optimal; a
// relaxed optimum below it is a bound with a gap; a cap, the time limit or
// Stop end it without a conclusion, and it says which.
#include "convoffload/optimise/S1Instance.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace convoffload {

enum class BoundProofStatus {
    Proven, // no ordered partition, even with the reload bound dropped, beats the incumbent
    Bounded, // the relaxed optimum is below the incumbent: a bound and a gap
    NotReached, // a cap, the time limit or Stop ended it first
    NotTried // over 64 patches or 256 needed pixels, or no incumbent
};
std::string boundProofStatusName(BoundProofStatus status); // "proven", "bounded", "not reached", "not tried"

struct BoundProofLimits {
    std::int64_t max_states = 40000000; // under 3 GB (about 72 bytes a state at the peak)
    double time_limit_s = 60;
    const std::atomic<bool> *cancel = nullptr;
    /// Threads of the dynamic programming; 0 = std::thread::hardware_concurrency().
    int threads = 1;
    std::function<void(std::int64_t states, double seconds)> progress;
    /// A lower bound already known (the pixel bound, the search's). When it
    /// is set and every cost is a whole number, the proof climbs to the
    /// incumbent: it first shows that nothing is below known + 1, then + 2,
    /// ... (each such run is far cheaper than the one at the incumbent, and
    /// each raises the bound), and stops at the first target below which it
    /// finds a partition: that partition is the relaxed optimum. Once the run
    /// at the incumbent looks affordable (each run costs about 2.5 times the
    /// one before), it goes there at once, with all the time left.
    std::optional<double> known_bound;
    /// Climbing: called with the new bound each time a run shows that
    /// nothing is below a higher target (on the calling thread), so that
    /// progress can show the bound rising before the proof ends.
    std::function<void(double nothing_below)> bound_raised;
    /// Bounded only: also rebuild the ordered partition of the relaxed
    /// optimum (BoundProof::partition). Keeps every step's states in memory.
    bool keep_partition = false;
};

struct BoundProof {
    BoundProofStatus status = BoundProofStatus::NotTried;
    double incumbent = 0; // the duration it tried to prove
    std::optional<double> bound; // Proven: the incumbent; Bounded: the relaxed optimum
    /// Climbing (BoundProofLimits::known_bound): the highest target with
    /// nothing below it, a lower bound even when the proof ends unfinished.
    std::optional<double> nothing_below;
    std::int64_t states = 0; // kept over all steps (of the last run when climbing)
    double seconds = 0;
    std::string why; // NotReached, NotTried: in words ("states cap hit", ...)
    /// With keep_partition, Bounded: groups reaching `bound` with the reload
    /// bound ignored (they may break it; evaluate() says).
    Groups partition;

    /// The report line: "proven optimal by the relaxed bound", "bound X, gap
    /// Y %", "bound not reached: states cap hit after N states"...
    std::string text() const;
};

/// Whether the instance is small enough for the dynamic programming: at most
/// 64 patches and 256 needed pixels.
bool relaxedBoundFits(const S1Instance &instance);

/// Proves or bounds `incumbent` (a feasible strategy's duration).
BoundProof proveByRelaxedBound(const S1Instance &instance, double incumbent, const BoundProofLimits &limits);

} // namespace convoffload
