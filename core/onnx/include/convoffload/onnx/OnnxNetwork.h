// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// An imported ONNX model as a network project (docs/reference/cli.md#import-onnx `import-onnx`).
#include "convoffload/model/Network.h"
#include "convoffload/onnx/OnnxImport.h"

#include <string>
#include <vector>

namespace convoffload {

/// How many skipped convolutions per category (skippedCategory, core/model
/// Network.h), the most frequent first: "3 dilated convolution, 1 strides".
std::string skippedCounts(const std::vector<SkippedNode> &skipped);

/// Every imported convolution becomes a layer (graph order, the node's name;
/// a name used twice gets "#2", "#3", … ), with the default strategies of
/// defaultLayerStrategies when `withStrategies`; the skipped ones are listed
/// with their reasons. Throws FormatError (where = `source`) when no
/// convolution could be imported, with the count per category. `source` is stored as the network's source.
Network networkFromImport(
    const NetworkImport &imported, const Accelerator &accelerator, bool withStrategies, const std::string &source);

} // namespace convoffload
