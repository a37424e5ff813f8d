// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/OptimiseResult.h"

namespace convoffload {

std::string optimiseStatusName(OptimiseStatus status)
{
    switch (status) {
    case OptimiseStatus::Optimal:
        return "optimal";
    case OptimiseStatus::Feasible:
        return "feasible";
    case OptimiseStatus::NoSolution:
        return "no solution";
    case OptimiseStatus::Failed:
        return "failed";
    }
    return "?";
}

} // namespace convoffload
