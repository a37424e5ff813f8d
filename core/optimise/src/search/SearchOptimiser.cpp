// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// searchOptimise: seeds, then simulated annealing on a SearchState, in one
// chain per thread; the calling thread watches them (cancel, time limit,
// progress) and the chains share the best strategy under a mutex.
//
// Constraints are handled two ways. Group sizes and the number of groups are
// never broken by a move (moves that would are not proposed). Memory and the
// reload bound are penalised instead, so a search that starts from an
// infeasible seed (the heuristics on LeNet-5 break the reload bound) can walk
// back to feasibility; only feasible states are ever recorded as the best.
#include "convoffload/optimise/SearchOptimiser.h"

#include "LoadOnceSearch.h"
#include "SearchAnnealer.h"
#include "WavefrontBeam.h"
#include "exact/LoadOnceProof.h"

#include "convoffload/model/Ids.h"
#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace convoffload {

namespace {

using Clock = std::chrono::steady_clock;
using search::Annealer;
using search::kPenaltyPerExcess;
using search::SearchState;

constexpr int kRounds = 4; // restarts from the best strategy, each cooling from kStartTemperature
constexpr double kStartTemperature = 1.0; // in units of one pixel load
constexpr double kEndTemperature = 0.2;
constexpr double kFinalShare = 0.25; // of an anytime run's time: one round from the best of all chains
constexpr double kRepairTemperature = 0.3; // start of the round that repairs a relaxed block's best, in pixel loads
constexpr int kCheckEvery = 256; // moves between checks of the stop flag (and the clock, in a timed round)
constexpr double kProgressInterval = 0.05; // seconds: at most 20 reports a second
constexpr std::chrono::milliseconds kWatchInterval{20}; // between checks of cancel and the time limit
constexpr int kMaxThreads = 256;
/// What one chain's SearchState costs to build, in evaluations of a strategy
/// (measured on 1 M patches: 66 % of a run against 2.3 % per evaluation).
constexpr double kChainSetUpEvaluations = 15;
constexpr double kLoadOnceShare = 0.3; // of the time limit, at most, for the load-once search
constexpr double kWavefrontShare = 0.4; // of the time limit, at most, until the wavefront beams end
constexpr int kFirstBeamWidth = 64; // each next beam is four times wider
constexpr int kBudgetBeamWidth = 256; // the widest with a move budget
constexpr int kWidestBeam = 4096; // the widest of an anytime run

struct Seed {
    Groups groups;
    double objective;
};

/// The seed to start from: the least penalised objective among the heuristics
/// and tilings (a feasible one when any is, since any excess costs more than
/// it saves). Each probe builds a SearchState (about fifteen evaluations):
/// once `deadline` passes, the best of those probed so far.
Seed bestSeed(const S1Instance &in, const std::vector<NamedGroups> &candidates, const Deadline &deadline)
{
    Seed best{{}, std::numeric_limits<double>::infinity()};
    for (const NamedGroups &c : candidates) {
        if (std::int64_t(c.groups.size()) > in.max_groups)
            continue;
        if (!best.groups.empty() && deadline.passed())
            break;
        Annealer probe(in, c.groups, 0);
        const double objective = probe.objective();
        if (objective < best.objective)
            best = {c.groups, objective};
    }
    return best;
}

/// Whether the reload bound can bind: some pixel lies in more patches than
/// it may be loaded times (a pixel is loaded at most once per patch using it).
bool reloadCanBind(const S1Instance &in)
{
    std::vector<int> sharing(std::size_t(in.pixels), 0);
    for (const auto &pixels : in.patch_pixels)
        for (PixelId px : pixels)
            if (++sharing[px] > in.max_loads_per_pixel)
                return true;
    return false;
}

} // namespace

std::int64_t automaticMoveBudget(const S1Instance &in)
{
    // About 10 000 moves per patch of 3×3 pixels (the paper's grid converges
    // well before that), fewer for wider patches, whose moves cost more.
    const double perPatch = 10000.0;
    const double patchPixels = in.patch_pixels.empty() ? 1.0 : double(in.patch_pixels.front().size());
    const double budget = double(in.patches) * perPatch * 9.0 / std::max(9.0, patchPixels);
    return std::int64_t(std::clamp(budget, 200000.0, 8000000.0));
}

