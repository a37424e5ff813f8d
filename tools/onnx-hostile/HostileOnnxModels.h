// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// ONNX models that reach ONNX's own shape inference with one node of a given
// op type next to a Conv (docs/user/bad-input.md, "ONNX models"): the
// malformed nodes that crashed ONNX 1.12's shape inference in issue 42, and
// one plain node of every op of the default domain, the seeds of the ONNX
// fuzz target. Built through ONNX's protobuf messages, so the tests make
// them rather than keep binary blobs, and the corpus can be made again.
#include <string>
#include <vector>

namespace convoffload::hostile {

struct OnnxCase {
    std::string name; // file name without ".onnx"
    std::string op; // op type of the node under test
    int node = 0; // its index in the main graph
    std::string bytes; // the serialised ModelProto
};

/// The malformed nodes of issue 42, each after (or before) a sound Conv.
std::vector<OnnxCase> shapeInferenceCrashes();

/// One node of every op of the default domain that ONNX registers (latest
/// version at opset 17), its inputs float tensors of rank 4 and its required
/// attributes of their type's plainest value, after a sound Conv.
std::vector<OnnxCase> defaultDomainOps();

/// The op types of defaultDomainOps(), sorted: the fuzz dictionary's words.
std::vector<std::string> defaultDomainOpTypes();

} // namespace convoffload::hostile
