// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search's move set on one SearchState: small moves (swap or shift
// patches between neighbouring groups, split, relocate, reverse or swap
// groups, move a run of groups), priced incrementally. Every move is a list of primitive edits, so
// it can be undone (rejected) and redone exactly. Private to the core.
#include "SearchRandom.h"
#include "SearchState.h"

#include "convoffload/model/Ids.h"

#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

namespace convoffload::search {

constexpr double kPenaltyPerExcess = 4.0; // per load beyond the bound, per element beyond memory
constexpr int kMaxSegment = 8; // groups moved at once by moveSegment

/// One primitive edit of a move, kept to undo (and redo) it.
struct Edit {
    enum Kind { Move, Reverse, Insert, Remove } kind;
    int a = 0, b = 0, from = 0; // Move: patch a to group b (from its old group); Reverse: a..b; Insert/Remove: at a
};

class Annealer {
public:
    /// `reloadPenalty`: per load beyond the reload bound, in pixel loads (0:
    /// the bound relaxed).
    Annealer(const S1Instance &instance, const Groups &start, std::uint64_t seed, double reloadPenalty = kPenaltyPerExcess)
        : m_in(instance)
        , m_state(instance, start)
        , m_random(seed)
        , m_reloadPenalty(reloadPenalty)
    {
        const Layer &l = instance.layer;
        // Patches closer than a kernel share pixels: the partners worth trying.
        m_reachRows = std::max(1, (l.spanH() - 1) / l.stride_h);
        m_reachCols = std::max(1, (l.spanW() - 1) / l.stride_w);
        m_unit = instance.cost_per_pixel_load > 0 ? instance.cost_per_pixel_load
                                                  : (instance.cost_per_group > 0 ? instance.cost_per_group : 1.0);
    }

    double objective() const
    {
        return m_state.duration() + m_reloadPenalty * m_unit * double(m_state.reloadExcess())
            + kPenaltyPerExcess * m_unit * double(m_state.memoryExcess());
    }
    const SearchState &state() const { return m_state; }
    double unit() const { return m_unit; }

    enum class Proposal {
        None, // the move drawn does not apply; nothing changed
        Applied, // applied: read the new objective, undo() to reject
        Priced // an order move, priced but not applied: pricedDelta(), then commit() to accept
    };

    Proposal propose()
    {
        m_edits.clear();
        const double r = m_random.unit();
        const bool flexible = m_in.group_count == GroupCount::AtMostCap;
        if (r < 0.40)
            return swapPatches();
        if (r < 0.60)
            return shiftPatch(flexible);
        if (r < 0.65)
            return flexible ? splitPatch() : shiftPatch(false);
        if (r < 0.75)
            return relocateGroup();
        if (r < 0.82)
            return moveSegment();
        if (r < 0.92)
            return reverseSegment();
        return swapGroups();
    }

    /// The Or-opt move alone (tests drive it directly).
    Proposal proposeSegmentMove()
    {
        m_edits.clear();
        return moveSegment();
    }

    double pricedDelta() const { return m_pricedDelta; }
    void commit() { redo(); }

    void undo()
    {
        for (auto it = m_edits.rbegin(); it != m_edits.rend(); ++it)
            switch (it->kind) {
            case Edit::Move:
                m_state.movePatch(PatchId(it->a), it->from);
                break;
            case Edit::Reverse:
                m_state.reverse(it->a, it->b);
                break;
            case Edit::Insert:
                m_state.removeEmptyGroup(it->a);
                break;
            case Edit::Remove:
                m_state.insertEmptyGroup(it->a);
                break;
            }
    }

    void redo()
    {
        for (const Edit &e : m_edits)
            switch (e.kind) {
            case Edit::Move:
                m_state.movePatch(PatchId(e.a), e.b);
                break;
            case Edit::Reverse:
                m_state.reverse(e.a, e.b);
                break;
            case Edit::Insert:
                m_state.insertEmptyGroup(e.a);
                break;
            case Edit::Remove:
                m_state.removeEmptyGroup(e.a);
                break;
            }
    }

    bool accept(double delta, double temperature)
    {
        return delta <= 0 || (temperature > 0 && m_random.unit() < std::exp(-delta / temperature));
    }

private:
    PatchId randomPatch() { return PatchId(m_random.below(int(m_in.patches))); }

    /// A patch near p (sharing pixels with it when the kernel allows), or p
    /// itself when the draw falls outside the grid.
    PatchId nearbyPatch(PatchId p)
    {
        const Grid at = patchPosition(m_in.layer, p);
        const int r = at.row + m_random.below(2 * m_reachRows + 1) - m_reachRows;
        const int c = at.col + m_random.below(2 * m_reachCols + 1) - m_reachCols;
        if (r < 0 || c < 0 || r >= m_in.layer.hOut() || c >= m_in.layer.wOut())
            return p;
        return patchId(m_in.layer, r, c);
    }

