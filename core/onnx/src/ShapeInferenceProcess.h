// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The import's side of the shape inference worker (ShapeInferenceWorker.h):
// the model to a private temporary file, the worker run within its limits
// and a wall-clock timeout, the inferred model read back.
#include "convoffload/onnx/OnnxImport.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace convoffload {

/// Replaces `model` by the model with its shapes inferred, as
/// onnx::shape_inference::InferShapes would, run in the worker. Returns the
/// message when InferShapes threw (the shapes inferred until then are kept).
/// Throws FormatError (where = `where`) when the worker crashed, reached a
/// limit, or could not run: the reason names the node it was at when that
/// can be known ("the model is malformed at node 12 (Slice): shape inference
/// crashed (SIGSEGV)").
std::optional<std::string> inferShapesInWorker(
    onnx::ModelProto &model, const std::string &where, const ShapeInferenceLimits &limits);

} // namespace convoffload
