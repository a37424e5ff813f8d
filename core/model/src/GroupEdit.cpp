// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/GroupEdit.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_set>

namespace convoffload {

namespace {

std::string groupName(std::size_t index) { return "group " + std::to_string(index + 1); }

std::string patchCount(std::size_t n) { return std::to_string(n) + (n == 1 ? " patch" : " patches"); }

void requireGroup(const Groups &groups, std::size_t index, const char *what)
{
    if (index >= groups.size())
        throw StrategyError(std::string(what) + " " + std::to_string(index + 1) + " does not exist: the strategy has "
            + std::to_string(groups.size()) + (groups.size() == 1 ? " group" : " groups"));
}

/// Refuses an empty selection or one naming a patch twice; returns it as a set.
std::unordered_set<PatchId> selection(const PatchList &patches)
{
    if (patches.empty())
        throw StrategyError("no patch selected");
    std::unordered_set<PatchId> set;
    for (PatchId p : patches)
        if (!set.insert(p).second)
            throw StrategyError("patch " + std::to_string(p) + " is selected twice");
    return set;
}

/// Removes the selected patches from every group except `keep` (when given),
/// drops the groups that became empty and returns the new index of every old
/// group (-1 for a dropped one) through `newIndex`.
Groups removeFromGroups(
    const Groups &groups, const std::unordered_set<PatchId> &set, std::vector<std::ptrdiff_t> &newIndex, std::ptrdiff_t keep = -1)
{
    Groups out;
    newIndex.assign(groups.size(), -1);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        Group kept;
        if (std::ptrdiff_t(g) == keep)
            kept = groups[g];
        else
            std::copy_if(groups[g].begin(), groups[g].end(), std::back_inserter(kept), [&](PatchId p) { return !set.count(p); });
        if (kept.empty())
            continue;
        newIndex[g] = std::ptrdiff_t(out.size());
        out.push_back(std::move(kept));
    }
    return out;
}

/// Where old insertion position `position` (0..size) lands once empty groups are dropped.
std::size_t mapPosition(const std::vector<std::ptrdiff_t> &newIndex, std::size_t position)
{
    std::size_t mapped = 0;
    for (std::size_t g = 0; g < position; ++g)
        if (newIndex[g] >= 0)
            ++mapped;
    return mapped;
}

} // namespace

PatchList unassignedPatches(const Layer &layer, const Groups &groups)
{
    const std::int64_t count = std::max<std::int64_t>(layer.patchCount(), 0);
    std::vector<bool> assigned(std::size_t(count), false);
    for (const Group &g : groups)
        for (PatchId p : g)
            if (std::int64_t(p) < count)
                assigned[p] = true;
    PatchList out;
    for (std::int64_t p = 0; p < count; ++p)
        if (!assigned[std::size_t(p)])
            out.push_back(PatchId(p));
    return out;
}

bool allAlreadyIn(const PatchList &group, const PatchList &patches)
{
    const std::unordered_set<PatchId> in(group.begin(), group.end());
    return std::all_of(patches.begin(), patches.end(), [&](PatchId p) { return in.count(p) > 0; });
}

Groups movePatches(const Groups &groups, const PatchList &patches, std::size_t targetGroup)
{
    const std::unordered_set<PatchId> set = selection(patches);
    requireGroup(groups, targetGroup, "target group");
    const Group &target = groups[targetGroup];
    const std::unordered_set<PatchId> inTarget(target.begin(), target.end());
    if (allAlreadyIn(target, patches))
        throw StrategyError(patchCount(patches.size()) + (patches.size() == 1 ? " is" : " are") + " already in "
            + groupName(targetGroup) + ": moving onto the same group changes nothing");
    std::vector<std::ptrdiff_t> newIndex;
    Groups out = removeFromGroups(groups, set, newIndex, std::ptrdiff_t(targetGroup));
    Group &dest = out[std::size_t(newIndex[targetGroup])];
    for (PatchId p : patches)
        if (!inTarget.count(p))
            dest.push_back(p);
    return out;
}

Groups moveToNewGroup(const Groups &groups, const PatchList &patches, std::size_t position)
{
    const std::unordered_set<PatchId> set = selection(patches);
    if (position > groups.size())
        throw StrategyError(
            "position " + std::to_string(position) + " is out of range: a new group goes at 0.." + std::to_string(groups.size()));
    std::vector<std::ptrdiff_t> newIndex;
    Groups out = removeFromGroups(groups, set, newIndex);
    out.insert(out.begin() + std::ptrdiff_t(mapPosition(newIndex, position)), Group(patches.begin(), patches.end()));
    if (out == groups)
        throw StrategyError("these patches already form a group at that place: the move changes nothing");
    return out;
}

Groups reorderGroup(const Groups &groups, std::size_t from, std::size_t to)
{
    requireGroup(groups, from, "group");
    if (to >= groups.size())
        throw StrategyError("position " + std::to_string(to + 1) + " is out of range: the strategy has "
            + std::to_string(groups.size()) + (groups.size() == 1 ? " group" : " groups"));
    if (from == to)
        throw StrategyError(groupName(from) + " is already at that place");
    Groups out = groups;
    Group moved = std::move(out[from]);
    out.erase(out.begin() + std::ptrdiff_t(from));
    out.insert(out.begin() + std::ptrdiff_t(to), std::move(moved));
    return out;
}

