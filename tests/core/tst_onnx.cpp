// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// ONNX import (docs/reference/network-file.md, first part) against ONNX's own conformance cases
// (Debian's libonnx-testdata): every supported Conv is imported, run through
// the simulator's functional path under several strategies on ONNX's input
// and weights, and its DRAM output, scaled back to float, is compared with
// ONNX's expected output_0.pb. Unsupported convolutions must be refused with
// their reason; malformed files must fail with a message naming the file.

#include "convoffload/io/FormatError.h"
#include "convoffload/onnx/OnnxImport.h"
#include "convoffload/simulate/StrategySimulation.h"

#include "TestOnnxModels.h"
#include "TestPrinting.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

using namespace convoffload;
using namespace onnxmodels;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kTestData = CONVOFFLOAD_ONNX_TESTDATA; // empty when libonnx-testdata is absent

// |simulated − expected| <= kAbsTolerance + kRelTolerance·|expected|. The
// quantisation error is at most K·max|x|·max|w|·2^-24 (about 1e-5 for these
// cases) and ONNX's float32 reference rounds at ~1e-7 relative; ONNX's own
// backend tests accept rtol 1e-3, atol 1e-7.
constexpr double kAbsTolerance = 1e-4;
constexpr double kRelTolerance = 1e-4;

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::string &path, const std::string &bytes) { std::ofstream(path, std::ios::binary) << bytes; }

bool exists(const std::string &path) { return std::filesystem::exists(path); }

