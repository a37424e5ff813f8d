// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search's incremental view of one ordered partition: every edit updates
// the loads, the reload counts and the memory of the groups it touches in
// O(group size · patch size), never re-evaluating the whole strategy.
//
// It rests on one identity: a pixel is loaded once per maximal run of
// consecutive groups whose union holds it, so
//   loads(px) = #groups holding px - #adjacent pairs of groups both holding px,
// and an edit only changes the terms of the groups and pairs it touches.
// Private to the core (no installed header).
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <vector>

namespace convoffload::search {

class SearchState {
public:
    SearchState(const S1Instance &instance, const Groups &start);

    std::int64_t loadedPixels() const { return m_loadedPixels; }
    std::int64_t groupCount() const { return std::int64_t(m_order.size()); }
    /// Σ over pixels of loads beyond the reload bound.
    std::int64_t reloadExcess() const { return m_reloadExcess; }
    /// Σ over groups of elements beyond mem_size.
    std::int64_t memoryExcess() const { return m_memoryExcess; }
    bool feasible() const { return m_reloadExcess == 0 && m_memoryExcess == 0; }
    /// evaluate()'s duration of groups(): under the instance's transfer
    /// model, its cost (kept per step, see refreshTransfer).
    double duration() const
    {
        const S1Instance &in = *m_instance;
        if (!in.transfer)
            return in.duration(m_loadedPixels, groupCount());
        TransferTally first, last; // kernels-outer's turns keep the end groups' pixels
        if (!m_order.empty()) {
            first = m_groupLoad[m_order.front()];
            last = m_groupLoadBack[m_order.back()];
        }
        return in.cost_per_group * double(groupCount())
            + in.transfer->duration(
                in.transfer->loads(m_transferLoads, m_transferLoadsBack, first, last), m_transferWrites, groupCount());
    }

    int groupOf(PatchId p) const { return m_groupOf[p]; }
    int groupSize(int group) const { return int(m_members[group].size()); }
    const std::vector<PatchId> &members(int group) const { return m_members[group]; }
    int positionOf(int group) const { return m_position[group]; }
    int groupAt(int position) const { return m_order[position]; }
    /// Groups in order, patches sorted inside each group.
    Groups groups() const;

    /// An adjacency in the order: two group ids (-1 = none, at either end).
    struct Pair {
        int first = -1, second = -1;
    };
    struct LoadChange {
        std::int64_t loads = 0; // Σ change of loads
        std::int64_t reloadExcess = 0;
    };
    /// What replacing the adjacencies `removed` by `added` would do to the
    /// loads, the groups' contents unchanged: how order moves are priced
    /// before being applied. Cost O(Σ |U| of the pairs' first groups).
    LoadChange adjacencyChange(const std::vector<Pair> &removed, const std::vector<Pair> &added);

    // Edits; each is undone exactly by its inverse (movePatch back, the same
    // reverse, removeEmptyGroup / insertEmptyGroup at the same position).
    void movePatch(PatchId patch, int toGroup);
    /// Reverses the order of the groups at positions first..last (inclusive).
    void reverse(int first, int last);
    /// Inserts an empty group at `position`; returns its id.
    int insertEmptyGroup(int position);
    void removeEmptyGroup(int position);

private:
    struct Membership {
        std::int32_t group;
        std::int32_t patches; // patches of the group holding the pixel
        std::int32_t index; // of the pixel in m_union[group]
    };

    bool holds(int group, PixelId px) const;
    bool holdsAt(int position, PixelId px) const;
    /// Adds one patch's use of px to the group; true when px joins its union.
    bool addUse(int group, PixelId px);
    /// Removes one; true when px leaves the union.
    bool removeUse(int group, PixelId px);
    void changeLoads(PixelId px, int delta);
    void refreshMemory(int group);
    void renumberFrom(int position);
    /// Sums, per pixel, +1 per removed and -1 per added pair holding it (the
    /// change of its loads) into m_pairDelta, listing the pixels in m_touched.
    void accumulatePairs(const std::vector<Pair> &removed, const std::vector<Pair> &added);
    void applyAccumulated();
    /// Under a transfer model: prices again the load of the group at
    /// `position` (what its predecessor does not hold), O(|U| log |U|), or
    /// a group's write.
    void refreshLoad(int position);
    /// The same walking backwards (S1TransferCost::needsBackward): what the
    /// group's successor does not hold.
    void refreshLoadBack(int position);
    void refreshGroupLoad(int position, int previous, std::vector<TransferTally> &loads, TransferTally &total);
    void refreshWrite(int group);

    const S1Instance *m_instance;
    int m_maxLoads;
    std::vector<std::vector<PatchId>> m_members; // by group id
    std::vector<int> m_groupOf; // by patch
    std::vector<int> m_indexInGroup; // by patch: its place in m_members
    std::vector<int> m_order; // group ids in execution order
    std::vector<int> m_position; // by group id; -1 when unused
    std::vector<int> m_freeIds; // unused group ids, reused last-in first-out
    std::vector<std::vector<PixelId>> m_union; // by group id, unordered
    std::vector<std::int64_t> m_groupMemoryExcess; // by group id

    // Which groups hold each pixel: at most `m_slots` (the patches sharing a
    // pixel), stored flat so a lookup scans a few adjacent integers.
    int m_slots = 1;
    std::vector<Membership> m_membership;
    std::vector<std::int32_t> m_membershipCount;
    std::vector<int> m_loads; // by pixel
    std::vector<int> m_pairDelta; // by pixel, scratch of accumulatePairs (all 0 between calls)
    std::vector<PixelId> m_touched; // scratch: pixels with a non-zero m_pairDelta
    std::vector<Pair> m_removedPairs, m_addedPairs; // scratch for the edits

    // Under a transfer model: each group's load (at its position) and
    // write, and their sums; integers, so no rounding drifts over moves.
    std::vector<TransferTally> m_groupLoad, m_groupLoadBack, m_groupWrite; // by group id
    TransferTally m_transferLoads, m_transferLoadsBack, m_transferWrites;
    std::vector<std::int64_t> m_items; // scratch of refreshLoad / refreshWrite

    std::int64_t m_loadedPixels = 0;
    std::int64_t m_reloadExcess = 0;
    std::int64_t m_memoryExcess = 0;
};

} // namespace convoffload::search
