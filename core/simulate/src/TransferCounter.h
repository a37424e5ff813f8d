// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the simulate library: the transfer model's counts of one action
// (docs/reference/model.md#transfer-cost). An action moves a set of
// elements; their DRAM addresses, sorted, cut into maximal runs of
// consecutive addresses (one DMA descriptor each), and each run touches
// some aligned blocks of `burst` elements.
//
// No address is sorted: the ids an action lists come in ascending order, and
// in that order the addresses of one *lane* ascend too — with NHWC a slice
// is one contiguous range and slices ascend with their ids (one lane); with
// NCHW each channel of the input (each kernel of the output) is a lane whose
// addresses ascend with the pixel (patch). A run is continued when an
// address follows its lane's last one, so each lane is cut into runs in one
// pass; lanes are disjoint, ascending address ranges, so only a lane's
// first run can continue the previous lane's last one (end() joins them).

#include "convoffload/model/Ids.h"
#include "convoffload/simulate/SimulationResult.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace convoffload::detail {

struct TransferCounts {
    std::int64_t runs = 0, blocks = 0;
    TransferCounts &operator+=(const TransferCounts &o)
    {
        runs += o.runs;
        blocks += o.blocks;
        return *this;
    }
};

class TransferCounter {
public:
    /// A step's transfer figures and load, kernel-load, write and set-up
    /// durations from its moved ids, each list ascending; `kernels` empty
    /// when kernel loads are free (preloaded).
    void costStep(StepStats &stats, const Hardware &hw, std::span<const SliceId> input, std::span<const KernelId> kernels,
        std::span<const OutputId> outputs)
    {
        const Transfer &t = *hw.transfer;
        const auto cost = [&](const TransferCounts &c, double perElement) {
            return double(c.runs) * t.t_setup + double(c.blocks) * double(t.burst) * perElement;
        };
        TransferCounts load = this->input(input);
        const TransferCounts kernelLoads = this->kernels(kernels);
        load += kernelLoads;
        const TransferCounts write = this->outputs(outputs);
        stats.load_runs = load.runs;
        stats.load_bursts = load.blocks;
        stats.write_runs = write.runs;
        stats.write_bursts = write.blocks;
        stats.kernel_load_duration = cost(kernelLoads, hw.t_l);
        stats.load_duration = cost(load, hw.t_l);
        stats.write_duration = cost(write, hw.t_w);
        stats.setup_duration = double(load.runs + write.runs) * t.t_setup;
    }

    TransferCounter(const Layer &layer, bool paddingInDram, const Transfer &transfer)
        : m_layer(layer)
        , m_padded(paddingInDram)
        , m_nhwc(transfer.layout == Layout::Nhwc)
        , m_burst(transfer.burst)
        , m_height(paddingInDram ? layer.paddedHeight() : layer.h_in)
        , m_width(paddingInDram ? layer.paddedWidth() : layer.w_in)
        , m_lanes(std::size_t(std::max(layer.c_in, layer.n)))
    {
    }

    /// Input slices (ascending ids); padding that is not in DRAM is never
    /// loaded, so every slice here is stored.
    TransferCounts input(std::span<const SliceId> slices)
    {
        begin();
        const std::int64_t cg = m_layer.sliceChannels(), plane = std::int64_t(m_height) * m_width;
        for (const SliceId s : slices) {
            const std::int64_t q = stored(pixelOfSlice(m_layer, s));
            const std::int64_t c0 = std::int64_t(groupOfSlice(m_layer, s)) * cg;
            if (m_nhwc) {
                const std::int64_t first = q * m_layer.c_in + c0;
                add(0, first, first + cg - 1);
            } else {
                for (std::int64_t c = c0; c < c0 + cg; ++c)
                    add(std::size_t(c), c * plane + q, c * plane + q);
            }
        }
        return end();
    }

    /// Each run of the input load that input() counts, [first, last]
    /// addresses in ascending order (what the visualiser outlines, through
    /// TransferRuns.h), recorded as input() closes them.
    std::vector<std::pair<std::int64_t, std::int64_t>> inputRuns(std::span<const SliceId> slices)
    {
        m_recorded.clear();
        m_record = true;
        input(slices);
        m_record = false;
        std::sort(m_recorded.begin(), m_recorded.end());
        return std::move(m_recorded);
    }

