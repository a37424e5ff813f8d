#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <bit>
#include <bitset>
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
        m_all = m_patches == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << m_patches) - 1;
    }

    std::optional<double> run()
    {
        const std::int64_t maxGroups = std::min<std::int64_t>(m_in.max_groups, m_in.patches);
        std::unordered_map<State, std::int64_t, StateHash> layer{{State{0, 0}, 0}};
        std::optional<double> best;
        std::int64_t states = 1;
        for (std::int64_t t = 0; t < maxGroups && !layer.empty(); ++t) {
            std::unordered_map<State, std::int64_t, StateHash> next;
            for (const auto &[state, loads] : layer) {
                const std::uint64_t remaining = m_all & ~state.done;
                const PixelSet lastUnion = unionOf(state.last);
                m_from = state;
                m_fromLoads = loads;
                m_groupsAfter = t + 1;
                m_next = &next;
                extend(remaining, remaining, 0, PixelSet{}, lastUnion);
                if (std::int64_t(next.size()) + states > m_limits.max_states || m_work > m_limits.max_work)
                    return std::nullopt;
            }
            states += std::int64_t(next.size());
            for (const auto &[state, loads] : next)
                if (state.done == m_all && t + 1 >= m_in.min_groups) {
                    const double d = m_in.duration(loads, t + 1);
                    if (!best || d < *best)
                        best = d;
                }
            layer = std::move(next);
        }
        return best;
    }

private:
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
        while (candidates != 0 && ++m_work <= m_limits.max_work) {
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

    void transition(std::uint64_t left, std::uint64_t group, const PixelSet &u, const PixelSet &lastUnion)
    {
        if (!canFinish(std::popcount(left)))
            return;
        const std::int64_t loads = m_fromLoads + std::int64_t((u & ~lastUnion).count());
        if (m_limits.known_loads) {
            // Pixels the remaining patches need and this group does not hold
            // are all loaded again later.
            const std::int64_t ahead = std::int64_t((unionOf(left) & ~u).count());
            if (loads + ahead > *m_limits.known_loads)
                return;
        }
        const State s{m_from.done | group, group};
        auto [it, inserted] = m_next->try_emplace(s, loads);
        if (!inserted && loads < it->second)
            it->second = loads;
    }

    const S1Instance &m_in;
    const PartitionBoundLimits &m_limits;
    const int m_patches;
    std::vector<PixelSet> m_sets;
    std::uint64_t m_all = 0;
    std::int64_t m_work = 0;
    // The state being expanded.
    State m_from{0, 0};
    std::int64_t m_fromLoads = 0;
    std::int64_t m_groupsAfter = 0;
    std::unordered_map<State, std::int64_t, StateHash> *m_next = nullptr;
};

} // namespace

std::optional<double> partitionLowerBound(const S1Instance &in, const PartitionBoundLimits &limits)
{
    if (in.patches > kMaxPatches || in.needed_pixels.size() > kMaxPixels || in.patches == 0)
        return std::nullopt;
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
