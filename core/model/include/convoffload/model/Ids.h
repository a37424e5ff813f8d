// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Identifiers of the model's elements and how they map to coordinates.
// Pixel ids are row-major over the padded input, patch ids row-major over the
// output grid, output ids = patch * N + kernel. Input memory is held per
// slice (pixel, group), slice id = pixel * g + group: with g = 1 a slice id is
// its pixel id (docs/reference/model.md#grouped-and-dilated).

#include "convoffload/model/Problem.h"

#include <cstdint>
#include <string>

namespace convoffload {

using PixelId = std::uint32_t;
using KernelId = std::uint32_t;
using PatchId = std::uint32_t;
using OutputId = std::uint32_t;
using SliceId = std::uint32_t;

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
inline SliceId sliceId(const Layer &l, PixelId p, int group) { return p * SliceId(l.group) + SliceId(group); }
inline PixelId pixelOfSlice(const Layer &l, SliceId s) { return s / SliceId(l.group); }
inline int groupOfSlice(const Layer &l, SliceId s) { return int(s % SliceId(l.group)); }

/// Calls f(pixelId) for every pixel of the patch, row-major (the kernel's
/// positions, spaced by the dilation); padding pixels are skipped when they
/// are synthesised on chip.
template <typename F> void forEachPatchPixel(const Layer &l, bool paddingInDram, PatchId patch, F &&f)
{
    const Grid out = patchPosition(l, patch);
    const int top = out.row * l.stride_h, left = out.col * l.stride_w;
    const int width = l.paddedWidth();
    const int bottom = top + l.spanH(), right = left + l.spanW();
    for (int r = top; r < bottom; r += l.dilation_h)
        for (int c = left; c < right; c += l.dilation_w)
            if (paddingInDram || !l.isPadding(r, c))
                f(PixelId(r) * width + c);
}

// Human-readable names used in every message, e.g. "pixel (3,0)",
// "output O[1](0,2)" (kernel, output row, output column), "patch 4 (1,1)".
std::string pixelName(const Layer &l, PixelId p);
/// "pixel (3,0)" with g = 1, "pixel (3,0) group 2" otherwise.
std::string sliceName(const Layer &l, SliceId s);
std::string patchName(const Layer &l, PatchId p);
std::string outputName(const Layer &l, OutputId o);
std::string kernelName(KernelId k);

} // namespace convoffload
