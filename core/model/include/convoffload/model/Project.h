// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A project (docs/reference/project-file.md): the problem, the data to compute on and the strategies.
#include "convoffload/model/Problem.h"
#include "convoffload/model/S1Strategy.h"

#include <cstdint>
#include <string>
#include <vector>

namespace convoffload {

struct DataSpec {
    std::uint64_t seed = 1;
    std::string file; // optional JSON with "input" and "kernels", relative to the project
    bool operator==(const DataSpec &) const = default;
};

struct Project {
    Problem problem;
    DataSpec data;
    std::vector<StrategySpec> strategies;

    const StrategySpec *findStrategy(const std::string &name) const;
    bool operator==(const Project &) const = default;
};

} // namespace convoffload
