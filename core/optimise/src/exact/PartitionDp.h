// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The dynamic programming of S1InstanceBound.h over (patches done, last
// group), one step (group) at a time. Private to the core.
//
// This header is compiled twice: by S1InstanceBound.cpp for any x86-64 CPU
// and by PartitionDpPopcnt.cpp with the POPCNT instruction (the pixel sets
// are counted billions of times; without it each count is a libgcc call).
// So everything here has internal linkage (an unnamed namespace, and the
// compiler's builtins rather than inline library templates), and the two
// copies can never be mixed up by the linker.
//
// Each step's states are expanded by `threads` workers that take chunks of
// them from an atomic counter, each into its own map; the maps are then
// merged into one sorted array (the least loads win, ties to the least
// parent, then symmetry), so the states, the bound and the rebuilt partition
// are the same for any number of threads.
//
// The states of a step with the same patches done come one after another in
// the sorted array and differ only in their last group: what a next group
// brings that does not depend on the last group (notKept, the next state and
// the least entry any of them offers it) is worked out once per set, in each
// worker's GroupMemo (DpGroupMemo.h).
//
// The workers share only read-only data, the atomic counters and the stop
// flag.
//
// States are kept up to the instance's symmetries: a state (done, last) and
// its image under a flip or turn of the grid have the same completions at
// the same cost, so only the least image (as a pair of bitmasks) is kept,
// with the symmetry that made it, which the rebuild of the partition undoes.
// With exactly K_min groups, the order of the groups is taken only up to
// reversal too (reversalAllows).
#include "DpGroupMemo.h"
#include "DpPixels.h"
#include "DpStates.h"
#include "PatchMask.h"
#include "PatchSymmetries.h"
#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <exception>
#include <thread>
#include <vector>