namespace {

/// The best feasible strategy any chain has found, shared under a mutex.
/// Ties go to the lowest chain index (the heuristics and tilings count as
/// chain -1), so with a move budget the winner does not depend on timing.
class Incumbent {
public:
    struct Snapshot {
        std::optional<double> duration;
        Groups groups;
    };

    /// Keeps `groups` when better than the incumbent; true when kept.
    bool offer(const Groups &groups, double duration, int chain)
    {
        std::lock_guard lock(m_mutex);
        if (m_duration && (duration > *m_duration || (duration == *m_duration && chain >= m_chain)))
            return false;
        m_duration = duration;
        m_groups = groups;
        m_chain = chain;
        announce(duration);
        return true;
    }

    /// A duration a chain has reached and will offer before it ends: what
    /// progress shows and the bound is checked against, without the copy.
    void announce(double duration)
    {
        double seen = m_announced.load();
        while (duration < seen && !m_announced.compare_exchange_weak(seen, duration)) { }
    }
    /// The least duration announced; infinity when none.
    double announced() const { return m_announced.load(); }

    Snapshot snapshot() const
    {
        std::lock_guard lock(m_mutex);
        return {m_duration, m_groups};
    }
    std::optional<double> duration() const
    {
        std::lock_guard lock(m_mutex);
        return m_duration;
    }
    Groups take()
    {
        std::lock_guard lock(m_mutex);
        return std::move(m_groups);
    }

private:
    mutable std::mutex m_mutex;
    std::optional<double> m_duration;
    Groups m_groups;
    int m_chain = -1;
    std::atomic<double> m_announced{std::numeric_limits<double>::infinity()};
};

/// What the chains of one run share. Only `incumbent`, `stop` and `moves`
/// change while they run, and those are synchronised.
struct Shared {
    Shared(const S1Instance &instance, const SearchOptions &searchOptions)
        : in(instance)
        , options(searchOptions)
    {
    }

    const S1Instance &in;
    const SearchOptions &options;
    const Clock::time_point start = Clock::now();
    double time_limit_s = 0;
    double lower_bound = 0;
    double tolerance = 0;
    bool anytime = false; // no move budget: rounds until the time limit
    Seed seed{{}, 0};
    bool reload_can_bind = false; // some pixel lies in more patches than the reload bound allows loads
    Incumbent::Snapshot first; // the best heuristic or tiling
    Incumbent incumbent;
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> moves{0};

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
    bool atBound(double duration) const { return options.stop_at_lower_bound && duration <= lower_bound + tolerance; }
};

/// One annealing chain: rounds that each cool from kStartTemperature to
/// kEndTemperature. With a move budget a chain runs kRounds rounds splitting
/// it, the first from the seed, the next ones from its own best only, so its
/// result depends on the seed and the budget alone. Without one it runs
/// blocks of such rounds, each from the seed with a fresh random stream, and
/// ends with one round from the best of every chain (runBlocks).
class Chain {
public:
    Chain(Shared &shared, int index)
        : m_shared(shared)
        , m_index(index)
        , m_seed(shared.options.seed + std::uint64_t(index) * 0xD1B54A32D192ED03ull)
    {
    }