// The graph inputs of a case, input_0.pb, input_1.pb, ... (input_0 is X).
std::vector<OnnxTensor> caseInputs(const std::string &dir)
{
    std::vector<OnnxTensor> inputs;
    for (int i = 0; exists(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb"); ++i)
        inputs.push_back(loadOnnxTensor(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb"));
    return inputs;
}

NetworkImport importModel(const onnx::ModelProto &m) { return importOnnxBytes(m.SerializeAsString(), "hand-built.onnx"); }

// ONNX's shape of a convolution's X or Y: [batch, channels, H, W], or
// [batch, channels, W] for a 1-D convolution (a layer of height 1).
std::vector<std::int64_t> onnxDims(const ImportedConv &c, std::int64_t channels, std::int64_t h, std::int64_t w)
{
    if (c.spatial_dims == 1)
        return {c.batch, channels, w};
    return {c.batch, channels, h, w};
}

} // namespace

class TestOnnx : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        if (kTestData.empty())
            QSKIP("libonnx-testdata is not installed (apt-get install libonnx-testdata; build.sh installs it)");
    }

    void conformance_data();
    void conformance();
    void refused_data();
    void refused();
    void quantisedConformance_data();
    void quantisedConformance();
    void autoPadSame();
    void autoPad_data();
    void autoPad();
    void shapeInferenceThroughAChain();
    void dynamicShapeSkipped();
    void weightsNotConstantSkipped();
    void unusableWeightsSkipped();
    void malformed_data();
    void malformed();
    void noConv();
    void damagedModelsNeverCrash();
    void shapeInferenceCrashesGuarded();
    void tooLarge();
    void quantisationIsExactOnIntegers();
};

void TestOnnx::conformance_data()
{
    QTest::addColumn<std::string>("dir");
    for (const char *name :
        {"node/test_basic_conv_with_padding", "node/test_basic_conv_without_padding", "node/test_conv_with_strides_padding",
            "node/test_conv_with_strides_no_padding", "node/test_conv_with_strides_and_asymmetric_padding",
            "node/test_conv_with_autopad_same", "pytorch-converted/test_Conv2d", "pytorch-converted/test_Conv2d_no_bias",
            "pytorch-converted/test_Conv2d_padding", "pytorch-converted/test_Conv2d_strided",
            // Grouped and dilated (docs/reference/model.md#layer).
            "pytorch-converted/test_Conv2d_depthwise", "pytorch-converted/test_Conv2d_depthwise_padded",
            "pytorch-converted/test_Conv2d_depthwise_strided", "pytorch-converted/test_Conv2d_depthwise_with_multiplier",
            "pytorch-converted/test_Conv2d_dilated", "pytorch-converted/test_Conv2d_groups",
            "pytorch-converted/test_Conv2d_groups_thnn",
            // 1-D, imported as layers of height 1.
            "pytorch-converted/test_Conv1d", "pytorch-converted/test_Conv1d_dilated", "pytorch-converted/test_Conv1d_groups",
            "pytorch-converted/test_Conv1d_pad1", "pytorch-converted/test_Conv1d_pad1size1", "pytorch-converted/test_Conv1d_pad2",
            "pytorch-converted/test_Conv1d_pad2size1", "pytorch-converted/test_Conv1d_stride"})
        QTest::newRow(name) << std::string(name);
}

// Import, then simulate the layer with ONNX's input and weights under
// row-by-row, zigzag and a kernel-streaming strategy (one kernel at a time),
// and compare the DRAM output with ONNX's.
void TestOnnx::conformance()
{
    QFETCH(std::string, dir);
    const std::string path = kTestData + "/" + dir;
    const std::vector<OnnxTensor> inputs = caseInputs(path);
    QVERIFY(!inputs.empty());
    const NetworkImport net = importOnnx(path + "/model.onnx", inputs);
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(1));
    const ImportedConv &conv = net.layers.front();
    const Layer &l = conv.layer;
    QVERIFY(!conv.name.empty());
    QCOMPARE(std::int64_t(conv.weights.size()), l.n * l.kernelElements());

    const OnnxTensor expected = loadOnnxTensor(path + "/test_data_set_0/output_0.pb");
    QCOMPARE(expected.dims, onnxDims(conv, l.n, l.hOut(), l.wOut()));
    const OnnxTensor &x = inputs.front();
    QCOMPARE(x.dims, onnxDims(conv, l.c_in, l.h_in, l.w_in));
    if (conv.spatial_dims == 1)
        QVERIFY(l.h_in == 1 && l.h_k == 1 && l.stride_h == 1 && l.dilation_h == 1 && l.pad_top == 0 && l.pad_bottom == 0);

    Problem problem;
    problem.layer = l;
    const std::int64_t groupSize = 3;
    problem.hardware.nbop_pe = l.kernelElements() * l.n * groupSize;
    problem.hardware.mem_size = l.pixelCount() * l.c_in + l.n * l.kernelElements() + l.outputCount();
    problem.hardware.dram_size = std::int64_t(1) << 40;

    std::vector<StrategySpec> strategies(3);
    strategies[0].kind = StrategyKind::RowByRow;
    strategies[1].kind = StrategyKind::ZigZag;
    strategies[2].kind = StrategyKind::KernelBlocked;
    strategies[2].kernel_block = 1;
    for (StrategySpec &s : strategies) {
        s.name = strategyKindName(s.kind);
        s.group_size = groupSize;
    }

    const std::size_t imageSize = std::size_t(l.c_in) * l.h_in * l.w_in;
    const std::size_t outputSize = std::size_t(l.outputCount());
    double worst = 0;
    for (std::int64_t b = 0; b < conv.batch; ++b) {
        const std::vector<float> image(
            x.values.begin() + std::ptrdiff_t(b * imageSize), x.values.begin() + std::ptrdiff_t((b + 1) * imageSize));
        int exponent = 0;
        const TensorData data = functionalTensors(conv, image, exponent);
        SimulationOptions options;
        options.trace = false;
        options.data = &data;
        options.keep_output = true;
        for (const StrategySpec &s : strategies) {
            const SimulationResult r = simulateStrategy(problem, s, options);
            QVERIFY2(r.valid(), (s.name + ": " + (r.diagnostics.empty() ? "" : r.diagnostics.front().message)).c_str());
            QCOMPARE(r.functional.status, FunctionalStatus::Pass);
            const std::vector<float> got = dequantiseOutputs(conv, exponent, r.functional.dram_output);
            QCOMPARE(got.size(), outputSize);
            for (std::size_t i = 0; i < outputSize; ++i) {
                const double want = expected.values[b * outputSize + i];
                const double error = std::fabs(double(got[i]) - want);
                worst = std::max(worst, error);
                if (error > kAbsTolerance + kRelTolerance * std::fabs(want))
                    QFAIL(qPrintable(QStringLiteral("%1, image %2, output %3: simulated %4, ONNX %5")
                                         .arg(QString::fromStdString(s.name))
                                         .arg(b)
                                         .arg(i)
                                         .arg(double(got[i]), 0, 'g', 9)
                                         .arg(want, 0, 'g', 9)));
            }
        }
    }
    qInfo("%s: batch %lld, C_in %d, %dx%d, N %d, kernel %dx%d, stride %d/%d, pads t%d b%d l%d r%d, group %d, dilation "
          "%d/%d; largest error %.3g",
        dir.c_str(), (long long)conv.batch, l.c_in, l.h_in, l.w_in, l.n, l.h_k, l.w_k, l.stride_h, l.stride_w, l.pad_top,
        l.pad_bottom, l.pad_left, l.pad_right, l.group, l.dilation_h, l.dilation_w, worst);
}

