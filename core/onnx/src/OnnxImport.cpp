// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/onnx/OnnxImport.h"

#include "GuardedSchemas.h"

#include "OnnxProto.h"
#include "ShapeInferenceProcess.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/model/Project.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>

namespace convoffload {

namespace {

using Shape = std::vector<std::optional<std::int64_t>>; // nullopt: unknown or symbolic

std::string listText(const std::vector<std::int64_t> &values)
{
    std::string s = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? ", " : "") + std::to_string(values[i]);
    return s + "]";
}

std::string typeName(int type)
{
    return onnx::TensorProto_DataType_IsValid(type) ? onnx::TensorProto_DataType_Name(onnx::TensorProto_DataType(type))
                                                    : "type " + std::to_string(type);
}

// Subgraphs are searched this deep; protobuf's own recursion limit (100
// messages, about 3 per level of subgraph) stops a file long before.
constexpr int kMaxSubgraphDepth = 40;

// Why a node is skipped: thrown inside the node's import, caught per node.
struct Skip {
    std::string reason;
};

// The float values of a tensor; throws Skip (or FormatError via `fail`) when
// they are not plain float data that matches the dims.
template <typename Fail> std::vector<float> floatValues(const onnx::TensorProto &t, const std::string &what, Fail fail)
{
    std::int64_t count = 1;
    for (std::int64_t d : t.dims()) {
        if (d < 0 || d > INT_MAX)
            fail(what + " has dimension " + std::to_string(d));
        count *= d;
        if (count > (std::int64_t(1) << 31))
            fail(what + " has more than 2^31 elements");
    }
    if (t.data_type() != onnx::TensorProto::FLOAT)
        fail(what + " is of type " + typeName(t.data_type()) + "; only FLOAT tensors are imported");
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
        fail(what + " is stored in an external file, which this import does not read");
    // The data must match the dims before anything is allocated: the dims of
    // a damaged file may claim billions of values.
    const std::size_t expected = std::size_t(count);
    const std::string dims = listText({t.dims().begin(), t.dims().end()});
    if (t.has_raw_data()) {
        if (t.raw_data().size() != expected * sizeof(float))
            fail(what + " holds " + std::to_string(t.raw_data().size()) + " bytes of data, its dims " + dims + " need "
                + std::to_string(expected * sizeof(float)));
    } else if (std::size_t(t.float_data_size()) != expected) {
        fail(what + " holds " + std::to_string(t.float_data_size()) + " values, its dims " + dims + " need "
            + std::to_string(expected));
    }
    std::vector<float> values(expected);
    if (t.has_raw_data()) // little-endian, as this machine (x86-64, ARM64 Linux)
        std::memcpy(values.data(), t.raw_data().data(), t.raw_data().size());
    else
        std::copy(t.float_data().begin(), t.float_data().end(), values.begin());
    return values;
}

std::vector<float> initializerValues(const onnx::TensorProto &t, const std::string &what)
{
    return floatValues(t, what, [](const std::string &reason) { throw Skip{reason}; });
}

Shape shapeOf(const onnx::ValueInfoProto &v)
{
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
        return {};
    Shape shape;
    for (const auto &d : v.type().tensor_type().shape().dim())
        shape.push_back(d.has_dim_value() && d.dim_value() > 0 ? std::optional<std::int64_t>(d.dim_value()) : std::nullopt);
    return shape;
}

const onnx::AttributeProto *attribute(const onnx::NodeProto &node, const std::string &name)
{
    for (const auto &a : node.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

std::vector<std::int64_t> intsAttribute(const onnx::NodeProto &node, const std::string &name, std::vector<std::int64_t> fallback)
{
    const onnx::AttributeProto *a = attribute(node, name);
    return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : fallback;
}

int checkedInt(std::int64_t value, const std::string &what)
{
    if (value < INT_MIN || value > INT_MAX)
        throw Skip{what + " " + std::to_string(value) + " is out of range"};
    return int(value);
}

// auto_pad SAME_*: the ONNX operator spec's total padding, (ceil(in / s) − 1)·s
// + span − in, clamped at 0 as ONNX's shape inference does, where span is the
// dilated kernel's extent d·(k − 1) + 1; SAME_UPPER puts the odd element at
// the end, SAME_LOWER at the beginning.
std::pair<std::int64_t, std::int64_t> samePads(std::int64_t in, std::int64_t span, std::int64_t s, bool upper)
{
    const std::int64_t out = (in + s - 1) / s;
    const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * s + span - in);
    const std::int64_t small = total / 2, large = total - small;
    return upper ? std::pair{small, large} : std::pair{large, small};
}

// Where a Conv's weights (or bias) come from: a stored tensor (initializer,
// bound input, Constant node) or a tensor computed at run time whose shape
// inference knows the shape. Only the shape is needed for the layer.
struct TensorSource {
    std::vector<std::int64_t> dims;
    const onnx::TensorProto *tensor = nullptr; // stored values, when there are
    std::string storage; // "initializer", "Constant node", "graph input", "computed at run time"
};

class Importer {
public:
    Importer(const onnx::ModelProto &model, const std::vector<OnnxTensor> &bound)
        : m_graph(model.graph())
    {
        for (const auto &t : m_graph.initializer())
            m_initializers.emplace(t.name(), &t);
        // Bound values go to the inputs that no initializer feeds, in order.
        std::size_t next = 0;
        for (const auto &v : m_graph.input()) {
            if (next == bound.size())
                break;
            if (m_initializers.count(v.name()))
                continue;
            onnx::TensorProto &t = m_bound.emplace_back();
            t.set_name(v.name());
            t.set_data_type(onnx::TensorProto::FLOAT);
            for (std::int64_t d : bound[next].dims)
                t.add_dims(d);
            for (float f : bound[next].values)
                t.add_float_data(f);
            ++next;
        }
        for (const auto &t : m_bound)
            m_initializers.emplace(t.name(), &t);
        addGraph(m_graph);
    }

    // The convolution `node` of type `op` (Conv, ConvInteger, QLinearConv).
    ImportedConv conv(const onnx::NodeProto &node, const std::string &op, const std::string &name) const
    {
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            throw Skip{op + " of domain '" + node.domain() + "', not the standard operator"};
        // QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point,
        // y_scale, y_zero_point, B (the ONNX operator docs); Conv and
        // ConvInteger: x, w, then B or the zero points.
        const int weightsAt = op == "QLinearConv" ? 3 : 1;
        const int biasAt = op == "QLinearConv" ? 8 : op == "Conv" ? 2 : -1;
        if (node.input_size() <= weightsAt || node.input(0).empty() || node.input(weightsAt).empty())
            throw Skip{op + " without input X or weights W"};
        const std::string &wName = node.input(weightsAt);
        const std::optional<TensorSource> w = source(wName);
        if (!w)
            throw Skip{"the weights '" + wName
                + "' are neither an initializer nor a bound input (computed at run time), and shape inference does not "
                  "know their shape"};
        const int rank = int(w->dims.size());
        if (rank == 5)
            throw Skip{"3-D convolution (weights of rank 5); the model holds 1-D and 2-D convolutions only"};
        if (rank != 3 && rank != 4)
            throw Skip{
                "weights of rank " + std::to_string(rank) + "; the model holds 1-D and 2-D convolutions (rank 3 or 4) only"};
        // A 1-D convolution (X [batch, C, W], weights [M, C/group, kW]) is a
        // layer of height 1: H_in = H_K = 1, stride and dilation 1 and no
        // padding on H (docs/design/onnx-import.md, 1-D convolutions).
        const bool oneD = rank == 3;
        const std::size_t spatial = std::size_t(rank - 2);
        const std::string values = spatial == 1 ? "1 value" : std::to_string(spatial) + " values";
        const std::vector<std::int64_t> &wDims = w->dims;
        for (std::int64_t d : wDims)
            if (d < 1 || d > INT_MAX)
                throw Skip{"the weights '" + wName + "' have dims " + listText(wDims) + ", not sizes of at least 1"};
        const auto xShape = m_shapes.find(node.input(0));
        const bool known = xShape != m_shapes.end() && xShape->second.size() == std::size_t(rank);
        if (xShape != m_shapes.end() && !xShape->second.empty() && !known)
            throw Skip{"the input '" + node.input(0) + "' has rank " + std::to_string(xShape->second.size())
                + ", the weights rank " + std::to_string(rank)};

        // group and dilations (the ONNX operator docs): the weights hold
        // N = wDims[0] kernels of C/group channels each, kernel k reading the
        // channels of group floor(k / (N/group)) — the model's own layout
        // [n][c_in/g][h_k][w_k] (docs/reference/model.md#grouped-and-dilated).
        const onnx::AttributeProto *groupAttr = attribute(node, "group");
        const std::int64_t group = groupAttr ? groupAttr->i() : 1;
        if (group < 1 || group > INT_MAX)
            throw Skip{"group must be at least 1: got " + std::to_string(group)};
        if (wDims[0] % group != 0)
            throw Skip{"group does not divide the kernels: group " + std::to_string(group) + ", " + std::to_string(wDims[0])
                + " kernels (weights " + listText(wDims) + ")"};
        const std::vector<std::int64_t> dilations = intsAttribute(node, "dilations", std::vector<std::int64_t>(spatial, 1));
        if (dilations.size() != spatial
            || std::any_of(dilations.begin(), dilations.end(), [](std::int64_t d) { return d < 1 || d > INT_MAX; }))
            throw Skip{"dilations " + listText(dilations) + " are not " + values + " of at least 1"};

        if (!known)
            throw Skip{"the shape of input '" + node.input(0) + "' is unknown after shape inference"};
        const Shape &x = xShape->second;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!x[i])
                throw Skip{"dimension " + std::to_string(i) + " of input '" + node.input(0)
                    + "' is dynamic (symbolic or unknown after shape inference)" + m_dynamicRemedy};
        if (group == 1 && *x[1] != wDims[1])
            throw Skip{"the input has " + std::to_string(*x[1]) + " channels, the weights " + std::to_string(wDims[1])};
        if (*x[1] % group != 0)
            throw Skip{"group does not divide the input channels: group " + std::to_string(group) + ", the input has "
                + std::to_string(*x[1]) + " channels"};
        if (*x[1] != wDims[1] * group)
            throw Skip{"group disagrees with the weights: group " + std::to_string(group) + ", the input has "
                + std::to_string(*x[1]) + " channels, the weights " + std::to_string(wDims[1]) + " per group ("
                + std::to_string(group) + " · " + std::to_string(wDims[1]) + " = " + std::to_string(group * wDims[1]) + ")"};
        const std::vector<std::int64_t> kernel(wDims.begin() + 2, wDims.end());
        const std::vector<std::int64_t> kernelShape = intsAttribute(node, "kernel_shape", kernel);
        if (kernelShape != kernel)
            throw Skip{"kernel_shape " + listText(kernelShape) + " disagrees with the weights' " + listText(wDims)};
        const std::vector<std::int64_t> strides = intsAttribute(node, "strides", std::vector<std::int64_t>(spatial, 1));
        if (strides.size() != spatial || std::any_of(strides.begin(), strides.end(), [](std::int64_t s) { return s < 1; }))
            throw Skip{"strides " + listText(strides) + " are not " + values + " of at least 1"};

        ImportedConv c;
        c.name = name;
        c.input = node.input(0);
        c.output = node.output_size() ? node.output(0) : std::string();
        c.batch = *x[0];
        c.spatial_dims = int(spatial);
        Layer &l = c.layer;
        l.c_in = checkedInt(*x[1], "C_in");
        l.h_in = oneD ? 1 : checkedInt(*x[2], "H_in");
        l.w_in = checkedInt(*x.back(), "W_in");
        l.n = checkedInt(wDims[0], "N");
        l.h_k = oneD ? 1 : checkedInt(wDims[2], "H_K");
        l.w_k = checkedInt(wDims.back(), "W_K");
        l.stride_h = oneD ? 1 : checkedInt(strides[0], "stride");
        l.stride_w = checkedInt(strides.back(), "stride");
        l.group = int(group);
        l.dilation_h = oneD ? 1 : int(dilations[0]);
        l.dilation_w = int(dilations.back());

        const onnx::AttributeProto *autoPad = attribute(node, "auto_pad");
        const std::string mode = autoPad ? autoPad->s() : "NOTSET";
        if (mode == "NOTSET") {
            const std::vector<std::int64_t> pads = intsAttribute(node, "pads", std::vector<std::int64_t>(2 * spatial, 0));
            if (pads.size() != 2 * spatial)
                throw Skip{"pads " + listText(pads) + " do not have " + std::to_string(2 * spatial) + " values"};
            // ONNX order: [x1_begin, x2_begin, x1_end, x2_end]; 1-D: [begin, end].
            l.pad_top = oneD ? 0 : checkedInt(pads[0], "pad");
            l.pad_left = checkedInt(pads[spatial - 1], "pad");
            l.pad_bottom = oneD ? 0 : checkedInt(pads[2], "pad");
            l.pad_right = checkedInt(pads[2 * spatial - 1], "pad");
        } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
            // The dilated kernel's extent, as ONNX's spec and shape inference
            // take it; H of a 1-D layer (1, kernel 1, stride 1) gets none.
            const bool upper = mode == "SAME_UPPER";
            const std::int64_t spanH = std::int64_t(l.dilation_h) * (l.h_k - 1) + 1; // no int overflow: a
            const std::int64_t spanW = std::int64_t(l.dilation_w) * (l.w_k - 1) + 1; // damaged file's huge d
            const auto [top, bottom] = samePads(l.h_in, spanH, l.stride_h, upper);
            const auto [left, right] = samePads(l.w_in, spanW, l.stride_w, upper);
            l.pad_top = checkedInt(top, "pad");
            l.pad_bottom = checkedInt(bottom, "pad");
            l.pad_left = checkedInt(left, "pad");
            l.pad_right = checkedInt(right, "pad");
        } else if (mode != "VALID") {
            throw Skip{"auto_pad '" + mode + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID"};
        }
        const std::vector<std::string> problems = l.problems();
        if (!problems.empty())
            throw Skip{"the layer is outside what the model holds: " + problems.front()};

        const bool hasBias = biasAt > 0 && node.input_size() > biasAt && !node.input(biasAt).empty();
        const std::optional<TensorSource> b = hasBias ? source(node.input(biasAt)) : std::nullopt;
        if (b && !unreadable(*b).empty() && !(b->dims.size() == 1 && b->dims[0] == l.n))
            throw Skip{"the bias has dims " + listText(b->dims) + " for " + std::to_string(l.n) + " kernels"};
        // Values: read as before from float32 data (the conformance cases'
        // functional check); any other storage gives only the shape.
        c.values_not_read = op != "Conv" ? "quantised convolution (" + op + ")" : unreadable(*w);
        if (c.values_not_read.empty() && hasBias) {
            const std::string why = b ? unreadable(*b) : "computed at run time";
            if (!why.empty())
                c.values_not_read = "bias " + why;
        }
        if (!c.values_not_read.empty())
            return c;
        c.weights = initializerValues(*w->tensor, "the weights '" + wName + "'");
        // floatValues matched the data to the dims, and the checks above the
        // dims to the layer; this keeps the kernels' size tied to the layer
        // (n·(C_in/g)·H_K·W_K) should either change.
        if (std::int64_t(c.weights.size()) != l.n * l.kernelElements())
            throw Skip{"the weights '" + wName + "' hold " + std::to_string(c.weights.size()) + " values, the layer needs "
                + std::to_string(l.n * l.kernelElements())};
        if (!std::all_of(c.weights.begin(), c.weights.end(), [](float v) { return std::isfinite(v); }))
            throw Skip{"the weights '" + wName + "' hold a value that is not finite"};
        if (hasBias) {
            c.bias = initializerValues(*b->tensor, "the bias '" + node.input(biasAt) + "'");
            if (std::int64_t(c.bias.size()) != l.n)
                throw Skip{"the bias has " + std::to_string(c.bias.size()) + " values for " + std::to_string(l.n) + " kernels"};
        }
        c.kernels = quantise(c.weights, quantisationBits(l));
        return c;
    }

    /// Said after "is dynamic" when a graph input has a symbolic dimension.
    void setDynamicRemedy(std::string remedy) { m_dynamicRemedy = std::move(remedy); }

private:
    // Names are unique across a graph and its subgraphs (ONNX's IR), so one
    // map each serves every scope.
    void addGraph(const onnx::GraphProto &g, int depth = 0)
    {
        for (const auto &t : g.initializer())
            m_initializers.emplace(t.name(), &t);
        for (const auto *list : {&g.input(), &g.value_info(), &g.output()})
            for (const auto &v : *list)
                m_shapes.emplace(v.name(), shapeOf(v));
        for (const auto &node : g.node()) {
            if (node.op_type() == "Constant" && (node.domain().empty() || node.domain() == "ai.onnx") && node.output_size() == 1)
                if (const onnx::AttributeProto *value = attribute(node, "value");
                    value && value->type() == onnx::AttributeProto::TENSOR)
                    m_constants.emplace(node.output(0), &value->t());
            for (const onnx::AttributeProto &a : node.attribute())
                if (depth < kMaxSubgraphDepth) {
                    if (a.has_g())
                        addGraph(a.g(), depth + 1);
                    for (const auto &g : a.graphs())
                        addGraph(g, depth + 1);
                }
        }
    }

    std::optional<TensorSource> source(const std::string &name) const
    {
        const auto stored = [](const onnx::TensorProto &t, const std::string &storage) {
            return TensorSource{{t.dims().begin(), t.dims().end()}, &t, storage};
        };
        if (const auto i = m_initializers.find(name); i != m_initializers.end())
            return stored(*i->second, "initializer");
        if (const auto c = m_constants.find(name); c != m_constants.end())
            return stored(*c->second, "Constant node");
        const auto s = m_shapes.find(name);
        if (s == m_shapes.end() || s->second.empty()
            || std::any_of(s->second.begin(), s->second.end(), [](const auto &d) { return !d; }))
            return std::nullopt;
        TensorSource t;
        for (const auto &d : s->second)
            t.dims.push_back(*d);
        const bool input = std::any_of(
            m_graph.input().begin(), m_graph.input().end(), [&](const onnx::ValueInfoProto &v) { return v.name() == name; });
        t.storage = input ? "graph input" : "computed at run time";
        return t;
    }

    // Why a tensor's values are not read: empty for plain float32 data.
    static std::string unreadable(const TensorSource &s)
    {
        if (!s.tensor)
            return s.storage;
        if (s.tensor->data_type() != onnx::TensorProto::FLOAT)
            return typeName(s.tensor->data_type()) + " " + s.storage;
        if (s.tensor->data_location() == onnx::TensorProto::EXTERNAL)
            return s.storage + " with external data";
        return {};
    }

    const onnx::GraphProto &m_graph;
    std::deque<onnx::TensorProto> m_bound;
    std::map<std::string, const onnx::TensorProto *> m_initializers;
    std::map<std::string, const onnx::TensorProto *> m_constants; // Constant nodes' outputs
    std::map<std::string, Shape> m_shapes;
    std::string m_dynamicRemedy;
};

// The layers whose weights' values were not read, one note per reason.
void noteValuesNotRead(NetworkImport &result)
{
    std::map<std::string, std::vector<std::string>> byReason;
    for (const ImportedConv &c : result.layers)
        if (!c.values_not_read.empty())
            byReason[c.values_not_read].push_back(c.name);
    for (const auto &[why, names] : byReason) {
        std::string list;
        for (std::size_t i = 0; i < names.size() && i < 3; ++i)
            list += (i ? ", " : "") + names[i];
        if (names.size() > 3)
            list += ", …";
        result.notes.push_back("weights not read (" + why + ") for " + std::to_string(names.size()) + " layer"
            + (names.size() == 1 ? "" : "s") + " (" + list
            + "): their shapes are imported; a functional check uses seeded values");
    }
}

// --input-shape: each named graph input (not an initializer) gets these
// sizes, one per dimension; a dimension the model fixes must keep its size.
void setInputShapes(onnx::GraphProto &graph, const InputShapes &shapes, std::vector<std::string> &notes)
{
    std::map<std::string, int> initializers;
    for (const auto &t : graph.initializer())
        initializers.emplace(t.name(), 0);
    std::map<std::string, int> seen;
    for (const auto &[name, dims] : shapes) {
        if (seen[name]++)
            throw InputShapeError("'" + name + "' is given twice");
        onnx::ValueInfoProto *input = nullptr;
        std::string names;
        for (auto &v : *graph.mutable_input()) {
            if (initializers.count(v.name()))
                continue;
            names += (names.empty() ? "'" : ", '") + v.name() + "'";
            if (v.name() == name)
                input = &v;
        }
        if (!input)
            throw InputShapeError(
                "the model has no graph input '" + name + "' (its inputs: " + (names.empty() ? "none" : names) + ")");
        checkInputShape(graphInputOf(*input), dims);
        auto &shape = *input->mutable_type()->mutable_tensor_type()->mutable_shape();
        if (shape.dim_size() == 0) // unranked: the dimensions given
            for (std::size_t i = 0; i < dims.size(); ++i)
                shape.add_dim();
        for (int i = 0; i < shape.dim_size(); ++i)
            shape.mutable_dim(i)->set_dim_value(dims[std::size_t(i)]);
        notes.push_back("input '" + name + "': shape " + listText(dims) + " as given");
    }
}

// A symbolic or missing dimension 0 of a graph input is the batch: it counts
// as 1 (the layer is one image), with a note. Returns the remedy to name when
// a convolution's input still has a dynamic dimension: the graph inputs with
// other symbolic dimensions, empty when there are none.
std::string fixSymbolicBatch(onnx::GraphProto &graph, std::vector<std::string> &notes)
{
    std::map<std::string, int> initializers;
    for (const auto &t : graph.initializer())
        initializers.emplace(t.name(), 0);
    std::string remedy;
    for (auto &v : *graph.mutable_input()) {
        if (initializers.count(v.name()) || !v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
            continue;
        auto &shape = *v.mutable_type()->mutable_tensor_type()->mutable_shape();
        const auto symbol = [](const onnx::TensorShapeProto_Dimension &d) {
            return d.has_dim_param() && !d.dim_param().empty() ? "'" + d.dim_param() + "'" : std::string("unknown");
        };
        if (shape.dim_size() > 0 && !(shape.dim(0).has_dim_value() && shape.dim(0).dim_value() > 0)) {
            notes.push_back("input '" + v.name() + "': dimension 0 (" + symbol(shape.dim(0)) + ") is symbolic, taken as batch 1");
            shape.mutable_dim(0)->set_dim_value(1);
        }
        std::string example, dims;
        int unknown = 0;
        for (int i = 0; i < shape.dim_size(); ++i) {
            const auto &d = shape.dim(i);
            const bool fixed = d.has_dim_value() && d.dim_value() > 0;
            example += (i ? "," : "")
                + (fixed ? std::to_string(d.dim_value())
                         : "<" + (d.has_dim_param() ? d.dim_param() : "d" + std::to_string(i)) + ">");
            if (!fixed) {
                dims += std::string(dims.empty() ? "" : ", ") + std::to_string(i) + " (" + symbol(d) + ")";
                ++unknown;
            }
        }
        if (!dims.empty() && remedy.size() < 1000)
            remedy += "; graph input '" + v.name() + "' has symbolic dimension" + (unknown > 1 ? "s " : " ") + dims
                + ": give it a size with --input-shape " + v.name() + "=" + example;
    }
    return remedy;
}

// Imports the convolutions of `graph` and, depth first, of its nodes'
// subgraphs (If's branches, Loop's and Scan's bodies: attributes of type
// GRAPH or GRAPHS), in graph order. `prefix` names a subgraph's unnamed
// nodes, `inside` is added to its skipped reasons. Returns how many layers
// came from subgraphs.
int importNodes(const Importer &importer, const onnx::GraphProto &graph, const std::string &prefix, const std::string &inside,
    int depth, NetworkImport &result)
{
    int fromSubgraphs = 0;
    const auto &nodes = graph.node();
    for (int i = 0; i < nodes.size(); ++i) {
        const onnx::NodeProto &node = nodes[i];
        const std::string &op = node.op_type();
        const std::string name = node.name().empty() ? prefix + "conv" + std::to_string(i) : node.name();
        // Quantised convolutions have the shapes of a Conv; only their
        // values (not read) differ.
        if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") {
            try {
                result.layers.push_back(importer.conv(node, op, name));
                fromSubgraphs += depth > 0;
            } catch (const Skip &skip) {
                // A reason is a message: the names in it (inputs, weights,
                // the subgraph's parent) come from the model, escaped.
                result.skipped.push_back({name, printable(skip.reason + inside)});
            }
        } else if (op == "ConvTranspose") {
            result.skipped.push_back(
                {name, printable("transposed convolution (ConvTranspose); the model holds Conv only" + inside)});
        }
        for (const onnx::AttributeProto &a : node.attribute()) {
            if (!a.has_g() && a.graphs_size() == 0)
                continue;
            const std::string parent = node.name().empty() ? op + std::to_string(i) : node.name();
            if (depth >= kMaxSubgraphDepth) {
                result.warnings.push_back("subgraphs nested deeper than " + std::to_string(kMaxSubgraphDepth) + " levels ("
                    + prefix + parent + ") are not searched for convolutions");
                continue;
            }
            const auto visit = [&](const onnx::GraphProto &g, const std::string &attr) {
                fromSubgraphs += importNodes(importer, g, prefix + parent + "/" + attr + "/",
                    " (inside the " + attr + " of " + op + " '" + parent + "')", depth + 1, result);
            };
            if (a.has_g())
                visit(a.g(), a.name());
            for (int k = 0; k < a.graphs_size(); ++k)
                visit(a.graphs(k), a.name() + std::to_string(k));
        }
    }
    return fromSubgraphs;
}

/// Every node of the model is a Conv of the default domain, with no graph
/// attribute, and the model has no function: what may be inferred in process.
bool onlyGuardedConvolutions(const onnx::ModelProto &model)
{
    if (model.functions_size() > 0)
        return false;
    for (const onnx::NodeProto &node : model.graph().node()) {
        if (node.op_type() != "Conv" || !(node.domain().empty() || node.domain() == "ai.onnx"))
            return false;
        for (const onnx::AttributeProto &a : node.attribute())
            if (a.has_g() || a.graphs_size() > 0)
                return false;
    }
    return true;
}

} // namespace

