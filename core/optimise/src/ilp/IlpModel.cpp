// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/IlpModel.h"

#include <algorithm>
#include <limits>

namespace convoffload {

namespace {

/// Appends rows term by term; the model's arrays are the only storage.
class RowWriter {
public:
    explicit RowWriter(IlpModel &model)
        : m_model(model)
    {
    }

    void begin(IlpRowKind kind, char sense, double rhs, std::uint32_t group, std::uint32_t item = 0, std::uint32_t patch = 0)
    {
        m_model.rows.push_back({kind, sense, group, item, patch, rhs});
    }
    void term(std::size_t column, double value)
    {
        m_model.term_column.push_back(std::uint32_t(column));
        m_model.term_value.push_back(value);
    }
    void end() { m_model.row_start.push_back(std::uint32_t(m_model.term_column.size())); }

private:
    IlpModel &m_model;
};

/// The patches holding each needed pixel, by position in `pixels`.
struct PixelHolders {
    std::vector<std::vector<PatchId>> of; // of[j]: patches holding pixels[j]
    std::size_t incidences = 0; // Σ over patches of their needed pixels
};

PixelHolders pixelHolders(const S1Instance &in, const std::vector<PixelId> &pixels)
{
    std::vector<std::int64_t> indexOfPixel(std::size_t(in.pixels), -1);
    for (std::size_t j = 0; j < pixels.size(); ++j)
        indexOfPixel[pixels[j]] = std::int64_t(j);
    PixelHolders h;
    h.of.resize(pixels.size());
    for (PatchId p = 0; p < PatchId(in.patches); ++p)
        for (PixelId px : in.patch_pixels[p]) {
            h.of[std::size_t(indexOfPixel[px])].push_back(p);
            ++h.incidences;
        }
    return h;
}

/// Builds the model row family by row family, in the order the model's row
/// indices (and so the LP/MPS files) list them: one-group rows, then per
/// group its size, order, memory and pixel rows, then the reload rows.
class IlpBuilder {
public:
    IlpBuilder(const S1Instance &in, IlpModel &m, const PixelHolders &holders)
        : m_in(in)
        , m_m(m)
        , m_holders(holders)
        , m_writer(m)
        , K(m.groups)
        , P(std::size_t(in.patches))
        , N(m.pixels.size())
    {
    }

    /// Column blocks x, y, v, z, u and their objective costs.
    void layoutColumns()
    {
        m_m.y_begin = P * std::size_t(K);
        m_m.v_begin = m_m.y_begin + N * std::size_t(K);
        m_m.z_begin = m_m.v_begin + N * std::size_t(K - 1);
        m_m.u_begin = m_m.z_begin + N * std::size_t(K);
        const std::int64_t firstOptional = m_m.first_optional_group;
        m_m.cost.assign(m_m.u_begin + std::size_t(K - firstOptional), 0.0);
        for (std::size_t j = 0; j < N; ++j)
            for (std::int64_t k = 0; k < K; ++k)
                m_m.cost[m_m.z(j, k)] = m_in.cost_per_pixel_load;
        for (std::int64_t k = firstOptional; k < K; ++k)
            m_m.cost[m_m.u(k)] = m_in.cost_per_group;
        m_m.objective_offset = m_in.constant_cost + m_in.cost_per_group * double(firstOptional);
    }

    /// Every patch in exactly one group.
    void addOneGroupRows()
    {
        for (PatchId p = 0; p < PatchId(P); ++p) {
            m_writer.begin(IlpRowKind::OneGroup, 'E', 1, 0, p);
            for (std::int64_t k = 0; k < K; ++k)
                m_writer.term(m_m.x(p, k), 1);
            m_writer.end();
        }
    }

