// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "ChipMemory.h"

#include <algorithm>
#include <limits>
#include <utility>
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

/// Four dot products of `a` with the consecutive kernels at b (stride n):
/// each value of `a` read once for the four. Exact under dot16's condition.
void dot16x4(const std::int16_t *a, const std::int16_t *b, std::size_t n, std::int32_t *sums)
{
    const std::int16_t *b1 = b + n, *b2 = b1 + n, *b3 = b2 + n;
    std::int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t x = a[i];
        s0 += x * b[i];
        s1 += x * b1[i];
        s2 += x * b2[i];
        s3 += x * b3[i];
    }
    sums[0] = s0;
    sums[1] = s1;
    sums[2] = s2;
    sums[3] = s3;
}

/// `count` outputs of one channel: out[j] = sum over (h, w) of
/// rows[h][j·stride + w] · kernel[h][w], rows `width` apart. KH and KW fix
/// the kernel's size at compile time (0: the run-time kh, kw), so the inner
/// loops unroll and the column loop vectorises. Exact under dot16's condition.
template <int KH, int KW>
void sweep(const std::int16_t *rows, std::size_t width, std::size_t count, std::size_t stride, int kh, int kw,
    const std::int16_t *kernel, std::int32_t *out)
{
    if constexpr (KH > 0) {
        kh = KH;
        kw = KW;
    }
    const auto at = [&](std::size_t j, int h, int w) {
        return std::int32_t(rows[std::size_t(h) * width + j * stride + std::size_t(w)]) * std::int32_t(kernel[h * kw + w]);
    };
    if (stride == 1) {
        for (std::size_t j = 0; j < count; ++j) {
            std::int32_t sum = 0;
            for (int h = 0; h < kh; ++h)
                for (int w = 0; w < kw; ++w)
                    sum += std::int32_t(rows[std::size_t(h) * width + j + std::size_t(w)]) * std::int32_t(kernel[h * kw + w]);
            out[j] = sum;
        }
        return;
    }
    for (std::size_t j = 0; j < count; ++j) {
        std::int32_t sum = 0;
        for (int h = 0; h < kh; ++h)
            for (int w = 0; w < kw; ++w)
                sum += at(j, h, w);
        out[j] = sum;
    }
}

/// The smallest and largest value (0, 0 when empty), in one branch-free
/// pass the compiler vectorises (std::minmax_element does not).
std::pair<std::int64_t, std::int64_t> rangeOf(const std::vector<std::int32_t> &v)
{
    if (v.empty())
        return {0, 0};
    std::int32_t low = v.front(), high = v.front();
    for (std::int32_t x : v) {
        low = std::min(low, x);
        high = std::max(high, x);
    }
    return {low, high};
}

using SweepFunction
    = void (*)(const std::int16_t *, std::size_t, std::size_t, std::size_t, int, int, const std::int16_t *, std::int32_t *);

SweepFunction sweepFor(int kh, int kw)
{
    if (kh == 3 && kw == 3)
        return sweep<3, 3>;
    if (kh == 1 && kw == 1)
        return sweep<1, 1>;
    if (kh == 5 && kw == 5)
        return sweep<5, 5>;
    return sweep<0, 0>;
}

} // namespace

