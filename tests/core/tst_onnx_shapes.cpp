// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The ONNX import takes shapes, not weights (docs/design/onnx-import.md):
// weights of any storage, a symbolic batch, quantised convolutions and
// convolutions inside subgraphs are imported, each layer's shape checked
// against ONNX's own shape inference (onnx::shape_inference::InferShapes)
// run on the same model, never against the import's earlier output.

#include "convoffload/io/FormatError.h"
#include "convoffload/onnx/GraphInput.h"
#include "convoffload/onnx/OnnxImport.h"
#include "convoffload/onnx/OnnxNetwork.h"

#include "TestOnnxModels.h"
#include "TestPrinting.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <string>

using namespace convoffload;
using namespace onnxmodels;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(onnx::ModelProto)
Q_DECLARE_METATYPE(onnxmodels::Dim)
Q_DECLARE_METATYPE(std::vector<std::int64_t>)

namespace {

NetworkImport importModel(const onnx::ModelProto &m) { return importOnnxBytes(m.SerializeAsString(), "hand-built.onnx"); }

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// The layer agrees with ONNX's inferred shapes of its input X and output Y
// (batch, channels, height, width; a 1-D convolution's without the height,
// which must be 1), field by field.
void compareWithInference(const onnx::ModelProto &m, const ImportedConv &c)
{
    const std::optional<std::vector<std::int64_t>> x = inferredShape(m, c.input);
    const std::optional<std::vector<std::int64_t>> y = inferredShape(m, c.output);
    QVERIFY2(x && y, "ONNX's shape inference gives no shape");
    const Layer &l = c.layer;
    if (c.spatial_dims == 1) {
        QCOMPARE(*x, (std::vector<std::int64_t>{c.batch, l.c_in, l.w_in}));
        QCOMPARE(*y, (std::vector<std::int64_t>{c.batch, l.n, l.wOut()}));
        QCOMPARE(l.h_in, 1);
        QCOMPARE(l.hOut(), 1);
    } else {
        QCOMPARE(*x, (std::vector<std::int64_t>{c.batch, l.c_in, l.h_in, l.w_in}));
        QCOMPARE(*y, (std::vector<std::int64_t>{c.batch, l.n, l.hOut(), l.wOut()}));
    }
}

// A Conv "c" of x (these dims) and weights w (these dims) with a group and
// the given INTS attributes (an empty list leaves one out).
onnx::ModelProto groupedConv(const std::vector<Dim> &x, const std::vector<std::int64_t> &w, std::int64_t group,
    const std::vector<std::int64_t> &dilations, const std::vector<std::int64_t> &strides = {},
    const std::vector<std::int64_t> &pads = {}, const std::string &autoPad = {})
{
    onnx::ModelProto m = emptyModel(x);
    addWeights(m, "w", w);
    onnx::NodeProto &c = addConv(m, "c", "x", "w", "y");
    if (group != 1)
        setInt(c, "group", group);
    if (!dilations.empty())
        setInts(c, "dilations", dilations);
    if (!strides.empty())
        setInts(c, "strides", strides);
    if (!pads.empty())
        setInts(c, "pads", pads);
    if (!autoPad.empty())
        setString(c, "auto_pad", autoPad);
    return m;
}

// x [1, 3, 10, 12] → Conv "c" (4 kernels 3×3, stride 2, pads 1 0 1 2) → y.
// With `bias`, the bias "b".
onnx::ModelProto oneConv(const std::vector<Dim> &x = {{1}, {3}, {10}, {12}}, bool bias = false)
{
    onnx::ModelProto m = emptyModel(x);
    onnx::NodeProto &c = bias ? addNode(*m.mutable_graph(), "Conv", "c", {"x", "w", "b"}, {"y"}) : addConv(m, "c", "x", "w", "y");
    setInts(c, "strides", {2, 2});
    setInts(c, "pads", {1, 0, 1, 2});
    return m;
}

} // namespace

class TestOnnxShapes : public QObject {
    Q_OBJECT

private slots:
    void weightStorage_data();
    void weightStorage();
    void symbolicBatch_data();
    void symbolicBatch();
    void otherSymbolicDimension();
    void quantised_data();
    void quantised();
    void groupedAndDilated_data();
    void groupedAndDilated();
    void groupOrDilationRefused_data();
    void groupOrDilationRefused();
    void convInsideIf();
    void convInsideLoop();
    void inputShape();
    void inputShapeRefused_data();
    void inputShapeRefused();
    void graphInputsListed();
    void graphInputsOfDamagedFiles();
    void skippedCategory_data();
    void skippedCategory();
    void everyConvolutionSkipped();
};

