// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/TransferRuns.h"

#include "TransferCounter.h"

#include <algorithm>

namespace convoffload {

StoredInput storedInput(const Problem &problem)
{
    const Layer &l = problem.layer;
    if (problem.options.padding_in_dram)
        return {l.paddedHeight(), l.paddedWidth(), 0, 0};
    return {l.h_in, l.w_in, l.pad_top, l.pad_left};
}

std::int64_t InputLoadRuns::blocks() const
{
    std::int64_t n = 0;
    for (const TransferRun &r : runs)
        n += r.blocks;
    return n;
}

InputLoadRuns inputLoadRuns(const Problem &problem, std::span<const SliceId> listed)
{
    InputLoadRuns out;
    const Layer &l = problem.layer;
    if (!problem.hardware.transfer || l.c_in < 1 || l.group < 1 || l.h_in < 1 || l.w_in < 1)
        return out; // no transfer model, or no layer to hold addresses
    const bool padded = problem.options.padding_in_dram;
    std::vector<SliceId> slices;
    slices.reserve(listed.size());
    for (const SliceId s : listed) {
        if (std::int64_t(s) >= l.sliceCount())
            continue;
        const Grid g = pixelPosition(l, pixelOfSlice(l, s));
        if (padded || !l.isPadding(g.row, g.col))
            slices.push_back(s);
    }
    if (!std::is_sorted(slices.begin(), slices.end()))
        std::sort(slices.begin(), slices.end()); // as the simulator does for a hand-made step

    detail::TransferCounter counter(l, padded, *problem.hardware.transfer);
    const StoredInput stored = storedInput(problem);
    const std::int64_t plane = std::int64_t(stored.rows) * stored.cols;
    const bool nhwc = problem.hardware.transfer->layout == Layout::Nhwc;
    for (const auto &[first, last] : counter.inputRuns(slices)) {
        const std::size_t run = out.runs.size();
        out.runs.push_back({first, last, counter.blocks(first, last)});
        if (nhwc) {
            out.pixels.push_back({run, -1, first / l.c_in, last / l.c_in});
            continue;
        }
        const std::int64_t c0 = first / plane, c1 = last / plane;
        for (std::int64_t c = c0; c <= c1; ++c)
            out.pixels.push_back({run, int(c), c == c0 ? first % plane : 0, c == c1 ? last % plane : plane - 1});
    }
    return out;
}

} // namespace convoffload
