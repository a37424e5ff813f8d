// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-cli import-onnx, network and export --figure network
// (docs/reference/cli.md), run as a user would:
// the sample networks, a toy network whose durations are worked out by hand
// (tst_network derives them), and every kind of bad input (exit 1, a located
// message, nothing written).
#include <QFile>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "TestCli.h"
#include "TestOnnxModels.h"

namespace {

using Run = ProcessRun;

QString sample(const QString &name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + name; }

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// Layer a: 1x2x2, one 1x1 kernel (best 10); layer b: 1x3x3, one 2x2 kernel
// (best ZigZag, 22): see tst_network's toyNetworkByHand.
const QByteArray kToy = R"({"format": "convoffload-project", "version": 2,
 "hardware": {"mem_size": 100, "nbop_pe": 4},
 "layers": [{"name": "a", "layer": {"c_in": 1, "h_in": 2, "w_in": 2, "h_k": 1, "w_k": 1, "n": 1}},
            {"name": "b", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1}}],
 "skipped": [{"node": "dw", "reason": "depthwise"}]})";

} // namespace

class TestNetworkCli : public QObject {
    Q_OBJECT

private slots:
    void importSamples_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("layers");
        QTest::newRow("lenet5") << "lenet5" << 2;
        QTest::newRow("resnet8") << "resnet8" << 9;
    }

    void importSamples()
    {
        QFETCH(QString, name);
        QFETCH(int, layers);
        QTemporaryDir dir;
        const QString out = dir.filePath(name + QStringLiteral(".json"));
        const QString base = sample(QStringLiteral("networks/") + name);
        const Run r = cli({QStringLiteral("import-onnx"), base + QStringLiteral(".onnx"), QStringLiteral("--hardware"),
            base + QStringLiteral("-hardware.json"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("Imported " + QByteArray::number(layers) + " convolution layers"));
        QVERIFY(r.out.contains("Skipped 0 convolutions."));
        QCOMPARE(contents(out), contents(base + QStringLiteral(".json"))); // the committed project
    }

    void hardwareFromFlags()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("n.json"));
        const Run r
            = cli({QStringLiteral("import-onnx"), sample(QStringLiteral("networks/lenet5.onnx")), QStringLiteral("--mem-size"),
                QStringLiteral("3000"), QStringLiteral("--nbop-pe"), QStringLiteral("9600"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(contents(out), contents(sample(QStringLiteral("networks/lenet5.json"))));
        // A flag overrides the file; --strategies none stores none.
        const Run none = cli({QStringLiteral("import-onnx"), sample(QStringLiteral("networks/lenet5.onnx")),
            QStringLiteral("--hardware"), sample(QStringLiteral("networks/lenet5-hardware.json")), QStringLiteral("--t-w"),
            QStringLiteral("0"), QStringLiteral("--strategies"), QStringLiteral("none"), QStringLiteral("--out"), out});
        QCOMPARE(none.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(contents(out)).object();
        QCOMPARE(o[QStringLiteral("hardware")].toObject()[QStringLiteral("t_w")].toDouble(), 0.0);
        QCOMPARE(o[QStringLiteral("layers")].toArray()[0].toObject()[QStringLiteral("strategies")].toArray().size(), 0);
    }

    void importRefusals_data()
    {
        QTest::addColumn<QByteArray>("model"); // bytes of the model file; "sparse" = a 2 GiB sparse file
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        const QByteArray lenet = contents(sample(QStringLiteral("networks/lenet5.onnx")));
        const QStringList hw{QStringLiteral("--hardware"), sample(QStringLiteral("networks/lenet5-hardware.json"))};
        QTest::newRow("truncated") << lenet.left(5000) << hw << "not an ONNX model";
        QTest::newRow("text") << QByteArray("hello, I am not a model\n") << hw << "not an ONNX model";
        QTest::newRow("empty") << QByteArray() << hw << "model.onnx";
        QTest::newRow("2 GiB") << QByteArray("sparse") << hw << "model.onnx";
        QTest::newRow("no hardware") << lenet << QStringList{} << "needs the hardware";
        QTest::newRow("bad hardware file") << lenet
                                           << QStringList{QStringLiteral("--hardware"),
                                                  sample(QStringLiteral("networks/lenet5.onnx"))}
                                           << "lenet5.onnx: line 1";
        QTest::newRow("bad flag") << lenet << (hw + QStringList{QStringLiteral("--mem-size"), QStringLiteral("0")})
                                  << "--mem-size";
        QTest::newRow("bad strategies") << lenet << (hw + QStringList{QStringLiteral("--strategies"), QStringLiteral("all")})
                                        << "--strategies: expected default or none";
    }

    void importRefusals()
    {
        QFETCH(QByteArray, model);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.onnx"));
        if (model == "sparse") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(2) << 30));
        } else {
            write(path, model);
        }
        const QString out = dir.filePath(QStringLiteral("n.json"));
        const Run r = cli(QStringList{QStringLiteral("import-onnx"), path, QStringLiteral("--out"), out} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void importOnlyUnsupported()
    {
        const QString model = QStringLiteral(CONVOFFLOAD_ONNX_TESTDATA "/pytorch-converted/test_Conv3d/model.onnx");
        if (!QFile::exists(model))
            QSKIP("libonnx-testdata is not installed");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("n.json"));
        const Run r = cli({QStringLiteral("import-onnx"), model, QStringLiteral("--mem-size"), QStringLiteral("100"),
            QStringLiteral("--nbop-pe"), QStringLiteral("100"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no convolution the layer model can hold: 1 skipped") && r.err.contains("3-D convolution"),
            r.err.constData());
        QVERIFY(!QFile::exists(out));
        // A model without any convolution.
        const Run relu = cli({QStringLiteral("import-onnx"),
            QStringLiteral(CONVOFFLOAD_ONNX_TESTDATA "/node/test_relu/model.onnx"), QStringLiteral("--mem-size"),
            QStringLiteral("100"), QStringLiteral("--nbop-pe"), QStringLiteral("100"), QStringLiteral("--out"), out});
        QCOMPARE(relu.exitCode, 1);
        QVERIFY2(relu.err.contains("test_relu/model.onnx: the model has no Conv node"), relu.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    // paddle2onnx's way: a symbolic batch and the weights in a Constant
    // node of FLOAT16 values. x [N, 3, 10, 12], 4 kernels 3×3, stride 2:
    // 3x10x12 -> (10 − 3)/2 + 1 = 4 by (12 − 3)/2 + 1 = 5.
    void importSymbolicBatch()
    {
        using namespace onnxmodels;
        onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {10}, {12}});
        onnx::TensorProto &w = *addConstant(*m.mutable_graph(), "w", {4, 3, 3, 3}).mutable_attribute(0)->mutable_t();
        w.clear_float_data();
        w.set_data_type(onnx::TensorProto::FLOAT16);
        w.set_raw_data(std::string(2 * 4 * 3 * 3 * 3, '\0'));
        setInts(addConv(m, "c", "x", "w", "y"), "strides", {2, 2});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("paddle.onnx"));
        write(path, QByteArray::fromStdString(m.SerializeAsString()));
        const QString out = dir.filePath(QStringLiteral("n.json"));
        const Run r = cli({QStringLiteral("import-onnx"), path, QStringLiteral("--mem-size"), QStringLiteral("1000"),
            QStringLiteral("--nbop-pe"), QStringLiteral("100"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("  c: 3x10x12, 4 kernels 3x3, stride 2,2, pads 0 0 0 0 -> 4x5"), r.out.constData());
        QVERIFY2(r.out.contains("Note: input 'x': dimension 0 ('N') is symbolic, taken as batch 1\n"), r.out.constData());
        QVERIFY2(r.out.contains("Note: weights not read (FLOAT16 Constant node) for 1 layer (c)"), r.out.constData());
        QVERIFY(r.err.isEmpty());
        const QJsonObject layer
            = QJsonDocument::fromJson(contents(out)).object()[QStringLiteral("layers")].toArray()[0].toObject();
        QCOMPARE(layer[QStringLiteral("layer")].toObject()[QStringLiteral("c_in")].toInt(), 3);
        QCOMPARE(layer[QStringLiteral("layer")].toObject()[QStringLiteral("n")].toInt(), 4);
    }

    // Issue 42: a model of three 1048576 x 64 inputs, each into a 3 x 3
    // Conv. The import reads shapes only, so it is quick whatever the
    // layers' work; `network` then refuses the first layer by name before
    // any work (the work budget, as simulate's).
    void hugeInputsImportQuickly()
    {
        using namespace onnxmodels;
        onnx::ModelProto m = emptyModel({{1}, {1}, {1048576}, {64}});
        for (const char *input : {"x1", "x2"})
            setShape(*m.mutable_graph()->add_input(), input, {{1}, {1}, {1048576}, {64}});
        onnx::TensorProto &w = *addConstant(*m.mutable_graph(), "w", {1, 1, 3, 3}).mutable_attribute(0)->mutable_t();
        w.clear_float_data();
        w.set_data_type(onnx::TensorProto::FLOAT16);
        w.set_raw_data(std::string(2 * 9, '\0'));
        addConv(m, "c0", "x", "w", "y0");
        addConv(m, "c1", "x1", "w", "y1");
        addConv(m, "c2", "x2", "w", "y2");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tall.onnx"));
        write(path, QByteArray::fromStdString(m.SerializeAsString()));
        const QString out = dir.filePath(QStringLiteral("n.json"));
        QElapsedTimer timer;
        timer.start();
        const Run r = cli({QStringLiteral("import-onnx"), path, QStringLiteral("--mem-size"), QStringLiteral("100000"),
            QStringLiteral("--nbop-pe"), QStringLiteral("100000"), QStringLiteral("--out"), out});
        const qint64 importMs = timer.elapsed();
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("  c2: 1x1048576x64, 1 kernels 3x3, stride 1,1, pads 0 0 0 0 -> 1048574x62"), r.out.constData());
        QVERIFY2(importMs < 10000, qPrintable(QStringLiteral("import-onnx took %1 ms").arg(importMs)));
        // Under an 8 GB address-space limit, so the budget (3/4 of it) is the
        // same on any machine: each layer needs tens of GB by the estimate.
        timer.restart();
        const ProcessRun network = runProgram(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("ulimit -v 8000000 && exec \"$0\" network \"$1\" --threads 1"),
                QStringLiteral(CONVOFFLOAD_CLI), out},
            20000);
        QCOMPARE(network.exitCode, 1);
        QVERIFY2(network.err.contains("layer 'c0' (1x1048576x64 input, 1 kernels 3x3): this simulation would take about"),
            network.err.constData());
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QStringLiteral("network took %1 ms").arg(timer.elapsed())));
    }

    // A depthwise dilated Conv and a dense one: import-onnx shows the group
    // and dilation of the first only, the network file keeps them, and
    // `network` prints them (--json: keys only when not 1, as the file).
    // x [1, 4, 12, 12], weights [4, 1, 3, 3], group 4, dilations (2, 3),
    // pads 1: (12 + 2 − 5)/1 + 1 = 10 by (12 + 2 − 7)/1 + 1 = 8; then 2
    // kernels 1×1 on that.
    void importGroupedDilated()
    {
        using namespace onnxmodels;
        onnx::ModelProto m = emptyModel({{1}, {4}, {12}, {12}});
        addWeights(m, "w", {4, 1, 3, 3});
        addWeights(m, "v", {2, 4, 1, 1});
        onnx::NodeProto &dw = addConv(m, "dw", "x", "w", "y");
        setInt(dw, "group", 4);
        setInts(dw, "dilations", {2, 3});
        setInts(dw, "pads", {1, 1, 1, 1});
        addConv(m, "pw", "y", "v", "z");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dw.onnx"));
        write(path, QByteArray::fromStdString(m.SerializeAsString()));
        const QString out = dir.filePath(QStringLiteral("n.json"));
        const Run r = cli({QStringLiteral("import-onnx"), path, QStringLiteral("--mem-size"), QStringLiteral("1000"),
            QStringLiteral("--nbop-pe"), QStringLiteral("100"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("  dw: 4x12x12, 4 kernels 3x3, stride 1,1, pads 1 1 1 1, g=4, d=2x3 -> 10x8"), r.out.constData());
        QVERIFY2(r.out.contains("  pw: 4x10x8, 2 kernels 1x1, stride 1,1, pads 0 0 0 0 -> 10x8"), r.out.constData());
        QVERIFY2(r.out.contains("Skipped 0 convolutions."), r.out.constData());
        const QJsonObject file
            = QJsonDocument::fromJson(contents(out)).object()[QStringLiteral("layers")].toArray()[0].toObject();
        QCOMPARE(file[QStringLiteral("layer")].toObject()[QStringLiteral("group")].toInt(), 4);

        const Run json = cli({QStringLiteral("network"), out, QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray layers = QJsonDocument::fromJson(json.out).object()[QStringLiteral("layers")].toArray();
        QCOMPARE(layers.size(), 2);
        const QJsonObject a = layers[0].toObject(), b = layers[1].toObject();
        QCOMPARE(a[QStringLiteral("group")].toInt(), 4);
        QCOMPARE(a[QStringLiteral("dilation_h")].toInt(), 2);
        QCOMPARE(a[QStringLiteral("dilation_w")].toInt(), 3);
        QCOMPARE(a[QStringLiteral("h_out")].toInt(), 10);
        QCOMPARE(a[QStringLiteral("w_out")].toInt(), 8);
        for (const char *key : {"group", "dilation_h", "dilation_w"})
            QVERIFY2(!b.contains(QLatin1String(key)), key);
        const Run text = cli({QStringLiteral("network"), out});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("4x12x12 * 4x3x3 s1 p1111 g=4 d=2x3"), text.out.constData());
        QVERIFY2(text.out.contains("4x10x8 * 2x1x1 s1 p0000 "), text.out.constData());
    }

    // --input-shape fixes a symbolic image size; bad values are refused
    // naming the flag and the reason.
    void importInputShape_data()
    {
        QTest::addColumn<QStringList>("shapes");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const auto flag = [](const char *v) { return QStringList{QStringLiteral("--input-shape"), QString::fromLatin1(v)}; };
        QTest::newRow("fixed") << flag("x=1,3,64,48") << 0 << "  c: 3x64x48, 4 kernels 3x3, stride 1,1, pads 0 0 0 0 -> 62x46";
        QTest::newRow("missing") << QStringList{} << 1 << "no convolution the layer model can hold: 1 skipped (1 dynamic input";
        QTest::newRow("no such input") << flag("images=1,3,64,48") << 1
                                       << "--input-shape: the model has no graph input 'images' (its inputs: 'x')";
        QTest::newRow("wrong rank") << flag("x=3,64,48") << 1 << "--input-shape: the graph input 'x' has rank 4";
        QTest::newRow("zero") << flag("x=1,3,0,48") << 1 << "--input-shape: expected NAME=D1,D2,...";
        QTest::newRow("negative") << flag("x=1,3,-64,48") << 1 << "--input-shape: expected NAME=D1,D2,...";
        QTest::newRow("no name") << flag("1,3,64,48") << 1 << "--input-shape: expected NAME=D1,D2,...";
        QTest::newRow("twice") << (flag("x=1,3,64,48") + flag("x=1,3,64,48")) << 1 << "--input-shape: 'x' is given twice";
    }

    void importInputShape()
    {
        QFETCH(QStringList, shapes);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        using namespace onnxmodels;
        onnx::ModelProto m = emptyModel({{0, "N"}, {3}, {0, "H"}, {0, "W"}});
        addWeights(m, "w", {4, 3, 3, 3});
        addConv(m, "c", "x", "w", "y");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.onnx"));
        write(path, QByteArray::fromStdString(m.SerializeAsString()));
        const QString out = dir.filePath(QStringLiteral("n.json"));
        const Run r = cli(QStringList{QStringLiteral("import-onnx"), path, QStringLiteral("--mem-size"), QStringLiteral("1000"),
                              QStringLiteral("--nbop-pe"), QStringLiteral("100"), QStringLiteral("--out"), out}
            + shapes);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(exitCode ? r.err : r.out).contains(message), (r.out + r.err).constData());
        QCOMPARE(QFile::exists(out), exitCode == 0);
    }

    void networkJson()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("toy.json"));
        write(path, kToy);
        const Run r = cli({QStringLiteral("network"), path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray layers = o[QStringLiteral("layers")].toArray();
        QCOMPARE(layers.size(), 2);
        const QJsonObject b = layers[1].toObject();
        for (const char *key : {"name", "c_in", "h_in", "w_in", "n", "h_k", "w_k", "stride_h", "stride_w", "pad_top",
                 "pad_bottom", "pad_left", "pad_right", "kernels_fit", "best"})
            QVERIFY2(b.contains(QLatin1String(key)), key);
        QCOMPARE(b[QStringLiteral("name")].toString(), QStringLiteral("b"));
        QCOMPARE(b[QStringLiteral("h_k")].toInt(), 2);
        QCOMPARE(b[QStringLiteral("kernels_fit")].toBool(), true);
        const QJsonObject best = b[QStringLiteral("best")].toObject();
        QCOMPARE(best[QStringLiteral("strategy")].toString(), QStringLiteral("ZigZag"));
        QCOMPARE(best[QStringLiteral("total_duration")].toDouble(), 22.0);
        QCOMPARE(best[QStringLiteral("valid")].toBool(), true);
        QCOMPARE(best[QStringLiteral("loaded_input")].toInt(), 10);
        QCOMPARE(layers[0].toObject()[QStringLiteral("best")].toObject()[QStringLiteral("total_duration")].toDouble(), 10.0);
        QCOMPARE(o[QStringLiteral("total_duration")].toDouble(), 32.0);
        QCOMPARE(o[QStringLiteral("skipped")].toArray()[0].toObject()[QStringLiteral("reason")].toString(),
            QStringLiteral("depthwise"));
        // Three convolutions in the model, two imported, one skipped
        // ("depthwise"): the total of both layers' bests is not the model's.
        QCOMPARE(o[QStringLiteral("convolutions")].toInt(), 3);
        QCOMPARE(o[QStringLiteral("imported")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("skipped_by_reason")].toObject(), (QJsonObject{{QStringLiteral("depthwise"), 1}}));
        QCOMPARE(o[QStringLiteral("layers_without_valid")].toInt(), 0);
        QCOMPARE(o[QStringLiteral("complete")].toBool(), false);
        QCOMPARE(o[QStringLiteral("dominating")].toArray().size(), 1);
        QCOMPARE(o[QStringLiteral("dominating")].toArray()[0].toObject()[QStringLiteral("name")].toString(), QStringLiteral("b"));

        const Run csv = cli({QStringLiteral("network"), path, QStringLiteral("--csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5); // header, a, b, the skipped dw, the total
        QVERIFY(lines[0].startsWith("layer,c_in,"));
        QVERIFY(lines[2].startsWith("b,1,3,3,1,2,2,1,1,0,0,0,0,1,1,1,yes,ZigZag,zigzag,1,,,yes,22,10,4,4,"));
        QCOMPARE(lines[3], QByteArray("dw,,,,,,,,,,,,,,,,,depthwise,skipped,,,,no,,,,,,"));
        QCOMPARE(lines[4], QByteArray("(total),,,,,,,,,,,,,,,,,2 of 3 convolutions,,,,,no,32,,,,,1"));
        QCOMPARE(lines[4].count(','), lines[0].count(','));
        QCOMPARE(lines[3].count(','), lines[0].count(','));

        const Run text = cli({QStringLiteral("network"), path});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("total duration: 32 (incomplete: 1 of 3 convolutions skipped by the import)\n"
                                   "2 of 3 convolutions; skipped: 1 depthwise\n"),
            text.out.constData());
        QVERIFY(text.out.contains("skipped dw: depthwise"));
    }

    void networkOptimise()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("toy.json"));
        write(path, kToy);
        const Run r = cli({QStringLiteral("network"), path, QStringLiteral("--json"), QStringLiteral("--optimize"),
            QStringLiteral("--time-limit"), QStringLiteral("1"), QStringLiteral("--threads"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        // Layer b's optimum over ordered partitions into one-patch groups is
        // the ZigZag order (22): nothing shorter exists, the total stays.
        QVERIFY(o[QStringLiteral("total_duration")].toDouble() <= 32.0);
        QVERIFY(o[QStringLiteral("total_duration")].toDouble() >= 31.0);
        // Each layer's best per family: b's heuristics (ZigZag, 22) and what
        // the optimiser found (no shorter than the optimum, 22).
        const QJsonObject families
            = o[QStringLiteral("layers")].toArray()[1].toObject()[QStringLiteral("best_per_family")].toObject();
        QCOMPARE(families.keys(), (QStringList{QStringLiteral("heuristic"), QStringLiteral("optimised")}));
        QCOMPARE(
            families[QStringLiteral("heuristic")].toObject()[QStringLiteral("strategy")].toString(), QStringLiteral("ZigZag"));
        QCOMPARE(families[QStringLiteral("heuristic")].toObject()[QStringLiteral("total_duration")].toDouble(), 22.0);
        QVERIFY(families[QStringLiteral("optimised")].toObject()[QStringLiteral("total_duration")].toDouble() >= 22.0);
    }

    void networkOfSingleLayerProject()
    {
        const Run r = cli({QStringLiteral("network"), sample(QStringLiteral("paper-example.json")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray layers = QJsonDocument::fromJson(r.out).object()[QStringLiteral("layers")].toArray();
        QCOMPARE(layers.size(), 1);
        QCOMPARE(layers[0].toObject()[QStringLiteral("name")].toString(), QStringLiteral("paper-example"));
        // docs/user/samples.md's table: Row-by-Row 117 is the best of the project's strategies.
        QCOMPARE(layers[0].toObject()[QStringLiteral("best")].toObject()[QStringLiteral("total_duration")].toDouble(), 117.0);
        // A version-1 project is a model of one convolution, imported whole.
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("convolutions")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("imported")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("skipped_by_reason")].toObject(), QJsonObject());
        QCOMPARE(o[QStringLiteral("complete")].toBool(), true);
    }

    void networkRefusals()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        write(path, QByteArray(kToy).replace("\"h_k\": 2", "\"h_k\": 0"));
        const Run r = cli({QStringLiteral("network"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("layers[1].layer.h_k"), r.err.constData());
        const Run missing = cli({QStringLiteral("network"), dir.filePath(QStringLiteral("none.json"))});
        QCOMPARE(missing.exitCode, 1);
        // Days of work are refused before any starts.
        write(path,
            QByteArray(kToy).replace(R"("h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1})",
                R"("h_in": 8000, "w_in": 8000, "h_k": 64, "w_k": 64, "n": 1}, "strategies": [{"name": "Z", "kind": "zigzag", "group_size": 1}])"));
        const Run huge = cli({QStringLiteral("network"), path});
        QCOMPARE(huge.exitCode, 1);
        QVERIFY2(huge.err.contains("--no-work-limit"), huge.err.constData());
        // The single-layer commands say what a network file is.
        write(path, kToy);
        const Run simulate = cli({QStringLiteral("compare"), path});
        QCOMPARE(simulate.exitCode, 1);
        QVERIFY2(simulate.err.contains("network project"), simulate.err.constData());
    }

    // export --figure network: the network chart in every format, 1000 px
    // wide by default, as wide as the preset with one; --optimize adds the
    // optimised family.
    // The work estimate adds up every candidate (20 min here: a 4\u00d71024\u00d71024
    // input, 96 kernels 5\u00d75, some hundred kernel-blocked candidates), but
    // the lower bounds rule most out without simulating them: the network is
    // not refused for its time; it runs (about 2 s), and would stop at the limit.
    void overTheTimeEstimateRuns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("wide.json"));
        write(path, R"({"format": "convoffload-project", "version": 2, "name": "wide",
  "hardware": {"mem_size": 20000, "nbop_pe": 9600, "t_l": 1, "t_w": 1, "t_acc": 1, "dram_size": 400000000,
               "max_loads_per_element": 2},
  "layers": [{"name": "wide", "layer": {"c_in": 4, "h_in": 1024, "w_in": 1024, "h_k": 5, "w_k": 5, "n": 96,
              "pad_top": 2, "pad_bottom": 2, "pad_left": 2, "pad_right": 2}, "strategies": []}]})");
        const Run r = cli({QStringLiteral("network"), path, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QVERIFY(report[QStringLiteral("layers")].toArray().at(0).toObject()[QStringLiteral("best")].isObject());
    }

    void exportNetworkFigure_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("magic");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("png") << QStringLiteral("lenet5.png") << QByteArray("\x89PNG") << QStringList{};
        QTest::newRow("svg") << QStringLiteral("lenet5.svg") << QByteArray("<?xml") << QStringList{};
        QTest::newRow("pdf") << QStringLiteral("lenet5.pdf") << QByteArray("%PDF") << QStringList{};
        QTest::newRow("optimised pdf") << QStringLiteral("lenet5-optimised.pdf") << QByteArray("%PDF")
                                       << QStringList{QStringLiteral("--optimize"), QStringLiteral("--time-limit"),
                                              QStringLiteral("1"), QStringLiteral("--threads"), QStringLiteral("1")};
        QTest::newRow("paper column png") << QStringLiteral("column.png") << QByteArray("\x89PNG")
                                          << QStringList{QStringLiteral("--preset"), QStringLiteral("paper-column")};
    }

    void exportNetworkFigure()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, magic);
        QFETCH(QStringList, extra);
        QTemporaryDir dir;
        const QString out = dir.filePath(file);
        const Run r = cli(QStringList{QStringLiteral("export"), sample(QStringLiteral("networks/lenet5.json")),
                              QStringLiteral("--figure"), QStringLiteral("network"), QStringLiteral("--out"), out}
            + extra);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(contents(out).startsWith(magic));
        QVERIFY(r.out.startsWith("Wrote "));
        if (file == QLatin1String("lenet5.png"))
            QCOMPARE(QImage(out).width(), 1000);
        if (file == QLatin1String("column.png")) // 85 mm at 300 dpi
            QCOMPARE(QImage(out).width(), qRound(85 / 25.4 * 96) * 300 / 96);
    }

    void exportNetworkFigureRefusals_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        const QString lenet = sample(QStringLiteral("networks/lenet5.json"));
        QTest::newRow("single-layer project")
            << sample(QStringLiteral("lenet5-conv1.json")) << QStringList{} << QStringLiteral("is a single-layer project");
        QTest::newRow("missing file") << QStringLiteral("/nonexistent/net.json") << QStringList{}
                                      << QStringLiteral("/nonexistent/net.json");
        QTest::newRow("too small") << lenet << QStringList{QStringLiteral("--size"), QStringLiteral("800x50")}
                                   << QStringLiteral("needs at least");
        QTest::newRow("strategy") << lenet << QStringList{QStringLiteral("--strategy"), QStringLiteral("ZigZag")}
                                  << QStringLiteral("--strategy does not apply to --figure network");
        QTest::newRow("extension") << lenet << QStringList{QStringLiteral("--out"), QStringLiteral("chart.txt")}
                                   << QStringLiteral("chart.txt");
    }

    // Exit 1, a message naming the problem, nothing written.
    void exportNetworkFigureRefusals()
    {
        QFETCH(QString, project);
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("chart.png"));
        QStringList args{QStringLiteral("export"), project, QStringLiteral("--figure"), QStringLiteral("network")};
        if (!options.contains(QStringLiteral("--out")))
            args << QStringLiteral("--out") << out;
        else
            options.replace(options.indexOf(QStringLiteral("chart.txt")), dir.filePath(QStringLiteral("chart.txt")));
        const Run r = cli(args + options);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    // A network project asked for a single-layer figure says what it is.
    void exportLayerFigureOfANetwork()
    {
        QTemporaryDir dir;
        const Run r = cli({QStringLiteral("export"), sample(QStringLiteral("networks/lenet5.json")), QStringLiteral("--figure"),
            QStringLiteral("compare"), QStringLiteral("--out"), dir.filePath(QStringLiteral("c.png"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("network project"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestNetworkCli)
#include "tst_network_cli.moc"
