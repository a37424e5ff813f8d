// The annealer's large moves. Both are whole edits lists like the small
// moves, so the chain accepts or undoes them the same way.
#include "SearchAnnealer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <functional>
#include <limits>

namespace convoffload::search {

namespace {

constexpr int kRuinGroups = 6; // at most this many groups emptied and re-filled
constexpr int kRuinRadius = 4; // patches this far (Chebyshev) from the centre are looked at
constexpr int kReorderWindow = 8; // 2^8·8² steps of dynamic programming

} // namespace

Annealer::Proposal Annealer::ruinAndRecreate()
{
    const Layer &l = m_in.layer;
    const PatchId centre = randomPatch();
    const Grid at = patchPosition(l, centre);
    const int wanted = 2 + m_random.below(kRuinGroups - 1);

    // The groups met in growing square rings around the centre.
    std::vector<int> &ruined = m_scratchGroups;
    ruined.clear();
    for (int radius = 0; radius <= kRuinRadius && int(ruined.size()) < wanted; ++radius)
        for (int r = at.row - radius; r <= at.row + radius && int(ruined.size()) < wanted; ++r)
            for (int c = at.col - radius; c <= at.col + radius && int(ruined.size()) < wanted; ++c) {
                if (r < 0 || c < 0 || r >= l.hOut() || c >= l.wOut())
                    continue;
                if (std::max(std::abs(r - at.row), std::abs(c - at.col)) != radius)
                    continue;
                const int g = m_state.groupOf(patchId(l, r, c));
                if (std::find(ruined.begin(), ruined.end(), g) == ruined.end())
                    ruined.push_back(g);
            }
    if (ruined.size() < 2)
        return Proposal::None;

    // Park every patch of those groups in a spare group at the end, behind an
    // empty one so that parked pixels never count as kept from the last group:
    // the price of taking a patch out of the park is then the same whatever
    // group it goes to.
    const int n = int(m_state.groupCount());
    insertGroup(n);
    const int park = insertGroup(n + 1);
    std::vector<PatchId> &patches = m_scratchPatches;
    patches.clear();
    for (int g : ruined)
        patches.insert(patches.end(), m_state.members(g).begin(), m_state.members(g).end());
    for (PatchId p : patches)
        move(p, park);

    // Re-fill in one of three orders: random, or swept along rows or columns
    // from a random side, which favours compact groups.
    const int order = m_random.below(3);
    if (order == 0) {
        for (std::size_t i = patches.size(); i > 1; --i)
            std::swap(patches[i - 1], patches[std::size_t(m_random.below(int(i)))]);
    } else {
        const bool byRows = order == 1, reversed = m_random.below(2) == 1;
        std::sort(patches.begin(), patches.end(), [&](PatchId a, PatchId b) {
            const Grid ga = patchPosition(l, a), gb = patchPosition(l, b);
            const std::pair<int, int> ka = byRows ? std::pair{ga.row, ga.col} : std::pair{ga.col, ga.row};
            const std::pair<int, int> kb = byRows ? std::pair{gb.row, gb.col} : std::pair{gb.col, gb.row};
            return reversed ? kb < ka : ka < kb;
        });
    }

    const bool mayEmpty = m_in.group_count == GroupCount::AtMostCap;
    int empty = int(ruined.size());
    const int rotation = m_random.below(int(ruined.size())); // ties go to a random group
    for (std::size_t i = 0; i < patches.size(); ++i) {
        const PatchId p = patches[i];
        // With a fixed number of groups, the last patches fill the groups still empty.
        const bool mustFillEmpty = !mayEmpty && int(patches.size() - i) <= empty;
        int best = -1;
        double bestObjective = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < ruined.size(); ++k) {
            const int g = ruined[(k + std::size_t(rotation)) % ruined.size()];
            const int size = m_state.groupSize(g);
            if (size >= m_in.group_size || (mustFillEmpty && size > 0))
                continue;
            m_state.movePatch(p, g);
            const double o = objective();
            m_state.movePatch(p, park);
            if (o < bestObjective) {
                bestObjective = o;
                best = g;
            }
        }
        if (m_state.groupSize(best) == 0)
            --empty;
        move(p, best);
    }

