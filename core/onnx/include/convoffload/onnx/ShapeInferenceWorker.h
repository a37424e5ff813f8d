// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// convoffload-onnx-worker: ONNX's shape inference in its own process, so a
// malformed model that crashes it (issue 42; docs/user/bad-input.md, "ONNX
// models") ends the worker, never the CLI or the GUI.
//
//   convoffload-onnx-worker IN OUT --cpu-seconds S --memory-bytes B
//
// It limits itself (CPU time S, address space B, no core file) before it
// reads IN, a ModelProto; infers its shapes; writes OUT, the inferred model
// without its main graph's initializers (the caller still has them). The
// protocol goes to stdout, one record a line:
//   convoffload-onnx-worker 1      first line
//   node INDEX                     the main graph's node INDEX is inferred next
//   inner OP                       a node of a subgraph or function body (OP
//                                  escaped) is inferred next
//   inferred                       shape inference returned
//   failed MESSAGE                 it threw: the import's warning
//   memory                         an allocation failed: the limit, exit 3
//   end                            OUT is written, exit 0
//   error MESSAGE                  IN unreadable, bad arguments: exit 2
// A crash, SIGXCPU or SIGKILL (the CPU limit) end it without "end"; the last
// node line says where.
namespace convoffload {

constexpr const char *kOnnxWorkerName = "convoffload-onnx-worker";
constexpr const char *kOnnxWorkerGreeting = "convoffload-onnx-worker 1";

/// The worker's main (app/onnx_worker.cpp).
int onnxShapeInferenceWorkerMain(int argc, char **argv);

} // namespace convoffload
