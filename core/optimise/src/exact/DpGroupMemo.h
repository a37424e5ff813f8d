// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A memo of the dynamic programming of PartitionDp.h: what is known of each
// next group, for one set of patches done. Private to the core; internal
// linkage, as PartitionDp.h (PatchMask.h says why).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace convoffload {
namespace {

/// One note per group, for the states of one set of patches done. Such
/// states differ only in their last group (4 to 5 of them per set on the
/// paper's 9×9 G = 2), and they try many of the same next groups, whose
/// pixels that the group after cannot keep (PartitionDp::notKept) and whose
/// next state depend on the patches done and the group alone. Open
/// addressing keyed by the group, in a fixed array that fits a core's
/// cache; starting a new set of patches done empties it at once (a new
/// generation). When it is three quarters full it stops taking groups, and
/// the caller does without.
template <class Note> class GroupMemo {
public:
    /// Forgets every group.
    void clear()
    {
        m_count = 0;
        if (++m_generation == 0) { // wrapped: old stamps could match again
            std::fill(m_slots.begin(), m_slots.end(), Slot{});
            m_generation = 1;
        }
    }

    /// The note kept for `group` (a default Note when new), or nullptr when full.
    Note *find(std::uint64_t group)
    {
        const std::uint64_t h = group * 0x9E3779B97F4A7C15ull;
        for (std::size_t i = std::size_t(h >> (64 - kBits));; i = (i + 1) & (kSize - 1)) {
            Slot &slot = m_slots[i];
            if (slot.generation != m_generation) {
                if (4 * (m_count + 1) > 3 * kSize)
                    return nullptr;
                slot = Slot{group, Note{}, m_generation};
                ++m_count;
                return &slot.note;
            }
            if (slot.group == group)
                return &slot.note;
        }
    }

private:
    static constexpr int kBits = 12;
    static constexpr std::size_t kSize = std::size_t(1) << kBits;
    struct Slot {
        std::uint64_t group = 0;
        Note note{};
        std::uint32_t generation = 0; // the memo's generation when written; 0 never is
    };
    std::vector<Slot> m_slots = std::vector<Slot>(kSize);
    std::size_t m_count = 0;
    std::uint32_t m_generation = 1;
};

} // namespace
} // namespace convoffload
