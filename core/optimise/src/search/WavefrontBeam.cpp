// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "WavefrontBeam.h"

#include "Wavefront.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <vector>

namespace convoffload {

namespace {

// Above, the beam is not tried. On LeNet-5 conv1 (784 patches, 5×5 kernels,
// memory for about a third of a row sweep's front, reload bound 2) every beam
// of 64 died within its first 16 of 98 groups after 12 s: pixels loaded twice
// may not be freed, and the front they form outgrows what a group can hold.
// The paper's grid has at most 100 patches (a beam of 1024 takes ~1 s there).
constexpr std::int64_t kMostPatches = 256;
constexpr int kFills = 3; // patches tried at each step of a group's fill, best first
constexpr int kExpansionsBetweenChecks = 64; // of the stop flag and the deadline
// Groups tried per expansion: where the reload bound forbids freeing the open
// pixels a full group cannot hold, no way to grow it may be gathered, and the
// tries would otherwise grow exponentially with the open pixels. On the
// paper's grid an expansion takes about 70 tries, and never reached 4096.
constexpr std::int64_t kTriesPerExpansion = 1024;

std::uint64_t mix(std::uint64_t x) // splitmix64's finaliser: a fixed hash, so runs repeat
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// A strategy's first groups: what the next steps need of them.
struct BeamState {
    std::vector<char> done; // per patch
    std::vector<std::uint8_t> loads; // per pixel, so far
    std::vector<PixelId> last; // the last group's union: on chip
    std::uint64_t doneHash = 0;
    std::int64_t reloads = 0;
    std::int64_t remaining = 0;
    std::int32_t trail = -1; // the last group in the trail
};

/// The groups placed, shared by the states that descend from them.
struct TrailEntry {
    std::int32_t parent;
    Group group;
};

/// A way to grow the next group of a state.
struct Child {
    std::int64_t reloads = 0; // so far, this group's included
    std::int64_t ahead = 0; // reloads the next group cannot avoid
    std::int64_t open = 0; // pixels left open
    std::int64_t rank = 0; // the sum of its patches' ranks
    std::uint64_t key = 0; // placed patches and pixels on chip
    std::size_t parent = 0;
    Group group;

    bool operator<(const Child &o) const
    {
        if (reloads + ahead != o.reloads + o.ahead)
            return reloads + ahead < o.reloads + o.ahead;
        if (open != o.open)
            return open < o.open;
        if (rank != o.rank)
            return rank < o.rank;
        return key < o.key;
    }
};

class Beam {
public:
    Beam(const S1Instance &in, const std::vector<std::vector<PatchId>> &pixelPatches, const std::vector<std::int64_t> &rank,
        const WavefrontBeamLimits &limits, bool onCallingThread)
        : m_in(in)
        , m_pixelPatches(pixelPatches)
        , m_rank(rank)
        , m_limits(limits)
        , m_need(std::size_t(in.pixels), 0)
        , m_cover(std::size_t(in.pixels), 0)
        , m_inGroup(std::size_t(in.patches), 0)
        , m_dropped(std::size_t(in.pixels), 0)
        , m_onChip(std::size_t(in.pixels), 0)
        , m_mark(std::size_t(in.pixels), 0)
        , m_onCallingThread(onCallingThread)
    {
    }

    std::optional<Groups> run()
    {
        std::vector<BeamState> states(1);
        states[0].done.assign(std::size_t(m_in.patches), 0);
        states[0].loads.assign(std::size_t(m_in.pixels), 0);
        states[0].remaining = m_in.patches;
        for (std::int64_t level = 0; level < m_in.min_groups; ++level) {
            std::vector<Child> children;
            for (std::size_t i = 0; i < states.size(); ++i) {
                if (states[i].remaining == 0)
                    continue;
                if (i % kExpansionsBetweenChecks == 0) {
                    if (m_onCallingThread && m_limits.tick)
                        m_limits.tick();
                    if (stopped())
                        return std::nullopt;
                }
                expand(states[i], i, level, children);
            }
            std::vector<BeamState> next = keepBest(states, children);
            if (next.empty())
                return std::nullopt;
            states = std::move(next);
        }
        const BeamState *best = nullptr;
        for (const BeamState &s : states)
            if (s.remaining == 0 && (!best || s.reloads < best->reloads))
                best = &s;
        if (!best)
            return std::nullopt;
        Groups groups;
        for (std::int32_t t = best->trail; t >= 0; t = m_trail[std::size_t(t)].parent)
            groups.push_back(m_trail[std::size_t(t)].group);
        std::reverse(groups.begin(), groups.end());
        return groups;
    }

private:
    bool stopped() const
    {
        return (m_limits.stop && m_limits.stop->load(std::memory_order_relaxed))
            || (m_limits.deadline && std::chrono::steady_clock::now() > *m_limits.deadline);
    }

