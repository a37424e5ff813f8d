// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Network.h"

#include <algorithm>

#include <initializer_list>

namespace convoffload {

Problem Network::problemOf(std::size_t index) const { return Problem{layers.at(index).layer, hardware, options}; }

Project Network::projectOf(std::size_t index) const
{
    const NetworkLayer &l = layers.at(index);
    return Project{problemOf(index), l.data, l.strategies};
}

std::ptrdiff_t Network::findLayer(const std::string &name) const
{
    for (std::size_t i = 0; i < layers.size(); ++i)
        if (layers[i].name == name)
            return std::ptrdiff_t(i);
    return -1;
}

Network networkOfProject(const Project &project, const std::string &layerName)
{
    Network network;
    network.hardware = project.problem.hardware;
    network.options = project.problem.options;
    network.layers.push_back(NetworkLayer{layerName, project.problem.layer, project.data, project.strategies});
    return network;
}

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
    // A reason written by hand may be empty or start with its detail: its
    // category must still be a word a report can print.
    return end == 0 ? std::string("no reason given") : reason.substr(0, end);
}

std::vector<std::pair<std::string, std::int64_t>> skippedCategoryCounts(const std::vector<std::string> &reasons)
{
    std::vector<std::pair<std::string, std::int64_t>> counts; // order of first appearance
    for (const std::string &reason : reasons) {
        const std::string category = skippedCategory(reason);
        const auto at = std::find_if(counts.begin(), counts.end(), [&](const auto &c) { return c.first == category; });
        if (at == counts.end())
            counts.emplace_back(category, 1);
        else
            ++at->second;
    }
    std::stable_sort(counts.begin(), counts.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return counts;
}

std::string skippedCountsText(const std::vector<std::string> &reasons)
{
    std::string text;
    for (const auto &[category, count] : skippedCategoryCounts(reasons))
        text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + category;
    return text;
}

} // namespace convoffload
