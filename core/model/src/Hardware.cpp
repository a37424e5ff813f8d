// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Hardware.h"

#include <cmath>
#include <cstdio>

namespace convoffload {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

constexpr double kMaxCost = 1e15;

/// Short form for messages, e.g. 1e+308 rather than 309 digits.
std::string numberText(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

} // namespace

std::vector<std::string> Hardware::problems() const
{
    std::vector<std::string> out;
    const auto positive = [&](const char *name, std::int64_t value) {
        if (value < 1)
            out.push_back(std::string(name) + ": must be at least 1, got " + str(value));
    };
    // A cost per element or per compute above 1e15 would let a total
    // (element counts reach 2^40) leave the range where sums stay finite and
    // comparable; no real accelerator is that slow in any unit.
    const auto duration = [&](const char *name, double value) {
        if (!std::isfinite(value) || value < 0)
            out.push_back(std::string(name) + ": must be a finite number >= 0, got " + numberText(value));
        else if (value > kMaxCost)
            out.push_back(std::string(name) + ": " + numberText(value) + " is too large (at most 1e15)");
    };
    positive("mem_size", mem_size);
    positive("nbop_pe", nbop_pe);
    duration("t_l", t_l);
    duration("t_w", t_w);
    duration("t_acc", t_acc);
    positive("dram_size", dram_size);
    positive("max_loads_per_element", max_loads_per_element);
    if (transfer) {
        // A burst beyond 2^30 elements is no DMA engine's; it also keeps
        // block counts and products far from overflow.
        if (transfer->burst < 1)
            out.push_back("transfer.burst: must be at least 1, got " + str(transfer->burst));
        else if (transfer->burst > (std::int64_t(1) << 30))
            out.push_back("transfer.burst: " + str(transfer->burst) + " is too large (at most 1073741824)");
        duration("transfer.t_setup", transfer->t_setup);
    }
    return out;
}

std::string layoutName(Layout layout) { return layout == Layout::Nhwc ? "nhwc" : "nchw"; }

std::optional<Layout> layoutFromName(const std::string &name)
{
    if (name == "nchw")
        return Layout::Nchw;
    if (name == "nhwc")
        return Layout::Nhwc;
    return std::nullopt;
}

} // namespace convoffload