void TestOnnx::refused_data()
{
    QTest::addColumn<std::string>("dir");
    QTest::addColumn<std::string>("reason");
    const std::pair<const char *, const char *> cases[] = {
        {"pytorch-converted/test_Conv3d", "3-D convolution"},
        {"pytorch-converted/test_Conv3d_dilated", "3-D convolution"},
        {"pytorch-converted/test_Conv3d_groups", "3-D convolution"},
        {"pytorch-converted/test_ConvTranspose2d", "transposed convolution"},
        {"node/test_convtranspose", "transposed convolution"},
    };
    for (const auto &[dir, reason] : cases)
        QTest::newRow(dir) << std::string(dir) << std::string(reason);
}

void TestOnnx::refused()
{
    QFETCH(std::string, dir);
    QFETCH(std::string, reason);
    const std::string path = kTestData + "/" + dir;
    // No bound inputs: the quantised cases' inputs are integer tensors, and
    // every refusal here comes before the weights are read.
    const NetworkImport net = importOnnx(path + "/model.onnx");
    QVERIFY(net.layers.empty());
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QVERIFY(!net.skipped.front().node.empty());
    QVERIFY2(net.skipped.front().reason.find(reason) != std::string::npos, net.skipped.front().reason.c_str());
}

void TestOnnx::quantisedConformance_data()
{
    QTest::addColumn<std::string>("dir");
    QTest::addColumn<std::string>("op");
    QTest::newRow("ConvInteger") << std::string("node/test_basic_convinteger") << std::string("ConvInteger");
    QTest::newRow("ConvInteger with padding") << std::string("node/test_convinteger_with_padding") << std::string("ConvInteger");
    QTest::newRow("QLinearConv") << std::string("node/test_qlinearconv") << std::string("QLinearConv");
}

// Quantised convolutions are imported like Conv, their values not read: the
// layer's input and output shapes are those of ONNX's own input_0.pb and
// output_0.pb (integer tensors, so only their dims are read here).
void TestOnnx::quantisedConformance()
{
    QFETCH(std::string, dir);
    QFETCH(std::string, op);
    const std::string path = kTestData + "/" + dir;
    if (!exists(path))
        QSKIP("this case is not in this version of libonnx-testdata");
    const auto dims = [](const std::string &file) {
        onnx::TensorProto t;
        const std::string bytes = readFile(file);
        return t.ParseFromArray(bytes.data(), int(bytes.size())) ? std::vector<std::int64_t>(t.dims().begin(), t.dims().end())
                                                                 : std::vector<std::int64_t>{};
    };
    const NetworkImport net = importOnnx(path + "/model.onnx");
    QVERIFY2(net.skipped.empty(), net.skipped.empty() ? "" : net.skipped.front().reason.c_str());
    QCOMPARE(net.layers.size(), std::size_t(1));
    const ImportedConv &c = net.layers.front();
    const Layer &l = c.layer;
    QCOMPARE(c.values_not_read, "quantised convolution (" + op + ")");
    QVERIFY(c.weights.empty());
    QCOMPARE(dims(path + "/test_data_set_0/input_0.pb"), (std::vector<std::int64_t>{c.batch, l.c_in, l.h_in, l.w_in}));
    QCOMPARE(dims(path + "/test_data_set_0/output_0.pb"), (std::vector<std::int64_t>{c.batch, l.n, l.hOut(), l.wOut()}));
    QCOMPARE(net.notes.size(), std::size_t(1));
}