Groups splitGroup(const Groups &groups, std::size_t group, const PatchList &patchesToSplitOff)
{
    const std::unordered_set<PatchId> set = selection(patchesToSplitOff);
    requireGroup(groups, group, "group");
    const Group &source = groups[group];
    const std::unordered_set<PatchId> inSource(source.begin(), source.end());
    for (PatchId p : patchesToSplitOff)
        if (!inSource.count(p))
            throw StrategyError(
                "patch " + std::to_string(p) + " is not in " + groupName(group) + ", so it cannot be split off it");
    if (set.size() >= inSource.size())
        throw StrategyError("splitting off every patch of " + groupName(group) + " would leave it empty");
    Group kept, split;
    for (PatchId p : source)
        (set.count(p) ? split : kept).push_back(p);
    Groups out = groups;
    out[group] = std::move(kept);
    out.insert(out.begin() + std::ptrdiff_t(group) + 1, std::move(split));
    return out;
}

Groups mergeGroups(const Groups &groups, std::size_t a, std::size_t b)
{
    requireGroup(groups, a, "group");
    requireGroup(groups, b, "group");
    if (a == b)
        throw StrategyError("cannot merge " + groupName(a) + " with itself");
    Groups out = groups;
    out[a].insert(out[a].end(), groups[b].begin(), groups[b].end());
    out.erase(out.begin() + std::ptrdiff_t(b));
    return out;
}

Groups unassign(const Groups &groups, const PatchList &patches)
{
    const std::unordered_set<PatchId> set = selection(patches);
    std::vector<std::ptrdiff_t> newIndex;
    Groups out = removeFromGroups(groups, set, newIndex);
    if (out == groups)
        throw StrategyError(patchCount(patches.size()) + (patches.size() == 1 ? " is" : " are") + " not in any group already");
    return out;
}

std::vector<PixelId> receptiveField(const Problem &problem, const PatchList &patches)
{
    std::vector<PixelId> pixels;
    pixels.reserve(patches.size() * std::size_t(problem.layer.h_k) * std::size_t(problem.layer.w_k));
    for (PatchId p : patches)
        forEachPatchPixel(problem.layer, problem.options.padding_in_dram, p, [&](PixelId px) { pixels.push_back(px); });
    std::sort(pixels.begin(), pixels.end());
    pixels.erase(std::unique(pixels.begin(), pixels.end()), pixels.end());
    return pixels;
}

FieldPreview previewJoin(const Problem &problem, const PatchList &target, const PatchList &dragged)
{
    FieldPreview preview;
    preview.kept = receptiveField(problem, target);
    const std::vector<PixelId> all = receptiveField(problem, dragged);
    std::set_difference(all.begin(), all.end(), preview.kept.begin(), preview.kept.end(), std::back_inserter(preview.added));
    return preview;
}

std::vector<std::size_t> FindingPlaces::ofPatch(PatchId patch) const
{
    std::vector<std::size_t> out;
    const auto first = std::lower_bound(patches.begin(), patches.end(), std::pair<PatchId, std::size_t>(patch, 0));
    for (auto it = first; it != patches.end() && it->first == patch; ++it)
        out.push_back(it->second);
    return out;
}

std::vector<PatchId> FindingPlaces::flaggedPatches() const
{
    std::vector<PatchId> out;
    for (const auto &[patch, finding] : patches)
        if (out.empty() || out.back() != patch)
            out.push_back(patch);
    return out;
}

FindingPlaces locateFindings(const Problem &problem, const Groups &groups, const std::vector<Diagnostic> &diagnostics)
{
    const Layer &layer = problem.layer;
    const auto patchCount = std::max<std::int64_t>(layer.patchCount(), 0);
    const auto known = [&](PatchId p) { return std::int64_t(p) < patchCount; };
    FindingPlaces places;
    places.groups.resize(groups.size());
    std::optional<std::size_t> neverComputed;
    for (std::size_t d = 0; d < diagnostics.size(); ++d) {
        const Diagnostic &finding = diagnostics[d];
        const bool inGroup = finding.step >= 1 && std::size_t(finding.step) <= groups.size();
        const std::size_t group = inGroup ? std::size_t(finding.step - 1) : 0;
        (inGroup ? places.groups[group] : places.strategy).push_back(d);
        if (finding.rule == Rule::OutputNotWritten && !neverComputed)
            neverComputed = d;
        switch (finding.element_kind) {
        case ElementKind::Output:
        case ElementKind::Patch: {
            const PatchId patch
                = finding.element_kind == ElementKind::Patch ? finding.element_id : patchOfOutput(layer, finding.element_id);
            if (known(patch))
                places.patches.emplace_back(patch, d);
            break;
        }
        case ElementKind::Pixel:
            if (inGroup)
                for (PatchId p : groups[group]) {
                    bool reads = false;
                    forEachPatchPixel(layer, true, p, [&](PixelId px) { reads = reads || px == finding.element_id; });
                    if (reads && known(p))
                        places.patches.emplace_back(p, d);
                }
            break;
        case ElementKind::Kernel:
        case ElementKind::None:
            if (inGroup)
                for (PatchId p : groups[group])
                    if (known(p))
                        places.patches.emplace_back(p, d);
            break;
        }
    }
    if (neverComputed)
        for (PatchId p : unassignedPatches(layer, groups))
            places.patches.emplace_back(p, *neverComputed);
    std::sort(places.patches.begin(), places.patches.end());
    places.patches.erase(std::unique(places.patches.begin(), places.patches.end()), places.patches.end());
    return places;
}

Groups editableGroups(const Problem &problem, const StrategySpec &spec)
{
    if (spec.kind == StrategyKind::Groups)
        return spec.groups; // as they are: an empty or partial strategy is what the user is editing
    return groupsOf(problem, spec);
}

} // namespace convoffload
