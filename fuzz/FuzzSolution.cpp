// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the solver solution reader (CBC solution files and name-value
// files such as Gurobi's .sol or HiGHS') on the paper's Example with K_min
// groups. Any text either gives groups that place every patch once in a valid
// group, or throws FormatError.
#include "FuzzTarget.h"

#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/SolutionImport.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace convoffload;

namespace {

const S1Instance &instance()
{
    static const S1Instance in = [] {
        Problem p;
        p.layer = {2, 5, 5, 3, 3, 2, 1, 1, 0, 0, 0, 0};
        p.hardware.mem_size = 200;
        p.hardware.nbop_pe = 72;
        return makeS1Instance(p);
    }();
    return in;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const S1Instance &in = instance();
    const std::string text(reinterpret_cast<const char *>(data), size);
    ImportedSolution solution;
    try {
        solution = solutionFromText(in, text);
    } catch (const FormatError &) {
        return 0;
    }
    if (std::int64_t(solution.groups.size()) > in.max_groups)
        std::abort();
    std::vector<int> seen(std::size_t(in.patches), 0);
    for (const Group &g : solution.groups) {
        if (g.empty())
            std::abort();
        for (PatchId p : g)
            if (p >= seen.size() || seen[p]++ != 0)
                std::abort();
    }
    for (int count : seen)
        if (count != 1)
            std::abort();
    return 0;
}
