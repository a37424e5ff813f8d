// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Values for the functional simulation: input and kernel tensors (seeded
// random integers or given), and a direct reference convolution.

#include "convoffload/model/Problem.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace convoffload {

/// input: [c_in][h_in][w_in] (unpadded); kernels: [n][c_in][h_k][w_k].
struct TensorData {
    std::vector<std::int32_t> input;
    std::vector<std::int32_t> kernels;
    bool operator==(const TensorData &) const = default;
};

/// True when every output of these tensors fits in 32 bits
/// (max|input| · max|weight| · C_in·H_K·W_K <= 2^31 - 1), so dot products may
/// use 32-bit arithmetic, which vectorises far better than 64-bit.
bool outputsFitInt32(const Layer &layer, const TensorData &data);

/// Sum of a[i]·b[i]. With `narrow`, the sum is computed modulo 2^32 (unsigned,
/// so overflow is defined): exact whenever the true result fits in 32 bits,
/// whatever the intermediate sums do.
inline std::int64_t dotProduct(const std::int32_t *a, const std::int32_t *b, std::size_t n, bool narrow)
{
    if (narrow) {
        std::uint32_t sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += std::uint32_t(a[i]) * std::uint32_t(b[i]);
        return std::int32_t(sum);
    }
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i)
        sum += std::int64_t(a[i]) * b[i];
    return sum;
}

/// Integers in [-4, 4] from a splitmix64 stream: the same on every platform.
TensorData seededTensors(const Layer &layer, std::uint64_t seed);

/// Input value at a padded position (0 in the padding).
std::int64_t paddedInputValue(const Layer &layer, const TensorData &data, int channel, int row, int col);

/// O[k][i][j] straight from the paper's formula, indexed by output id
/// (patch * N + kernel).
std::vector<std::int64_t> referenceConvolution(const Layer &layer, const TensorData &data);

} // namespace convoffload
