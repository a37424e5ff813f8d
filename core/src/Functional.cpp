#include "convoffload/Functional.h"

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

std::int64_t paddedInputValue(const Layer &layer, const TensorData &data, int channel, int row, int col)
{
    if (layer.isPadding(row, col))
        return 0;
    const std::size_t r = std::size_t(row - layer.pad_top), c = std::size_t(col - layer.pad_left);
    return data.input[(std::size_t(channel) * layer.h_in + r) * layer.w_in + c];
}

std::vector<std::int64_t> referenceConvolution(const Layer &layer, const TensorData &data)
{
    std::vector<std::int64_t> out(std::size_t(layer.outputCount()));
    for (int i = 0; i < layer.hOut(); ++i)
        for (int j = 0; j < layer.wOut(); ++j)
            for (int l = 0; l < layer.n; ++l) {
                std::int64_t sum = 0;
                for (int c = 0; c < layer.c_in; ++c)
                    for (int h = 0; h < layer.h_k; ++h)
                        for (int w = 0; w < layer.w_k; ++w) {
                            const std::size_t k = ((std::size_t(l) * layer.c_in + c) * layer.h_k + h) * layer.w_k + w;
                            sum += paddedInputValue(layer, data, c, i * layer.stride_h + h, j * layer.stride_w + w) * data.kernels[k];
                        }
                out[std::size_t(i * layer.wOut() + j) * layer.n + l] = sum;
            }
    return out;
}

} // namespace convoffload