void TestOnnxShapes::weightStorage_data()
{
    QTest::addColumn<onnx::ModelProto>("model");
    QTest::addColumn<std::string>("notRead"); // empty: the values are read
    const std::vector<std::int64_t> dims = {4, 3, 3, 3};
    const std::size_t count = 4 * 3 * 3 * 3;

    onnx::ModelProto m = oneConv();
    addWeights(m, "w", dims);
    QTest::newRow("float32 initializer") << m << std::string();

    m = oneConv();
    addRawWeights(m, "w", dims, onnx::TensorProto::FLOAT16, 2 * count);
    QTest::newRow("FLOAT16 initializer") << m << std::string("FLOAT16 initializer");

    m = oneConv(); // a damaged file: the byte count is not read either
    addRawWeights(m, "w", dims, onnx::TensorProto::FLOAT16, 5);
    QTest::newRow("FLOAT16 of the wrong byte count") << m << std::string("FLOAT16 initializer");

    m = oneConv();
    addRawWeights(m, "w", dims, onnx::TensorProto::INT8, count);
    QTest::newRow("INT8 initializer") << m << std::string("INT8 initializer");

    m = oneConv();
    addRawWeights(m, "w", dims, onnx::TensorProto::DOUBLE, 8 * count);
    QTest::newRow("DOUBLE initializer") << m << std::string("DOUBLE initializer");

    m = oneConv();
    addWeights(m, "w", dims).set_data_location(onnx::TensorProto::EXTERNAL);
    m.mutable_graph()->mutable_initializer(0)->clear_float_data();
    {
        auto *e = m.mutable_graph()->mutable_initializer(0)->add_external_data();
        e->set_key("location");
        e->set_value("weights.bin"); // no such file: it is never opened
    }
    QTest::newRow("external data") << m << std::string("initializer with external data");

    // paddle2onnx's way: the weights are a Constant node's value.
    m = oneConv();
    addConstant(*m.mutable_graph(), "w", dims);
    m.mutable_graph()->mutable_node()->SwapElements(0, 1); // the Constant first
    QTest::newRow("float32 Constant node") << m << std::string();

    m = oneConv();
    {
        onnx::NodeProto &k = addConstant(*m.mutable_graph(), "w", dims);
        onnx::TensorProto &t = *k.mutable_attribute(0)->mutable_t();
        t.clear_float_data();
        t.set_data_type(onnx::TensorProto::FLOAT16);
        t.set_raw_data(std::string(2 * count, '\0'));
    }
    m.mutable_graph()->mutable_node()->SwapElements(0, 1);
    QTest::newRow("FLOAT16 Constant node") << m << std::string("FLOAT16 Constant node");

    // Weights computed from a FLOAT16 initializer at run time (Cast): shape
    // inference knows their shape.
    m = oneConv();
    addRawWeights(m, "w16", dims, onnx::TensorProto::FLOAT16, 2 * count);
    {
        onnx::NodeProto &cast = addNode(*m.mutable_graph(), "Cast", "cast", {"w16"}, {"w"});
        auto *a = cast.add_attribute();
        a->set_name("to");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(onnx::TensorProto::FLOAT);
    }
    m.mutable_graph()->mutable_node()->SwapElements(0, 1);
    QTest::newRow("computed at run time, shape known") << m << std::string("computed at run time");

    // A bias of another type: the weights' values are read, but a functional
    // check needs both, so neither is.
    m = oneConv({{1}, {3}, {10}, {12}}, true);
    addWeights(m, "w", dims);
    addRawWeights(m, "b", {4}, onnx::TensorProto::FLOAT16, 8);
    QTest::newRow("FLOAT16 bias") << m << std::string("bias FLOAT16 initializer");
}

// Every storage gives the layer of ONNX's shape inference: 3×10×12, 4
// kernels 3×3, stride 2, pads top 1 left 0 bottom 1 right 2: output
// (10 + 2 − 3)/2 + 1 = 5 by (12 + 2 − 3)/2 + 1 = 6.
void TestOnnxShapes::weightStorage()
{
    QFETCH(onnx::ModelProto, model);
    QFETCH(std::string, notRead);
    const NetworkImport net = importModel(model);
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(1));
    const ImportedConv &c = net.layers.front();
    compareWithInference(model, c);
    QCOMPARE(c.layer.hOut(), 5);
    QCOMPARE(c.layer.wOut(), 6);
    QCOMPARE(c.values_not_read, notRead);
    const std::size_t kernels = std::size_t(c.layer.n * c.layer.kernelElements());
    QCOMPARE(c.kernelData().kernels.size(), kernels);
    if (notRead.empty()) {
        QCOMPARE(c.weights.size(), kernels);
        QVERIFY(net.notes.empty());
    } else {
        QVERIFY(c.weights.empty());
        QCOMPARE(net.notes.size(), std::size_t(1));
        QVERIFY2(contains(net.notes[0], "weights not read (" + notRead + ") for 1 layer (c)"), net.notes[0].c_str());
    }
}

void TestOnnxShapes::symbolicBatch_data()
{
    QTest::addColumn<Dim>("batch");
    QTest::addColumn<std::string>("named");
    QTest::newRow("N") << Dim{0, "N"} << std::string("'N'");
    QTest::newRow("batch_size") << Dim{0, "batch_size"} << std::string("'batch_size'");
    QTest::newRow("paddle2onnx") << Dim{0, "p2o.DynamicDimension.0"} << std::string("'p2o.DynamicDimension.0'");
    QTest::newRow("neither value nor symbol") << Dim{} << std::string("unknown");
}

// x [batch, 3, 10, 12] → Relu → Conv c → Conv d: the batch counts as 1 for
// every convolution, said once in a note; the shapes are ONNX's with the
// batch set to 1 by hand.
void TestOnnxShapes::symbolicBatch()
{
    QFETCH(Dim, batch);
    QFETCH(std::string, named);
    onnx::ModelProto m = emptyModel({batch, {3}, {10}, {12}});
    addNode(*m.mutable_graph(), "Relu", "relu", {"x"}, {"r"});
    addWeights(m, "w", {4, 3, 3, 3});
    addWeights(m, "v", {2, 4, 1, 1});
    setInts(addConv(m, "c", "r", "w", "y"), "strides", {2, 2});
    addConv(m, "d", "y", "v", "z");
    const NetworkImport net = importModel(m);
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(2));
    QCOMPARE(net.notes, std::vector<std::string>{"input 'x': dimension 0 (" + named + ") is symbolic, taken as batch 1"});
    onnx::ModelProto fixed = m;
    fixed.mutable_graph()
        ->mutable_input(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(0)
        ->set_dim_value(1);
    for (const ImportedConv &c : net.layers)
        compareWithInference(fixed, c);
    QCOMPARE(net.layers[1].layer.c_in, 4);
    QCOMPARE(net.layers[1].layer.h_in, 4); // (10 − 3)/2 + 1
    QCOMPARE(net.layers[1].layer.w_in, 5); // (12 − 3)/2 + 1
}