    void run()
    {
        // The incumbent before any chain ran, not the shared one now: what
        // other chains found must not change this one's course.
        m_bestDuration = m_shared.first.duration;
        m_bestGroups = m_shared.first.groups;
        if (m_shared.anytime) {
            runBlocks();
            m_shared.moves += m_moves;
            return;
        }
        for (int round = 0; !m_shared.stop.load(); ++round) {
            const std::optional<Plan> plan = planRound(round);
            if (!plan)
                break;
            anneal(
                round == 0 ? m_shared.seed.groups : restartFrom(), m_seed + std::uint64_t(round) * 0x9E3779B97F4A7C15ull, *plan);
            if (plan->last)
                break;
        }
        m_shared.moves += m_moves;
    }

private:
    /// The anytime search: blocks of the automatic budget's kRounds rounds,
    /// each block from the seed with its own random stream (its later rounds
    /// restart from the block's best), until the last quarter of the time,
    /// which goes to one round from the best of all chains, cooled by the
    /// clock. Where the reload bound can bind, a block's rounds ignore it and
    /// a short, cool round from the block's best repairs it: the search walks
    /// through strategies that break the bound on the way to better ones.
    void runBlocks()
    {
        const std::int64_t base = std::max<std::int64_t>(1, automaticMoveBudget(m_shared.in) / kRounds);
        const Clock::time_point end
            = m_shared.start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(m_shared.time_limit_s));
        const Clock::time_point blocksEnd = m_shared.start
            + std::chrono::duration_cast<Clock::duration>(
                std::chrono::duration<double>(m_shared.time_limit_s * (1 - kFinalShare)));
        // Walking through strategies that break the reload bound pays on the
        // paper's grid (≤ 100 patches) and, since the staircase seeds, on
        // LeNet-5 conv1 too (784 patches: 6250–6254 against 6262–6264 at
        // 10 s over five seeds, 6251 against 6255 at 30 s), where it had cost
        // 0.1 % from the column-band seeds; so every layer relaxes.
        const bool relaxed = m_shared.reload_can_bind;
        // A round ends at its move count or at its share of the blocks'
        // time, whichever comes first, so a large layer whose automatic
        // budget outlasts the time limit still gets its repair round and the
        // final round from the best (else its relaxed work would be lost).
        const Clock::duration roundCap = (blocksEnd - m_shared.start) / (kRounds + 1);
        auto until = [&](Clock::time_point limit) { return std::min(limit, Clock::now() + roundCap); };
        std::uint64_t round = 0;
        auto roundSeed = [&] { return m_seed + (round++) * 0x9E3779B97F4A7C15ull; };
        auto more = [&] { return !m_shared.stop.load() && Clock::now() < blocksEnd; };
        while (more()) {
            Best blockBest;
            if (!relaxed) {
                m_bestDuration.reset(); // the chain's best is the block's best
                m_bestGroups.clear();
            }
            for (int r = 0; r < kRounds && more(); ++r) {
                const bool restart = r > 0 && (relaxed ? blockBest.duration.has_value() : m_bestDuration.has_value());
                const Groups start = !restart ? m_shared.seed.groups : relaxed ? blockBest.groups : m_bestGroups;
                anneal(start, roundSeed(), Plan{base, until(blocksEnd), false}, relaxed ? &blockBest : nullptr);
            }
            if (relaxed && blockBest.duration && !m_shared.stop.load()) {
                Plan repair{std::max<std::int64_t>(1, base / 2), until(end), false};
                repair.start_temperature = kRepairTemperature;
                anneal(blockBest.groups, roundSeed(), repair);
            }
        }
        if (!m_shared.stop.load()) {
            Incumbent::Snapshot best = m_shared.incumbent.snapshot();
            m_bestDuration = best.duration;
            m_bestGroups = best.duration ? std::move(best.groups) : m_shared.seed.groups;
            const Groups start = m_bestGroups;
            anneal(start, roundSeed(), Plan{std::numeric_limits<std::int64_t>::max(), end, true});
        }
    }

    struct Plan {
        std::int64_t moves = 0; // cooling over this many moves...
        std::optional<Clock::time_point> deadline; // ...or until then, whichever ends first
        bool last = false;
        double start_temperature = kStartTemperature; // in pixel loads
    };

    std::optional<Plan> planRound(int round) const
    {
        const std::int64_t budget = m_shared.options.max_moves;
        if (round >= kRounds)
            return std::nullopt;
        return Plan{budget / kRounds + (round < budget % kRounds ? 1 : 0), std::nullopt, round + 1 == kRounds};
    }

    /// Where a round after the first starts: the chain's best.
    const Groups &restartFrom() const { return m_bestDuration ? m_bestGroups : m_shared.seed.groups; }

    /// The best state of a round, or of the chain.
    struct Best {
        std::optional<double> duration;
        Groups groups;
    };

