// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Hong–Kung style lower bound on the loads of an S1 strategy that grows with
// the input (docs/design/optimisers.md, "Segment bound"). Cut the K_min steps into k segments of
// L consecutive steps. A segment loads every pixel its patches touch (V_j)
// except those the group just before it holds (at most M pixels: G whole
// windows, or what mem_size leaves), so loads ≥ Σ_j |V_j| − (k − 1)·M. For a
// set of m patches of an h_k × w_k kernel with stride 1 on full windows,
// |V| ≥ m + 2·sqrt((h_k − 1)(w_k − 1)·m) + (h_k − 1)(w_k − 1): each of its r
// output rows widens by w_k − 1, then each of its columns (at least c + w_k − 1)
// by h_k − 1, and r·c ≥ m.
#include "convoffload/optimise/S1Instance.h"

#include <cstdint>
#include <optional>

namespace convoffload {

/// The most pixels one group's union can hold: G whole windows, and no more
/// than the memory leaves beside the group's outputs and every kernel, over
/// every group size a strategy can use (with exactly K_min groups, none is
/// smaller than patches − (K_min − 1)·G).
std::int64_t largestGroupUnion(const S1Instance &instance);

/// The segment bound on the loads (pixel loads, not a duration), the best over
/// every segment length; nullopt when it does not apply: stride above 1,
/// windows cut by padding kept on chip, or any number of groups allowed.
std::optional<std::int64_t> segmentLoadBound(const S1Instance &instance);

} // namespace convoffload