namespace convoffload {

#if defined(__x86_64__)
/// This dynamic programming compiled with POPCNT (PartitionDpPopcnt.cpp).
PartitionBoundOutcome partitionBoundPopcnt(const S1Instance &instance, const PartitionBoundLimits &limits);
#endif

namespace {

template <int W> class PartitionDp {
public:
    using PixelSet = Pixels<W>;
    using Mask = std::uint64_t; // patch sets: at most 64 patches
    using State = DpState;
    using Entry = DpEntry;
    using Record = DpRecord;
    using Table = StateTable;

    PartitionDp(const S1Instance &in, const PartitionBoundLimits &limits)
        : m_in(in)
        , m_limits(limits)
        , m_patches(int(in.patches))
    {
        std::vector<int> local(std::size_t(in.pixels), -1);
        for (std::size_t i = 0; i < in.needed_pixels.size(); ++i)
            local[in.needed_pixels[i]] = int(i);
        for (const auto &pixels : in.patch_pixels) {
            PixelSet set;
            for (PixelId px : pixels)
                set.set(std::size_t(local[px]));
            m_sets.push_back(set);
        }
        for (std::size_t p = 0; p < m_sets.size(); ++p) {
            Mask near = 0;
            for (std::size_t q = 0; q < m_sets.size(); ++q)
                if (q != p && (m_sets[p] & m_sets[q]).any())
                    near |= Mask(1) << q;
            m_neighbours.push_back(near);
        }
        prepareSymmetries(patchSymmetries(in));
        if (limits.below_duration)
            m_tolerance = 1e-9 * std::max(1.0, std::abs(*limits.below_duration));
        m_all = m_patches == 64 ? ~Mask(0) : (Mask(1) << m_patches) - 1;
        for (std::int64_t groups = 0; groups <= std::int64_t(m_patches) + 1; ++groups)
            m_loadsCap.push_back(mostLoadsBelow(groups));
        m_threads = std::max(1, limits.threads);
        if (in.group_count == GroupCount::ExactlyKMin) {
            m_reversalSteps = in.min_groups / 2;
            m_reversalShortfall = (in.min_groups * in.group_size - m_patches) / 2;
        }
    }

    PartitionBoundOutcome run()
    {
        PartitionBoundOutcome out;
        std::int64_t completed = 0; // states of the steps expanded in full
        out.bound = explore(completed);
        out.states = std::max(completed, m_statesSoFar.load());
        out.work = m_work.load();
        out.end = m_end;
        if (m_end != PartitionBoundEnd::Finished)
            out.bound.reset();
        else if (out.bound && m_limits.keep_partition)
            out.partition = rebuild();
        return out;
    }

private:
    using Layer = std::vector<Record>; // one step's states, sorted by (done, last)

    /// What a worker knows of a next group from one set of patches done.
    struct GroupNote {
        static constexpr std::int32_t kUnknown = -1;
        std::int32_t notKept = kUnknown;
        // The least entry any state of the set offers the next state (its
        // loads, then its last group), offered once the set is done with.
        std::int32_t loads = kUnknown;
        Mask parent = 0;
    };

    /// One thread's expansion of a step: the state being expanded and what
    /// it found, in its own table (dropped once sorted).
    struct Worker {
        std::unique_ptr<Table> next;
        std::vector<Record> sorted; // the map's states, sorted, once the step is expanded
        State from{0, 0};
        std::int64_t fromLoads = 0;
        std::int64_t groupsAfter = 0;
        PixelSet ahead; // pixels the patches not yet done need (set with memoDone)
        std::int64_t reuseBase = 0; // loads so far + |ahead|
        std::vector<Mask> byReuse = std::vector<Mask>(std::size_t(W * 64 + 1), 0);
        std::size_t mostHeld = std::size_t(W * 64); // the largest index of byReuse in use
        std::int64_t fewestGroups = 0; // groups any completion has at least
        std::int64_t aheadCap = 0; // the most loads ahead that can still beat the bound (hopeless above)
        Mask reusers = 0; // patches left holding some of the last union
        // The patches left, most of the last union held first (ties by
        // index), how much each holds, and the set of order[i..]: the
        // groups are grown in this order, so once a patch cannot bring
        // enough reuse, no later one can either.
        std::vector<int> order;
        std::vector<std::int64_t> held;
        std::vector<Mask> suffix;
        std::vector<std::int64_t> overlaps; // scratch of notKept
        // What is known of each next group from the patches done of memoDone
        // (chunks are runs of the sorted layer, so a set's states come one
        // after another), and the groups whose best entry waits in it.
        GroupMemo<GroupNote> memo;
        std::optional<Mask> memoDone; // none at the start of a step
        std::vector<std::pair<Mask, GroupNote *>> waiting;
        std::int64_t work = 0; // groups tried since the last flush into m_work
        bool reporter = false; // the calling thread's worker reports progress

        void reset()
        {
            next = std::make_unique<Table>();
            memoDone.reset(); // a set of patches done can come again at a later step (any number of groups)
        }
    };

    std::optional<double> explore(std::int64_t &states)
    {
        const std::int64_t maxGroups = std::min<std::int64_t>(m_in.max_groups, m_in.patches);
        Layer layer{Record{0, 0, 0, 0, 0}};
        std::optional<double> best;
        states = 1;
        std::vector<Worker> workers(static_cast<std::size_t>(m_threads));
        workers[0].reporter = true;
        for (std::int64_t t = 0; t < maxGroups && !layer.empty(); ++t) {
            for (Worker &w : workers)
                w.reset();
            m_chunk.store(0);
            m_statesBase = states;
            m_statesSoFar.store(states);
            onEveryWorker(workers, [&](Worker &w) {
                expandLayer(w, layer, t);
                if (!m_stopped.load())
                    sortStates(w);
            });
            if (m_stopped.load() || stoppedFromOutside())
                return std::nullopt;
            Layer next = merge(workers);
            if (pruning()) {
                std::vector<char> drop(next.size(), 0);
                const std::vector<std::size_t> cuts = doneRanges(next, workers.size());
                onEveryWorker(workers, [&](Worker &w) {
                    const std::size_t i = std::size_t(&w - workers.data());
                    markDominated(next, cuts[i], cuts[i + 1], drop);
                });
                std::size_t out = 0;
                for (std::size_t i = 0; i < next.size(); ++i)
                    if (!drop[i])
                        next[out++] = next[i];
                next.resize(out);
            }
            if (stoppedFromOutside())
                return std::nullopt;
            if (m_limits.beam_width > 0 && next.size() > std::size_t(m_limits.beam_width))
                keepBeam(next, std::size_t(m_limits.beam_width));
            states += std::int64_t(next.size());
            m_statesSoFar.store(states);
            if (states > m_limits.max_states) {
                m_end = PartitionBoundEnd::StatesCapHit;
                return std::nullopt;
            }
            for (const Record &r : next)
                if (r.done == m_all && t + 1 >= m_in.min_groups) {
                    const double d = m_in.duration(r.loads, t + 1);
                    if (!best || d < *best) {
                        best = d;
                        m_bestEnd = State{r.done, r.last};
                        m_bestSteps = std::size_t(t + 1);
                    }
                }
            if (m_limits.keep_partition)
                m_layers.push_back(std::move(layer));
            layer = std::move(next);
        }
        if (m_limits.keep_partition)
            m_layers.push_back(std::move(layer));
        m_end = PartitionBoundEnd::Finished;
        return best;
    }

    /// Expands chunks of the step's states until none is left or it stops.
    void expandLayer(Worker &w, const Layer &layer, std::int64_t t)
    {
        constexpr std::size_t chunk = 64;
        while (!m_stopped.load(std::memory_order_relaxed)) {
            const std::size_t from = m_chunk.fetch_add(chunk);
            if (from >= layer.size())
                break;
            const std::size_t to = std::min(layer.size(), from + chunk);
            for (std::size_t i = from; i < to && !m_stopped.load(std::memory_order_relaxed); ++i) {
                const Record &r = layer[i];
                const Mask remaining = m_all & ~r.done;
                const PixelSet lastUnion = unionOf(r.last);
                if (w.memoDone != r.done) { // a new set of patches done (or the step's first)
                    offerWaiting(w);
                    w.memo.clear();
                    w.memoDone = r.done;
                    w.ahead = unionOf(remaining);
                }
                w.from = State{r.done, r.last};
                w.fromLoads = r.loads;
                w.groupsAfter = t + 1;
                prepareOrder(w, remaining, lastUnion);
                extend(w, remaining, 0, 0, PixelSet{}, lastUnion);
            }
        }
        offerWaiting(w);
        flushWork(w);
    }

    /// Runs `job` on every worker, the first on the calling thread. What a
    /// job throws (std::bad_alloc: the states outgrow the memory) is thrown
    /// here once every thread has ended, the first worker's first: an
    /// exception on a helper thread would end the process (std::terminate).
    /// The others stop at their next look at m_stopped.
    template <class Job> void onEveryWorker(std::vector<Worker> &workers, const Job &job)
    {
        std::vector<std::exception_ptr> failures(workers.size());
        const auto guarded = [&](std::size_t i) {
            try {
                job(workers[i]);
            } catch (...) {
                failures[i] = std::current_exception();
                m_stopped.store(true);
            }
        };
        std::vector<std::thread> helpers;
        for (std::size_t i = 1; i < workers.size(); ++i) {
            try {
                helpers.emplace_back(guarded, i);
            } catch (...) { // no thread (or no memory for one): this thread does its work
                guarded(i);
            }
        }
        guarded(0);
        for (std::thread &h : helpers)
            h.join();
        for (const std::exception_ptr &failure : failures)
            if (failure)
                std::rethrow_exception(failure);
    }

    /// Cancel or deadline, between the phases of a step.
    bool stoppedFromOutside()
    {
        if (m_limits.cancel && m_limits.cancel->load())
            stop(PartitionBoundEnd::Cancelled);
        else if (m_limits.deadline && std::chrono::steady_clock::now() > *m_limits.deadline)
            stop(PartitionBoundEnd::TimedOut);
        return m_stopped.load();
    }

    /// A worker's states as an array sorted by (done, last); its map goes.
    static void sortStates(Worker &w)
    {
        w.sorted.clear();
        w.sorted.reserve(w.next->size());
        for (const Table::Slot &slot : w.next->slots())
            if (slot.state.last != 0)
                w.sorted.push_back(
                    Record{slot.state.done, slot.state.last, slot.entry.parent, slot.entry.loads, slot.entry.symmetry});
        w.next.reset();
        std::sort(w.sorted.begin(), w.sorted.end(), recordBefore);
    }

    /// Every worker's sorted states in one array sorted by (done, last),
    /// each state once with its least entry (entryBefore).
    static Layer merge(std::vector<Worker> &workers)
    {
        Layer next = std::move(workers[0].sorted);
        for (std::size_t i = 1; i < workers.size(); ++i) {
            Layer both;
            both.reserve(next.size() + workers[i].sorted.size());
            auto a = next.begin();
            auto b = workers[i].sorted.begin();
            const auto aEnd = next.end(), bEnd = workers[i].sorted.end();
            while (a != aEnd || b != bEnd) {
                if (b == bEnd || (a != aEnd && recordBefore(*a, *b)))
                    both.push_back(*a++);
                else if (a == aEnd || recordBefore(*b, *a))
                    both.push_back(*b++);
                else { // the same state from both: the least entry
                    const bool first
                        = !entryBefore(Entry{b->loads, b->symmetry, b->parent}, Entry{a->loads, a->symmetry, a->parent});
                    both.push_back(first ? *a : *b);
                    ++a;
                    ++b;
                }
            }
            next = std::move(both);
            workers[i].sorted = Layer();
        }
        return next;
    }

    /// A beam (PartitionBoundLimits::beam_width): the `width` states of least
    /// loads + |pixels the patches left need \ the last union|, ties to the
    /// first in (done, last) order; the layer stays sorted.
    void keepBeam(Layer &layer, std::size_t width) const
    {
        std::vector<std::pair<std::int64_t, std::size_t>> keys;
        keys.reserve(layer.size());
        for (std::size_t i = 0; i < layer.size(); ++i) {
            const PixelSet ahead = unionOf(m_all & ~layer[i].done);
            keys.push_back({layer[i].loads + ahead.countMinus(unionOf(layer[i].last)), i});
        }
        std::nth_element(keys.begin(), keys.begin() + std::ptrdiff_t(width), keys.end());
        keys.resize(width);
        std::sort(keys.begin(), keys.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        Layer kept;
        kept.reserve(width);
        for (const auto &key : keys)
            kept.push_back(layer[key.second]);
        layer = std::move(kept);
    }

    /// `parts` + 1 cuts of the layer into ranges of about equal size, each
    /// starting at a new set of patches done.
    static std::vector<std::size_t> doneRanges(const Layer &layer, std::size_t parts)
    {
        std::vector<std::size_t> cuts{0};
        for (std::size_t i = 1; i < parts; ++i) {
            std::size_t at = std::max(cuts.back(), layer.size() * i / parts);
            while (at > cuts.back() && at < layer.size() && layer[at].done == layer[at - 1].done)
                ++at;
            cuts.push_back(at);
        }
        cuts.push_back(layer.size());
        return cuts;
    }

    /// Dominance among the states of one step with the same patches done:
    /// only the pixels of the last union that the patches left need (its
    /// kept pixels k) matter to what follows, and any next group loads at
    /// most |k_B \ k_A| more after A than after B. So B is dropped when a
    /// state A kept has loads_A + |k_B \ k_A| <= loads_B: for every
    /// completion of B, the same completion of A costs no more. States are
    /// visited by loads, so each dropped state has a kept dominator. Marks
    /// the dropped states of [from, to) in `drop`.
    void markDominated(const Layer &layer, std::size_t from, std::size_t to, std::vector<char> &drop) const
    {
        std::vector<std::size_t> order;
        std::vector<std::pair<PixelSet, std::int64_t>> kept;
        for (std::size_t i = from; i < to;) {
            std::size_t end = i;
            while (end < to && layer[end].done == layer[i].done)
                ++end;
            if (end - i > 1) {
                order.clear();
                for (std::size_t j = i; j < end; ++j)
                    order.push_back(j);
                std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                    return layer[a].loads != layer[b].loads ? layer[a].loads < layer[b].loads : a < b;
                });
                const PixelSet ahead = unionOf(m_all & ~layer[i].done);
                kept.clear();
                for (const std::size_t j : order) {
                    const PixelSet k = unionOf(layer[j].last) & ahead;
                    bool dominated = false;
                    for (const auto &[other, loads] : kept)
                        if (loads + k.countMinus(other) <= layer[j].loads) {
                            dominated = true;
                            break;
                        }
                    if (dominated)
                        drop[j] = 1;
                    else
                        kept.emplace_back(k, layer[j].loads);
                }
            }
            i = end;
        }
    }

