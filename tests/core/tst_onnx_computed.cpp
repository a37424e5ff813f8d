// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Shapes the model computes at run time (docs/design/onnx-import.md,
// "Shapes computed at run time"): a Resize whose sizes come from a Shape, a
// Reshape whose target is built from Casts and an opset-9 Slice, nodes
// stored out of order. Each model has a twin where the computed tensor is a
// constant, which ONNX's own shape inference handles; the import must give
// both the same layers, and the sizes worked out by hand.

#include "convoffload/onnx/OnnxImport.h"

#include "TestOnnxModels.h"

#include <QTest>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace convoffload;
using namespace onnxmodels;

Q_DECLARE_METATYPE(onnx::ModelProto)

namespace {

using Ints = std::vector<std::int64_t>;

NetworkImport importModel(const onnx::ModelProto &m) { return importOnnxBytes(m.SerializeAsString(), "hand-built.onnx"); }

onnx::TensorProto int64Tensor(const std::string &name, const Ints &values, bool scalar = false)
{
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::INT64);
    if (!scalar)
        t.add_dims(std::int64_t(values.size()));
    for (std::int64_t v : values)
        t.add_int64_data(v);
    return t;
}

/// A Constant node whose value is an INT64 vector (or scalar).
void addInts(onnx::GraphProto &g, const std::string &output, const Ints &values, bool scalar = false)
{
    onnx::NodeProto &n = addNode(g, "Constant", output + "_const", {}, {output});
    auto *a = n.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = int64Tensor(output, values, scalar);
}

void addFloats(onnx::GraphProto &g, const std::string &output, const std::vector<float> &values)
{
    onnx::NodeProto &n = addNode(g, "Constant", output + "_const", {}, {output});
    auto *a = n.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto &t = *a->mutable_t();
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(std::int64_t(values.size()));
    for (float v : values)
        t.add_float_data(v);
}

/// x [1, 4, 8, 8] → Conv "a" (4 kernels 3×3, pads 1) → A [1, 4, 8, 8].
onnx::ModelProto withConvA(int opset = 13)
{
    onnx::ModelProto m = emptyModel({{1}, {4}, {8}, {8}}, onnx::TensorProto::FLOAT, opset);
    addWeights(m, "wa", {4, 4, 3, 3});
    setInts(addConv(m, "a", "x", "wa", "A"), "pads", {1, 1, 1, 1});
    return m;
}

/// A's shape sliced to [1, 4], joined with [16, 20]: Resize's sizes, or the
/// constant [1, 4, 16, 20] in the twin. Then Conv "c" (6 kernels 3×3) of the
/// resized tensor.
std::pair<onnx::ModelProto, onnx::ModelProto> resizeFromShape()
{
    onnx::ModelProto m = withConvA(), twin = withConvA();
    onnx::GraphProto &g = *m.mutable_graph();
    addNode(g, "Shape", "shape", {"A"}, {"sA"});
    addInts(g, "from", {0});
    addInts(g, "to", {2});
    addNode(g, "Slice", "batchAndChannels", {"sA", "from", "to"}, {"nc"});
    addInts(g, "hw", {16, 20});
    addNode(g, "Concat", "sizes", {"nc", "hw"}, {"S"});
    setInt(*g.mutable_node(g.node_size() - 1), "axis", 0);
    addNode(g, "Resize", "up", {"A", "", "", "S"}, {"R"});
    *twin.mutable_graph()->add_initializer() = int64Tensor("S", {1, 4, 16, 20});
    addNode(*twin.mutable_graph(), "Resize", "up", {"A", "", "", "S"}, {"R"});
    for (onnx::ModelProto *model : {&m, &twin}) {
        addWeights(*model, "wc", {6, 4, 3, 3});
        addConv(*model, "c", "R", "wc", "Y");
    }
    return {m, twin};
}