// Another symbolic dimension stays unknown: the convolution is skipped with
// the graph input, the dimension and the remedy named.
void TestOnnxShapes::otherSymbolicDimension()
{
    onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {0, "H"}, {0, "W"}});
    addWeights(m, "w", {4, 3, 3, 3});
    addConv(m, "c", "x", "w", "y");
    const NetworkImport net = importModel(m);
    QCOMPARE(net.layers.size(), std::size_t(0));
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QCOMPARE(net.skipped[0].reason,
        std::string("dimension 2 of input 'x' is dynamic (symbolic or unknown after shape inference); graph input 'x' has "
                    "symbolic dimensions 2 ('H'), 3 ('W'): give it a size with --input-shape x=1,3,<H>,<W>"));
}

void TestOnnxShapes::quantised_data()
{
    QTest::addColumn<onnx::ModelProto>("model");
    QTest::addColumn<std::string>("op");
    const auto scalar = [](onnx::ModelProto &m, const std::string &name, int type) {
        addRawWeights(m, name, {}, type, type == onnx::TensorProto::FLOAT ? 4 : 1);
    };
    // ConvInteger: x, w, x_zero_point, w_zero_point.
    onnx::ModelProto m = emptyModel({{1}, {3}, {10}, {12}}, onnx::TensorProto::UINT8);
    addRawWeights(m, "w", {4, 3, 3, 3}, onnx::TensorProto::UINT8, 108);
    scalar(m, "xz", onnx::TensorProto::UINT8);
    {
        onnx::NodeProto &c = addNode(*m.mutable_graph(), "ConvInteger", "c", {"x", "w", "xz"}, {"y"});
        setInts(c, "strides", {2, 2});
        setInts(c, "pads", {1, 0, 1, 2});
    }
    QTest::newRow("ConvInteger") << m << std::string("ConvInteger");

    // QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point,
    // y_scale, y_zero_point, B; the weights are input 3, of INT8.
    m = emptyModel({{0, "batch"}, {3}, {10}, {12}}, onnx::TensorProto::UINT8);
    scalar(m, "xs", onnx::TensorProto::FLOAT);
    scalar(m, "xz", onnx::TensorProto::UINT8);
    addRawWeights(m, "w", {4, 3, 3, 3}, onnx::TensorProto::INT8, 108);
    scalar(m, "ws", onnx::TensorProto::FLOAT);
    scalar(m, "wz", onnx::TensorProto::INT8);
    scalar(m, "ys", onnx::TensorProto::FLOAT);
    scalar(m, "yz", onnx::TensorProto::UINT8);
    addRawWeights(m, "b", {4}, onnx::TensorProto::INT32, 16);
    {
        onnx::NodeProto &c
            = addNode(*m.mutable_graph(), "QLinearConv", "c", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"}, {"y"});
        setInts(c, "strides", {2, 2});
        setInts(c, "pads", {1, 0, 1, 2});
    }
    QTest::newRow("QLinearConv") << m << std::string("QLinearConv");
}

// The same layer as weightStorage's, as ConvInteger and QLinearConv.
void TestOnnxShapes::quantised()
{
    QFETCH(onnx::ModelProto, model);
    QFETCH(std::string, op);
    const NetworkImport net = importModel(model);
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(1));
    const ImportedConv &c = net.layers.front();
    onnx::ModelProto fixed = model; // the batch as the import takes it
    fixed.mutable_graph()
        ->mutable_input(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(0)
        ->set_dim_value(1);
    compareWithInference(fixed, c);
    QCOMPARE(c.layer.n, 4);
    QCOMPARE(c.layer.hOut(), 5);
    QCOMPARE(c.layer.wOut(), 6);
    QCOMPARE(c.values_not_read, "quantised convolution (" + op + ")");
    QVERIFY(c.weights.empty() && c.bias.empty());
    QCOMPARE(c.kernelData().kernels.size(), std::size_t(4 * 3 * 3 * 3));
}

void TestOnnxShapes::groupedAndDilated_data()
{
    QTest::addColumn<onnx::ModelProto>("model");
    QTest::addColumn<int>("group");
    QTest::addColumn<int>("dilationH");
    QTest::addColumn<int>("dilationW");
    QTest::addColumn<std::vector<std::int64_t>>("pads"); // top, bottom, left, right, by hand

    QTest::newRow("depthwise 3x3") << groupedConv({{1}, {32}, {16}, {16}}, {32, 1, 3, 3}, 32, {}, {}, {1, 1, 1, 1}) << 32 << 1
                                   << 1 << std::vector<std::int64_t>{1, 1, 1, 1};
    QTest::newRow("depthwise, multiplier 2, stride 2") << groupedConv({{1}, {8}, {11}, {10}}, {16, 1, 3, 3}, 8, {}, {2, 2},
        {1, 0, 1, 0}) << 8 << 1 << 1 << std::vector<std::int64_t>{1, 1, 0, 0};
    QTest::newRow("grouped 1x1, ShuffleNet group 4")
        << groupedConv({{1}, {240}, {14}, {14}}, {60, 60, 1, 1}, 4, {}) << 4 << 1 << 1 << std::vector<std::int64_t>{0, 0, 0, 0};
    QTest::newRow("dilation (2, 4)") << groupedConv({{1}, {3}, {20}, {24}}, {4, 3, 3, 3}, 1, {2, 4}, {}, {1, 2, 1, 2}) << 1 << 2
                                     << 4 << std::vector<std::int64_t>{1, 1, 2, 2};
    // SAME_LOWER with the dilated span (ONNX: total (ceil(in/s) − 1)·s +
    // d·(k − 1) + 1 − in, the odd element first). H: 11, span 5, stride 2:
    // 5·2 + 5 − 11 = 4, 2 and 2. W: 10, span 7: 4·2 + 7 − 10 = 5, 3 and 2.
    QTest::newRow("SAME_LOWER, dilation (2, 3), stride 2, group 2") << groupedConv({{1}, {4}, {11}, {10}}, {6, 2, 3, 3}, 2,
        {2, 3}, {2, 2}, {}, "SAME_LOWER") << 2 << 2 << 3 << std::vector<std::int64_t>{2, 2, 3, 2};
    // SAME_UPPER, H: 9, span 9, stride 1: 8 + 9 − 9 = 8. W: 9, span 3: 2.
    QTest::newRow("SAME_UPPER, dilation (4, 1)") << groupedConv({{1}, {2}, {9}, {9}}, {2, 2, 3, 3}, 1, {4, 1}, {}, {},
        "SAME_UPPER") << 1 << 4 << 1 << std::vector<std::int64_t>{4, 4, 1, 1};
    // 1-D: X [1, 6, 50], weights [8, 3, 5], group 2, dilation 3, stride 2,
    // pads [2, 1] (begin, end on W).
    QTest::newRow("1-D, group 2, dilation 3")
        << groupedConv({{1}, {6}, {50}}, {8, 3, 5}, 2, {3}, {2}, {2, 1}) << 2 << 1 << 3 << std::vector<std::int64_t>{0, 0, 2, 1};
    // 1-D SAME_UPPER: 20, span 2·(4 − 1) + 1 = 7, stride 3: 6·3 + 7 − 20 = 5, 2 and 3.
    QTest::newRow("1-D, SAME_UPPER, dilation 2, stride 3") << groupedConv({{1}, {3}, {20}}, {5, 3, 4}, 1, {2}, {3}, {},
        "SAME_UPPER") << 1 << 1 << 2 << std::vector<std::int64_t>{0, 0, 2, 3};
    QTest::newRow("1-D, kernel 1") << groupedConv({{1}, {4}, {7}}, {2, 4, 1}, 1, {}) << 1 << 1 << 1
                                   << std::vector<std::int64_t>{0, 0, 0, 0};

    // The quantised convolutions go the same way: a depthwise dilated
    // ConvInteger (x, w, x_zero_point) and a grouped QLinearConv.
    onnx::ModelProto m = emptyModel({{1}, {4}, {9}, {9}}, onnx::TensorProto::UINT8);
    addRawWeights(m, "w", {4, 1, 3, 3}, onnx::TensorProto::UINT8, 36);
    addRawWeights(m, "xz", {}, onnx::TensorProto::UINT8, 1);
    {
        onnx::NodeProto &c = addNode(*m.mutable_graph(), "ConvInteger", "c", {"x", "w", "xz"}, {"y"});
        setInt(c, "group", 4);
        setInts(c, "dilations", {2, 2});
        setInts(c, "pads", {2, 2, 2, 2});
    }
    QTest::newRow("ConvInteger, depthwise, dilation 2") << m << 4 << 2 << 2 << std::vector<std::int64_t>{2, 2, 2, 2};
    m = emptyModel({{1}, {6}, {9}, {9}}, onnx::TensorProto::UINT8);
    for (const char *name : {"xs", "ws", "ys"})
        addRawWeights(m, name, {}, onnx::TensorProto::FLOAT, 4);
    for (const char *name : {"xz", "yz"})
        addRawWeights(m, name, {}, onnx::TensorProto::UINT8, 1);
    addRawWeights(m, "wz", {}, onnx::TensorProto::INT8, 1);
    addRawWeights(m, "w", {6, 2, 3, 3}, onnx::TensorProto::INT8, 108);
    {
        onnx::NodeProto &c
            = addNode(*m.mutable_graph(), "QLinearConv", "c", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"});
        setInt(c, "group", 3);
        setInts(c, "dilations", {1, 3});
    }
    QTest::newRow("QLinearConv, group 3, dilation (1, 3)") << m << 3 << 1 << 3 << std::vector<std::int64_t>{0, 0, 0, 0};
}

// Grouped, depthwise, dilated and 1-D convolutions are imported with their
// group and dilations, and agree with ONNX's shape inference of X and Y; the
// pads an auto_pad gives are the hand-computed ones of the ONNX spec. Float
// weights are read, n·(C_in/g)·H_K·W_K of them.
void TestOnnxShapes::groupedAndDilated()
{
    QFETCH(onnx::ModelProto, model);
    QFETCH(int, group);
    QFETCH(int, dilationH);
    QFETCH(int, dilationW);
    QFETCH(std::vector<std::int64_t>, pads);
    const NetworkImport net = importModel(model);
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(1));
    const ImportedConv &c = net.layers.front();
    const Layer &l = c.layer;
    compareWithInference(model, c);
    const std::vector<std::string> problems = l.problems();
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    QCOMPARE(l.group, group);
    QCOMPARE(l.dilation_h, dilationH);
    QCOMPARE(l.dilation_w, dilationW);
    QCOMPARE((std::vector<std::int64_t>{l.pad_top, l.pad_bottom, l.pad_left, l.pad_right}), pads);
    // The weights' dims, as the model stores them: [N, C/group, (kH,) kW].
    const auto &initializers = model.graph().initializer();
    const auto w = std::find_if(initializers.begin(), initializers.end(), [](const auto &t) { return t.name() == "w"; });
    QVERIFY(w != initializers.end());
    QCOMPARE(std::int64_t(w->dims(1)), std::int64_t(l.c_in / group));
    QCOMPARE(c.kernelData().kernels.size(), std::size_t(l.n * l.kernelElements()));
    if (c.values_not_read.empty())
        QCOMPARE(std::int64_t(c.weights.size()), std::int64_t(w->float_data_size()));
}

void TestOnnxShapes::groupOrDilationRefused_data()
{
    QTest::addColumn<onnx::ModelProto>("model");
    QTest::addColumn<std::string>("reason"); // how the reason starts
    QTest::addColumn<std::string>("category");
    QTest::newRow("group does not divide C") << groupedConv({{1}, {6}, {8}, {8}}, {4, 1, 3, 3}, 4, {})
                                             << std::string("group does not divide the input channels: group 4, the input "
                                                            "has 6 channels")
                                             << std::string("group does not divide the input channels");
    QTest::newRow("group does not divide N")
        << groupedConv({{1}, {8}, {8}, {8}}, {6, 2, 3, 3}, 4, {})
        << std::string("group does not divide the kernels: group 4, 6 kernels (weights [6, 2, 3, 3])")
        << std::string("group does not divide the kernels");
    QTest::newRow("group disagrees with the weights")
        << groupedConv({{1}, {32}, {8}, {8}}, {16, 4, 1, 1}, 4, {})
        << std::string("group disagrees with the weights: group 4, the input has 32 channels, the weights 4 per group (4 "
                       "· 4 = 16)")
        << std::string("group disagrees with the weights");
    QTest::newRow("group 0") << groupedConv({{1}, {4}, {8}, {8}}, {4, 4, 3, 3}, 0, {})
                             << std::string("group must be at least 1: got 0") << std::string("group must be at least 1");
    QTest::newRow("group -2") << groupedConv({{1}, {4}, {8}, {8}}, {4, 2, 3, 3}, -2, {})
                              << std::string("group must be at least 1: got -2") << std::string("group must be at least 1");
    QTest::newRow("dilation 0") << groupedConv({{1}, {4}, {8}, {8}}, {4, 4, 3, 3}, 1, {0, 1})
                                << std::string("dilations [0, 1] are not 2 values of at least 1") << std::string("dilations");
    QTest::newRow("dilation negative") << groupedConv({{1}, {4}, {8}, {8}}, {4, 4, 3, 3}, 1, {1, -2})
                                       << std::string("dilations [1, -2] are not 2 values of at least 1")
                                       << std::string("dilations");
    QTest::newRow("one dilation for 2-D") << groupedConv({{1}, {4}, {8}, {8}}, {4, 4, 3, 3}, 1, {2})
                                          << std::string("dilations [2] are not 2 values of at least 1")
                                          << std::string("dilations");
    QTest::newRow("1-D, dilation 0") << groupedConv({{1}, {4}, {8}}, {4, 4, 3}, 1, {0})
                                     << std::string("dilations [0] are not 1 value of at least 1") << std::string("dilations");
    // Span 4·(3 − 1) + 1 = 9 rows > 8 + 0 padded rows.
    QTest::newRow("dilated kernel larger than the padded input")
        << groupedConv({{1}, {3}, {8}, {8}}, {4, 3, 3, 3}, 1, {4, 1})
        << std::string("the layer is outside what the model holds: dilation_h: the dilated kernel spans 9 rows")
        << std::string("the layer is outside what the model holds");
    QTest::newRow("1-D, dilated kernel larger than the padded input")
        << groupedConv({{1}, {3}, {6}}, {4, 3, 3}, 1, {3})
        << std::string("the layer is outside what the model holds: dilation_w: the dilated kernel spans 7 columns")
        << std::string("the layer is outside what the model holds");
    QTest::newRow("1-D, 4 pads") << groupedConv({{1}, {3}, {6}}, {4, 3, 3}, 1, {}, {}, {1, 1, 1, 1})
                                 << std::string("pads [1, 1, 1, 1] do not have 2 values") << std::string("pads");
    QTest::newRow("1-D weights, 2-D input") << groupedConv({{1}, {3}, {6}, {6}}, {4, 3, 3}, 1, {})
                                            << std::string("the input 'x' has rank 4, the weights rank 3")
                                            << std::string("input of another rank");
}

// A group or dilation the weights or the input cannot take skips the node
// "c", the reason naming what disagrees; the other import goes on, and with
// no layer left a network is refused with the reason.
void TestOnnxShapes::groupOrDilationRefused()
{
    QFETCH(onnx::ModelProto, model);
    QFETCH(std::string, reason);
    QFETCH(std::string, category);
    NetworkImport net = importModel(model);
    QCOMPARE(net.layers.size(), std::size_t(0));
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QCOMPARE(net.skipped[0].node, std::string("c"));
    QVERIFY2(net.skipped[0].reason.find(reason) == 0, net.skipped[0].reason.c_str());
    QCOMPARE(convoffload::skippedCategory(net.skipped[0].reason), category);
    try {
        networkFromImport(net, Accelerator{}, false, "m.onnx");
        QFAIL("accepted");
    } catch (const FormatError &e) {
        QVERIFY2(contains(e.reason, "first: c, " + reason), e.what());
    }
}

// x [1, 3, 10, 12] → If: then Conv "tc" (4 kernels 3×3 of the branch's own
// initializer), else an unnamed Conv (2 kernels 1×1 of the outer graph's
// initializer). Both become layers, in graph order, and agree with ONNX's
// shape inference of the branches.
void TestOnnxShapes::convInsideIf()
{
    onnx::ModelProto m = emptyModel({{1}, {3}, {10}, {12}});
    setShape(*m.mutable_graph()->add_input(), "cond", {}, onnx::TensorProto::BOOL);
    addWeights(m, "we", {2, 3, 1, 1});
    onnx::NodeProto &node = addNode(*m.mutable_graph(), "If", "if", {"cond"}, {"y"});
    const auto branch = [&](const char *attr, const char *out) -> onnx::GraphProto & {
        auto *a = node.add_attribute();
        a->set_name(attr);
        a->set_type(onnx::AttributeProto::GRAPH);
        onnx::GraphProto &g = *a->mutable_g();
        g.set_name(attr);
        auto *o = g.add_output();
        o->set_name(out);
        o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        return g;
    };
    onnx::GraphProto &then = branch("then_branch", "ty");
    fillTensor(*then.add_initializer(), "wt", {4, 3, 3, 3});
    addNode(then, "Conv", "tc", {"x", "wt"}, {"ty"});
    onnx::GraphProto &otherwise = branch("else_branch", "ey");
    addNode(otherwise, "Conv", "", {"x", "we"}, {"ey"});

    const NetworkImport net = importModel(m);
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(2));
    QCOMPARE(net.layers[0].name, std::string("tc"));
    QCOMPARE(net.layers[1].name, std::string("if/else_branch/conv0"));
    for (const ImportedConv &c : net.layers)
        compareWithInference(m, c);
    QCOMPARE(net.layers[0].layer.n, 4);
    QCOMPARE(net.layers[0].layer.hOut(), 8); // 10 − 3 + 1
    QCOMPARE(net.layers[1].layer.n, 2);
    QCOMPARE(net.layers[1].layer.wOut(), 12);
    QVERIFY2(contains(net.notes.back(), "2 layers come from subgraphs"), net.notes.back().c_str());
}

