// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading the JSON Lines an exploration writes, and merging the files of its
// shards into the file an unsharded run writes (docs/reference/explore.md).
#include "convoffload/io/FormatError.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace convoffload {

/// Explore files are large (a line per point, a layer per network layer)
/// but bounded: what a sweep of every point a run may take needs.
constexpr std::int64_t kMaxExploreFileBytes = std::int64_t(4) << 30;

/// One line of an explore file, checked to be ours.
struct ExploreRecord {
    std::string file; // where it was read
    std::int64_t line_number = 0;
    std::string line; // the bytes as read, without the newline
    std::string run;
    std::int64_t point = 0, points = 0;
    nlohmann::json hardware; // as the project file writes it
    double total_duration = 0;
    bool all_valid = false;
    std::int64_t layers = 0;
};

/// One line (without its newline), checked as readExploreFile checks each:
/// a FormatError names `file` and `number`. The GUI reads the lines of its
/// own run through it, so its chart sees what a reader of the file would.
ExploreRecord parseExploreLine(const std::string &file, std::int64_t number, std::string_view text);

/// Every line of `path`. A line that is not one of ours (not JSON, not an
/// object, a key missing or of the wrong type, a point outside 0…points-1)
/// or a last line without its newline (a run stopped while writing) is a
/// FormatError naming the file and the line; so is an empty file.
std::vector<ExploreRecord> readExploreFile(const std::string &path);

/// The merge of the records of every file of one run: one line per point
/// in point order, each with its newline, byte for byte as read. Exact
/// duplicates are dropped; a FormatError (naming files and lines) refuses
/// lines of two runs, two different lines for one point, and missing points
/// (all of them, as ranges: "3, 7-9").
std::string mergeExploreRecords(const std::vector<ExploreRecord> &records);

/// "0-2, 5, 9-11": a sorted list of points as ranges, at most `maxItems`
/// items, then "… (N in all)".
std::string pointRangesText(const std::vector<std::int64_t> &points, std::size_t maxItems = 20);

} // namespace convoffload