    /// The ordered partition of the best end state, walking the parents back.
    /// Each kept state is the image of the state its parent reached under its
    /// symmetry σ, so the walk undoes σ to find the parent, and writes every
    /// group in the frame of the end state: a group of step t − 1 as
    /// σ_T ∘ … ∘ σ_t applied to it (the image of an optimal partition under a
    /// symmetry of the instance is one too).
    Groups rebuild() const
    {
        Groups groups(m_bestSteps);
        State s = m_bestEnd;
        std::size_t frame = 0; // σ_T ∘ … ∘ σ_(t+1), an index of m_maps
        for (std::size_t t = m_bestSteps; t > 0; --t) {
            groups[t - 1] = patchesOf(m_maps[frame](s.last));
            const Layer &layer = m_layers[t];
            const Record key{s.done, s.last, 0, 0, 0};
            const auto it = std::lower_bound(layer.begin(), layer.end(), key, recordBefore);
            const std::size_t sigma = std::size_t(it->symmetry);
            const MaskMap<Mask> &undo = m_maps[m_inverse[sigma]];
            s = State{undo(s.done) & ~undo(s.last), it->parent};
            frame = m_compose[frame][sigma];
        }
        return groups;
    }

    /// The least image of a state under the instance's symmetries, and the
    /// index (in m_maps) of the symmetry that gives it.
    std::pair<State, std::int32_t> canonical(const State &s) const
    {
        State best = s;
        std::int32_t by = 0;
        for (std::size_t i = 1; i < m_maps.size(); ++i) {
            const Mask done = m_maps[i](s.done);
            if (done > best.done)
                continue;
            const Mask last = m_maps[i](s.last);
            if (done < best.done || last < best.last) {
                best = State{done, last};
                by = std::int32_t(i);
            }
        }
        return {best, by};
    }

