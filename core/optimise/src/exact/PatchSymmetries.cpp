// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "PatchSymmetries.h"

#include "convoffload/model/Ids.h"

#include <algorithm>
#include <bit>

namespace convoffload {

namespace {

/// One of the eight maps of a rows × cols grid onto itself (or onto its
/// transpose, which must then have the same shape).
Grid apply(int map, Grid g, int rows, int cols)
{
    const int r = g.row, c = g.col;
    switch (map) {
    case 1:
        return {r, cols - 1 - c}; // mirror left-right
    case 2:
        return {rows - 1 - r, c}; // mirror top-bottom
    case 3:
        return {rows - 1 - r, cols - 1 - c}; // half turn
    case 4:
        return {c, r}; // transpose
    case 5:
        return {cols - 1 - c, rows - 1 - r}; // anti-transpose
    case 6:
        return {c, rows - 1 - r}; // quarter turn
    case 7:
        return {cols - 1 - c, r}; // three-quarter turn
    default:
        return g;
    }
}

} // namespace

std::vector<std::vector<PatchId>> patchSymmetries(const S1Instance &in)
{
    const Layer &l = in.layer;
    const int outRows = l.hOut(), outCols = l.wOut();
    const int pxRows = l.paddedHeight(), pxCols = l.paddedWidth();
    if (std::int64_t(outRows) * outCols != in.patches || std::int64_t(pxRows) * pxCols != in.pixels)
        return {};
    std::vector<std::vector<PatchId>> found;
    for (int map = 1; map < 8; ++map) {
        if (map >= 4 && (outRows != outCols || pxRows != pxCols))
            continue; // a transpose or quarter turn needs square grids
        std::vector<PatchId> sigma(std::size_t(in.patches));
        bool symmetric = true;
        for (PatchId p = 0; p < PatchId(in.patches) && symmetric; ++p) {
            const Grid to = apply(map, patchPosition(l, p), outRows, outCols);
            sigma[p] = patchId(l, to.row, to.col);
            std::vector<PixelId> image;
            for (const PixelId px : in.patch_pixels[p]) {
                const Grid g = apply(map, pixelPosition(l, px), pxRows, pxCols);
                image.push_back(pixelId(l, g.row, g.col));
            }
            std::sort(image.begin(), image.end());
            symmetric = image == in.patch_pixels[sigma[p]];
        }
        if (symmetric)
            found.push_back(std::move(sigma));
    }
    return found;
}

} // namespace convoffload
