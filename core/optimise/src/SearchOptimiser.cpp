// searchOptimise: seeds, then simulated annealing on a SearchState.
//
// Constraints are handled two ways. Group sizes and the number of groups are
// never broken by a move (moves that would are not proposed). Memory and the
// reload bound are penalised instead, so a search that starts from an
// infeasible seed (the heuristics on LeNet-5 break the reload bound) can walk
// back to feasibility; only feasible states are ever recorded as the best.
#include "convoffload/optimise/SearchOptimiser.h"

#include "SearchRandom.h"
#include "SearchState.h"

#include "convoffload/model/Ids.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace convoffload {

namespace {

using Clock = std::chrono::steady_clock;
using search::Random;
using search::SearchState;

constexpr int kRounds = 4; // restarts from the best strategy, each cooling from kStartTemperature
constexpr double kStartTemperature = 1.0; // in units of one pixel load
constexpr double kEndTemperature = 0.2;
constexpr double kPenaltyPerExcess = 4.0; // per load beyond the bound, per element beyond memory
constexpr int kCheckEvery = 256; // moves between clock / cancel checks
constexpr double kProgressInterval = 0.05; // seconds: at most 20 reports a second

/// One primitive edit of a move, kept to undo (and redo) it.
struct Edit {
    enum Kind { Move, Reverse, Insert, Remove } kind;
    int a = 0, b = 0, from = 0; // Move: patch a to group b (from its old group); Reverse: a..b; Insert/Remove: at a
};

class Annealer {
public:
    Annealer(const S1Instance &instance, const Groups &start, std::uint64_t seed)
        : m_in(instance)
        , m_state(instance, start)
        , m_random(seed)
    {
        const Layer &l = instance.layer;
        // Patches closer than a kernel share pixels: the partners worth trying.
        m_reachRows = std::max(1, (l.h_k - 1) / l.stride_h);
        m_reachCols = std::max(1, (l.w_k - 1) / l.stride_w);
        m_unit = instance.cost_per_pixel_load > 0 ? instance.cost_per_pixel_load
                                                  : (instance.cost_per_group > 0 ? instance.cost_per_group : 1.0);
    }

    double objective() const
    {
        return m_state.duration() + kPenaltyPerExcess * m_unit * double(m_state.reloadExcess() + m_state.memoryExcess());
    }
    const SearchState &state() const { return m_state; }
    double unit() const { return m_unit; }

    enum class Proposal {
        None, // the move drawn does not apply; nothing changed
        Applied, // applied: read the new objective, undo() to reject
        Priced // an order move, priced but not applied: pricedDelta(), then commit() to accept
    };

    Proposal propose()
    {
        m_edits.clear();
        const double r = m_random.unit();
        const bool flexible = m_in.group_count == GroupCount::AtMostCap;
        if (r < 0.40)
            return swapPatches();
        if (r < 0.60)
            return shiftPatch(flexible);
        if (r < 0.65)
            return flexible ? splitPatch() : shiftPatch(false);
        if (r < 0.82)
            return relocateGroup();
        if (r < 0.92)
            return reverseSegment();
        return swapGroups();
    }

    double pricedDelta() const { return m_pricedDelta; }
    void commit() { redo(); }

    void undo()
    {
        for (auto it = m_edits.rbegin(); it != m_edits.rend(); ++it)
            switch (it->kind) {
            case Edit::Move:
                m_state.movePatch(PatchId(it->a), it->from);
                break;
            case Edit::Reverse:
                m_state.reverse(it->a, it->b);
                break;
            case Edit::Insert:
                m_state.removeEmptyGroup(it->a);
                break;
            case Edit::Remove:
                m_state.insertEmptyGroup(it->a);
                break;
            }
    }

    void redo()
    {
        for (const Edit &e : m_edits)
            switch (e.kind) {
            case Edit::Move:
                m_state.movePatch(PatchId(e.a), e.b);
                break;
            case Edit::Reverse:
                m_state.reverse(e.a, e.b);
                break;
            case Edit::Insert:
                m_state.insertEmptyGroup(e.a);
                break;
            case Edit::Remove:
                m_state.removeEmptyGroup(e.a);
                break;
            }
    }

    bool accept(double delta, double temperature)
    {
        return delta <= 0 || (temperature > 0 && m_random.unit() < std::exp(-delta / temperature));
    }

private:
    PatchId randomPatch() { return PatchId(m_random.below(int(m_in.patches))); }

