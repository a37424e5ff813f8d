// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The convolution layer (docs/reference/model.md#layer).
// Every size counts elements: one channel of one input pixel, one kernel
// weight, one output value. A pixel is a 2-D position of the *padded* input.
// A grouped convolution (docs/reference/model.md#grouped-and-dilated) holds
// its input per *pixel slice* (pixel, group): the C_in/g channels of one
// group. Slice ids are pixel · g + group, so with g = 1 a slice is a pixel.

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
    int group = 1; // g: divides c_in and n; depthwise is g = c_in
    int dilation_h = 1, dilation_w = 1;

    int paddedHeight() const { return h_in + pad_top + pad_bottom; }
    int paddedWidth() const { return w_in + pad_left + pad_right; }
    /// The rows (columns) a patch spans: d·(K − 1) + 1.
    int spanH() const { return dilation_h * (h_k - 1) + 1; }
    int spanW() const { return dilation_w * (w_k - 1) + 1; }
    int hOut() const { return (paddedHeight() - spanH()) / stride_h + 1; }
    int wOut() const { return (paddedWidth() - spanW()) / stride_w + 1; }
    std::int64_t pixelCount() const { return std::int64_t(paddedHeight()) * paddedWidth(); }
    std::int64_t patchCount() const { return std::int64_t(hOut()) * wOut(); }
    std::int64_t outputCount() const { return patchCount() * n; }
    /// Channels of one pixel slice (C_in / g), and how many slices there are.
    int sliceChannels() const { return c_in / group; }
    std::int64_t sliceCount() const { return pixelCount() * group; }
    /// The group kernel k belongs to: floor(k / (N / g)).
    int groupOfKernel(std::int64_t k) const { return int(k / (n / group)); }
    bool isGrouped() const { return group > 1; }
    bool isDilated() const { return dilation_h > 1 || dilation_w > 1; }
    /// One kernel's elements: (C_in / g)·H_K·W_K.
    std::int64_t kernelElements() const { return std::int64_t(sliceChannels()) * h_k * w_k; }
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
