// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sets of patches as bit masks, shared by the exact searches (the dynamic
// programming of PartitionDp.h, the load-once proof): one 64-bit word up to
// 64 patches, the compiler's 128-bit integers (which have every operation a
// bit set needs) up to 128. Private to the core.
//
// PartitionDp.h is compiled twice, with and without the POPCNT instruction,
// so everything here has internal linkage (an unnamed namespace) and uses the
// compiler's builtins: the two copies can never be mixed up by the linker.
#include "convoffload/model/S1Strategy.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace convoffload {
namespace {

__extension__ typedef unsigned __int128 Mask128;

inline int bitCount(std::uint64_t m) { return __builtin_popcountll(m); }
inline int bitCount(Mask128 m) { return __builtin_popcountll(std::uint64_t(m)) + __builtin_popcountll(std::uint64_t(m >> 64)); }
inline int lowestBit(std::uint64_t m) { return __builtin_ctzll(m); }
inline int lowestBit(Mask128 m)
{
    const std::uint64_t low = std::uint64_t(m);
    return low != 0 ? __builtin_ctzll(low) : 64 + __builtin_ctzll(std::uint64_t(m >> 64));
}

/// A 64-bit hash of a mask (not yet mixed: callers fold it as they need).
inline std::uint64_t maskWord(std::uint64_t m) { return m; }
inline std::uint64_t maskWord(Mask128 m) { return std::uint64_t(m) ^ (std::uint64_t(m >> 64) * 0x9E3779B97F4A7C15ull); }

/// The patches of a mask, lowest first.
template <class Mask> Group patchesOf(Mask mask)
{
    Group group;
    for (Mask rest = mask; rest != 0; rest &= rest - 1)
        group.push_back(PatchId(lowestBit(rest)));
    return group;
}

/// A permutation of patch ids applied to masks, a byte at a time through
/// tables (the dynamic programming maps every state it reaches).
template <class Mask> class MaskMap {
    static constexpr std::size_t kBytes = sizeof(Mask);

public:
    explicit MaskMap(const std::vector<PatchId> &sigma)
        : m_table(kBytes * 256, Mask(0))
    {
        for (std::size_t byte = 0; byte < kBytes; ++byte)
            for (std::size_t value = 0; value < 256; ++value) {
                Mask image = 0;
                for (std::size_t bit = 0; bit < 8; ++bit) {
                    const std::size_t patch = byte * 8 + bit;
                    if ((value >> bit & 1) != 0 && patch < sigma.size())
                        image |= Mask(1) << sigma[patch];
                }
                m_table[byte * 256 + value] = image;
            }
    }
    Mask operator()(Mask mask) const
    {
        Mask image = 0;
        for (std::size_t byte = 0; byte < kBytes && mask != 0; ++byte, mask >>= 8)
            image |= m_table[byte * 256 + std::size_t(mask & 0xFF)];
        return image;
    }

private:
    std::vector<Mask> m_table; // [byte][value]
};

} // namespace
} // namespace convoffload
