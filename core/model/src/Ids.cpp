// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Names of elements as every message and file shows them.
#include "convoffload/model/Ids.h"

namespace convoffload {

std::string pixelName(const Layer &l, PixelId p)
{
    const Grid g = pixelPosition(l, p);
    return "pixel (" + std::to_string(g.row) + "," + std::to_string(g.col) + ")";
}

std::string sliceName(const Layer &l, SliceId s)
{
    if (!l.isGrouped())
        return pixelName(l, s);
    return pixelName(l, pixelOfSlice(l, s)) + " group " + std::to_string(groupOfSlice(l, s));
}

std::string patchName(const Layer &l, PatchId p)
{
    const Grid g = patchPosition(l, p);
    return "patch " + std::to_string(p) + " (" + std::to_string(g.row) + "," + std::to_string(g.col) + ")";
}

std::string outputName(const Layer &l, OutputId o)
{
    const Grid g = patchPosition(l, patchOfOutput(l, o));
    return "output O[" + std::to_string(kernelOfOutput(l, o)) + "](" + std::to_string(g.row) + "," + std::to_string(g.col) + ")";
}

std::string kernelName(KernelId k) { return "kernel " + std::to_string(k); }

} // namespace convoffload
