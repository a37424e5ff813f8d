// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "HostileOnnxModels.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>

namespace convoffload::hostile {

namespace {

using Dims = std::vector<std::int64_t>;

/// A graph with X [1, 1, 5, 5] and a sound Conv "conv" (3×3 weights W) that
/// the import takes as a layer, and whatever node is added beside it.
class Builder {
public:
    explicit Builder(const std::string &name, int opset = 17)
    {
        m_model.set_ir_version(8);
        m_model.set_producer_name("convoffload tools/onnx-hostile");
        auto *o = m_model.add_opset_import();
        o->set_domain("");
        o->set_version(opset);
        graph().set_name(name);
        input("X", onnx::TensorProto::FLOAT, {1, 1, 5, 5});
        floats("W", {1, 1, 3, 3}, std::vector<float>(9, 1.0f));
    }

    onnx::GraphProto &graph() { return *m_model.mutable_graph(); }

    void opset(const std::string &domain, int version)
    {
        auto *o = m_model.add_opset_import();
        o->set_domain(domain);
        o->set_version(version);
    }

    /// The Conv X, W -> C; its node index.
    int conv() { return node("Conv", {"X", "W"}, {"C"}, "conv"); }

    /// A graph input; rank 0 (a scalar) when dims is empty and `ranked`.
    void input(const std::string &name, int type, const Dims &dims, bool ranked = true)
    {
        onnx::ValueInfoProto *v = graph().add_input();
        v->set_name(name);
        auto *t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        if (!ranked)
            return;
        auto *shape = t->mutable_shape();
        for (std::int64_t d : dims)
            shape->add_dim()->set_dim_value(d);
    }

    onnx::TensorProto &floats(const std::string &name, const Dims &dims, const std::vector<float> &values)
    {
        onnx::TensorProto &t = *graph().add_initializer();
        t.set_name(name);
        t.set_data_type(onnx::TensorProto::FLOAT);
        for (std::int64_t d : dims)
            t.add_dims(d);
        for (float v : values)
            t.add_float_data(v);
        return t;
    }

    onnx::TensorProto &int64s(const std::string &name, const Dims &dims, const std::vector<std::int64_t> &values)
    {
        onnx::TensorProto &t = *graph().add_initializer();
        t.set_name(name);
        t.set_data_type(onnx::TensorProto::INT64);
        for (std::int64_t d : dims)
            t.add_dims(d);
        for (std::int64_t v : values)
            t.add_int64_data(v);
        return t;
    }

    /// Adds a node; returns its index in the graph.
    int node(const std::string &op, const std::vector<std::string> &inputs, const std::vector<std::string> &outputs,
        const std::string &name = {}, const std::string &domain = {})
    {
        onnx::NodeProto &n = *graph().add_node();
        n.set_op_type(op);
        n.set_name(name.empty() ? op : name);
        n.set_domain(domain);
        for (const std::string &i : inputs)
            n.add_input(i);
        for (const std::string &o : outputs)
            n.add_output(o);
        return graph().node_size() - 1;
    }

    onnx::NodeProto &last() { return *graph().mutable_node(graph().node_size() - 1); }

    void integer(const std::string &name, std::int64_t value)
    {
        onnx::AttributeProto *a = last().add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }

    void ints(const std::string &name, const Dims &values)
    {
        onnx::AttributeProto *a = last().add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (std::int64_t v : values)
            a->add_ints(v);
    }

    void output(const std::string &name)
    {
        onnx::ValueInfoProto *v = graph().add_output();
        v->set_name(name);
    }

