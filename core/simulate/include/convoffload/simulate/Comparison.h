// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strategies side by side: one summary row per strategy of a project, and the
// Row-by-Row vs ZigZag sweep over group sizes.
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/model/Project.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/Verdict.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convoffload {

struct CompareRow {
    std::string name;
    std::string kind;
    std::int64_t group_size = 0; // 0 for explicit groups or steps; G of a generator
    std::string failure; // set when the strategy could not be expanded
    bool valid = false;
    int steps = 0;
    double total_duration = 0;
    std::int64_t loaded_input = 0, loaded_kernels = 0, written = 0, peak_footprint = 0;
    std::int64_t errors = 0, warnings = 0; // warnings include the reload bound's (one per element beyond it)
    std::int64_t reload_pixels = 0, reload_kernels = 0; // elements loaded more than the bound allows
    std::int64_t reload_slices = 0; // input slices beyond it (= reload_pixels when g = 1), one warning each
    int reload_bound = 0; // max_loads_per_element
    FunctionalStatus functional = FunctionalStatus::Skipped;
    bool transfer_model = false; // the runs and set-up time below are counted
    std::int64_t transfer_runs = 0; // DMA runs of every load and write
    double setup_duration = 0; // their set-up time, part of total_duration
    bool operator==(const CompareRow &) const = default;
};

/// The row's verdict (meaningless when `failure` is set: nothing ran).
Verdict verdictOf(const CompareRow &row);

/// A row's figures (validity, steps, duration, loads, writes, peak, findings)
/// from a simulation of its strategy.
void setRowFigures(CompareRow &row, const SimulationResult &result);

std::vector<CompareRow> compareStrategies(const Project &project, const SimulationOptions &options);

struct SweepRow {
    std::int64_t group_size = 0;
    CompareRow row_by_row, zigzag;
    bool operator==(const SweepRow &) const = default;
};

/// Row-by-Row and ZigZag for every group size in [from, to] (the paper's
/// group-size figure). Sizes beyond nb_patches_max are simulated and marked
/// invalid (too many ops), so the curve can still be drawn.
std::vector<SweepRow> sweepGroupSizes(
    const Problem &problem, std::int64_t from, std::int64_t to, const SimulationOptions &options);

/// One member of the kernel-blocked family and its summary.
struct FamilyMember {
    KernelBlockedParams params;
    CompareRow row;
};

/// The family members tried and the best of them.
struct FamilySearch {
    std::vector<FamilyMember> members; // in the order tried (kernelBlockedFamily's)
    std::optional<std::size_t> best; // the shortest valid member; the first of equals
    const FamilyMember *bestMember() const { return best ? &members[*best] : nullptr; }
};

/// What a simulation that only ranks strategies needs: no trace, no
/// functional check, one listed diagnostic per rule, `cancel` polled.
SimulationOptions rankingOptions(const std::atomic<bool> *cancel);

/// Simulates `members` (without trace or functional check: only the ranking
/// is needed) and picks the shortest valid one, which is simulated again
/// with `options` so its row carries the functional check. Polls
/// options.cancel between members.
FamilySearch searchMembers(
    const Problem &problem, const std::vector<KernelBlockedParams> &members, const SimulationOptions &options);

/// searchMembers over every member of kernelBlockedFamily(problem).
FamilySearch searchKernelBlocked(const Problem &problem, const SimulationOptions &options);

/// The best member as a comparison row named "best kernel-blocked (kernels-outer,
/// zigzag, B = 16, G = 4)"; nullopt when no member is valid.
std::optional<CompareRow> familyRow(const FamilySearch &search);

/// When compare adds the family's best to the project's strategies.
enum class FamilyMode {
    Auto, // only when the kernels do not fit (kernelsFit false): S1 results stay as they are otherwise
    Always,
    Never
};
std::string familyModeName(FamilyMode mode); // "auto", "always", "never"
std::optional<FamilyMode> familyModeFromName(const std::string &name);

/// The work a family search would do, summed over its members (for the budget check).
double familySearchSeconds(const Problem &problem, const std::vector<KernelBlockedParams> &members);

struct KernelBlockSweepRow {
    std::int64_t kernel_block = 0;
    /// The best member of each loop for this B (over the group sizes and
    /// orders tried); nullopt when none is valid.
    std::optional<FamilyMember> kernels_outer, patches_outer;
};

/// For every B in [from, to], the best kernels-outer and the best
/// patches-outer member: over familyGroupSizes and both orders, or only
/// `groupSize` / `order` when given (then the row is kept even if invalid).
std::vector<KernelBlockSweepRow> sweepKernelBlocks(const Problem &problem, std::int64_t from, std::int64_t to,
    std::optional<std::int64_t> groupSize, std::optional<PatchOrder> order, const SimulationOptions &options);

} // namespace convoffload
