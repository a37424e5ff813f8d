// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a simulation will cost before it starts, from the layer's sizes alone
// (no expansion: for a hostile layer, expanding is already the hours-long
// part). A 300-byte project can describe 10^13 pixel visits; the CLI and the
// GUI refuse such work with a message saying what it would need, instead of
// running for days or being killed for memory.
#include "convoffload/model/Problem.h"
#include "convoffload/model/S1Strategy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace convoffload {

struct WorkEstimate {
    double pixel_visits = 0; // patch-pixel pairs the expansion and the executor walk
    double macs = 0; // multiply-accumulates of the functional check (0 without it)
    double seconds = 0; // rough: within a small factor on a current laptop core
    double bytes = 0; // peak memory of expansion, trace and functional state
};

/// `visitsPerPatch`: how often a strategy computes each patch (1 for S1; the
/// number of kernel blocks for a kernels-outer strategy).
WorkEstimate estimateSimulation(const Problem &problem, bool functional, bool trace = true, std::int64_t visitsPerPatch = 1);

/// A strategy simulated as `network` ranks it (no trace, no functional
/// check, no per-step rows). Where the fused pass runs it (an S1 kind or a
/// kernel-blocked strategy without a transfer model; an S1 kind with one,
/// outputs written at the next step) no step is expanded: its memory is the
/// slices', outputs' and patches' state. Otherwise as estimateSimulation.
WorkEstimate estimateRanking(const Problem &problem, const StrategySpec &spec, std::int64_t visitsPerPatch);

/// The GUI's traced run of one strategy, its memory worked out from what
/// the run holds (the trace, the per-pixel, per-patch and per-output arrays,
/// the functional simulation) with the pixel loads of the strategy: for the
/// generated S1 kinds, a run of G patches in a row loads its pixels once; for
/// the others, the worst case (every patch pixel loaded on every visit).
WorkEstimate estimateStrategy(const Problem &problem, const StrategySpec &spec, bool functional, bool trace = true);

struct WorkBudget {
    double seconds = 600; // ten minutes
    double bytes = 0; // 0: availableMemoryBytes() * 3/4
};

/// The memory this process may use: the smaller of the physical memory and
/// the address-space limit (ulimit -v), when there is one.
double availableMemoryBytes();

/// Why the work exceeds the budget, in words ("this simulation would take
/// about 8 days and need 1.2 TB of memory ...", `subject` first); nullopt
/// when it fits.
std::optional<std::string> exceedsBudget(
    const WorkEstimate &work, const WorkBudget &budget = {}, std::string_view subject = "this simulation");

/// How a refusal names a layer: "layer 'conv1' (3x1048576x64 input, 64
/// kernels 3x3)", or "the layer (...)" without a name (a project's one layer).
std::string layerForMessages(const std::string &name, const Layer &layer);

/// "3.4 GB", "820 MB", "12 kB".
std::string bytesText(double bytes);
/// "40 s", "12 min", "3.5 h", "8 days".
std::string durationText(double seconds);

} // namespace convoffload
