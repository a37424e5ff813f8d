// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/ExactOptimiser.h"

#include "convoffload/optimise/S1InstanceBound.h"

#include "LoadOnceProof.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <thread>

namespace convoffload {

BoundProof proveSearchResult(
    const S1Instance &in, OptimiseResult &result, const BoundProofLimits &limits, const OptimiseControl &control)
{
    BoundProof proof;
    if (!result.hasSolution() || result.status == OptimiseStatus::Failed) {
        proof.why = "the search found no valid strategy";
        return proof;
    }
    proof.incumbent = result.duration;
    if (result.status == OptimiseStatus::Optimal) {
        proof.bound = result.duration;
        proof.why = "the search's strategy is already proven optimal (its duration equals the bound)";
        return proof;
    }
    if (result.cancelled) {
        proof.why = "stopped";
        return proof;
    }
    BoundProofLimits run = limits;
    run.cancel = control.cancel;
    const double searchSeconds = result.seconds;
    double lastReport = 0;
    if (control.progress || control.proof_progress)
        run.progress = [&](std::int64_t states, double seconds) {
            if (seconds - lastReport < 0.05)
                return;
            lastReport = seconds;
            if (control.progress)
                control.progress({searchSeconds + seconds, result.duration, result.lower_bound});
            if (control.proof_progress)
                control.proof_progress(states, seconds);
        };
    if (!run.known_bound)
        run.known_bound = result.lower_bound;
    // Each target the climb clears is a bound already: shown as it comes,
    // not only when the proof ends (it may take the whole time limit).
    const auto proofStart = std::chrono::steady_clock::now();
    run.bound_raised = [&](double nothingBelow) {
        const double bound = std::min(nothingBelow, result.duration);
        if (bound <= result.lower_bound)
            return;
        result.lower_bound = bound;
        const double seconds
            = searchSeconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - proofStart).count();
        result.history.push_back({seconds, result.duration, result.lower_bound});
        if (control.progress)
            control.progress(result.history.back());
    };
    proof = proveByRelaxedBound(in, result.duration, run);
    result.seconds += proof.seconds;
    if (proof.status == BoundProofStatus::Proven) {
        result.status = OptimiseStatus::Optimal;
        result.lower_bound = result.duration;
    } else if (proof.status == BoundProofStatus::Bounded) {
        result.lower_bound = std::max(result.lower_bound, *proof.bound);
    } else if (proof.why == "cancelled") {
        result.cancelled = true;
    }
    if (proof.nothing_below)
        result.lower_bound = std::max(result.lower_bound, std::min(*proof.nothing_below, result.duration));
    const OptimiseProgress last{result.seconds, result.duration, result.lower_bound};
    result.history.push_back(last);
    if (control.progress)
        control.progress(last);
    return proof;
}

