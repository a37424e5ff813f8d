// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Problems several suites work by hand.

#include "convoffload/model/Problem.h"

/// The paper's Example (docs/reference/model.md#decisions): input 2×5×5, two 3×3 kernels, stride 1, no
/// padding, nbop_pe 72 so G = 72 / (2·3·3·2) = 2, t_l = t_w = t_acc = 1.
inline convoffload::Problem paperExampleProblem(std::int64_t memSize = 200)
{
    convoffload::Problem p;
    p.layer = {2, 5, 5, 3, 3, 2, 1, 1, 0, 0, 0, 0};
    p.hardware.mem_size = memSize;
    p.hardware.nbop_pe = 72;
    return p;
}
