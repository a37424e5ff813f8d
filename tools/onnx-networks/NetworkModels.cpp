// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "NetworkModels.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace convoffload::samples {

namespace {

/// Builds one graph node by node; every tensor is 4-D NCHW until flattened.
class GraphBuilder {
public:
    GraphBuilder(const std::string &name, std::int64_t c, std::int64_t h, std::int64_t w)
    {
        m_model.set_ir_version(8);
        m_model.set_producer_name("convoffload tools/onnx-networks");
        auto *opset = m_model.add_opset_import();
        opset->set_domain("");
        opset->set_version(13);
        graph().set_name(name);
        valueInfo(*graph().add_input(), "input", {1, c, h, w});
    }

    /// A Conv with weights [n][c_in/group][k][k] and a bias; pads as [top,
    /// left, bottom, right], or auto_pad when `autoPad` is not empty. The
    /// `group` and `dilations` attributes are written only when not 1, so the
    /// dense models' bytes do not change (docs/reference/model.md, "Grouped
    /// and dilated").
    std::string conv(const std::string &name, const std::string &in, std::int64_t cIn, std::int64_t n, std::int64_t k,
        std::int64_t stride, std::vector<std::int64_t> pads, const std::string &autoPad = {}, std::int64_t group = 1,
        std::int64_t dilation = 1)
    {
        const std::string w = name + ".weight", b = name + ".bias";
        const std::int64_t perGroup = cIn / group;
        weights(w, {n, perGroup, k, k}, std::sqrt(2.0 / double(perGroup * k * k)));
        weights(b, {n}, 0.05);
        onnx::NodeProto &node = addNode("Conv", name, {in, w, b});
        ints(node, "kernel_shape", {k, k});
        ints(node, "strides", {stride, stride});
        if (autoPad.empty())
            ints(node, "pads", pads);
        else
            text(node, "auto_pad", autoPad);
        if (group != 1)
            integer(node, "group", group);
        if (dilation != 1)
            ints(node, "dilations", {dilation, dilation});
        return node.output(0);
    }

    std::string unary(const std::string &op, const std::string &name, const std::string &in)
    {
        return addNode(op, name, {in}).output(0);
    }

    std::string add(const std::string &name, const std::string &a, const std::string &b)
    {
        return addNode("Add", name, {a, b}).output(0);
    }

    std::string pool(const std::string &op, const std::string &name, const std::string &in, std::int64_t k, std::int64_t stride,
        std::int64_t pad)
    {
        onnx::NodeProto &node = addNode(op, name, {in});
        ints(node, "kernel_shape", {k, k});
        ints(node, "strides", {stride, stride});
        ints(node, "pads", {pad, pad, pad, pad});
        return node.output(0);
    }

    std::string flatten(const std::string &name, const std::string &in)
    {
        onnx::NodeProto &node = addNode("Flatten", name, {in});
        onnx::AttributeProto *a = node.add_attribute();
        a->set_name("axis");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(1);
        return node.output(0);
    }

    /// y = x · Wᵀ + b with W [out][in].
    std::string gemm(const std::string &name, const std::string &in, std::int64_t inputs, std::int64_t outputs)
    {
        const std::string w = name + ".weight", b = name + ".bias";
        weights(w, {outputs, inputs}, std::sqrt(2.0 / double(inputs)));
        weights(b, {outputs}, 0.05);
        onnx::NodeProto &node = addNode("Gemm", name, {in, w, b});
        onnx::AttributeProto *a = node.add_attribute();
        a->set_name("transB");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(1);
        return node.output(0);
    }

    std::string finish(const std::string &out, std::int64_t classes)
    {
        onnx::ValueInfoProto &o = *graph().add_output();
        o.set_name(out);
        o.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        auto *shape = o.mutable_type()->mutable_tensor_type()->mutable_shape();
        shape->add_dim()->set_dim_value(1);
        shape->add_dim()->set_dim_value(classes);
        return m_model.SerializeAsString();
    }

private:
    onnx::GraphProto &graph() { return *m_model.mutable_graph(); }

    static void valueInfo(onnx::ValueInfoProto &v, const std::string &name, const std::vector<std::int64_t> &dims)
    {
        v.set_name(name);
        auto *t = v.mutable_type()->mutable_tensor_type();
        t->set_elem_type(onnx::TensorProto::FLOAT);
        for (const std::int64_t d : dims)
            t->mutable_shape()->add_dim()->set_dim_value(d);
    }

    onnx::NodeProto &addNode(const std::string &op, const std::string &name, const std::vector<std::string> &inputs)
    {
        onnx::NodeProto *node = graph().add_node();
        node->set_op_type(op);
        node->set_name(name);
        for (const std::string &in : inputs)
            node->add_input(in);
        node->add_output(name + ".out");
        return *node;
    }

    static void ints(onnx::NodeProto &node, const std::string &name, const std::vector<std::int64_t> &values)
    {
        onnx::AttributeProto *a = node.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (const std::int64_t v : values)
            a->add_ints(v);
    }

    static void integer(onnx::NodeProto &node, const std::string &name, std::int64_t value)
    {
        onnx::AttributeProto *a = node.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }

    static void text(onnx::NodeProto &node, const std::string &name, const std::string &value)
    {
        onnx::AttributeProto *a = node.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(value);
    }

