// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The families the network chart compares, one bar per layer and family
// (docs/reference/network-file.md, docs/user/networks.md): the S1 heuristics, the kernel-blocked
// (kernel-streaming) generator, and the explicit strategies an optimiser or
// an external solver produced.
#include "convoffload/model/S1Strategy.h"

#include <array>
#include <optional>
#include <string>

namespace convoffload {

enum class StrategyFamily {
    Heuristic, // s1-baseline, row-by-row, zigzag: every kernel on chip
    KernelBlocked, // kernel-blocked: kernels streamed in blocks of B
    Optimised, // explicit groups or steps: the optimiser's results, imported solutions
};
inline constexpr std::array<StrategyFamily, 3> kStrategyFamilies{
    StrategyFamily::Heuristic, StrategyFamily::KernelBlocked, StrategyFamily::Optimised};

std::string strategyFamilyName(StrategyFamily family); // "heuristic", "kernel-blocked", "optimised"
std::optional<StrategyFamily> strategyFamilyFromName(const std::string &name);
StrategyFamily strategyFamilyOf(StrategyKind kind);

} // namespace convoffload
