// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A beam search that builds an S1 strategy one group at a time, as a
// wavefront: each group first holds the "open" pixels (loaded for a placed
// patch and needed by one still to place), so they stay on chip, and only
// when it has no room left does it free some, each to be loaded again later
// (a reload). Of every way to grow the next group from every state kept, the
// `width` with the fewest reloads so far (then the fewest open pixels, then
// the sweep's order) are kept.
//
// It generalises the load-once search (LoadOnceSearch.h) to instances where
// some reloads cannot be avoided, and gives the annealing a seed shaped like
// the strategies it finds hard to reach (uneven groups along a front). The
// reload bound is kept: a pixel is freed while needed only if it may still be
// loaded again. Deterministic for a given instance and width. Private to the
// core.
#include "convoffload/optimise/S1Instance.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

namespace convoffload {

struct WavefrontBeamLimits {
    int width = 64; // states kept per step
    int children = 24; // ways to grow a group gathered per state
    int threads = 1; // sweeps run at once
    const std::atomic<bool> *stop = nullptr;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::function<void()> tick; // called now and then, on the calling thread only (progress reports)
};

/// The best strategy over the beam's sweeps (wavefronts from a corner along
/// the rows, the columns and the diagonals), in K_min groups; nullopt when
/// none keeps the reload bound and memory, or when stopped. Layers of more
/// than 256 patches are not tried (see WavefrontBeam.cpp).
std::optional<Groups> wavefrontBeam(const S1Instance &instance, const WavefrontBeamLimits &limits = {});

} // namespace convoffload
