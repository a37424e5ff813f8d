// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The convolutions of an ONNX network (docs/reference/network-file.md, first part): every Conv node
// the layer model can hold, in graph order, with its real weights; every
// convolution it cannot hold in `skipped`, with the reason.
//
// Shapes, not weights (docs/design/onnx-import.md): a layer needs only the
// weights' shape, so weights of any storage are imported (FLOAT16 or integer
// initializers, Constant nodes, external data, tensors computed at run time
// whose shape inference knows); their values are read only when they are
// plain float32 data, for the functional check against ONNX's own outputs.
//
// Values: ONNX weights are float, the simulator's functional check runs on
// int32 tensors with exact 64-bit sums. Weights and inputs are therefore
// quantised with power-of-two scales (quantise), simulated exactly, and the
// simulated DRAM output is scaled back (dequantiseOutputs). The only error is
// the rounding of the quantisation, at most K·max|x|·max|w|·2^-bits.
#include "convoffload/model/Layer.h"
#include "convoffload/model/TensorData.h"
#include "convoffload/onnx/GraphInput.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace convoffload {

/// Size cap for a model file, checked before a byte is read (protobuf cannot
/// parse a message over 2 GB anyway).
constexpr std::int64_t kMaxOnnxFileBytes = std::int64_t(1) << 30;

/// Values ≈ q · 2^-exponent.
struct Quantised {
    std::vector<std::int32_t> values;
    int exponent = 0;
};

struct ImportedConv {
    std::string name; // the node's name, or "conv<node index>" when it has none
    std::string input, output; // tensor names in the graph
    std::int64_t batch = 1; // images per run; the layer is one image, a run repeats it
    Layer layer;
    /// 2, or 1 for a 1-D convolution: X [batch, C, W] and Y [batch, N, W_out],
    /// imported as a layer of height 1.
    int spatial_dims = 2;
    std::vector<float> weights; // [n][c_in/g][h_k][w_k], as the initializer holds them
    std::vector<float> bias; // [n], empty when the node has no bias
    Quantised kernels; // the weights quantised with quantisationBits(layer)
    /// Why the weights' values were not read, empty when they were: e.g.
    /// "FLOAT16 initializer", "external data", "computed at run time". Then
    /// weights, bias and kernels are empty and the functional check takes the
    /// seeded values of DataSpec's default seed, as a network project does.
    std::string values_not_read;
    /// The kernels as the functional simulation takes them (input left empty).
    TensorData kernelData() const;
};

struct SkippedNode {
    std::string node; // name as in ImportedConv::name
    std::string reason;
};

struct NetworkImport {
    std::string graph_name;
    std::vector<ImportedConv> layers; // graph order
    std::vector<SkippedNode> skipped; // graph order
    std::vector<std::string> warnings; // e.g. shape inference failed
    /// What the import assumed, not an error: weights whose values were not
    /// read, a symbolic batch dimension taken as 1.
    std::vector<std::string> notes;
};

/// An ONNX TensorProto file (the conformance tests' input_0.pb, output_0.pb).
struct OnnxTensor {
    std::vector<std::int64_t> dims;
    std::vector<float> values;
};
/// Throws FormatError (where = `path`) unless the file is a float tensor
/// whose data matches its dims.
OnnxTensor loadOnnxTensor(const std::string &path);

/// How ONNX's shape inference runs (docs/user/bad-input.md, "ONNX models"):
/// in the worker process convoffload-onnx-worker, whose crash or limit is
/// a FormatError naming the node it was at, never the caller's crash.
struct ShapeInferenceLimits {
    std::string worker; // empty: defaultOnnxWorkerPath()
    double cpu_seconds = 60; // the worker's CPU time
    double wall_seconds = 120; // then it is killed
    std::int64_t memory_bytes = std::int64_t(4) << 30; // the worker's address space
};

/// The worker: $CONVOFFLOAD_ONNX_WORKER when set, else next to the running
/// program (the build tree), else where an installed bin/ program finds
/// the installed one (libexec/convoffload/), else the build tree's.
std::string defaultOnnxWorkerPath();

/// Reads, parses and shape-infers an ONNX model. Throws FormatError (where =
/// `path`) when the file cannot be read, is larger than kMaxOnnxFileBytes, is
/// not an ONNX model, or holds no convolution at all. `bound` gives values to
/// the graph's inputs that are not initializers, in order (as a conformance
/// case's input_<i>.pb files): a Conv whose weights or bias are such an input
/// takes them from there; without one only their shape is used. `shapes`
/// fixes the dimensions of graph inputs (throws InputShapeError when it
/// does not fit the model); a symbolic batch left counts as 1. Shape
/// inference runs in a worker process within `limits`; its crash, a limit
/// reached or a worker that cannot start throws FormatError.
NetworkImport importOnnx(const std::string &path, const std::vector<OnnxTensor> &bound = {}, const InputShapes &shapes = {},
    const ShapeInferenceLimits &limits = {});
/// The same for bytes already in memory; `where` names them in errors.
NetworkImport importOnnxBytes(const std::string &bytes, const std::string &where, const std::vector<OnnxTensor> &bound = {},
    const InputShapes &shapes = {}, const ShapeInferenceLimits &limits = {});

/// Magnitude bits for the quantised values of this layer: min(24, (62 −
/// ceil(log2 K)) / 2) with K = (C_in/g)·H_K·W_K, so every dot product of a
/// quantised input and kernel is exact in 64 bits; 24 is float's precision.
int quantisationBits(const Layer &layer);
/// Rounds values · 2^exponent to integers, with the largest exponent that
/// keeps every |q| <= 2^bits. Values must be finite.
Quantised quantise(const std::vector<float> &values, int bits);

/// The tensors for a functional simulation of `conv` on one image
/// ([c_in][h_in][w_in] float values; a 1-D convolution's [c_in][w_in] is the same); `exponent` receives the output's
/// exponent (input's + kernels').
TensorData functionalTensors(const ImportedConv &conv, const std::vector<float> &image, int &exponent);
/// The simulated outputs (by output id, patch · N + kernel) back in float, in
/// ONNX's layout [n][h_out][w_out], bias added.
std::vector<float> dequantiseOutputs(const ImportedConv &conv, int exponent, const std::vector<std::int64_t> &outputs);

} // namespace convoffload