namespace {

/// The result's incumbent and bound now, in its history and to the progress callback.
void notePoint(OptimiseResult &r, const OptimiseControl &control)
{
    r.history.push_back({r.seconds, r.hasSolution() ? std::optional<double>(r.duration) : std::nullopt, r.lower_bound});
    if (control.progress)
        control.progress(r.history.back());
}

/// When a proof ends before the time does (its states cap, or the
/// load-once proof answering early), the rest of the time goes to a second
/// search, from another seed; its strategy is kept when better. Progress
/// continues from where the proof ended. Returns whether it found a better
/// strategy.
bool searchAgain(const S1Instance &in, const ExactOptions &options, const OptimiseControl &control, OptimiseResult &r)
{
    const double left = control.time_limit_s - r.seconds;
    if (left < 0.5 || (control.cancel && control.cancel->load()))
        return false;
    SearchOptions again = options.search;
    again.seed += 1;
    OptimiseControl rest = control;
    rest.time_limit_s = left;
    const double offset = r.seconds;
    if (control.progress)
        rest.progress = [&](const OptimiseProgress &p) {
            control.progress({offset + p.seconds,
                p.incumbent && (!r.hasSolution() || *p.incumbent < r.duration)
                    ? p.incumbent
                    : (r.hasSolution() ? std::optional<double>(r.duration) : std::nullopt),
                std::max(r.lower_bound, p.bound.value_or(0))});
        };
    const OptimiseResult more = searchOptimise(in, again, rest);
    r.seconds += more.seconds;
    r.cancelled = more.cancelled;
    r.timed_out = more.timed_out;
    const bool better
        = more.hasSolution() && more.status != OptimiseStatus::Failed && (!r.hasSolution() || more.duration < r.duration);
    if (better) {
        r.groups = more.groups;
        r.duration = more.duration;
        r.lower_bound = std::max(r.lower_bound, more.lower_bound);
        r.status = r.duration <= r.lower_bound ? OptimiseStatus::Optimal : OptimiseStatus::Feasible;
    }
    notePoint(r, control);
    return better;
}

/// Before the proof: beams of the dynamic programming below the incumbent,
/// widths 250, 2000, 16 000 while the beam's share of the time lasts (each
/// about eight times as long as the one before: 10x10 G3 takes 4.3 s at 250
/// and 43 s at 2000). Where the search stays above the optimum they often
/// reach it (10x10 G4: search 124, beam 122 at width 2000, then proven), and
/// a lower incumbent makes the proof cheaper. Only a valid strategy that
/// beats the incumbent is kept.
void improveByBeam(const S1Instance &in, const ExactOptions &options, const OptimiseControl &control, OptimiseResult &r)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const double share = std::clamp(options.beam_share, 0.0, 1.0) * control.time_limit_s;
    const Clock::time_point deadline
        = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, share)));
    const int threads
        = options.search.threads > 0 ? options.search.threads : std::max(1, int(std::thread::hardware_concurrency()));
    constexpr std::int64_t kWidthStep = 8;
    for (std::int64_t width = 250; width <= 16000; width *= kWidthStep) {
        const Clock::time_point before = Clock::now();
        PartitionBoundLimits limits;
        limits.beam_width = width;
        limits.below_duration = r.duration;
        limits.keep_partition = true;
        limits.max_states = options.max_states;
        limits.max_work = std::numeric_limits<std::int64_t>::max(); // the deadline ends it
        limits.threads = threads;
        limits.cancel = control.cancel;
        limits.deadline = deadline;
        PartitionBoundOutcome beam = partitionBound(in, limits);
        r.seconds += std::chrono::duration<double>(Clock::now() - before).count();
        if (beam.end == PartitionBoundEnd::Cancelled)
            r.cancelled = true; // the proof then says "stopped" and does not start
        if (beam.end != PartitionBoundEnd::Finished)
            return;
        if (beam.bound) {
            Groups groups = std::move(beam.partition);
            const S1Evaluation ev = evaluate(in, groups);
            if (ev.feasible && ev.duration < r.duration) {
                r.groups = std::move(groups);
                r.duration = ev.duration;
                if (r.duration <= r.lower_bound)
                    r.status = OptimiseStatus::Optimal;
                notePoint(r, control);
                if (r.status == OptimiseStatus::Optimal)
                    return;
            }
        }
        const double took = std::chrono::duration<double>(Clock::now() - before).count();
        if (Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(double(kWidthStep) * took))
            > deadline)
            return;
    }
}

