#include "ChipMemory.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace convoffload::detail {

namespace {

constexpr std::int64_t kUnwrittenOutput = std::int64_t(0x7EADBEEF) << 16;

/// Exact when max|a|·max|b|·n fits in int32 (the caller checks): no partial
/// sum can overflow, and the loop vectorises to pmaddwd.
std::int32_t dot16(const std::int16_t *a, const std::int16_t *b, std::size_t n)
{
    std::int32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i)
        sum += std::int32_t(a[i]) * std::int32_t(b[i]);
    return sum;
}

bool fits16(const std::vector<std::int32_t> &v)
{
    return std::all_of(v.begin(), v.end(), [](std::int32_t x) {
        return x >= std::numeric_limits<std::int16_t>::min() && x <= std::numeric_limits<std::int16_t>::max();
    });
}

} // namespace

ChipMemory::ChipMemory(const Problem &problem, TensorData data)
    : m_layer(problem.layer)
    , m_synthesised(!problem.options.padding_in_dram)
    , m_data(std::move(data))
    , m_kernelSize(std::size_t(m_layer.kernelElements()))
    , m_channels(std::size_t(m_layer.c_in))
{
    for (int h = 0; h < m_layer.h_k; ++h)
        for (int w = 0; w < m_layer.w_k; ++w)
            m_offsets.push_back(std::size_t(pixelId(m_layer, h, w)));
    if (m_data.input.size() != std::size_t(m_layer.c_in) * m_layer.h_in * m_layer.w_in
        || m_data.kernels.size() != std::size_t(m_layer.n) * m_kernelSize)
        throw std::invalid_argument("the tensor data does not match the layer's shape");
    m_narrow32 = outputsFitInt32(m_layer, m_data);
    m_narrow16 = m_narrow32 && fits16(m_data.input) && fits16(m_data.kernels);

    const std::size_t cells = std::size_t(m_layer.pixelCount()) * std::size_t(m_layer.c_in);
    m_dram.assign(cells, 0);
    for (int c = 0; c < m_layer.c_in; ++c)
        for (int r = 0; r < m_layer.h_in; ++r)
            for (int col = 0; col < m_layer.w_in; ++col)
                m_dram[std::size_t(pixelId(m_layer, r + m_layer.pad_top, col + m_layer.pad_left)) * m_layer.c_in + c]
                    = m_data.input[(std::size_t(c) * m_layer.h_in + r) * m_layer.w_in + col];
    m_data.input = {}; // m_dram holds it, padded
    m_chipInput.assign(cells, kPoisonInput);
    m_chipKernels.assign(m_data.kernels.size(), kPoisonKernel);
    m_chipKernels16.assign(m_data.kernels.size(), 0);
    m_kernelExact.assign(std::size_t(m_layer.n), 0);
    for (int k = 0; k < m_layer.n; ++k)
        m_kernelExact[std::size_t(k)] = std::equal(m_chipKernels.begin() + std::ptrdiff_t(k * m_kernelSize),
            m_chipKernels.begin() + std::ptrdiff_t((k + 1) * m_kernelSize),
            m_data.kernels.begin() + std::ptrdiff_t(k * m_kernelSize));
    const std::size_t outputs = std::size_t(m_layer.outputCount());
    if (m_narrow32) {
        m_chipOutput32.assign(outputs, 0);
        m_dramOutput32.assign(outputs, 0);
    } else {
        m_chipOutput64.assign(outputs, 0);
        m_dramOutput64.assign(outputs, 0);
    }
    m_chipExact.assign(outputs, 0);
    m_dramState.assign(outputs, Unwritten);
}

void ChipMemory::loadKernel(KernelId k)
{
    const std::ptrdiff_t at = std::ptrdiff_t(k) * std::ptrdiff_t(m_kernelSize);
    std::copy_n(m_data.kernels.begin() + at, m_kernelSize, m_chipKernels.begin() + at);
    if (m_narrow16)
        std::copy_n(m_data.kernels.begin() + at, m_kernelSize, m_chipKernels16.begin() + at); // fits16 checked
    m_kernelExact[k] = 1;
}