    /// One round from `from`, cooling geometrically over its moves (or its
    /// time). A constrained round records the feasible states that beat the
    /// chain's best and offers them to the incumbent; a relaxed round (the
    /// reload bound not penalised) records in `relaxedBest` the states that
    /// keep memory, whatever their reloads.
    void anneal(const Groups &from, std::uint64_t seed, const Plan &plan, Best *relaxedBest = nullptr)
    {
        const bool relaxed = relaxedBest != nullptr;
        Annealer annealer(m_shared.in, from, seed, relaxed ? 0.0 : kPenaltyPerExcess);
        Best chainBest{m_bestDuration, {}};
        Best &best = relaxed ? *relaxedBest : chainBest;
        auto keeps = [relaxed](const SearchState &s) { return relaxed ? s.memoryExcess() == 0 : s.feasible(); };
        auto save = [&] {
            if (relaxed) {
                best.groups = annealer.state().groups();
                return;
            }
            m_bestDuration = best.duration;
            m_bestGroups = annealer.state().groups();
            m_shared.incumbent.offer(m_bestGroups, *m_bestDuration, m_index);
        };
        const double t0 = plan.start_temperature * annealer.unit(), t1 = kEndTemperature * annealer.unit();
        const bool countedMoves = plan.moves < std::numeric_limits<std::int64_t>::max();
        const double cooling = countedMoves && plan.moves > 1 ? std::pow(t1 / t0, 1.0 / double(plan.moves - 1)) : 1.0;
        const Clock::time_point roundStart = Clock::now();
        const double roundSeconds
            = plan.deadline ? std::max(1e-3, std::chrono::duration<double>(*plan.deadline - roundStart).count()) : 0.0;
        double temperature = t0;
        double current = annealer.objective();
        // The annealer may sit on a new best without it being copied out yet:
        // the copy is made only when a move leaves it.
        bool unsavedBest = false;
        auto improves = [&](const SearchState &s) {
            return keeps(s) && (!best.duration || s.duration() < *best.duration - m_shared.tolerance);
        };
        if (improves(annealer.state())) { // a start better than the best (a relaxed round's best, repaired)
            best.duration = annealer.state().duration();
            save();
        }

        for (std::int64_t i = 0; i < plan.moves; ++i, temperature *= cooling) {
            if (++m_moves % kCheckEvery == 0) {
                if (m_shared.stop.load())
                    break;
                if (plan.deadline) {
                    const double timeFraction = std::chrono::duration<double>(Clock::now() - roundStart).count() / roundSeconds;
                    if (timeFraction >= 1)
                        break;
                    const double moveFraction = countedMoves && plan.moves > 1 ? double(i) / double(plan.moves - 1) : 0.0;
                    temperature = t0 * std::pow(t1 / t0, std::max(timeFraction, moveFraction));
                }
            }
            const Annealer::Proposal proposal = annealer.propose();
            if (proposal == Annealer::Proposal::None)
                continue;
            if (proposal == Annealer::Proposal::Priced) {
                if (!annealer.accept(annealer.pricedDelta(), temperature))
                    continue;
                annealer.commit();
            } else if (!annealer.accept(annealer.objective() - current, temperature)) {
                annealer.undo();
                continue;
            }
            current = annealer.objective();
            const SearchState &s = annealer.state();
            if (improves(s)) {
                best.duration = s.duration();
                if (!relaxed)
                    m_shared.incumbent.announce(s.duration());
                unsavedBest = true;
                if (!relaxed && m_shared.atBound(s.duration())) {
                    save();
                    unsavedBest = false;
                    m_shared.stop = true;
                    break;
                }
            } else if (unsavedBest && !(keeps(s) && s.duration() <= *best.duration + m_shared.tolerance)) {
                annealer.undo();
                save();
                unsavedBest = false;
                annealer.redo();
            }
        }
        if (unsavedBest)
            save();
    }

    Shared &m_shared;
    const int m_index;
    const std::uint64_t m_seed;
    std::optional<double> m_bestDuration;
    Groups m_bestGroups;
    std::int64_t m_moves = 0;
};

int threadCount(const SearchOptions &options)
{
    const int wanted = options.threads > 0 ? options.threads : int(std::thread::hardware_concurrency());
    return std::clamp(wanted, 1, kMaxThreads);
}