    removeGroup(n + 1);
    removeGroup(n);
    if (mayEmpty)
        for (int g : ruined)
            if (m_state.groupSize(g) == 0)
                removeGroup(m_state.positionOf(g));
    return Proposal::Applied;
}

Annealer::Proposal Annealer::reorderWindow()
{
    const int n = int(m_state.groupCount());
    if (n < 3)
        return Proposal::None;
    const int first = m_random.below(n - 2);
    const int w = std::min(kReorderWindow, n - first);
    std::array<int, kReorderWindow + 2> ids{}; // the window, then the groups before and after it
    for (int k = 0; k < w; ++k)
        ids[std::size_t(k)] = m_state.groupAt(first + k);
    const int before = groupAtOrNone(first - 1), after = groupAtOrNone(first + w);

    // shared[a][b]: pixels both groups hold; index w is `before`, w + 1 `after`.
    std::array<std::array<int, kReorderWindow + 2>, kReorderWindow + 2> shared{};
    for (int a = 0; a < w; ++a) {
        for (int b = a + 1; b < w; ++b)
            shared[std::size_t(a)][std::size_t(b)] = shared[std::size_t(b)][std::size_t(a)]
                = m_state.sharedPixels(ids[std::size_t(a)], ids[std::size_t(b)]);
        shared[std::size_t(w)][std::size_t(a)] = m_state.sharedPixels(before, ids[std::size_t(a)]);
        shared[std::size_t(a)][std::size_t(w + 1)] = m_state.sharedPixels(ids[std::size_t(a)], after);
    }

    // Loads = Σ|U| − Σ pixels shared by adjacent groups, so the best order of
    // the window is the path through it sharing the most: best[mask][last].
    const int full = (1 << w) - 1;
    std::vector<int> best(std::size_t(full + 1) * std::size_t(w), -1);
    auto at = [&](int mask, int last) -> int & { return best[std::size_t(mask) * std::size_t(w) + std::size_t(last)]; };
    for (int a = 0; a < w; ++a)
        at(1 << a, a) = shared[std::size_t(w)][std::size_t(a)];
    for (int mask = 1; mask <= full; ++mask)
        for (int last = 0; last < w; ++last) {
            const int value = at(mask, last);
            if (value < 0)
                continue;
            for (int next = 0; next < w; ++next)
                if (!(mask & (1 << next))) {
                    int &target = at(mask | (1 << next), next);
                    target = std::max(target, value + shared[std::size_t(last)][std::size_t(next)]);
                }
        }
    int current = shared[std::size_t(w)][0] + shared[std::size_t(w - 1)][std::size_t(w + 1)];
    for (int k = 0; k + 1 < w; ++k)
        current += shared[std::size_t(k)][std::size_t(k + 1)];
    int bestLast = -1, bestValue = current;
    for (int last = 0; last < w; ++last)
        if (at(full, last) >= 0 && at(full, last) + shared[std::size_t(last)][std::size_t(w + 1)] > bestValue) {
            bestValue = at(full, last) + shared[std::size_t(last)][std::size_t(w + 1)];
            bestLast = last;
        }
    if (bestLast < 0)
        return Proposal::None; // the window is already in a best order

    // Walk the table back to the order, then apply it by reversals.
    std::array<int, kReorderWindow> order{};
    for (int mask = full, last = bestLast, k = w - 1; k >= 0; --k) {
        order[std::size_t(k)] = last;
        const int value = at(mask, last);
        const int rest = mask & ~(1 << last);
        if (rest == 0)
            break;
        for (int prev = 0; prev < w; ++prev)
            if ((rest & (1 << prev)) && at(rest, prev) >= 0
                && at(rest, prev) + shared[std::size_t(prev)][std::size_t(last)] == value) {
                last = prev;
                break;
            }
        mask = rest;
    }
    for (int k = 0; k < w; ++k) {
        const int group = ids[std::size_t(order[std::size_t(k)])];
        const int pos = m_state.positionOf(group);
        if (pos != first + k)
            reverse(first + k, pos);
    }
    return Proposal::Applied;
}

} // namespace convoffload::search

