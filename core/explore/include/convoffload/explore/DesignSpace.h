// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The hardware points of a design-space exploration (docs/reference/explore.md):
// the cartesian product of a few lists of hardware values, numbered in a
// fixed nesting order, and split into shards by point number.
#include "convoffload/model/Hardware.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace convoffload {

/// A list or a space that cannot be explored: the message names the option
/// and the reason ("--mem-size: 64kk is not a number").
struct DesignSpaceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Points no exploration takes unless told (--max-points).
constexpr std::int64_t kDefaultMaxPoints = 100000;

/// The lists, in nesting order: the first varies slowest, the last fastest.
/// An empty list keeps the target's own value (one choice).
struct DesignSpace {
    std::vector<std::int64_t> mem_sizes;
    std::vector<std::int64_t> nbop_pes;
    std::vector<double> t_ls;
    std::vector<Layout> layouts;
    std::vector<std::int64_t> bursts;
    std::vector<double> t_setups;

    /// The product of the lists' sizes; throws DesignSpaceError when it is
    /// over `maxPoints` (with the count and the limit).
    std::int64_t pointCount(std::int64_t maxPoints = kDefaultMaxPoints) const;
    /// `base` with point `point`'s values (0 ≤ point < pointCount()). A
    /// layout, burst or set-up value gives the hardware a transfer model (the
    /// base's, or the linear one's defaults) with that value.
    Hardware hardwareAt(const Hardware &base, std::int64_t point) const;
    /// The lists as one canonical line, for the run id:
    /// "mem_size=1024,2048;nbop_pe=...;..." (doubles written exactly).
    std::string canonicalText() const;
};

/// A list of integers ≥ `min`: comma-separated items, each a number with an
/// optional k (×1024) or M (×1024²) suffix, or a range `a..b` (every
/// integer), `a..b*F` (a, a·F, a·F², … ≤ b) or `a..b+S` (a, a+S, … ≤ b).
/// `option` ("--mem-size") names the list in errors; a list of more than
/// `maxItems` values is refused before it is built. Duplicates are refused.
std::vector<std::int64_t> parseIntegerList(
    const std::string &text, const std::string &option, std::int64_t min, std::int64_t maxItems = kDefaultMaxPoints);
/// The same for numbers ≥ 0 (a range needs *F or +S).
std::vector<double> parseNumberList(
    const std::string &text, const std::string &option, std::int64_t maxItems = kDefaultMaxPoints);
/// "nchw,nhwc".
std::vector<Layout> parseLayoutList(const std::string &text, const std::string &option);

/// `--shard I/N`: 0 ≤ I < N; throws DesignSpaceError naming the option.
struct Shard {
    std::int64_t index = 0, count = 1;
    bool holds(std::int64_t point) const { return point % count == index; }
    /// How many of `points` points this shard holds.
    std::int64_t pointsOf(std::int64_t points) const;
};
Shard parseShard(const std::string &text);

} // namespace convoffload
