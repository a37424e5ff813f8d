// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/SegmentBound.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace convoffload {

namespace {

/// The fewest pixels m patches can touch (integer, so rounded up).
std::int64_t fewestPixels(std::int64_t m, std::int64_t ab)
{
    if (m <= 0)
        return 0;
    const double g = double(m) + 2.0 * std::sqrt(double(ab) * double(m)) + double(ab);
    return std::int64_t(std::ceil(g - 1e-9));
}

/// The least Σ fewestPixels(m_j) over k segments of 1 to `most` patches each,
/// summing to `patches`. fewestPixels is concave, so the least lies at a
/// vertex of that box cut by the sum: every segment but one at 1 or `most`.
/// With `full` segments at `most`, the free one has patches − (k − 1) −
/// full·(most − 1) patches, which lies in [1, most] for at most two values of
/// `full` (every value when most = 1, all giving the same sum): those are
/// tried, not all k (a hostile layer has millions of groups).
std::int64_t fewestPixelsInSegments(std::int64_t patches, std::int64_t k, std::int64_t most, std::int64_t ab)
{
    const std::int64_t rest = patches - (k - 1); // free + full·(most − 1)
    std::int64_t from = 0, to = k - 1;
    if (most > 1) {
        // free <= most  <=>  full >= (rest − most) / (most − 1), rounded up;
        // free >= 1     <=>  full <= (rest − 1) / (most − 1), rounded down.
        const std::int64_t step = most - 1;
        const std::int64_t low = rest - most;
        from = std::max(from, low <= 0 ? 0 : low / step + (low % step != 0 ? 1 : 0));
        to = rest - 1 < 0 ? -1 : std::min(to, (rest - 1) / step);
    } else {
        to = std::min<std::int64_t>(to, 0);
    }
    std::optional<std::int64_t> best;
    for (std::int64_t full = from; full <= to; ++full) {
        const std::int64_t free = rest - full * (most - 1);
        if (free < 1 || free > most)
            continue;
        const std::int64_t sum = full * fewestPixels(most, ab) + (k - 1 - full) * fewestPixels(1, ab) + fewestPixels(free, ab);
        best = best ? std::min(*best, sum) : sum;
    }
    return best.value_or(0);
}

__extension__ typedef __int128 Wide; // s·widest and s·N of a group size near 2^63

/// What a group of s patches can hold: s whole windows, and no more than the
/// memory leaves beside its s·N outputs and every kernel.
Wide groupUnionAt(const S1Instance &in, std::int64_t s, std::int64_t widest)
{
    const Wide room = (Wide(in.mem_size) - in.fixed_elements - Wide(s) * in.elements_per_patch) / in.elements_per_pixel;
    return std::min(Wide(s) * widest, room);
}

} // namespace

std::int64_t largestGroupUnion(const S1Instance &in)
{
    std::int64_t widest = 0;
    for (const auto &pixels : in.patch_pixels)
        widest = std::max(widest, std::int64_t(pixels.size()));
    // A group of s patches holds at most s whole windows, and what the memory
    // leaves beside its s·N outputs and every kernel. With exactly K_min groups
    // no group is smaller than what the other K_min − 1 full ones leave, so the
    // sizes below that (more room for pixels) never occur.
    const std::int64_t fewest = in.group_count == GroupCount::ExactlyKMin
        ? std::max<std::int64_t>(1, in.patches - (in.min_groups - 1) * in.group_size)
        : 1;
    // s·widest grows with s and the room shrinks, so their minimum peaks
    // where they cross: at the largest s with s·widest <= room(s), that is
    // s·(widest·C_in + N) <= mem_size − kernels, or at the next size. Those
    // and the ends are tried instead of every size up to G (G can be near
    // 2^62 when nbop_pe is huge: that loop ran for hours).
    std::vector<std::int64_t> sizes{fewest, in.group_size};
    const Wide free = Wide(in.mem_size) - in.fixed_elements;
    if (free >= 0) {
        const Wide crossing = free / (Wide(widest) * in.elements_per_pixel + in.elements_per_patch);
        for (const Wide s : {crossing, crossing + 1})
            if (s > fewest && s < in.group_size)
                sizes.push_back(std::int64_t(s));
    }
    Wide most = 0;
    for (const std::int64_t s : sizes)
        if (s >= fewest && s <= in.group_size)
            most = std::max(most, groupUnionAt(in, s, widest));
    return std::int64_t(std::min(most, Wide(in.needed_pixels.size())));
}

std::optional<std::int64_t> segmentLoadBound(const S1Instance &in)
{
    const Layer &layer = in.layer;
    // The widening argument is about whole, undilated windows of stride 1.
    if (in.group_count != GroupCount::ExactlyKMin || layer.stride_h != 1 || layer.stride_w != 1 || layer.isDilated()
        || in.patches == 0)
        return std::nullopt;
    const std::int64_t window = std::int64_t(layer.h_k) * layer.w_k;
    for (const auto &pixels : in.patch_pixels)
        if (std::int64_t(pixels.size()) != window)
            return std::nullopt; // padding kept on chip cuts windows: the widening argument needs whole ones
    const std::int64_t ab = std::int64_t(layer.h_k - 1) * (layer.w_k - 1);
    const std::int64_t held = largestGroupUnion(in);
    const std::int64_t n = in.min_groups;
    std::int64_t best = 0;
    for (std::int64_t steps = 1; steps <= n; ++steps) {
        const std::int64_t k = (n + steps - 1) / steps;
        const std::int64_t most = std::min(in.patches, steps * in.group_size);
        best = std::max(best, fewestPixelsInSegments(in.patches, k, most, ab) - (k - 1) * held);
    }
    return best;
}

} // namespace convoffload
