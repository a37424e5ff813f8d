// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The section-5 ILP solved by CBC in a separate process (convoffload-cbc-worker),
// so that a solver crash, a runaway root node or a hang costs a "failed"
// result, never the application. The worker gets the model as MPS and the best
// heuristic as a MIP start; its progress becomes OptimiseProgress points.
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/S1Instance.h"

#include <optional>
#include <string>

namespace convoffload {

struct IlpSolveOptions {
    /// Empty: convoffload-cbc-worker next to the running executable, else on PATH.
    std::string worker_path;
    /// The MIP start; nullopt: the best feasible heuristic (none when no
    /// heuristic is feasible). It is also the result when CBC is stopped
    /// before it reports.
    std::optional<Groups> start;
    /// Where the private directory for the model files is made; empty: the
    /// system's temporary directory. The directory is removed afterwards.
    std::string temp_dir;
    /// CBC does not look at the clock in every phase (a big root LP can run
    /// for minutes): past time_limit + grace it is asked to stop, and killed
    /// after kill_after_s more. A cancel is asked, then killed after kill_after_s.
    double grace_s = 1.0;
    double kill_after_s = 0.5;
};

/// The worker next to /proc/self/exe, or the bare name for a PATH search.
std::string defaultCbcWorkerPath();

/// Never throws for solver trouble: a missing or crashing worker, garbage
/// output or an invalid answer give status Failed with the reason in message.
/// groups are checked with evaluate(); duration is evaluate's; lower_bound is
/// the largest of CBC's bound, lowerBound(instance) and, up to 64 patches,
/// partitionLowerBound(instance); Optimal when CBC proved it or the
/// strategy meets that bound.
OptimiseResult solveIlp(const S1Instance &instance, const IlpSolveOptions &options = {}, const OptimiseControl &control = {});

} // namespace convoffload
