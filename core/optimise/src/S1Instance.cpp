// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/S1Instance.h"

#include "convoffload/model/Arithmetic.h"
#include "convoffload/model/Ids.h"
#include "convoffload/optimise/OptimiseControl.h"
#include "convoffload/optimise/OptimiseResult.h"
#include "convoffload/optimise/SegmentBound.h"
#include "convoffload/simulate/Verdict.h"

#include <algorithm>

namespace convoffload {

namespace {

std::string firstProblem(const Problem &problem)
{
    for (const std::string &p : problem.layer.problems())
        return "layer." + p;
    for (const std::string &p : problem.hardware.problems())
        return "hardware." + p;
    return {};
}

} // namespace

S1Instance makeS1Instance(const Problem &problem, const OptimiseSettings &settings, const Deadline &deadline)
{
    if (const std::string reason = firstProblem(problem); !reason.empty())
        throw InstanceError("the problem is invalid: " + reason);
    const Layer &layer = problem.layer;
    const Hardware &hw = problem.hardware;
    const std::int64_t patchesMax = problem.nbPatchesMax();
    if (patchesMax < 1)
        throw InstanceError("nbop_pe = " + std::to_string(hw.nbop_pe) + " cannot compute one patch with every kernel ("
            + std::to_string(layer.n * layer.kernelElements()) + " MACs)");

    S1Instance in;
    in.layer = layer;
    in.patches = layer.patchCount();
    in.pixels = layer.pixelCount();
    in.group_size = settings.group_size.value_or(patchesMax);
    if (in.group_size < 1)
        throw InstanceError("group size must be at least 1, got " + std::to_string(in.group_size));
    if (in.group_size > patchesMax)
        throw InstanceError("group size " + std::to_string(in.group_size)
            + " exceeds nb_patches_max = " + std::to_string(patchesMax) + " (nbop_pe / (C_in·H_K·W_K·N))");
    in.min_groups = ceilDiv(in.patches, in.group_size);
    in.group_count = settings.group_count;
    if (settings.group_count == GroupCount::ExactlyKMin) {
        in.max_groups = in.min_groups;
    } else {
        in.max_groups = settings.max_groups == 0 ? in.patches : settings.max_groups;
        if (in.max_groups < in.min_groups)
            throw InstanceError(
                "the cap of " + std::to_string(in.max_groups) + " groups is below K_min = " + std::to_string(in.min_groups));
    }

    in.mem_size = hw.mem_size;
    in.elements_per_pixel = layer.c_in;
    in.elements_per_patch = layer.n;
    in.fixed_elements = std::int64_t(layer.n) * layer.kernelElements();
    in.max_loads_per_pixel = hw.max_loads_per_element;
    in.cost_per_pixel_load = hw.t_l * double(layer.c_in);
    in.cost_per_group = hw.t_acc;
    in.constant_cost
        = (problem.options.kernels_preloaded ? 0.0 : hw.t_l * double(in.fixed_elements)) + hw.t_w * double(layer.outputCount());

    // Reserved, not resized: a run stopped by its deadline has built (and
    // frees) only the patches it reached, not 16 M empty vectors.
    in.patch_pixels.reserve(std::size_t(in.patches));
    std::vector<char> needed(std::size_t(in.pixels), 0);
    constexpr PatchId kPatchesBetweenClockLooks = 4096;
    for (PatchId p = 0; p < PatchId(in.patches); ++p) {
        if (p % kPatchesBetweenClockLooks == 0)
            deadline.check("setting up the instance (the pixels of each patch)");
        std::vector<PixelId> &pixels = in.patch_pixels.emplace_back();
        forEachPatchPixel(layer, problem.options.padding_in_dram, p, [&](PixelId px) {
            pixels.push_back(px);
            needed[px] = 1;
        });
        std::sort(pixels.begin(), pixels.end());
    }
    for (PixelId px = 0; px < PixelId(in.pixels); ++px)
        if (needed[px])
            in.needed_pixels.push_back(px);

    std::size_t widest = 0;
    for (const auto &pixels : in.patch_pixels)
        widest = std::max(widest, pixels.size());
    if (!in.fitsMemory(std::int64_t(widest), 1))
        throw InstanceError("mem_size = " + std::to_string(in.mem_size) + " cannot hold one patch ("
            + std::to_string(std::int64_t(widest) * in.elements_per_pixel) + " input elements), its "
            + std::to_string(in.elements_per_patch) + " outputs and every kernel (" + std::to_string(in.fixed_elements)
            + " elements)");
    return in;
}

S1Evaluation evaluate(const S1Instance &in, const Groups &groups)
{
    S1Evaluation ev;
    ev.groups = std::int64_t(groups.size());
    auto fail = [&ev](std::string reason) {
        if (ev.rule_violation.empty())
            ev.rule_violation = reason;
        if (ev.violation.empty())
            ev.violation = std::move(reason);
    };

    std::vector<std::int64_t> groupOfPatch(std::size_t(in.patches), -1);
    for (std::size_t k = 0; k < groups.size(); ++k) {
        if (groups[k].empty())
            fail("group " + std::to_string(k + 1) + " is empty");
        if (std::int64_t(groups[k].size()) > in.group_size)
            fail("group " + std::to_string(k + 1) + " has " + std::to_string(groups[k].size())
                + " patches, more than G = " + std::to_string(in.group_size));
        for (PatchId p : groups[k]) {
            if (std::int64_t(p) >= in.patches) {
                fail("group " + std::to_string(k + 1) + " names patch " + std::to_string(p) + ", but the layer has "
                    + std::to_string(in.patches) + " patches");
                continue;
            }
            if (groupOfPatch[p] >= 0)
                fail(patchName(in.layer, p) + " is in group " + std::to_string(groupOfPatch[p] + 1) + " and in group "
                    + std::to_string(k + 1));
            else
                groupOfPatch[p] = std::int64_t(k);
        }
    }
    for (PatchId p = 0; p < PatchId(in.patches); ++p)
        if (groupOfPatch[p] < 0) {
            fail(patchName(in.layer, p) + " is in no group");
            break;
        }
    if (in.group_count == GroupCount::ExactlyKMin && ev.groups != in.min_groups)
        fail(std::to_string(ev.groups) + " groups, but the problem asks for exactly K_min = " + std::to_string(in.min_groups));
    else if (ev.groups > in.max_groups)
        fail(std::to_string(ev.groups) + " groups, more than the cap of " + std::to_string(in.max_groups));

    // lastGroup[px]: the last group whose union holds px, so a pixel of the
    // previous group's union is kept and any other is loaded.
    std::vector<std::int64_t> lastGroup(std::size_t(in.pixels), -2);
    std::vector<int> loads(std::size_t(in.pixels), 0);
    TransferTally transferLoads, transferWrites, firstLoad;
    std::vector<std::int64_t> items; // a step's loaded pixels, or a group's patches (transfer model)
    // Kernels-outer under a transfer model also walks the groups backwards:
    // each group's union, to price what the group after it does not hold.
    const bool backward = in.transfer && in.transfer->needsBackward();
    std::vector<std::vector<PixelId>> unions(backward ? groups.size() : 0);
    for (std::size_t k = 0; k < groups.size(); ++k) {
        items.clear();
        const std::int64_t gk = std::int64_t(k);
        std::int64_t unionSize = 0;
        for (PatchId p : groups[k]) {
            if (std::int64_t(p) >= in.patches)
                continue;
            for (PixelId px : in.patch_pixels[p]) {
                if (lastGroup[px] == gk)
                    continue;
                ++unionSize;
                if (backward)
                    unions[k].push_back(px);
                if (lastGroup[px] != gk - 1) {
                    ++ev.loaded_pixels;
                    if (in.transfer)
                        items.push_back(in.transfer->storedIndex(px));
                    if (++loads[px] == in.max_loads_per_pixel + 1) {
                        ++ev.reload_pixels;
                        if (ev.violation.empty())
                            ev.violation = pixelName(in.layer, px) + " is loaded " + std::to_string(loads[px]) + " times (group "
                                + std::to_string(k + 1) + "), more than the reload bound of "
                                + std::to_string(in.max_loads_per_pixel);
                    }
                }
                lastGroup[px] = gk;
            }
        }
        if (!in.fitsMemory(unionSize, std::int64_t(groups[k].size())))
            fail("group " + std::to_string(k + 1) + " needs "
                + std::to_string(unionSize * in.elements_per_pixel + std::int64_t(groups[k].size()) * in.elements_per_patch
                    + in.fixed_elements)
                + " elements on chip, more than mem_size = " + std::to_string(in.mem_size));
        if (in.transfer) {
            std::sort(items.begin(), items.end());
            const TransferTally load = in.transfer->input(items);
            transferLoads += load;
            if (k == 0)
                firstLoad = load;
            items.clear();
            for (PatchId p : groups[k])
                if (std::int64_t(p) < in.patches)
                    items.push_back(std::int64_t(p));
            std::sort(items.begin(), items.end());
            transferWrites += in.transfer->outputs(items);
        }
    }
    TransferTally backwardLoads, lastLoad;
    if (backward) {
        std::vector<char> inNext(std::size_t(in.pixels), 0); // the union of the group after k
        for (std::size_t k = groups.size(); k-- > 0;) {
            items.clear();
            for (PixelId px : unions[k])
                if (!inNext[px])
                    items.push_back(in.transfer->storedIndex(px));
            std::sort(items.begin(), items.end());
            const TransferTally load = in.transfer->input(items);
            backwardLoads += load;
            if (k + 1 == groups.size())
                lastLoad = load;
            if (k + 1 < groups.size())
                for (PixelId px : unions[k + 1])
                    inNext[px] = 0;
            for (PixelId px : unions[k])
                inNext[px] = 1;
        }
    }
    ev.duration = in.transfer ? in.cost_per_group * double(ev.groups)
            + in.transfer->duration(
                in.transfer->loads(transferLoads, backwardLoads, firstLoad, lastLoad), transferWrites, ev.groups)
                              : in.duration(ev.loaded_pixels, ev.groups);
    ev.feasible = ev.violation.empty();
    return ev;
}

std::string evaluationVerdict(const S1Evaluation &ev)
{
    if (!ev.rule_violation.empty())
        return "breaks the problem: " + ev.rule_violation;
    if (ev.reload_pixels > 0)
        return "runs correctly, " + reloadAssumptionText(ev.reload_pixels, 0);
    return {};
}

double lowerBound(const S1Instance &in)
{
    const std::int64_t pixels = std::int64_t(in.needed_pixels.size());
    return in.duration(std::max(pixels, segmentLoadBound(in).value_or(0)), in.min_groups);
}

std::vector<NamedGroups> heuristicCandidates(const S1Instance &in, const Deadline &deadline)
{
    std::vector<NamedGroups> out;
    for (const bool zigzagOrder : {false, true}) {
        deadline.check("evaluating the heuristics");
        Groups groups = zigzagOrder ? zigzag(in.layer, in.group_size) : rowByRow(in.layer, in.group_size);
        S1Evaluation ev = evaluate(in, groups);
        out.push_back({zigzagOrder ? "ZigZag" : "Row-by-Row", std::move(groups), std::move(ev)});
    }
    return out;
}

std::optional<NamedGroups> bestFeasible(const std::vector<NamedGroups> &candidates)
{
    std::optional<NamedGroups> best;
    for (const NamedGroups &c : candidates)
        if (c.evaluation.feasible && (!best || c.evaluation.duration < best->evaluation.duration))
            best = c;
    return best;
}

std::optional<NamedGroups> bestFeasibleHeuristic(const S1Instance &in) { return bestFeasible(heuristicCandidates(in)); }

} // namespace convoffload