    /// A patch near p (sharing pixels with it when the kernel allows), or p
    /// itself when the draw falls outside the grid.
    PatchId nearbyPatch(PatchId p)
    {
        const Grid at = patchPosition(m_in.layer, p);
        const int r = at.row + m_random.below(2 * m_reachRows + 1) - m_reachRows;
        const int c = at.col + m_random.below(2 * m_reachCols + 1) - m_reachCols;
        if (r < 0 || c < 0 || r >= m_in.layer.hOut() || c >= m_in.layer.wOut())
            return p;
        return patchId(m_in.layer, r, c);
    }

    void move(PatchId p, int to)
    {
        const int from = m_state.groupOf(p);
        m_edits.push_back({Edit::Move, int(p), to, from});
        m_state.movePatch(p, to);
    }

    int groupAtOrNone(int position) const
    {
        return position >= 0 && position < m_state.groupCount() ? m_state.groupAt(position) : -1;
    }

    /// Prices an order move described by the adjacencies it breaks and makes;
    /// `reversals` apply it on commit().
    Proposal price(std::vector<SearchState::Pair> removed, std::vector<SearchState::Pair> added,
        std::initializer_list<std::pair<int, int>> reversals)
    {
        const SearchState::LoadChange change = m_state.adjacencyChange(removed, added);
        m_pricedDelta
            = m_in.cost_per_pixel_load * double(change.loads) + kPenaltyPerExcess * m_unit * double(change.reloadExcess);
        for (auto [first, last] : reversals)
            if (first < last)
                m_edits.push_back({Edit::Reverse, first, last, 0});
        return Proposal::Priced;
    }

    Proposal swapPatches()
    {
        const PatchId p = randomPatch();
        const PatchId q = nearbyPatch(p);
        const int gp = m_state.groupOf(p), gq = m_state.groupOf(q);
        if (gp == gq)
            return Proposal::None;
        move(p, gq);
        move(q, gp);
        return Proposal::Applied;
    }

    /// Moves a patch into a neighbour's group. With a fixed number of groups
    /// the source must keep a patch; otherwise an emptied group disappears.
    Proposal shiftPatch(bool mayEmpty)
    {
        const PatchId p = randomPatch();
        const PatchId q = nearbyPatch(p);
        const int from = m_state.groupOf(p), to = m_state.groupOf(q);
        if (from == to || m_state.groupSize(to) >= m_in.group_size)
            return Proposal::None;
        if (m_state.groupSize(from) == 1 && !mayEmpty)
            return Proposal::None;
        move(p, to);
        if (m_state.groupSize(from) == 0) {
            const int pos = m_state.positionOf(from);
            m_edits.push_back({Edit::Remove, pos, 0, 0});
            m_state.removeEmptyGroup(pos);
        }
        return Proposal::Applied;
    }

    /// A patch leaves its group for a new group just before or after it.
    Proposal splitPatch()
    {
        if (m_state.groupCount() >= m_in.max_groups)
            return Proposal::None;
        const PatchId p = randomPatch();
        const int from = m_state.groupOf(p);
        if (m_state.groupSize(from) < 2)
            return Proposal::None;
        const int pos = m_state.positionOf(from) + m_random.below(2);
        m_edits.push_back({Edit::Insert, pos, 0, 0});
        const int fresh = m_state.insertEmptyGroup(pos);
        move(p, fresh);
        return Proposal::Applied;
    }

    /// Moves a group right before or right after the group of a neighbouring
    /// patch, where it can share pixels.
    Proposal relocateGroup()
    {
        const PatchId p = randomPatch();
        const int g = m_state.groupOf(p), h = m_state.groupOf(nearbyPatch(p));
        if (g == h)
            return Proposal::None;
        const int i = m_state.positionOf(g), anchor = m_state.positionOf(h);
        const bool after = m_random.below(2) == 1;
        // The group at i moves to position j; the ones between shift by one.
        const int j = i < anchor ? (after ? anchor : anchor - 1) : (after ? anchor + 1 : anchor);
        if (j == i)
            return Proposal::None;
        const int before = groupAtOrNone(i - 1), next = groupAtOrNone(i + 1);
        if (i < j) // g lands between o[j] and o[j+1]
            return price({{before, g}, {g, next}, {groupAtOrNone(j), groupAtOrNone(j + 1)}},
                {{before, next}, {groupAtOrNone(j), g}, {g, groupAtOrNone(j + 1)}}, {{i, j}, {i, j - 1}});
        // g lands between o[j-1] and o[j]
        return price({{before, g}, {g, next}, {groupAtOrNone(j - 1), groupAtOrNone(j)}},
            {{before, next}, {groupAtOrNone(j - 1), g}, {g, groupAtOrNone(j)}}, {{j, i}, {j + 1, i}});
    }

