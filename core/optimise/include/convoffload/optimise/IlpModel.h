// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The ILP of the paper's section 5 as a solver-neutral MIP: columns, rows with
// a sparse row-wise matrix and an objective offset, built from an S1Instance,
// so that the MIP objective of any feasible point equals (or, for non-optimal
// points, bounds from above) the simulated duration of the strategy it encodes.
// Names are generated from what a column or row stands for (x_p4_g1,
// mem_g0...), so a model with millions of rows stays compact.
//
// Variables (all binary), K = instance.max_groups groups:
//   x_p<i>_g<k>   patch i is in group k
//   y_px<j>_g<k>  pixel j is in U(g_k)
//   v_px<j>_g<k>  pixel j is in U(g_k) and U(g_{k-1}), k >= 1 (kept)
//   z_px<j>_g<k>  pixel j is in I_slice of step k (loaded)
//   u_g<k>        group k is used (GroupCount::AtMostCap, k >= K_min only)
// Only pixels of instance.needed_pixels get y, v, z.
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace convoffload {

struct IlpError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class IlpColumnKind : std::uint8_t { PatchInGroup, PixelInGroup, PixelKept, PixelLoaded, GroupUsed };

/// Why a row exists; its name follows from the kind and its indices.
enum class IlpRowKind : std::uint8_t {
    OneGroup, // one_group_p<i>: Σ_k x = 1
    GroupSize, // size_g<k>: Σ_i x ≤ G (· u_k with a cap)
    GroupNonEmpty, // nonempty_g<k>: Σ_i x ≥ 1 (≥ u_k with a cap)
    GroupOrder, // order_g<k>: u_k ≤ u_{k-1}, empty groups come last
    Memory, // mem_g<k>
    Reload, // reload_px<j>: Σ_k z ≤ max_loads_per_pixel
    Cover, // cover_px<j>_p<i>_g<k>: y ≥ x for each patch i holding j
    Or, // or_px<j>_g<k>: y ≤ Σ x over the patches holding j
    KeptNow, // kept_px<j>_g<k>: v ≤ y_k
    KeptBefore, // keptprev_px<j>_g<k>: v ≤ y_{k-1}
    Slice // slice_px<j>_g<k>: z ≥ y - v (z ≥ y for k = 0)
};

struct IlpRow {
    IlpRowKind kind;
    char sense; // 'L' (≤), 'G' (≥) or 'E' (=) as in MPS
    std::uint32_t group; // k, or unused
    std::uint32_t item; // patch or pixel id, or unused
    std::uint32_t patch; // Cover rows: the patch
    double rhs;
};

struct IlpModel {
    std::int64_t patches = 0;
    std::int64_t groups = 0; // K: the columns' group indices are 0..K-1
    /// Groups from here on may stay empty and have a u column (AtMostCap);
    /// earlier groups are always used. == groups when no group is optional.
    std::int64_t first_optional_group = 0;
    std::vector<PixelId> pixels; // the needed pixels, in order: y/v/z index them by position

    // Every column is binary; costs are the objective coefficients.
    std::vector<double> cost;
    double objective_offset = 0; // the constant part of the duration

    std::vector<IlpRow> rows;
    // Row r's terms are [row_start[r], row_start[r+1]) in the two arrays.
    std::vector<std::uint32_t> row_start{0};
    std::vector<std::uint32_t> term_column;
    std::vector<double> term_value;

    std::size_t columnCount() const { return cost.size(); }
    std::size_t rowCount() const { return rows.size(); }

    // Column indices. pixelIndex is the position in `pixels`.
    std::size_t x(PatchId patch, std::int64_t k) const { return std::size_t(patch) * std::size_t(groups) + std::size_t(k); }
    std::size_t y(std::size_t pixelIndex, std::int64_t k) const
    {
        return y_begin + pixelIndex * std::size_t(groups) + std::size_t(k);
    }
    std::size_t v(std::size_t pixelIndex, std::int64_t k) const // k >= 1
    {
        return v_begin + pixelIndex * std::size_t(groups - 1) + std::size_t(k - 1);
    }
    std::size_t z(std::size_t pixelIndex, std::int64_t k) const
    {
        return z_begin + pixelIndex * std::size_t(groups) + std::size_t(k);
    }
    std::size_t u(std::int64_t k) const { return u_begin + std::size_t(k - first_optional_group); } // k >= first_optional_group

    IlpColumnKind columnKind(std::size_t column) const;
    std::string columnName(std::size_t column) const;
    std::string rowName(std::size_t row) const;

    std::size_t y_begin = 0, v_begin = 0, z_begin = 0, u_begin = 0;
};

/// Builds the model. Throws IlpError when it would not fit 32-bit indices.
IlpModel buildIlpModel(const S1Instance &instance);

/// Column values encoding `groups` (group k = groups[k]; groups past the
/// last are empty), with v and z at their least values: a MIP start.
/// Throws IlpError when there are more groups than K or a patch is out of range.
std::vector<double> mipStart(const IlpModel &model, const S1Instance &instance, const Groups &groups);

/// Σ cost·value + offset.
double objectiveValue(const IlpModel &model, const std::vector<double> &values);

/// The strategy x encodes: groups in order of k, patches ascending, empty
/// groups dropped. Throws IlpError naming a patch in no group or in two.
Groups groupsFromColumnValues(const IlpModel &model, const std::vector<double> &values);

} // namespace convoffload
