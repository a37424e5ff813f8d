// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The convolution layer (docs/reference/model.md#layer).
// Every size counts elements: one channel of one input pixel, one kernel
// weight, one output value. A pixel is a 2-D position of the *padded* input.

#include <cstdint>
#include <string>
#include <vector>

namespace convoffload {

struct Layer {
    int c_in = 1, h_in = 1, w_in = 1;
    int h_k = 1, w_k = 1;
    int n = 1; // number of kernels = C_out
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;

    int paddedHeight() const { return h_in + pad_top + pad_bottom; }
    int paddedWidth() const { return w_in + pad_left + pad_right; }
    int hOut() const { return (paddedHeight() - h_k) / stride_h + 1; }
    int wOut() const { return (paddedWidth() - w_k) / stride_w + 1; }
    std::int64_t pixelCount() const { return std::int64_t(paddedHeight()) * paddedWidth(); }
    std::int64_t patchCount() const { return std::int64_t(hOut()) * wOut(); }
    std::int64_t outputCount() const { return patchCount() * n; }
    std::int64_t kernelElements() const { return std::int64_t(c_in) * h_k * w_k; }
    /// MACs for one output value (the paper's nb_op_value).
    std::int64_t opsPerOutput() const { return kernelElements(); }
    bool isPadding(int row, int col) const
    {
        return row < pad_top || row >= pad_top + h_in || col < pad_left || col >= pad_left + w_in;
    }

    /// Every reason this layer cannot be simulated; empty when it is sound.
    /// Messages name the field (e.g. "h_k") so callers can prefix a key path.
    std::vector<std::string> problems() const;

    bool operator==(const Layer &) const = default;
};

} // namespace convoffload
