// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A network project (docs/reference/network-file.md): the convolution layers of a network in graph
// order, sharing one hardware description and one set of options, each with
// its own data and strategies; and the convolutions the model could not hold,
// with the reason, so a report can list them.
#include "convoffload/model/Project.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace convoffload {

struct NetworkLayer {
    std::string name; // unique within the network (the ONNX node's name)
    Layer layer;
    DataSpec data;
    std::vector<StrategySpec> strategies;
    bool operator==(const NetworkLayer &) const = default;
};

/// A convolution of the source model that is not a layer of the network.
struct SkippedConv {
    std::string node;
    std::string reason;
    bool operator==(const SkippedConv &) const = default;
};

/// A skipped convolution's reason as a short stable category, the keys of
/// `network --json`'s `skipped_by_reason` (docs/reference/cli.md#network) and
/// the words of the import's counts (docs/design/onnx-import.md, "Skipped
/// reasons"): the reason's first words without names or numbers, e.g.
/// "depthwise convolution", "dynamic input dimension", "weights computed at
/// run time". Read from the reason alone, so an old network file's reasons
/// sort the same way.
std::string skippedCategory(const std::string &reason);
/// How many reasons per category, the most frequent first (then in order of
/// first appearance).
std::vector<std::pair<std::string, std::int64_t>> skippedCategoryCounts(const std::vector<std::string> &reasons);
/// The same as text: "3 dilated convolution, 1 strides".
std::string skippedCountsText(const std::vector<std::string> &reasons);

/// The accelerator a network runs on: what a hardware description file holds.
struct Accelerator {
    Hardware hardware;
    Options options;
    bool operator==(const Accelerator &) const = default;
};

struct Network {
    std::string name; // the graph's name; may be empty
    std::string source; // the model file it was imported from; may be empty
    Hardware hardware;
    Options options;
    std::vector<NetworkLayer> layers; // graph order
    std::vector<SkippedConv> skipped; // graph order

    /// Layer `index` with the shared hardware and options.
    Problem problemOf(std::size_t index) const;
    /// Layer `index` as a single-layer project (what every layer view opens).
    Project projectOf(std::size_t index) const;
    /// Index of the layer named `name`, or -1.
    std::ptrdiff_t findLayer(const std::string &name) const;
    bool operator==(const Network &) const = default;
};

/// A single-layer project as a network of one layer named `layerName`.
Network networkOfProject(const Project &project, const std::string &layerName);

} // namespace convoffload
