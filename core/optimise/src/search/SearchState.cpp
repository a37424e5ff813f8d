// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "SearchState.h"

#include <algorithm>

namespace convoffload::search {

SearchState::SearchState(const S1Instance &instance, const Groups &start)
    : m_instance(&instance)
    , m_maxLoads(instance.max_loads_per_pixel)
{
    const std::size_t groupIds = std::size_t(std::max<std::int64_t>(instance.max_groups, std::int64_t(start.size())));
    m_members.assign(groupIds, {});
    m_position.assign(groupIds, -1);
    m_union.assign(groupIds, {});
    m_groupMemoryExcess.assign(groupIds, 0);
    m_groupLoad.assign(groupIds, {});
    m_groupLoadBack.assign(groupIds, {});
    m_groupWrite.assign(groupIds, {});
    m_groupOf.assign(std::size_t(instance.patches), -1);
    m_indexInGroup.assign(std::size_t(instance.patches), -1);

    std::vector<int> sharing(std::size_t(instance.pixels), 0);
    for (const auto &pixels : instance.patch_pixels)
        for (PixelId px : pixels)
            m_slots = std::max(m_slots, ++sharing[px]);
    m_membership.assign(std::size_t(instance.pixels) * std::size_t(m_slots), Membership{-1, 0, 0});
    m_membershipCount.assign(std::size_t(instance.pixels), 0);
    m_loads.assign(std::size_t(instance.pixels), 0);
    m_pairDelta.assign(std::size_t(instance.pixels), 0);

    for (std::size_t k = 0; k < start.size(); ++k) {
        const int g = int(k);
        m_order.push_back(g);
        m_position[g] = g;
        for (PatchId p : start[k]) {
            m_groupOf[p] = g;
            m_indexInGroup[p] = int(m_members[g].size());
            m_members[g].push_back(p);
            for (PixelId px : instance.patch_pixels[p])
                addUse(g, px);
        }
        refreshMemory(g);
    }
    for (std::size_t id = groupIds; id-- > start.size();)
        m_freeIds.push_back(int(id));

    // A pixel is loaded by every group holding it whose predecessor does not.
    for (int pos = 0; pos < int(m_order.size()); ++pos)
        for (PixelId px : m_union[m_order[pos]])
            if (!holdsAt(pos - 1, px))
                changeLoads(px, +1);
    if (instance.transfer)
        for (int pos = 0; pos < int(m_order.size()); ++pos) {
            refreshLoad(pos);
            refreshLoadBack(pos);
            refreshWrite(m_order[pos]);
        }
}

void SearchState::refreshLoad(int position)
{
    if (m_instance->transfer)
        refreshGroupLoad(position, position - 1, m_groupLoad, m_transferLoads);
}

void SearchState::refreshLoadBack(int position)
{
    if (m_instance->transfer && m_instance->transfer->needsBackward())
        refreshGroupLoad(position, position + 1, m_groupLoadBack, m_transferLoadsBack);
}

// The load of the group at `position` when the step at `previous` ran just
// before it (the pass's direction), kept in `loads` and summed in `total`.
void SearchState::refreshGroupLoad(int position, int previous, std::vector<TransferTally> &loads, TransferTally &total)
{
    if (position < 0 || position >= int(m_order.size()))
        return;
    const S1TransferCost &cost = *m_instance->transfer;
    const int group = m_order[position];
    m_items.clear();
    for (PixelId px : m_union[group])
        if (!holdsAt(previous, px))
            m_items.push_back(cost.storedIndex(px));
    std::sort(m_items.begin(), m_items.end());
    const TransferTally now = cost.input(m_items);
    total -= loads[group];
    total += now;
    loads[group] = now;
}

void SearchState::refreshWrite(int group)
{
    if (!m_instance->transfer)
        return;
    m_items.assign(m_members[group].begin(), m_members[group].end());
    std::sort(m_items.begin(), m_items.end());
    const TransferTally now = m_instance->transfer->outputs(m_items);
    m_transferWrites -= m_groupWrite[group];
    m_transferWrites += now;
    m_groupWrite[group] = now;
}

Groups SearchState::groups() const
{
    Groups out;
    out.reserve(m_order.size());
    for (int g : m_order) {
        Group group = m_members[g];
        std::sort(group.begin(), group.end());
        out.push_back(std::move(group));
    }
    return out;
}

bool SearchState::holds(int group, PixelId px) const
{
    const Membership *slot = &m_membership[std::size_t(px) * std::size_t(m_slots)];
    for (int i = 0, n = m_membershipCount[px]; i < n; ++i)
        if (slot[i].group == group)
            return true;
    return false;
}

bool SearchState::holdsAt(int position, PixelId px) const
{
    return position >= 0 && position < int(m_order.size()) && holds(m_order[position], px);
}

bool SearchState::addUse(int group, PixelId px)
{
    Membership *slot = &m_membership[std::size_t(px) * std::size_t(m_slots)];
    const int n = m_membershipCount[px];
    for (int i = 0; i < n; ++i)
        if (slot[i].group == group) {
            ++slot[i].patches;
            return false;
        }
    slot[n] = {group, 1, std::int32_t(m_union[group].size())};
    ++m_membershipCount[px];
    m_union[group].push_back(px);
    return true;
}

bool SearchState::removeUse(int group, PixelId px)
{
    Membership *slot = &m_membership[std::size_t(px) * std::size_t(m_slots)];
    const int n = m_membershipCount[px];
    for (int i = 0; i < n; ++i)
        if (slot[i].group == group) {
            if (--slot[i].patches > 0)
                return false;
            // Swap-remove px from the union list; the pixel moved into its
            // place learns its new index.
            std::vector<PixelId> &list = m_union[group];
            const int index = slot[i].index;
            const PixelId moved = list.back();
            list[index] = moved;
            list.pop_back();
            if (moved != px) {
                Membership *movedSlot = &m_membership[std::size_t(moved) * std::size_t(m_slots)];
                for (int j = 0, m = m_membershipCount[moved]; j < m; ++j)
                    if (movedSlot[j].group == group) {
                        movedSlot[j].index = index;
                        break;
                    }
            }
            slot[i] = slot[n - 1];
            --m_membershipCount[px];
            return true;
        }
    return false; // not reached for a consistent state
}

void SearchState::changeLoads(PixelId px, int delta)
{
    const int before = m_loads[px];
    const int after = before + delta;
    m_loads[px] = after;
    m_loadedPixels += delta;
    m_reloadExcess += std::max(0, after - m_maxLoads) - std::max(0, before - m_maxLoads);
}

void SearchState::refreshMemory(int group)
{
    const std::int64_t size = std::int64_t(m_members[group].size());
    std::int64_t excess = 0;
    if (size > 0) {
        const S1Instance &in = *m_instance;
        excess = std::max<std::int64_t>(0,
            std::int64_t(m_union[group].size()) * in.elements_per_pixel + size * in.elements_per_patch + in.fixed_elements
                - in.mem_size);
    }
    m_memoryExcess += excess - m_groupMemoryExcess[group];
    m_groupMemoryExcess[group] = excess;
}

void SearchState::renumberFrom(int position)
{
    for (int pos = position; pos < int(m_order.size()); ++pos)
        m_position[m_order[pos]] = pos;
}

void SearchState::accumulatePairs(const std::vector<Pair> &removed, const std::vector<Pair> &added)
{
    // A pixel held by both groups of a pair owes that pair one load fewer;
    // scanning the first group's union finds every such pixel.
    auto scan = [&](const Pair &pair, int sign) {
        if (pair.first < 0 || pair.second < 0)
            return;
        const bool firstSmaller = m_union[pair.first].size() <= m_union[pair.second].size();
        const int scanned = firstSmaller ? pair.first : pair.second, other = firstSmaller ? pair.second : pair.first;
        for (PixelId px : m_union[scanned])
            if (holds(other, px)) {
                if (m_pairDelta[px] == 0)
                    m_touched.push_back(px);
                m_pairDelta[px] += sign;
            }
    };
    for (const Pair &pair : removed)
        scan(pair, +1);
    for (const Pair &pair : added)
        scan(pair, -1);
}

SearchState::LoadChange SearchState::adjacencyChange(const std::vector<Pair> &removed, const std::vector<Pair> &added)
{
    accumulatePairs(removed, added);
    LoadChange change;
    for (PixelId px : m_touched) {
        const int delta = m_pairDelta[px];
        m_pairDelta[px] = 0;
        change.loads += delta;
        change.reloadExcess += std::max(0, m_loads[px] + delta - m_maxLoads) - std::max(0, m_loads[px] - m_maxLoads);
    }
    m_touched.clear();
    return change;
}

void SearchState::applyAccumulated()
{
    for (PixelId px : m_touched) {
        if (m_pairDelta[px] != 0)
            changeLoads(px, m_pairDelta[px]);
        m_pairDelta[px] = 0;
    }
    m_touched.clear();
}

void SearchState::movePatch(PatchId patch, int toGroup)
{
    const int from = m_groupOf[patch];
    if (from == toGroup)
        return;

    // Leave `from`: a pixel leaving its union at position pos stops being a
    // group of its own (-1 load) but may split a run of its neighbours (+1 per
    // neighbour holding it).
    std::vector<PatchId> &fromMembers = m_members[from];
    const int index = m_indexInGroup[patch];
    fromMembers[index] = fromMembers.back();
    m_indexInGroup[fromMembers[index]] = index;
    fromMembers.pop_back();
    const int fromPos = m_position[from];
    for (PixelId px : m_instance->patch_pixels[patch])
        if (removeUse(from, px))
            changeLoads(px, -1 + int(holdsAt(fromPos - 1, px)) + int(holdsAt(fromPos + 1, px)));
    refreshMemory(from);

    // Join `toGroup`: the mirror image.
    m_groupOf[patch] = toGroup;
    m_indexInGroup[patch] = int(m_members[toGroup].size());
    m_members[toGroup].push_back(patch);
    const int toPos = m_position[toGroup];
    for (PixelId px : m_instance->patch_pixels[patch])
        if (addUse(toGroup, px))
            changeLoads(px, +1 - int(holdsAt(toPos - 1, px)) - int(holdsAt(toPos + 1, px)));
    refreshMemory(toGroup);
    if (m_instance->transfer) {
        // Both groups' loads and writes, and the loads of the steps after
        // them (their predecessor's union changed).
        for (int pos : {fromPos, fromPos + 1, toPos, toPos + 1})
            refreshLoad(pos); // twice when they meet: harmless
        for (int pos : {fromPos - 1, fromPos, toPos - 1, toPos})
            refreshLoadBack(pos); // walking backwards, the steps before them
        refreshWrite(from);
        refreshWrite(toGroup);
    }
}

void SearchState::reverse(int first, int last)
{
    if (first >= last)
        return;
    // Only the two boundary pairs change: (a,b)+(c,d) become (a,c)+(b,d); the
    // pairs inside the segment are the same pairs read backwards.
    const int a = first > 0 ? m_order[first - 1] : -1;
    const int b = m_order[first];
    const int c = m_order[last];
    const int d = last + 1 < int(m_order.size()) ? m_order[last + 1] : -1;
    m_removedPairs = {{b, a}, {c, d}};
    m_addedPairs = {{c, a}, {b, d}};
    accumulatePairs(m_removedPairs, m_addedPairs);
    applyAccumulated();
    std::reverse(m_order.begin() + first, m_order.begin() + last + 1);
    for (int pos = first; pos <= last; ++pos)
        m_position[m_order[pos]] = pos;
    // A load depends on the order of its pair: every step of the segment,
    // and the one after it, loads something else now.
    for (int pos = first; pos <= last + 1 && m_instance->transfer; ++pos)
        refreshLoad(pos);
    for (int pos = first - 1; pos <= last && m_instance->transfer; ++pos)
        refreshLoadBack(pos);
}

int SearchState::insertEmptyGroup(int position)
{
    // The pair (left, right) is split: pixels both held are loaded again.
    const int left = position > 0 ? m_order[position - 1] : -1;
    const int right = position < int(m_order.size()) ? m_order[position] : -1;
    m_removedPairs = {{left, right}};
    m_addedPairs.clear();
    accumulatePairs(m_removedPairs, m_addedPairs);
    applyAccumulated();
    const int id = m_freeIds.back();
    m_freeIds.pop_back();
    m_order.insert(m_order.begin() + position, id);
    renumberFrom(position);
    m_groupLoad[id] = m_groupLoadBack[id] = m_groupWrite[id] = {}; // empty: loads and writes nothing
    refreshLoad(position + 1);
    refreshLoadBack(position - 1);
    return id;
}

void SearchState::removeEmptyGroup(int position)
{
    const int id = m_order[position];
    m_order.erase(m_order.begin() + position);
    m_position[id] = -1;
    m_freeIds.push_back(id);
    renumberFrom(position);
    const int left = position > 0 ? m_order[position - 1] : -1;
    const int right = position < int(m_order.size()) ? m_order[position] : -1;
    m_removedPairs.clear();
    m_addedPairs = {{left, right}};
    accumulatePairs(m_removedPairs, m_addedPairs);
    applyAccumulated();
    // An empty group loads and writes nothing; its successor's load changes.
    m_transferLoads -= m_groupLoad[id];
    m_transferLoadsBack -= m_groupLoadBack[id];
    m_transferWrites -= m_groupWrite[id];
    m_groupLoad[id] = m_groupLoadBack[id] = m_groupWrite[id] = {};
    refreshLoad(position);
    refreshLoadBack(position - 1);
}

} // namespace convoffload::search
