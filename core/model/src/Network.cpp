// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Network.h"

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
    // A category is the first word of the import's reasons (core/onnx):
    // "depthwise convolution (group = 32); ...", "3-D convolution (weights
    // of rank 5); ...".
    for (const char *category : {"depthwise", "grouped", "dilated", "transposed", "1-D", "3-D", "quantised"})
        if (reason.starts_with(category))
            return category;
    return "other";
}

} // namespace convoffload