    /// The `width` best children, one per key, as states.
    std::vector<BeamState> keepBest(const std::vector<BeamState> &states, std::vector<Child> &children)
    {
        std::sort(children.begin(), children.end());
        std::unordered_set<std::uint64_t> seen;
        std::vector<BeamState> next;
        for (Child &c : children) {
            if (std::int64_t(next.size()) >= m_limits.width)
                break;
            if (!seen.insert(c.key).second)
                continue;
            const BeamState &parent = states[c.parent];
            BeamState s;
            s.done = parent.done;
            s.loads = parent.loads;
            s.doneHash = parent.doneHash;
            s.reloads = c.reloads;
            s.remaining = parent.remaining - std::int64_t(c.group.size());
            for (const PixelId px : parent.last)
                m_onChip[px] = 1;
            for (const PatchId q : c.group) {
                s.done[q] = 1;
                s.doneHash ^= mix(q);
                for (const PixelId px : m_in.patch_pixels[q])
                    if (!m_mark[px]) {
                        m_mark[px] = 1;
                        s.last.push_back(px);
                        if (!m_onChip[px] && s.loads[px] < 255)
                            ++s.loads[px];
                    }
            }
            for (const PixelId px : s.last)
                m_mark[px] = 0;
            for (const PixelId px : parent.last)
                m_onChip[px] = 0;
            m_trail.push_back({parent.trail, std::move(c.group)});
            s.trail = std::int32_t(m_trail.size() - 1);
            next.push_back(std::move(s));
        }
        return next;
    }

    struct Gather {
        const BeamState &state;
        std::size_t index;
        std::int64_t minSize;
        const std::vector<PixelId> &open;
        std::vector<Child> &children;
        std::size_t first; // this state's first child in `children`
        std::int64_t drops = 0;
        std::int64_t tries = 0;
        bool full() const { return children.size() - first >= std::size_t(limit); }
        int limit;
    };

    void expand(const BeamState &s, std::size_t index, std::int64_t level, std::vector<Child> &children)
    {
        m_done = &s.done;
        std::fill(m_need.begin(), m_need.end(), 0);
        for (PatchId q = 0; q < PatchId(m_in.patches); ++q)
            if (!s.done[q])
                for (const PixelId px : m_in.patch_pixels[q])
                    ++m_need[px];
        std::vector<PixelId> open;
        for (const PixelId px : s.last) {
            m_onChip[px] = 1;
            if (m_need[px] > 0)
                open.push_back(px);
        }
        const std::int64_t groupsAfter = m_in.min_groups - level - 1;
        const std::int64_t minSize = std::max<std::int64_t>(1, s.remaining - groupsAfter * m_in.group_size);
        Gather gather{s, index, minSize, open, children, children.size(), 0, 0, m_limits.children};
        m_group.clear();
        m_union = 0;
        grow(gather);
        for (const PixelId px : s.last)
            m_onChip[px] = 0;
    }

    void grow(Gather &g)
    {
        if (g.full() || ++g.tries > kTriesPerExpansion)
            return;
        // The open pixel with the fewest patches left to hold it.
        std::optional<PixelId> tightest;
        int fewest = std::numeric_limits<int>::max();
        m_mustKeep.clear();
        for (const PixelId px : g.open) {
            if (m_cover[px] > 0 || m_dropped[px])
                continue;
            if (g.state.loads[px] >= m_in.max_loads_per_pixel)
                m_mustKeep.push_back(px);
            int choices = 0;
            for (const PatchId q : m_pixelPatches[px])
                choices += !(*m_done)[q] && !m_inGroup[q];
            if (choices < fewest) {
                fewest = choices;
                tightest = px;
            }
        }
        // Pixels the reload bound forbids freeing, too far apart for the
        // room left: no way on from here.
        const std::int64_t room = m_in.group_size - std::int64_t(m_group.size());
        if (!m_mustKeep.empty() && wavefront::windowsNeeded(m_in.layer, m_mustKeep, room) > room)
            return;
        if (tightest) {
            const PixelId px = *tightest;
            if (std::int64_t(m_group.size()) < m_in.group_size) {
                std::vector<PatchId> choices;
                for (const PatchId q : m_pixelPatches[px])
                    if (!(*m_done)[q] && !m_inGroup[q])
                        choices.push_back(q);
                wavefront::sortByPreference(m_in, growing(), choices);
                for (const PatchId q : choices)
                    growWith(g, q);
            }
            // Or free it: it is loaded again later, if the reload bound allows.
            if (g.state.loads[px] < m_in.max_loads_per_pixel) {
                m_dropped[px] = 1;
                ++g.drops;
                grow(g);
                --g.drops;
                m_dropped[px] = 0;
            }
            return;
        }
        if (std::int64_t(m_group.size()) >= g.minSize)
            offer(g);
        if (std::int64_t(m_group.size()) >= m_in.group_size)
            return;
        std::vector<PatchId> fills = wavefront::fillCandidates(m_in, growing(), m_group);
        wavefront::sortByPreference(m_in, growing(), fills);
        if (fills.size() > std::size_t(kFills))
            fills.resize(std::size_t(kFills));
        for (const PatchId q : fills)
            growWith(g, q);
    }

