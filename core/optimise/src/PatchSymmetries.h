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

/// σ applied to a bitmask of patch ids (below 64).
std::uint64_t mapPatchMask(const std::vector<PatchId> &sigma, std::uint64_t patches);

} // namespace convoffload
