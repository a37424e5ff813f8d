// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A depth-first search for an S1 strategy that loads every needed pixel
// exactly once, in K_min groups. Such a strategy meets the pixel bound
// (every needed pixel once + K_min computes), so when it exists it is optimal
// and proven so. The annealing rarely finds one: it lies in a narrow basin
// (an irregular wavefront, groups of uneven shape), far from every seed.
//
// The search places groups one at a time. A pixel is loaded once only if it
// stays on chip from the first group that needs it to the last, so every
// "open" pixel (needed by a placed patch and by one still to place) must be
// in the next group's union: each group is first grown to cover the open
// pixels (the least covered pixel first), then filled with patches next to
// it up to the size the K_min groups require. Whether the rest can be
// finished depends only on the patches placed (the open pixels follow from
// them), so the sets that failed are remembered and never searched again.
// A group whose open pixels need more than G patches (pixels too far apart
// to share a window) is cut at once.
//
// It is a heuristic search (fills are tried best first and a few per
// group), bounded by a number of nodes: the same instance and budget give
// the same result on every machine. Layers of more than 256 patches are not
// tried. Private to the core.
#include "convoffload/optimise/S1Instance.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

namespace convoffload {

struct LoadOnceLimits {
    std::int64_t max_nodes = 4'000'000; // over all sweeps: about 1.5 s on one core
    const std::atomic<bool> *stop = nullptr;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::function<void()> tick; // called now and then, on the calling thread (progress reports)
};

struct LoadOnceOutcome {
    std::optional<Groups> groups; // K_min groups, every needed pixel loaded once
    std::int64_t nodes = 0;
};

LoadOnceOutcome findLoadOnceStrategy(const S1Instance &instance, const LoadOnceLimits &limits = {});

} // namespace convoffload