    /// m_maps, m_inverse and m_compose from the instance's symmetries.
    void prepareSymmetries(const std::vector<std::vector<PatchId>> &symmetries)
    {
        std::vector<std::vector<PatchId>> perms;
        std::vector<PatchId> identity(static_cast<std::size_t>(m_patches));
        for (std::size_t p = 0; p < identity.size(); ++p)
            identity[p] = PatchId(p);
        perms.push_back(identity);
        for (const auto &sigma : symmetries)
            perms.push_back(sigma);
        auto indexOf = [&](const std::vector<PatchId> &perm) {
            return std::size_t(std::find(perms.begin(), perms.end(), perm) - perms.begin());
        };
        m_compose.assign(perms.size(), std::vector<std::size_t>(perms.size(), 0));
        m_inverse.assign(perms.size(), 0);
        for (std::size_t a = 0; a < perms.size(); ++a) {
            m_maps.emplace_back(perms[a]);
            std::vector<PatchId> inverse(perms[a].size());
            for (std::size_t p = 0; p < inverse.size(); ++p)
                inverse[perms[a][p]] = PatchId(p);
            m_inverse[a] = indexOf(inverse);
            for (std::size_t b = 0; b < perms.size(); ++b) {
                std::vector<PatchId> ab(perms[b].size()); // a ∘ b
                for (std::size_t p = 0; p < ab.size(); ++p)
                    ab[p] = perms[a][perms[b][p]];
                m_compose[a][b] = indexOf(ab);
                if (m_compose[a][b] == perms.size() || m_inverse[a] == perms.size()) {
                    // Not a group (cannot happen for true symmetries): keep states as reached.
                    m_maps.assign(1, MaskMap<Mask>(identity));
                    m_inverse.assign(1, 0);
                    m_compose.assign(1, std::vector<std::size_t>(1, 0));
                    return;
                }
            }
        }
    }

