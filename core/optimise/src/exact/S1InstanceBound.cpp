// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/S1InstanceBound.h"

#include "PartitionDp.h"

#include <algorithm>
#include <string>
#include <vector>

namespace convoffload {

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
    if (in.patches > 64 || in.needed_pixels.size() > 256 || in.patches == 0)
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
#if defined(__x86_64__)
    if (__builtin_cpu_supports("popcnt"))
        return partitionBoundPopcnt(in, limits);
#endif
    return runPartitionDp(in, limits);
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
