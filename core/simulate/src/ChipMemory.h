// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the simulate library: the functional simulation. The on-chip
// memory holds real values (DRAM copies when loaded, poison when freed or
// never loaded), computes read only that memory, writes copy outputs to a
// simulated DRAM, and check() compares that DRAM with the direct convolution,
// naming the first wrong output in tensor order O[k][i][j].
//
// One pass, not two: every compute also notes whether its operands (the
// patch gathered from chip, the kernel on chip) equal the DRAM tensors
// element for element. An output computed from exact operands equals the
// direct convolution (same products, exact integer sums), so check() only
// recomputes the reference for outputs whose operands were not exact or that
// never reached DRAM. When every value fits in 16 bits and every output in
// 32, exact operands are multiplied as int16 with int32 sums (a loop the
// compiler turns into pmaddwd); anything else takes the 32/64-bit route.
//
// Grouped and dilated layers (docs/reference/model.md#grouped-and-dilated):
// a slice (pixel, group) is channels [group·C_in/g, (group+1)·C_in/g) of
// its pixel, contiguous on chip at slice · C_in/g; a patch is gathered per
// group, at the dilated kernel positions; row sweeps are for undilated
// layers only.
//
// Fast paths, each giving exactly the per-patch route's values and flags:
// - memory sized to the data: the chip's input is 16-bit when every input
//   fits and some 16-bit value is left for the poison; an unpadded
//   one-channel input is read in place as DRAM; outputs are left
//   uninitialised, their states two bits each (OutputStates);
// - one channel: computePatches() (a fused S1 step, or a general step that
//   computes whole patches) takes the patches as runs of consecutive patches
//   of one output row and computes each run in one sweep over the on-chip
//   rows it covers (fixed-size inner loop for 1×1, 3×3 and 5×5 kernels); a
//   run that reads poison, and patches over synthesised padding, go patch by
//   patch;
// - several kernels: exact patches are multiplied with four kernels at a
//   time, each gathered value read once for the four;
// - writeComputed() (the end of a run that wrote nothing before) hands the
//   chip's outputs over to DRAM instead of copying them one by one; DRAM's
//   arrays are allocated at the first write.

#include "OutputStates.h"

#include "convoffload/model/Ids.h"
#include "convoffload/model/TensorData.h"
#include "convoffload/simulate/SimulationResult.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace convoffload::detail {

class ChipMemory {
public:
    // Values that freed or never-loaded memory holds: a compute that reads
    // them produces a wrong output, which the check then names.
    static constexpr std::int32_t kPoisonInput = 1000003;
    static constexpr std::int32_t kPoisonKernel = -999983;

    /// Throws std::invalid_argument when the data does not match the layer.
    /// `data` must outlive this memory (an unpadded one-channel input is
    /// read in place as the simulated DRAM).
    ChipMemory(const Problem &problem, const TensorData &data);

    void loadPixel(PixelId p)
    {
        if (m_channels == 1) {
            if (m_chip16)
                m_chipInput16[p] = std::int16_t(m_dram[p]); // m_narrow16: fits
            else
                m_chipInput[p] = m_dram[p];
            return;
        }
        const std::size_t at = std::size_t(p) * m_channels;
        if (m_chip16)
            std::copy_n(m_dram + at, m_channels, m_chipInput16.data() + at);
        else
            std::copy_n(m_dram + at, m_channels, m_chipInput.data() + at);
    }
    /// loadPixel of each.
    void loadPixels(std::span<const PixelId> pixels);
    /// One slice (pixel, group): its C_in/g channels. loadPixel when g = 1.
    void loadSlice(SliceId s)
    {
        if (m_sliceChannels == m_channels)
            return loadPixel(s);
        const std::size_t at = std::size_t(s) * m_sliceChannels;
        if (m_chip16)
            std::copy_n(m_dram + at, m_sliceChannels, m_chipInput16.data() + at);
        else
            std::copy_n(m_dram + at, m_sliceChannels, m_chipInput.data() + at);
    }
    void freeSlice(SliceId s)
    {
        if (m_sliceChannels == m_channels)
            return freePixel(s);
        const std::size_t at = std::size_t(s) * m_sliceChannels;
        if (m_chip16)
            std::fill_n(m_chipInput16.data() + at, m_sliceChannels, m_poison16);
        else
            std::fill_n(m_chipInput.data() + at, m_sliceChannels, kPoisonInput);
    }
    /// On one narrow channel, what loadPixel(p) does is chip[p] = dram[p]:
    /// the fused pass does it inside its walk. Null pointers otherwise.
    struct NarrowLoader {
        std::int16_t *chip = nullptr;
        const std::int32_t *dram = nullptr;
        explicit operator bool() const { return chip != nullptr; }
        void operator()(PixelId p) const { chip[p] = std::int16_t(dram[p]); } // m_narrow16: fits
    };
    NarrowLoader narrowLoader()
    {
        if (m_channels == 1 && m_chip16)
            return {m_chipInput16.data(), m_dram};
        return {};
    }
    void freePixel(PixelId p)
    {
        if (m_channels == 1) {
            if (m_chip16)
                m_chipInput16[p] = m_poison16;
            else
                m_chipInput[p] = kPoisonInput;
            return;
        }
        const std::size_t at = std::size_t(p) * m_channels;
        if (m_chip16)
            std::fill_n(m_chipInput16.data() + at, m_channels, m_poison16);
        else
            std::fill_n(m_chipInput.data() + at, m_channels, kPoisonInput);
    }
    /// freePixel of every pixel of `pixels` but those `kept` says stay: on
    /// one narrow channel a select, not a branch, per pixel (which pixels
    /// leave depends on the data and mispredicted a lot).
    template <typename Kept> void freePixelsExcept(std::span<const PixelId> pixels, Kept &&kept)
    {
        if (m_channels == 1 && m_chip16) {
            std::int16_t *chip = m_chipInput16.data();
            const std::int16_t poison = m_poison16;
            for (PixelId p : pixels)
                chip[p] = kept(p) ? chip[p] : poison;
            return;
        }
        for (PixelId p : pixels)
            if (!kept(p))
                freePixel(p);
    }
    void loadKernel(KernelId k);
    void freeKernel(KernelId k);
    /// Output o (patch · N + kernel) from what the chip holds; the patch is
    /// gathered once per (step, patch).
    void compute(int step, OutputId o);
    /// Every output of `patch`, all kernels, from what the chip holds.
    void computePatch(int step, PatchId patch);
    /// Every output of these patches (one step's), all kernels: the same
    /// values as computePatch on each, row runs swept at once.
    void computePatches(int step, std::span<const PatchId> patches);
    void write(OutputId o)
    {
        if (m_dramState.size() == 0)
            allocateDram();
        if (m_narrow32)
            m_dramOutput32[o] = m_chipOutput32[o];
        else
            m_dramOutput64[o] = m_chipOutput64[o];
        m_dramState.set(o, m_chipState.get(o));
    }
    /// Writes every computed output, as write() on each would; the last
    /// action on this memory (the chip's outputs may move to DRAM).
    void writeComputed();

