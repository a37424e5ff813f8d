// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The symmetries of an instance among the eight of the square (flips,
// rotations, transposes of the output grid): patch permutations σ for which a
// pixel permutation π maps every patch's pixels onto σ's patch's pixels, so
// that applying σ to an ordered partition keeps its loads, its memory and its
// reload counts. Each candidate is checked patch by patch against the
// instance (padding, stride and rectangular grids may break some), so only
// true symmetries are returned. The dynamic programming of S1InstanceBound
// keeps a first group only when no symmetry maps it to a smaller bitmask.
// Private to the core (no installed header).
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <vector>

namespace convoffload {

/// Every non-identity symmetry, as σ[patch]; empty when there is none.
std::vector<std::vector<PatchId>> patchSymmetries(const S1Instance &instance);

/// σ applied to a bitmask of patch ids (one word, or two for up to 128 patches).
template <class Mask> Mask mapPatchMask(const std::vector<PatchId> &sigma, Mask patches)
{
    Mask image = 0;
    for (std::size_t p = 0; p < sigma.size(); ++p)
        if (((patches >> p) & 1) != 0)
            image |= Mask(1) << sigma[p];
    return image;
}

} // namespace convoffload
