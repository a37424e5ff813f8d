#include "convoffload/optimise/S1InstanceBound.h"

#include "PatchSymmetries.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cmath>
#include <functional>
#include <limits>
#include <memory_resource>
#include <new>
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
        for (std::size_t p = 0; p < m_sets.size(); ++p) {
            std::uint64_t near = 0;
            for (std::size_t q = 0; q < m_sets.size(); ++q)
                if (q != p && (m_sets[p] & m_sets[q]).any())
                    near |= std::uint64_t(1) << q;
            m_neighbours.push_back(near);
        }
        m_symmetries = patchSymmetries(in);
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
    // Every step's states live in one arena, the maps too: allocating is a
    // pointer bump, and the maps are never destroyed (their elements are
    // trivial), so millions of nodes go at once with the arena and a time
    // limit or Stop is not followed by seconds of freeing.
    using Layer = std::pmr::unordered_map<State, Entry, StateHash>;

    Layer &newLayer()
    {
        void *place = m_arena.allocate(sizeof(Layer), alignof(Layer));
        return *new (place) Layer(&m_arena);
    }

    std::optional<double> explore(std::int64_t &states)
    {
        const std::int64_t maxGroups = std::min<std::int64_t>(m_in.max_groups, m_in.patches);
        Layer *layer = &newLayer();
        layer->emplace(State{0, 0}, Entry{0, 0});
        std::optional<double> best;
        states = 1;
        for (std::int64_t t = 0; t < maxGroups && !layer->empty(); ++t) {
            Layer &next = newLayer();
            for (const auto &[state, entry] : *layer) {
                const std::int64_t loads = entry.loads;
                const std::uint64_t remaining = m_all & ~state.done;
                const PixelSet lastUnion = unionOf(state.last);
                // Pixels the patches left need: after a group g, those g does
                // not hold are loaded again (g's own pixels are all in U_g).
                m_from = state;
                m_fromLoads = loads;
                m_groupsAfter = t + 1;
                if (pruning())
                    prepareReuse(remaining, lastUnion);
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
                m_layers.push_back(layer);
            layer = &next;
        }
        if (m_limits.keep_partition)
            m_layers.push_back(layer);
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
            const Entry &e = m_layers[t]->at(s);
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
            if (pruning()) {
                // This group and every superset still to be grown from it.
                const std::int64_t reuse = std::int64_t((grownUnion & lastUnion).count());
                const std::int64_t slots = size < m_in.group_size ? m_in.group_size - size : 0;
                if (hopeless(m_reuseBase - reuse - slots * mostReuse(candidates)))
                    continue;
            }
            transition(remaining & ~grown, grown, grownUnion, lastUnion);
            if (size < m_in.group_size)
                extend(remaining, candidates, grown, grownUnion, lastUnion);
        }
    }

    bool pruning() const { return m_limits.known_loads || m_limits.below_duration; }

    /// For the state being expanded: the pixels the patches left need
    /// (m_ahead), and each patch left by how much of the last group's union
    /// it holds. Any next group g' (its union u' lies in m_ahead) has at least
    ///   loads so far + |u' \ last| + |m_ahead \ u'| = loads so far + |m_ahead| - |u' ∩ last|
    /// ahead, so it must reuse enough of the last union to beat the bound.
    void prepareReuse(std::uint64_t remaining, const PixelSet &lastUnion)
    {
        m_ahead = unionOf(remaining);
        m_reuseBase = m_fromLoads + std::int64_t(m_ahead.count());
        std::fill(m_byReuse.begin(), m_byReuse.begin() + std::ptrdiff_t(m_mostHeld + 1), 0);
        m_mostHeld = 0;
        for (std::uint64_t rest = remaining; rest != 0; rest &= rest - 1) {
            const int q = std::countr_zero(rest);
            const std::size_t held = (m_sets[std::size_t(q)] & lastUnion).count();
            m_byReuse[held] |= std::uint64_t(1) << q;
            m_mostHeld = std::max(m_mostHeld, held);
        }
        // This group takes at most G of the patches left; the rest need
        // ceil((left - G) / G) = floor((left - 1) / G) more groups.
        const std::int64_t left = std::popcount(remaining);
        m_fewestGroups = std::max<std::int64_t>(m_in.min_groups, m_groupsAfter + (left - 1) / m_in.group_size);
    }

    /// The most of the last union one of `candidates` holds.
    std::int64_t mostReuse(std::uint64_t candidates) const
    {
        for (std::size_t held = m_mostHeld + 1; held-- > 0;)
            if (m_byReuse[held] & candidates)
                return std::int64_t(held);
        return 0;
    }

    /// Whether `ahead` loads from the state being expanded (this step's
    /// included) already reach the strategy to beat.
    bool hopeless(std::int64_t ahead) const
    {
        if (m_limits.known_loads && ahead > *m_limits.known_loads)
            return true;
        return m_limits.below_duration && m_in.duration(ahead, m_fewestGroups) >= *m_limits.below_duration - m_tolerance;
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
        if (m_groupsAfter == 1 && !canonicalFirst(group))
            return;
        const std::int64_t loads = m_fromLoads + std::int64_t((u & ~lastUnion).count());
        if (m_limits.known_loads || m_limits.below_duration) {
            // The fewest groups that can take the patches left.
            const std::int64_t groups = std::max(
                m_groupsAfter + (std::popcount(left) + m_in.group_size - 1) / m_in.group_size, std::int64_t(m_in.min_groups));
            auto beaten = [&](std::int64_t ahead) {
                if (m_limits.known_loads && loads + ahead > *m_limits.known_loads)
                    return true;
                return m_limits.below_duration && m_in.duration(loads + ahead, groups) >= *m_limits.below_duration - m_tolerance;
            };
            // At least the pixels the patches left need and the group does
            // not hold; then those it holds that the next group cannot keep
            // (worked out only when they could make the difference).
            const std::int64_t outside = std::int64_t((m_ahead & ~u).count());
            if (beaten(outside))
                return;
            const std::int64_t held = std::int64_t((m_ahead & u).count());
            if (held > 0 && beaten(outside + held) && beaten(outside + notKept(left, group, u)))
                return;
        }
        const State s{m_from.done | group, group};
        auto [it, inserted] = m_next->try_emplace(s, Entry{loads, m_from.last});
        if (!inserted && loads < it->second.loads)
            it->second = Entry{loads, m_from.last};
    }

    /// Symmetry breaking: a first group is kept only when no symmetry of the
    /// instance maps it to a smaller bitmask. Any ordered partition has an
    /// image under some symmetry (same loads, memory, reload counts) whose
    /// first group is the least of its orbit, and that one is kept.
    bool canonicalFirst(std::uint64_t group) const
    {
        for (const std::vector<PatchId> &sigma : m_symmetries)
            if (mapPatchMask(sigma, group) < group)
                return false;
        return true;
    }

    /// Pixels the group holds (u) that the patches `left` need, but that the
    /// next group cannot keep: each is loaded again later. The next group
    /// holds at most G of those patches, and each keeps at most its own
    /// overlap with them, so it keeps at most the G largest overlaps. Only
    /// neighbours of the group's patches can overlap u.
    std::int64_t notKept(std::uint64_t left, std::uint64_t group, const PixelSet &u)
    {
        std::uint64_t near = 0;
        for (std::uint64_t rest = group; rest != 0; rest &= rest - 1)
            near |= m_neighbours[std::size_t(std::countr_zero(rest))];
        near &= left;
        PixelSet needed;
        for (std::uint64_t rest = near; rest != 0; rest &= rest - 1)
            needed |= m_sets[std::size_t(std::countr_zero(rest))];
        needed &= u;
        const std::int64_t count = std::int64_t(needed.count());
        if (count == 0)
            return 0;
        m_overlaps.clear();
        for (std::uint64_t rest = near; rest != 0; rest &= rest - 1)
            m_overlaps.push_back(std::int64_t((m_sets[std::size_t(std::countr_zero(rest))] & needed).count()));
        const std::size_t g = std::min(m_overlaps.size(), std::size_t(m_in.group_size));
        std::partial_sort(m_overlaps.begin(), m_overlaps.begin() + std::ptrdiff_t(g), m_overlaps.end(), std::greater<>());
        std::int64_t kept = 0;
        for (std::size_t i = 0; i < g; ++i)
            kept += m_overlaps[i];
        return std::max<std::int64_t>(0, count - kept);
    }

    std::pmr::monotonic_buffer_resource m_arena; // declared first: the layers use it until they go
    const S1Instance &m_in;
    const PartitionBoundLimits &m_limits;
    const int m_patches;
    std::vector<PixelSet> m_sets;
    std::vector<std::uint64_t> m_neighbours; // patches sharing a pixel with each patch
    std::vector<std::vector<PatchId>> m_symmetries;
    std::vector<std::int64_t> m_overlaps; // scratch of notKept
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
    std::int64_t m_reuseBase = 0; // loads so far + |m_ahead|
    std::array<std::uint64_t, kMaxPixels + 1> m_byReuse{}; // patches left by pixels of the last union they hold
    std::size_t m_mostHeld = kMaxPixels; // the largest index of m_byReuse in use
    std::int64_t m_fewestGroups = 0; // groups any completion has at least
    std::int64_t m_groupsAfter = 0;
    Layer *m_next = nullptr;
    // keep_partition: every step's states, and the best end state.
    std::vector<const Layer *> m_layers;
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
