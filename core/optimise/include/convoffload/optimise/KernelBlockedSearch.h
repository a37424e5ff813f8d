// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search optimiser inside one kernel-blocked loop (docs/reference/strategies.md#kernel-blocked): the loop
// order and the block size B of a family member stay, and the annealing of
// SearchOptimiser regroups and reorders its patches. The member's cost is an
// S1 problem on a layer of B kernels whose costs are scaled to the loop
// (blockInstance); the groups found are run in the member's loop as explicit
// steps and simulated exactly, and kept only when they beat the member.
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/SearchOptimiser.h"
#include "convoffload/simulate/Comparison.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace convoffload {

/// Which members of the kernel-blocked family a caller allows (unset: any).
struct FamilyChoice {
    std::optional<KernelLoop> loop;
    std::optional<std::int64_t> kernel_block; // B, 1..N
    std::optional<std::int64_t> group_size; // G: every (loop, order, B) at this G
};

/// The members `choice` allows, in kernelBlockedFamily's order: the family,
/// or every member of block B (both loops) when B is given, filtered by loop;
/// with a group size, each (loop, order, B) once at that G.
std::vector<KernelBlockedParams> chosenMembers(const Problem &problem, const FamilyChoice &choice);

/// The S1 instance whose ordered partitions are the patch groupings of
/// `member`'s loop: the layer with B kernels (a step holds B kernels and
/// B outputs per patch), groups of at most G (exactly K_min, or up to a cap
/// as `settings` says), the reload bound left out (streaming reloads by
/// design; the family ranks members with it as a warning too), and costs
/// scaled to the loop with m = ceil(N / B) blocks:
/// - kernels-outer: every pass of the m loads the groups' input, so a pixel
///   load costs m·C_in·t_l and a group m·t_acc (the pixels kept at the
///   turns between passes are not counted: simulation settles them);
/// - patches-outer: the input is loaded as by S1 and each group after the
///   first reloads the N - B kernels it does not keep, so a group costs
///   m·t_acc + (N - B)·C_in·H_K·W_K·t_l (t_l = 0 for preloaded kernels).
/// So when B divides N, patches-outer's duration is exactly the simulated
/// one, and kernels-outer's exceeds it by the input kept at the m - 1 turns.
/// Throws InstanceError as makeS1Instance does.
S1Instance blockInstance(const Problem &problem, const KernelBlockedParams &member, const OptimiseSettings &settings = {});

/// The instance regroupKernelBlocked searches: blockInstance, and under a
/// transfer model that S1TransferCost::makeKernelBlocked prices (one channel
/// group, a burst above 1 or a set-up, outputs written at the next step)
/// with its `transfer` set, so evaluate() and the search minimise the
/// transfer model's cost of the member's loop
/// (docs/reference/cli.md#under-a-transfer-model); its cost per group is then
/// the blocks' computes alone (the kernels' reloads are the transfer
/// model's). Throws as blockInstance does.
S1Instance regroupInstance(const Problem &problem, const KernelBlockedParams &member, const OptimiseSettings &settings = {});

struct RegroupResult {
    FamilyMember start; // the member regrouped
    OptimiseResult search; // the search on blockInstance: its groups, moves' history and seconds
    Groups groups; // the groups kept: the search's when they beat the member, else the member's own
    ComputeSteps steps; // `groups` run in the member's loop and blocks
    CompareRow row; // the exact simulation of `steps` (no trace, no functional check)
    bool improved = false; // the search's groups simulate strictly shorter than the member and are valid
    bool transfer_cost = false; // the search minimised the transfer model's cost (regroupInstance), not the linear one
};

/// Regroups `start`'s patches by searchOptimise on blockInstance and keeps
/// the shorter of the result and the member, by exact simulation: never
/// worse than `start`. Deterministic for a given seed, move budget and
/// number of threads (SearchOptimiser.h). Throws InstanceError as
/// blockInstance does.
RegroupResult regroupKernelBlocked(const Problem &problem, const FamilyMember &start, const OptimiseSettings &settings,
    const SearchOptions &options, const OptimiseControl &control);

} // namespace convoffload