    PixelSet unionOf(Mask patches) const
    {
        PixelSet u;
        for (Mask rest = patches; rest != 0; rest &= rest - 1)
            u |= m_sets[std::size_t(lowestBit(rest))];
        return u;
    }

    /// Whether `left` patches can still fill the groups allowed after `groupsAfter`.
    bool canFinish(std::int64_t left, std::int64_t groupsAfter) const
    {
        const std::int64_t groupsLeftMax = m_in.max_groups - groupsAfter;
        if (left > groupsLeftMax * m_in.group_size)
            return false;
        if (m_in.group_count == GroupCount::ExactlyKMin)
            return left >= groupsLeftMax; // every remaining group needs a patch
        return true;
    }

    /// Grows the next group from the patches left at positions `from` on of
    /// the worker's order; every non-empty group that fits memory becomes a
    /// transition.
    void extend(Worker &w, Mask remaining, std::size_t from, Mask group, const PixelSet &u, const PixelSet &lastUnion)
    {
        const std::int64_t size = bitCount(group) + 1; // of each group grown here
        const std::int64_t slots = size < m_in.group_size ? m_in.group_size - size : 0;
        const std::int64_t reuseSoFar = pruning() ? u.countAnd(lastUnion) : 0;
        for (std::size_t i = from; i < w.order.size(); ++i) {
            if (++w.work % 4096 == 0 && interrupted(w))
                return;
            if (pruning() && hopeless(w, w.reuseBase - reuseSoFar - (slots + 1) * w.held[i]))
                break; // this patch and every later one hold at most held[i] each
            const int p = w.order[i];
            const Mask grown = group | (Mask(1) << p);
            const PixelSet grownUnion = u | m_sets[std::size_t(p)];
            if (!m_in.fitsMemory(std::int64_t(grownUnion.count()), size))
                continue; // a superset only needs more
            const Mask candidates = i + 1 < w.suffix.size() ? w.suffix[i + 1] : 0;
            if (pruning()) {
                // This group and every superset still to be grown from it.
                const std::int64_t reuse = grownUnion.countAnd(lastUnion);
                const std::int64_t next = i + 1 < w.held.size() ? w.held[i + 1] : 0;
                if (hopeless(w, w.reuseBase - reuse - slots * next))
                    continue;
                if (slots > 0 && hopeless(w, w.reuseBase - reuse - mostNewReuse(w, candidates, grownUnion, lastUnion, slots)))
                    continue;
            }
            transition(w, remaining & ~grown, grown, grownUnion, lastUnion);
            if (size < m_in.group_size && candidates != 0)
                extend(w, remaining, i + 1, grown, grownUnion, lastUnion);
            if (m_stopped.load(std::memory_order_relaxed))
                return;
        }
    }

    bool pruning() const { return m_limits.known_loads || m_limits.below_duration; }

    /// For the state being expanded: the order in which groups are grown
    /// (extend), and for the pruning (with the pixels the patches left need,
    /// w.ahead, already set) each patch left by how much of the last group's union
    /// it holds. Any next group g' (its union u' lies in ahead) has at least
    ///   loads so far + |u' \ last| + |ahead \ u'| = loads so far + |ahead| - |u' ∩ last|
    /// ahead, so it must reuse enough of the last union to beat the bound.
    void prepareOrder(Worker &w, Mask remaining, const PixelSet &lastUnion) const
    {
        w.order.clear();
        w.held.clear();
        if (!pruning()) {
            for (Mask rest = remaining; rest != 0; rest &= rest - 1) {
                w.order.push_back(lowestBit(rest));
                w.held.push_back(0);
            }
        } else {
            w.reuseBase = w.fromLoads + w.ahead.count();
            std::fill(w.byReuse.begin(), w.byReuse.begin() + std::ptrdiff_t(w.mostHeld + 1), 0);
            w.mostHeld = 0;
            w.reusers = 0;
            for (Mask rest = remaining; rest != 0; rest &= rest - 1) {
                const int q = lowestBit(rest);
                const std::size_t held = std::size_t(m_sets[std::size_t(q)].countAnd(lastUnion));
                w.byReuse[held] |= Mask(1) << q;
                if (held > 0)
                    w.reusers |= Mask(1) << q;
                w.mostHeld = std::max(w.mostHeld, held);
            }
            for (std::size_t held = w.mostHeld + 1; held-- > 0;)
                for (Mask rest = w.byReuse[held]; rest != 0; rest &= rest - 1) {
                    w.order.push_back(lowestBit(rest));
                    w.held.push_back(std::int64_t(held));
                }
            // This group takes at most G of the patches left; the rest need
            // ceil((left - G) / G) = floor((left - 1) / G) more groups.
            const std::int64_t left = bitCount(remaining);
            w.fewestGroups = std::max<std::int64_t>(m_in.min_groups, w.groupsAfter + (left - 1) / m_in.group_size);
            w.aheadCap = loadsCap(w.fewestGroups);
        }
        w.suffix.assign(w.order.size(), 0);
        Mask after = 0;
        for (std::size_t i = w.order.size(); i-- > 0;) {
            after |= Mask(1) << w.order[i];
            w.suffix[i] = after;
        }
    }