    void move(PatchId p, int to)
    {
        const int from = m_state.groupOf(p);
        m_edits.push_back({Edit::Move, int(p), to, from});
        m_state.movePatch(p, to);
    }

    int groupAtOrNone(int position) const
    {
        return position >= 0 && position < m_state.groupCount() ? m_state.groupAt(position) : -1;
    }

    /// Prices an order move described by the adjacencies it breaks and makes;
    /// `reversals` apply it on commit().
    Proposal price(std::vector<SearchState::Pair> removed, std::vector<SearchState::Pair> added,
        std::initializer_list<std::pair<int, int>> reversals)
    {
        for (auto [first, last] : reversals)
            if (first < last)
                m_edits.push_back({Edit::Reverse, first, last, 0});
        if (m_in.transfer)
            return applyOrderMove();
        const SearchState::LoadChange change = m_state.adjacencyChange(removed, added);
        m_pricedDelta = m_in.cost_per_pixel_load * double(change.loads) + m_reloadPenalty * m_unit * double(change.reloadExcess);
        return Proposal::Priced;
    }

    /// Under a transfer model a step's load depends on which group comes
    /// first in its pair, so reversing a segment changes the loads inside
    /// it: order moves are applied and read off the state instead.
    Proposal applyOrderMove()
    {
        redo();
        return Proposal::Applied;
    }

    Proposal swapPatches()
    {
        const PatchId p = randomPatch();
        const PatchId q = nearbyPatch(p);
        const int gp = m_state.groupOf(p), gq = m_state.groupOf(q);
        if (gp == gq)
            return Proposal::None;
        move(p, gq);
        move(q, gp);
        return Proposal::Applied;
    }

    /// Moves a patch into a neighbour's group. With a fixed number of groups
    /// the source must keep a patch; otherwise an emptied group disappears.
    Proposal shiftPatch(bool mayEmpty)
    {
        const PatchId p = randomPatch();
        const PatchId q = nearbyPatch(p);
        const int from = m_state.groupOf(p), to = m_state.groupOf(q);
        if (from == to || m_state.groupSize(to) >= m_in.group_size)
            return Proposal::None;
        if (m_state.groupSize(from) == 1 && !mayEmpty)
            return Proposal::None;
        move(p, to);
        if (m_state.groupSize(from) == 0) {
            const int pos = m_state.positionOf(from);
            m_edits.push_back({Edit::Remove, pos, 0, 0});
            m_state.removeEmptyGroup(pos);
        }
        return Proposal::Applied;
    }

    /// A patch leaves its group for a new group just before or after it.
    Proposal splitPatch()
    {
        if (m_state.groupCount() >= m_in.max_groups)
            return Proposal::None;
        const PatchId p = randomPatch();
        const int from = m_state.groupOf(p);
        if (m_state.groupSize(from) < 2)
            return Proposal::None;
        const int pos = m_state.positionOf(from) + m_random.below(2);
        m_edits.push_back({Edit::Insert, pos, 0, 0});
        const int fresh = m_state.insertEmptyGroup(pos);
        move(p, fresh);
        return Proposal::Applied;
    }

    /// Moves a group right before or right after the group of a neighbouring
    /// patch, where it can share pixels.
    Proposal relocateGroup()
    {
        const PatchId p = randomPatch();
        const int g = m_state.groupOf(p), h = m_state.groupOf(nearbyPatch(p));
        if (g == h)
            return Proposal::None;
        const int i = m_state.positionOf(g), anchor = m_state.positionOf(h);
        const bool after = m_random.below(2) == 1;
        // The group at i moves to position j; the ones between shift by one.
        const int j = i < anchor ? (after ? anchor : anchor - 1) : (after ? anchor + 1 : anchor);
        if (j == i)
            return Proposal::None;
        const int before = groupAtOrNone(i - 1), next = groupAtOrNone(i + 1);
        if (i < j) // g lands between o[j] and o[j+1]
            return price({{before, g}, {g, next}, {groupAtOrNone(j), groupAtOrNone(j + 1)}},
                {{before, next}, {groupAtOrNone(j), g}, {g, groupAtOrNone(j + 1)}}, {{i, j}, {i, j - 1}});
        // g lands between o[j-1] and o[j]
        return price({{before, g}, {g, next}, {groupAtOrNone(j - 1), groupAtOrNone(j)}},
            {{before, next}, {groupAtOrNone(j - 1), g}, {g, groupAtOrNone(j)}}, {{j, i}, {j + 1, i}});
    }