void ChipMemory::freeKernel(KernelId k)
{
    const std::ptrdiff_t at = std::ptrdiff_t(k) * std::ptrdiff_t(m_kernelSize);
    std::fill_n(m_chipKernels.begin() + at, m_kernelSize, kPoisonKernel);
    std::fill_n(m_chipKernels16.begin() + at, m_kernelSize, std::int16_t(0));
    m_kernelExact[k] = std::equal(
        m_chipKernels.begin() + at, m_chipKernels.begin() + at + std::ptrdiff_t(m_kernelSize), m_data.kernels.begin() + at);
    if (m_kernelExact[k] && m_narrow16)
        std::copy_n(m_data.kernels.begin() + at, m_kernelSize, m_chipKernels16.begin() + at);
}

/// Copies the patch's on-chip values in kernel layout [c][h][w] (synthesised
/// padding reads as zero) and notes whether they equal DRAM's.
void ChipMemory::gather(int step, PatchId patch)
{
    m_gathered.step = step;
    m_gathered.patch = patch;
    const Grid out = patchPosition(m_layer, patch);
    const int top = out.row * m_layer.stride_h, left = out.col * m_layer.stride_w;
    const std::size_t first = std::size_t(pixelId(m_layer, top, left));
    const std::size_t plane = m_offsets.size();
    const bool interior = !m_synthesised
        || (top >= m_layer.pad_top && top + m_layer.h_k <= m_layer.pad_top + m_layer.h_in && left >= m_layer.pad_left
            && left + m_layer.w_k <= m_layer.pad_left + m_layer.w_in);

    // The common case first: no synthesised padding in the patch, every value
    // in 16 bits. Exact operands are multiplied as they are gathered here.
    // The chip only ever holds a DRAM copy of a pixel or the poison, and the
    // poison does not fit in 16 bits while every DRAM value does: the patch is
    // exact iff every value read fits, with no second read from DRAM.
    if (m_narrow16 && interior) {
        m_gathered.values16.resize(m_kernelSize);
        std::int16_t *values = m_gathered.values16.data();
        std::uint32_t outside = 0; // nonzero when some value does not fit in 16 bits
        const auto outside16 = [](std::int32_t x) { return std::uint32_t(std::uint32_t(x) + 0x8000u > 0xFFFFu); };
        if (m_channels == 1) {
            const std::int32_t *chip = m_chipInput.data() + first;
            for (std::size_t e = 0; e < plane; ++e) {
                const std::int32_t x = chip[m_offsets[e]];
                values[e] = std::int16_t(x);
                outside |= outside16(x);
            }
        } else {
            for (std::size_t e = 0; e < plane; ++e) {
                const std::size_t at = (first + m_offsets[e]) * m_channels;
                for (std::size_t c = 0; c < m_channels; ++c) {
                    const std::int32_t x = m_chipInput[at + c];
                    values[c * plane + e] = std::int16_t(x);
                    outside |= outside16(x);
                }
            }
        }
        if (outside == 0) {
            m_gathered.exact = true;
            m_gathered.has32 = false;
            return;
        }
    }

    // Anything else: the 32-bit values as the chip holds them, poison included.
    m_gathered.values.resize(m_kernelSize);
    std::int32_t *values = m_gathered.values.data();
    bool exact = true;
    for (std::size_t e = 0; e < plane; ++e) {
        const std::size_t at = (first + m_offsets[e]) * m_channels;
        if (!interior && m_layer.isPadding(top + int(e) / m_layer.w_k, left + int(e) % m_layer.w_k)) {
            for (std::size_t c = 0; c < m_channels; ++c)
                values[c * plane + e] = 0;
            continue;
        }
        for (std::size_t c = 0; c < m_channels; ++c) {
            values[c * plane + e] = m_chipInput[at + c];
            exact &= m_chipInput[at + c] == m_dram[at + c];
        }
    }
    m_gathered.exact = exact;
    m_gathered.has32 = true;
    if (exact && m_narrow16) {
        m_gathered.values16.resize(m_kernelSize);
        std::copy(m_gathered.values.begin(), m_gathered.values.end(), m_gathered.values16.begin()); // == DRAM: fits
    }
}