    /// The most loads a strategy of `groups` groups can have and still beat
    /// the limits: worked out once per group count in the constructor.
    std::int64_t loadsCap(std::int64_t groups) const
    {
        return groups >= 0 && groups < std::int64_t(m_loadsCap.size()) ? m_loadsCap[std::size_t(groups)] : mostLoadsBelow(groups);
    }

    /// The most loads a strategy of `groups` groups can have and still beat
    /// the limits (known_loads, below_duration), as duration() decides it.
    std::int64_t mostLoadsBelow(std::int64_t groups) const
    {
        std::int64_t most = std::numeric_limits<std::int32_t>::max();
        if (m_limits.known_loads)
            most = std::min(most, *m_limits.known_loads);
        if (m_limits.below_duration) {
            const double limit = *m_limits.below_duration - m_tolerance;
            auto beats = [&](std::int64_t loads) { return !(m_in.duration(loads, groups) >= limit); }; // NaN: no limit
            // duration() grows with the loads: the last that beats, by bisection.
            std::int64_t lo = -1; // beats (or the floor)
            std::int64_t hi = most + 1; // does not beat (or the ceiling)
            if (beats(hi - 1))
                return most;
            while (hi - lo > 1) {
                const std::int64_t mid = lo + (hi - lo) / 2;
                (beats(mid) ? lo : hi) = mid;
            }
            most = lo;
        }
        return most;
    }

    /// The most of the last union one of `candidates` holds.
    static std::int64_t mostReuse(const Worker &w, Mask candidates)
    {
        for (std::size_t held = w.mostHeld + 1; held-- > 0;)
            if (w.byReuse[held] & candidates)
                return std::int64_t(held);
        return 0;
    }

    /// A sharper bound on what `slots` more of `candidates` can add to the
    /// group's reuse: each adds at most the pixels of the last union it
    /// holds that the group does not hold yet, so at most the sum of the
    /// `slots` largest of those counts (only patches holding some of the
    /// last union count).
    std::int64_t mostNewReuse(Worker &w, Mask candidates, const PixelSet &u, const PixelSet &lastUnion, std::int64_t slots) const
    {
        PixelSet open = lastUnion;
        for (int i = 0; i < W; ++i)
            open.w[i] &= ~u.w[i];
        if (slots > kMostLargest)
            return slots * mostReuse(w, candidates);
        return largestOverlaps(candidates & w.reusers, open, slots);
    }

    static constexpr std::int64_t kMostLargest = 16;

    /// The sum of the k (at most kMostLargest) largest overlaps of the
    /// `patches`' pixel sets with `pixels`, kept by insertion in registers.
    std::int64_t largestOverlaps(Mask patches, const PixelSet &pixels, std::int64_t k) const
    {
        std::int64_t best[kMostLargest] = {};
        for (Mask rest = patches; rest != 0; rest &= rest - 1) {
            std::int64_t overlap = m_sets[std::size_t(lowestBit(rest))].countAnd(pixels);
            for (std::int64_t i = 0; i < k && overlap > 0; ++i)
                if (overlap > best[i])
                    std::swap(overlap, best[i]);
        }
        std::int64_t sum = 0;
        for (std::int64_t i = 0; i < k; ++i)
            sum += best[i];
        return sum;
    }

    /// Whether `ahead` loads from the state being expanded (this step's
    /// included) already reach the strategy to beat.
    static bool hopeless(const Worker &w, std::int64_t ahead) { return ahead > w.aheadCap; }

    void flushWork(Worker &w)
    {
        m_work.fetch_add(w.work);
        w.work = 0;
    }

