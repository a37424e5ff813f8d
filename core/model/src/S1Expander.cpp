// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/S1Expander.h"

#include "WriteScheduler.h"

#include "convoffload/model/S1Strategy.h"

#include <algorithm>

namespace convoffload {

S1Expander::S1Expander(const Problem &problem, std::size_t count, std::function<std::span<const PatchId>(std::size_t)> group)
    : m_problem(problem)
    , m_count(count)
    , m_group(std::move(group))
    , m_mark(std::size_t(problem.layer.pixelCount()), 0)
    , m_writes(std::make_unique<detail::WriteScheduler>(problem))
{
}

S1Expander::~S1Expander() = default;

std::size_t S1Expander::idBound() const
{
    const Layer &layer = m_problem.layer;
    std::size_t patches = 0;
    for (std::size_t g = 0; g < m_count; ++g)
        patches += m_group(g).size();
    const std::size_t visits = patches * std::size_t(layer.h_k) * std::size_t(layer.w_k) * std::size_t(layer.group);
    return 2 * visits + 2 * patches * std::size_t(layer.n) + 2 * std::size_t(layer.n);
}

bool S1Expander::next(Step &step)
{
    step = Step{};
    if (m_next < m_count)
        expandGroup(m_next, step);
    else if (m_next == m_count)
        drain(step);
    else
        return false;
    ++m_next;
    return true;
}

void S1Expander::expandGroup(std::size_t g, Step &step)
{
    const Layer &layer = m_problem.layer;
    const bool paddingInDram = m_problem.options.padding_in_dram;
    const std::int64_t kernelFootprint = layer.kernelElements() * layer.n;
    const std::int64_t patchArea = std::int64_t(layer.h_k) * layer.w_k;
    const std::span<const PatchId> group = m_group(g);
    if (group.empty())
        throw StrategyError("group " + std::to_string(g) + " is empty");
    const std::uint32_t here = std::uint32_t(g + 2), in = here << 1;

    // The pixels' bounding box: when the group is compact (a run of a row, a
    // zigzag turn), U(g) and I_slice come out ascending by scanning it, with
    // no sort; a scattered group is sorted instead.
    int top = layer.paddedHeight(), bottom = -1, left = layer.paddedWidth(), right = -1;
    for (PatchId patch : group) {
        const Grid o = patchPosition(layer, patch);
        top = std::min(top, o.row * layer.stride_h);
        bottom = std::max(bottom, o.row * layer.stride_h + layer.spanH() - 1);
        left = std::min(left, o.col * layer.stride_w);
        right = std::max(right, o.col * layer.stride_w + layer.spanW() - 1);
    }
    const std::int64_t box = std::int64_t(bottom - top + 1) * (right - left + 1);
    const bool scanBox = box <= 2 * patchArea * std::int64_t(group.size());

    m_current.clear();
    for (PatchId patch : group)
        forEachPatchPixel(layer, paddingInDram, patch, [&](PixelId p) {
            const std::uint32_t was = m_mark[p] >> 1;
            if (was == here)
                return;
            m_mark[p] = in | (was == here - 1 ? 0u : 1u);
            if (!scanBox)
                m_current.push_back(p);
        });
    if (scanBox) {
        for (int r = top; r <= bottom; ++r)
            for (int c = left; c <= right; ++c) {
                const PixelId p = pixelId(layer, r, c);
                if (m_mark[p] >> 1 == here)
                    m_current.push_back(p);
            }
    } else {
        std::sort(m_current.begin(), m_current.end());
    }
    // A group needs every slice of its pixels (all kernels are on chip):
    // slice ids p·g .. p·g + g − 1, ascending as the pixels are.
    const auto slices = [&](std::vector<SliceId> &into, PixelId p) {
        for (int group = 0; group < layer.group; ++group)
            into.push_back(sliceId(layer, p, group));
    };
    for (PixelId p : m_current)
        if (m_mark[p] & 1u)
            slices(step.load_input, p);
    for (PixelId p : m_previous) // ascending, so F_inp is too
        if (m_mark[p] >> 1 != here)
            slices(step.free_input, p);
    if (g == 0)
        for (int k = 0; k < layer.n; ++k)
            step.load_kernels.push_back(KernelId(k));

    // Out in ascending ids: patches ascending (zigzag's odd rows come
    // reversed), every kernel of a patch, a patch named twice twice.
    std::span<const PatchId> patches = group;
    if (!std::is_sorted(group.begin(), group.end())) {
        m_sorted.assign(group.begin(), group.end());
        std::sort(m_sorted.begin(), m_sorted.end());
        patches = m_sorted;
    }
    step.compute.reserve(group.size() * std::size_t(layer.n));
    for (std::size_t i = 0; i < patches.size();) {
        std::size_t j = i;
        while (j < patches.size() && patches[j] == patches[i])
            ++j;
        for (int k = 0; k < layer.n; ++k)
            for (std::size_t repeat = i; repeat < j; ++repeat)
                step.compute.push_back(outputId(layer, patches[i], KernelId(k)));
        i = j;
    }

    step.write = m_writes->writesBefore(std::int64_t(m_current.size()) * layer.c_in + kernelFootprint, step.compute);
    detail::sortIds(step.write);
    m_writes->computed(step.compute);
    std::swap(m_previous, m_current);
}

void S1Expander::drain(Step &step)
{
    step.write = m_writes->rest();
    std::sort(step.write.begin(), step.write.end());
    for (PixelId p : m_previous) // ascending
        for (int group = 0; group < m_problem.layer.group; ++group)
            step.free_input.push_back(sliceId(m_problem.layer, p, group));
    if (m_count > 0)
        for (int k = 0; k < m_problem.layer.n; ++k)
            step.free_kernels.push_back(KernelId(k));
}

} // namespace convoffload
