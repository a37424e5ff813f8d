// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How tooltips name the channel groups of a grouped layer
// (docs/reference/model.md#grouped-and-dilated). "Channel group", not
// "group": a strategy's groups are groups of patches.

#include <QString>

#include <vector>

namespace convoffload::ui {

/// Ascending groups as runs: "0, 2", "0–15, 32"; past `maxRuns` runs, "…".
QString groupRuns(const std::vector<int> &groups, int maxRuns = 8);
/// What a pixel holds of its `groupCount` slices: "channel groups 0, 2 of 4
/// on chip", "channel group 1 of 2 on chip", "all 4 channel groups on
/// chip" ("both" of two), "no channel group on chip".
QString groupsOnChipText(const std::vector<int> &groups, int groupCount);

} // namespace convoffload::ui
