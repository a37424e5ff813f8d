// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "LoadOnceSearch.h"

#include "Wavefront.h"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <unordered_set>
#include <vector>

namespace convoffload {

namespace {

/// How wide a sweep looks: patches tried at each step of a group's fill
/// (best first), and ways to grow a group gathered before the best of them
/// are tried. Measured on the paper's grid: no one style finds every
/// strategy soonest, so the sweeps use both.
struct SweepStyle {
    int fills;
    int children;
};
constexpr std::array<SweepStyle, 2> kStyles{{{5, 16}, {3, 16}}};
constexpr int kNodesBetweenChecks = 1024; // of the stop flag and the deadline
constexpr std::int64_t kFirstTurnNodes = 10'000; // each sweep's first turn; each next turn doubles

/// One sweep: the search with one order of preference among the patches
/// (`rank`, least first), which decides where the wavefront starts and which
/// way it leans.
class LoadOnceSweep {
public:
    LoadOnceSweep(const S1Instance &in, const std::vector<std::vector<PatchId>> &pixelPatches, std::vector<std::int64_t> rank,
        SweepStyle style, const LoadOnceLimits &limits)
        : m_in(in)
        , m_pixelPatches(pixelPatches)
        , m_rank(std::move(rank))
        , m_style(style)
        , m_limits(limits)
        , m_done(std::size_t(in.patches), 0)
        , m_inGroup(std::size_t(in.patches), 0)
        , m_need(std::size_t(in.pixels), 0)
        , m_cover(std::size_t(in.pixels), 0)
        , m_mark(std::size_t(in.pixels), 0)
        , m_groups(std::size_t(in.min_groups))
        , m_zobrist(std::size_t(in.patches))
    {
        for (const auto &pixels : in.patch_pixels)
            for (const PixelId px : pixels)
                ++m_need[px];
        std::uint64_t x = 0x9E3779B97F4A7C15ull;
        for (std::uint64_t &z : m_zobrist) { // splitmix64: a fixed stream, so runs repeat
            x += 0x9E3779B97F4A7C15ull;
            std::uint64_t v = x;
            v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9ull;
            v = (v ^ (v >> 27)) * 0x94D049BB133111EBull;
            z = v ^ (v >> 31);
        }
        m_remaining = in.patches;
    }

    /// Searches with `budget` more nodes. The failed sets are remembered
    /// from one call to the next, so a longer try does not repeat a shorter one.
    std::optional<Groups> run(std::int64_t budget)
    {
        m_nodeBudget = m_nodes + budget;
        m_out = false;
        if (place(0, {}))
            return m_groups;
        m_exhausted = !m_out;
        return std::nullopt;
    }

    std::int64_t nodes() const { return m_nodes; }
    /// Whether the last run searched everything this sweep would.
    bool exhausted() const { return m_exhausted; }

private:
    /// A way to grow the group of a level: its patches, and the pixels it
    /// leaves open (fewer leave the next group more freedom).
    struct Child {
        std::int64_t open = 0;
        std::int64_t rank = 0; // the sum of its patches' ranks: the sweep's preference
        std::vector<PatchId> patches;
        bool operator<(const Child &other) const { return open != other.open ? open < other.open : rank < other.rank; }
    };

    /// Places the groups from `level` on, given the open pixels: gathers up
    /// to kMaxChildren ways to grow the next group, then tries them, the
    /// one leaving the fewest pixels open first.
    bool place(std::int64_t level, const std::vector<PixelId> &open)
    {
        if (m_remaining == 0)
            return true;
        if (level >= m_in.min_groups)
            return false;
        const std::uint64_t key = m_hash ^ (std::uint64_t(level + 1) * 0xD6E8FEB86659FD93ull);
        if (m_failed.count(key))
            return false;
        const std::int64_t groupsAfter = m_in.min_groups - level - 1;
        const std::int64_t minSize = std::max<std::int64_t>(1, m_remaining - groupsAfter * m_in.group_size);
        std::vector<PatchId> &group = m_groups[std::size_t(level)];
        group.clear();
        m_union = 0;
        Gather gather{level, open, minSize, std::size_t(m_style.children)};
        grow(gather, 0);
        if (m_out)
            return false;
        std::sort(gather.children.begin(), gather.children.end());
        for (const Child &child : gather.children) {
            for (const PatchId q : child.patches)
                add(level, q);
            if (commit(level))
                return true;
            while (!group.empty())
                removeLast(level);
            if (m_out)
                return false;
        }
        m_failed.insert(key);
        return false;
    }

