// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/S1TransferCost.h"

#include "convoffload/model/Ids.h"

#include <map>

namespace convoffload {

std::optional<S1TransferCost> S1TransferCost::make(const Problem &problem)
{
    const Hardware &hw = problem.hardware;
    if (!hw.transfer || hw.transfer->isLinear() || problem.options.write_policy != WritePolicy::NextStep)
        return std::nullopt;
    const Layer &layer = problem.layer;
    const bool padded = problem.options.padding_in_dram;
    const bool nhwc = hw.transfer->layout == Layout::Nhwc;
    S1TransferCost cost;
    cost.m_burst = hw.transfer->burst;
    cost.m_setup = hw.transfer->t_setup;
    cost.m_tl = hw.t_l;
    cost.m_tw = hw.t_w;
    // The kernels are one tensor loaded whole at the first step: one run.
    const std::int64_t kernelElements = std::int64_t(layer.n) * layer.kernelElements();
    if (!problem.options.kernels_preloaded && kernelElements > 0)
        cost.m_kernels = cost.m_setup + double((kernelElements - 1) / cost.m_burst + 1) * double(cost.m_burst) * cost.m_tl;

    const std::int64_t width = padded ? layer.paddedWidth() : layer.w_in;
    const std::int64_t height = padded ? layer.paddedHeight() : layer.h_in;
    cost.m_stored.assign(std::size_t(layer.pixelCount()), -1);
    for (PixelId px = 0; px < PixelId(layer.pixelCount()); ++px) {
        if (padded) {
            cost.m_stored[px] = px;
            continue;
        }
        const Grid g = pixelPosition(layer, px);
        const std::int64_t y = g.row - layer.pad_top, x = g.col - layer.pad_left;
        if (y >= 0 && y < height && x >= 0 && x < width)
            cost.m_stored[px] = y * width + x;
    }
    const std::int64_t plane = height * width, patches = layer.patchCount();
    cost.m_input = nhwc ? cost.lanes(1, plane, layer.c_in) : cost.lanes(layer.c_in, plane, 1);
    cost.m_outputs = {nhwc ? cost.lanes(1, patches, layer.n) : cost.lanes(layer.n, patches, 1)};
    return cost;
}

std::optional<S1TransferCost> S1TransferCost::makeKernelBlocked(const Problem &problem, KernelLoop loop, std::int64_t kernelBlock)
{
    std::optional<S1TransferCost> made = make(problem);
    const Layer &layer = problem.layer;
    if (!made || layer.isGrouped() || kernelBlock < 1 || kernelBlock > layer.n)
        return std::nullopt;
    S1TransferCost &cost = *made;
    cost.m_loop = loop == KernelLoop::KernelsOuter ? Loop::KernelsOuter : Loop::PatchesOuter;
    const bool nhwc = problem.hardware.transfer->layout == Layout::Nhwc;
    const std::int64_t n = layer.n, patches = layer.patchCount(), size = layer.kernelElements();
    const std::int64_t blocks = (n + kernelBlock - 1) / kernelBlock;
    cost.m_passes = loop == KernelLoop::KernelsOuter ? blocks : 1;
    // Block j: kernels [j·B, j·B + B_j). Its outputs of a group: B_j lanes
    // of patches under nchw; under nhwc B_j adjacent addresses of each
    // patch's N, apart unless the block is every kernel.
    cost.m_outputs.clear();
    std::vector<double> kernelLoads;
    for (std::int64_t first = 0; first < n; first += kernelBlock) {
        const std::int64_t count = std::min(kernelBlock, n - first);
        if (!nhwc) {
            cost.m_outputs.push_back(cost.lanes(count, patches, 1, first));
        } else if (count == n) {
            cost.m_outputs.push_back(cost.lanes(1, patches, n));
        } else {
            Lanes strided = cost.lanes(1, patches, count);
            strided.pitch = n;
            strided.offset = first;
            cost.m_outputs.push_back(std::move(strided));
        }
        // One run: the block's kernels lie together.
        kernelLoads.push_back(problem.options.kernels_preloaded ? 0.0
                                                                : cost.m_setup
                    + double(cost.blocks(0, first * size, (first + count) * size - 1)) * double(cost.m_burst) * cost.m_tl);
    }
    double all = 0;
    for (const double c : kernelLoads)
        all += c;
    cost.m_kernels = all; // every block once: each pass's, or the first group's
    if (loop == KernelLoop::PatchesOuter) {
        // Group i walks the blocks forwards when i is even, backwards when
        // odd, so it starts with the block the group before ended with.
        cost.m_kernelsOdd = all - kernelLoads.back();
        cost.m_kernelsEven = all - kernelLoads.front();
    }
    return made;
}

TransferTally S1TransferCost::loads(
    const TransferTally &forward, const TransferTally &backward, const TransferTally &first, const TransferTally &last) const
{
    if (m_loop != Loop::KernelsOuter)
        return forward;
    // Passes 0, 2, ... forwards (each after the first without the first
    // group's load), passes 1, 3, ... backwards (without the last group's).
    const std::int64_t even = (m_passes + 1) / 2, odd = m_passes / 2;
    const auto sum = [&](std::int64_t TransferTally::*field) {
        return even * forward.*field - (even - 1) * first.*field + odd * (backward.*field - last.*field);
    };
    return {sum(&TransferTally::runs), sum(&TransferTally::blocks)};
}

S1TransferCost::Lanes S1TransferCost::lanes(
    std::int64_t count, std::int64_t length, std::int64_t width, std::int64_t firstLane) const
{
    Lanes l;
    l.lanes = count;
    l.length = length;
    l.width = width;
    std::map<std::int64_t, std::int64_t> all, joining;
    const std::int64_t stride = (length * width) % m_burst;
    std::int64_t residue = (firstLane % m_burst) * stride % m_burst;
    l.firstResidue = residue;
    for (std::int64_t c = 0; c < count; ++c, residue = (residue + stride) % m_burst) {
        ++all[residue];
        if (c + 1 < count)
            ++joining[residue];
        l.lastResidue = residue;
    }
    l.residues.assign(all.begin(), all.end());
    l.joinResidues.assign(joining.begin(), joining.end());
    return l;
}

TransferTally S1TransferCost::input(std::span<const std::int64_t> storedAscending) const
{
    return count(m_input, storedAscending);
}

TransferTally S1TransferCost::outputs(std::span<const std::int64_t> patchesAscending) const
{
    TransferTally t;
    for (const Lanes &part : m_outputs)
        t += count(part, patchesAscending);
    return t;
}

TransferTally S1TransferCost::count(const Lanes &l, std::span<const std::int64_t> items) const
{
    TransferTally t;
    if (items.empty())
        return t;
    const std::int64_t w = l.width;
    if (l.pitch > w) { // items apart: a run each
        for (const std::int64_t q : items) {
            ++t.runs;
            t.blocks += blocks(0, l.offset + q * l.pitch, l.offset + q * l.pitch + w - 1);
        }
        return t;
    }
    // A run of items [s, e] in every lane: lanes runs, blocks by residue.
    const auto everyLane = [&](std::int64_t s, std::int64_t e) {
        t.runs += l.lanes;
        for (const auto &[residue, lanes] : l.residues)
            t.blocks += lanes * blocks(residue, s * w, (e + 1) * w - 1);
    };
    // Lane c's last run continues lane c+1's first when the items hold both
    // ends of the lane.
    const bool joins = l.lanes > 1 && items.front() == 0 && items.back() == l.length - 1;
    std::int64_t runStart = items.front(), previous = items.front();
    std::int64_t firstEnd = -1; // where the first run ends, once closed
    for (std::size_t i = 1; i <= items.size(); ++i) {
        if (i < items.size() && items[i] == previous + 1) {
            previous = items[i];
            continue;
        }
        const bool last = i == items.size();
        if (firstEnd < 0 && !last) {
            firstEnd = previous; // the first run: priced below once the last is known
        } else if (!last) {
            everyLane(runStart, previous);
        } else if (!joins) {
            if (firstEnd >= 0)
                everyLane(items.front(), firstEnd);
            everyLane(runStart, previous);
        } else if (firstEnd < 0) {
            // One run holding every item of every lane: one run in all.
            t.runs += 1;
            t.blocks += blocks(l.firstResidue, 0, l.lanes * l.length * w - 1);
        } else {
            // Lane 0's first run and the last lane's last run stand alone;
            // the other ends join in pairs across each lane boundary.
            t.runs += 2 + (l.lanes - 1);
            t.blocks += blocks(l.firstResidue, 0, (firstEnd + 1) * w - 1);
            t.blocks += blocks(l.lastResidue, runStart * w, l.length * w - 1);
            for (const auto &[residue, lanes] : l.joinResidues)
                t.blocks += lanes * blocks(residue, runStart * w, (l.length + firstEnd + 1) * w - 1);
        }
        if (!last) {
            runStart = previous = items[i];
        }
    }
    return t;
}

} // namespace convoffload
