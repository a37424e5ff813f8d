// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the strategy CSV reader (docs/reference/strategy-csv.md#group-csv) on the paper's Example layer
// (3×3 output: patches 0..8). Any text either gives groups that place every
// patch once, or throws FormatError; accepted groups survive an export and
// re-import unchanged.
#include "FuzzTarget.h"

#include "convoffload/io/StrategyCsv.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace convoffload;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Layer layer{2, 5, 5, 3, 3, 2, 1, 1, 0, 0, 0, 0};
    const std::string text(reinterpret_cast<const char *>(data), size);
    Groups groups;
    try {
        groups = groupsFromCsv(layer, text);
    } catch (const FormatError &) {
        return 0;
    }
    std::vector<int> seen(std::size_t(layer.patchCount()), 0);
    for (const Group &g : groups)
        for (PatchId p : g)
            if (p >= seen.size() || seen[p]++ != 0)
                std::abort(); // accepted a patch out of range or twice
    for (int count : seen)
        if (count != 1)
            std::abort(); // accepted a strategy that misses a patch
    if (groupsFromCsv(layer, groupsToCsv(layer, groups)) != groups)
        std::abort();
    return 0;
}