    /// Or-opt: a run of 2..kMaxSegment consecutive groups moves next to the
    /// group of a patch near one of its end groups, turned so that end group
    /// touches it.
    Proposal moveSegment()
    {
        const int n = int(m_state.groupCount());
        if (n < 3)
            return Proposal::None;
        const PatchId p = randomPatch();
        const int g = m_state.groupOf(p), h = m_state.groupOf(nearbyPatch(p));
        if (g == h)
            return Proposal::None;
        const int a = m_state.positionOf(g), b = m_state.positionOf(h);
        const int length = 2 + m_random.below(kMaxSegment - 1);
        const bool gFirst = m_random.below(2) == 0; // g starts the segment, else ends it
        const int i = gFirst ? a : a - length + 1, j = gFirst ? a + length - 1 : a;
        if (i < 0 || j >= n || (b >= i && b <= j))
            return Proposal::None;
        const bool after = m_random.below(2) == 0; // next to h: after it, else before it
        const int k = after ? b : b - 1; // the segment lands between o[k] and o[k+1]
        if (k >= i - 1 && k <= j)
            return Proposal::None;
        // g touches h: forward when (g first, after h) or (g last, before h).
        const bool forward = gFirst == after;
        const int oi = groupAtOrNone(i), oj = groupAtOrNone(j), ok = groupAtOrNone(k), ok1 = groupAtOrNone(k + 1);
        std::vector<SearchState::Pair> removed{{groupAtOrNone(i - 1), oi}, {oj, groupAtOrNone(j + 1)}, {ok, ok1}};
        std::vector<SearchState::Pair> added{{groupAtOrNone(i - 1), groupAtOrNone(j + 1)}};
        if (forward)
            added.insert(added.end(), {{ok, oi}, {oj, ok1}});
        else
            added.insert(added.end(), {{ok, oj}, {oi, ok1}});
        auto reversal = [&](int first, int last) {
            if (first < last)
                m_edits.push_back({Edit::Reverse, first, last, 0});
        };
        const int span = j - i; // segment length - 1
        if (k > j) { // [S T] -> [T S]: T = j+1..k
            reversal(i, k);
            reversal(i, i + (k - j) - 1);
            if (forward)
                reversal(i + (k - j), k);
        } else { // [T S] -> [S T]: T = k+1..i-1
            reversal(k + 1, j);
            if (forward)
                reversal(k + 1, k + 1 + span);
            reversal(k + 2 + span, j);
        }
        if (m_in.transfer)
            return applyOrderMove();
        const SearchState::LoadChange change = m_state.adjacencyChange(removed, added);
        m_pricedDelta = m_in.cost_per_pixel_load * double(change.loads) + m_reloadPenalty * m_unit * double(change.reloadExcess);
        return Proposal::Priced;
    }

    Proposal reverseSegment()
    {
        const int n = int(m_state.groupCount());
        if (n < 2)
            return Proposal::None;
        const int i = m_random.below(n - 1);
        const int j = i + 1 + m_random.below(std::min(n - 1 - i, 32));
        return price({{groupAtOrNone(i - 1), groupAtOrNone(i)}, {groupAtOrNone(j), groupAtOrNone(j + 1)}},
            {{groupAtOrNone(i - 1), groupAtOrNone(j)}, {groupAtOrNone(i), groupAtOrNone(j + 1)}}, {{i, j}});
    }

    Proposal swapGroups()
    {
        const PatchId p = randomPatch();
        int a = m_state.positionOf(m_state.groupOf(p)), b = m_state.positionOf(m_state.groupOf(nearbyPatch(p)));
        if (a == b)
            return Proposal::None;
        if (a > b)
            std::swap(a, b);
        const int ga = groupAtOrNone(a), gb = groupAtOrNone(b);
        if (b == a + 1) // a reversal of two
            return price({{groupAtOrNone(a - 1), ga}, {gb, groupAtOrNone(b + 1)}},
                {{groupAtOrNone(a - 1), gb}, {ga, groupAtOrNone(b + 1)}}, {{a, b}});
        return price(
            {{groupAtOrNone(a - 1), ga}, {ga, groupAtOrNone(a + 1)}, {groupAtOrNone(b - 1), gb}, {gb, groupAtOrNone(b + 1)}},
            {{groupAtOrNone(a - 1), gb}, {gb, groupAtOrNone(a + 1)}, {groupAtOrNone(b - 1), ga}, {ga, groupAtOrNone(b + 1)}},
            {{a, b}, {a + 1, b - 1}});
    }

    const S1Instance &m_in;
    SearchState m_state;
    Random m_random;
    std::vector<Edit> m_edits;
    double m_pricedDelta = 0;
    int m_reachRows = 1, m_reachCols = 1;
    double m_unit = 1;
    double m_reloadPenalty;
};

} // namespace convoffload::search
