// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The accelerator a layer runs on (docs/reference/model.md#hardware): on-chip memory, compute
// capacity, per-element costs and the paper's reload bound.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

/// How a tensor is laid out in DRAM (docs/reference/model.md#transfer-cost).
enum class Layout { Nchw, Nhwc };
std::string layoutName(Layout layout); // "nchw", "nhwc"
std::optional<Layout> layoutFromName(const std::string &name);

/// The transfer model: each load or write action costs, over its maximal
/// runs of consecutive DRAM addresses, t_setup + (aligned blocks of `burst`
/// elements touched) · burst · t. burst 1 and t_setup 0 is the linear model.
struct Transfer {
    Layout layout = Layout::Nchw;
    std::int64_t burst = 1; // elements
    double t_setup = 0; // per run (DMA descriptor)
    bool isLinear() const { return burst == 1 && t_setup == 0; }
    bool operator==(const Transfer &) const = default;
};

struct Hardware {
    std::int64_t mem_size = 1000; // on-chip memory, elements
    std::int64_t nbop_pe = 1000; // MACs per compute
    double t_l = 1.0; // per element loaded
    double t_w = 1.0; // per element written back
    double t_acc = 1.0; // per compute
    std::int64_t dram_size = 100000000;
    int max_loads_per_element = 2; // the paper's reload bound
    std::optional<Transfer> transfer{}; // none: the linear model

    std::vector<std::string> problems() const;
    bool operator==(const Hardware &) const = default;
};

} // namespace convoffload