    bool outOfNodes()
    {
        if (m_out)
            return true;
        if (++m_nodes > m_nodeBudget)
            m_out = true;
        else if (m_nodes % kNodesBetweenChecks == 0) {
            if (m_limits.tick)
                m_limits.tick();
            if (m_limits.stop && m_limits.stop->load(std::memory_order_relaxed))
                m_out = true;
            else if (m_limits.deadline && std::chrono::steady_clock::now() > *m_limits.deadline)
                m_out = true;
        }
        return m_out;
    }

    struct Gather {
        std::int64_t level;
        const std::vector<PixelId> &open;
        std::int64_t minSize;
        std::size_t most; // children
        std::vector<Child> children = {};
        std::unordered_set<std::uint64_t> seen = {}; // groups gathered already, by hash
        bool full() const { return children.size() >= most; }
    };

    /// Grows the group of the gather's level: covers the open pixels, then
    /// fills; each group that may be placed is gathered.
    void grow(Gather &gather, std::uint64_t groupHash)
    {
        if (outOfNodes() || gather.full())
            return;
        std::vector<PatchId> &group = m_groups[std::size_t(gather.level)];
        // The open pixel with the fewest patches left to cover it.
        std::optional<PixelId> tightest;
        int fewest = std::numeric_limits<int>::max();
        for (const PixelId px : gather.open) {
            if (m_cover[px] > 0)
                continue;
            int choices = 0;
            for (const PatchId q : m_pixelPatches[px])
                choices += !m_done[q] && !m_inGroup[q];
            if (choices == 0)
                return; // it can only be freed and loaded again
            if (choices < fewest) {
                fewest = choices;
                tightest = px;
            }
        }
        if (tightest) {
            if (std::int64_t(group.size()) >= m_in.group_size)
                return;
            std::vector<PatchId> choices;
            for (const PatchId q : m_pixelPatches[*tightest])
                if (!m_done[q] && !m_inGroup[q])
                    choices.push_back(q);
            wavefront::sortByPreference(m_in, growing(), choices);
            for (const PatchId q : choices)
                growWith(gather, groupHash, q);
            return;
        }
        if (std::int64_t(group.size()) >= gather.minSize && gather.seen.insert(groupHash).second)
            offer(gather);
        if (std::int64_t(group.size()) >= m_in.group_size)
            return;
        std::vector<PatchId> fills = wavefront::fillCandidates(m_in, growing(), group);
        wavefront::sortByPreference(m_in, growing(), fills);
        if (fills.size() > std::size_t(m_style.fills))
            fills.resize(std::size_t(m_style.fills));
        for (const PatchId q : fills)
            growWith(gather, groupHash, q);
    }

    void growWith(Gather &gather, std::uint64_t groupHash, PatchId q)
    {
        add(gather.level, q);
        if (m_in.fitsMemory(m_union, std::int64_t(m_groups[std::size_t(gather.level)].size())))
            grow(gather, groupHash ^ m_zobrist[q]);
        removeLast(gather.level);
    }

    /// Gathers the group as it is, unless the pixels it leaves open need
    /// more than G windows.
    void offer(Gather &gather)
    {
        const std::vector<PatchId> &group = m_groups[std::size_t(gather.level)];
        std::vector<PixelId> open;
        Child child;
        for (const PatchId q : group) {
            child.rank += m_rank[q];
            for (const PixelId px : m_in.patch_pixels[q])
                if (!m_mark[px]) {
                    m_mark[px] = 1;
                    if (m_need[px] > m_cover[px]) // a patch outside the group needs it
                        open.push_back(px);
                }
        }
        for (const PatchId q : group)
            for (const PixelId px : m_in.patch_pixels[q])
                m_mark[px] = 0;
        if (wavefront::windowsNeeded(m_in.layer, open, m_in.group_size) > m_in.group_size)
            return;
        child.open = std::int64_t(open.size());
        child.patches = group;
        gather.children.push_back(std::move(child));
    }

    wavefront::GrowingGroup growing() const { return {m_pixelPatches, m_rank, m_done, m_inGroup, m_cover}; }

    void add(std::int64_t level, PatchId q)
    {
        m_groups[std::size_t(level)].push_back(q);
        m_inGroup[q] = 1;
        for (const PixelId px : m_in.patch_pixels[q])
            m_union += m_cover[px]++ == 0;
    }

    void removeLast(std::int64_t level)
    {
        std::vector<PatchId> &group = m_groups[std::size_t(level)];
        const PatchId q = group.back();
        group.pop_back();
        m_inGroup[q] = 0;
        for (const PixelId px : m_in.patch_pixels[q])
            m_union -= --m_cover[px] == 0;
    }