// auto_pad as the ONNX operator spec defines it: total padding
// (ceil(in/s) − 1)·s + k − in, the odd element at the beginning for
// SAME_LOWER. The case is a 5×5 input, 3×3 kernel, stride 2: total 2, 1 each side.
void TestOnnx::autoPadSame()
{
    const std::string path = kTestData + "/node/test_conv_with_autopad_same";
    const NetworkImport net = importOnnx(path + "/model.onnx", caseInputs(path));
    QCOMPARE(net.layers.size(), std::size_t(1));
    const Layer &l = net.layers.front().layer;
    QCOMPARE(l.pad_top, 1);
    QCOMPARE(l.pad_bottom, 1);
    QCOMPARE(l.pad_left, 1);
    QCOMPARE(l.pad_right, 1);
    QCOMPARE(l.hOut(), 3);
    QCOMPARE(l.wOut(), 3);
}

void TestOnnx::autoPad_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("dilation");
    QTest::addColumn<int>("begin");
    QTest::addColumn<int>("end");
    // total = max(0, (ceil(in/s) − 1)·s + d·(k − 1) + 1 − in); SAME_UPPER:
    // floor(total/2) first.
    QTest::newRow("upper even kernel") << "SAME_UPPER" << 6 << 2 << 1 << 1 << 0 << 1;
    QTest::newRow("lower even kernel") << "SAME_LOWER" << 6 << 2 << 1 << 1 << 1 << 0;
    QTest::newRow("upper stride 2 odd total") << "SAME_UPPER" << 6 << 3 << 2 << 1 << 0 << 1;
    QTest::newRow("lower stride 2 odd total") << "SAME_LOWER" << 6 << 3 << 2 << 1 << 1 << 0;
    QTest::newRow("upper stride 2 even total") << "SAME_UPPER" << 7 << 3 << 2 << 1 << 1 << 1;
    QTest::newRow("upper kernel 5") << "SAME_UPPER" << 8 << 5 << 1 << 1 << 2 << 2;
    QTest::newRow("upper negative total clamps") << "SAME_UPPER" << 6 << 1 << 4 << 1 << 0 << 0;
    QTest::newRow("valid") << "VALID" << 7 << 3 << 2 << 1 << 0 << 0;
    // Dilated: the span d·(k − 1) + 1 takes the kernel's place.
    QTest::newRow("upper dilation 2") << "SAME_UPPER" << 7 << 3 << 1 << 2 << 2 << 2; // span 5: total 4
    QTest::newRow("lower dilation 3 stride 2") << "SAME_LOWER" << 8 << 3 << 2 << 3 << 3 << 2; // span 7: 3·2 + 7 − 8 = 5
    QTest::newRow("upper dilation 2 stride 3") << "SAME_UPPER" << 9 << 2 << 3 << 2 << 0 << 0; // span 3: 2·3 + 3 − 9 = 0
    QTest::newRow("upper span beyond the input") << "SAME_UPPER" << 3 << 3 << 1 << 4 << 4 << 4; // span 9: total 8
    QTest::newRow("valid dilation 2") << "VALID" << 9 << 3 << 2 << 2 << 0 << 0;
}

