// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// ONNX requires a graph's nodes in topological order, and ONNX 1.12's shape
// inference visits them in the stored order: a node stored before the node
// computing its input gets no shape. Converters (float16 conversion, for
// one) append the nodes they add at the end. The shape inference worker
// infers on a sorted copy of the order and puts the stored order back.
#include <vector>

namespace onnx {
class GraphProto;
}

namespace convoffload {

/// The nodes' indices in an order where each node follows the nodes
/// computing its inputs; among the nodes ready, the first stored comes
/// first, so a sorted graph keeps its order. Nodes on a cycle keep their
/// stored order, after the rest.
std::vector<int> topologicalOrder(const onnx::GraphProto &graph);

/// Puts `graph`'s nodes in `order` (a permutation of their indices).
void reorderNodes(onnx::GraphProto &graph, const std::vector<int> &order);

/// The inverse of a permutation.
std::vector<int> inverseOrder(const std::vector<int> &order);

} // namespace convoffload
