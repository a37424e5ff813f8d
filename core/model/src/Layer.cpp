// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Problem.h"

#include <cmath>
#include <limits>

namespace convoffload {

namespace {

// Ids are 32-bit and per-pixel tables are allocated up front, so sizes are
// capped well before anything could overflow or exhaust memory.
constexpr std::int64_t kMaxDimension = 1 << 20;
constexpr std::int64_t kMaxPixels = std::int64_t(1) << 26;
constexpr std::int64_t kMaxElements = std::int64_t(1) << 27; // a few GiB of simulation state at most

std::string str(std::int64_t v) { return std::to_string(v); }

} // namespace

std::vector<std::string> Layer::problems() const
{
    std::vector<std::string> out;
    const auto atLeast = [&](const char *name, std::int64_t value, std::int64_t min) {
        if (value < min)
            out.push_back(std::string(name) + ": must be at least " + str(min) + ", got " + str(value));
        else if (value > kMaxDimension)
            out.push_back(std::string(name) + ": " + str(value) + " is too large (at most " + str(kMaxDimension) + ")");
    };
    atLeast("c_in", c_in, 1);
    atLeast("h_in", h_in, 1);
    atLeast("w_in", w_in, 1);
    atLeast("h_k", h_k, 1);
    atLeast("w_k", w_k, 1);
    atLeast("n", n, 1);
    atLeast("stride_h", stride_h, 1);
    atLeast("stride_w", stride_w, 1);
    atLeast("pad_top", pad_top, 0);
    atLeast("pad_bottom", pad_bottom, 0);
    atLeast("pad_left", pad_left, 0);
    atLeast("pad_right", pad_right, 0);
    atLeast("group", group, 1);
    atLeast("dilation_h", dilation_h, 1);
    atLeast("dilation_w", dilation_w, 1);
    if (!out.empty())
        return out;

    if (c_in % group != 0)
        out.push_back("group: " + str(group) + " does not divide c_in = " + str(c_in));
    else if (n % group != 0)
        out.push_back("group: " + str(group) + " does not divide n = " + str(n));
    const std::int64_t spanH = std::int64_t(dilation_h) * (h_k - 1) + 1, spanW = std::int64_t(dilation_w) * (w_k - 1) + 1;
    if (spanH > paddedHeight())
        out.push_back(dilation_h == 1
                ? "h_k: kernel height " + str(h_k) + " exceeds the padded input height " + str(paddedHeight())
                : "dilation_h: the dilated kernel spans " + str(spanH)
                    + " rows (dilation_h·(h_k − 1) + 1), more than the padded input height " + str(paddedHeight()));
    if (spanW > paddedWidth())
        out.push_back(dilation_w == 1 ? "w_k: kernel width " + str(w_k) + " exceeds the padded input width " + str(paddedWidth())
                                      : "dilation_w: the dilated kernel spans " + str(spanW)
                    + " columns (dilation_w·(w_k − 1) + 1), more than the padded input width " + str(paddedWidth()));
    if (!out.empty())
        return out;

    if (pixelCount() > kMaxPixels)
        out.push_back("h_in: the padded input has " + str(pixelCount()) + " pixels, more than the supported " + str(kMaxPixels));
    else if (pixelCount() * c_in > kMaxElements)
        out.push_back(
            "c_in: the input has " + str(pixelCount() * c_in) + " elements, more than the supported " + str(kMaxElements));
    else if (outputCount() > kMaxElements)
        out.push_back("n: the output has " + str(outputCount()) + " elements, more than the supported " + str(kMaxElements));
    else if (kernelElements() * n > kMaxElements)
        out.push_back(
            "n: the kernels have " + str(kernelElements() * n) + " elements, more than the supported " + str(kMaxElements));
    return out;
}

} // namespace convoffload
