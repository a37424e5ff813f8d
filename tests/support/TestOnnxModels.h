// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small ONNX models built through ONNX's protobuf classes, for the suites of
// the ONNX import (tst_onnx, tst_onnx_shapes, tst_network_cli), and ONNX's
// own shape inference to check what the import makes of them.
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onnxmodels {

struct Dim {
    std::int64_t value = 0;
    const char *symbol = nullptr; // a dim_param instead of a value
};

inline void setShape(
    onnx::ValueInfoProto &v, const std::string &name, const std::vector<Dim> &dims, int type = onnx::TensorProto::FLOAT)
{
    v.set_name(name);
    auto *t = v.mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    for (const Dim &d : dims) {
        auto *dim = t->mutable_shape()->add_dim();
        if (d.symbol)
            dim->set_dim_param(d.symbol);
        else if (d.value > 0)
            dim->set_dim_value(d.value);
        // else: a dimension with neither value nor symbol (unknown)
    }
}

/// A model (IR 8, opset 13 unless given) whose graph "hand-built" has the input
/// "x" of these dims.
inline onnx::ModelProto emptyModel(const std::vector<Dim> &input, int type = onnx::TensorProto::FLOAT, int opset = 13)
{
    onnx::ModelProto m;
    m.set_ir_version(8);
    auto *o = m.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    m.mutable_graph()->set_name("hand-built");
    setShape(*m.mutable_graph()->add_input(), "x", input, type);
    return m;
}

/// A FLOAT tensor of these dims, values (i % 5) − 2.
inline void fillTensor(onnx::TensorProto &t, const std::string &name, const std::vector<std::int64_t> &dims)
{
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    std::int64_t count = 1;
    for (std::int64_t d : dims) {
        t.add_dims(d);
        count *= d;
    }
    for (std::int64_t i = 0; i < count; ++i)
        t.add_float_data(float(i % 5) - 2.0f);
}

inline onnx::TensorProto &addWeights(onnx::ModelProto &m, const std::string &name, const std::vector<std::int64_t> &dims)
{
    onnx::TensorProto &t = *m.mutable_graph()->add_initializer();
    fillTensor(t, name, dims);
    return t;
}

/// An initializer of `type` with `bytes` bytes of raw data (every type's
/// values as raw little-endian bytes).
inline onnx::TensorProto &addRawWeights(
    onnx::ModelProto &m, const std::string &name, const std::vector<std::int64_t> &dims, int type, std::size_t bytes)
{
    onnx::TensorProto &t = *m.mutable_graph()->add_initializer();
    t.set_name(name);
    t.set_data_type(type);
    for (std::int64_t d : dims)
        t.add_dims(d);
    t.set_raw_data(std::string(bytes, '\1'));
    return t;
}

inline onnx::NodeProto &addNode(onnx::GraphProto &g, const std::string &op, const std::string &name,
    const std::vector<std::string> &inputs, const std::vector<std::string> &outputs)
{
    onnx::NodeProto *n = g.add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const std::string &i : inputs)
        n->add_input(i);
    for (const std::string &o : outputs)
        n->add_output(o);
    return *n;
}

inline onnx::NodeProto &addConv(
    onnx::ModelProto &m, const std::string &name, const std::string &in, const std::string &weights, const std::string &out)
{
    return addNode(*m.mutable_graph(), "Conv", name, {in, weights}, {out});
}

/// A Constant node whose value is a FLOAT tensor of these dims.
inline onnx::NodeProto &addConstant(onnx::GraphProto &g, const std::string &output, const std::vector<std::int64_t> &dims)
{
    onnx::NodeProto &n = addNode(g, "Constant", output + "_const", {}, {output});
    auto *a = n.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    fillTensor(*a->mutable_t(), output, dims);
    return n;
}

inline void setInts(onnx::NodeProto &n, const std::string &name, const std::vector<std::int64_t> &values)
{
    auto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values)
        a->add_ints(v);
}

inline void setInt(onnx::NodeProto &n, const std::string &name, std::int64_t value)
{
    auto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
}

inline void setString(onnx::NodeProto &n, const std::string &name, const std::string &value)
{
    auto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
}

