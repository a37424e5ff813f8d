// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/IlpModelSize.h"

#include "convoffload/simulate/WorkEstimate.h"

#include <algorithm>
#include <cstdio>

namespace convoffload {

namespace {

// Bytes per nonzero, row and column at the peak, which is while a writer
// holds CoinUtils' copies next to ours: the model's term (4 + 8), the
// int-indexed copy handed to CoinPackedMatrix (4), the packed matrix (12),
// the writer's row-ordered copy (12) and the MPS writer's column-ordered one
// (12), with slack for vector growth. Rows and columns: the model's record,
// bounds, sense and rhs in every copy, and each name held as std::string, as
// a pointer and as the writer's own copy (~30 characters each time). The
// figures are those sums raised to stay above the peak resident memory
// measured for `model` on LeNet-5 conv1 (docs/user/bad-input.md): MPS with G = 4,
// 2.6 GB measured, 3.1 GB estimated; G = 8, 1.07 GB and 1.6 GB.
constexpr double kBytesPerNonzero = 88;
constexpr double kBytesPerRow = 360;
constexpr double kBytesPerColumn = 300;

std::string millions(double n)
{
    char text[32];
    if (n >= 1e6)
        std::snprintf(text, sizeof text, "%.1f M", n / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f", n);
    return text;
}

} // namespace

IlpModelSize estimateIlpModelSize(const S1Instance &in)
{
    const double K = double(std::max<std::int64_t>(in.max_groups, 1));
    const double P = double(in.patches);
    const double N = double(in.needed_pixels.size());
    double incidences = 0; // Σ over patches of the pixels they hold
    for (const auto &pixels : in.patch_pixels)
        incidences += double(pixels.size());
    const double optional = in.group_count == GroupCount::AtMostCap ? K - double(in.min_groups) : 0;

    IlpModelSize size;
    // x, y, v (from the second group on), z, and u for the optional groups.
    size.columns = P * K + N * K + N * (K - 1) + N * K + optional;
    // One-group rows; per group size, non-empty, order and memory, and per
    // pixel and group the cover rows (one per holder), or, kept (twice) and
    // slice; at most one reload row per pixel.
    size.rows = P + K * 4 + K * (incidences + 4 * N) + N;
    // Per group: one-group, size and non-empty terms (P each), memory (N + P),
    // cover (2 per holder), or (1 + holders), kept (4), slice (3) per pixel;
    // reload rows K terms per pixel.
    size.nonzeros = K * (4 * P + 3 * incidences + 9 * N + 4) + N * K;
    size.bytes = kBytesPerNonzero * size.nonzeros + kBytesPerRow * size.rows + kBytesPerColumn * size.columns;
    return size;
}

std::optional<std::string> ilpModelExceedsMemory(const IlpModelSize &size, double budgetBytes)
{
    const double budget = budgetBytes > 0 ? budgetBytes : availableMemoryBytes() * 0.75;
    if (size.bytes <= budget)
        return std::nullopt;
    return "the ILP would have about " + millions(size.rows) + " rows, " + millions(size.columns) + " columns and "
        + millions(size.nonzeros) + " nonzeros, and need about " + bytesText(size.bytes)
        + " of memory to build and write (the limit is " + bytesText(budget) + ")";
}

} // namespace convoffload
