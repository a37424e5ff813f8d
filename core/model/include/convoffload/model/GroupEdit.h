// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hand edits of an S1 strategy's groups (docs/reference/strategies.md#s1-strategies): pure functions from Groups
// to Groups, no Qt. An edit that makes no sense — an empty selection, an index
// out of range, a move that changes nothing — throws StrategyError with a
// sentence the UI can show as the reason a drop or a shortcut was refused.
// Groups left empty by an edit are dropped; indices name groups as they are
// before the edit. Patch ids are not checked against a layer here (the caller
// knows the layer; groupsOf checks them before simulating).

#include "convoffload/model/Diagnostic.h"
#include "convoffload/model/Ids.h"
#include "convoffload/model/S1Strategy.h"

#include <cstddef>
#include <vector>

namespace convoffload {

using PatchList = std::vector<PatchId>;

/// Patches of the layer that are in no group, ascending.
PatchList unassignedPatches(const Layer &layer, const Groups &groups);

/// Every one of `patches` is in `group` already (`group` may be the
/// unassigned pool): moving them there changes nothing, and movePatches
/// refuses it. An empty list is in every group.
bool allAlreadyIn(const PatchList &group, const PatchList &patches);

/// Takes `patches` out of their groups (or the unassigned pool) and appends
/// them, in the given order, to group `targetGroup`; patches already in the
/// target stay where they are. Refuses an empty list, a patch listed twice, a
/// target out of range and a move that changes nothing (the patches are all in
/// the target already).
Groups movePatches(const Groups &groups, const PatchList &patches, std::size_t targetGroup);

/// Takes `patches` out of their groups (or the pool) and makes them a new group
/// inserted before group `position` (0..size; size appends). Refuses as
/// movePatches does, and a group "moved" next to itself.
Groups moveToNewGroup(const Groups &groups, const PatchList &patches, std::size_t position);

/// Moves group `from` so that it ends up at index `to` (both 0..size-1).
Groups reorderGroup(const Groups &groups, std::size_t from, std::size_t to);

/// Takes `patchesToSplitOff` (all in group `group`, not all of it) out of the
/// group into a new group right after it, in the group's order.
Groups splitGroup(const Groups &groups, std::size_t group, const PatchList &patchesToSplitOff);

/// Appends group b's patches to group a and removes b (a != b).
Groups mergeGroups(const Groups &groups, std::size_t a, std::size_t b);

/// Takes the patches out of their groups (back to the unassigned pool);
/// refuses when none of them is in a group.
Groups unassign(const Groups &groups, const PatchList &patches);

/// The groups a hand edit starts from: the generated groups of a heuristic,
/// the explicit groups (as they are, even empty) of a `groups` strategy.
/// Throws StrategyError when a heuristic cannot generate its groups.
Groups editableGroups(const Problem &problem, const StrategySpec &spec);

/// The input pixels a group of `patches` reads (U(g)), ascending, each once;
/// padding pixels are left out when they are synthesised on chip.
std::vector<PixelId> receptiveField(const Problem &problem, const PatchList &patches);

/// The receptive field a group would have once `dragged` joins `target`
/// (the target's patches; empty for a new group): `kept` = U(target),
/// `added` = U(target ∪ dragged) \ U(target), both ascending.
struct FieldPreview {
    std::vector<PixelId> kept, added;
    std::size_t pixels() const { return kept.size() + added.size(); }
};
FieldPreview previewJoin(const Problem &problem, const PatchList &target, const PatchList &dragged);

/// Where the findings of a simulation of `groups` (expanded by expandS1) break.
/// Group i runs at step i + 1 (docs/reference/strategies.md#s1-strategies), so a finding at step 1..n belongs to
/// group step - 1. A finding names the patches it is about: the patch of an
/// output or patch element; the group's patches reading a pixel element; every
/// patch of the group for a finding about the step as a whole (too many ops,
/// memory overflow) or a kernel. Patches in no group are never computed: they
/// carry the first "output not written" finding (the simulator lists only a
/// few of those). Indices point into `diagnostics`.
struct FindingPlaces {
    std::vector<std::vector<std::size_t>> groups; // one list per group
    std::vector<std::pair<PatchId, std::size_t>> patches; // sorted by patch, then finding
    std::vector<std::size_t> strategy; // findings of no group (step 0, the drain)
    /// The findings of one patch, in finding order.
    std::vector<std::size_t> ofPatch(PatchId patch) const;
    /// The patches with at least one finding, ascending.
    std::vector<PatchId> flaggedPatches() const;
};
FindingPlaces locateFindings(const Problem &problem, const Groups &groups, const std::vector<Diagnostic> &diagnostics);

} // namespace convoffload