namespace convoffload::search {

namespace {

constexpr int kMaxLocalPixels = 384;
constexpr double kMaxPartitions = 20000; // ordered partitions tried by one re-partition
using LocalSet = std::bitset<kMaxLocalPixels>;

/// Ordered partitions of `patches` into `groups` non-empty groups of at most `cap`.
double orderedPartitions(int patches, int groups, int cap)
{
    // ways[k][m]: ways to fill k groups with m patches, the labels ordered.
    std::vector<std::vector<double>> ways(std::size_t(groups) + 1, std::vector<double>(std::size_t(patches) + 1, 0.0));
    ways[0][0] = 1;
    auto choose = [](int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; ++i)
            c = c * double(n - k + i) / double(i);
        return c;
    };
    for (int k = 1; k <= groups; ++k)
        for (int m = 0; m <= patches; ++m)
            for (int s = 1; s <= std::min(cap, m); ++s)
                ways[std::size_t(k)][std::size_t(m)]
                    += ways[std::size_t(k - 1)][std::size_t(m - s)] * choose(patches - (m - s), s);
    return ways[std::size_t(groups)][std::size_t(patches)];
}

/// Depth-first search over the ordered partitions of a window, cheapest first found kept.
class WindowPartitioner {
public:
    WindowPartitioner(const std::vector<LocalSet> &patchSets, const LocalSet &before, const LocalSet &after, int groups, int cap,
        const std::function<bool(int, int)> &fits)
        : m_sets(patchSets)
        , m_before(before)
        , m_after(after)
        , m_groups(groups)
        , m_cap(cap)
        , m_fits(fits)
        , m_label(patchSets.size(), -1)
    {
    }

    int cost(const std::vector<int> &label) const
    {
        LocalSet previous = m_before;
        int total = 0;
        for (int k = 0; k < m_groups; ++k) {
            LocalSet u;
            for (std::size_t i = 0; i < m_sets.size(); ++i)
                if (label[i] == k)
                    u |= m_sets[i];
            total += int((u & ~previous).count());
            previous = u;
        }
        return total + int((m_after & ~previous).count());
    }

    /// The best labelling strictly cheaper than `bound`; empty when none is.
    std::vector<int> best(int bound)
    {
        m_bestCost = bound;
        m_best.clear();
        group(0, m_sets.size() >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << m_sets.size()) - 1, m_before, 0);
        return m_best;
    }

private:
    void group(int k, std::uint64_t remaining, const LocalSet &previous, int costSoFar)
    {
        const int left = std::popcount(remaining);
        const int groupsAfter = m_groups - k - 1;
        const int minSize = std::max(1, left - groupsAfter * m_cap), maxSize = std::min(m_cap, left - groupsAfter);
        for (int size = minSize; size <= maxSize; ++size)
            pick(k, remaining, remaining, size, LocalSet{}, 0, previous, costSoFar);
    }

    /// Chooses `size` more patches of group k among `candidates`, lowest index first.
    void pick(int k, std::uint64_t remaining, std::uint64_t candidates, int size, const LocalSet &u, int members,
        const LocalSet &previous, int costSoFar)
    {
        if (size == 0) {
            if (!m_fits(int(u.count()), members))
                return;
            const int cost = costSoFar + int((u & ~previous).count());
            if (cost >= m_bestCost)
                return;
            if (k + 1 == m_groups) {
                const int total = cost + int((m_after & ~u).count());
                if (total < m_bestCost) {
                    m_bestCost = total;
                    m_best = m_label;
                }
                return;
            }
            group(k + 1, remaining, u, cost);
            return;
        }
        while (candidates != 0 && std::popcount(candidates) >= size) {
            const int i = std::countr_zero(candidates);
            candidates &= candidates - 1;
            m_label[std::size_t(i)] = k;
            pick(k, remaining & ~(std::uint64_t(1) << i), candidates, size - 1, u | m_sets[std::size_t(i)], members + 1, previous,
                costSoFar);
            m_label[std::size_t(i)] = -1;
        }
    }