std::int64_t ChipMemory::value(KernelId k, bool &exact)
{
    exact = m_gathered.exact && m_kernelExact[k];
    const std::size_t at = std::size_t(k) * m_kernelSize;
    if (exact && m_narrow16)
        return dot16(m_gathered.values16.data(), m_chipKernels16.data() + at, m_kernelSize);
    if (!m_gathered.has32) { // exact patch, inexact kernel: the patch in 32 bits
        m_gathered.values.assign(m_gathered.values16.begin(), m_gathered.values16.end());
        m_gathered.has32 = true;
    }
    return dotProduct(m_gathered.values.data(), m_chipKernels.data() + at, m_kernelSize, m_narrow32);
}

void ChipMemory::compute(int step, OutputId o)
{
    const PatchId patch = patchOfOutput(m_layer, o);
    if (m_gathered.step != step || m_gathered.patch != patch)
        gather(step, patch);
    bool exact = false;
    setChipOutput(o, value(kernelOfOutput(m_layer, o), exact));
    m_chipExact[o] = exact;
}

void ChipMemory::computePatch(int step, PatchId patch)
{
    gather(step, patch);
    const OutputId first = outputId(m_layer, patch, 0);
    for (int k = 0; k < m_layer.n; ++k) {
        bool exact = false;
        setChipOutput(first + OutputId(k), value(KernelId(k), exact));
        m_chipExact[first + OutputId(k)] = exact;
    }
}

std::int64_t ChipMemory::dramOutput(OutputId o) const
{
    if (m_dramState[o] == Unwritten)
        return kUnwrittenOutput;
    return m_narrow32 ? m_dramOutput32[o] : m_dramOutput64[o];
}

/// The direct convolution of one output, from the DRAM tensors (the padded
/// input in DRAM is zero in the padding).
std::int64_t ChipMemory::reference(OutputId o) const
{
    const Grid out = patchPosition(m_layer, patchOfOutput(m_layer, o));
    const std::size_t plane = std::size_t(m_layer.h_k) * std::size_t(m_layer.w_k);
    std::vector<std::int32_t> patch(m_kernelSize);
    std::size_t e = 0;
    for (int h = 0; h < m_layer.h_k; ++h)
        for (int w = 0; w < m_layer.w_k; ++w, ++e) {
            const int row = out.row * m_layer.stride_h + h, col = out.col * m_layer.stride_w + w;
            for (int c = 0; c < m_layer.c_in; ++c)
                patch[std::size_t(c) * plane + e] = m_dram[std::size_t(pixelId(m_layer, row, col)) * m_channels + std::size_t(c)];
        }
    const std::int32_t *weights = m_data.kernels.data() + std::size_t(kernelOfOutput(m_layer, o)) * m_kernelSize;
    return dotProduct(patch.data(), weights, m_kernelSize, m_narrow32);
}

FunctionalResult ChipMemory::check(bool keepOutput)
{
    FunctionalResult f;
    f.status = FunctionalStatus::Pass;
    // Usually every output reached DRAM from exact operands: one linear scan.
    const bool allExact = std::all_of(m_dramState.begin(), m_dramState.end(), [](std::uint8_t s) { return s == WrittenExact; });
    // The first mismatch in tensor order O[k][i][j], as users read it.
    for (int k = 0; k < m_layer.n && f.status == FunctionalStatus::Pass && !allExact; ++k)
        for (PatchId p = 0; p < PatchId(m_layer.patchCount()); ++p) {
            const OutputId o = outputId(m_layer, p, KernelId(k));
            if (m_dramState[o] == WrittenExact)
                continue; // computed from exact operands: the direct convolution's value
            const std::int64_t expected = reference(o);
            const std::int64_t inDram = dramOutput(o);
            if (inDram == expected)
                continue;
            f.status = FunctionalStatus::Fail;
            f.message = outputName(m_layer, o) + " in DRAM is "
                + (inDram == kUnwrittenOutput ? std::string("never written") : std::to_string(inDram))
                + ", the direct convolution gives " + std::to_string(expected);
            break;
        }
    if (keepOutput) {
        f.dram_output.resize(m_dramState.size());
        for (OutputId o = 0; o < OutputId(m_dramState.size()); ++o)
            f.dram_output[o] = dramOutput(o);
    }
    return f;
}

} // namespace convoffload::detail
