// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/TensorData.h"

#include <algorithm>
#include <limits>

namespace convoffload {

namespace {

// splitmix64: tiny, well mixed, and identical on every platform (unlike the
// standard distributions), so a seed means the same tensors everywhere.
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::int32_t smallInt() { return std::int32_t(next() % 9) - 4; }
};

} // namespace

TensorData seededTensors(const Layer &layer, std::uint64_t seed)
{
    SplitMix64 rng{seed};
    TensorData data;
    data.input.resize(std::size_t(layer.c_in) * layer.h_in * layer.w_in);
    for (auto &v : data.input)
        v = rng.smallInt();
    data.kernels.resize(std::size_t(layer.n) * layer.kernelElements());
    for (auto &v : data.kernels)
        v = rng.smallInt();
    return data;
}

bool outputsFitInt32(const Layer &layer, const TensorData &data)
{
    const auto maxAbs = [](const std::vector<std::int32_t> &v) {
        std::int64_t m = 0;
        for (std::int32_t x : v)
            m = std::max(m, x < 0 ? -std::int64_t(x) : std::int64_t(x));
        return m;
    };
    const std::int64_t a = maxAbs(data.input), b = maxAbs(data.kernels);
    const std::int64_t limit = std::numeric_limits<std::int32_t>::max();
    // Compare step by step so the bound itself cannot overflow.
    return a == 0 || b == 0 || (a <= limit / b && a * b <= limit / layer.kernelElements());
}

std::int64_t paddedInputValue(const Layer &layer, const TensorData &data, int channel, int row, int col)
{
    if (layer.isPadding(row, col))
        return 0;
    const std::size_t r = std::size_t(row - layer.pad_top), c = std::size_t(col - layer.pad_left);
    return data.input[(std::size_t(channel) * layer.h_in + r) * layer.w_in + c];
}

std::vector<std::int64_t> referenceConvolution(const Layer &layer, const TensorData &data)
{
    // The padded input is materialised once so the inner loops are plain
    // array reads; O[l][i][j] = sum_c,h,w I[γ·C_in/g + c][i·s_h + h·d_h][j·s_w + w·d_w] · K^l[c][h][w],
    // γ = l's group, c < C_in/g.
    const int height = layer.paddedHeight(), width = layer.paddedWidth();
    std::vector<std::int32_t> padded(std::size_t(layer.c_in) * height * width, 0);
    for (int c = 0; c < layer.c_in; ++c)
        for (int r = 0; r < layer.h_in; ++r)
            for (int col = 0; col < layer.w_in; ++col)
                padded[(std::size_t(c) * height + r + layer.pad_top) * width + col + layer.pad_left]
                    = data.input[(std::size_t(c) * layer.h_in + r) * layer.w_in + col];

    const bool narrow = outputsFitInt32(layer, data);
    const std::size_t kernelSize = std::size_t(layer.kernelElements());
    std::vector<std::int32_t> patch(kernelSize);
    std::vector<std::int64_t> out(std::size_t(layer.outputCount()));
    const int perGroup = layer.n / layer.group, channels = layer.sliceChannels();
    for (int i = 0; i < layer.hOut(); ++i)
        for (int j = 0; j < layer.wOut(); ++j)
            for (int group = 0; group < layer.group; ++group) {
                std::size_t e = 0;
                for (int c = group * channels; c < (group + 1) * channels; ++c)
                    for (int h = 0; h < layer.h_k; ++h)
                        for (int w = 0; w < layer.w_k; ++w)
                            patch[e++] = padded[(std::size_t(c) * height + i * layer.stride_h + h * layer.dilation_h) * width
                                + j * layer.stride_w + w * layer.dilation_w];
                for (int l = group * perGroup; l < (group + 1) * perGroup; ++l) {
                    const std::int32_t *weights = data.kernels.data() + std::size_t(l) * kernelSize;
                    out[std::size_t(i * layer.wOut() + j) * layer.n + l] = dotProduct(patch.data(), weights, kernelSize, narrow);
                }
            }
    return out;
}

} // namespace convoffload