// auto_pad on hand-built graphs, both axes alike; with SAME_* the output is
// ceil(in / stride), as the ONNX spec requires.
void TestOnnx::autoPad()
{
    QFETCH(QString, mode);
    QFETCH(int, in);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(int, dilation);
    QFETCH(int, begin);
    QFETCH(int, end);
    onnx::ModelProto m = emptyModel({{1}, {2}, {in}, {in}});
    addWeights(m, "w", {3, 2, kernel, kernel});
    onnx::NodeProto &conv = addConv(m, "c", "x", "w", "y");
    setString(conv, "auto_pad", mode.toStdString());
    setInts(conv, "strides", {stride, stride});
    if (dilation != 1)
        setInts(conv, "dilations", {dilation, dilation});
    const NetworkImport net = importModel(m);
    QCOMPARE(net.skipped.size(), std::size_t(0));
    QCOMPARE(net.layers.size(), std::size_t(1));
    const Layer &l = net.layers.front().layer;
    QCOMPARE(l.dilation_h, dilation);
    QCOMPARE(l.dilation_w, dilation);
    QCOMPARE(l.pad_top, begin);
    QCOMPARE(l.pad_left, begin);
    QCOMPARE(l.pad_bottom, end);
    QCOMPARE(l.pad_right, end);
    if (mode != QStringLiteral("VALID"))
        QCOMPARE(l.hOut(), (in + stride - 1) / stride);
    else // ceil((in − span + 1) / s), the ONNX spec's VALID output
        QCOMPARE(l.hOut(), (in - (dilation * (kernel - 1) + 1) + 1 + stride - 1) / stride);
}

// x → Relu → Conv a → Conv b (dilated) → Conv (no name), and a
// ConvTranspose (skipped) off a's output between b and the last: no
// intermediate shape is stored, shape inference finds every input, and the
// result keeps graph order, the skipped node listed apart.
void TestOnnx::shapeInferenceThroughAChain()
{
    onnx::ModelProto m = emptyModel({{1}, {2}, {9}, {9}});
    onnx::NodeProto *relu = m.mutable_graph()->add_node();
    relu->set_op_type("Relu");
    relu->add_input("x");
    relu->add_output("r");
    addWeights(m, "wa", {4, 2, 3, 3});
    addWeights(m, "wb", {4, 4, 3, 3});
    addWeights(m, "wc", {5, 4, 2, 2});
    addWeights(m, "wt", {4, 1, 2, 2});
    setInts(addConv(m, "a", "r", "wa", "ya"), "pads", {1, 1, 1, 1});
    setInts(addConv(m, "b", "ya", "wb", "yb"), "dilations", {2, 2});
    addNode(*m.mutable_graph(), "ConvTranspose", "t", {"ya", "wt"}, {"yt"});
    onnx::NodeProto &c = addConv(m, "", "yb", "wc", "yc");
    setInts(c, "strides", {2, 1});
    setInts(c, "pads", {0, 1, 1, 0}); // top, left, bottom, right
    QCOMPARE(m.graph().value_info_size(), 0);

    const NetworkImport net = importModel(m);
    QCOMPARE(net.graph_name, std::string("hand-built"));
    QCOMPARE(net.layers.size(), std::size_t(3));
    QCOMPARE(net.layers[0].name, std::string("a"));
    QCOMPARE(net.layers[0].layer.h_in, 9);
    QCOMPARE(net.layers[0].layer.hOut(), 9);
    QCOMPARE(net.layers[1].name, std::string("b"));
    QCOMPARE(net.layers[1].layer.dilation_h, 2);
    QCOMPARE(net.layers[1].layer.dilation_w, 2);
    QCOMPARE(net.layers[1].layer.hOut(), 5); // 9 − 2·(3 − 1), by hand
    QCOMPARE(net.layers[2].name, std::string("conv4")); // no name: its node index
    const Layer &l = net.layers[2].layer;
    QCOMPARE(l.c_in, 4);
    QCOMPARE(l.h_in, 5); // 9 − 2·(3 − 1)
    QCOMPARE(l.w_in, 5);
    QCOMPARE(l.n, 5);
    QCOMPARE(l.stride_h, 2);
    QCOMPARE(l.pad_top, 0);
    QCOMPARE(l.pad_left, 1);
    QCOMPARE(l.pad_bottom, 1);
    QCOMPARE(l.pad_right, 0);
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QCOMPARE(net.skipped[0].node, std::string("t"));
    QVERIFY2(net.skipped[0].reason.find("transposed convolution") == 0, net.skipped[0].reason.c_str());
}

