// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/StrategyFamily.h"

namespace convoffload {

std::string strategyFamilyName(StrategyFamily family)
{
    switch (family) {
    case StrategyFamily::Heuristic:
        return "heuristic";
    case StrategyFamily::KernelBlocked:
        return "kernel-blocked";
    case StrategyFamily::Optimised:
        return "optimised";
    }
    return "?";
}

std::optional<StrategyFamily> strategyFamilyFromName(const std::string &name)
{
    for (const StrategyFamily f : kStrategyFamilies)
        if (strategyFamilyName(f) == name)
            return f;
    return std::nullopt;
}

StrategyFamily strategyFamilyOf(StrategyKind kind)
{
    switch (kind) {
    case StrategyKind::S1Baseline:
    case StrategyKind::RowByRow:
    case StrategyKind::ZigZag:
        return StrategyFamily::Heuristic;
    case StrategyKind::KernelBlocked:
        return StrategyFamily::KernelBlocked;
    case StrategyKind::Groups:
    case StrategyKind::Steps:
        return StrategyFamily::Optimised;
    }
    return StrategyFamily::Optimised;
}

} // namespace convoffload
