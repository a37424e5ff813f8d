// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the import (OnnxImport.cpp) and the list of graph inputs
// (GraphInput.cpp) share, so both read a file the same way: the ModelProto
// parsed with the same bounds and refusals, a graph input's declared shape.
#include "convoffload/onnx/GraphInput.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace convoffload {

/// Parses `bytes` (at most kMaxOnnxFileBytes) into a model with a graph and
/// an ir_version; throws FormatError (where = `where`) otherwise.
onnx::ModelProto parseOnnxModel(const std::string &bytes, const std::string &where);

/// The input as its ValueInfoProto declares it.
GraphInput graphInputOf(const onnx::ValueInfoProto &v);

} // namespace convoffload