// A symbolic batch counts as 1 (tst_onnx_shapes); any other symbolic
// dimension skips the convolution, naming the graph input and the remedy.
void TestOnnx::dynamicShapeSkipped()
{
    onnx::ModelProto m = emptyModel({{1}, {2}, {0, "height"}, {8}});
    addWeights(m, "w", {3, 2, 3, 3});
    addConv(m, "c", "x", "w", "y");
    const NetworkImport net = importModel(m);
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QVERIFY2(net.skipped[0].reason.find("dimension 2 of input 'x' is dynamic") == 0, net.skipped[0].reason.c_str());
    QVERIFY2(net.skipped[0].reason.find("--input-shape x=1,2,<height>,8") != std::string::npos, net.skipped[0].reason.c_str());
}

// Weights fed at run time (an unbound graph input): imported when their
// shape is known (values not read), skipped when it is not.
void TestOnnx::weightsNotConstantSkipped()
{
    onnx::ModelProto m = emptyModel({{1}, {2}, {8}, {8}});
    setShape(*m.mutable_graph()->add_input(), "w", {{3}, {2}, {3}, {3}});
    setShape(*m.mutable_graph()->add_input(), "v", {{3}, {2}, {0, "k"}, {3}});
    addConv(m, "c", "x", "w", "y");
    addConv(m, "d", "x", "v", "z");
    const NetworkImport net = importModel(m);
    QCOMPARE(net.layers.size(), std::size_t(1));
    QCOMPARE(net.layers[0].values_not_read, std::string("graph input"));
    QVERIFY(net.layers[0].weights.empty());
    QCOMPARE(net.layers[0].kernelData().kernels.size(), std::size_t(3 * 2 * 3 * 3));
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QVERIFY2(net.skipped[0].reason.find("the weights 'v' are neither an initializer nor a bound input") == 0,
        net.skipped[0].reason.c_str());
}

// Float32 weights that do not match their dims are refused per node, never a
// crash; weights of another type are imported, their values not read.
void TestOnnx::unusableWeightsSkipped()
{
    onnx::ModelProto m = emptyModel({{1}, {2}, {8}, {8}});
    addWeights(m, "w", {3, 2, 3, 3});
    m.mutable_graph()->mutable_initializer(0)->set_data_type(onnx::TensorProto::DOUBLE);
    addConv(m, "double", "x", "w", "y");
    addWeights(m, "short", {3, 2, 3, 3});
    m.mutable_graph()->mutable_initializer(1)->mutable_float_data()->RemoveLast();
    addConv(m, "short", "x", "short", "y2");
    addWeights(m, "raw", {3, 2, 3, 3});
    m.mutable_graph()->mutable_initializer(2)->clear_float_data();
    m.mutable_graph()->mutable_initializer(2)->set_raw_data(std::string(7, '\0'));
    addConv(m, "raw", "x", "raw", "y3");
    addWeights(m, "nan", {3, 2, 3, 3});
    m.mutable_graph()->mutable_initializer(3)->set_float_data(0, std::nanf(""));
    addConv(m, "nan", "x", "nan", "y4");
    addWeights(m, "kernel", {3, 3, 3, 3});
    addConv(m, "channels", "x", "kernel", "y5");
    const NetworkImport net = importModel(m);
    QCOMPARE(net.layers.size(), std::size_t(1));
    QCOMPARE(net.layers[0].name, std::string("double"));
    QCOMPARE(net.layers[0].values_not_read, std::string("DOUBLE initializer"));
    QCOMPARE(net.skipped.size(), std::size_t(4));
    const char *reasons[] = {"holds 53 values", "holds 7 bytes", "not finite", "the input has 2 channels, the weights 3"};
    for (std::size_t i = 0; i < 4; ++i)
        QVERIFY2(net.skipped[i].reason.find(reasons[i]) != std::string::npos, net.skipped[i].reason.c_str());
}