    /// A group holds at most G patches and, unless it may stay empty, at
    /// least one; an optional group is bounded by G·u_k and u_k, and optional
    /// groups are used in order (empty ones last).
    void addGroupSizeRows(std::int64_t k)
    {
        const auto gk = std::uint32_t(k);
        const bool optional = k >= m_m.first_optional_group;
        m_writer.begin(IlpRowKind::GroupSize, 'L', optional ? 0 : double(m_in.group_size), gk);
        addPatchTerms(k, 1);
        if (optional)
            m_writer.term(m_m.u(k), -double(m_in.group_size));
        m_writer.end();
        m_writer.begin(IlpRowKind::GroupNonEmpty, 'G', optional ? 0 : 1, gk);
        addPatchTerms(k, 1);
        if (optional)
            m_writer.term(m_m.u(k), -1);
        m_writer.end();
        if (optional && k > m_m.first_optional_group) {
            m_writer.begin(IlpRowKind::GroupOrder, 'L', 0, gk);
            m_writer.term(m_m.u(k), 1);
            m_writer.term(m_m.u(k - 1), -1);
            m_writer.end();
        }
    }

    /// The group's pixels, outputs and the fixed part fit in memory.
    void addMemoryRow(std::int64_t k)
    {
        m_writer.begin(IlpRowKind::Memory, 'L', double(m_in.mem_size - m_in.fixed_elements), std::uint32_t(k));
        for (std::size_t j = 0; j < N; ++j)
            m_writer.term(m_m.y(j, k), double(m_in.elements_per_pixel));
        addPatchTerms(k, double(m_in.elements_per_patch));
        m_writer.end();
    }

    /// y (pixel in the group's union), v (kept from the previous group) and
    /// z (loaded) of every needed pixel for group k.
    void addPixelRows(std::int64_t k)
    {
        const auto gk = std::uint32_t(k);
        for (std::size_t j = 0; j < N; ++j) {
            const PixelId px = m_m.pixels[j];
            // y = OR of x over the patches holding the pixel: y ≥ each x, and
            // y ≤ their sum, without which a pixel could pretend to stay on
            // chip through a group that does not need it and skip a reload.
            for (PatchId p : m_holders.of[j]) {
                m_writer.begin(IlpRowKind::Cover, 'G', 0, gk, px, p);
                m_writer.term(m_m.y(j, k), 1);
                m_writer.term(m_m.x(p, k), -1);
                m_writer.end();
            }
            m_writer.begin(IlpRowKind::Or, 'L', 0, gk, px);
            m_writer.term(m_m.y(j, k), 1);
            for (PatchId p : m_holders.of[j])
                m_writer.term(m_m.x(p, k), -1);
            m_writer.end();

            // v = y_k AND y_{k-1} and z = y_k AND NOT v are only bounded from
            // the side that matters: v ≤ both y, z ≥ y_k - v. Both z and v
            // enter only the objective (z costs) and the reload rows (≤), so a
            // minimum puts v and z at their exact values, and any feasible
            // point overstates the loads rather than hiding one: its objective
            // is never below the duration of the groups its x encodes.
            if (k >= 1) {
                m_writer.begin(IlpRowKind::KeptNow, 'L', 0, gk, px);
                m_writer.term(m_m.v(j, k), 1);
                m_writer.term(m_m.y(j, k), -1);
                m_writer.end();
                m_writer.begin(IlpRowKind::KeptBefore, 'L', 0, gk, px);
                m_writer.term(m_m.v(j, k), 1);
                m_writer.term(m_m.y(j, k - 1), -1);
                m_writer.end();
            }
            m_writer.begin(IlpRowKind::Slice, 'G', 0, gk, px);
            m_writer.term(m_m.z(j, k), 1);
            m_writer.term(m_m.y(j, k), -1);
            if (k >= 1)
                m_writer.term(m_m.v(j, k), 1);
            m_writer.end();
        }
    }

    /// Each pixel loaded at most max_loads_per_pixel times.
    void addReloadRows()
    {
        for (std::size_t j = 0; j < N; ++j) {
            // A pixel is loaded at most once per group whose union holds it, so
            // at most min(K, patches holding it) times: a bound at or above that
            // cannot bind and the row is left out.
            const std::int64_t mostLoads = std::min<std::int64_t>(K, std::int64_t(m_holders.of[j].size()));
            if (m_in.max_loads_per_pixel >= mostLoads)
                continue;
            m_writer.begin(IlpRowKind::Reload, 'L', double(m_in.max_loads_per_pixel), 0, m_m.pixels[j]);
            for (std::int64_t k = 0; k < K; ++k)
                m_writer.term(m_m.z(j, k), 1);
            m_writer.end();
        }
    }

private:
    void addPatchTerms(std::int64_t k, double value)
    {
        for (PatchId p = 0; p < PatchId(P); ++p)
            m_writer.term(m_m.x(p, k), value);
    }

