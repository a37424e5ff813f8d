// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The accelerator a layer runs on (docs/reference/model.md#hardware): on-chip memory, compute
// capacity, per-element costs and the paper's reload bound.
#include <cstdint>
#include <string>
#include <vector>

namespace convoffload {

struct Hardware {
    std::int64_t mem_size = 1000; // on-chip memory, elements
    std::int64_t nbop_pe = 1000; // MACs per compute
    double t_l = 1.0; // per element loaded
    double t_w = 1.0; // per element written back
    double t_acc = 1.0; // per compute
    std::int64_t dram_size = 100000000;
    int max_loads_per_element = 2; // the paper's reload bound

    std::vector<std::string> problems() const;
    bool operator==(const Hardware &) const = default;
};

} // namespace convoffload