/// Two Resizes in a chain, the second's sizes from the first's output:
/// each round of inference reaches one more.
std::pair<onnx::ModelProto, onnx::ModelProto> resizeChain()
{
    auto [m, twin] = resizeFromShape();
    onnx::GraphProto &g = *m.mutable_graph();
    addNode(g, "Shape", "shape2", {"R"}, {"sR"});
    addInts(g, "two", {2}, true);
    addNode(g, "Gather", "height", {"sR", "two"}, {"h"}); // a scalar: 16
    addNode(g, "Unsqueeze", "height1", {"h", "zero"}, {"h1"});
    addInts(g, "zero", {0});
    addInts(g, "double", {2});
    addNode(g, "Mul", "h2", {"h1", "double"}, {"h2"}); // [32]
    addNode(g, "Concat", "sizes2", {"nc", "h2", "h2"}, {"S2"}); // [1, 4, 32, 32]
    setInt(*g.mutable_node(g.node_size() - 1), "axis", 0);
    addNode(g, "Resize", "up2", {"R", "", "", "S2"}, {"R2"});
    *twin.mutable_graph()->add_initializer() = int64Tensor("S2", {1, 4, 32, 32});
    addNode(*twin.mutable_graph(), "Resize", "up2", {"R", "", "", "S2"}, {"R2"});
    for (onnx::ModelProto *model : {&m, &twin}) {
        addWeights(*model, "wd", {2, 4, 1, 1});
        addConv(*model, "d", "R2", "wd", "Z");
    }
    // The Unsqueeze reads "zero" before its Constant is stored: out of
    // order, as converters leave models.
    return {m, twin};
}

/// Opset 9: A [1, 4, 8, 8] reshaped to [1, 2, 16, -1] where the 1 is A's
/// shape through Cast (to INT32), a Slice with attributes and a Cast back;
/// the twin's target is the constant [1, 2, 16, 8].
std::pair<onnx::ModelProto, onnx::ModelProto> reshapeFromCasts()
{
    onnx::ModelProto m = withConvA(9), twin = withConvA(9);
    onnx::GraphProto &g = *m.mutable_graph();
    addNode(g, "Shape", "shape", {"A"}, {"sA"});
    setInt(addNode(g, "Cast", "toInt32", {"sA"}, {"sA32"}), "to", onnx::TensorProto::INT32);
    onnx::NodeProto &slice = addNode(g, "Slice", "batch", {"sA32"}, {"n32"});
    setInts(slice, "starts", {0});
    setInts(slice, "ends", {1});
    setInt(addNode(g, "Cast", "toInt64", {"n32"}, {"n"}), "to", onnx::TensorProto::INT64);
    addInts(g, "rest", {2, 16, -1});
    setInt(addNode(g, "Concat", "target", {"n", "rest"}, {"T"}), "axis", 0);
    addNode(g, "Reshape", "reshape", {"A", "T"}, {"B"});
    *twin.mutable_graph()->add_initializer() = int64Tensor("T", {1, 2, 16, 8});
    addNode(*twin.mutable_graph(), "Reshape", "reshape", {"A", "T"}, {"B"});
    for (onnx::ModelProto *model : {&m, &twin}) {
        addWeights(*model, "wc", {3, 2, 3, 3});
        addConv(*model, "c", "B", "wc", "Y");
    }
    return {m, twin};
}

/// Opset 9 Upsample whose scales are Div(sizes wanted, A's shape), cast to
/// float: [1, 1, 3, 2.5] gives [1, 4, 24, 20].
std::pair<onnx::ModelProto, onnx::ModelProto> upsampleFromArithmetic()
{
    onnx::ModelProto m = withConvA(9), twin = withConvA(9);
    onnx::GraphProto &g = *m.mutable_graph();
    addNode(g, "Shape", "shape", {"A"}, {"sA"});
    setInt(addNode(g, "Cast", "asFloat", {"sA"}, {"sAf"}), "to", onnx::TensorProto::FLOAT);
    addFloats(g, "wanted", {1, 4, 24, 20});
    addNode(g, "Div", "scales", {"wanted", "sAf"}, {"K"});
    addNode(g, "Upsample", "up", {"A", "K"}, {"R"});
    onnx::TensorProto &k = *twin.mutable_graph()->add_initializer();
    k.set_name("K");
    k.set_data_type(onnx::TensorProto::FLOAT);
    k.add_dims(4);
    for (float v : {1.0f, 1.0f, 3.0f, 2.5f})
        k.add_float_data(v);
    addNode(*twin.mutable_graph(), "Upsample", "up", {"A", "K"}, {"R"});
    for (onnx::ModelProto *model : {&m, &twin}) {
        addWeights(*model, "wc", {5, 4, 3, 3});
        addConv(*model, "c", "R", "wc", "Y");
    }
    return {m, twin};
}

