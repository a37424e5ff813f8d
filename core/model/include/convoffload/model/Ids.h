// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Identifiers of the model's elements and how they map to coordinates.
// Pixel ids are row-major over the padded input, patch ids row-major over the
// output grid, output ids = patch * N + kernel.

#include "convoffload/model/Problem.h"

#include <cstdint>
#include <string>

namespace convoffload {

using PixelId = std::uint32_t;
using KernelId = std::uint32_t;
using PatchId = std::uint32_t;
using OutputId = std::uint32_t;

struct Grid {
    int row = 0, col = 0;
};

inline Grid pixelPosition(const Layer &l, PixelId p) { return {int(p / l.paddedWidth()), int(p % l.paddedWidth())}; }
inline PixelId pixelId(const Layer &l, int row, int col) { return PixelId(row) * l.paddedWidth() + col; }
inline Grid patchPosition(const Layer &l, PatchId p) { return {int(p / l.wOut()), int(p % l.wOut())}; }
inline PatchId patchId(const Layer &l, int row, int col) { return PatchId(row) * l.wOut() + col; }
inline OutputId outputId(const Layer &l, PatchId patch, KernelId kernel) { return patch * OutputId(l.n) + kernel; }
inline PatchId patchOfOutput(const Layer &l, OutputId o) { return o / OutputId(l.n); }
inline KernelId kernelOfOutput(const Layer &l, OutputId o) { return o % OutputId(l.n); }

/// Calls f(pixelId) for every pixel of the patch, row-major; padding pixels
/// are skipped when they are synthesised on chip.
template <typename F> void forEachPatchPixel(const Layer &l, bool paddingInDram, PatchId patch, F &&f)
{
    const Grid out = patchPosition(l, patch);
    const int top = out.row * l.stride_h, left = out.col * l.stride_w;
    const int width = l.paddedWidth();
    for (int r = top; r < top + l.h_k; ++r)
        for (int c = left; c < left + l.w_k; ++c)
            if (paddingInDram || !l.isPadding(r, c))
                f(PixelId(r) * width + c);
}

// Human-readable names used in every message, e.g. "pixel (3,0)",
// "output O[1](0,2)" (kernel, output row, output column), "patch 4 (1,1)".
std::string pixelName(const Layer &l, PixelId p);
std::string patchName(const Layer &l, PatchId p);
std::string outputName(const Layer &l, OutputId o);
std::string kernelName(KernelId k);

} // namespace convoffload
