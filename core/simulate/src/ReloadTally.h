// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the simulate library: the paper's reload assumption tallied in
// full while a strategy runs, whatever the diagnostics cap. It keeps which
// patches are computed at a step that loads one of their pixels, or one of
// their kernels, beyond the bound. The general executor tells it every load
// (with the element's load count after it) and every patch a step computes;
// the fused pass sets the pixel half itself in its walk (patchFlags)
// and tells kernel loads and, at such a step, the computes.
// For the general executor nothing is allocated while no element goes
// beyond the bound; the fused pass takes the per-patch flags at its start.

#include "convoffload/model/Ids.h"
#include "convoffload/simulate/SimulationResult.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace convoffload::detail {

class ReloadTally {
public:
    ReloadTally(const Layer &layer, bool paddingInDram, int bound)
        : m_layer(layer)
        , m_paddingInDram(paddingInDram)
        , m_bound(std::uint32_t(std::max(bound, 0)))
    {
    }

    /// An input slice (a pixel when g = 1) loaded at `step`, `loads` times in all now.
    void pixelLoaded(int step, SliceId p, std::uint32_t loads)
    {
        if (loads <= m_bound) [[likely]]
            return;
        if (m_pixelStep.empty())
            m_pixelStep.assign(std::size_t(m_layer.sliceCount()), 0);
        m_pixelStep[p] = step;
        m_pixelsBreak = step;
    }

    /// A kernel loaded at `step`, `loads` times in all now.
    void kernelLoaded(int step, KernelId k, std::uint32_t loads)
    {
        if (loads <= m_bound) [[likely]]
            return;
        if (m_kernelStep.empty())
            m_kernelStep.assign(std::size_t(m_layer.n), 0);
        m_kernelStep[k] = step;
        m_kernelsBreak = step;
    }

    /// The most loads an element may have without breaking the assumption.
    std::uint32_t bound() const { return m_bound; }

    /// Per patch, 1 once it is computed at a step that loads one of its
    /// pixels (or kernels) beyond the bound: the fused pass sets the pixel
    /// half itself while it walks the group's pixels, without a call per
    /// patch, and tells only kernelComputed at the compute.
    std::uint8_t *patchFlags()
    {
        if (m_patchFlagged.empty())
            m_patchFlagged.assign(std::size_t(m_layer.patchCount()), 0);
        return m_patchFlagged.data();
    }

    /// `patch` computed with kernel `k` at `step`: flagged when `k` was
    /// loaded beyond the bound at that step (computed's kernel half).
    void kernelComputed(int step, PatchId patch, KernelId k)
    {
        if (m_kernelsBreak == step && m_kernelStep[k] == step)
            flag(patch);
    }

    /// True when `step` loaded a kernel beyond the bound (only then does the
    /// fused pass tell kernelComputed).
    bool kernelsBreak(int step) const { return m_kernelsBreak == step; }

    /// True when `step` loaded an element beyond the bound (only then do
    /// computes need telling).
    bool breaks(int step) const { return m_pixelsBreak == step || m_kernelsBreak == step; }

    /// `patch` computed with kernel `k` at `step`.
    void computed(int step, PatchId patch, KernelId k)
    {
        if (!breaks(step)) [[likely]]
            return;
        if (m_kernelsBreak == step && m_kernelStep[k] == step) {
            flag(patch);
            return;
        }
        if (m_pixelsBreak != step || isFlagged(patch))
            return;
        bool reads = false;
        const int group = m_layer.groupOfKernel(k);
        forEachPatchPixel(m_layer, m_paddingInDram, patch,
            [&](PixelId p) { reads = reads || m_pixelStep[sliceId(m_layer, p, group)] == step; });
        if (reads)
            flag(patch);
    }

    /// Fills result.reload from the final load counts and the flagged patches.
    void finish(SimulationResult &result)
    {
        ReloadCheck &check = result.reload;
        check.bound = int(m_bound);
        const auto beyond = [&](std::uint32_t loads) { return loads > m_bound; };
        // Pixels, as users count them: a grouped layer's pixel breaks the
        // bound when one of its g slices does.
        const std::size_t g = std::size_t(m_layer.group);
        check.pixels = 0;
        check.slices = std::count_if(result.input_load_counts.begin(), result.input_load_counts.end(), beyond);
        for (std::size_t at = 0; at + g <= result.input_load_counts.size(); at += g)
            check.pixels += std::any_of(result.input_load_counts.begin() + std::ptrdiff_t(at),
                result.input_load_counts.begin() + std::ptrdiff_t(at + g), beyond);
        check.kernels = std::count_if(result.kernel_load_counts.begin(), result.kernel_load_counts.end(), beyond);
        // Flagged patches in ascending order, read off the per-patch flags: a
        // scan, where sorting the flags in compute order cost more (ZigZag's
        // odd rows come in descending order).
        // Counted first, then gathered without a branch (a third of the
        // patches are flagged on a layer the strategy reloads a lot).
        const std::size_t flagged = std::size_t(std::count(m_patchFlagged.begin(), m_patchFlagged.end(), std::uint8_t(1)));
        check.patches.assign(flagged + 1, 0); // + 1: the gather writes one past the last flagged patch
        PatchId *out = check.patches.data();
        for (std::size_t p = 0; p < m_patchFlagged.size(); ++p) {
            *out = PatchId(p);
            out += m_patchFlagged[p];
        }
        check.patches.pop_back();
    }

private:
    // The result is the set of patches ever flagged: once in it, a patch
    // needs no second look.
    bool isFlagged(PatchId patch) const { return !m_patchFlagged.empty() && m_patchFlagged[patch]; }
    void flag(PatchId patch) { patchFlags()[patch] = 1; }

    const Layer &m_layer;
    bool m_paddingInDram;
    std::uint32_t m_bound;
    int m_pixelsBreak = 0, m_kernelsBreak = 0; // the last step that loaded a pixel / kernel beyond the bound
    std::vector<int> m_pixelStep, m_kernelStep; // per element: the last step it broke at (0 = never)
    std::vector<std::uint8_t> m_patchFlagged; // per patch: 1 once computed at a step that broke the bound
};

} // namespace convoffload::detail