/// The Relu feeding a MaxPool (2×2, stride 2) that feeds Conv "c" is stored
/// after them (a topological order broken, as float16 converters leave
/// models); the twin is sorted.
std::pair<onnx::ModelProto, onnx::ModelProto> storedOutOfOrder()
{
    onnx::ModelProto m = withConvA(), twin = withConvA();
    addNode(*twin.mutable_graph(), "Relu", "relu", {"A"}, {"Ar"});
    for (onnx::ModelProto *model : {&m, &twin}) {
        onnx::NodeProto &pool = addNode(*model->mutable_graph(), "MaxPool", "pool", {"Ar"}, {"P"});
        setInts(pool, "kernel_shape", {2, 2});
        setInts(pool, "strides", {2, 2});
        addWeights(*model, "wc", {6, 4, 3, 3});
        addConv(*model, "c", "P", "wc", "Y");
    }
    addNode(*m.mutable_graph(), "Relu", "relu", {"A"}, {"Ar"});
    return {m, twin};
}

} // namespace

class TestOnnxComputed : public QObject {
    Q_OBJECT

private slots:
    void sameAsConstantTwin_data();
    void sameAsConstantTwin();
    void inconsistentTargetLeavesItUnknown_data();
    void inconsistentTargetLeavesItUnknown();
};

void TestOnnxComputed::sameAsConstantTwin_data()
{
    QTest::addColumn<onnx::ModelProto>("model");
    QTest::addColumn<onnx::ModelProto>("twin");
    QTest::addColumn<QString>("conv"); // the layer downstream of the computed shape
    QTest::addColumn<int>("cIn");
    QTest::addColumn<int>("hIn");
    QTest::addColumn<int>("wIn");
    QTest::addColumn<int>("layers");

    auto add = [](const char *name, std::pair<onnx::ModelProto, onnx::ModelProto> models, const char *conv, int c, int h, int w,
                   int layers) { QTest::newRow(name) << models.first << models.second << conv << c << h << w << layers; };
    add("Resize sizes from Shape, Slice, Concat", resizeFromShape(), "c", 4, 16, 20, 2);
    add("a chain of two Resizes, stored out of order", resizeChain(), "d", 4, 32, 32, 3);
    add("Reshape target from Cast and an opset-9 Slice", reshapeFromCasts(), "c", 2, 16, 8, 2);
    add("Upsample scales from Div of a cast Shape", upsampleFromArithmetic(), "c", 4, 24, 20, 2);
    add("a node stored after its consumers", storedOutOfOrder(), "c", 4, 4, 4, 2);
}

