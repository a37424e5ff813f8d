// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A complete search for an S1 strategy that loads every needed pixel exactly
// once in K_min groups: where it ends without one, none exists, and every
// strategy pays at least one load or one compute more than the pixel bound.
//
// A pixel is loaded once exactly when the groups that hold it are
// consecutive, that is, when every group holds each "open" pixel (needed by a
// patch placed and by one still to place). Whether the patches left can be
// placed that way depends only on the patches placed and how many groups are
// left, so the sets that failed are remembered (with the fewest groups they
// failed with). Each next group is enumerated exactly once as a set: first
// the patches covering the open pixels (the pixel with the fewest choices
// first, each choice excluding the earlier ones), then any further patches in
// index order. Two sound cuts keep it small: pixels no single patch left can
// hold together each need their own patch (a packing bound, checked on the
// open pixels before and after each group), and the first group is taken
// only up to the instance's symmetries (PatchSymmetries.h).
//
// For layers of at most 128 patches and 256 needed pixels (bit sets: one
// word per patch set up to 64 patches, two up to 128), within a node budget:
// the same instance and budget give the same answer on every machine.
// Private to the core.
#include "convoffload/optimise/S1Instance.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace convoffload {

struct LoadOnceProofLimits {
    std::int64_t max_nodes = 50'000'000; // steps: groups and parts of groups tried
    const std::atomic<bool> *stop = nullptr;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::function<void()> tick; // called now and then, on the calling thread (progress reports)
    /// Two-word patch sets even on layers of at most 64 patches, so that tests
    /// can compare the two versions of the search on the same instances.
    bool wide_sets = false;
};

enum class LoadOnceProofStatus {
    Exists, // `groups` loads every needed pixel once
    None, // proven: no strategy of K_min groups loads every needed pixel once
    Unknown, // not finished (`why` says which limit), or the layer is too large
};

struct LoadOnceProof {
    LoadOnceProofStatus status = LoadOnceProofStatus::Unknown;
    std::optional<Groups> groups;
    std::int64_t nodes = 0;
    std::string why; // when Unknown
};

/// Whether proveLoadOnce tries the instance: at most 128 patches and 256 needed pixels.
bool loadOnceProofFits(const S1Instance &instance);

LoadOnceProof proveLoadOnce(const S1Instance &instance, const LoadOnceProofLimits &limits = {});

/// The least a strategy can cost when none loads every pixel once in K_min
/// groups: the pixel bound plus one load (K_min groups) or one compute (more
/// groups, where the instance allows them).
double boundWithoutLoadOnce(const S1Instance &instance);

} // namespace convoffload
