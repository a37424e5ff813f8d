// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-onnx-worker: ONNX's shape inference in its own process
// (core/onnx/include/convoffload/onnx/ShapeInferenceWorker.h has the protocol).
#include "convoffload/onnx/ShapeInferenceWorker.h"

int main(int argc, char **argv) { return convoffload::onnxShapeInferenceWorkerMain(argc, argv); }