    /// Uniform in [-scale, scale) from a 64-bit LCG (Knuth's MMIX constants),
    /// stored as little-endian raw data.
    void weights(const std::string &name, const std::vector<std::int64_t> &dims, double scale)
    {
        onnx::TensorProto *t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        std::int64_t count = 1;
        for (const std::int64_t d : dims) {
            t->add_dims(d);
            count *= d;
        }
        std::vector<float> values(static_cast<std::size_t>(count));
        for (float &v : values) {
            m_state = m_state * 6364136223846793005ull + 1442695040888963407ull;
            const double unit = double(m_state >> 11) * 0x1p-53; // [0, 1)
            v = float((2.0 * unit - 1.0) * scale);
        }
        std::string raw(values.size() * sizeof(float), '\0');
        std::memcpy(raw.data(), values.data(), raw.size());
        t->set_raw_data(raw);
    }

    onnx::ModelProto m_model;
    std::uint64_t m_state = 20260101; // the same weights on every run
};

/// Two 3x3 convolutions and a residual add; a stride-2 block has a 1x1
/// stride-2 shortcut. `same` pads stride-2 convolutions as TensorFlow does.
std::string basicBlock(GraphBuilder &g, const std::string &name, const std::string &in, std::int64_t cIn, std::int64_t c,
    std::int64_t stride, bool tfSame)
{
    const bool down = stride != 1 || cIn != c;
    const std::string a = stride == 2 && tfSame ? g.conv(name + "_conv1", in, cIn, c, 3, 2, {}, "SAME_UPPER")
                                                : g.conv(name + "_conv1", in, cIn, c, 3, stride, {1, 1, 1, 1});
    const std::string r = g.unary("Relu", name + "_relu1", a);
    const std::string b = g.conv(name + "_conv2", r, c, c, 3, 1, {1, 1, 1, 1});
    const std::string shortcut = down ? g.conv(name + "_shortcut", in, cIn, c, 1, stride, {0, 0, 0, 0}) : in;
    return g.unary("Relu", name + "_relu2", g.add(name + "_add", b, shortcut));
}

/// A depthwise-separable block: a depthwise 3x3 (group = channels, pad 1)
/// and a pointwise 1x1, each followed by a ReLU.
std::string separableBlock(
    GraphBuilder &g, const std::string &name, const std::string &in, std::int64_t cIn, std::int64_t c, std::int64_t stride)
{
    const std::string dw = g.conv(name + "_dw", in, cIn, cIn, 3, stride, {1, 1, 1, 1}, {}, cIn);
    const std::string pw = g.conv(name + "_pw", g.unary("Relu", name + "_relu1", dw), cIn, c, 1, 1, {0, 0, 0, 0});
    return g.unary("Relu", name + "_relu2", pw);
}

} // namespace

std::string lenet5Model()
{
    GraphBuilder g("lenet5", 1, 32, 32);
    std::string x = g.conv("conv1", "input", 1, 6, 5, 1, {0, 0, 0, 0});
    x = g.pool("AveragePool", "pool1", g.unary("Tanh", "tanh1", x), 2, 2, 0);
    x = g.conv("conv2", x, 6, 16, 5, 1, {0, 0, 0, 0});
    x = g.pool("AveragePool", "pool2", g.unary("Tanh", "tanh2", x), 2, 2, 0);
    x = g.flatten("flatten", x);
    x = g.unary("Tanh", "tanh3", g.gemm("fc1", x, 400, 120));
    x = g.unary("Tanh", "tanh4", g.gemm("fc2", x, 120, 84));
    return g.finish(g.gemm("fc3", x, 84, 10), 10);
}

std::string resnet8Model()
{
    GraphBuilder g("resnet8", 3, 32, 32);
    std::string x = g.unary("Relu", "relu", g.conv("conv1", "input", 3, 16, 3, 1, {1, 1, 1, 1}));
    x = basicBlock(g, "stage1", x, 16, 16, 1, true);
    x = basicBlock(g, "stage2", x, 16, 32, 2, true);
    x = basicBlock(g, "stage3", x, 32, 64, 2, true);
    x = g.flatten("flatten", g.unary("GlobalAveragePool", "pool", x));
    return g.finish(g.gemm("fc", x, 64, 10), 10);
}

std::string mobileNetModel()
{
    GraphBuilder g("mobilenet-tiny", 3, 64, 64);
    std::string x = g.unary("Relu", "stem_relu", g.conv("stem", "input", 3, 16, 3, 2, {1, 1, 1, 1}));
    x = separableBlock(g, "block1", x, 16, 24, 1);
    x = separableBlock(g, "block2", x, 24, 32, 2);
    x = g.unary("Relu", "dilated_relu", g.conv("dilated", x, 32, 32, 3, 1, {2, 2, 2, 2}, {}, 1, 2));
    x = separableBlock(g, "block3", x, 32, 64, 1);
    x = g.flatten("flatten", g.unary("GlobalAveragePool", "pool", x));
    return g.finish(g.gemm("fc", x, 64, 10), 10);
}

std::string resnet18Model()
{
    GraphBuilder g("resnet18", 3, 224, 224);
    std::string x = g.unary("Relu", "relu", g.conv("conv1", "input", 3, 64, 7, 2, {3, 3, 3, 3}));
    x = g.pool("MaxPool", "maxpool", x, 3, 2, 1);
    std::int64_t c = 64;
    for (int stage = 1; stage <= 4; ++stage) {
        const std::int64_t out = stage == 1 ? 64 : c * 2;
        const std::string name = "layer" + std::to_string(stage);
        x = basicBlock(g, name + "_0", x, c, out, stage == 1 ? 1 : 2, false);
        x = basicBlock(g, name + "_1", x, out, out, 1, false);
        c = out;
    }
    x = g.flatten("flatten", g.unary("GlobalAveragePool", "pool", x));
    return g.finish(g.gemm("fc", x, 512, 1000), 1000);
}

} // namespace convoffload::samples