void TestOnnx::malformed_data()
{
    QTest::addColumn<std::string>("bytes");
    QTest::addColumn<std::string>("reason");
    const std::string model = readFile(kTestData + "/pytorch-converted/test_Conv2d/model.onnx");
    QVERIFY(model.size() > 100);
    std::mt19937 random(7);
    std::string noise(4096, '\0');
    for (char &c : noise)
        c = char(random());
    QTest::newRow("truncated") << model.substr(0, model.size() / 2) << std::string("not an ONNX model");
    QTest::newRow("random bytes") << noise << std::string("not an ONNX model");
    QTest::newRow("empty") << std::string() << std::string("not an ONNX model");
    QTest::newRow("text") << std::string("{\"layer\": {}}\n") << std::string("not an ONNX model");
}

void TestOnnx::malformed()
{
    QFETCH(std::string, bytes);
    QFETCH(std::string, reason);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("bad.onnx")).toStdString();
    writeFile(path, bytes);
    try {
        importOnnx(path);
        QFAIL("no error");
    } catch (const FormatError &e) {
        QCOMPARE(e.where, path);
        QVERIFY2(std::string(e.what()).find(path) == 0, e.what());
        QVERIFY2(e.reason.find(reason) != std::string::npos, e.what());
    }
}

void TestOnnx::noConv()
{
    const std::string path = kTestData + "/node/test_relu/model.onnx";
    try {
        importOnnx(path);
        QFAIL("no error");
    } catch (const FormatError &e) {
        QCOMPARE(e.where, path);
        QVERIFY2(e.reason.find("no Conv node") != std::string::npos, e.what());
    }
}

// Seeded byte flips and truncations of real and hand-built models: each
// import returns (whatever it imported or skipped) or throws FormatError;
// no crash, no other exception, no huge allocation from damaged dims. (This
// found ONNX 1.12's own shape-inference crashes on damaged Conv nodes, which
// the import now guards against: GuardedSchemas in OnnxImport.cpp.)
void TestOnnx::damagedModelsNeverCrash()
{
    std::vector<std::string> seeds = {readFile(kTestData + "/pytorch-converted/test_Conv2d_padding/model.onnx"),
        readFile(kTestData + "/node/test_conv_with_strides_and_asymmetric_padding/model.onnx")};
    onnx::ModelProto m = emptyModel({{1}, {2}, {9}, {9}});
    addWeights(m, "w", {3, 2, 3, 3});
    addWeights(m, "b", {3});
    onnx::NodeProto &conv = addConv(m, "c", "x", "w", "y");
    conv.add_input("b");
    setString(conv, "auto_pad", "SAME_UPPER");
    setInts(conv, "strides", {2, 2});
    setInts(conv, "kernel_shape", {3, 3});
    seeds.push_back(m.SerializeAsString());
    for (const onnx::ModelProto &seed : shapeSeedModels())
        seeds.push_back(seed.SerializeAsString());

    // 6000 take well under a second; 200 000 with two seeds passed once by hand.
    constexpr int kModels = 6000;
    std::mt19937 random(20261123);
    int imported = 0, refused = 0, skipped = 0;
    for (int i = 0; i < kModels; ++i) {
        std::string bytes = seeds[std::size_t(i) % seeds.size()];
        const int flips = 1 + int(random() % 8);
        for (int f = 0; f < flips; ++f)
            bytes[random() % bytes.size()] = char(random());
        if (random() % 4 == 0)
            bytes.resize(random() % bytes.size());
        try {
            const NetworkImport net = importOnnxBytes(bytes, "damaged.onnx");
            imported += int(net.layers.size());
            skipped += int(net.skipped.size());
            for (const ImportedConv &c : net.layers) {
                QVERIFY(c.layer.problems().empty());
                QCOMPARE(std::int64_t(c.weights.size()), c.values_not_read.empty() ? c.layer.n * c.layer.kernelElements() : 0);
            }
        } catch (const FormatError &e) {
            QCOMPARE(e.where, std::string("damaged.onnx"));
            ++refused;
        } catch (const std::exception &e) {
            QFAIL(qPrintable(QStringLiteral("damaged model %1: %2").arg(i).arg(QString::fromStdString(e.what()))));
        }
    }
    qInfo("%d damaged models: %d refused, %d layers imported, %d convolutions skipped", kModels, refused, imported, skipped);
}