    OnnxCase done(const std::string &name, const std::string &op, int node)
    {
        output("C");
        return {name, op, node, m_model.SerializeAsString()};
    }

private:
    onnx::ModelProto m_model;
};

} // namespace

std::vector<OnnxCase> shapeInferenceCrashes()
{
    std::vector<OnnxCase> cases;
    {
        // STFT reads the signal's dimensions 1 and 2 whatever its rank.
        Builder b("stft-rank1-signal");
        b.conv();
        b.input("S", onnx::TensorProto::FLOAT, {16});
        b.int64s("step", {}, {4});
        const int n = b.node("STFT", {"S", "step"}, {"Y"});
        cases.push_back(b.done("stft-rank1-signal", "STFT", n));
    }
    {
        // LayerNormalization of a scalar with its Mean and InvStdDev outputs:
        // dimension -1 of rank 0 is set to 1. Before the Conv.
        Builder b("layernorm-int64-scalar");
        b.input("I", onnx::TensorProto::INT64, {});
        const int n = b.node("LayerNormalization", {"I"}, {"Y", "Mean", "InvStdDev"});
        b.conv();
        cases.push_back(b.done("layernorm-int64-scalar", "LayerNormalization", n));
    }
    {
        // CategoryMapper (ai.onnx.ml) with its one input named "" (absent).
        Builder b("categorymapper-no-input");
        b.opset("ai.onnx.ml", 3);
        b.conv();
        const int n = b.node("CategoryMapper", {""}, {"Y"}, "CategoryMapper", "ai.onnx.ml");
        cases.push_back(b.done("categorymapper-no-input", "CategoryMapper", n));
    }
    {
        // GatherND with batch_dims below 0.
        Builder b("gathernd-negative-batch-dims");
        b.conv();
        b.input("D", onnx::TensorProto::FLOAT, {2, 3, 4});
        b.input("I", onnx::TensorProto::INT64, {2, 1});
        const int n = b.node("GatherND", {"D", "I"}, {"Y"});
        b.integer("batch_dims", -3);
        cases.push_back(b.done("gathernd-negative-batch-dims", "GatherND", n));
    }
    {
        // blocksize² overflows to 0, then C is divided by it.
        Builder b("depthtospace-blocksize-2-62");
        b.conv();
        const int n = b.node("DepthToSpace", {"C"}, {"Y"});
        b.integer("blocksize", std::int64_t(1) << 62);
        cases.push_back(b.done("depthtospace-blocksize-2-62", "DepthToSpace", n));
    }
    // An INT64 tensor of dims [1] whose raw data is 5 bytes, where an op
    // reads int64 values: Reshape's shape, Slice's starts and ends,
    // Squeeze's axes, Tile's repeats, Pad's pads, Expand's shape, Resize's
    // roi, scales and sizes.
    for (const auto &[op, inputs] : std::vector<std::pair<std::string, std::vector<std::string>>>{{"Reshape", {"C", "v"}},
             {"Slice", {"C", "v", "v"}}, {"Squeeze", {"C", "v"}}, {"Tile", {"C", "v"}}, {"Pad", {"C", "v"}},
             {"Expand", {"C", "v"}}, {"Resize", {"C", "v", "v", "v"}}}) {
        std::string name = op + "-5-byte-input";
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        Builder b(name);
        b.conv();
        b.int64s("v", {1}, {}).set_raw_data(std::string("\x01\x02\x03\x04\x05", 5));
        const int n = b.node(op, inputs, {"Y"});
        cases.push_back(b.done(name, op, n));
    }
    {
        // EyeLike without its input: ONNX 1.12 throws here rather than
        // crash, which the import reports as a warning.
        Builder b("eyelike-no-input");
        b.conv();
        const int n = b.node("EyeLike", {}, {"Y"});
        cases.push_back(b.done("eyelike-no-input", "EyeLike", n));
    }
    return cases;
}

std::vector<std::string> defaultDomainOpTypes()
{
    std::vector<std::string> ops;
    for (const onnx::OpSchema &s : onnx::OpSchemaRegistry::get_all_schemas())
        if (s.domain().empty() && !s.Deprecated())
            ops.push_back(s.Name());
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    return ops;
}

std::vector<OnnxCase> defaultDomainOps()
{
    std::vector<OnnxCase> cases;
    for (const std::string &op : defaultDomainOpTypes()) {
        const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(op, 17, "");
        if (!s)
            continue;
        const std::string name = std::string("op-").append(op); // GCC 12's -Wrestrict misreads "op-" + op
        Builder b(name);
        b.conv();
        // Every formal input but the optional ones at the end: the Conv's
        // output, a float tensor of rank 4.
        std::vector<std::string> inputs;
        for (int i = 0; i < s->min_input(); ++i)
            inputs.push_back("C");
        std::vector<std::string> outputs;
        for (int i = 0; i < std::max(1, s->min_output()); ++i)
            outputs.push_back(std::string("Y").append(std::to_string(i)));
        const int n = b.node(op, inputs, outputs);
        for (const auto &[name, attribute] : s->attributes()) {
            if (!attribute.required)
                continue;
            onnx::AttributeProto *a = b.last().add_attribute();
            a->set_name(name);
            a->set_type(attribute.type);
            switch (attribute.type) {
            case onnx::AttributeProto::INT:
                a->set_i(1);
                break;
            case onnx::AttributeProto::FLOAT:
                a->set_f(1.0f);
                break;
            case onnx::AttributeProto::STRING:
                a->set_s("x");
                break;
            case onnx::AttributeProto::INTS:
                a->add_ints(1);
                break;
            case onnx::AttributeProto::FLOATS:
                a->add_floats(1.0f);
                break;
            case onnx::AttributeProto::STRINGS:
                a->add_strings()->push_back('x');
                break;
            case onnx::AttributeProto::TENSOR:
                a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
                a->mutable_t()->add_float_data(1.0f);
                break;
            case onnx::AttributeProto::GRAPH:
                a->mutable_g()->set_name("empty");
                break;
            default:
                break;
            }
        }
        cases.push_back(b.done(name, op, n));
    }
    return cases;
}

} // namespace convoffload::hostile
