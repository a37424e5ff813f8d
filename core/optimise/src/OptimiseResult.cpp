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

std::string optimisePhaseName(OptimisePhase phase)
{
    switch (phase) {
    case OptimisePhase::Preparing:
        return "preparing";
    case OptimisePhase::Searching:
        return "searching";
    case OptimisePhase::Exact:
        return "exact";
    case OptimisePhase::BuildingModel:
        return "building-model";
    case OptimisePhase::WritingModel:
        return "writing-model";
    case OptimisePhase::Solving:
        return "solving";
    case OptimisePhase::Simulating:
        return "simulating";
    }
    return "?";
}

} // namespace convoffload