// The two damaged Conv nodes that crashed ONNX 1.12's shape inference in
// damagedModelsNeverCrash: input and weights of different ranks with no
// kernel_shape (a read past an empty vector), and stride 0 with SAME_UPPER (a
// division by zero). Both are now skipped with their reason.
void TestOnnx::shapeInferenceCrashesGuarded()
{
    onnx::ModelProto m = emptyModel({{1}, {1}});
    addWeights(m, "w", {1, 1, 3, 3});
    setInts(addConv(m, "ranks", "x", "w", "y"), "pads", {1, 0, 1, 0});
    NetworkImport net = importModel(m);
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QVERIFY2(net.skipped[0].reason.find("rank 2") != std::string::npos, net.skipped[0].reason.c_str());

    m = emptyModel({{1}, {2}, {9}, {9}});
    addWeights(m, "w", {3, 2, 3, 3});
    onnx::NodeProto &conv = addConv(m, "stride0", "x", "w", "y");
    setString(conv, "auto_pad", "SAME_UPPER");
    setInts(conv, "strides", {0, 2});
    net = importModel(m);
    QCOMPARE(net.skipped.size(), std::size_t(1));
    QVERIFY2(net.skipped[0].reason.find("strides [0, 2]") != std::string::npos, net.skipped[0].reason.c_str());
}

// A 2 GB file (sparse, so it costs no disk) is refused before a byte is read.
void TestOnnx::tooLarge()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("huge.onnx")).toStdString();
    writeFile(path, "x");
    std::filesystem::resize_file(path, std::uintmax_t(2) << 30);
    try {
        importOnnx(path);
        QFAIL("no error");
    } catch (const FormatError &e) {
        QCOMPARE(e.where, path);
        QVERIFY2(e.reason.find("larger than") != std::string::npos, e.what());
    }
}

// Values that are already small integers survive quantisation exactly, and
// the bit budget keeps every K-term dot product inside 64 bits.
void TestOnnx::quantisationIsExactOnIntegers()
{
    const Quantised q = quantise({3.0f, -4.0f, 0.5f, 0.0f}, 24);
    QCOMPARE(q.values.size(), std::size_t(4));
    for (std::size_t i = 0; i < 4; ++i)
        QCOMPARE(std::ldexp(double(q.values[i]), -q.exponent), double(std::vector<float>{3.0f, -4.0f, 0.5f, 0.0f}[i]));
    QVERIFY(std::abs(q.values[1]) <= (1 << 24));
    Layer big;
    big.c_in = 4096;
    big.h_in = big.w_in = big.h_k = big.w_k = 11;
    const int bits = quantisationBits(big); // K = 495616 < 2^19
    QCOMPARE(bits, (62 - 19) / 2);
    QVERIFY(double(big.kernelElements()) * std::ldexp(1.0, 2 * bits) <= std::ldexp(1.0, 62));
}

QTEST_GUILESS_MAIN(TestOnnx)
#include "tst_onnx.moc"
