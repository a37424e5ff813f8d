// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "LoadOnceProof.h"

#include "PatchMask.h"
#include "PatchSymmetries.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

namespace convoffload {

namespace {

constexpr std::int64_t kMostPatches = 128;
constexpr std::int64_t kMostPixels = 256;
constexpr std::int64_t kNodesBetweenChecks = 4096; // of the stop flag and the deadline
constexpr std::size_t kMostRemembered = 8'000'000; // failed sets; past it the search forgets (slower, still sound)

struct MaskHash {
    template <class Mask> std::size_t operator()(Mask m) const { return std::hash<std::uint64_t>{}(maskWord(m)); }
};

struct Pixels { // needed pixels, by their index in needed_pixels
    std::array<std::uint64_t, kMostPixels / 64> words{};

    Pixels &operator|=(const Pixels &o)
    {
        for (std::size_t i = 0; i < words.size(); ++i)
            words[i] |= o.words[i];
        return *this;
    }
    Pixels without(const Pixels &o) const
    {
        Pixels out = *this;
        for (std::size_t i = 0; i < words.size(); ++i)
            out.words[i] &= ~o.words[i];
        return out;
    }
    bool empty() const
    {
        return std::all_of(words.begin(), words.end(), [](std::uint64_t w) { return w == 0; });
    }
    int count() const
    {
        int n = 0;
        for (const std::uint64_t w : words)
            n += bitCount(w);
        return n;
    }
    void set(std::size_t i) { words[i / 64] |= std::uint64_t(1) << (i % 64); }
    template <typename F> void forEach(F f) const
    {
        for (std::size_t i = 0; i < words.size(); ++i)
            for (std::uint64_t w = words[i]; w; w &= w - 1)
                f(i * 64 + std::size_t(lowestBit(w)));
    }
};

template <class Mask> class Search {
    static constexpr int kBits = int(sizeof(Mask) * 8);

public:
    Search(const S1Instance &in, const LoadOnceProofLimits &limits)
        : m_in(in)
        , m_limits(limits)
        , m_all(in.patches == kBits ? ~Mask(0) : (Mask(1) << in.patches) - 1)
        , m_patchPixels(std::size_t(in.patches))
        , m_pixelPatches(in.needed_pixels.size(), 0)
        , m_symmetries(patchSymmetries(in))
    {
        for (PatchId p = 0; p < PatchId(in.patches); ++p)
            for (const PixelId px : in.patch_pixels[p]) {
                const auto it = std::lower_bound(in.needed_pixels.begin(), in.needed_pixels.end(), px);
                const std::size_t i = std::size_t(it - in.needed_pixels.begin());
                m_patchPixels[p].set(i);
                m_pixelPatches[i] |= Mask(1) << p;
            }
    }

    LoadOnceProof run()
    {
        LoadOnceProof out;
        const bool found = place(0, 0);
        out.nodes = m_nodes;
        if (found) {
            out.status = LoadOnceProofStatus::Exists;
            Groups groups;
            for (auto it = m_path.rbegin(); it != m_path.rend(); ++it)
                groups.push_back(patchesOf(*it));
            out.groups = std::move(groups);
        } else if (m_out) {
            out.why = m_why;
        } else {
            out.status = LoadOnceProofStatus::None;
        }
        return out;
    }

private:
    /// Pixels needed both by a patch of `done` and by one outside it.
    Pixels open(Mask done) const
    {
        Pixels out;
        for (std::size_t i = 0; i < m_pixelPatches.size(); ++i)
            if ((m_pixelPatches[i] & done) && (m_pixelPatches[i] & m_all & ~done))
                out.set(i);
        return out;
    }

    /// At least how many patches of `available` hold `pixels`: pixels no
    /// patch of it holds together each need their own (greedy packing);
    /// above `enough`, any count above it. A pixel none holds: above.
    int patchesNeeded(const Pixels &pixels, Mask available, int enough) const
    {
        Mask used = 0;
        int count = 0;
        bool impossible = false;
        pixels.forEach([&](std::size_t i) {
            if (impossible || count > enough)
                return;
            const Mask holders = m_pixelPatches[i] & available;
            if (!holders)
                impossible = true;
            else if (!(holders & used)) {
                used |= holders;
                ++count;
            }
        });
        return impossible ? enough + 1 : count;
    }

    bool outOfLimits()
    {
        if (m_out)
            return true;
        if (++m_nodes % kNodesBetweenChecks == 0) {
            if (m_limits.tick)
                m_limits.tick();
            if (m_limits.stop && m_limits.stop->load(std::memory_order_relaxed))
                m_why = "cancelled";
            else if (m_limits.deadline && std::chrono::steady_clock::now() > *m_limits.deadline)
                m_why = "time limit reached";
        }
        if (m_nodes > m_limits.max_nodes)
            m_why = "node budget spent";
        m_out = !m_why.empty();
        return m_out;
    }

    /// Whether the patches outside `done` can be placed in the groups left
    /// (`level` groups placed), every pixel loaded once.
    bool place(Mask done, std::int64_t level)
    {
        if (done == m_all)
            return true;
        const std::int64_t left = m_in.min_groups - level;
        const std::int64_t remaining = bitCount(m_all & ~done);
        if (left <= 0 || remaining > left * m_in.group_size)
            return false;
        if (const auto it = m_failed.find(done); it != m_failed.end() && it->second <= level)
            return false;
        Step step{done, level, std::max<std::int64_t>(1, remaining - (left - 1) * m_in.group_size), false};
        const Pixels openPixels = open(done);
        cover(step, 0, 0, openPixels, Pixels{});
        if (step.found)
            return true;
        if (!m_out && m_failed.size() < kMostRemembered) {
            auto [it, inserted] = m_failed.try_emplace(done, level);
            if (!inserted)
                it->second = std::min(it->second, level);
        }
        return false;
    }

    struct Step {
        Mask done;
        std::int64_t level;
        std::int64_t minSize;
        bool found;
    };

    /// Grows `group` until it holds every pixel of `uncovered`.
    void cover(Step &step, Mask group, Mask excluded, const Pixels &uncovered, const Pixels &groupPixels)
    {
        if (outOfLimits())
            return;
        if (uncovered.empty()) {
            fill(step, group, excluded, 0, groupPixels);
            return;
        }
        const int room = int(m_in.group_size) - bitCount(group);
        const Mask available = m_all & ~step.done & ~group & ~excluded;
        if (room <= 0 || patchesNeeded(uncovered, available, room) > room)
            return;
        // The pixel with the fewest patches to hold it; the group takes one
        // of them, the earlier ones excluded so each set comes once.
        std::size_t tightest = 0;
        int fewest = kBits + 1;
        uncovered.forEach([&](std::size_t i) {
            const int choices = bitCount(m_pixelPatches[i] & available);
            if (choices < fewest) {
                fewest = choices;
                tightest = i;
            }
        });
        for (Mask choices = m_pixelPatches[tightest] & available; choices && !step.found && !m_out; choices &= choices - 1) {
            const Mask q = choices & -choices;
            const PatchId p = PatchId(lowestBit(q));
            Pixels pixels = groupPixels;
            pixels |= m_patchPixels[p];
            if (m_in.fitsMemory(pixels.count(), bitCount(group) + 1))
                cover(step, group | q, excluded, uncovered.without(m_patchPixels[p]), pixels);
            excluded |= q;
        }
    }

    /// Every set of further patches (index `from` on) the group may take.
    void fill(Step &step, Mask group, Mask excluded, int from, const Pixels &groupPixels)
    {
        if (outOfLimits())
            return;
        if (bitCount(group) >= step.minSize)
            tryGroup(step, group);
        if (step.found || m_out || bitCount(group) >= m_in.group_size)
            return;
        const Mask available = m_all & ~step.done & ~group & ~excluded & (from >= kBits ? Mask(0) : ~Mask(0) << from);
        for (Mask choices = available; choices && !step.found && !m_out; choices &= choices - 1) {
            const PatchId p = PatchId(lowestBit(choices));
            Pixels pixels = groupPixels;
            pixels |= m_patchPixels[p];
            if (m_in.fitsMemory(pixels.count(), bitCount(group) + 1))
                fill(step, group | (Mask(1) << p), excluded, int(p) + 1, pixels);
        }
    }

    void tryGroup(Step &step, Mask group)
    {
        if (step.level == 0)
            for (const std::vector<PatchId> &sigma : m_symmetries)
                if (mapPatchMask(sigma, group) < group)
                    return; // an image of this first group comes first
        const Mask done = step.done | group;
        if (done != m_all) {
            // The next group must hold every pixel left open.
            const int g = int(m_in.group_size);
            if (patchesNeeded(open(done), m_all & ~done, g) > g)
                return;
        }
        if (place(done, step.level + 1)) {
            m_path.push_back(group);
            step.found = true;
        }
    }

    const S1Instance &m_in;
    const LoadOnceProofLimits &m_limits;
    const Mask m_all;
    std::vector<Pixels> m_patchPixels;
    std::vector<Mask> m_pixelPatches;
    const std::vector<std::vector<PatchId>> m_symmetries;
    std::unordered_map<Mask, std::int64_t, MaskHash> m_failed; // placed patches → fewest groups they failed with
    std::vector<Mask> m_path; // the groups found, last first
    std::int64_t m_nodes = 0;
    bool m_out = false;
    std::string m_why;
};

} // namespace

bool loadOnceProofFits(const S1Instance &in)
{
    return in.patches >= 1 && in.patches <= kMostPatches && std::int64_t(in.needed_pixels.size()) <= kMostPixels
        && std::int64_t(in.patch_pixels.size()) == in.patches;
}

LoadOnceProof proveLoadOnce(const S1Instance &in, const LoadOnceProofLimits &limits)
{
    if (!loadOnceProofFits(in)) {
        LoadOnceProof out;
        out.why = "over 128 patches or 256 needed pixels";
        return out;
    }
    if (in.patches <= 64 && !limits.wide_sets)
        return Search<std::uint64_t>(in, limits).run();
    return Search<Mask128>(in, limits).run();
}

double boundWithoutLoadOnce(const S1Instance &in)
{
    const double extra
        = in.max_groups > in.min_groups ? std::min(in.cost_per_pixel_load, in.cost_per_group) : in.cost_per_pixel_load;
    return in.duration(std::int64_t(in.needed_pixels.size()), in.min_groups) + extra;
}

} // namespace convoffload