NetworkImport importOnnx(
    const std::string &path, const std::vector<OnnxTensor> &bound, const InputShapes &shapes, const ShapeInferenceLimits &limits)
{
    return importOnnxBytes(readTextFile(path, kMaxOnnxFileBytes), path, bound, shapes, limits);
}

NetworkImport importOnnxBytes(const std::string &bytes, const std::string &where, const std::vector<OnnxTensor> &bound,
    const InputShapes &shapes, const ShapeInferenceLimits &limits)
{
    onnx::ModelProto model = parseOnnxModel(bytes, where);

    NetworkImport result;
    setInputShapes(*model.mutable_graph(), shapes, result.notes);
    const std::string remedy = fixSymbolicBatch(*model.mutable_graph(), result.notes);
    // In a worker process: ONNX's shape inference trusts its input and a
    // malformed node can crash it (docs/user/bad-input.md, "ONNX models").
    // A graph of Conv nodes alone is inferred here: the convolution's
    // inference is the one our guard checks first (GuardedSchemas), and a
    // process per import would cost more than the import itself.
    if (onlyGuardedConvolutions(model)) {
        try {
            static GuardedSchemas schemas;
            onnx::shape_inference::InferShapes(model, &schemas);
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &e) {
            result.warnings.push_back(std::string("shape inference failed: ") + e.what());
        }
    } else if (std::optional<std::string> failed = inferShapesInWorker(model, where, limits)) {
        result.warnings.push_back("shape inference failed: " + *failed);
    }
    result.graph_name = model.graph().name();
    Importer importer(model, bound);
    importer.setDynamicRemedy(remedy);
    const int subgraphLayers = importNodes(importer, model.graph(), "", "", 0, result);
    if (subgraphLayers > 0)
        result.notes.push_back(std::to_string(subgraphLayers) + " layer" + (subgraphLayers == 1 ? " comes" : "s come")
            + " from subgraphs (If, Loop, Scan), each imported once: both branches of an If, a Loop's body once whatever "
              "its trip count");
    const auto &nodes = model.graph().node();
    if (result.layers.empty() && result.skipped.empty())
        throw FormatError(
            where, "the model has no Conv node (graph '" + result.graph_name + "', " + std::to_string(nodes.size()) + " nodes)");
    noteValuesNotRead(result);
    // Notes and warnings are messages, with names from the model in them
    // (graph inputs, symbols, layers): escaped, as a FormatError's are.
    for (std::vector<std::string> *messages : {&result.notes, &result.warnings})
        for (std::string &m : *messages)
            m = printable(m);
    return result;
}

