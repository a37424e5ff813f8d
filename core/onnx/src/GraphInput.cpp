// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/onnx/GraphInput.h"

#include "OnnxProto.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/onnx/OnnxImport.h"

#include <set>

namespace convoffload {

namespace {

std::string listText(const std::vector<std::int64_t> &values)
{
    std::string s = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? ", " : "") + std::to_string(values[i]);
    return s + "]";
}

} // namespace

InputShapeError::InputShapeError(const std::string &message)
    : std::invalid_argument(printable(message))
{
}

std::vector<GraphInput> graphInputs(const std::string &path)
{
    return graphInputsOfBytes(readTextFile(path, kMaxOnnxFileBytes), path);
}

std::vector<GraphInput> graphInputsOfBytes(const std::string &bytes, const std::string &where)
{
    const onnx::ModelProto model = parseOnnxModel(bytes, where);
    // IR < 4 listed initializers among the inputs too: those are weights, not fed by a run.
    std::set<std::string> initializers;
    for (const auto &t : model.graph().initializer())
        initializers.insert(t.name());
    std::vector<GraphInput> inputs;
    for (const auto &v : model.graph().input())
        if (!initializers.count(v.name()))
            inputs.push_back(graphInputOf(v));
    return inputs;
}

void checkInputShape(const GraphInput &input, const std::vector<std::int64_t> &dims)
{
    for (std::int64_t d : dims)
        if (d < 1)
            throw InputShapeError("'" + input.name + "': the sizes must be at least 1, got " + listText(dims));
    if (!input.tensor)
        throw InputShapeError("the graph input '" + input.name + "' is not a tensor");
    if (input.ranked && input.dims.size() != dims.size())
        throw InputShapeError("the graph input '" + input.name + "' has rank " + std::to_string(input.dims.size()) + ", "
            + listText(dims) + " gives " + std::to_string(dims.size()) + " sizes");
    for (std::size_t i = 0; i < input.dims.size() && i < dims.size(); ++i)
        if (input.dims[i].size && *input.dims[i].size != dims[i])
            throw InputShapeError("dimension " + std::to_string(i) + " of the graph input '" + input.name + "' is "
                + std::to_string(*input.dims[i].size) + " in the model, not " + std::to_string(dims[i]));
}

} // namespace convoffload