// x [1, 3, 8, 8] carried through a Loop whose body convolves it (3 → 3
// channels, so the carried value keeps its type), then a depthwise Conv in
// the body: both are imported where ONNX's inference knows their inputs,
// otherwise skipped saying where they are (inside the body of Loop 'loop').
void TestOnnxShapes::convInsideLoop()
{
    onnx::ModelProto m = emptyModel({{1}, {3}, {8}, {8}});
    setShape(*m.mutable_graph()->add_input(), "trips", {}, onnx::TensorProto::INT64);
    addWeights(m, "w", {3, 3, 3, 3});
    addWeights(m, "wg", {3, 1, 3, 3});
    onnx::NodeProto &node = addNode(*m.mutable_graph(), "Loop", "loop", {"trips", "", "x"}, {"xs"});
    auto *a = node.add_attribute();
    a->set_name("body");
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto &body = *a->mutable_g();
    body.set_name("body");
    setShape(*body.add_input(), "i", {}, onnx::TensorProto::INT64);
    setShape(*body.add_input(), "c", {}, onnx::TensorProto::BOOL);
    onnx::ValueInfoProto &v = *body.add_input();
    v.set_name("v");
    v.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    addNode(body, "Identity", "", {"c"}, {"c_out"});
    onnx::NodeProto &conv = addNode(body, "Conv", "bc", {"v", "w"}, {"v1"});
    setInts(conv, "pads", {1, 1, 1, 1});
    onnx::NodeProto &grouped = addNode(body, "Conv", "", {"v1", "wg"}, {"v_out"});
    setInts(grouped, "pads", {1, 1, 1, 1});
    setInts(grouped, "group", {});
    grouped.mutable_attribute(1)->set_type(onnx::AttributeProto::INT);
    grouped.mutable_attribute(1)->set_i(3);
    for (const char *out : {"c_out", "v_out"}) {
        auto *o = body.add_output();
        o->set_name(out);
        o->mutable_type()->mutable_tensor_type()->set_elem_type(
            std::string(out) == "c_out" ? onnx::TensorProto::BOOL : onnx::TensorProto::FLOAT);
    }

    const NetworkImport net = importModel(m);
    const std::optional<std::vector<std::int64_t>> known = inferredShape(m, "v1");
    const std::string inside = " (inside the body of Loop 'loop')";
    if (known && std::find(known->begin(), known->end(), -1) == known->end()) {
        QCOMPARE(net.skipped.size(), std::size_t(0));
        QCOMPARE(net.layers.size(), std::size_t(2));
        QCOMPARE(net.layers[0].name, std::string("bc"));
        QCOMPARE(net.layers[1].name, std::string("loop/body/conv2"));
        QCOMPARE(net.layers[1].layer.group, 3);
        for (const ImportedConv &c : net.layers)
            compareWithInference(m, c);
    } else {
        QCOMPARE(net.layers.size(), std::size_t(0));
        QCOMPARE(net.skipped.size(), std::size_t(2));
        QCOMPARE(net.skipped[0].node, std::string("bc"));
        QCOMPARE(net.skipped[1].node, std::string("loop/body/conv2"));
        for (const SkippedNode &s : net.skipped)
            QVERIFY2(contains(s.reason, inside), s.reason.c_str());
        qInfo("ONNX's inference does not know the Loop body's input: %s", net.skipped[0].reason.c_str());
    }
}