ChipMemory::ChipMemory(const Problem &problem, const TensorData &data)
    : m_layer(problem.layer)
    , m_synthesised(!problem.options.padding_in_dram)
    , m_data(data)
    , m_kernelSize(std::size_t(m_layer.kernelElements()))
    , m_channels(std::size_t(m_layer.c_in))
    , m_sliceChannels(std::size_t(m_layer.sliceChannels()))
{
    for (int h = 0; h < m_layer.h_k; ++h)
        for (int w = 0; w < m_layer.w_k; ++w)
            m_offsets.push_back(std::size_t(pixelId(m_layer, h * m_layer.dilation_h, w * m_layer.dilation_w)));
    if (m_data.input.size() != std::size_t(m_layer.c_in) * m_layer.h_in * m_layer.w_in
        || m_data.kernels.size() != std::size_t(m_layer.n) * m_kernelSize)
        throw std::invalid_argument("the tensor data does not match the layer's shape");
    // One scan of each tensor for its range: the input's bounds the outputs
    // (with the weights') and tells where a 16-bit poison fits.
    const auto [low, high] = rangeOf(m_data.input);
    const auto [weightLow, weightHigh] = rangeOf(m_data.kernels);
    // outputsFitInt32 needs only the extremes: two values stand for each tensor.
    m_narrow32 = outputsFitInt32(
        m_layer, TensorData{{std::int32_t(low), std::int32_t(high)}, {std::int32_t(weightLow), std::int32_t(weightHigh)}});
    const auto in16 = [](std::int64_t x) {
        return x >= std::numeric_limits<std::int16_t>::min() && x <= std::numeric_limits<std::int16_t>::max();
    };
    m_narrow16 = m_narrow32 && in16(low) && in16(high) && in16(weightLow) && in16(weightHigh);
    // The poison in 16 bits: a value below or above every input (and the
    // padding's 0).
    if (m_narrow16 && low > std::numeric_limits<std::int16_t>::min()) {
        m_chip16 = true;
        m_poison16 = std::numeric_limits<std::int16_t>::min();
    } else if (m_narrow16 && high < std::numeric_limits<std::int16_t>::max()) {
        m_chip16 = true;
        m_poison16 = std::numeric_limits<std::int16_t>::max();
    }

    const std::size_t cells = std::size_t(m_layer.pixelCount()) * std::size_t(m_layer.c_in);
    const bool unpadded = m_layer.pad_top == 0 && m_layer.pad_bottom == 0 && m_layer.pad_left == 0 && m_layer.pad_right == 0;
    if (m_channels == 1 && unpadded) {
        m_dram = m_data.input.data(); // [row][col] is already [pixel][c]
    } else {
        m_paddedDram.assign(cells, 0);
        for (int c = 0; c < m_layer.c_in; ++c)
            for (int r = 0; r < m_layer.h_in; ++r)
                for (int col = 0; col < m_layer.w_in; ++col)
                    m_paddedDram[std::size_t(pixelId(m_layer, r + m_layer.pad_top, col + m_layer.pad_left)) * m_layer.c_in + c]
                        = m_data.input[(std::size_t(c) * m_layer.h_in + r) * m_layer.w_in + col];
        m_dram = m_paddedDram.data();
    }
    if (m_chip16)
        m_chipInput16.assign(cells, m_poison16);
    else
        m_chipInput.assign(cells, kPoisonInput);
    m_chipKernels.assign(m_data.kernels.size(), kPoisonKernel);
    m_chipKernels16.assign(m_data.kernels.size(), 0);
    m_kernelExact.assign(std::size_t(m_layer.n), 0);
    for (int k = 0; k < m_layer.n; ++k)
        setKernelExact(KernelId(k),
            std::equal(m_chipKernels.begin() + std::ptrdiff_t(k * m_kernelSize),
                m_chipKernels.begin() + std::ptrdiff_t((k + 1) * m_kernelSize),
                m_data.kernels.begin() + std::ptrdiff_t(k * m_kernelSize)));
    const std::size_t outputs = std::size_t(m_layer.outputCount());
    if (m_narrow32)
        m_chipOutput32 = std::make_unique_for_overwrite<std::int32_t[]>(outputs);
    else
        m_chipOutput64 = std::make_unique_for_overwrite<std::int64_t[]>(outputs);
    m_chipState = OutputStates(outputs);
}

void ChipMemory::allocateDram()
{
    const std::size_t outputs = std::size_t(m_layer.outputCount());
    if (m_narrow32)
        m_dramOutput32 = std::make_unique_for_overwrite<std::int32_t[]>(outputs);
    else
        m_dramOutput64 = std::make_unique_for_overwrite<std::int64_t[]>(outputs);
    m_dramState = OutputStates(outputs);
}