    /// Places the group of `level` as it is and searches on; undoes it
    /// when that fails.
    bool commit(std::int64_t level)
    {
        const std::vector<PatchId> &group = m_groups[std::size_t(level)];
        std::vector<PixelId> unionPixels;
        for (const PatchId q : group) {
            m_done[q] = 1;
            m_inGroup[q] = 0;
            m_hash ^= m_zobrist[q];
            for (const PixelId px : m_in.patch_pixels[q]) {
                --m_need[px];
                if (!m_mark[px]) {
                    m_mark[px] = 1;
                    unionPixels.push_back(px);
                }
            }
        }
        m_remaining -= std::int64_t(group.size());
        std::vector<PixelId> open;
        for (const PixelId px : unionPixels) {
            m_mark[px] = 0;
            if (m_need[px] > 0)
                open.push_back(px);
        }
        // The next group starts from nothing: its cover counts are its own.
        const std::int64_t unionSize = m_union;
        for (const PixelId px : unionPixels)
            m_cover[px] = 0;
        bool found = false;
        if (wavefront::windowsNeeded(m_in.layer, open, m_in.group_size) <= m_in.group_size)
            found = place(level + 1, open);
        // Undo, back to the group being grown.
        for (const PatchId q : group)
            for (const PixelId px : m_in.patch_pixels[q])
                ++m_cover[px];
        m_union = unionSize;
        m_remaining += std::int64_t(group.size());
        for (const PatchId q : group) {
            m_done[q] = 0;
            m_inGroup[q] = 1;
            m_hash ^= m_zobrist[q];
            for (const PixelId px : m_in.patch_pixels[q])
                ++m_need[px];
        }
        return found;
    }

    const S1Instance &m_in;
    const std::vector<std::vector<PatchId>> &m_pixelPatches;
    const std::vector<std::int64_t> m_rank;
    const SweepStyle m_style;
    const LoadOnceLimits &m_limits;
    std::int64_t m_nodeBudget = 0;
    bool m_exhausted = false;
    std::vector<char> m_done, m_inGroup;
    std::vector<int> m_need; // patches not placed (in a group being grown counts as not placed) that need each pixel
    std::vector<int> m_cover; // patches of the group being grown that hold each pixel
    std::vector<char> m_mark;
    std::int64_t m_union = 0; // pixels of the group being grown
    std::int64_t m_remaining = 0;
    Groups m_groups;
    std::vector<std::uint64_t> m_zobrist;
    std::uint64_t m_hash = 0; // of the placed patches
    std::unordered_set<std::uint64_t> m_failed; // placed sets (and group counts) that cannot be finished
    std::int64_t m_nodes = 0;
    bool m_out = false; // out of nodes, stopped or past the deadline
};

} // namespace

LoadOnceOutcome findLoadOnceStrategy(const S1Instance &in, const LoadOnceLimits &limits)
{
    LoadOnceOutcome out;
    // On larger layers it never found one (LeNet-5 conv1, 784 patches, and
    // a 224×224 layer): it only spent its share of the time, 3 s of a 10 s
    // run. The paper's grid has at most 100 patches.
    constexpr std::int64_t kMostPatches = 256;
    if (in.patches == 0 || in.patches > kMostPatches || std::int64_t(in.patch_pixels.size()) != in.patches)
        return out;
    const std::vector<std::vector<PatchId>> pixelPatches = wavefront::patchesOfEachPixel(in);
    // The sweeps take turns, each with twice the nodes of its last turn:
    // which one finds a strategy first differs from instance to instance.
    std::vector<std::unique_ptr<LoadOnceSweep>> sweeps;
    for (const SweepStyle style : kStyles)
        for (std::vector<std::int64_t> &rank : wavefront::sweepRanks(in))
            sweeps.push_back(std::make_unique<LoadOnceSweep>(in, pixelPatches, std::move(rank), style, limits));
    auto stopped = [&] {
        return (limits.stop && limits.stop->load()) || (limits.deadline && std::chrono::steady_clock::now() > *limits.deadline);
    };
    for (std::int64_t turn = kFirstTurnNodes; !sweeps.empty(); turn *= 2) {
        for (auto it = sweeps.begin(); it != sweeps.end();) {
            const std::int64_t budget = std::min(turn, limits.max_nodes - out.nodes);
            if (budget <= 0 || stopped())
                return out;
            LoadOnceSweep &sweep = **it;
            const std::int64_t before = sweep.nodes();
            std::optional<Groups> groups = sweep.run(budget);
            out.nodes += sweep.nodes() - before;
            if (groups) {
                out.groups = std::move(groups);
                return out;
            }
            it = sweep.exhausted() ? sweeps.erase(it) : it + 1;
        }
    }
    return out;
}

} // namespace convoffload
