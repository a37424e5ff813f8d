// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Pareto front of an exploration: the design points no other point
// beats on both on-chip memory and duration (docs/reference/explore.md#pareto).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace convoffload {

struct ParetoCandidate {
    std::int64_t memory = 0;
    double duration = 0;
    bool valid = true; // only valid points can be on the front
};

/// Indices of the front, by increasing memory (so by decreasing duration).
/// A point is on it when it is valid and no valid point has at most its
/// memory and at most its duration with one of them smaller; of equal
/// points the first is kept.
std::vector<std::size_t> paretoFront(const std::vector<ParetoCandidate> &points);

} // namespace convoffload