// --input-shape fixes the symbolic dimensions: the convolution that was
// skipped (otherSymbolicDimension) is imported with ONNX's shapes for them.
void TestOnnxShapes::inputShape()
{
    onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {0, "H"}, {0, "W"}});
    addWeights(m, "w", {4, 3, 3, 3});
    setInts(addConv(m, "c", "x", "w", "y"), "strides", {2, 2});
    const NetworkImport net = importOnnxBytes(m.SerializeAsString(), "m.onnx", {}, {{"x", {2, 3, 64, 48}}});
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(1));
    QCOMPARE(net.notes, std::vector<std::string>{"input 'x': shape [2, 3, 64, 48] as given"});
    onnx::ModelProto fixed = m;
    auto &shape = *fixed.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
    const std::int64_t sizes[] = {2, 3, 64, 48};
    for (int i = 0; i < 4; ++i)
        shape.mutable_dim(i)->set_dim_value(sizes[i]);
    compareWithInference(fixed, net.layers[0]);
    QCOMPARE(net.layers[0].batch, std::int64_t(2));
    QCOMPARE(net.layers[0].layer.hOut(), 31); // (64 − 3)/2 + 1
}

void TestOnnxShapes::inputShapeRefused_data()
{
    QTest::addColumn<std::string>("name");
    QTest::addColumn<std::vector<std::int64_t>>("dims");
    QTest::addColumn<std::string>("message");
    QTest::newRow("no such input") << std::string("images") << std::vector<std::int64_t>{1, 3, 8, 8}
                                   << std::string("the model has no graph input 'images' (its inputs: 'x')");
    QTest::newRow("an initializer") << std::string("w") << std::vector<std::int64_t>{4, 3, 3, 3}
                                    << std::string("the model has no graph input 'w'");
    QTest::newRow("wrong rank") << std::string("x") << std::vector<std::int64_t>{1, 3, 8}
                                << std::string("the graph input 'x' has rank 4, [1, 3, 8] gives 3 sizes");
    QTest::newRow("fixed size differs") << std::string("x") << std::vector<std::int64_t>{1, 4, 8, 8}
                                        << std::string("dimension 1 of the graph input 'x' is 3 in the model, not 4");
    QTest::newRow("zero") << std::string("x") << std::vector<std::int64_t>{1, 3, 0, 8}
                          << std::string("'x': the sizes must be at least 1, got [1, 3, 0, 8]");
}

