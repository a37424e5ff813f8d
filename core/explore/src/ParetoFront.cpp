// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/explore/ParetoFront.h"

#include <algorithm>
#include <numeric>

namespace convoffload {

std::vector<std::size_t> paretoFront(const std::vector<ParetoCandidate> &points)
{
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    // By memory, then duration, then index: a sweep keeps every point
    // shorter than all those with less (or equal) memory before it.
    std::stable_sort(order.begin(), order.end(), [&points](std::size_t a, std::size_t b) {
        if (points[a].memory != points[b].memory)
            return points[a].memory < points[b].memory;
        return points[a].duration < points[b].duration;
    });
    std::vector<std::size_t> front;
    for (const std::size_t i : order) {
        if (!points[i].valid)
            continue;
        if (front.empty() || points[i].duration < points[front.back()].duration)
            front.push_back(i);
    }
    return front;
}

} // namespace convoffload
