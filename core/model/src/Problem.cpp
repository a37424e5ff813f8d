// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Problem.h"
#include "convoffload/model/Arithmetic.h"

namespace convoffload {

std::int64_t Problem::nbPatchesMax() const
{
    const std::int64_t perPatch = layer.opsPerOutput() * layer.n;
    return perPatch > 0 ? hardware.nbop_pe / perPatch : 0;
}

std::int64_t Problem::kMin() const
{
    const std::int64_t g = nbPatchesMax();
    return g > 0 ? ceilDiv(layer.patchCount(), g) : 0;
}

} // namespace convoffload
