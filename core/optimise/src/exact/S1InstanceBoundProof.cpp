// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/S1InstanceBoundProof.h"

#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <thread>

namespace convoffload {

namespace {

/// 2804343 → "2 804 343": state counts run to hundreds of millions.
std::string groupedDigits(std::int64_t n)
{
    std::string digits = std::to_string(n < 0 ? -n : n);
    for (std::ptrdiff_t i = std::ptrdiff_t(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(std::size_t(i), 1, ' ');
    return (n < 0 ? "-" : "") + digits;
}

} // namespace

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
        out << "bound not reached: " << why << " after " << groupedDigits(states) << " states";
        if (nothing_below)
            out << "; nothing is below " << *nothing_below;
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

namespace {

bool wholeCosts(const S1Instance &in)
{
    auto whole = [](double x) { return std::isfinite(x) && x == std::floor(x); };
    return whole(in.cost_per_pixel_load) && whole(in.cost_per_group) && whole(in.constant_cost);
}

/// One run of the dynamic programming: what is below `target`.
BoundProof proveBelow(const S1Instance &in, double target, const BoundProofLimits &limits,
    std::chrono::steady_clock::time_point start, std::chrono::steady_clock::time_point deadline)
{
    using Clock = std::chrono::steady_clock;
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    PartitionBoundLimits dp;
    dp.max_states = limits.max_states;
    dp.max_work = std::numeric_limits<std::int64_t>::max(); // the time limit ends it
    dp.below_duration = target;
    dp.cancel = limits.cancel;
    dp.threads = limits.threads > 0 ? limits.threads : std::max(1, int(std::thread::hardware_concurrency()));
    dp.keep_partition = limits.keep_partition;
    dp.deadline = deadline;
    if (limits.progress)
        dp.progress = [&](std::int64_t states) { limits.progress(states, elapsed()); };

    PartitionBoundOutcome outcome = partitionBound(in, dp);
    BoundProof proof;
    proof.incumbent = target;
    proof.states = outcome.states;
    switch (outcome.end) {
    case PartitionBoundEnd::Finished:
        proof.status = outcome.bound ? BoundProofStatus::Bounded : BoundProofStatus::Proven;
        proof.bound = outcome.bound ? *outcome.bound : target;
        proof.partition = std::move(outcome.partition);
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

} // namespace

BoundProof proveByRelaxedBound(const S1Instance &in, double incumbent, const BoundProofLimits &limits)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline
        = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.time_limit_s));
    auto finish = [&](BoundProof proof, std::optional<double> nothingBelow) {
        proof.incumbent = incumbent;
        proof.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (proof.status == BoundProofStatus::Proven)
            nothingBelow = incumbent;
        else if (proof.status == BoundProofStatus::Bounded)
            nothingBelow = proof.bound;
        proof.nothing_below = nothingBelow;
        return proof;
    };
    std::optional<double> nothingBelow;
    if (limits.known_bound && std::isfinite(incumbent) && wholeCosts(in) && relaxedBoundFits(in)) {
        // Climb: every whole target from just above the known bound to the
        // incumbent. Each run costs about kGrowth times the one before (2.0
        // to 2.5 measured on the paper's grid), so the runs below the
        // incumbent cost about as much again as the run at it: once the run
        // at the incumbent looks affordable (half the time left), it is
        // tried at once, with all the time left.
        constexpr double kGrowth = 2.5;
        for (double target = std::floor(*limits.known_bound + 1e-9) + 1; target < incumbent; target += 1) {
            const Clock::time_point before = Clock::now();
            BoundProof step = proveBelow(in, target, limits, start, deadline);
            if (step.status != BoundProofStatus::Proven)
                return finish(std::move(step), nothingBelow); // found the relaxed optimum, or stopped
            nothingBelow = target;
            if (limits.bound_raised)
                limits.bound_raised(target);
            const Clock::time_point now = Clock::now();
            const double took = std::max(1e-3, std::chrono::duration<double>(now - before).count());
            const double left = std::chrono::duration<double>(deadline - now).count();
            if (took * std::pow(kGrowth, incumbent - target) <= left / 2)
                break;
        }
    }
    return finish(proveBelow(in, incumbent, limits, start, deadline), nothingBelow);
}

} // namespace convoffload
