// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Starting points of the search: compact tilings of the output grid.
//
// Row-by-Row keeps a 1×G strip of patches on chip, whose union is
// H_K × (G + W_K - 1) pixels, and reloads every input row H_K times. Bands of
// h output rows walked column by column keep h×(G/h) blocks on chip: each input
// pixel is loaded about once per band that covers it, i.e. (h + H_K - 1)/h
// times, far fewer loads when G is large.
//
// Staircase bands walk a band along its diagonals instead of its columns:
// each group is a run of a diagonal (one patch per output row, shifted by
// `shift` columns from the row above), so a step still loads one new pixel
// per input row of the band, and the turns at the band's ends and between
// bands cost less. On the paper's 11×11 grid with G = 3 and reload bound 2,
// bands of 3 with shift 2 give 172 with no search at all, where the column
// bands give 180 and the search had ended at 177–178 from them.
#include "convoffload/optimise/SearchOptimiser.h"

#include "convoffload/model/Ids.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace convoffload {

namespace {

/// Patches in bands of `band` rows (or columns when `transposed`): bands top to
/// bottom, each walked across in alternating direction, and inside a band one
/// column at a time, alternating direction when `snakeInside`; with a
/// `shift`, along the band's diagonals instead (column + shift · row within
/// the band, then row).
std::vector<PatchId> bandOrder(const Layer &layer, int band, bool transposed, bool snakeInside, int shift = 0)
{
    const int rows = transposed ? layer.wOut() : layer.hOut();
    const int cols = transposed ? layer.hOut() : layer.wOut();
    std::vector<PatchId> order;
    order.reserve(std::size_t(rows) * std::size_t(cols));
    int bandIndex = 0;
    for (int top = 0; top < rows; top += band, ++bandIndex) {
        const int bottom = std::min(rows, top + band);
        if (shift != 0) {
            std::vector<std::pair<int, int>> cells; // (walking column, row)
            for (int r = top; r < bottom; ++r)
                for (int c = 0; c < cols; ++c)
                    cells.emplace_back(c, r);
            std::stable_sort(cells.begin(), cells.end(), [&](const auto &a, const auto &b) {
                const auto key = [&](const std::pair<int, int> &cell) {
                    return std::pair(cell.first + shift * (cell.second - top), cell.second);
                };
                return key(a) < key(b);
            });
            for (const auto &[step, r] : cells) {
                const int c = bandIndex % 2 == 0 ? step : cols - 1 - step;
                order.push_back(transposed ? patchId(layer, c, r) : patchId(layer, r, c));
            }
            continue;
        }
        for (int step = 0; step < cols; ++step) {
            const int c = bandIndex % 2 == 0 ? step : cols - 1 - step;
            const bool down = !snakeInside || step % 2 == 0;
            for (int k = 0; k < bottom - top; ++k) {
                const int r = down ? top + k : bottom - 1 - k;
                order.push_back(transposed ? patchId(layer, c, r) : patchId(layer, r, c));
            }
        }
    }
    return order;
}

Groups cut(const std::vector<PatchId> &order, std::int64_t groupSize)
{
    Groups groups;
    for (std::size_t begin = 0; begin < order.size(); begin += std::size_t(groupSize)) {
        const std::size_t end = std::min(order.size(), begin + std::size_t(groupSize));
        groups.emplace_back(order.begin() + std::ptrdiff_t(begin), order.begin() + std::ptrdiff_t(end));
    }
    return groups;
}

} // namespace

std::vector<NamedGroups> tilingCandidates(const S1Instance &in, const Deadline &deadline)
{
    std::vector<NamedGroups> out;
    for (bool transposed : {false, true}) {
        const int extent = transposed ? in.layer.wOut() : in.layer.hOut();
        const int maxBand = int(std::min<std::int64_t>(in.group_size, extent));
        for (int band = 1; band <= maxBand; ++band)
            for (bool snake : {false, true}) {
                if (band == 1 && snake)
                    continue; // the same order
                if (deadline.passed())
                    return out;
                Groups groups = cut(bandOrder(in.layer, band, transposed, snake), in.group_size);
                S1Evaluation ev = evaluate(in, groups);
                out.push_back(
                    {std::string(transposed ? "columns" : "rows") + " band " + std::to_string(band) + (snake ? " snake" : ""),
                        std::move(groups), std::move(ev)});
            }
        for (int band = 2; band <= maxBand; ++band)
            for (int shift : {-2, -1, 1, 2}) {
                if (deadline.passed())
                    return out;
                Groups groups = cut(bandOrder(in.layer, band, transposed, false, shift), in.group_size);
                S1Evaluation ev = evaluate(in, groups);
                std::string name = std::string(transposed ? "columns" : "rows") + " band " + std::to_string(band) + " staircase ";
                name += std::to_string(shift);
                out.push_back({std::move(name), std::move(groups), std::move(ev)});
            }
    }
    return out;
}

} // namespace convoffload