void TestOnnxShapes::inputShapeRefused()
{
    QFETCH(std::string, name);
    QFETCH(std::vector<std::int64_t>, dims);
    QFETCH(std::string, message);
    onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {0, "H"}, {0, "W"}});
    addWeights(m, "w", {4, 3, 3, 3});
    m.mutable_graph()->add_input()->set_name("w"); // an initializer listed as an input (IR < 4 did)
    *m.mutable_graph()->mutable_input(1)->mutable_type() = m.graph().input(0).type();
    addConv(m, "c", "x", "w", "y");
    try {
        importOnnxBytes(m.SerializeAsString(), "m.onnx", {}, {{name, dims}});
        QFAIL("accepted");
    } catch (const InputShapeError &e) {
        QVERIFY2(std::string(e.what()).find(message) == 0, e.what());
    }
}

// The inputs a run feeds, as the model declares them: initializers listed
// as inputs (IR < 4) left out, symbolic dimensions by name, -1 and an
// unnamed dimension unknown, an input without shape unranked, a sequence no
// tensor. Written by hand from the model built here.
void TestOnnxShapes::graphInputsListed()
{
    onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {0, "p2o.DynamicDimension.1"}, {0, nullptr}});
    addWeights(m, "w", {4, 3, 3, 3});
    *m.mutable_graph()->add_input() = m.graph().input(0);
    m.mutable_graph()->mutable_input(1)->set_name("w");
    m.mutable_graph()->add_input()->set_name("mask");
    m.mutable_graph()->mutable_input(2)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    onnx::ValueInfoProto &seq = *m.mutable_graph()->add_input();
    seq.set_name("seq");
    seq.mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
    setShape(*m.mutable_graph()->add_input(), "scale", {{2}, {0, "K"}});
    m.mutable_graph()->mutable_input(4)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(
        -1);
    addConv(m, "c", "x", "w", "y");

    const std::vector<GraphInput> inputs = graphInputsOfBytes(m.SerializeAsString(), "m.onnx");
    const std::vector<GraphInput> want = {
        {"x", true, true, {{std::nullopt, "N"}, {3, ""}, {std::nullopt, "p2o.DynamicDimension.1"}, {std::nullopt, ""}}},
        {"mask", true, false, {}},
        {"seq", false, false, {}},
        {"scale", true, true, {{std::nullopt, ""}, {std::nullopt, "K"}}},
    };
    QCOMPARE(inputs.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        QVERIFY2(inputs[i] == want[i], inputs[i].name.c_str());

    // checkInputShape says what the import says for the same shapes.
    checkInputShape(inputs[0], {1, 3, 64, 48});
    checkInputShape(inputs[1], {2, 7}); // unranked: any rank
    for (const auto &[index, dims] : std::vector<std::pair<std::size_t, std::vector<std::int64_t>>>{
             {0, {1, 3, 64}}, {0, {1, 4, 64, 48}}, {0, {1, 3, 0, 48}}, {2, {1}}}) {
        std::string fromCheck, fromImport;
        try {
            checkInputShape(inputs[index], dims);
        } catch (const InputShapeError &e) {
            fromCheck = e.what();
        }
        try {
            importOnnxBytes(m.SerializeAsString(), "m.onnx", {}, {{inputs[index].name, dims}});
        } catch (const InputShapeError &e) {
            fromImport = e.what();
        }
        QVERIFY(!fromCheck.empty());
        QCOMPARE(fromCheck, fromImport);
    }
}

