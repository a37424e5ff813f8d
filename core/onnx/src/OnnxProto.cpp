// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "OnnxProto.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/onnx/OnnxImport.h"

namespace convoffload {

onnx::ModelProto parseOnnxModel(const std::string &bytes, const std::string &where)
{
    if (std::int64_t(bytes.size()) > kMaxOnnxFileBytes)
        throw FormatError(where, "not parsed: " + std::to_string(bytes.size()) + " bytes, more than an ONNX model may have here");
    onnx::ModelProto model;
    if (bytes.empty() || !model.ParseFromArray(bytes.data(), int(bytes.size())))
        throw FormatError(where, "not an ONNX model: the protobuf does not parse (truncated, damaged or another kind of file)");
    if (!model.has_graph() || model.ir_version() <= 0)
        throw FormatError(where, "not an ONNX model: it has no graph or no ir_version");
    return model;
}

GraphInput graphInputOf(const onnx::ValueInfoProto &v)
{
    GraphInput input;
    input.name = v.name();
    input.tensor = v.type().has_tensor_type();
    input.ranked = input.tensor && v.type().tensor_type().has_shape();
    if (!input.ranked)
        return input;
    // A dim_value ≤ 0 (some exporters write -1) is no size: unknown, as the import reads it.
    for (const auto &d : v.type().tensor_type().shape().dim())
        input.dims.push_back({d.has_dim_value() && d.dim_value() > 0 ? std::optional<std::int64_t>(d.dim_value()) : std::nullopt,
            d.has_dim_param() ? d.dim_param() : std::string()});
    return input;
}

} // namespace convoffload