    void growWith(Gather &g, PatchId q)
    {
        m_group.push_back(q);
        m_inGroup[q] = 1;
        for (const PixelId px : m_in.patch_pixels[q])
            m_union += m_cover[px]++ == 0;
        if (m_in.fitsMemory(m_union, std::int64_t(m_group.size())))
            grow(g);
        for (const PixelId px : m_in.patch_pixels[q])
            m_union -= --m_cover[px] == 0;
        m_inGroup[q] = 0;
        m_group.pop_back();
    }

    wavefront::GrowingGroup growing() const { return {m_pixelPatches, m_rank, *m_done, m_inGroup, m_cover}; }

    /// Gathers the group as it is.
    void offer(Gather &g)
    {
        Child child;
        std::vector<PixelId> open, pixels;
        std::uint64_t chipHash = 0;
        bool withinBound = true;
        for (const PatchId q : m_group) {
            child.rank += m_rank[q];
            child.key ^= mix(q);
            for (const PixelId px : m_in.patch_pixels[q])
                if (!m_mark[px]) {
                    m_mark[px] = 1;
                    pixels.push_back(px);
                    chipHash ^= mix(std::uint64_t(px) << 32);
                    if (m_need[px] > m_cover[px]) // a patch outside the group needs it
                        open.push_back(px);
                    if (!m_onChip[px] && g.state.loads[px] >= m_in.max_loads_per_pixel)
                        withinBound = false;
                }
        }
        for (const PixelId px : pixels)
            m_mark[px] = 0;
        if (!withinBound)
            return;
        child.reloads = g.state.reloads + g.drops;
        child.ahead
            = std::max<std::int64_t>(0, wavefront::windowsNeeded(m_in.layer, open, std::int64_t(open.size())) - m_in.group_size);
        child.open = std::int64_t(open.size());
        child.key ^= g.state.doneHash ^ mix(chipHash);
        child.parent = g.index;
        child.group = m_group;
        g.children.push_back(std::move(child));
    }

    const S1Instance &m_in;
    const std::vector<std::vector<PatchId>> &m_pixelPatches;
    const std::vector<std::int64_t> &m_rank;
    const WavefrontBeamLimits &m_limits;
    // The expansion of one state.
    const std::vector<char> *m_done = nullptr;
    std::vector<int> m_need; // patches left that need each pixel (the group's included)
    std::vector<int> m_cover; // patches of the group that hold each pixel
    std::vector<char> m_inGroup, m_dropped, m_onChip, m_mark;
    std::vector<PatchId> m_group;
    std::vector<PixelId> m_mustKeep; // open, held by no patch of the group, not to be freed
    std::int64_t m_union = 0;
    std::vector<TrailEntry> m_trail;
    const bool m_onCallingThread;
};

} // namespace

std::optional<Groups> wavefrontBeam(const S1Instance &in, const WavefrontBeamLimits &limits)
{
    if (in.patches == 0 || in.patches > kMostPatches || std::int64_t(in.patch_pixels.size()) != in.patches || limits.width < 1
        || limits.children < 1)
        return std::nullopt;
    const std::vector<std::vector<PatchId>> pixelPatches = wavefront::patchesOfEachPixel(in);
    const std::vector<std::vector<std::int64_t>> ranks = wavefront::sweepRanks(in);
    // The sweeps are independent: each thread takes the next one; the best
    // is chosen in sweep order, so the result does not depend on the threads.
    std::vector<std::optional<Groups>> found(ranks.size());
    std::atomic<std::size_t> nextSweep{0};
    // What a sweep throws (std::bad_alloc) is thrown here once every thread
    // has ended: on a helper thread it would end the process.
    std::mutex failureMutex;
    std::exception_ptr failure;
    auto work = [&](bool onCallingThread) {
        try {
            for (std::size_t i = nextSweep++; i < ranks.size(); i = nextSweep++)
                found[i] = Beam(in, pixelPatches, ranks[i], limits, onCallingThread).run();
        } catch (...) {
            nextSweep = ranks.size(); // the others take no new sweep
            const std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
        }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < std::min<int>(limits.threads, int(ranks.size())); ++t) {
        try {
            helpers.emplace_back(work, false);
        } catch (const std::system_error &) { // no more threads: this one does the rest
            break;
        } catch (const std::bad_alloc &) {
            break;
        }
    }
    work(true);
    for (std::thread &h : helpers)
        h.join();
    if (failure)
        std::rethrow_exception(failure);
    std::optional<Groups> best;
    double bestDuration = std::numeric_limits<double>::infinity();
    for (std::optional<Groups> &groups : found) {
        if (!groups)
            continue;
        const S1Evaluation ev = evaluate(in, *groups);
        if (ev.feasible && ev.duration < bestDuration) {
            bestDuration = ev.duration;
            best = std::move(groups);
        }
    }
    return best;
}

} // namespace convoffload
