// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the ONNX import (core/onnx) and its list of graph inputs.
// Any bytes either import (every
// layer sound, weights and quantised kernels of the layer's size (or none
// when their values are not read), every
// refusal with a node and a reason) or throw FormatError. The seed corpus is
// a few of ONNX's conformance models (Apache-2.0, Debian's libonnx-testdata)
// and op-<Op>.onnx, one node of every op of ONNX's default domain after a
// Conv, so mutations reach each op's shape inference (onnx.dict holds the op
// names); crashes/onnx holds the two damaged Conv nodes that crashed ONNX
// 1.12's own shape inference before the import guarded it, and the malformed
// nodes of issue 42 that crashed it before it ran in the worker process
// (convoffload-onnx-worker). tools/onnx-hostile makes the op-* seeds, those
// reproducers and the dictionary. The worker's own passes over the graph,
// its topological order and the completion of computed shapes, run here too,
// in this process, on the graph as the file has it: a crash in the worker
// would only be a refusal.
#include "FuzzTarget.h"

#include "GraphOrder.h"
#include "ShapeCompletion.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/onnx/GraphInput.h"
#include "convoffload/onnx/OnnxImport.h"

#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace convoffload;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    // The Import Network dialog lists the graph inputs from the same bytes first.
    try {
        for (const GraphInput &input : graphInputsOfBytes(bytes, "fuzz.onnx"))
            if ((!input.ranked && !input.dims.empty()) || (!input.tensor && input.ranked))
                std::abort(); // dimensions of an input that declares no shape
    } catch (const FormatError &) {
    }
    if (onnx::ModelProto model; model.ParseFromString(bytes) && model.has_graph()) {
        const std::vector<int> order = topologicalOrder(model.graph());
        if (order.size() != std::size_t(model.graph().node_size()))
            std::abort(); // not a permutation
        reorderNodes(*model.mutable_graph(), order);
        for (int round = 0; round < 3 && completeShapes(model) > 0; ++round) { }
    }
    NetworkImport net;
    try {
        net = importOnnxBytes(bytes, "fuzz.onnx");
    } catch (const FormatError &) {
        return 0;
    }
    for (const ImportedConv &c : net.layers) {
        // Values are read (float32 data) or not at all (any other storage).
        const std::size_t weights = c.values_not_read.empty() ? std::size_t(c.layer.n * c.layer.kernelElements()) : 0;
        if (!c.layer.problems().empty() || c.name.empty() || c.batch < 1 || c.weights.size() != weights
            || c.kernels.values.size() != weights || (!c.bias.empty() && c.bias.size() != std::size_t(c.layer.n)))
            std::abort(); // imported a layer the model cannot hold
    }
    for (const SkippedNode &s : net.skipped)
        if (s.node.empty() || s.reason.empty())
            std::abort(); // a refusal without its node or reason
    return 0;
}
