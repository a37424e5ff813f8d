// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shapes ONNX 1.12's shape inference leaves unknown, completed where the
// model computes them from other shapes (docs/design/onnx-import.md, "Shapes
// computed at run time"): a Resize whose sizes are Shape → Slice → Concat of
// another tensor, a Reshape whose target is built from Casts of constants
// and a Shape. ONNX's own data propagation covers neither (no Cast, no
// Slice of opset 1, no Resize), so the import would skip every convolution
// downstream. The worker alternates ONNX's inference and this completion
// until nothing new is known (ShapeInferenceWorker.cpp).
#include <cstddef>

namespace onnx {
class ModelProto;
}

namespace convoffload {

/// Gives the main graph's value_info the dims this completion can compute
/// and ONNX's inference left unknown: Reshape, Resize, Upsample, Expand and
/// ConstantOfShape outputs, from the values of small integer tensors
/// (constants, Shape, Gather, Slice, Concat, Cast, Squeeze, Unsqueeze and
/// arithmetic). A dim ONNX knows is never changed. Returns how many tensors
/// gained a dim.
std::size_t completeShapes(onnx::ModelProto &model);

} // namespace convoffload
