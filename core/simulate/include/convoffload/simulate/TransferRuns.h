// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The DMA runs of one input load under the transfer model
// (docs/reference/model.md#transfer-cost), each with the pixels it covers:
// what the visualiser outlines on the input grid. They come from the
// simulator's own counter, so they are the runs its load_runs counts for
// the input (kernel loads are another tensor, never part of these).

#include "convoffload/model/Ids.h"
#include "convoffload/model/Problem.h"

#include <cstdint>
#include <span>
#include <vector>

namespace convoffload {

/// One DMA descriptor: a maximal run of consecutive DRAM addresses.
struct TransferRun {
    std::int64_t first = 0, last = 0; // addresses, inclusive
    std::int64_t blocks = 0; // aligned blocks of the burst it touches
    bool operator==(const TransferRun &) const = default;
};

/// A stretch of a run over consecutive stored pixels: under nchw the part
/// of a run in one channel's plane (a run joins planes when it reaches a
/// plane's last pixel and the next one starts at its first), under nhwc the
/// whole run (a pixel's channels lie together; its first and last pixel may
/// hold only some of their channel groups).
struct TransferRunPixels {
    std::size_t run = 0; // index into InputLoadRuns::runs
    int channel = -1; // nchw: the channel of the plane; nhwc: -1
    std::int64_t first = 0, last = 0; // stored pixel indices, inclusive
    bool operator==(const TransferRunPixels &) const = default;
};

/// Where the stored input lies in the padded grid: `rows × cols` pixels,
/// the first at (row0, col0); stored index q is pixel (row0 + q / cols,
/// col0 + q % cols). The padded grid itself when padding is in DRAM.
struct StoredInput {
    int rows = 0, cols = 0, row0 = 0, col0 = 0;
};
StoredInput storedInput(const Problem &problem);

struct InputLoadRuns {
    std::vector<TransferRun> runs; // ascending addresses
    std::vector<TransferRunPixels> pixels; // each run's stretches, in the order of the runs
    std::int64_t blocks() const;
};

/// The runs of loading these input slices (as an action lists them; the
/// simulator's order, ascending ids, is restored when needed) under the
/// problem's transfer model. Padding the project makes on chip, which is
/// never loaded, and ids outside the layer are left out. Empty without a
/// transfer model.
InputLoadRuns inputLoadRuns(const Problem &problem, std::span<const SliceId> slices);

} // namespace convoffload