/// Beyond the dynamic programming (65 to 128 patches): the complete
/// load-once search with the time left. A strategy loading every pixel once
/// is at the pixel bound, so optimal; none raises the bound by one load (or
/// one compute). Returns what it settled: Exists (and taken), None, or
/// Unknown (not finished, or a strategy not better than the search's).
LoadOnceProofStatus settleLoadOnce(const S1Instance &in, const OptimiseControl &control, OptimiseResult &r)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    LoadOnceProofLimits limits;
    limits.max_nodes = std::numeric_limits<std::int64_t>::max(); // the time limit ends it
    limits.stop = control.cancel;
    limits.deadline = start
        + std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(std::max(0.0, control.time_limit_s - r.seconds)));
    const LoadOnceProof proof = proveLoadOnce(in, limits);
    r.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (proof.why == "cancelled")
        r.cancelled = true;
    LoadOnceProofStatus settled = LoadOnceProofStatus::Unknown;
    if (proof.status == LoadOnceProofStatus::Exists && proof.groups) {
        const S1Evaluation ev = evaluate(in, *proof.groups);
        if (ev.feasible && (!r.hasSolution() || ev.duration <= r.duration)) {
            r.groups = *proof.groups;
            r.duration = ev.duration;
            r.lower_bound = std::max(r.lower_bound, ev.duration);
            r.status = OptimiseStatus::Optimal;
            settled = LoadOnceProofStatus::Exists;
        }
    } else if (proof.status == LoadOnceProofStatus::None) {
        r.lower_bound = std::max(r.lower_bound, std::min(boundWithoutLoadOnce(in), r.duration));
        if (r.hasSolution() && r.duration <= r.lower_bound)
            r.status = OptimiseStatus::Optimal;
        settled = LoadOnceProofStatus::None;
    }
    if (settled != LoadOnceProofStatus::Unknown)
        notePoint(r, control);
    return settled;
}

} // namespace

ExactReach exactReach(const S1Instance &instance)
{
    if (relaxedBoundFits(instance))
        return ExactReach::Proof;
    return loadOnceProofFits(instance) ? ExactReach::LoadOnceOnly : ExactReach::SearchOnly;
}

