// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The states of the dynamic programming of PartitionDp.h: a state (patches
// done, last group, each a 64-bit set), what reaching it cost, and one step's table of them.
// Private to the core; internal linkage, as PartitionDp.h (PatchMask.h says why).
#include "PatchMask.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace convoffload {
namespace {

struct DpState {
    std::uint64_t done; // patches, as bits
    std::uint64_t last;
    bool operator==(const DpState &) const = default;
};

/// What a state costs so far, and the group before its last (to rebuild the partition).
struct DpEntry {
    std::int32_t loads;
    std::int32_t symmetry; // 0: as reached; i: mapped by the instance's symmetry i (PartitionDp::m_maps)
    std::uint64_t parent; // the last group of the state expanded, in that state's own frame
};

/// The order of two entries of one state: the least loads, then parent, then symmetry.
inline bool entryBefore(const DpEntry &a, const DpEntry &b)
{
    if (a.loads != b.loads)
        return a.loads < b.loads;
    return a.parent != b.parent ? a.parent < b.parent : a.symmetry < b.symmetry;
}

struct DpStateHash {
    std::size_t operator()(const DpState &s) const
    {
        const std::uint64_t h = s.done * 0x9E3779B97F4A7C15ull ^ (s.last + 0x632BE59BD9B4E019ull);
        return std::size_t(h ^ (h >> 29));
    }
};

/// One state of a finished step, in a step's sorted array.
struct DpRecord {
    std::uint64_t done;
    std::uint64_t last;
    std::uint64_t parent;
    std::int32_t loads;
    std::int32_t symmetry;
};

inline bool recordBefore(const DpRecord &a, const DpRecord &b) { return a.done != b.done ? a.done < b.done : a.last < b.last; }

/// One step's states as a worker finds them: open addressing with linear
/// probing in one array (a node-based map spent 38 % of the time in its
/// inserts on 10x10 G4, most of it in cache misses). A state's last group
/// is never empty, so last == 0 marks a free slot.
class StateTable {
public:
    struct Slot {
        DpState state{0, 0};
        DpEntry entry{0, 0, 0};
    };

    /// A state entering the table: the least entry wins (entryBefore).
    void offer(const DpState &s, const DpEntry &e)
    {
        if (2 * (m_count + 1) > m_slots.size())
            grow();
        for (std::size_t i = DpStateHash{}(s)&m_mask;; i = (i + 1) & m_mask) {
            Slot &slot = m_slots[i];
            if (slot.state.last == 0) {
                slot = Slot{s, e};
                ++m_count;
                return;
            }
            if (slot.state == s) {
                if (entryBefore(e, slot.entry))
                    slot.entry = e;
                return;
            }
        }
    }
    std::size_t size() const { return m_count; }
    const std::vector<Slot> &slots() const { return m_slots; }

private:
    void grow()
    {
        std::vector<Slot> old = std::move(m_slots);
        m_slots.assign(std::max<std::size_t>(1024, 2 * old.size()), Slot{});
        m_mask = m_slots.size() - 1;
        m_count = 0;
        for (const Slot &slot : old)
            if (slot.state.last != 0)
                offer(slot.state, slot.entry);
    }

    std::vector<Slot> m_slots;
    std::size_t m_mask = 0;
    std::size_t m_count = 0;
};

} // namespace
} // namespace convoffload
