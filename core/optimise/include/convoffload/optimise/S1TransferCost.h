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

    /// A pixel's index in the stored input (its padded id when padding is in
    /// DRAM); the input's items.
    std::int64_t storedIndex(PixelId px) const { return m_stored[px]; }

    /// The runs and blocks of loading these pixels, by stored index, ascending.
    TransferTally input(std::span<const std::int64_t> storedAscending) const;
    /// ... of writing every output of these patches, ascending.
    TransferTally outputs(std::span<const std::int64_t> patchesAscending) const;

    /// The transfer part of a strategy's duration: its loads and writes, and
    /// the kernels' one load (nothing when preloaded).
    double duration(const TransferTally &loads, const TransferTally &writes) const
    {
        return double(loads.runs + writes.runs) * m_setup + double(loads.blocks) * double(m_burst) * m_tl
            + double(writes.blocks) * double(m_burst) * m_tw + m_kernels;
    }

    /// How the items of a tensor lie: item q of lane c covers the addresses
    /// [(c·length + q)·width, (c·length + q + 1)·width).
    struct Lanes {
        std::int64_t lanes = 1, length = 1, width = 1;
        // Lane starts modulo the burst, with how many lanes have each:
        // every lane, and every lane but the last (those a run may join).
        std::vector<std::pair<std::int64_t, std::int64_t>> residues, joinResidues;
        std::int64_t lastResidue = 0;
    };

private:
    S1TransferCost() = default;
    Lanes lanes(std::int64_t count, std::int64_t length, std::int64_t width) const;
    TransferTally count(const Lanes &lanes, std::span<const std::int64_t> items) const;
    std::int64_t blocks(std::int64_t residue, std::int64_t first, std::int64_t last) const
    {
        return (residue + last) / m_burst - (residue + first) / m_burst + 1;
    }

    std::int64_t m_burst = 1;
    double m_setup = 0, m_tl = 1, m_tw = 1, m_kernels = 0;
    std::vector<std::int64_t> m_stored; // by pixel id; -1 for padding not in DRAM
    Lanes m_input, m_output;
};

} // namespace convoffload