    Proposal reverseSegment()
    {
        const int n = int(m_state.groupCount());
        if (n < 2)
            return Proposal::None;
        const int i = m_random.below(n - 1);
        const int j = i + 1 + m_random.below(std::min(n - 1 - i, 32));
        return price({{groupAtOrNone(i - 1), groupAtOrNone(i)}, {groupAtOrNone(j), groupAtOrNone(j + 1)}},
            {{groupAtOrNone(i - 1), groupAtOrNone(j)}, {groupAtOrNone(i), groupAtOrNone(j + 1)}}, {{i, j}});
    }

    Proposal swapGroups()
    {
        const PatchId p = randomPatch();
        int a = m_state.positionOf(m_state.groupOf(p)), b = m_state.positionOf(m_state.groupOf(nearbyPatch(p)));
        if (a == b)
            return Proposal::None;
        if (a > b)
            std::swap(a, b);
        const int ga = groupAtOrNone(a), gb = groupAtOrNone(b);
        if (b == a + 1) // a reversal of two
            return price({{groupAtOrNone(a - 1), ga}, {gb, groupAtOrNone(b + 1)}},
                {{groupAtOrNone(a - 1), gb}, {ga, groupAtOrNone(b + 1)}}, {{a, b}});
        return price(
            {{groupAtOrNone(a - 1), ga}, {ga, groupAtOrNone(a + 1)}, {groupAtOrNone(b - 1), gb}, {gb, groupAtOrNone(b + 1)}},
            {{groupAtOrNone(a - 1), gb}, {gb, groupAtOrNone(a + 1)}, {groupAtOrNone(b - 1), ga}, {ga, groupAtOrNone(b + 1)}},
            {{a, b}, {a + 1, b - 1}});
    }