/// One run of the search: the seeds and the first incumbent, the chains on
/// their threads, and this thread watching them: progress reports, cancel
/// and time limit.
class SearchRun {
public:
    SearchRun(const S1Instance &in, const SearchOptions &options, const OptimiseControl &control)
        : m_shared(in, options)
        , m_control(control)
        , m_deadline(control.time_limit_s)
    {
        m_result.method = "search";
        m_result.lower_bound = lowerBound(in);
        m_shared.lower_bound = m_result.lower_bound;
        m_shared.tolerance = 1e-9 * std::max(1.0, std::abs(m_result.lower_bound));
        m_shared.time_limit_s = control.time_limit_s;
        m_shared.anytime = options.max_moves <= 0;
    }

    OptimiseResult run()
    {
        std::vector<NamedGroups> candidates;
        const double beforeHeuristics = m_shared.elapsed();
        try {
            candidates = heuristicCandidates(m_shared.in, m_deadline);
        } catch (const TimeLimitReached &) {
            // No incumbent: the caller (optimise) has the heuristics it evaluated itself.
        }
        const double perEvaluation = (m_shared.elapsed() - beforeHeuristics) / 2;
        // Each step before the chains looks at the time limit: on a layer of
        // millions of patches they alone would take minutes.
        for (NamedGroups &t : tilingCandidates(m_shared.in, m_deadline))
            candidates.push_back(std::move(t));
        for (const NamedGroups &c : candidates) // the best feasible one is the incumbent to beat
            if (c.evaluation.feasible)
                m_shared.incumbent.offer(c.groups, c.evaluation.duration, -1);
        report();
        m_lastReport = m_shared.elapsed();
        if (!m_deadline.passed())
            offerLoadOnce(candidates);
        if (!m_deadline.passed())
            offerWavefronts(candidates);

        // A chain's set-up (its SearchState, as each probe of bestSeed)
        // costs about fifteen evaluations of a strategy and cannot stop
        // halfway (1 M patches: a second): the seed is chosen and the chains
        // start only when the time left covers it.
        const auto timeForChains = [&] { return m_deadline.secondsLeft() > kChainSetUpEvaluations * perEvaluation; };
        if (timeForChains())
            m_shared.seed = bestSeed(m_shared.in, candidates, m_deadline);
        m_shared.reload_can_bind = reloadCanBind(m_shared.in);
        m_shared.first = m_shared.incumbent.snapshot();
        if (!m_deadline.passed())
            strengthenBound();
        const std::optional<double> first = m_shared.first.duration;
        const bool chainsWanted = !(first && m_shared.atBound(*first));
        if (chainsWanted && (!timeForChains() || (m_shared.seed.groups.empty() && m_deadline.passed())))
            m_stoppedByTime = true; // the steps before the chains used the time (with a move budget too)
        else if (chainsWanted && !m_shared.seed.groups.empty())
            runChains(threadCount(m_shared.options));
        return finish();
    }

private:
    /// The moment a share of the time limit has passed since the start.
    Clock::time_point deadlineAt(double share) const
    {
        return m_shared.start
            + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(share * m_control.time_limit_s));
    }

    /// A strategy loading every needed pixel once (LoadOnceSearch.h) is at
    /// the pixel bound, so nothing beats it: when one exists, the search
    /// needs nothing more. Also a seed for the chains.
    void offerLoadOnce(std::vector<NamedGroups> &candidates)
    {
        const S1Instance &in = m_shared.in;
        const std::optional<double> first = m_shared.incumbent.snapshot().duration;
        if (first && m_shared.atBound(*first))
            return;
        LoadOnceLimits limits;
        limits.stop = m_control.cancel;
        limits.tick = [this] { reportNow(); };
        // At most a share of the time in an anytime run: where no such
        // strategy exists, the chains need the rest. With a move budget its
        // node budget bounds it, so the result does not depend on the
        // machine; only the time limit itself stops it.
        limits.deadline = deadlineAt(m_shared.anytime ? kLoadOnceShare : 1.0);
        std::optional<Groups> groups = findLoadOnceStrategy(in, limits).groups;
        if (!groups && in.patches <= 64) {
            // On small layers the complete search settles it: it finds one,
            // or proves none exists, and then every strategy pays a load
            // (or a compute) more than the pixel bound. (It can take 128
            // patches, but there it may spend its whole budget, seconds the
            // chains need: `--method exact` runs it there instead.)
            LoadOnceProofLimits proofLimits;
            proofLimits.stop = limits.stop;
            proofLimits.deadline = limits.deadline;
            proofLimits.tick = limits.tick;
            LoadOnceProof proof = proveLoadOnce(in, proofLimits);
            if (proof.status == LoadOnceProofStatus::None)
                raiseBound(boundWithoutLoadOnce(in));
            groups = std::move(proof.groups);
        }
        if (!groups)
            return;
        S1Evaluation ev = evaluate(in, *groups);
        if (!ev.feasible)
            return;
        m_shared.incumbent.offer(*groups, ev.duration, -1);
        candidates.push_back({"every pixel loaded once", std::move(*groups), std::move(ev)});
        report();
    }

    /// Before the chains start (they read the bound to stop at it); the
    /// next report carries it.
    void raiseBound(double bound)
    {
        if (bound <= m_result.lower_bound)
            return;
        m_result.lower_bound = bound;
        m_shared.lower_bound = bound;
    }

    /// Strategies built as wavefronts by a beam search (WavefrontBeam.h),
    /// wider and wider: each is a candidate, so the best is the chains'
    /// seed. With a move budget the widths are fixed (the result must not
    /// depend on the machine); without one they double while the time
    /// allows, up to a share of it.
    void offerWavefronts(std::vector<NamedGroups> &candidates)
    {
        const S1Instance &in = m_shared.in;
        WavefrontBeamLimits limits;
        limits.stop = m_control.cancel;
        limits.tick = [this] { reportNow(); };
        limits.threads = threadCount(m_shared.options);
        limits.deadline = deadlineAt(m_shared.anytime ? kWavefrontShare : 1.0);
        for (int width = kFirstBeamWidth; width <= (m_shared.anytime ? kWidestBeam : kBudgetBeamWidth); width *= 4) {
            const std::optional<double> best = m_shared.incumbent.snapshot().duration;
            if ((best && m_shared.atBound(*best)) || (m_control.cancel && m_control.cancel->load()))
                return;
            const double started = m_shared.elapsed();
            limits.width = width;
            std::optional<Groups> groups = wavefrontBeam(in, limits);
            if (!groups)
                return; // stopped, or no wavefront keeps the reload bound
            S1Evaluation ev = evaluate(in, *groups);
            if (ev.feasible) {
                m_shared.incumbent.offer(*groups, ev.duration, -1);
                candidates.push_back({"wavefront " + std::to_string(width), std::move(*groups), std::move(ev)});
                report();
            }
            // The next width costs about four times this one.
            if (m_shared.anytime
                && m_shared.elapsed() + 4 * (m_shared.elapsed() - started) > kWavefrontShare * m_control.time_limit_s)
                return;
        }
    }

    /// On small instances, the optimum with the reload bound relaxed
    /// (S1InstanceBound.h): often the optimum itself, so the search can stop
    /// there and say so.
    void strengthenBound()
    {
        const S1Instance &in = m_shared.in;
        if (m_shared.first.duration && *m_shared.first.duration <= m_result.lower_bound + m_shared.tolerance)
            return; // already optimal
        PartitionBoundLimits limits;
        limits.cancel = m_control.cancel;
        if (m_shared.first.duration && in.group_count == GroupCount::ExactlyKMin)
            limits.known_loads = evaluate(in, m_shared.first.groups).loaded_pixels;
        if (const std::optional<double> bound = partitionLowerBound(in, limits))
            raiseBound(*bound);
    }

    /// A report if the last is older than the progress interval: the
    /// steps before the chains call it as they go.
    void reportNow()
    {
        const double now = m_shared.elapsed();
        if (now - m_lastReport < kProgressInterval)
            return;
        m_lastReport = now;
        report();
    }

    void report()
    {
        const double announced = m_shared.incumbent.announced();
        const OptimiseProgress point{
            m_shared.elapsed(), std::isfinite(announced) ? std::optional<double>(announced) : std::nullopt, m_result.lower_bound};
        m_result.history.push_back(point);
        if (m_control.progress)
            m_control.progress(point);
    }

    void runChains(int threads)
    {
        std::vector<std::thread> workers;
        m_running = threads;
        for (int i = 0; i < threads; ++i) {
            try {
                workers.emplace_back([this, i] { runChain(i); });
            } catch (const std::system_error &) { // no more threads: go on with those running
                std::lock_guard lock(m_mutex);
                m_running -= threads - i;
                break;
            }
        }
        watch();
        for (std::thread &w : workers)
            w.join();
        if (m_error)
            std::rethrow_exception(m_error);
    }

    void runChain(int index)
    {
        try {
            Chain(m_shared, index).run();
        } catch (...) {
            m_shared.stop = true;
            std::lock_guard lock(m_mutex);
            if (!m_error)
                m_error = std::current_exception();
        }
        std::lock_guard lock(m_mutex);
        --m_running;
        m_chainEnded.notify_all();
    }

    /// Until every chain has ended: stop them all on cancel or time limit,
    /// report progress.
    void watch()
    {
        std::unique_lock lock(m_mutex);
        while (m_running > 0) {
            m_chainEnded.wait_for(lock, kWatchInterval);
            if (m_running == 0)
                break;
            lock.unlock();
            const double now = m_shared.elapsed();
            if (!m_shared.stop.load()) {
                if (m_control.cancel && m_control.cancel->load()) {
                    m_result.cancelled = true;
                    m_shared.stop = true;
                } else if (now > m_control.time_limit_s) {
                    m_result.timed_out = true;
                    m_shared.stop = true;
                }
            }
            if (now - m_lastReport >= kProgressInterval) {
                m_lastReport = now;
                report();
            }
            lock.lock();
        }
    }

    /// The incumbent, re-evaluated from scratch, with its status.
    OptimiseResult finish()
    {
        const std::optional<double> best = m_shared.incumbent.duration();
        const S1Instance &in = m_shared.in;
        // Without a move budget the time limit is the normal end.
        if (m_shared.anytime && !m_result.cancelled && !(best && m_shared.atBound(*best)) && !m_shared.seed.groups.empty())
            m_result.timed_out = true;
        if (m_stoppedByTime && !m_result.cancelled)
            m_result.timed_out = true;
        if (best) {
            Groups groups = m_shared.incumbent.take();
            const S1Evaluation ev = evaluate(in, groups);
            m_result.groups = std::move(groups);
            m_result.duration = ev.duration;
            if (!ev.feasible) { // would be a bug of the incremental state; say so rather than hide it
                m_result.status = OptimiseStatus::Failed;
                m_result.message = "internal error: the search produced an infeasible strategy: " + ev.violation;
            } else {
                m_result.status = ev.duration <= m_result.lower_bound + m_shared.tolerance ? OptimiseStatus::Optimal
                                                                                           : OptimiseStatus::Feasible;
            }
        } else {
            m_result.status = OptimiseStatus::NoSolution;
            m_result.message = "no strategy satisfying memory and the reload bound was found in "
                + std::to_string(m_shared.moves.load()) + " moves"
                + (m_deadline.passed() ? " before the time limit ran out" : "");
        }
        m_result.seconds = m_shared.elapsed();
        const OptimiseProgress last{m_result.seconds,
            m_result.hasSolution() ? std::optional<double>(m_result.duration) : std::nullopt, m_result.lower_bound};
        m_result.history.push_back(last);
        if (m_control.progress)
            m_control.progress(last);
        return std::move(m_result);
    }

    Shared m_shared;
    const OptimiseControl &m_control;
    const Deadline m_deadline;
    bool m_stoppedByTime = false; // the chains did not start: no time was left
    OptimiseResult m_result;
    double m_lastReport = 0;
    std::mutex m_mutex; // guards m_running and m_error
    std::condition_variable m_chainEnded;
    int m_running = 0;
    std::exception_ptr m_error;
};

} // namespace

OptimiseResult searchOptimise(const S1Instance &in, const SearchOptions &options, const OptimiseControl &control)
{
    return SearchRun(in, options, control).run();
}

} // namespace convoffload