// The inputs are read as the import reads the file: what is no ONNX model is
// a FormatError naming where, a damaged model never crashes.
void TestOnnxShapes::graphInputsOfDamagedFiles()
{
    for (const std::string &bytes :
        {std::string(), std::string("{\"format\": \"convoffload-project\"}"), std::string(3, '\xff')}) {
        try {
            graphInputsOfBytes(bytes, "bad.onnx");
            QFAIL("accepted");
        } catch (const FormatError &e) {
            QCOMPARE(e.where, std::string("bad.onnx"));
            QVERIFY2(contains(e.reason, "not an ONNX model"), e.what());
        }
    }
    try {
        graphInputs("/nonexistent/model.onnx");
        QFAIL("accepted");
    } catch (const FormatError &e) {
        QCOMPARE(e.where, std::string("/nonexistent/model.onnx"));
    }
    // Damaged copies of the shape seeds: each lists its inputs or is refused, and an input listed is whole.
    std::mt19937 random(20261202);
    for (const onnx::ModelProto &seed : shapeSeedModels()) {
        const std::string clean = seed.SerializeAsString();
        for (int i = 0; i < 500; ++i) {
            std::string bytes = clean;
            for (int f = 1 + int(random() % 8); f > 0; --f)
                bytes[random() % bytes.size()] = char(random());
            try {
                for (const GraphInput &input : graphInputsOfBytes(bytes, "damaged.onnx"))
                    QVERIFY(input.ranked || input.dims.empty());
            } catch (const FormatError &e) {
                QCOMPARE(e.where, std::string("damaged.onnx"));
            }
        }
    }
}

