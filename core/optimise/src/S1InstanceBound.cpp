#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <bit>
#include <bitset>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <vector>

namespace convoffload {

namespace {

constexpr int kMaxPatches = 64;
constexpr std::size_t kMaxPixels = 256;
using PixelSet = std::bitset<kMaxPixels>;

struct State {
    std::uint64_t done;
    std::uint64_t last;
    bool operator==(const State &) const = default;
};

/// What a state costs so far, and the group before its last (to rebuild the partition).
struct Entry {
    std::int64_t loads;
    std::uint64_t parent;
};

struct StateHash {
    std::size_t operator()(const State &s) const
    {
        return std::hash<std::uint64_t>()(s.done * 0x9E3779B97F4A7C15ull ^ (s.last + 0x632BE59BD9B4E019ull));
    }
};

class PartitionDp {
public:
    PartitionDp(const S1Instance &in, const PartitionBoundLimits &limits)
        : m_in(in)
        , m_limits(limits)
        , m_patches(int(in.patches))
    {
        std::vector<int> local(std::size_t(in.pixels), -1);
        for (std::size_t i = 0; i < in.needed_pixels.size(); ++i)
            local[in.needed_pixels[i]] = int(i);
        for (const auto &pixels : in.patch_pixels) {
            PixelSet set;
            for (PixelId px : pixels)
                set.set(std::size_t(local[px]));
            m_sets.push_back(set);
        }
        if (limits.below_duration)
            m_tolerance = 1e-9 * std::max(1.0, std::abs(*limits.below_duration));
        m_all = m_patches == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << m_patches) - 1;
    }

    PartitionBoundOutcome run()
    {
        PartitionBoundOutcome out;
        std::int64_t completed = 0; // states of the steps expanded in full
        out.bound = explore(completed);
        out.states = std::max(completed, m_statesSoFar);
        out.work = m_work;
        out.end = m_end;
        if (m_end != PartitionBoundEnd::Finished)
            out.bound.reset();
        else if (out.bound && m_limits.keep_partition)
            out.partition = rebuild();
        return out;
    }

private:
    using Layer = std::unordered_map<State, Entry, StateHash>;

    std::optional<double> explore(std::int64_t &states)
    {
        const std::int64_t maxGroups = std::min<std::int64_t>(m_in.max_groups, m_in.patches);
        Layer layer{{State{0, 0}, Entry{0, 0}}};
        std::optional<double> best;
        states = 1;
        for (std::int64_t t = 0; t < maxGroups && !layer.empty(); ++t) {
            Layer next;
            for (const auto &[state, entry] : layer) {
                const std::int64_t loads = entry.loads;
                const std::uint64_t remaining = m_all & ~state.done;
                const PixelSet lastUnion = unionOf(state.last);
                // Pixels the patches left need: after a group g, those g does
                // not hold are loaded again (g's own pixels are all in U_g).
                if (m_limits.known_loads || m_limits.below_duration)
                    m_ahead = unionOf(remaining);
                m_from = state;
                m_fromLoads = loads;
                m_groupsAfter = t + 1;
                m_next = &next;
                extend(remaining, remaining, 0, PixelSet{}, lastUnion);
                m_statesSoFar = states + std::int64_t(next.size());
                if (m_statesSoFar > m_limits.max_states) {
                    m_end = PartitionBoundEnd::StatesCapHit;
                    return std::nullopt;
                }
                if (m_stopped)
                    return std::nullopt;
            }
            states += std::int64_t(next.size());
            for (const auto &[state, entry] : next)
                if (state.done == m_all && t + 1 >= m_in.min_groups) {
                    const double d = m_in.duration(entry.loads, t + 1);
                    if (!best || d < *best) {
                        best = d;
                        m_bestEnd = state;
                        m_bestSteps = std::size_t(t + 1);
                    }
                }
            if (m_limits.keep_partition)
                m_layers.push_back(std::move(layer));
            layer = std::move(next);
        }
        if (m_limits.keep_partition)
            m_layers.push_back(std::move(layer));
        m_end = PartitionBoundEnd::Finished;
        return best;
    }

    /// The ordered partition of the best end state, walking the parents back.
    std::vector<std::uint64_t> rebuild() const
    {
        std::vector<std::uint64_t> groups(m_bestSteps);
        State s = m_bestEnd;
        for (std::size_t t = m_bestSteps; t > 0; --t) {
            groups[t - 1] = s.last;
            const Entry &e = m_layers[t].at(s);
            s = State{s.done & ~s.last, e.parent};
        }
        return groups;
    }

    PixelSet unionOf(std::uint64_t patches) const
    {
        PixelSet u;
        for (std::uint64_t rest = patches; rest != 0; rest &= rest - 1)
            u |= m_sets[std::size_t(std::countr_zero(rest))];
        return u;
    }

    /// Whether `left` patches can still fill the groups allowed after m_groupsAfter.
    bool canFinish(std::int64_t left) const
    {
        const std::int64_t groupsLeftMax = m_in.max_groups - m_groupsAfter;
        if (left > groupsLeftMax * m_in.group_size)
            return false;
        if (m_in.group_count == GroupCount::ExactlyKMin)
            return left >= groupsLeftMax; // every remaining group needs a patch
        return true;
    }

