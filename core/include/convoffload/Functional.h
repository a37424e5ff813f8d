#pragma once
// Values for the functional simulation: input and kernel tensors (seeded
// random integers or given), and a direct reference convolution.

#include "convoffload/Layer.h"

#include <cstdint>
#include <vector>

namespace convoffload {

/// input: [c_in][h_in][w_in] (unpadded); kernels: [n][c_in][h_k][w_k].
struct TensorData {
    std::vector<std::int32_t> input;
    std::vector<std::int32_t> kernels;
    bool operator==(const TensorData &) const = default;
};

/// Integers in [-4, 4] from a splitmix64 stream: the same on every platform.
TensorData seededTensors(const Layer &layer, std::uint64_t seed);

/// Input value at a padded position (0 in the padding).
std::int64_t paddedInputValue(const Layer &layer, const TensorData &data, int channel, int row, int col);

/// O[k][i][j] straight from the paper's formula, indexed by output id
/// (patch * N + kernel).
std::vector<std::int64_t> referenceConvolution(const Layer &layer, const TensorData &data);

} // namespace convoffload