/// Notes whether kernel k on chip equals DRAM's; an exact kernel gets its
/// 16-bit copy in [h][w][c] order, the gathered patches' order.
void ChipMemory::setKernelExact(KernelId k, bool exact)
{
    m_exactKernels += int(exact) - int(m_kernelExact[k]);
    m_kernelExact[k] = exact;
    if (!exact || !m_narrow16)
        return;
    const std::size_t at = std::size_t(k) * m_kernelSize, plane = m_offsets.size();
    for (std::size_t c = 0; c < m_sliceChannels; ++c)
        for (std::size_t e = 0; e < plane; ++e)
            m_chipKernels16[at + e * m_sliceChannels + c] = std::int16_t(m_data.kernels[at + c * plane + e]); // m_narrow16: fits
}

void ChipMemory::loadPixels(std::span<const PixelId> pixels)
{
    if (m_channels == 1 && m_chip16) {
        std::int16_t *chip = m_chipInput16.data();
        for (PixelId p : pixels)
            chip[p] = std::int16_t(m_dram[p]); // m_narrow16: fits
        return;
    }
    for (PixelId p : pixels)
        loadPixel(p);
}

void ChipMemory::loadKernel(KernelId k)
{
    const std::ptrdiff_t at = std::ptrdiff_t(k) * std::ptrdiff_t(m_kernelSize);
    std::copy_n(m_data.kernels.begin() + at, m_kernelSize, m_chipKernels.begin() + at);
    setKernelExact(k, true);
}

void ChipMemory::freeKernel(KernelId k)
{
    const std::ptrdiff_t at = std::ptrdiff_t(k) * std::ptrdiff_t(m_kernelSize);
    std::fill_n(m_chipKernels.begin() + at, m_kernelSize, kPoisonKernel);
    std::fill_n(m_chipKernels16.begin() + at, m_kernelSize, std::int16_t(0));
    setKernelExact(k,
        std::equal(
            m_chipKernels.begin() + at, m_chipKernels.begin() + at + std::ptrdiff_t(m_kernelSize), m_data.kernels.begin() + at));
}