    const S1Instance &m_in;
    IlpModel &m_m;
    const PixelHolders &m_holders;
    RowWriter m_writer;
    const std::int64_t K;
    const std::size_t P, N;
};

} // namespace

IlpModel buildIlpModel(const S1Instance &in)
{
    IlpModel m;
    m.patches = in.patches;
    m.groups = in.max_groups;
    m.pixels = in.needed_pixels;
    const std::int64_t K = m.groups;
    const std::size_t P = std::size_t(in.patches), N = m.pixels.size();
    // Groups below K_min are always used, so only groups from K_min on get a
    // usage variable; with ExactlyKMin there are none.
    m.first_optional_group = in.group_count == GroupCount::AtMostCap ? in.min_groups : K;

    const PixelHolders holders = pixelHolders(in, m.pixels);
    const double expectedTerms
        = double(K) * (3.0 * double(holders.incidences) + 7.0 * double(N) + 2.0 * double(P)) + double(N) * double(K);
    if (expectedTerms > double(std::numeric_limits<std::uint32_t>::max()) || 4.0 * double(K) * double(N + P) > 4e9)
        throw IlpError("the ILP would have about " + std::to_string(std::int64_t(expectedTerms))
            + " nonzeros, more than this model supports; use fewer groups or a smaller layer");

    m.rows.reserve(P + std::size_t(K) * (4 + holders.incidences + 4 * N) + N);
    m.term_column.reserve(std::size_t(expectedTerms));
    m.term_value.reserve(std::size_t(expectedTerms));

    IlpBuilder builder(in, m, holders);
    builder.layoutColumns();
    builder.addOneGroupRows();
    for (std::int64_t k = 0; k < K; ++k) {
        builder.addGroupSizeRows(k);
        builder.addMemoryRow(k);
        builder.addPixelRows(k);
    }
    builder.addReloadRows();
    return m;
}

IlpColumnKind IlpModel::columnKind(std::size_t c) const
{
    if (c < y_begin)
        return IlpColumnKind::PatchInGroup;
    if (c < v_begin)
        return IlpColumnKind::PixelInGroup;
    if (c < z_begin)
        return IlpColumnKind::PixelKept;
    if (c < u_begin)
        return IlpColumnKind::PixelLoaded;
    return IlpColumnKind::GroupUsed;
}

std::string IlpModel::columnName(std::size_t c) const
{
    const std::size_t K = std::size_t(groups);
    auto pixelName = [&](const char *prefix, std::size_t offset, std::size_t perPixel, std::size_t firstGroup) {
        return std::string(prefix) + std::to_string(pixels[offset / perPixel]) + "_g"
            + std::to_string(offset % perPixel + firstGroup);
    };
    switch (columnKind(c)) {
    case IlpColumnKind::PatchInGroup:
        return "x_p" + std::to_string(c / K) + "_g" + std::to_string(c % K);
    case IlpColumnKind::PixelInGroup:
        return pixelName("y_px", c - y_begin, K, 0);
    case IlpColumnKind::PixelKept:
        return pixelName("v_px", c - v_begin, K - 1, 1);
    case IlpColumnKind::PixelLoaded:
        return pixelName("z_px", c - z_begin, K, 0);
    case IlpColumnKind::GroupUsed:
        return "u_g" + std::to_string(std::int64_t(c - u_begin) + first_optional_group);
    }
    return {};
}

std::string IlpModel::rowName(std::size_t r) const
{
    const IlpRow &row = rows[r];
    const std::string g = "_g" + std::to_string(row.group);
    const std::string px = "_px" + std::to_string(row.item);
    switch (row.kind) {
    case IlpRowKind::OneGroup:
        return "one_group_p" + std::to_string(row.item);
    case IlpRowKind::GroupSize:
        return "size" + g;
    case IlpRowKind::GroupNonEmpty:
        return "nonempty" + g;
    case IlpRowKind::GroupOrder:
        return "order" + g;
    case IlpRowKind::Memory:
        return "mem" + g;
    case IlpRowKind::Reload:
        return "reload" + px;
    case IlpRowKind::Cover:
        return "cover" + px + "_p" + std::to_string(row.patch) + g;
    case IlpRowKind::Or:
        return "or" + px + g;
    case IlpRowKind::KeptNow:
        return "kept" + px + g;
    case IlpRowKind::KeptBefore:
        return "keptprev" + px + g;
    case IlpRowKind::Slice:
        return "slice" + px + g;
    }
    return {};
}

std::vector<double> mipStart(const IlpModel &m, const S1Instance &in, const Groups &groups)
{
    if (std::int64_t(groups.size()) > m.groups)
        throw IlpError(
            "the strategy has " + std::to_string(groups.size()) + " groups, the model only " + std::to_string(m.groups));
    std::vector<double> values(m.columnCount(), 0.0);
    std::vector<std::int64_t> indexOfPixel(std::size_t(in.pixels), -1);
    for (std::size_t j = 0; j < m.pixels.size(); ++j)
        indexOfPixel[m.pixels[j]] = std::int64_t(j);

    for (std::size_t k = 0; k < groups.size(); ++k)
        for (PatchId p : groups[k]) {
            if (std::int64_t(p) >= m.patches)
                throw IlpError("group " + std::to_string(k + 1) + " names patch " + std::to_string(p) + ", but there are "
                    + std::to_string(m.patches) + " patches");
            values[m.x(p, std::int64_t(k))] = 1;
            for (PixelId px : in.patch_pixels[p])
                values[m.y(std::size_t(indexOfPixel[px]), std::int64_t(k))] = 1;
        }
    for (std::size_t j = 0; j < m.pixels.size(); ++j)
        for (std::int64_t k = 0; k < m.groups; ++k) {
            const bool kept = k >= 1 && values[m.y(j, k)] > 0 && values[m.y(j, k - 1)] > 0;
            if (k >= 1)
                values[m.v(j, k)] = kept ? 1 : 0;
            values[m.z(j, k)] = values[m.y(j, k)] > 0 && !kept ? 1 : 0;
        }
    for (std::int64_t k = m.first_optional_group; k < m.groups; ++k)
        values[m.u(k)] = k < std::int64_t(groups.size()) ? 1 : 0;
    return values;
}

double objectiveValue(const IlpModel &m, const std::vector<double> &values)
{
    double sum = m.objective_offset;
    for (std::size_t c = 0; c < m.columnCount() && c < values.size(); ++c)
        sum += m.cost[c] * values[c];
    return sum;
}

Groups groupsFromColumnValues(const IlpModel &m, const std::vector<double> &values)
{
    if (values.size() < m.y_begin)
        throw IlpError("the solution has " + std::to_string(values.size()) + " values, the model "
            + std::to_string(m.columnCount()) + " columns");
    Groups byK(std::size_t(m.groups));
    for (PatchId p = 0; p < PatchId(m.patches); ++p) {
        std::int64_t found = -1;
        for (std::int64_t k = 0; k < m.groups; ++k) {
            if (values[m.x(p, k)] <= 0.5)
                continue;
            if (found >= 0)
                throw IlpError("patch " + std::to_string(p) + " is in groups " + std::to_string(found) + " and "
                    + std::to_string(k) + " (columns x_p" + std::to_string(p) + "_g...)");
            found = k;
        }
        if (found < 0)
            throw IlpError("patch " + std::to_string(p) + " is in no group");
        byK[std::size_t(found)].push_back(p);
    }
    Groups groups;
    for (Group &g : byK)
        if (!g.empty())
            groups.push_back(std::move(g));
    return groups;
}

} // namespace convoffload
