// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Names of the kernel-blocked generator's parameters, as files show them.
#include "convoffload/model/ComputeStep.h"

namespace convoffload {

std::string patchOrderName(PatchOrder order) { return order == PatchOrder::RowByRow ? "row-by-row" : "zigzag"; }

std::optional<PatchOrder> patchOrderFromName(const std::string &name)
{
    for (PatchOrder o : {PatchOrder::RowByRow, PatchOrder::ZigZag})
        if (patchOrderName(o) == name)
            return o;
    return std::nullopt;
}

std::string kernelLoopName(KernelLoop loop) { return loop == KernelLoop::KernelsOuter ? "kernels-outer" : "patches-outer"; }

std::optional<KernelLoop> kernelLoopFromName(const std::string &name)
{
    for (KernelLoop l : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter})
        if (kernelLoopName(l) == name)
            return l;
    return std::nullopt;
}

} // namespace convoffload
