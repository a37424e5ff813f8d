// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-onnx-worker: ONNX's shape inference in its own process
// (core/onnx/include/convoffload/onnx/ShapeInferenceWorker.h has the protocol).
#include "convoffload/onnx/ShapeInferenceWorker.h"

#ifdef __SANITIZE_ADDRESS__
// In the sanitize build, a crash inside ONNX (a library AddressSanitizer does
// not instrument) must end the worker by its signal, as it does in a release
// build, for the parent to name it (docs/user/bad-input.md, "ONNX models").
extern "C" const char *__asan_default_options() { return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0"; }
#endif

int main(int argc, char **argv) { return convoffload::onnxShapeInferenceWorkerMain(argc, argv); }
