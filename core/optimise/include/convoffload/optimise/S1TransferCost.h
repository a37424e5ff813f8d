// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The transfer model (docs/reference/model.md#transfer-cost) of an S1
// strategy whose outputs are written at the next step, priced from sets of
// pixels and patches rather than from expanded steps: the search minimises
// it (docs/reference/cli.md#under-a-transfer-model).
//
// A step's input load is the set of pixels it loads; with S1 every pixel is
// loaded whole (all C_in channels), so under NHWC a pixel is C_in adjacent
// addresses and under NCHW one address in each of C_in channel lanes that
// hold the same pixels. A group's write is its patches' outputs (all N
// kernels). Both are priced from their items sorted: runs of consecutive
// items, one per lane, a lane's last run joining the next lane's first when
// their addresses meet; and the blocks of each run, which depend on a
// lane's start modulo the burst only, so lanes are counted by that residue.
//
// The kernel-blocked family (KernelBlockedSearch.h) runs each group once per
// block of B kernels; makeKernelBlocked prices that schedule: a group's
// write is one write per block (its patches times the block's kernels), the
// kernels are loaded block by block, and kernels-outer walks the groups once
// per block, backwards on odd blocks, so a step there loads what the group
// after it in the order does not hold (loads()).
#include "convoffload/model/ComputeStep.h"
#include "convoffload/model/Ids.h"
#include "convoffload/model/Problem.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace convoffload {

struct TransferTally {
    std::int64_t runs = 0, blocks = 0;
    TransferTally &operator+=(const TransferTally &o)
    {
        runs += o.runs;
        blocks += o.blocks;
        return *this;
    }
    TransferTally &operator-=(const TransferTally &o)
    {
        runs -= o.runs;
        blocks -= o.blocks;
        return *this;
    }
    bool operator==(const TransferTally &) const = default;
};

class S1TransferCost {
public:
    /// Nullopt when the problem has no transfer model, a linear one (burst 1,
    /// no set-up: the linear cost is exact), or writes outputs as late as
    /// possible (which outputs a write moves then depends on memory).
    static std::optional<S1TransferCost> make(const Problem &problem);
    /// The same for a kernel-blocked member's loop and block size B on a
    /// layer with one channel group; nullopt also for a grouped layer (its
    /// steps load some channel groups of a pixel: not priced here).
    static std::optional<S1TransferCost> makeKernelBlocked(const Problem &problem, KernelLoop loop, std::int64_t kernelBlock);

    /// Kernels-outer: the loads depend on the walk's direction, so the
    /// caller keeps both tallies (backward: what the group after it does not hold).
    bool needsBackward() const { return m_loop == Loop::KernelsOuter; }
    /// Every load of the schedule from the tallies of its groups in order:
    /// forward (each step loads what the group before it does not hold),
    /// backward (... after it), the first group's forward load and the last
    /// group's backward load. S1 and patches-outer: `forward`. Kernels-outer
    /// walks m passes, forwards on even blocks and backwards on odd ones,
    /// and each pass after the first starts with the group the last ended
    /// with, whose pixels stay on chip.
    TransferTally loads(
        const TransferTally &forward, const TransferTally &backward, const TransferTally &first, const TransferTally &last) const;

    /// A pixel's index in the stored input (its padded id when padding is in
    /// DRAM); the input's items.
    std::int64_t storedIndex(PixelId px) const { return m_stored[px]; }

    /// The runs and blocks of loading these pixels, by stored index, ascending.
    TransferTally input(std::span<const std::int64_t> storedAscending) const;
    /// ... of writing every output of these patches, ascending.
    TransferTally outputs(std::span<const std::int64_t> patchesAscending) const;

    /// The transfer part of a strategy of `groups` groups: its loads (as
    /// loads() sums them) and writes, and the kernels' loads (nothing when
    /// preloaded): one load for S1; block by block for the kernel-blocked
    /// loops, patches-outer's groups after the first loading every block
    /// but the one the group before ends with.
    double duration(const TransferTally &loads, const TransferTally &writes, std::int64_t groups = 1) const
    {
        double kernels = m_kernels;
        if (groups > 1)
            kernels += double(groups / 2) * m_kernelsOdd + double((groups - 1) / 2) * m_kernelsEven;
        return double(loads.runs + writes.runs) * m_setup + double(loads.blocks) * double(m_burst) * m_tl
            + double(writes.blocks) * double(m_burst) * m_tw + kernels;
    }

    /// How the items of a tensor lie: item q of lane c covers the addresses
    /// [(c·length + q)·width, (c·length + q + 1)·width) counted from the
    /// first lane's start, whose residue modulo the burst is firstResidue;
    /// or, with a pitch above the width (a block of kernels' outputs under
    /// nhwc), one lane whose item q covers [offset + q·pitch, + width).
    struct Lanes {
        std::int64_t lanes = 1, length = 1, width = 1;
        std::int64_t pitch = 0, offset = 0;
        // Lane starts modulo the burst, with how many lanes have each:
        // every lane, and every lane but the last (those a run may join).
        std::vector<std::pair<std::int64_t, std::int64_t>> residues, joinResidues;
        std::int64_t firstResidue = 0, lastResidue = 0;
    };

private:
    enum class Loop { S1, KernelsOuter, PatchesOuter };
    S1TransferCost() = default;
    /// `count` lanes from lane `firstLane` of a tensor of such lanes.
    Lanes lanes(std::int64_t count, std::int64_t length, std::int64_t width, std::int64_t firstLane = 0) const;
    TransferTally count(const Lanes &lanes, std::span<const std::int64_t> items) const;
    std::int64_t blocks(std::int64_t residue, std::int64_t first, std::int64_t last) const
    {
        return (residue + last) / m_burst - (residue + first) / m_burst + 1;
    }

    Loop m_loop = Loop::S1;
    std::int64_t m_burst = 1;
    std::int64_t m_passes = 1; // kernels-outer: the blocks, one pass of the groups each
    double m_setup = 0, m_tl = 1, m_tw = 1;
    double m_kernels = 0; // the kernels' loads of the first group (or of every pass)
    double m_kernelsOdd = 0, m_kernelsEven = 0; // patches-outer: of the second, fourth... group; of the third, fifth...
    std::vector<std::int64_t> m_stored; // by pixel id; -1 for padding not in DRAM
    Lanes m_input;
    std::vector<Lanes> m_outputs; // one write per part: S1's one, a block's each
};

} // namespace convoffload
