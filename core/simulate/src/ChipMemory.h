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

#include "convoffload/model/Ids.h"
#include "convoffload/model/TensorData.h"
#include "convoffload/simulate/SimulationResult.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace convoffload::detail {

class ChipMemory {
public:
    // Values that freed or never-loaded memory holds: a compute that reads
    // them produces a wrong output, which the check then names.
    static constexpr std::int32_t kPoisonInput = 1000003;
    static constexpr std::int32_t kPoisonKernel = -999983;

    /// Throws std::invalid_argument when the data does not match the layer.
    ChipMemory(const Problem &problem, TensorData data);

    void loadPixel(PixelId p)
    {
        if (m_channels == 1) {
            m_chipInput[p] = m_dram[p];
            return;
        }
        const std::size_t at = std::size_t(p) * m_channels;
        std::copy_n(m_dram.data() + at, m_channels, m_chipInput.data() + at);
    }
    void freePixel(PixelId p)
    {
        if (m_channels == 1) {
            m_chipInput[p] = kPoisonInput;
            return;
        }
        std::fill_n(m_chipInput.data() + std::size_t(p) * m_channels, m_channels, kPoisonInput);
    }
    void loadKernel(KernelId k);
    void freeKernel(KernelId k);
    /// Output o (patch · N + kernel) from what the chip holds; the patch is
    /// gathered once per (step, patch).
    void compute(int step, OutputId o);
    /// Every output of `patch`, all kernels, from what the chip holds.
    void computePatch(int step, PatchId patch);
    void write(OutputId o)
    {
        if (m_narrow32)
            m_dramOutput32[o] = m_chipOutput32[o];
        else
            m_dramOutput64[o] = m_chipOutput64[o];
        m_dramState[o] = m_chipExact[o] ? WrittenExact : WrittenInexact;
    }

    /// The verdict; hands the DRAM output back with `keepOutput`.
    FunctionalResult check(bool keepOutput);

private:
    void gather(int step, PatchId patch);
    std::int64_t value(KernelId k, bool &exact);
    std::int64_t reference(OutputId o) const;

    enum DramState : std::uint8_t { Unwritten, WrittenInexact, WrittenExact };

    const Layer &m_layer;
    bool m_synthesised; // padding is not in DRAM: it reads as zero
    TensorData m_data; // the kernels; the input lives on in m_dram
    std::size_t m_kernelSize;
    std::size_t m_channels;
    std::vector<std::size_t> m_offsets; // pixel of each kernel position (h, w), relative to the patch's first
    bool m_narrow32; // outputs fit in 32 bits
    bool m_narrow16; // ... and every value in 16 bits
    std::vector<std::int32_t> m_dram; // padded input [pixel][c]
    std::vector<std::int32_t> m_chipInput; // [pixel][c]
    std::vector<std::int32_t> m_chipKernels; // [k][c][h][w]
    std::vector<std::int16_t> m_chipKernels16; // the same, 16-bit, valid where m_kernelExact
    std::vector<std::uint8_t> m_kernelExact; // chip kernel == DRAM kernel
    // Outputs: 32-bit when every output fits (m_narrow32), else 64-bit; only
    // one pair is allocated.
    std::vector<std::int32_t> m_chipOutput32, m_dramOutput32;
    std::vector<std::int64_t> m_chipOutput64, m_dramOutput64;
    std::vector<std::uint8_t> m_chipExact; // computed from exact operands
    std::vector<std::uint8_t> m_dramState; // DramState: unwritten, or written with its exactness
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
        bool exact = false;
        bool has32 = false; // `values` holds the patch
        std::vector<std::int32_t> values; // [c][h][w], unless exact and m_narrow16
        std::vector<std::int16_t> values16; // the same in 16 bits, when exact and m_narrow16
    } m_gathered;
};

} // namespace convoffload::detail