/// Copies the patch's on-chip values (synthesised padding reads as zero) and
/// notes whether they equal DRAM's: in 16 bits in [h][w][c] order when they
/// are exact and fit, else in 32 bits in kernel layout [c][h][w].
void ChipMemory::gather(int step, PatchId patch, int group)
{
    m_gathered.step = step;
    m_gathered.patch = patch;
    m_gathered.group = group;
    const Grid out = patchPosition(m_layer, patch);
    const int top = out.row * m_layer.stride_h, left = out.col * m_layer.stride_w;
    const std::size_t first = std::size_t(pixelId(m_layer, top, left));
    const std::size_t plane = m_offsets.size();
    const std::size_t channels = m_sliceChannels, channel0 = std::size_t(group) * m_sliceChannels;
    const bool interior = !m_synthesised
        || (top >= m_layer.pad_top && top + m_layer.spanH() <= m_layer.pad_top + m_layer.h_in && left >= m_layer.pad_left
            && left + m_layer.spanW() <= m_layer.pad_left + m_layer.w_in);

    // The common case first: no synthesised padding in the patch, every value
    // in 16 bits. The chip only ever holds a DRAM copy of a pixel or the
    // poison, and the poison is no DRAM value (a 16-bit chip's poison is a
    // value no input takes; a 32-bit chip's does not fit in 16 bits while
    // every DRAM value does): the patch is exact iff it reads no poison, with
    // no second read from DRAM. A pixel's channels are contiguous on chip and
    // in [h][w][c].
    if (m_narrow16 && interior) {
        m_gathered.values16.resize(m_kernelSize);
        std::int16_t *values = m_gathered.values16.data();
        std::uint32_t outside = 0; // nonzero when some value does not fit in 16 bits
        const auto outside16 = [](std::int32_t x) { return std::uint32_t(std::uint32_t(x) + 0x8000u > 0xFFFFu); };
        for (std::size_t e = 0; e < plane; ++e) {
            const std::size_t at = (first + m_offsets[e]) * m_channels + channel0;
            std::int16_t *to = values + e * channels;
            if (m_chip16) {
                const std::int16_t *chip = m_chipInput16.data() + at;
                for (std::size_t c = 0; c < channels; ++c) {
                    to[c] = chip[c];
                    outside |= std::uint32_t(chip[c] == m_poison16);
                }
                continue;
            }
            const std::int32_t *chip = m_chipInput.data() + at;
            for (std::size_t c = 0; c < channels; ++c) {
                to[c] = std::int16_t(chip[c]);
                outside |= outside16(chip[c]);
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
        const std::size_t at = (first + m_offsets[e]) * m_channels + channel0;
        if (!interior
            && m_layer.isPadding(
                top + int(e) / m_layer.w_k * m_layer.dilation_h, left + int(e) % m_layer.w_k * m_layer.dilation_w)) {
            for (std::size_t c = 0; c < channels; ++c)
                values[c * plane + e] = 0;
            continue;
        }
        for (std::size_t c = 0; c < channels; ++c) {
            values[c * plane + e] = chipValue(at + c);
            exact &= values[c * plane + e] == m_dram[at + c];
        }
    }
    m_gathered.exact = exact;
    m_gathered.has32 = true;
    if (exact && m_narrow16) {
        m_gathered.values16.resize(m_kernelSize);
        for (std::size_t c = 0; c < channels; ++c)
            for (std::size_t e = 0; e < plane; ++e)
                m_gathered.values16[e * channels + c] = std::int16_t(values[c * plane + e]); // == DRAM: fits
    }
}

std::int64_t ChipMemory::value(KernelId k, bool &exact)
{
    exact = m_gathered.exact && m_kernelExact[k];
    const std::size_t at = std::size_t(k) * m_kernelSize;
    if (exact && m_narrow16)
        return dot16(m_gathered.values16.data(), m_chipKernels16.data() + at, m_kernelSize);
    if (!m_gathered.has32) { // exact patch, inexact kernel: the patch in 32 bits, kernel layout
        const std::size_t plane = m_offsets.size();
        m_gathered.values.resize(m_kernelSize);
        for (std::size_t c = 0; c < m_sliceChannels; ++c)
            for (std::size_t e = 0; e < plane; ++e)
                m_gathered.values[c * plane + e] = m_gathered.values16[e * m_sliceChannels + c];
        m_gathered.has32 = true;
    }
    return dotProduct(m_gathered.values.data(), m_chipKernels.data() + at, m_kernelSize, m_narrow32);
}

void ChipMemory::compute(int step, OutputId o)
{
    const PatchId patch = patchOfOutput(m_layer, o);
    const KernelId k = kernelOfOutput(m_layer, o);
    const int group = m_layer.groupOfKernel(k);
    if (m_gathered.step != step || m_gathered.patch != patch || m_gathered.group != group)
        gather(step, patch, group);
    bool exact = false;
    setChipOutput(o, value(k, exact));
    m_chipState.set(o, exact ? OutputStates::Exact : OutputStates::Inexact);
}

void ChipMemory::computePatch(int step, PatchId patch)
{
    const OutputId first = outputId(m_layer, patch, 0);
    const int perGroup = m_layer.n / m_layer.group;
    for (int group = 0; group < m_layer.group; ++group) {
        gather(step, patch, group);
        int k = group * perGroup;
        const int end = k + perGroup;
        if (m_gathered.exact && m_narrow16 && m_exactKernels == m_layer.n) // four kernels at a time
            for (; k + 4 <= end; k += 4) {
                dot16x4(m_gathered.values16.data(), m_chipKernels16.data() + std::size_t(k) * m_kernelSize, m_kernelSize,
                    m_chipOutput32.get() + first + OutputId(k)); // narrow16 implies narrow32
                m_chipState.setExact(first + OutputId(k), 4);
            }
        for (; k < end; ++k) {
            bool exact = false;
            setChipOutput(first + OutputId(k), value(KernelId(k), exact));
            m_chipState.set(first + OutputId(k), exact ? OutputStates::Exact : OutputStates::Inexact);
        }
    }
}

void ChipMemory::computePatches(int step, std::span<const PatchId> patches)
{
    if (m_channels != 1 || !m_narrow16 || m_exactKernels != m_layer.n || m_layer.isDilated()) {
        for (PatchId p : patches)
            computePatch(step, p);
        return;
    }
    // Runs of consecutive patches of one output row, ascending or descending
    // (ZigZag's odd rows): each is the columns col0 .. col0 + count - 1.
    const PatchId width = PatchId(m_layer.wOut());
    const std::size_t n = patches.size();
    std::size_t a = 0;
    while (a < n) {
        const PatchId row = patches[a] / width, rowStart = row * width, rowEnd = rowStart + width;
        std::size_t b = a + 1;
        if (b < n && patches[b] == patches[a] + 1)
            while (b < n && patches[b] == patches[b - 1] + 1 && patches[b] < rowEnd)
                ++b;
        else if (b < n && patches[b] + 1 == patches[a])
            while (b < n && patches[b] + 1 == patches[b - 1] && patches[b] >= rowStart)
                ++b;
        const PatchId lowest = std::min(patches[a], patches[b - 1]);
        sweepRun(step, int(row), int(lowest - rowStart), int(b - a));
        a = b;
    }
    m_gathered.step = -1; // the sweeps do not fill m_gathered
}

/// One channel, every kernel exact and in 16 bits: the run's on-chip rows
/// are scanned for the poison (a 32-bit chip's are packed to 16 bits in the
/// same pass), then each kernel sweeps them. Patches that read synthesised
/// padding, or a run that reads poison, go patch by patch, which gives the
/// same values and marks the inexact outputs one by one. Exact operands give
/// the direct convolution's values: every product and partial sum is bounded
/// by max|input|·max|weight|·H_K·W_K, which m_narrow32 puts within int32.
void ChipMemory::sweepRun(int step, int row, int col0, int count)
{
    const Layer &l = m_layer;
    const int top = row * l.stride_h;
    int first = col0, last = col0 + count; // [first, last): the columns swept
    if (m_synthesised) {
        const bool rowsInside = top >= l.pad_top && top + l.h_k <= l.pad_top + l.h_in;
        const int room = l.pad_left + l.w_in - l.w_k; // the last left edge that stays inside
        first = std::max(first, (l.pad_left + l.stride_w - 1) / l.stride_w);
        last = std::min(last, room < 0 ? 0 : room / l.stride_w + 1);
        if (!rowsInside || first >= last)
            first = last = col0;
    }
    const auto byPatch = [&](int from, int to) {
        for (int j = from; j < to; ++j)
            computePatch(step, patchId(l, row, j));
    };
    byPatch(col0, first);
    byPatch(last, col0 + count);
    if (first >= last)
        return;

    const std::size_t swept = std::size_t(last - first), stride = std::size_t(l.stride_w);
    const std::size_t span = (swept - 1) * stride + std::size_t(l.w_k); // columns of the rows read
    const std::size_t width = std::size_t(l.paddedWidth());
    const std::size_t corner = std::size_t(top) * width + std::size_t(first) * stride; // the first value read
    std::uint32_t outside = 0; // nonzero when the rows hold poison
    const std::int16_t *rows = nullptr;
    std::size_t rowStep = span; // between rows
    if (m_chip16) { // swept where they are
        rows = m_chipInput16.data() + corner;
        rowStep = width;
        for (int h = 0; h < l.h_k; ++h) {
            const std::int16_t *chip = rows + std::size_t(h) * width;
            for (std::size_t x = 0; x < span; ++x)
                outside |= std::uint32_t(chip[x] == m_poison16);
        }
    } else { // packed to 16 bits
        m_sweepRows.resize(std::size_t(l.h_k) * span);
        for (int h = 0; h < l.h_k; ++h) {
            const std::int32_t *chip = m_chipInput.data() + corner + std::size_t(h) * width;
            std::int16_t *to = m_sweepRows.data() + std::size_t(h) * span;
            for (std::size_t x = 0; x < span; ++x) {
                to[x] = std::int16_t(chip[x]);
                outside |= std::uint32_t(std::uint32_t(chip[x]) + 0x8000u > 0xFFFFu);
            }
        }
        rows = m_sweepRows.data();
    }
    if (outside != 0) {
        byPatch(first, last);
        return;
    }
    m_sweepOut.resize(swept);
    const SweepFunction f = sweepFor(l.h_k, l.w_k);
    const PatchId firstPatch = patchId(l, row, first);
    for (int k = 0; k < l.n; ++k) {
        std::int32_t *out = l.n == 1 ? m_chipOutput32.get() + firstPatch : m_sweepOut.data(); // one kernel: in place
        f(rows, rowStep, swept, stride, l.h_k, l.w_k, m_chipKernels16.data() + std::size_t(k) * m_kernelSize, out);
        if (l.n == 1) {
            m_chipState.setExact(firstPatch, swept);
            continue;
        }
        for (std::size_t j = 0; j < swept; ++j) {
            const OutputId o = outputId(l, firstPatch + PatchId(j), KernelId(k));
            m_chipOutput32[o] = m_sweepOut[j]; // narrow16 implies narrow32
            m_chipState.set(o, OutputStates::Exact);
        }
    }
}

void ChipMemory::writeComputed()
{
    if (m_dramState.size() == 0) { // nothing written yet: DRAM becomes what the chip computed
        std::swap(m_dramState, m_chipState);
        std::swap(m_dramOutput32, m_chipOutput32);
        std::swap(m_dramOutput64, m_chipOutput64);
        return;
    }
    for (OutputId o = 0; o < OutputId(m_chipState.size()); ++o)
        if (m_chipState.get(o) != OutputStates::None)
            write(o);
}

std::int64_t ChipMemory::dramOutput(OutputId o) const
{
    if (m_dramState.get(o) == OutputStates::None)
        return kUnwrittenOutput;
    return m_narrow32 ? m_dramOutput32[o] : m_dramOutput64[o];
}

/// The direct convolution of one output, from the DRAM tensors (the padded
/// input in DRAM is zero in the padding).
std::int64_t ChipMemory::reference(OutputId o) const
{
    const Grid out = patchPosition(m_layer, patchOfOutput(m_layer, o));
    const std::size_t plane = std::size_t(m_layer.h_k) * std::size_t(m_layer.w_k);
    const std::size_t channel0 = std::size_t(m_layer.groupOfKernel(kernelOfOutput(m_layer, o))) * m_sliceChannels;
    std::vector<std::int32_t> patch(m_kernelSize);
    std::size_t e = 0;
    for (int h = 0; h < m_layer.h_k; ++h)
        for (int w = 0; w < m_layer.w_k; ++w, ++e) {
            const int row = out.row * m_layer.stride_h + h * m_layer.dilation_h;
            const int col = out.col * m_layer.stride_w + w * m_layer.dilation_w;
            for (std::size_t c = 0; c < m_sliceChannels; ++c)
                patch[c * plane + e] = m_dram[std::size_t(pixelId(m_layer, row, col)) * m_channels + channel0 + c];
        }
    const std::int32_t *weights = m_data.kernels.data() + std::size_t(kernelOfOutput(m_layer, o)) * m_kernelSize;
    return dotProduct(patch.data(), weights, m_kernelSize, m_narrow32);
}

FunctionalResult ChipMemory::check(bool keepOutput)
{
    FunctionalResult f;
    f.status = FunctionalStatus::Pass;
    if (m_dramState.size() == 0)
        allocateDram(); // nothing was written
    // Usually every output reached DRAM from exact operands: one linear scan.
    const bool allExact = m_dramState.allExact();
    // The first mismatch in tensor order O[k][i][j], as users read it.
    for (int k = 0; k < m_layer.n && f.status == FunctionalStatus::Pass && !allExact; ++k)
        for (PatchId p = 0; p < PatchId(m_layer.patchCount()); ++p) {
            const OutputId o = outputId(m_layer, p, KernelId(k));
            if (m_dramState.get(o) == OutputStates::Exact)
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