    /// Every 4096 groups tried: the work cap, cancel and deadline; progress
    /// from the calling thread's worker.
    bool interrupted(Worker &w)
    {
        const std::int64_t work = m_work.fetch_add(w.work) + w.work;
        w.work = 0;
        if (work > m_limits.max_work) {
            stop(PartitionBoundEnd::WorkCapHit);
            return true;
        }
        if (m_stopped.load(std::memory_order_relaxed))
            return true;
        if (m_limits.cancel && m_limits.cancel->load()) {
            stop(PartitionBoundEnd::Cancelled);
            return true;
        }
        if (m_limits.deadline && std::chrono::steady_clock::now() > *m_limits.deadline) {
            stop(PartitionBoundEnd::TimedOut);
            return true;
        }
        if (w.reporter && m_limits.progress && ++m_reports % 16 == 0)
            m_limits.progress(m_statesSoFar.load());
        return false;
    }

    /// The first reason to stop is the one reported.
    void stop(PartitionBoundEnd why)
    {
        const std::lock_guard<std::mutex> lock(m_stopMutex);
        if (m_stopped.load())
            return;
        m_end = why;
        m_stopped.store(true);
    }

    void transition(Worker &w, Mask left, Mask group, const PixelSet &u, const PixelSet &lastUnion)
    {
        if (!canFinish(bitCount(left), w.groupsAfter))
            return;
        if (w.groupsAfter == 1 && !canonicalFirst(group))
            return;
        if (!reversalAllows(w.groupsAfter, bitCount(left)))
            return;
        const std::int64_t loads = w.fromLoads + u.countMinus(lastUnion);
        // Looked up at most once per transition (only when needed: a group
        // pruned on the cheap counts below takes no room in the memo).
        GroupNote *note = nullptr;
        bool noted = false;
        if (pruning()) {
            // The fewest groups that can take the patches left.
            const std::int64_t groups = std::max(
                w.groupsAfter + (bitCount(left) + m_in.group_size - 1) / m_in.group_size, std::int64_t(m_in.min_groups));
            const std::int64_t cap = loadsCap(groups);
            auto beaten = [&](std::int64_t ahead) { return loads + ahead > cap; };
            // At least the pixels the patches left need and the group does
            // not hold; then those it holds that the next group cannot keep
            // (worked out only when they could make the difference).
            const std::int64_t outside = w.ahead.countMinus(u);
            if (beaten(outside))
                return;
            const std::int64_t held = w.ahead.countAnd(u);
            if (held > 0 && beaten(outside + held)) {
                note = w.memo.find(group);
                noted = true;
                if (beaten(outside + rememberedNotKept(w, note, left, group, u)))
                    return;
            }
        }
        if (!noted)
            note = w.memo.find(group);
        if (note == nullptr) { // the memo is full: at once
            const std::size_t before = w.next->size();
            offerNext(w, group, Entry{std::int32_t(loads), 0, w.from.last});
            countStates(w, before);
            return;
        }
        // The states of one set of patches done all lead to the same next
        // state with a group, and only the least entry survives (the merge
        // picks it for any number of threads): it is offered once.
        if (note->loads == GroupNote::kUnknown)
            w.waiting.push_back({group, note});
        else if (!(loads < note->loads || (loads == note->loads && w.from.last < note->parent)))
            return;
        note->loads = std::int32_t(loads);
        note->parent = w.from.last;
    }

    /// The state after `group` from the set of patches done being expanded, with its entry.
    void offerNext(Worker &w, Mask group, Entry entry) const
    {
        const auto [state, symmetry] = canonical(State{*w.memoDone | group, group});
        entry.symmetry = symmetry;
        w.next->offer(state, entry);
    }

    /// The least entries waiting in the memo, into the step's table.
    void offerWaiting(Worker &w)
    {
        const std::size_t before = w.next->size();
        for (const auto &[group, note] : w.waiting)
            offerNext(w, group, Entry{note->loads, 0, note->parent});
        w.waiting.clear();
        countStates(w, before);
    }

    /// New states in the worker's table since it held `before`, against the states cap.
    void countStates(Worker &w, std::size_t before)
    {
        const std::int64_t added = std::int64_t(w.next->size() - before);
        if (added > 0 && m_statesSoFar.fetch_add(added) + added > m_limits.max_states)
            stop(PartitionBoundEnd::StatesCapHit);
    }

    /// Reversal: an ordered partition and its reverse have the same loads
    /// (Σ|U_t| − Σ|U_t ∩ U_t-1| reads the same both ways), the same groups
    /// and memory. With exactly K groups of at most G patches for n patches,
    /// the groups fall short of G by d = K·G − n patches in all; a partition
    /// or its reverse has at most ⌊d/2⌋ of that shortfall in its first ⌊K/2⌋
    /// groups. So only those are kept (the image under a flip or turn of the
    /// grid has the same group sizes, so the first group's symmetry breaking
    /// still applies).
    bool reversalAllows(std::int64_t groupsAfter, std::int64_t left) const
    {
        if (groupsAfter > m_reversalSteps)
            return true;
        return groupsAfter * m_in.group_size - (m_patches - left) <= m_reversalShortfall;
    }

