// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the load-once search and the wavefront beam share: which patches need
// each pixel, the sweeps' orders of preference among the patches, a lower
// bound on the windows that can hold a set of pixels, and how a group grows. Private to the
// core.
#include "convoffload/model/Ids.h"
#include "convoffload/optimise/S1Instance.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace convoffload::wavefront {

/// For each pixel id, the patches that need it (in patch order).
inline std::vector<std::vector<PatchId>> patchesOfEachPixel(const S1Instance &in)
{
    std::vector<std::vector<PatchId>> out(std::size_t(in.pixels));
    for (PatchId p = 0; p < PatchId(in.patch_pixels.size()); ++p)
        for (const PixelId px : in.patch_pixels[p])
            out[px].push_back(p);
    return out;
}

/// The sweeps' orders of preference (least first): the wavefront grows from a
/// corner along the rows, the columns or a diagonal.
inline std::vector<std::vector<std::int64_t>> sweepRanks(const S1Instance &in)
{
    const Layer &layer = in.layer;
    const std::int64_t h = layer.hOut(), w = layer.wOut();
    using Key = std::function<std::int64_t(std::int64_t, std::int64_t)>;
    const std::array<Key, 4> keys = {
        Key([&](std::int64_t r, std::int64_t c) { return (r + c) * (h + w) + r; }),
        Key([&](std::int64_t r, std::int64_t c) { return (r + c) * (h + w) + c; }),
        Key([&](std::int64_t r, std::int64_t c) { return r * w + c; }),
        Key([&](std::int64_t r, std::int64_t c) { return c * h + r; }),
    };
    std::vector<std::vector<std::int64_t>> ranks;
    for (const Key &key : keys) {
        std::vector<std::int64_t> rank(std::size_t(in.patches));
        for (PatchId p = 0; p < PatchId(in.patches); ++p) {
            const Grid g = patchPosition(layer, p);
            rank[p] = key(g.row, g.col);
        }
        ranks.push_back(std::move(rank));
    }
    return ranks;
}

/// At least how many windows hold `pixels`: pixels pairwise too far apart to
/// lie in one window (a patch's span apart: h_k rows or w_k columns, more
/// when dilated) each need their own;
/// these are picked greedily, and the count stops once above `enough`.
inline std::int64_t windowsNeeded(const Layer &layer, const std::vector<PixelId> &pixels, std::int64_t enough)
{
    std::vector<Grid> apart;
    for (const PixelId px : pixels) {
        const Grid g = pixelPosition(layer, px);
        bool alone = true;
        for (const Grid &a : apart)
            if (std::abs(a.row - g.row) < layer.spanH() && std::abs(a.col - g.col) < layer.spanW()) {
                alone = false;
                break;
            }
        if (alone) {
            apart.push_back(g);
            if (std::int64_t(apart.size()) > enough)
                break;
        }
    }
    return std::int64_t(apart.size());
}

/// Where a group is grown: the patches placed and in the group (per patch),
/// the patches of the group holding each pixel, and the sweep's ranks.
struct GrowingGroup {
    const std::vector<std::vector<PatchId>> &pixelPatches;
    const std::vector<std::int64_t> &rank;
    const std::vector<char> &done;
    const std::vector<char> &inGroup;
    const std::vector<int> &cover;
};

/// Patches left sharing a pixel with `group`; with an empty group, the patch
/// left that the sweep prefers.
inline std::vector<PatchId> fillCandidates(const S1Instance &in, const GrowingGroup &at, const std::vector<PatchId> &group)
{
    std::vector<PatchId> out;
    if (group.empty()) {
        std::optional<PatchId> first;
        for (PatchId q = 0; q < PatchId(in.patches); ++q)
            if (!at.done[q] && (!first || at.rank[q] < at.rank[*first]))
                first = q;
        if (first)
            out.push_back(*first);
        return out;
    }
    for (const PatchId p : group)
        for (const PixelId px : in.patch_pixels[p])
            for (const PatchId q : at.pixelPatches[px])
                if (!at.done[q] && !at.inGroup[q] && std::find(out.begin(), out.end(), q) == out.end())
                    out.push_back(q);
    return out;
}

/// Fewest pixels new to the group's union first, then the sweep's order.
inline void sortByPreference(const S1Instance &in, const GrowingGroup &at, std::vector<PatchId> &patches)
{
    std::vector<std::pair<std::pair<int, std::int64_t>, PatchId>> keyed;
    keyed.reserve(patches.size());
    for (const PatchId q : patches) {
        int fresh = 0;
        for (const PixelId px : in.patch_pixels[q])
            fresh += at.cover[px] == 0;
        keyed.push_back({{fresh, at.rank[q]}, q});
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < patches.size(); ++i)
        patches[i] = keyed[i].second;
}

} // namespace convoffload::wavefront
