// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/SegmentBound.h"

#include <algorithm>
#include <cmath>

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
std::int64_t fewestPixelsInSegments(std::int64_t patches, std::int64_t k, std::int64_t most, std::int64_t ab)
{
    std::optional<std::int64_t> best;
    for (std::int64_t full = 0; full < k; ++full) {
        const std::int64_t free = patches - full * most - (k - 1 - full);
        if (free < 1 || free > most)
            continue;
        const std::int64_t sum = full * fewestPixels(most, ab) + (k - 1 - full) * fewestPixels(1, ab) + fewestPixels(free, ab);
        best = best ? std::min(*best, sum) : sum;
    }
    return best.value_or(0);
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
    std::int64_t most = 0;
    for (std::int64_t s = fewest; s <= in.group_size; ++s) {
        const std::int64_t room = (in.mem_size - in.fixed_elements - s * in.elements_per_patch) / in.elements_per_pixel;
        most = std::max(most, std::min(s * widest, room));
    }
    return std::min(most, std::int64_t(in.needed_pixels.size()));
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