    /// The aligned blocks of `burst` elements the addresses [first, last] touch.
    std::int64_t blocks(std::int64_t first, std::int64_t last) const { return blocks(Run{first, last}); }

    /// Kernels (ascending ids): kernel k is [k·E_K, (k+1)·E_K).
    TransferCounts kernels(std::span<const KernelId> kernels)
    {
        begin();
        const std::int64_t size = m_layer.kernelElements();
        for (const KernelId k : kernels)
            add(0, std::int64_t(k) * size, (std::int64_t(k) + 1) * size - 1);
        return end();
    }

    /// Outputs (ascending ids, patch · N + kernel): NHWC stores them so,
    /// NCHW at kernel · patches + patch.
    TransferCounts outputs(std::span<const OutputId> outputs)
    {
        begin();
        const std::int64_t patches = m_layer.patchCount();
        for (const OutputId o : outputs) {
            if (m_nhwc) {
                add(0, o, o);
            } else {
                const KernelId k = kernelOfOutput(m_layer, o);
                const std::int64_t a = std::int64_t(k) * patches + patchOfOutput(m_layer, o);
                add(std::size_t(k), a, a);
            }
        }
        return end();
    }

private:
    /// A pixel's index in the stored input (row-major over what is stored).
    std::int64_t stored(PixelId p) const
    {
        if (m_padded)
            return p;
        const Grid g = pixelPosition(m_layer, p);
        return std::int64_t(g.row - m_layer.pad_top) * m_width + (g.col - m_layer.pad_left);
    }

    struct Run {
        std::int64_t start = -1, end = -2; // [start, end]; none when start < 0
    };
    // One lane's runs, in address order: its first (closed once a second
    // starts), the count and blocks of those between, and the open last one.
    // Only a first and a last run can meet a neighbouring lane's.
    struct Lane {
        Run first, open;
        std::int64_t middleRuns = 0, middleBlocks = 0;
    };

    std::int64_t blocks(const Run &r) const { return r.end / m_burst - r.start / m_burst + 1; }

    void begin()
    {
        m_counts = {};
        m_touched.clear();
    }

    /// Addresses [first, last] of `lane`, after its previous ones.
    void add(std::size_t lane, std::int64_t first, std::int64_t last)
    {
        Lane &l = m_lanes[lane];
        if (l.open.start >= 0 && first == l.open.end + 1) {
            l.open.end = last;
            return;
        }
        if (l.open.start < 0) {
            m_touched.push_back(lane);
        } else if (l.first.start < 0) {
            l.first = l.open;
        } else {
            ++l.middleRuns;
            l.middleBlocks += blocks(l.open);
            if (m_record)
                m_recorded.emplace_back(l.open.start, l.open.end);
        }
        l.open = {first, last};
    }

    void count(const Run &r)
    {
        ++m_counts.runs;
        m_counts.blocks += blocks(r);
        if (m_record)
            m_recorded.emplace_back(r.start, r.end);
    }

    /// Lanes in ascending order are ascending address ranges: a lane's
    /// first run continues the previous lane's last when their addresses
    /// meet (the last pixel of channel c and the first of c + 1).
    TransferCounts end()
    {
        std::sort(m_touched.begin(), m_touched.end());
        Run pending; // the last run so far, which the next lane may continue
        for (const std::size_t lane : m_touched) {
            Lane &l = m_lanes[lane];
            const bool single = l.first.start < 0;
            Run head = single ? l.open : l.first;
            if (pending.start >= 0 && pending.end + 1 == head.start)
                head.start = pending.start;
            else if (pending.start >= 0)
                count(pending);
            if (single) {
                pending = head;
            } else {
                count(head);
                m_counts.runs += l.middleRuns;
                m_counts.blocks += l.middleBlocks;
                pending = l.open;
            }
            l = {};
        }
        if (pending.start >= 0)
            count(pending);
        return m_counts;
    }

    const Layer &m_layer;
    bool m_padded, m_nhwc;
    std::int64_t m_burst;
    int m_height, m_width;
    std::vector<Lane> m_lanes;
    std::vector<std::size_t> m_touched;
    TransferCounts m_counts;
    bool m_record = false; // inputRuns: keep every run closed in m_recorded
    std::vector<std::pair<std::int64_t, std::int64_t>> m_recorded;
};

} // namespace convoffload::detail