void TestOnnxShapes::skippedCategory_data()
{
    QTest::addColumn<std::string>("reason");
    QTest::addColumn<std::string>("category");
    // Every reason of docs/design/onnx-import.md "Skipped reasons", as the
    // import writes them.
    const std::pair<const char *, const char *> rows[] = {
        {"3-D convolution (weights of rank 5); the model holds 1-D and 2-D convolutions only", "3-D convolution"},
        {"weights of rank 2; the model holds 1-D and 2-D convolutions (rank 3 or 4) only", "weights of another rank"},
        {"group must be at least 1: got 0", "group must be at least 1"},
        {"group does not divide the kernels: group 4, 6 kernels (weights [6, 2, 3, 3])", "group does not divide the kernels"},
        {"group does not divide the input channels: group 4, the input has 6 channels",
            "group does not divide the input channels"},
        {"group disagrees with the weights: group 4, the input has 32 channels, the weights 4 per group (4 · 4 = 16)",
            "group disagrees with the weights"},
        {"dilations [0, 1] are not 2 values of at least 1", "dilations"},
        {"transposed convolution (ConvTranspose); the model holds Conv only", "transposed convolution"},
        {"dimension 2 of input 'x' is dynamic (symbolic or unknown after shape inference)", "dynamic input dimension"},
        {"the shape of input 'v' is unknown after shape inference (inside the body of Loop 'loop')", "input shape unknown"},
        {"the input 'x' has rank 2, the weights rank 4", "input of another rank"},
        {"the input has 2 channels, the weights 3", "channels disagree"},
        {"the weights 'v' are neither an initializer nor a bound input (computed at run time), and shape inference does "
         "not know their shape",
            "weights computed at run time"},
        {"the weights 'w' have dims [0, 3, 3, 3], not sizes of at least 1", "unreadable weights"},
        {"the weights 'w' holds 53 values, its dims [3, 2, 3, 3] need 54", "unreadable weights"},
        {"the weights 'w' hold a value that is not finite", "unreadable weights"},
        {"the bias has 3 values for 4 kernels", "unreadable bias"},
        {"the bias 'b' holds 7 bytes of data, its dims [4] need 16", "unreadable bias"},
        {"kernel_shape [5, 5] disagrees with the weights' [4, 3, 3, 3]", "kernel_shape"},
        {"strides [0, 2] are not 2 values of at least 1", "strides"},
        {"pads [1, 1] do not have 4 values", "pads"},
        {"auto_pad 'X' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", "auto_pad"},
        {"C_in 4294967296 is out of range", "out of range"},
        {"the layer is outside what the model holds: h_k: kernel height 5 exceeds the padded input height 3",
            "the layer is outside what the model holds"},
        {"the layer is outside what the model holds: dilation_h: the dilated kernel spans 9 rows (dilation_h·(h_k − 1) + "
         "1), more than the padded input height 8",
            "the layer is outside what the model holds"},
        // Written by earlier versions, which skipped these; network files keep them.
        {"depthwise convolution (group = 32); the model holds group = 1 only", "depthwise convolution"},
        {"grouped convolution (group = 2); the model holds group = 1 only", "grouped convolution"},
        {"dilated convolution (dilations = [2, 2]); the model holds dilation 1 only", "dilated convolution"},
        {"1-D convolution (weights of rank 3); the model holds 2-D convolutions only", "1-D convolution"},
        {"Conv of domain 'com.microsoft', not the standard operator", "Conv of domain"},
        {"QLinearConv without input X or weights W", "QLinearConv without input X or weights W"},
    };
    for (const auto &[reason, category] : rows)
        QTest::newRow(category) << std::string(reason) << std::string(category);
}

void TestOnnxShapes::skippedCategory()
{
    QFETCH(std::string, reason);
    QFETCH(std::string, category);
    QCOMPARE(convoffload::skippedCategory(reason), category);
}

// x [1, 4, 8, 8]: three convolutions whose dilated kernel spans more than
// the input, two whose group disagrees with the weights and one on an input
// of unknown height: the error counts them per category.
void TestOnnxShapes::everyConvolutionSkipped()
{
    onnx::ModelProto m = emptyModel({{1}, {4}, {8}, {8}});
    setShape(*m.mutable_graph()->add_input(), "z", {{1}, {4}, {0, "H"}, {8}});
    addWeights(m, "w", {4, 4, 3, 3});
    addWeights(m, "wg", {4, 1, 3, 3});
    setInts(addConv(m, "d1", "x", "w", "y1"), "dilations", {4, 4});
    onnx::NodeProto &g1 = addConv(m, "g1", "x", "wg", "y2");
    setInts(addConv(m, "d2", "x", "w", "y3"), "dilations", {4, 1});
    addConv(m, "h", "z", "w", "y4");
    onnx::NodeProto &g2 = addConv(m, "g2", "x", "wg", "y5");
    setInts(addConv(m, "d3", "x", "w", "y6"), "dilations", {1, 5});
    for (onnx::NodeProto *g : {&g1, &g2})
        setInt(*g, "group", 2);
    const NetworkImport net = importModel(m);
    QCOMPARE(net.skipped.size(), std::size_t(6));
    try {
        networkFromImport(net, Accelerator{}, false, "m.onnx");
        QFAIL("accepted");
    } catch (const FormatError &e) {
        QCOMPARE(e.where, std::string("m.onnx"));
        const std::string want = "no convolution the layer model can hold: 6 skipped (3 the layer is outside what the model "
                                 "holds, 2 group disagrees with the weights, 1 dynamic input dimension; first: d1, the layer "
                                 "is outside what the model holds: dilation_h: the dilated kernel spans 9 rows";
        QVERIFY2(e.reason.find(want) == 0, e.what());
    }
}

QTEST_GUILESS_MAIN(TestOnnxShapes)
#include "tst_onnx_shapes.moc"