/// Models of what the import takes beyond plain Conv, as seeds for damaged
/// copies (tst_onnx) and the fuzz corpus: a symbolic batch with FLOAT16
/// weights in a Constant node, a QLinearConv, a Conv inside each branch of
/// an If, a depthwise dilated Conv with auto_pad and a grouped dilated 1-D
/// Conv.
inline std::vector<onnx::ModelProto> shapeSeedModels()
{
    std::vector<onnx::ModelProto> models;
    onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {0, "H"}, {12}});
    onnx::TensorProto &t = *addConstant(*m.mutable_graph(), "w", {4, 3, 3, 3}).mutable_attribute(0)->mutable_t();
    t.clear_float_data();
    t.set_data_type(onnx::TensorProto::FLOAT16);
    t.set_raw_data(std::string(2 * 108, '\0'));
    setInts(addConv(m, "c", "x", "w", "y"), "strides", {2, 2});
    models.push_back(m);

    m = emptyModel({{1}, {3}, {10}, {12}}, onnx::TensorProto::UINT8);
    for (const char *name : {"xs", "ws", "ys"})
        addWeights(m, name, {});
    for (const char *name : {"xz", "wz", "yz"}) {
        onnx::TensorProto &z = addWeights(m, name, {});
        z.clear_float_data();
        z.set_data_type(name[0] == 'w' ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8);
        z.set_raw_data(std::string(1, '\0'));
    }
    onnx::TensorProto &q = addWeights(m, "w", {4, 3, 3, 3});
    q.clear_float_data();
    q.set_data_type(onnx::TensorProto::INT8);
    q.set_raw_data(std::string(108, '\1'));
    setInts(addNode(*m.mutable_graph(), "QLinearConv", "q", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"}), "pads",
        {1, 1, 1, 1});
    models.push_back(m);

    m = emptyModel({{1}, {3}, {10}, {12}});
    setShape(*m.mutable_graph()->add_input(), "cond", {}, onnx::TensorProto::BOOL);
    addWeights(m, "w", {2, 3, 3, 3});
    onnx::NodeProto &node = addNode(*m.mutable_graph(), "If", "if", {"cond"}, {"y"});
    for (const char *branch : {"then_branch", "else_branch"}) {
        auto *a = node.add_attribute();
        a->set_name(branch);
        a->set_type(onnx::AttributeProto::GRAPH);
        onnx::GraphProto &g = *a->mutable_g();
        g.set_name(branch);
        const std::string out = std::string(branch) + "_y";
        addNode(g, "Conv", "", {"x", "w"}, {out});
        auto *o = g.add_output();
        o->set_name(out);
        o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    }
    models.push_back(m);

    m = emptyModel({{1}, {4}, {9}, {11}});
    addWeights(m, "w", {8, 1, 3, 3});
    onnx::NodeProto &dw = addConv(m, "dw", "x", "w", "y");
    setInt(dw, "group", 4);
    setInts(dw, "dilations", {2, 3});
    setInts(dw, "strides", {2, 2});
    setString(dw, "auto_pad", "SAME_UPPER");
    models.push_back(m);

    m = emptyModel({{1}, {6}, {20}});
    addWeights(m, "w", {4, 3, 3});
    onnx::NodeProto &c1 = addConv(m, "c1", "x", "w", "y");
    setInt(c1, "group", 2);
    setInts(c1, "dilations", {2});
    setInts(c1, "pads", {1, 2});
    models.push_back(m);
    return models;
}

/// The shape ONNX's own shape inference gives `tensor` (graph inputs,
/// outputs and value_info, subgraphs included), nullopt when it gives none;
/// an unknown dimension is -1.
inline std::optional<std::vector<std::int64_t>> inferredShape(onnx::ModelProto m, const std::string &tensor)
{
    onnx::shape_inference::InferShapes(m);
    std::optional<std::vector<std::int64_t>> found;
    const auto search = [&](const auto &self, const onnx::GraphProto &g) -> void {
        for (const auto *list : {&g.input(), &g.value_info(), &g.output()})
            for (const auto &v : *list)
                if (v.name() == tensor && v.type().tensor_type().has_shape()) {
                    std::vector<std::int64_t> dims;
                    for (const auto &d : v.type().tensor_type().shape().dim())
                        dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
                    found = dims;
                }
        for (const auto &n : g.node())
            for (const auto &a : n.attribute())
                if (a.has_g())
                    self(self, a.g());
    };
    search(search, m.graph());
    return found;
}

} // namespace onnxmodels
