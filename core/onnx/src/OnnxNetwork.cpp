// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/onnx/OnnxNetwork.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <algorithm>
#include <set>

namespace convoffload {

std::string skippedCategory(const std::string &reason)
{
    const auto startsWith = [&](const char *start) { return reason.rfind(start, 0) == 0; };
    // Reasons whose first words hold a name or a number.
    static const std::pair<const char *, const char *> kByStart[] = {
        {"dimension ", "dynamic input dimension"},
        {"the shape of input", "input shape unknown"},
        {"the input '", "input of another rank"},
        {"the input has", "channels disagree"},
        {"weights of rank", "weights of another rank"},
        {"the bias", "unreadable bias"},
    };
    if (startsWith("the weights '"))
        return reason.find("neither an initializer") != std::string::npos ? "weights computed at run time" : "unreadable weights";
    for (const auto &[start, category] : kByStart)
        if (startsWith(start))
            return category;
    if (reason.find(" is out of range") != std::string::npos && reason.find(" (") == std::string::npos)
        return "out of range";
    // Otherwise the words before the first detail: "depthwise convolution
    // (group = 32)…", "strides [0, 2]…", "auto_pad 'X'…", "the layer is
    // outside what the model holds: …".
    std::size_t end = reason.size();
    for (const char *cut : {" (", ";", ":", " [", " '"})
        end = std::min(end, reason.find(cut));
    return reason.substr(0, end);
}

std::string skippedCounts(const std::vector<SkippedNode> &skipped)
{
    std::vector<std::pair<std::string, int>> counts; // order of first appearance
    for (const SkippedNode &s : skipped) {
        const std::string category = skippedCategory(s.reason);
        const auto at = std::find_if(counts.begin(), counts.end(), [&](const auto &c) { return c.first == category; });
        if (at == counts.end())
            counts.emplace_back(category, 1);
        else
            ++at->second;
    }
    std::stable_sort(counts.begin(), counts.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    std::string text;
    for (const auto &[category, count] : counts)
        text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + category;
    return text;
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
    std::set<std::string> used;
    for (const ImportedConv &conv : imported.layers) {
        std::string name = conv.name;
        for (int k = 2; !used.insert(name).second; ++k)
            name = conv.name + "#" + std::to_string(k);
        NetworkLayer layer{name, conv.layer, DataSpec{}, {}};
        if (withStrategies)
            layer.strategies = defaultLayerStrategies(Problem{conv.layer, n.hardware, n.options});
        n.layers.push_back(std::move(layer));
    }
    for (const SkippedNode &s : imported.skipped)
        n.skipped.push_back(SkippedConv{s.node, s.reason});
    return n;
}

} // namespace convoffload
