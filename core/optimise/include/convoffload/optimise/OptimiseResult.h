// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every optimiser (the CBC ILP, the search) returns: one result type, so
// the CLI, the GUI and the experiments treat both alike.
#include "convoffload/model/S1Strategy.h"
#include "convoffload/optimise/OptimiseControl.h"

#include <optional>
#include <string>
#include <vector>

namespace convoffload {

enum class OptimiseStatus {
    Optimal, // proven: the duration equals the lower bound the method proved
    Feasible, // a valid strategy, optimality not proven
    NoSolution, // no valid strategy found (within the limits)
    Failed // the method itself failed (solver crashed, bad model...): see message
};
std::string optimiseStatusName(OptimiseStatus status); // "optimal", "feasible", "no solution", "failed"

struct OptimiseResult {
    std::string method; // "ilp", "search", "exact"
    OptimiseStatus status = OptimiseStatus::NoSolution;
    Groups groups; // empty without a solution
    double duration = 0; // of `groups`, as the simulator reports it
    double lower_bound = 0; // the best bound known: the method's own or lowerBound()
    double seconds = 0;
    bool cancelled = false;
    bool timed_out = false;
    std::string message; // in words: the solver's failure, why no solution...
    std::vector<OptimiseProgress> history;

    bool hasSolution() const { return !groups.empty(); }
    /// (duration - lower_bound) / duration; nullopt without a solution.
    std::optional<double> gap() const
    {
        if (!hasSolution() || duration <= 0)
            return std::nullopt;
        return (duration - lower_bound) / duration;
    }
};

} // namespace convoffload
