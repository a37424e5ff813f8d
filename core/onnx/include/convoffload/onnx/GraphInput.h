// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The graph inputs of an ONNX model that a run feeds (not bound to an
// initializer), with their dimensions as the model declares them, and the
// rules a shape given for one must follow (`--input-shape`, the Import
// Network dialog's shape fields: docs/user/networks.md). One set of rules:
// importOnnx checks a given shape with checkInputShape too.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace convoffload {

/// One dimension as the model declares it: a size, or symbolic (its
/// dim_param, empty when unnamed or unknown).
struct GraphInputDim {
    std::optional<std::int64_t> size; // a dim_value ≥ 1; nullopt when symbolic or unknown
    std::string symbol; // the dim_param, e.g. "p2o.DynamicDimension.1"; empty when none
    bool operator==(const GraphInputDim &) const = default;
};

struct GraphInput {
    std::string name;
    bool tensor = true; // false: a sequence, map or optional input, which takes no shape
    bool ranked = true; // false: the model gives no shape at all, any rank is taken
    std::vector<GraphInputDim> dims; // empty when not ranked
    bool operator==(const GraphInput &) const = default;
};

/// Sizes for graph inputs' dimensions, by input name (`--input-shape
/// NAME=1,3,640,640`): every dimension of the input, all ≥ 1, fixed before
/// shape inference.
using InputShapes = std::vector<std::pair<std::string, std::vector<std::int64_t>>>;

/// A shape given for a graph input that the model cannot take: no such
/// input, another rank, a size the model fixes otherwise, a size < 1, or the
/// input named twice. The message names the input and the reason, escaped
/// (printable): input names come from the model.
struct InputShapeError : std::invalid_argument {
    explicit InputShapeError(const std::string &message);
};

/// The graph inputs of the model in `path` that are not initializers, in
/// graph order. The file is read and parsed as importOnnx does (at most
/// kMaxOnnxFileBytes; FormatError, where = `path`, when it cannot be read or
/// is not an ONNX model); no shape inference, so it is quick for the GUI to
/// call before an import.
std::vector<GraphInput> graphInputs(const std::string &path);
/// The same for bytes already in memory; `where` names them in errors.
std::vector<GraphInput> graphInputsOfBytes(const std::string &bytes, const std::string &where);

/// Throws InputShapeError unless `dims` can be the shape of `input`: a
/// tensor, every size ≥ 1, its rank, the sizes the model fixes.
void checkInputShape(const GraphInput &input, const std::vector<std::int64_t> &dims);

} // namespace convoffload
