#include "convoffload/optimise/S1InstanceBoundProof.h"

#include "convoffload/optimise/S1InstanceBound.h"

#include <chrono>
#include <cstdio>
#include <limits>
#include <sstream>

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