ExactOutcome exactOptimise(const S1Instance &in, const ExactOptions &options, const OptimiseControl &control)
{
    const ExactReach reach = exactReach(in);
    const bool provable = reach == ExactReach::Proof;
    const bool loadOnceOnly = reach == ExactReach::LoadOnceOnly;
    OptimiseControl searchControl = control;
    if (provable)
        searchControl.time_limit_s = control.time_limit_s * std::clamp(options.search_share, 0.0, 1.0);
    else if (loadOnceOnly)
        searchControl.time_limit_s = control.time_limit_s * (1 - std::clamp(options.load_once_share, 0.0, 1.0));
    ExactOutcome out;
    OptimiseResult &r = out.result;
    r = searchOptimise(in, options.search, searchControl);
    r.method = "exact";
    r.timed_out = false; // the search's share ending is not the user's limit
    if (!provable) {
        out.proof.why = "over 64 patches or 256 needed pixels";
        const LoadOnceProofStatus settled = loadOnceOnly && !r.cancelled && r.status != OptimiseStatus::Optimal
            ? settleLoadOnce(in, control, r)
            : LoadOnceProofStatus::Unknown;
        r.timed_out = !r.cancelled && r.status != OptimiseStatus::Optimal;
        // The load-once proof often answers in a fraction of its share
        // (11x11 G3: 95 000 steps): the time left goes to a second search.
        const bool improved
            = loadOnceOnly && !r.cancelled && r.status != OptimiseStatus::Optimal && searchAgain(in, options, control, r);
        if (r.status == OptimiseStatus::Optimal && improved)
            r.message = "proven optimal: a second search in the time left reached the lower bound";
        else if (r.status == OptimiseStatus::Optimal && settled == LoadOnceProofStatus::Exists)
            r.message = "proven optimal: a strategy loads every needed pixel once (the pixel bound)";
        else if (r.status == OptimiseStatus::Optimal && settled == LoadOnceProofStatus::None)
            r.message = "proven optimal: no strategy loads every needed pixel once, so the bound rose to the search's strategy";
        else if (r.status == OptimiseStatus::Optimal)
            r.message = "proven optimal: the search reached the lower bound";
        else
            r.message = "not proven: the layer is too large for the exact dynamic programming (over 64 outputs or 256 "
                        "needed pixels), so this is the search's strategy"
                + std::string(settled == LoadOnceProofStatus::None
                        ? "; no strategy loads every needed pixel once, so the bound rose by one"
                        : "")
                + (improved ? "; a second search in the time left found a better strategy" : "");
        return out;
    }
    if (r.status == OptimiseStatus::Optimal) {
        out.proof.incumbent = out.proof.bound.emplace(r.duration);
        out.proof.why = "the search's strategy is already proven optimal (its duration equals the bound)";
        r.message = "proven optimal: the search reached the lower bound";
        return out;
    }
    if (r.hasSolution() && !r.cancelled && r.status != OptimiseStatus::Failed) {
        improveByBeam(in, options, control, r);
        if (r.status == OptimiseStatus::Optimal) {
            out.proof.incumbent = out.proof.bound.emplace(r.duration);
            out.proof.why = "a beam of the dynamic programming reached the lower bound";
            r.message = "proven optimal: a beam of the dynamic programming reached the lower bound";
            return out;
        }
    }
    BoundProofLimits limits;
    limits.max_states = options.max_states;
    limits.time_limit_s = std::max(1e-3, control.time_limit_s - r.seconds);
    limits.keep_partition = true;
    limits.threads = options.search.threads;
    if (!r.hasSolution() && !r.cancelled && r.status != OptimiseStatus::Failed) {
        // No incumbent to prune by: the whole relaxed optimum, which may
        // still be a valid strategy (the search only missed it).
        limits.cancel = control.cancel;
        out.proof = proveByRelaxedBound(in, std::numeric_limits<double>::infinity(), limits);
        r.seconds += out.proof.seconds;
    } else {
        out.proof = proveSearchResult(in, r, limits, control);
    }
    BoundProof &proof = out.proof;
    switch (proof.status) {
    case BoundProofStatus::Proven:
        r.message = "proven optimal: no ordered partition beats it, even with the reload bound dropped";
        break;
    case BoundProofStatus::Bounded: {
        // The relaxed optimum's partition: the optimum itself when it keeps
        // the reload bound (nothing feasible can be below a relaxed optimum).
        const S1Evaluation ev = evaluate(in, proof.partition);
        if (ev.feasible && (!r.hasSolution() || ev.duration < r.duration)) {
            const bool found = r.hasSolution();
            r.groups = proof.partition;
            r.duration = ev.duration;
            r.lower_bound = ev.duration;
            r.status = OptimiseStatus::Optimal;
            r.message = std::string("proven optimal: the exact optimum found by dynamic programming")
                + (found ? ", better than the search's" : "; the search had found none");
            proof.status = BoundProofStatus::Proven;
            proof.incumbent = ev.duration;
        } else {
            r.lower_bound = std::max(r.lower_bound, *proof.bound);
            r.message = "not proven: the best ordered partition (" + std::to_string(std::llround(*proof.bound))
                + ") breaks the reload bound: " + ev.violation + "; its duration is a bound";
        }
        notePoint(r, control);
        break;
    }
    case BoundProofStatus::NotReached:
        r.timed_out = proof.why == "time limit reached";
        r.message = "not proven: " + proof.text();
        break;
    case BoundProofStatus::NotTried:
        r.message = "not proven: " + proof.why;
        break;
    }
    proof.partition.clear(); // in the result's groups when it was used
    // The proof may end before the time does (its states cap, a relaxed
    // optimum that breaks the reload bound, too many first groups to try):
    // the time left goes to a second search.
    if (r.status != OptimiseStatus::Optimal && !r.cancelled && searchAgain(in, options, control, r))
        r.message = r.status == OptimiseStatus::Optimal
            ? "proven optimal: after the proof, a second search in the time left reached the lower bound"
            : r.message + "; a second search in the time left found a better strategy";
    return out;
}

} // namespace convoffload
