// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/explore/ExploreFile.h"

#include "convoffload/io/LineSplitter.h"
#include "convoffload/io/TextFile.h"

#include <algorithm>
#include <map>

namespace convoffload {

namespace {

/// A line holds one point's layers: a network of thousands of layers with
/// long names stays far below this.
constexpr std::size_t kMaxLineBytes = std::size_t(64) << 20;
constexpr int kMaxDepth = 8;

std::string lineWhere(const std::string &file, std::int64_t line) { return file + ":" + std::to_string(line); }

} // namespace

ExploreRecord parseExploreLine(const std::string &file, std::int64_t number, std::string_view text)
{
    const std::string where = lineWhere(file, number);
    nlohmann::json json;
    try {
        // Our lines nest four deep: a deeper one is not ours, and is refused
        // before a hostile line of brackets costs memory.
        json = nlohmann::json::parse(text, [&where](int depth, nlohmann::json::parse_event_t, nlohmann::json &) {
            if (depth > kMaxDepth)
                throw FormatError(where, "not a line of an explore file (nested deeper than " + std::to_string(kMaxDepth) + ")");
            return true;
        });
    } catch (const nlohmann::json::exception &) {
        throw FormatError(where, "not a line of an explore file (not JSON)");
    }
    const auto notOurs
        = [&](const std::string &why) -> FormatError { return FormatError(where, "not a line of an explore file: " + why); };
    if (!json.is_object())
        throw notOurs("not a JSON object");
    const auto need = [&](const char *key, bool ok) {
        if (!json.contains(key))
            throw notOurs(std::string("no \"") + key + "\"");
        if (!ok)
            throw notOurs(std::string("\"") + key + "\" has the wrong type");
    };
    need("run", json.contains("run") && json["run"].is_string());
    need("point", json.contains("point") && json["point"].is_number_integer());
    need("points", json.contains("points") && json["points"].is_number_integer());
    need("hardware", json.contains("hardware") && json["hardware"].is_object());
    need("layers", json.contains("layers") && json["layers"].is_array());
    need("total_duration", json.contains("total_duration") && json["total_duration"].is_number());
    need("all_valid", json.contains("all_valid") && json["all_valid"].is_boolean());
    if (!json["hardware"].contains("mem_size") || !json["hardware"]["mem_size"].is_number_integer())
        throw notOurs("the hardware has no integer \"mem_size\"");
    ExploreRecord r;
    r.file = file;
    r.line_number = number;
    r.line = std::string(text);
    r.run = json["run"].get<std::string>();
    r.point = json["point"].get<std::int64_t>();
    r.points = json["points"].get<std::int64_t>();
    if (r.points < 1 || r.point < 0 || r.point >= r.points)
        throw notOurs("point " + std::to_string(r.point) + " is outside 0.." + std::to_string(r.points - 1));
    r.hardware = json["hardware"];
    r.total_duration = json["total_duration"].get<double>();
    r.all_valid = json["all_valid"].get<bool>();
    r.layers = std::int64_t(json["layers"].size());
    return r;
}

std::vector<ExploreRecord> readExploreFile(const std::string &path)
{
    std::vector<ExploreRecord> records;
    char last = '\n';
    LineSplitter lines(kMaxLineBytes, [&](std::string_view line, std::int64_t number) {
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            throw FormatError(lineWhere(path, number), "an empty line (an explore file has one JSON object per line)");
        records.push_back(parseExploreLine(path, number, line));
    });
    readFileInChunks(path, kMaxExploreFileBytes, [&](std::string_view chunk) {
        if (!chunk.empty())
            last = chunk.back();
        lines.feed(chunk);
    });
    if (last != '\n')
        throw FormatError(lineWhere(path, lines.lineNumber()),
            "the last line ends without a newline: the run was stopped while writing it (run the shard again)");
    lines.finish();
    if (records.empty())
        throw FormatError(path, "empty: an explore file has one line per design point");
    return records;
}

std::string pointRangesText(const std::vector<std::int64_t> &points, std::size_t maxItems)
{
    std::string text;
    std::size_t items = 0;
    for (std::size_t i = 0; i < points.size();) {
        std::size_t j = i;
        while (j + 1 < points.size() && points[j + 1] == points[j] + 1)
            ++j;
        if (items == maxItems) {
            text += ", … (" + std::to_string(points.size()) + " in all)";
            break;
        }
        if (items > 0)
            text += ", ";
        text += std::to_string(points[i]);
        if (j > i) {
            text += '-';
            text += std::to_string(points[j]);
        }
        ++items;
        i = j + 1;
    }
    return text;
}

std::string mergeExploreRecords(const std::vector<ExploreRecord> &records)
{
    if (records.empty())
        throw FormatError("merge", "no lines to merge");
    const ExploreRecord &first = records.front();
    std::map<std::int64_t, const ExploreRecord *> byPoint;
    for (const ExploreRecord &r : records) {
        if (r.run != first.run)
            throw FormatError(lineWhere(r.file, r.line_number),
                "belongs to run " + r.run + ", not to run " + first.run + " of " + lineWhere(first.file, first.line_number)
                    + " (lines of different explorations never mix: same target, lists, options and version)");
        if (r.points != first.points)
            throw FormatError(lineWhere(r.file, r.line_number),
                "says the run has " + std::to_string(r.points) + " points, " + lineWhere(first.file, first.line_number) + " says "
                    + std::to_string(first.points));
        const auto [it, inserted] = byPoint.emplace(r.point, &r);
        if (!inserted && it->second->line != r.line)
            throw FormatError(lineWhere(r.file, r.line_number),
                "point " + std::to_string(r.point) + " differs from the same point at "
                    + lineWhere(it->second->file, it->second->line_number)
                    + " (was the run's time limit or --optimize not reproducible? use --moves with a seed)");
    }
    std::vector<std::int64_t> missing;
    for (std::int64_t p = 0; p < first.points; ++p)
        if (!byPoint.count(p))
            missing.push_back(p);
    if (!missing.empty())
        throw FormatError("merge",
            std::to_string(missing.size()) + " of " + std::to_string(first.points) + " points are missing: "
                + pointRangesText(missing) + " (a shard not run, failed or stopped: run it, then merge again)");
    std::string text;
    for (const auto &[point, record] : byPoint)
        text += record->line + '\n';
    return text;
}

} // namespace convoffload
