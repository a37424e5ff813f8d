#include "convoffload/optimise/S1InstanceBoundProof.h"

#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <thread>

namespace convoffload {

std::string boundProofStatusName(BoundProofStatus status)
{
    switch (status) {
    case BoundProofStatus::Proven:
        return "proven";
    case BoundProofStatus::Bounded:
        return "bounded";
    case BoundProofStatus::NotReached:
        return "not reached";
    case BoundProofStatus::NotTried:
        return "not tried";
    }
    return "?";
}

std::string BoundProof::text() const
{
    std::ostringstream out;
    switch (status) {
    case BoundProofStatus::Proven:
        out << "proven optimal by the relaxed bound";
        break;
    case BoundProofStatus::Bounded: {
        if (!std::isfinite(incumbent)) { // nothing to prove: the relaxed optimum alone
            out << "bound " << *bound;
            break;
        }
        char gap[32];
        std::snprintf(gap, sizeof gap, "%.1f", 100.0 * (incumbent - *bound) / incumbent);
        out << "bound " << *bound << ", gap " << gap << " %";
        break;
    }
    case BoundProofStatus::NotReached:
        out << "bound not reached: " << why << " after " << states << " states";
        break;
    case BoundProofStatus::NotTried:
        out << "bound not tried: " << why;
        break;
    }
    char time[32];
    std::snprintf(time, sizeof time, " (%.1f s)", seconds);
    return out.str() + (status == BoundProofStatus::NotTried ? "" : time);
}

bool relaxedBoundFits(const S1Instance &in) { return in.patches > 0 && in.patches <= 64 && in.needed_pixels.size() <= 256; }

BoundProof proveByRelaxedBound(const S1Instance &in, double incumbent, const BoundProofLimits &limits)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    PartitionBoundLimits dp;
    dp.max_states = limits.max_states;
    dp.max_work = std::numeric_limits<std::int64_t>::max(); // the time limit ends it
    dp.below_duration = incumbent;
    dp.cancel = limits.cancel;
    dp.threads = limits.threads > 0 ? limits.threads : std::max(1, int(std::thread::hardware_concurrency()));
    dp.keep_partition = limits.keep_partition;
    dp.deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.time_limit_s));
    if (limits.progress)
        dp.progress = [&](std::int64_t states) { limits.progress(states, elapsed()); };

    const PartitionBoundOutcome outcome = partitionBound(in, dp);
    BoundProof proof;
    proof.incumbent = incumbent;
    proof.states = outcome.states;
    proof.seconds = elapsed();
    switch (outcome.end) {
    case PartitionBoundEnd::Finished:
        proof.status = outcome.bound ? BoundProofStatus::Bounded : BoundProofStatus::Proven;
        proof.bound = outcome.bound ? *outcome.bound : incumbent;
        for (const std::uint64_t group : outcome.partition) {
            Group patches;
            for (std::uint64_t rest = group; rest != 0; rest &= rest - 1)
                patches.push_back(PatchId(std::countr_zero(rest)));
            proof.partition.push_back(std::move(patches));
        }
        break;
    case PartitionBoundEnd::TooLarge:
        proof.status = BoundProofStatus::NotTried;
        proof.why = "over 64 patches or 256 needed pixels";
        break;
    default:
        proof.status = BoundProofStatus::NotReached;
        proof.why = partitionBoundEndName(outcome.end);
        break;
    }
    return proof;
}

} // namespace convoffload