    const std::vector<LocalSet> &m_sets;
    const LocalSet &m_before, &m_after;
    const int m_groups, m_cap;
    const std::function<bool(int, int)> &m_fits;
    std::vector<int> m_label;
    std::vector<int> m_best;
    int m_bestCost = 0;
};

} // namespace

Annealer::Proposal Annealer::repartitionWindow()
{
    const int n = int(m_state.groupCount());
    if (n < 2)
        return Proposal::None;
    // The widest window (4 groups down to 2) whose partitions are few enough.
    const int first = m_random.below(n - 1);
    int w = std::min(4, n - first);
    auto windowPatches = [&](int width) {
        int count = 0;
        for (int k = 0; k < width; ++k)
            count += m_state.groupSize(m_state.groupAt(first + k));
        return count;
    };
    while (w >= 2 && (windowPatches(w) > 64 || orderedPartitions(windowPatches(w), w, int(m_in.group_size)) > kMaxPartitions))
        --w;
    if (w < 2)
        return Proposal::None;

    std::vector<PatchId> &patches = m_scratchPatches;
    patches.clear();
    std::vector<int> current;
    for (int k = 0; k < w; ++k)
        for (PatchId p : m_state.members(m_state.groupAt(first + k))) {
            patches.push_back(p);
            current.push_back(k);
        }

    // Local pixel numbers for the window's pixels: only they can change cost.
    if (m_localPixel.empty())
        m_localPixel.assign(std::size_t(m_in.pixels), -1);
    std::vector<PixelId> local;
    for (PatchId p : patches)
        for (PixelId px : m_in.patch_pixels[p])
            if (m_localPixel[px] < 0) {
                m_localPixel[px] = int(local.size());
                local.push_back(px);
            }
    const bool fitsLocal = local.size() <= std::size_t(kMaxLocalPixels);
    std::vector<LocalSet> sets(patches.size());
    LocalSet before, after;
    if (fitsLocal) {
        for (std::size_t i = 0; i < patches.size(); ++i)
            for (PixelId px : m_in.patch_pixels[patches[i]])
                sets[i].set(std::size_t(m_localPixel[px]));
        const int g0 = groupAtOrNone(first - 1), g1 = groupAtOrNone(first + w);
        for (PixelId px : local) {
            if (g0 >= 0 && m_state.holdsPixel(g0, px))
                before.set(std::size_t(m_localPixel[px]));
            if (g1 >= 0 && m_state.holdsPixel(g1, px))
                after.set(std::size_t(m_localPixel[px]));
        }
    }
    for (PixelId px : local)
        m_localPixel[px] = -1;
    if (!fitsLocal)
        return Proposal::None;

    const std::function<bool(int, int)> fits = [this](int pixels, int members) { return m_in.fitsMemory(pixels, members); };
    WindowPartitioner partitioner(sets, before, after, w, int(m_in.group_size), fits);
    const std::vector<int> best = partitioner.best(partitioner.cost(current));
    if (best.empty())
        return Proposal::None; // the window is already partitioned at least as well

    std::vector<int> ids(static_cast<std::size_t>(w));
    for (int k = 0; k < w; ++k)
        ids[std::size_t(k)] = m_state.groupAt(first + k);
    for (std::size_t i = 0; i < patches.size(); ++i)
        if (best[i] != current[i])
            move(patches[i], ids[std::size_t(best[i])]);
    return Proposal::Applied;
}

} // namespace convoffload::search