    /// Grows the next group from `candidates` (lowest index first); every
    /// non-empty group that fits memory becomes a transition.
    void extend(
        std::uint64_t remaining, std::uint64_t candidates, std::uint64_t group, const PixelSet &u, const PixelSet &lastUnion)
    {
        while (candidates != 0 && !m_stopped) {
            if (++m_work > m_limits.max_work) {
                stop(PartitionBoundEnd::WorkCapHit);
                return;
            }
            if (m_work % 4096 == 0 && interrupted())
                return;
            const int p = std::countr_zero(candidates);
            candidates &= candidates - 1;
            const std::uint64_t grown = group | (std::uint64_t(1) << p);
            const PixelSet grownUnion = u | m_sets[std::size_t(p)];
            const int size = std::popcount(grown);
            if (!m_in.fitsMemory(std::int64_t(grownUnion.count()), size))
                continue; // a superset only needs more
            transition(remaining & ~grown, grown, grownUnion, lastUnion);
            if (size < m_in.group_size)
                extend(remaining, candidates, grown, grownUnion, lastUnion);
        }
    }

    /// Cancel and deadline, every few thousand groups tried; progress too.
    bool interrupted()
    {
        if (m_limits.cancel && m_limits.cancel->load()) {
            stop(PartitionBoundEnd::Cancelled);
            return true;
        }
        if (m_limits.deadline && std::chrono::steady_clock::now() > *m_limits.deadline) {
            stop(PartitionBoundEnd::TimedOut);
            return true;
        }
        if (m_limits.progress && m_work % 65536 == 0)
            m_limits.progress(m_statesSoFar);
        return false;
    }

    void stop(PartitionBoundEnd why)
    {
        m_stopped = true;
        m_end = why;
    }

    void transition(std::uint64_t left, std::uint64_t group, const PixelSet &u, const PixelSet &lastUnion)
    {
        if (!canFinish(std::popcount(left)))
            return;
        const std::int64_t loads = m_fromLoads + std::int64_t((u & ~lastUnion).count());
        if (m_limits.known_loads && loads + std::int64_t((m_ahead & ~u).count()) > *m_limits.known_loads)
            return;
        if (m_limits.below_duration) {
            // At least the pixels the patches left need and not held now, and
            // the fewest groups that can take those patches.
            const std::int64_t left = std::popcount(m_all & ~(m_from.done | group));
            const std::int64_t groups = m_groupsAfter + (left + m_in.group_size - 1) / m_in.group_size;
            const double least
                = m_in.duration(loads + std::int64_t((m_ahead & ~u).count()), std::max(groups, std::int64_t(m_in.min_groups)));
            if (least >= *m_limits.below_duration - m_tolerance)
                return;
        }
        const State s{m_from.done | group, group};
        auto [it, inserted] = m_next->try_emplace(s, Entry{loads, m_from.last});
        if (!inserted && loads < it->second.loads)
            it->second = Entry{loads, m_from.last};
    }

    const S1Instance &m_in;
    const PartitionBoundLimits &m_limits;
    const int m_patches;
    std::vector<PixelSet> m_sets;
    std::uint64_t m_all = 0;
    std::int64_t m_work = 0;
    std::int64_t m_statesSoFar = 1;
    bool m_stopped = false; // out of work, cancelled or timed out
    PartitionBoundEnd m_end = PartitionBoundEnd::Finished;
    double m_tolerance = 0; // of below_duration
    // The state being expanded.
    State m_from{0, 0};
    std::int64_t m_fromLoads = 0;
    PixelSet m_ahead; // pixels the patches not yet done need
    std::int64_t m_groupsAfter = 0;
    Layer *m_next = nullptr;
    // keep_partition: every step's states, and the best end state.
    std::vector<Layer> m_layers;
    State m_bestEnd{0, 0};
    std::size_t m_bestSteps = 0;
};

} // namespace

std::string partitionBoundEndName(PartitionBoundEnd end)
{
    switch (end) {
    case PartitionBoundEnd::Finished:
        return "finished";
    case PartitionBoundEnd::TooLarge:
        return "too large";
    case PartitionBoundEnd::StatesCapHit:
        return "states cap hit";
    case PartitionBoundEnd::WorkCapHit:
        return "work cap hit";
    case PartitionBoundEnd::Cancelled:
        return "cancelled";
    case PartitionBoundEnd::TimedOut:
        return "time limit reached";
    }
    return "?";
}

std::optional<double> partitionLowerBound(const S1Instance &in, const PartitionBoundLimits &limits)
{
    return partitionBound(in, limits).bound;
}

PartitionBoundOutcome partitionBound(const S1Instance &in, const PartitionBoundLimits &limits)
{
    if (in.patches > kMaxPatches || in.needed_pixels.size() > kMaxPixels || in.patches == 0)
        return {};
    // The first step alone tries every group of at most G patches: when they
    // are more than the work allowed, do not start.
    double firstStep = 0, choose = 1;
    for (std::int64_t s = 1; s <= std::min(in.group_size, in.patches); ++s) {
        choose = choose * double(in.patches - s + 1) / double(s);
        firstStep += choose;
    }
    if (firstStep > double(limits.max_work))
        return {};
    return PartitionDp(in, limits).run();
}

bool reloadBoundIsSlack(const S1Instance &in)
{
    std::vector<int> sharing(std::size_t(in.pixels), 0);
    int most = 0;
    for (const auto &pixels : in.patch_pixels)
        for (PixelId px : pixels)
            most = std::max(most, ++sharing[px]);
    return most <= in.max_loads_per_pixel;
}

} // namespace convoffload