void TestOnnxComputed::sameAsConstantTwin()
{
    QFETCH(onnx::ModelProto, model);
    QFETCH(onnx::ModelProto, twin);
    QFETCH(QString, conv);
    QFETCH(int, cIn);
    QFETCH(int, hIn);
    QFETCH(int, wIn);
    QFETCH(int, layers);

    // The twin: ONNX's own inference, in this process, gives the shape
    // worked out by hand.
    const NetworkImport expected = importModel(twin);
    const auto twinLayer = std::find_if(
        expected.layers.begin(), expected.layers.end(), [&](const ImportedConv &c) { return c.name == conv.toStdString(); });
    QVERIFY(twinLayer != expected.layers.end());
    QCOMPARE(inferredShape(twin, twinLayer->input), (Ints{1, cIn, hIn, wIn}));
    QCOMPARE(int(expected.skipped.size()), 0);
    const NetworkImport got = importModel(model);
    for (const SkippedNode &s : got.skipped)
        qWarning("skipped %s: %s", s.node.c_str(), s.reason.c_str());
    QCOMPARE(int(got.skipped.size()), 0);
    QCOMPARE(int(got.layers.size()), layers);
    QCOMPARE(int(expected.layers.size()), layers);
    for (std::size_t i = 0; i < got.layers.size(); ++i) {
        QCOMPARE(got.layers[i].name, expected.layers[i].name); // the stored order
        QCOMPARE(got.layers[i].layer, expected.layers[i].layer);
    }
    const auto it
        = std::find_if(got.layers.begin(), got.layers.end(), [&](const ImportedConv &c) { return c.name == conv.toStdString(); });
    QVERIFY(it != got.layers.end());
    QCOMPARE(it->layer.c_in, cIn);
    QCOMPARE(it->layer.h_in, hIn);
    QCOMPARE(it->layer.w_in, wIn);
}

void TestOnnxComputed::inconsistentTargetLeavesItUnknown_data()
{
    QTest::addColumn<onnx::ModelProto>("model");

    // A [1, 4, 8, 8] (256 values) reshaped to [1, 3, -1, 8]: 256 is not a
    // multiple of 24.
    onnx::ModelProto m = withConvA();
    addNode(*m.mutable_graph(), "Shape", "shape", {"A"}, {"sA"});
    addInts(*m.mutable_graph(), "from", {0});
    addInts(*m.mutable_graph(), "to", {1});
    addNode(*m.mutable_graph(), "Slice", "batch", {"sA", "from", "to"}, {"n"});
    addInts(*m.mutable_graph(), "rest", {3, -1, 8});
    setInt(addNode(*m.mutable_graph(), "Concat", "target", {"n", "rest"}, {"T"}), "axis", 0);
    addNode(*m.mutable_graph(), "Reshape", "reshape", {"A", "T"}, {"B"});
    addWeights(m, "wc", {3, 3, 3, 3});
    addConv(m, "c", "B", "wc", "Y");
    QTest::newRow("Reshape to a size that does not divide") << m;

    // Resize sizes of 3 values for a tensor of rank 4.
    onnx::ModelProto r = withConvA();
    addNode(*r.mutable_graph(), "Shape", "shape", {"A"}, {"sA"});
    addInts(*r.mutable_graph(), "from", {0});
    addInts(*r.mutable_graph(), "to", {1});
    addNode(*r.mutable_graph(), "Slice", "batch", {"sA", "from", "to"}, {"n"});
    addInts(*r.mutable_graph(), "hw", {16, 16});
    setInt(addNode(*r.mutable_graph(), "Concat", "sizes", {"n", "hw"}, {"S"}), "axis", 0);
    addNode(*r.mutable_graph(), "Resize", "up", {"A", "", "", "S"}, {"R"});
    addWeights(r, "wc", {3, 4, 3, 3});
    addConv(r, "c", "R", "wc", "Y");
    QTest::newRow("Resize sizes of the wrong length") << r;
}

void TestOnnxComputed::inconsistentTargetLeavesItUnknown()
{
    QFETCH(onnx::ModelProto, model);
    const NetworkImport got = importModel(model);
    QCOMPARE(int(got.layers.size()), 1); // "a"
    QCOMPARE(int(got.skipped.size()), 1);
    QCOMPARE(got.skipped[0].node, std::string("c"));
    QVERIFY2(
        got.skipped[0].reason.find("unknown") != std::string::npos || got.skipped[0].reason.find("dynamic") != std::string::npos,
        got.skipped[0].reason.c_str());
}

QTEST_GUILESS_MAIN(TestOnnxComputed)
#include "tst_onnx_computed.moc"