OnnxTensor loadOnnxTensor(const std::string &path)
{
    const std::string bytes = readTextFile(path, kMaxOnnxFileBytes);
    onnx::TensorProto t;
    if (bytes.empty() || !t.ParseFromArray(bytes.data(), int(bytes.size())))
        throw FormatError(path, "not an ONNX tensor: the protobuf does not parse");
    OnnxTensor out;
    out.dims.assign(t.dims().begin(), t.dims().end());
    out.values = floatValues(t, "the tensor", [&](const std::string &reason) { throw FormatError(path, reason); });
    return out;
}

int quantisationBits(const Layer &layer)
{
    int log2K = 0;
    while ((std::int64_t(1) << log2K) < layer.kernelElements())
        ++log2K;
    return std::min(24, (62 - log2K) / 2);
}

Quantised quantise(const std::vector<float> &values, int bits)
{
    float max = 0;
    for (float v : values)
        max = std::max(max, std::fabs(v));
    Quantised q;
    q.values.resize(values.size());
    if (max == 0)
        return q;
    int e = 0;
    std::frexp(max, &e); // max < 2^e
    q.exponent = bits - e; // so max · 2^exponent < 2^bits
    for (std::size_t i = 0; i < values.size(); ++i)
        q.values[i] = std::int32_t(std::llround(std::ldexp(double(values[i]), q.exponent)));
    return q;
}

TensorData ImportedConv::kernelData() const
{
    if (values_not_read.empty())
        return TensorData{{}, kernels.values};
    TensorData seeded = seededTensors(layer, DataSpec{}.seed);
    seeded.input.clear();
    return seeded;
}

TensorData functionalTensors(const ImportedConv &conv, const std::vector<float> &image, int &exponent)
{
    const Quantised input = quantise(image, quantisationBits(conv.layer));
    exponent = input.exponent + conv.kernels.exponent;
    return TensorData{input.values, conv.kernelData().kernels};
}

std::vector<float> dequantiseOutputs(const ImportedConv &conv, int exponent, const std::vector<std::int64_t> &outputs)
{
    const Layer &l = conv.layer;
    const std::int64_t patches = l.patchCount();
    std::vector<float> out(std::size_t(patches * l.n));
    for (std::int64_t p = 0; p < patches; ++p)
        for (int k = 0; k < l.n; ++k) {
            const double v = std::ldexp(double(outputs[std::size_t(p * l.n + k)]), -exponent);
            out[std::size_t(k * patches + p)] = float(v + (conv.bias.empty() ? 0.0 : double(conv.bias[std::size_t(k)])));
        }
    return out;
}

} // namespace convoffload
