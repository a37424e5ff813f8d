#pragma once
// What every optimiser (the CBC ILP, the search) returns and how a caller
// follows and stops it: one result type, so the CLI, the GUI and the
// experiments treat both alike.
#include "convoffload/S1Strategy.h"

#include <atomic>
#include <functional>
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
std::string toString(OptimiseStatus status); // "optimal", "feasible", "no solution", "failed"

/// One point of the live progress chart. Durations use the problem's units.
struct OptimiseProgress {
    double seconds = 0;
    std::optional<double> incumbent; // best valid duration so far
    std::optional<double> bound; // best proven lower bound so far
};
using ProgressCallback = std::function<void(const OptimiseProgress &)>;

struct OptimiseControl {
    double time_limit_s = 10;
    const std::atomic<bool> *cancel = nullptr; // raised by the caller to stop early
    ProgressCallback progress; // called from the optimising thread, at most ~20 times a second
};

struct OptimiseResult {
    std::string method; // "ilp", "search"
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