    const S1Instance &m_in;
    SearchState m_state;
    Random m_random;
    std::vector<Edit> m_edits;
    double m_pricedDelta = 0;
    int m_reachRows = 1, m_reachCols = 1;
    double m_unit = 1;
};

struct Seed {
    Groups groups;
    double objective;
};

/// The seed to start from: the least penalised objective among the heuristics
/// and tilings (a feasible one when any is, since any excess costs more than
/// it saves).
Seed bestSeed(const S1Instance &in, const std::vector<NamedGroups> &candidates)
{
    Seed best{{}, std::numeric_limits<double>::infinity()};
    for (const NamedGroups &c : candidates) {
        if (std::int64_t(c.groups.size()) > in.max_groups)
            continue;
        Annealer probe(in, c.groups, 0);
        const double objective = probe.objective();
        if (objective < best.objective)
            best = {c.groups, objective};
    }
    return best;
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

/// One run of the search: the incumbent, the progress reports, the stop
/// conditions, and the annealing rounds that try to improve the incumbent.
class SearchRun {
public:
    SearchRun(const S1Instance &in, const SearchOptions &options, const OptimiseControl &control)
        : m_in(in)
        , m_options(options)
        , m_control(control)
        , m_start(Clock::now())
    {
        m_result.method = "search";
        m_result.lower_bound = lowerBound(in);
        m_tolerance = 1e-9 * std::max(1.0, std::abs(m_result.lower_bound));
    }

    OptimiseResult run()
    {
        std::vector<NamedGroups> candidates = heuristicCandidates(m_in);
        for (NamedGroups &t : tilingCandidates(m_in))
            candidates.push_back(std::move(t));
        takeBestFeasible(candidates);
        report();
        m_lastReport = elapsed();

        const std::int64_t budget = m_options.max_moves > 0 ? m_options.max_moves : automaticMoveBudget(m_in);
        const Seed seed = bestSeed(m_in, candidates);
        m_stop = atBound() || seed.groups.empty();
        for (int round = 0; round < kRounds && !m_stop; ++round) {
            const Groups &from = m_bestDuration && round > 0 ? m_bestGroups : seed.groups;
            runRound(from, round, budget / kRounds + (round < budget % kRounds ? 1 : 0));
        }
        return finish();
    }

private:
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }

    /// The best feasible candidate is the incumbent the search must beat.
    void takeBestFeasible(const std::vector<NamedGroups> &candidates)
    {
        for (const NamedGroups &c : candidates)
            if (c.evaluation.feasible && (!m_bestDuration || c.evaluation.duration < *m_bestDuration)) {
                m_bestDuration = c.evaluation.duration;
                m_bestGroups = c.groups;
            }
    }

    void report()
    {
        const OptimiseProgress point{elapsed(), m_bestDuration, m_result.lower_bound};
        m_result.history.push_back(point);
        if (m_control.progress)
            m_control.progress(point);
    }

    bool atBound() const
    {
        return m_options.stop_at_lower_bound && m_bestDuration && *m_bestDuration <= m_result.lower_bound + m_tolerance;
    }

    /// Every kCheckEvery moves: stop on cancel or time limit, report progress.
    bool checkStop()
    {
        if ((m_control.cancel && m_control.cancel->load()) || elapsed() > m_control.time_limit_s) {
            m_result.cancelled = m_control.cancel && m_control.cancel->load();
            m_result.timed_out = !m_result.cancelled;
            return true;
        }
        if (elapsed() - m_lastReport >= kProgressInterval) {
            m_lastReport = elapsed();
            report();
        }
        return false;
    }

    /// One annealing round from `from`, cooling geometrically over its moves.
    void runRound(const Groups &from, int round, std::int64_t roundMoves)
    {
        Annealer annealer(m_in, from, m_options.seed + std::uint64_t(round) * 0x9E3779B97F4A7C15ull);
        const double t0 = kStartTemperature * annealer.unit(), t1 = kEndTemperature * annealer.unit();
        const double cooling = roundMoves > 1 ? std::pow(t1 / t0, 1.0 / double(roundMoves - 1)) : 1.0;
        double temperature = t0;
        double current = annealer.objective();
        // The annealer may sit on a new best without it being copied out yet:
        // the copy is made only when a move leaves it.
        bool unsavedBest = false;
        auto saveBest = [&] {
            m_bestGroups = annealer.state().groups();
            unsavedBest = false;
        };

        for (std::int64_t i = 0; i < roundMoves; ++i, temperature *= cooling) {
            if (++m_moves % kCheckEvery == 0 && checkStop()) {
                m_stop = true;
                break;
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
            if (s.feasible() && (!m_bestDuration || s.duration() < *m_bestDuration - m_tolerance)) {
                m_bestDuration = s.duration();
                unsavedBest = true;
                if (atBound()) {
                    saveBest();
                    m_stop = true;
                    break;
                }
            } else if (unsavedBest && !(s.feasible() && s.duration() <= *m_bestDuration + m_tolerance)) {
                annealer.undo();
                saveBest();
                annealer.redo();
            }
        }
        if (unsavedBest)
            saveBest();
    }

    /// The incumbent, re-evaluated from scratch, with its status.
    OptimiseResult finish()
    {
        if (m_bestDuration) {
            const S1Evaluation ev = evaluate(m_in, m_bestGroups);
            m_result.groups = std::move(m_bestGroups);
            m_result.duration = ev.duration;
            if (!ev.feasible) { // would be a bug of the incremental state; say so rather than hide it
                m_result.status = OptimiseStatus::Failed;
                m_result.message = "internal error: the search produced an infeasible strategy: " + ev.violation;
            } else {
                m_result.status
                    = ev.duration <= m_result.lower_bound + m_tolerance ? OptimiseStatus::Optimal : OptimiseStatus::Feasible;
            }
        } else {
            m_result.status = OptimiseStatus::NoSolution;
            m_result.message
                = "no strategy satisfying memory and the reload bound was found in " + std::to_string(m_moves) + " moves";
        }
        m_bestDuration = m_result.hasSolution() ? std::optional<double>(m_result.duration) : std::nullopt;
        m_result.seconds = elapsed();
        report();
        return std::move(m_result);
    }

    const S1Instance &m_in;
    const SearchOptions &m_options;
    const OptimiseControl &m_control;
    const Clock::time_point m_start;
    OptimiseResult m_result;
    double m_tolerance = 0;
    std::optional<double> m_bestDuration;
    Groups m_bestGroups;
    std::int64_t m_moves = 0;
    double m_lastReport = 0;
    bool m_stop = false;
};

} // namespace

OptimiseResult searchOptimise(const S1Instance &in, const SearchOptions &options, const OptimiseControl &control)
{
    return SearchRun(in, options, control).run();
}

} // namespace convoffload