    /// Symmetry breaking: a first group is kept only when no symmetry of the
    /// instance maps it to a smaller bitmask. Any ordered partition has an
    /// image under some symmetry (same loads, memory, reload counts) whose
    /// first group is the least of its orbit, and that one is kept.
    bool canonicalFirst(Mask group) const
    {
        for (std::size_t i = 1; i < m_maps.size(); ++i) // 0 is the identity
            if (m_maps[i](group) < group)
                return false;
        return true;
    }

    /// notKept, worked out once per group for the states of one set of
    /// patches done (it does not depend on their last group).
    /// `note` is the group's (nullptr when the memo is full).
    std::int64_t rememberedNotKept(Worker &w, GroupNote *note, Mask left, Mask group, const PixelSet &u) const
    {
        if (note == nullptr)
            return notKept(w, left, group, u);
        if (note->notKept == GroupNote::kUnknown)
            note->notKept = std::int32_t(notKept(w, left, group, u));
        return note->notKept;
    }

    /// Pixels the group holds (u) that the patches `left` need, but that the
    /// next group cannot keep: each is loaded again later. The next group
    /// holds at most G of those patches, and each keeps at most its own
    /// overlap with them, so it keeps at most the G largest overlaps. Only
    /// neighbours of the group's patches can overlap u.
    std::int64_t notKept(Worker &w, Mask left, Mask group, const PixelSet &u) const
    {
        Mask near = 0;
        for (Mask rest = group; rest != 0; rest &= rest - 1)
            near |= m_neighbours[std::size_t(lowestBit(rest))];
        near &= left;
        PixelSet needed;
        for (Mask rest = near; rest != 0; rest &= rest - 1)
            needed |= m_sets[std::size_t(lowestBit(rest))];
        needed &= u;
        const std::int64_t count = needed.count();
        if (count == 0)
            return 0;
        if (m_in.group_size <= kMostLargest)
            return std::max<std::int64_t>(0, count - largestOverlaps(near, needed, m_in.group_size));
        w.overlaps.clear();
        for (Mask rest = near; rest != 0; rest &= rest - 1)
            w.overlaps.push_back(m_sets[std::size_t(lowestBit(rest))].countAnd(needed));
        const std::size_t g = std::min(w.overlaps.size(), std::size_t(m_in.group_size));
        std::partial_sort(w.overlaps.begin(), w.overlaps.begin() + std::ptrdiff_t(g), w.overlaps.end(), std::greater<>());
        std::int64_t kept = 0;
        for (std::size_t i = 0; i < g; ++i)
            kept += w.overlaps[i];
        return std::max<std::int64_t>(0, count - kept);
    }

    const S1Instance &m_in;
    const PartitionBoundLimits &m_limits;
    const int m_patches;
    int m_threads = 1;
    std::vector<PixelSet> m_sets;
    std::vector<Mask> m_neighbours; // patches sharing a pixel with each patch
    // Index 0 is the identity, i > 0 the instance's symmetry i - 1 (patchSymmetries); the
    // symmetries of an instance form a group, so inverses and compositions
    // are among them.
    std::vector<MaskMap<Mask>> m_maps;
    std::vector<std::size_t> m_inverse;
    std::vector<std::vector<std::size_t>> m_compose; // [a][b]: a ∘ b
    Mask m_all = 0;
    double m_tolerance = 0; // of below_duration
    std::vector<std::int64_t> m_loadsCap; // mostLoadsBelow(groups), by groups
    // reversalAllows: the first ⌊K/2⌋ steps (none unless exactly K_min groups), and ⌊d/2⌋.
    std::int64_t m_reversalSteps = 0;
    std::int64_t m_reversalShortfall = 0;
    // Shared by the workers of a step.
    std::atomic<std::size_t> m_chunk{0}; // the next state to expand
    std::atomic<std::int64_t> m_work{0}; // groups tried, flushed every 4096
    std::atomic<std::int64_t> m_statesSoFar{1};
    std::atomic<bool> m_stopped{false}; // out of work or states, cancelled or timed out
    std::mutex m_stopMutex; // guards m_end while running
    PartitionBoundEnd m_end = PartitionBoundEnd::Finished;
    std::int64_t m_statesBase = 0;
    std::int64_t m_reports = 0; // the reporter's interruption checks
    // keep_partition: every step's states, and the best end state.
    std::vector<Layer> m_layers;
    State m_bestEnd{0, 0};
    std::size_t m_bestSteps = 0;
};

/// The dynamic programming on an instance that fits (at most 64 patches and
/// 256 needed pixels), with the fewest words per pixel set.
inline PartitionBoundOutcome runPartitionDp(const S1Instance &in, const PartitionBoundLimits &limits)
{
    const std::size_t pixels = in.needed_pixels.size();
    if (pixels <= 64)
        return PartitionDp<1>(in, limits).run();
    if (pixels <= 128)
        return PartitionDp<2>(in, limits).run();
    return PartitionDp<4>(in, limits).run();
}

} // namespace
} // namespace convoffload