    /// The verdict; hands the DRAM output back with `keepOutput`.
    FunctionalResult check(bool keepOutput);

private:
    /// The patch's values of `group`'s channels (every channel when g = 1).
    void gather(int step, PatchId patch, int group);
    std::int64_t value(KernelId k, bool &exact);
    std::int64_t reference(OutputId o) const;
    /// Outputs of patches (row, col0 .. col0 + count - 1), one channel.
    void sweepRun(int step, int row, int col0, int count);
    void setKernelExact(KernelId k, bool exact);
    void allocateDram();

    const Layer &m_layer;
    bool m_synthesised; // padding is not in DRAM: it reads as zero
    const TensorData &m_data; // the kernels (and the input, read through m_dram)
    std::size_t m_kernelSize;
    std::size_t m_channels; // of a pixel (C_in)
    std::size_t m_sliceChannels; // of a slice and of a kernel (C_in / g)
    std::vector<std::size_t> m_offsets; // pixel of each kernel position (h, w), relative to the patch's first (dilated)
    bool m_narrow32; // outputs fit in 32 bits
    bool m_narrow16; // ... and every value in 16 bits
    std::vector<std::int32_t> m_paddedDram; // padded input [pixel][c], unless m_data.input is that
    const std::int32_t *m_dram; // the simulated DRAM's input [pixel][c]
    // The chip's input [pixel][c]: in 16 bits when every value fits and a
    // 16-bit value no input takes is left for the poison (m_chip16), which
    // then reads as kPoisonInput; else in 32 bits. Only one is allocated.
    bool m_chip16 = false;
    std::int16_t m_poison16 = 0;
    std::vector<std::int16_t> m_chipInput16;
    std::vector<std::int32_t> m_chipInput;
    /// The chip's value at `at` as 32 bits, the poison as kPoisonInput.
    std::int32_t chipValue(std::size_t at) const
    {
        if (!m_chip16)
            return m_chipInput[at];
        return m_chipInput16[at] == m_poison16 ? kPoisonInput : m_chipInput16[at];
    }
    std::vector<std::int32_t> m_chipKernels; // [k][c][h][w]
    std::vector<std::int16_t> m_chipKernels16; // the same, 16-bit, [k][h][w][c], valid where m_kernelExact
    std::vector<std::uint8_t> m_kernelExact; // chip kernel == DRAM kernel
    int m_exactKernels = 0; // how many
    // Outputs: 32-bit when every output fits (m_narrow32), else 64-bit; only
    // one pair is allocated, left uninitialised (a value is read only where
    // its state says it was computed or written).
    std::unique_ptr<std::int32_t[]> m_chipOutput32, m_dramOutput32;
    std::unique_ptr<std::int64_t[]> m_chipOutput64, m_dramOutput64;
    // Per output, on chip (computed, with the exactness of its operands) and
    // in DRAM (written, with the exactness of what was written; size 0 until
    // the first write).
    OutputStates m_chipState, m_dramState;
    std::vector<std::int16_t> m_sweepRows; // sweepRun: the on-chip rows of a run, 16-bit (32-bit chip)
    std::vector<std::int32_t> m_sweepOut; // sweepRun: one kernel's outputs of a run
    void setChipOutput(OutputId o, std::int64_t v)
    {
        if (m_narrow32)
            m_chipOutput32[o] = std::int32_t(v); // narrow32: every computed value is an int32
        else
            m_chipOutput64[o] = v;
    }
    std::int64_t dramOutput(OutputId o) const;
    struct {
        int step = -1;
        PatchId patch = 0;
        int group = 0;
        bool exact = false;
        bool has32 = false; // `values` holds the patch
        std::vector<std::int32_t> values; // [c][h][w] (the group's channels), unless exact and m_narrow16
        std::vector<std::int16_t> values16; // [h][w][c] in 16 bits, when exact and m_narrow16
    } m_gathered;
};

} // namespace convoffload::detail
