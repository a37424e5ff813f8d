// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/onnx/OnnxNetwork.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <algorithm>
#include <set>

namespace convoffload {

std::string skippedCounts(const std::vector<SkippedNode> &skipped)
{
    std::vector<std::string> reasons;
    for (const SkippedNode &s : skipped)
        reasons.push_back(s.reason);
    return skippedCountsText(reasons);
}

Network networkFromImport(
    const NetworkImport &imported, const Accelerator &accelerator, bool withStrategies, const std::string &source)
{
    if (imported.layers.empty())
        throw FormatError(source,
            "no convolution the layer model can hold: " + std::to_string(imported.skipped.size()) + " skipped"
                + (imported.skipped.empty() ? std::string()
                                            : " (" + skippedCounts(imported.skipped) + "; first: " + imported.skipped.front().node
                            + ", " + imported.skipped.front().reason + ")"));
    Network n;
    n.name = imported.graph_name;
    n.source = source;
    n.hardware = accelerator.hardware;
    n.options = accelerator.options;
    std::vector<Problem> problems;
    for (const ImportedConv &conv : imported.layers)
        problems.push_back(Problem{conv.layer, n.hardware, n.options});
    // Simulations shrink the generators to the memory: the layers on threads.
    const std::vector<std::vector<StrategySpec>> strategies
        = withStrategies ? defaultStrategiesOf(problems) : std::vector<std::vector<StrategySpec>>(problems.size());
    std::set<std::string> used;
    for (std::size_t i = 0; i < imported.layers.size(); ++i) {
        const ImportedConv &conv = imported.layers[i];
        std::string name = conv.name;
        for (int k = 2; !used.insert(name).second; ++k)
            name = conv.name + "#" + std::to_string(k);
        n.layers.push_back(NetworkLayer{name, conv.layer, DataSpec{}, strategies[i]});
    }
    for (const SkippedNode &s : imported.skipped)
        n.skipped.push_back(SkippedConv{s.node, s.reason});
    return n;
}

} // namespace convoffload
