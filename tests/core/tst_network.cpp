// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Network projects (docs/reference/network-file.md): the file format (version 2) and its errors,
// version-1 projects read as one-layer networks, the per-layer analysis on
// toy networks worked out by hand, and the sample networks made by the
// in-repo generator.
#include "convoffload/io/FormatError.h"
#include "convoffload/io/NetworkReport.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/onnx/OnnxImport.h"
#include "convoffload/onnx/OnnxNetwork.h"
#include "convoffload/optimise/NetworkOptimisation.h"
#include "convoffload/simulate/NetworkAnalysis.h"
#include "convoffload/simulate/StrategySimulation.h"

#include "NetworkModels.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <random>
#include <sstream>

using namespace convoffload;

namespace {

std::string readBytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string sample(const std::string &name) { return CONVOFFLOAD_SAMPLES "/" + name; }

/// Two layers, every kind of strategy, non-default hardware and options.
Network richNetwork()
{
    Network n;
    n.name = "toy";
    n.source = "toy.onnx";
    n.hardware = Hardware{500, 72, 1.5, 2, 0.5, 1000000, 3};
    n.options = Options{true, WritePolicy::AsLateAsPossible, false};
    Layer a;
    a.c_in = 2, a.h_in = 5, a.w_in = 5, a.h_k = 3, a.w_k = 3, a.n = 2;
    Layer b;
    b.c_in = 2, b.h_in = 6, b.w_in = 6, b.h_k = 3, b.w_k = 3, b.n = 4, b.stride_h = 2, b.stride_w = 2, b.pad_bottom = 1,
    b.pad_right = 1;
    StrategySpec blocked{"Blocked", StrategyKind::KernelBlocked, 2, {}};
    blocked.kernel_block = 1;
    blocked.order = PatchOrder::RowByRow;
    blocked.loop = KernelLoop::PatchesOuter;
    StrategySpec steps{"Steps", StrategyKind::Steps, std::nullopt, {}};
    steps.steps = {{{0, 1}, {0}}, {{2, 3}, {0}}, {{0, 1, 2, 3}, {1}}};
    n.layers.push_back(NetworkLayer{"conv1", a, DataSpec{7, ""},
        {{"Row-by-Row", StrategyKind::RowByRow, 2, {}},
            {"Mine", StrategyKind::Groups, std::nullopt, {{0, 1}, {2}, {3, 4, 5, 6, 7, 8}}}}});
    n.layers.push_back(
        NetworkLayer{"conv2", b, DataSpec{}, {blocked, steps, {"ZigZag", StrategyKind::ZigZag, std::nullopt, {}}}});
    n.skipped.push_back(SkippedConv{"dw", "group = 2 = C_in (depthwise): the layer model has one group"});
    return n;
}

const char *kNetworkText = R"({"format": "convoffload-project", "version": 2,
 "hardware": {"mem_size": 100, "nbop_pe": 4},
 "layers": [
   {"name": "a", "layer": {"c_in": 1, "h_in": 2, "w_in": 2, "h_k": 1, "w_k": 1, "n": 1}},
   {"name": "b", "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 1},
    "strategies": [{"name": "G", "kind": "groups", "groups": [[0], [1], [2], [3]]}]}
 ]})";

/// kNetworkText with one JSON pointer replaced (or removed when value is empty).
std::string edited(const std::string &pointer, const std::string &value)
{
    // Small, explicit edits keep the rows readable without a JSON library here.
    std::string text = kNetworkText;
    const auto replace = [&](const std::string &from, const std::string &to) {
        const std::size_t at = text.find(from);
        if (at == std::string::npos)
            qFatal("edit not found: %s", from.c_str());
        text.replace(at, from.size(), to);
    };
    replace(pointer, value);
    return text;
}

} // namespace

class TestNetwork : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const Network n = richNetwork();
        const std::string text = networkToJson(n);
        QCOMPARE(networkFromJson(text) == n, true);
        QCOMPARE(networkToJson(networkFromJson(text)), text); // stable

        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("net.json")).toStdString();
        saveNetwork(n, path);
        QCOMPARE(loadNetwork(path) == n, true);
        // Every layer opens as a single-layer project with the shared hardware.
        const Project p = n.projectOf(1);
        QCOMPARE(p.problem.layer == n.layers[1].layer, true);
        QCOMPARE(p.problem.hardware == n.hardware, true);
        QCOMPARE(p.problem.options == n.options, true);
        QCOMPARE(p.strategies.size(), std::size_t(3));
        QCOMPARE(n.findLayer("conv2"), std::ptrdiff_t(1));
        QCOMPARE(n.findLayer("nope"), std::ptrdiff_t(-1));
    }

    void versionOneIsOneLayer()
    {
        const std::string path = sample("paper-example.json");
        const Project project = loadProject(path);
        const Network n = loadNetwork(path);
        QCOMPARE(n.layers.size(), std::size_t(1));
        QCOMPARE(n.layers[0].name, std::string("paper-example"));
        QCOMPARE(n.projectOf(0) == project, true);
        QCOMPARE(networkFromJson(readBytes(path)).layers[0].name, std::string("layer"));
        // A single-layer project still reads as before; a network does not.
        QCOMPARE(projectFromJson(projectToJson(project)) == project, true);
        try {
            projectFromJson(kNetworkText);
            QFAIL("a network read as a single-layer project");
        } catch (const FormatError &e) {
            QCOMPARE(e.where, std::string("version"));
            QVERIFY(e.reason.find("network project") != std::string::npos);
        }
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *name, const std::string &text, const char *where, const char *reason) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromLatin1(where) << QString::fromUtf8(reason);
        };
        row("version 3", edited("\"version\": 2", "\"version\": 3"), "version", "unsupported version 3");
        row("no layers key", edited(R"("layers": [)", R"("layerz": [)"), "layerz", "unknown key 'layerz'");
        row("empty layers",
            R"({"format": "convoffload-project", "version": 2, "hardware": {"mem_size": 1, "nbop_pe": 1}, "layers": []})",
            "layers", "at least one layer");
        row("layers not an array",
            R"({"format": "convoffload-project", "version": 2, "hardware": {"mem_size": 1, "nbop_pe": 1}, "layers": 3})",
            "layers", "expected an array");
        row("no hardware", edited(R"("hardware": {"mem_size": 100, "nbop_pe": 4},)", ""), "hardware", "missing required key");
        row("duplicate layer name", edited(R"("name": "b")", R"("name": "a")"), "layers[1].name",
            "duplicate name \"a\" (already used by layers[0])");
        row("empty layer name", edited(R"("name": "b")", R"("name": "")"), "layers[1].name", "must not be empty");
        row("layer without name", edited(R"("name": "b", )", ""), "layers[1].name", "missing required key");
        row("bad kernel size", edited(R"("h_k": 2)", R"("h_k": 0)"), "layers[1].layer.h_k", "must be an integer ≥ 1");
        row("kernel larger than input", edited(R"("h_k": 2)", R"("h_k": 9)"), "layers[1].layer.h_k", "");
        row("unknown key in a layer", edited(R"("name": "a",)", R"("name": "a", "weights": 1,)"), "layers[0].weights",
            "unknown key 'weights'");
        row("patch out of range", edited("[[0], [1], [2], [3]]", "[[0], [1], [2], [4]]"), "layers[1].strategies[0].groups[3][0]",
            "patch 4 is out of range");
        row("duplicate key", edited(R"("name": "a",)", R"("name": "a", "name": "c",)"), "layers[0].name", "duplicate key 'name'");
        row("truncated", std::string(kNetworkText).substr(0, 120), "line 4, column 14", "invalid JSON");
        row("skipped without reason", edited(R"( ]})", R"( ], "skipped": [{"node": "x"}]})"), "skipped[0].reason",
            "missing required key");
    }

    void badInput()
    {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, reason);
        try {
            networkFromJson(text.toStdString());
            QFAIL("accepted");
        } catch (const FormatError &e) {
            QVERIFY2(QString::fromStdString(e.where).startsWith(where), e.what());
            QVERIFY2(e.reason.find(reason.toStdString()) != std::string::npos, e.what());
        }
    }

    void fileErrorsNameTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
        std::ofstream(path) << edited(R"("h_k": 2)", R"("h_k": 0)");
        try {
            loadNetwork(path);
            QFAIL("accepted");
        } catch (const FormatError &e) {
            QCOMPARE(e.where, path + ": layers[1].layer.h_k");
        }
    }

    // Layer a: 1x2x2 input, one 1x1 kernel; layer b: 1x3x3, one 2x2 kernel;
    // nbop_pe 4, t = 1, writes at the next step. By hand:
    //  a: G = 4/1 = 4, one group: 4 pixel + 1 kernel loads, 4 writes, 1
    //     compute = 10 (Row-by-Row; S1-baseline, G = 1, takes 5 + 4 + 4 = 13).
    //  b: G = 4/4 = 1. Row-by-Row loads 4, 2, 3 ({3,6,7}), 2 ({5,8}) pixels,
    //     ZigZag 4, 2, 2 ({7,8}), 2 ({3,6}); + 1 kernel of 4 elements, 4
    //     writes, 4 computes: Row-by-Row 11+4+4+4 = 23, ZigZag 10+4+4+4 = 22,
    //     the project's own one-patch groups (row-major) = 23.
    //  total 32; b alone is over half of it.
    // Layers on several threads: the same analysis as on one (every
    // candidate of every layer, in order), progress from 0 to every layer
    // done, counts only rising; a raised cancel flag stops it with Cancelled.
    void threadsGiveTheSameAnalysis()
    {
        const Network resnet = loadNetwork(sample("networks/resnet8.json"));
        NetworkAnalysisOptions one;
        one.threads = 1;
        const NetworkAnalysis a = analyseNetwork(resnet, one);
        for (int threads : {2, 3, 8}) {
            NetworkAnalysisOptions many;
            many.threads = threads;
            std::vector<std::size_t> seen;
            many.progress = [&seen](std::size_t done, std::size_t count) {
                QCOMPARE(count, std::size_t(9));
                seen.push_back(done);
            };
            const NetworkAnalysis b = analyseNetwork(resnet, many);
            QCOMPARE(b.layers.size(), a.layers.size());
            for (std::size_t i = 0; i < a.layers.size(); ++i) {
                QCOMPARE(b.layers[i].name, a.layers[i].name);
                QCOMPARE(b.layers[i].best, a.layers[i].best);
                QCOMPARE(b.layers[i].candidates.size(), a.layers[i].candidates.size());
                for (std::size_t c = 0; c < a.layers[i].candidates.size(); ++c)
                    QVERIFY(b.layers[i].candidates[c].row == a.layers[i].candidates[c].row);
            }
            QCOMPARE(b.total_duration, a.total_duration);
            QCOMPARE(seen.front(), std::size_t(0));
            QCOMPARE(seen.back(), a.layers.size());
            QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        }
        std::atomic<bool> cancel{true};
        NetworkAnalysisOptions cancelled;
        cancelled.threads = 3;
        cancelled.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled, analyseNetwork(resnet, cancelled));
    }

    /// A layer identical to an earlier one is analysed once and copied: each
    /// copy, under its own name, is what analyseLayer gives that layer alone.
    void twinLayersAnalysedAsAlone()
    {
        Network net = loadNetwork(sample("networks/resnet8.json"));
        net.layers.push_back(net.layers[1]);
        net.layers.back().name = "twin of " + net.layers[1].name;
        NetworkAnalysisOptions options;
        std::size_t last = 0;
        options.progress = [&last](std::size_t done, std::size_t) { last = done; };
        const NetworkAnalysis a = analyseNetwork(net, options);
        QCOMPARE(last, net.layers.size());
        for (const std::size_t i : {std::size_t(1), net.layers.size() - 1}) {
            const LayerAnalysis alone = analyseLayer(net.layers[i].name, net.problemOf(i), net.layers[i].strategies);
            QCOMPARE(a.layers[i].name, net.layers[i].name);
            QCOMPARE(a.layers[i].best, alone.best);
            QCOMPARE(a.layers[i].candidates.size(), alone.candidates.size());
            for (std::size_t c = 0; c < alone.candidates.size(); ++c)
                QVERIFY(a.layers[i].candidates[c].row == alone.candidates[c].row);
        }
        // A layer that differs in its own strategies is not a twin.
        net.layers.back().strategies.clear();
        const NetworkAnalysis b = analyseNetwork(net);
        const LayerAnalysis alone = analyseLayer("x", net.problemOf(net.layers.size() - 1), {});
        QCOMPARE(b.layers.back().candidates.size(), alone.candidates.size());
    }

    void toyNetworkByHand()
    {
        const Network n = networkFromJson(kNetworkText);
        const NetworkAnalysis a = analyseNetwork(n);
        QCOMPARE(a.layers.size(), std::size_t(2));
        const LayerAnalysis &la = a.layers[0], &lb = a.layers[1];
        QCOMPARE(la.kernels_fit, true);
        QCOMPARE(la.nb_patches_max, std::int64_t(4));
        QVERIFY(la.bestCandidate());
        QCOMPARE(la.bestCandidate()->row.name, std::string("Row-by-Row"));
        QCOMPARE(la.duration(), 10.0);
        QCOMPARE(la.candidates[0].row.total_duration, 13.0); // S1-baseline
        QCOMPARE(lb.nb_patches_max, std::int64_t(1));
        QCOMPARE(lb.candidates[0].row.name, std::string("G")); // the project's own first
        QCOMPARE(lb.candidates[0].row.total_duration, 23.0);
        QCOMPARE(lb.bestCandidate()->row.name, std::string("ZigZag"));
        QCOMPARE(lb.duration(), 22.0);
        QCOMPARE(lb.bestCandidate()->row.loaded_input, std::int64_t(10));
        QCOMPARE(lb.bestCandidate()->row.loaded_kernels, std::int64_t(4));
        QCOMPARE(lb.bestCandidate()->row.written, std::int64_t(4));
        QCOMPARE(a.total_duration, 32.0);
        QCOMPARE(a.layers_without_valid, std::int64_t(0));
        QCOMPARE(a.dominating, std::vector<std::size_t>{1});
        // Only the project's own strategies: layer a has none, so no best.
        NetworkAnalysisOptions own;
        own.generate = false;
        const NetworkAnalysis ownOnly = analyseNetwork(n, own);
        QCOMPARE(ownOnly.layers[0].bestCandidate() == nullptr, true);
        QCOMPARE(ownOnly.total_duration, 23.0);
        QCOMPARE(ownOnly.layers_without_valid, std::int64_t(1));
        QVERIFY(networkToReportText(ownOnly).find("total duration: 23 (incomplete: 1 layer has no valid strategy)\n")
            != std::string::npos);
    }

    void strategyFamilies()
    {
        for (const StrategyFamily f : kStrategyFamilies)
            QCOMPARE(strategyFamilyFromName(strategyFamilyName(f)), std::optional<StrategyFamily>(f));
        QCOMPARE(strategyFamilyName(StrategyFamily::KernelBlocked), std::string("kernel-blocked"));
        QVERIFY(!strategyFamilyFromName("groups"));
        QCOMPARE(strategyFamilyOf(StrategyKind::S1Baseline), StrategyFamily::Heuristic);
        QCOMPARE(strategyFamilyOf(StrategyKind::RowByRow), StrategyFamily::Heuristic);
        QCOMPARE(strategyFamilyOf(StrategyKind::ZigZag), StrategyFamily::Heuristic);
        QCOMPARE(strategyFamilyOf(StrategyKind::KernelBlocked), StrategyFamily::KernelBlocked);
        QCOMPARE(strategyFamilyOf(StrategyKind::Groups), StrategyFamily::Optimised);
        QCOMPARE(strategyFamilyOf(StrategyKind::Steps), StrategyFamily::Optimised);
    }

    // The toy by hand (toyNetworkByHand): b's heuristics' best is ZigZag
    // (22), its own explicit groups G are 23; a has heuristics only (10).
    void bestOfEachFamily()
    {
        const NetworkAnalysis a = analyseNetwork(networkFromJson(kNetworkText));
        const LayerAnalysis &la = a.layers[0], &lb = a.layers[1];
        QCOMPARE(la.bestOf(StrategyFamily::Heuristic)->row.total_duration, 10.0);
        QVERIFY(!la.bestOf(StrategyFamily::Optimised));
        QVERIFY(!la.bestOf(StrategyFamily::KernelBlocked));
        QCOMPARE(lb.bestOf(StrategyFamily::Heuristic)->spec.name, std::string("ZigZag"));
        QCOMPARE(lb.bestOf(StrategyFamily::Heuristic)->row.total_duration, 22.0);
        QCOMPARE(lb.bestOf(StrategyFamily::Optimised)->spec.name, std::string("G"));
        QCOMPARE(lb.bestOf(StrategyFamily::Optimised)->row.total_duration, 23.0);
        QVERIFY(!lb.bestOf(StrategyFamily::KernelBlocked));
    }

    // The budget shared in proportion to the best durations (a 10, b 22 of
    // 32): 32 s gives 10 and 22; 1.6 s gives 0.5 and 1.1; never under 0.05 s.
    void timeShares()
    {
        const NetworkAnalysis a = analyseNetwork(networkFromJson(kNetworkText));
        QCOMPARE(networkTimeShares(a, 32), (std::vector<double>{10, 22}));
        const std::vector<double> small = networkTimeShares(a, 1.6);
        QVERIFY(qFuzzyCompare(small[0], 0.5) && qFuzzyCompare(small[1], 1.1));
        QCOMPARE(networkTimeShares(a, 0.01), (std::vector<double>{0.05, 0.05}));
    }

    // Layer a's optimum is 10: each of its 4 pixels and its kernel loaded
    // once, 4 writes and at least 1 compute; b's is ZigZag's 22 (tst_network_cli).
    // What optimiseNetwork finds is added as a candidate under a unique
    // name, and its duration is what an independent simulation gives.
    void optimiseTheToy()
    {
        const Network n = networkFromJson(kNetworkText);
        NetworkAnalysis a = analyseNetwork(n);
        NetworkOptimiseOptions options;
        options.time_limit_s = 60;
        options.request.max_moves = 300;
        options.request.threads = 1;
        std::vector<std::size_t> started;
        options.progress = [&](const NetworkOptimiseProgress &p) {
            if (started.empty() || started.back() != p.layer)
                started.push_back(p.layer);
            QCOMPARE(p.count, std::size_t(2));
        };
        const NetworkOptimisation o = optimiseNetwork(a, options);
        QCOMPARE(started, (std::vector<std::size_t>{0, 1}));
        QCOMPARE(o.planned, std::size_t(2));
        QVERIFY(!o.cancelled);
        QCOMPARE(o.layers.size(), std::size_t(2));
        QCOMPARE(o.layers[0].duration, std::optional<double>(10.0));
        QVERIFY(o.layers[1].duration && *o.layers[1].duration >= 22.0);
        for (const LayerOptimisation &l : o.layers) {
            QCOMPARE(l.strategy->name, std::string("Optimised (search)"));
            QCOMPARE(a.layers[l.layer].candidates.back().spec, *l.strategy);
            const SimulationResult r = simulateStrategy(n.problemOf(l.layer), *l.strategy, {});
            QCOMPARE(r.totalDuration(), *l.duration);
            QVERIFY(!l.improved); // neither beats its heuristics
        }
        QCOMPARE(a.total_duration, 32.0);
        QCOMPARE(a.layers[0].bestOf(StrategyFamily::Optimised)->row.total_duration, 10.0);
        // Again: a second name.
        const NetworkOptimisation again = optimiseNetwork(a, options);
        QCOMPARE(again.layers[0].strategy->name, std::string("Optimised (search) 2"));
        // Stopped before it starts: nothing optimised.
        const std::atomic<bool> stop{true};
        options.cancel = &stop;
        const NetworkOptimisation stopped = optimiseNetwork(a, options);
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.layers.empty());
    }

    // 1x1x2 input, four 1x1 kernels, mem_size 4, nbop_pe 2: the kernels do
    // not fit (4 + 1 + 4 = 9 > 4), B_max = min(4, (4-1)/2, 2/1) = 1. With G =
    // 2/1 = 2 one step holds 2 pixels, a kernel and 2 outputs = 5 > 4: halved
    // to G = 1. Kernels outer (blocks k0: p0 p1, k1: p1 p0, k2: p0 p1, k3: p1
    // p0) loads 5 pixels and 4 kernels, writes 8, computes 8: 25, and pixel 0
    // is loaded 3 times (the reload bound 2 broken, a warning). Patches outer
    // (p0: k0..k3, p1: k3..k0) loads 2 pixels and 7 kernels: 25 as well.
    void kernelsThatDoNotFit()
    {
        Layer l;
        l.c_in = 1, l.h_in = 1, l.w_in = 2, l.n = 4;
        const Problem p{l, Hardware{4, 2, 1, 1, 1, 1000, 2}, Options{}};
        QCOMPARE(kernelsFitOnChip(p), false);
        QCOMPARE(largestKernelBlock(p), std::int64_t(1));
        const LayerAnalysis a = analyseLayer("tiny", p, {});
        QVERIFY(a.bestCandidate());
        const LayerCandidate &best = *a.bestCandidate();
        QCOMPARE(best.spec.kind, StrategyKind::KernelBlocked);
        QCOMPARE(best.spec.kernel_block, std::optional<std::int64_t>(1));
        QCOMPARE(best.spec.loop, KernelLoop::KernelsOuter);
        QCOMPARE(best.row.group_size, std::int64_t(1));
        QCOMPARE(best.row.total_duration, 25.0);
        QCOMPARE(best.row.loaded_input, std::int64_t(5));
        QCOMPARE(best.row.loaded_kernels, std::int64_t(4));
        QCOMPARE(best.row.peak_footprint, std::int64_t(3));
        QCOMPARE(best.broken.size(), std::size_t(1));
        QVERIFY(best.broken[0].rfind("reload-bound: ", 0) == 0);
        QVERIFY(best.broken[0].find("pixel (0,0): loaded 3 times") != std::string::npos);
        // The first try of each generator, G = 2, overflows the memory.
        QCOMPARE(a.candidates[0].row.valid, false);
        QCOMPARE(a.candidates[0].row.group_size, std::int64_t(2));
        QVERIFY(a.candidates[0].broken[0].rfind("memory-overflow: ", 0) == 0);
        // Patches-outer ties with it (its bound, 25, is not under the best,
        // so the analysis need not simulate it): each pixel once, the
        // kernels 4 + 3 times (the second group starts on the block the
        // first ended with).
        StrategySpec patchesOuter{"po", StrategyKind::KernelBlocked, std::nullopt, {}};
        patchesOuter.kernel_block = 1;
        patchesOuter.group_size = 1;
        patchesOuter.loop = KernelLoop::PatchesOuter;
        SimulationOptions quick;
        quick.functional = false;
        const SimulationResult po = simulateStrategy(p, patchesOuter, quick);
        QVERIFY(po.valid());
        QCOMPARE(po.totalDuration(), 25.0);
        QCOMPARE(po.loadedInput(), std::int64_t(2));
        QCOMPARE(po.loadedKernels(), std::int64_t(7));
        QCOMPARE(generatedLowerBound(p, patchesOuter), std::optional<double>(25.0));
        // No kernel fits at all: no strategy can be valid.
        const Problem none{l, Hardware{1, 2, 1, 1, 1, 1000, 2}, Options{}};
        QCOMPARE(largestKernelBlock(none), std::int64_t(0));
        QCOMPARE(generatedStrategies(none).empty(), true);
    }

    // The layer of issue 38 (docs/reference/cli.md#network): a 96×14×4
    // input, 96 kernels 3×1, stride 1, no padding, on resnet8's accelerator
    // (nbop_pe 73728, t_l = t_w = t_acc = 1). K = 96·3 = 288, so the kernels
    // fit from 96·288 + 288 + 96 = 28032 elements: not at 20 000, at 1 Mi.
    // Kernel-blocked, kernels outer, B = 4: G = 73728 / (288·4) = 64 ≥ the
    // 12·4 = 48 patches, one group and 24 blocks, so 24 steps that keep the
    // input: 96·14·4 = 5376 input loads, 96·288 = 27648 kernel loads, 48·96 =
    // 4608 writes, 24 computes: 37656. B = 4 is at most B_max at 20 000
    // (min(73728/288, (20000-288)/289, 96) = 68) and at 1 Mi (96): both bests
    // are at most 37656, and the one with more memory is no slower. No
    // strategy is under the lower bound 5376 + 27648 + 4608 + 1 = 37633.
    void moreMemoryNeverSlowerOnTheIssueLayer()
    {
        Layer l;
        l.c_in = 96, l.h_in = 14, l.w_in = 4, l.n = 96, l.h_k = 3, l.w_k = 1;
        const Hardware small{20000, 73728, 1, 1, 1, 100000000, 2};
        Hardware large = small;
        large.mem_size = 1 << 20;
        const Problem atSmall{l, small, Options{}}, atLarge{l, large, Options{}};
        QCOMPARE(kernelsFitOnChip(atSmall), false);
        QCOMPARE(kernelsFitOnChip(atLarge), true);
        const StrategySpec b4 = kernelBlockedSpec({KernelLoop::KernelsOuter, PatchOrder::ZigZag, 4, 64}, "B=4");
        const SimulationResult r = simulateStrategy(atLarge, b4, {});
        QVERIFY(r.valid());
        QCOMPARE(r.totalDuration(), 37656.0);
        const LayerAnalysis a = analyseLayer("issue", atSmall, {}), b = analyseLayer("issue", atLarge, {});
        QVERIFY(a.bestCandidate() && b.bestCandidate());
        QVERIFY2(a.duration() <= 37656.0, std::to_string(a.duration()).c_str());
        QVERIFY2(b.duration() <= a.duration(), (std::to_string(b.duration()) + " > " + std::to_string(a.duration())).c_str());
        QVERIFY(b.duration() >= 37633.0);
        QCOMPARE(durationLowerBound(atLarge, 1), 37633.0);
        // With the kernels on chip, the kernel-blocked family is still tried.
        QVERIFY(b.bestOf(StrategyFamily::KernelBlocked));
        QVERIFY(b.bestOf(StrategyFamily::Heuristic));
    }

    void moreMemoryNeverSlower_data()
    {
        QTest::addColumn<unsigned>("seed");
        for (unsigned seed = 1; seed <= 6; ++seed)
            QTest::newRow(("seed " + std::to_string(seed)).c_str()) << seed;
    }

    // Random small layers and accelerators: at twice the memory a layer's
    // best is never slower (nor missing). Independently of the analysis's
    // pruning: its best is the shortest valid strategy of every generated
    // spec at every group size of its chain (the op limit's G, G/4, G/16, …
    // and 1), each simulated here, and no valid candidate is under
    // durationLowerBound.
    void moreMemoryNeverSlower()
    {
        QFETCH(unsigned, seed);
        std::mt19937 rng(seed);
        const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        int checked = 0;
        while (checked < 25) {
            Layer l;
            l.c_in = pick(1, 3), l.h_in = pick(2, 6), l.w_in = pick(2, 6), l.n = pick(1, 8);
            l.h_k = pick(1, std::min(3, l.h_in)), l.w_k = pick(1, std::min(3, l.w_in));
            l.stride_h = pick(1, 2), l.stride_w = pick(1, 2);
            l.pad_top = pick(0, 1), l.pad_bottom = pick(0, 1), l.pad_left = pick(0, 1), l.pad_right = pick(0, 1);
            // A third grouped (the divisors make some depthwise), some dilated.
            if (pick(0, 2) == 0) {
                l.group = pick(2, 3);
                l.c_in *= l.group;
                l.n = l.group * pick(1, 3);
            }
            l.dilation_h = pick(0, 3) == 0 ? 2 : 1;
            l.dilation_w = pick(0, 3) == 0 ? 2 : 1;
            if (!l.problems().empty())
                continue;
            const std::int64_t k = l.kernelElements();
            Hardware hw;
            hw.nbop_pe = k * pick(1, 3 * l.n);
            // Mostly below the kernels' N·K + K + N, so that twice as much
            // often makes them fit and brings the S1 heuristics in.
            hw.mem_size = pick(int(k) + 2, int(l.n * k + k + l.n + l.c_in * l.h_in * l.w_in));
            hw.t_l = 1, hw.t_w = pick(0, 1), hw.t_acc = pick(1, 3);
            hw.max_loads_per_element = 2;
            const Options options{
                pick(0, 1) == 1, pick(0, 1) ? WritePolicy::AsLateAsPossible : WritePolicy::NextStep, pick(0, 1) == 1};
            const Problem p{l, hw, options};
            if (!hw.problems().empty())
                continue;
            Hardware twice = hw;
            twice.mem_size = 2 * hw.mem_size;
            const Problem p2{l, twice, options};
            const LayerAnalysis a = analyseLayer("l", p, {}), b = analyseLayer("l", p2, {});
            const std::string what = "layer " + std::to_string(checked) + " mem " + std::to_string(hw.mem_size);
            if (a.bestCandidate()) {
                QVERIFY2(b.bestCandidate(), what.c_str());
                QVERIFY2(b.duration() <= a.duration(), what.c_str());
            }
            for (const LayerAnalysis *x : {&a, &b}) {
                double shortest = -1;
                for (const StrategySpec &spec : generatedStrategies(x->problem)) {
                    const std::int64_t head = spec.kind == StrategyKind::S1Baseline ? 1
                        : spec.kind == StrategyKind::KernelBlocked ? kernelBlockedGroupSize(x->problem, *spec.kernel_block)
                                                                   : x->problem.nbPatchesMax();
                    for (std::int64_t g = head; g >= 1; g = g > 1 && g < 4 ? 1 : g / 4) {
                        StrategySpec s = spec;
                        if (spec.kind != StrategyKind::S1Baseline)
                            s.group_size = g;
                        SimulationOptions o;
                        o.functional = false;
                        try {
                            const SimulationResult r = simulateStrategy(x->problem, s, o);
                            if (r.valid() && (shortest < 0 || r.totalDuration() < shortest))
                                shortest = r.totalDuration();
                        } catch (const StrategyError &) { // not a strategy of this layer: no candidate either
                        }
                    }
                }
                QCOMPARE(x->bestCandidate() ? x->duration() : -1.0, shortest);
                for (const LayerCandidate &c : x->candidates)
                    if (c.row.valid && c.row.failure.empty())
                        QVERIFY2(durationLowerBound(x->problem, c.row.steps) <= c.row.total_duration, what.c_str());
            }
            ++checked;
        }
    }

    // The reasons the ONNX import writes for ONNX's conformance models
    // (the cases of tst_onnx's `refused`), each in its category.
    void skippedCategories_data()
    {
        QTest::addColumn<std::string>("dir");
        QTest::addColumn<std::string>("category");
        QTest::newRow("3-D") << std::string("pytorch-converted/test_Conv3d") << std::string("3-D convolution");
        QTest::newRow("3-D grouped") << std::string("pytorch-converted/test_Conv3d_groups") << std::string("3-D convolution");
        QTest::newRow("3-D dilated") << std::string("pytorch-converted/test_Conv3d_dilated") << std::string("3-D convolution");
        QTest::newRow("transposed") << std::string("node/test_convtranspose") << std::string("transposed convolution");
    }

    void skippedCategories()
    {
        QFETCH(std::string, dir);
        QFETCH(std::string, category);
        if (std::string(CONVOFFLOAD_ONNX_TESTDATA).empty())
            QSKIP("ONNX's test data is not installed");
        const NetworkImport net = importOnnx(std::string(CONVOFFLOAD_ONNX_TESTDATA) + "/" + dir + "/model.onnx");
        QCOMPARE(net.skipped.size(), std::size_t(1));
        QCOMPARE(skippedCategory(net.skipped[0].reason), category);
        QCOMPARE(skippedCategory("the weights 'w' are neither an initializer nor a bound input"),
            std::string("weights computed at run time"));
        // A hand-written network file's reason may say nothing.
        QCOMPARE(skippedCategory(""), std::string("no reason given"));
        QCOMPARE(skippedCategory(" (group = 2)"), std::string("no reason given"));
    }

    // The toy (toyNetworkByHand: 10 + 22 = 32) with four convolutions the
    // import skipped, three 3-D and one transposed: 6 convolutions, 2
    // imported, not complete, though both layers have a valid best.
    void skippedConvolutionsInTheReport()
    {
        if (std::string(CONVOFFLOAD_ONNX_TESTDATA).empty())
            QSKIP("ONNX's test data is not installed");
        Network n = networkFromJson(kNetworkText);
        for (const char *dir : {"pytorch-converted/test_Conv3d", "pytorch-converted/test_ConvTranspose2d",
                 "pytorch-converted/test_Conv3d_groups", "pytorch-converted/test_Conv3d_dilated"})
            for (const SkippedNode &s : importOnnx(std::string(CONVOFFLOAD_ONNX_TESTDATA) + "/" + dir + "/model.onnx").skipped)
                n.skipped.push_back(SkippedConv{s.node, s.reason});
        const NetworkAnalysis a = analyseNetwork(n);
        QCOMPARE(a.layers_without_valid, std::int64_t(0));
        QCOMPARE(a.convolutions(), std::int64_t(6));
        QCOMPARE(a.complete(), false);
        const nlohmann::ordered_json j = networkToReportJson(a);
        QCOMPARE(j["convolutions"].get<std::int64_t>(), std::int64_t(6));
        QCOMPARE(j["imported"].get<std::int64_t>(), std::int64_t(2));
        QCOMPARE(j["complete"].get<bool>(), false);
        QCOMPARE(j["skipped_by_reason"].dump(), std::string(R"({"3-D convolution":3,"transposed convolution":1})"));
        QCOMPARE(j["total_duration"].get<double>(), 32.0);
        const std::string text = networkToReportText(a);
        QVERIFY2(text.find("total duration: 32 (incomplete: 4 of 6 convolutions skipped by the import)\n"
                           "2 of 6 convolutions; skipped: 3 3-D convolution, 1 transposed convolution\n")
                != std::string::npos,
            text.c_str());
        const std::string csv = networkToReportCsv(a);
        QVERIFY2(csv.find("\n(total),,,,,,,,,,,,,,,,,2 of 6 convolutions,,,,,no,32,,,,,1\n") != std::string::npos, csv.c_str());
        // Without them: complete, 2 of 2.
        n.skipped.clear();
        const NetworkAnalysis whole = analyseNetwork(n);
        QCOMPARE(whole.complete(), true);
        QCOMPARE(networkToReportJson(whole)["skipped_by_reason"].dump(), std::string("{}"));
        QVERIFY(networkToReportText(whole).find("total duration: 32\n2 of 2 convolutions\n") != std::string::npos);
    }

    // The bound network orders and skips generated candidates by, against
    // the simulator: equal to the duration under the linear cost (the input
    // and kernel loads are counted exactly, whatever the write policy),
    // never above it with a transfer model; none for other specs.
    void generatedBoundIsTheSimulatedDuration()
    {
        std::mt19937 rng(4242);
        const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        int equal = 0, below = 0;
        for (int i = 0; i < 600; ++i) {
            Problem p;
            Layer &l = p.layer;
            l.c_in = uniform(1, 3);
            l.n = uniform(1, 9);
            l.h_in = uniform(2, 12);
            l.w_in = uniform(2, 12);
            l.h_k = uniform(1, std::min(3, l.h_in));
            l.w_k = uniform(1, std::min(3, l.w_in));
            l.stride_h = uniform(1, 2);
            l.stride_w = uniform(1, 2);
            l.pad_top = uniform(0, 1);
            l.pad_left = uniform(0, 1);
            l.pad_bottom = uniform(0, 1);
            l.pad_right = uniform(0, 1);
            l.dilation_w = l.w_k == 1 ? uniform(1, 2) : 1;
            p.hardware.mem_size = 1 << 30;
            p.hardware.nbop_pe = std::int64_t(uniform(1, 5)) * l.n * l.kernelElements();
            p.hardware.t_l = uniform(1, 3);
            p.hardware.t_w = uniform(1, 3);
            p.hardware.t_acc = uniform(1, 9);
            p.options.padding_in_dram = uniform(0, 1) == 1;
            p.options.kernels_preloaded = uniform(0, 1) == 1;
            p.options.write_policy = uniform(0, 1) ? WritePolicy::AsLateAsPossible : WritePolicy::NextStep;
            const bool linear = uniform(0, 3) > 0;
            if (!linear)
                p.hardware.transfer = Transfer{uniform(0, 1) ? Layout::Nhwc : Layout::Nchw, 4, 7};
            StrategySpec spec;
            spec.name = "s";
            switch (uniform(0, 3)) {
            case 0:
                spec.kind = uniform(0, 1) ? StrategyKind::RowByRow : StrategyKind::S1Baseline;
                break;
            case 1:
                spec.kind = StrategyKind::ZigZag;
                if (uniform(0, 1))
                    spec.group_size = uniform(1, 7);
                break;
            default:
                spec.kind = StrategyKind::KernelBlocked;
                spec.kernel_block = uniform(1, l.n);
                if (uniform(0, 1))
                    spec.group_size = uniform(1, 7);
                spec.order = uniform(0, 1) ? PatchOrder::ZigZag : PatchOrder::RowByRow;
                spec.loop = uniform(0, 1) ? KernelLoop::KernelsOuter : KernelLoop::PatchesOuter;
            }
            const std::optional<double> bound = generatedLowerBound(p, spec);
            if (spec.kind == StrategyKind::KernelBlocked && kernelBlockedGroupSize(p, *spec.kernel_block) < 1
                && !spec.group_size) {
                QVERIFY(!bound); // no patch fits a step: nothing to bound
                continue;
            }
            QVERIFY(bound);
            SimulationOptions o;
            o.functional = false;
            const double duration = simulateStrategy(p, spec, o).totalDuration();
            const QString where = QStringLiteral("case %1 (%2): bound %3, simulated %4")
                                      .arg(i)
                                      .arg(QString::fromStdString(strategyKindName(spec.kind)))
                                      .arg(*bound)
                                      .arg(duration);
            if (linear) {
                QVERIFY2(*bound == duration, qPrintable(where));
                ++equal;
            } else {
                QVERIFY2(*bound <= duration, qPrintable(where));
                below += *bound < duration;
            }
        }
        QVERIFY(equal > 300 && below > 50);
        Problem p;
        QVERIFY(!generatedLowerBound(p, {"steps", StrategyKind::Steps, std::nullopt, {}}));
        p.layer.c_in = p.layer.n = p.layer.group = 2;
        StrategySpec grouped{"g", StrategyKind::KernelBlocked, std::nullopt, {}};
        grouped.kernel_block = 1;
        QVERIFY(!generatedLowerBound(p, grouped));
    }

    // network --csv names each layer's group and dilations (the mobile
    // network's depthwise layers have g = C_in), as the network file holds them.
    void csvCarriesGroupAndDilation()
    {
        Network n = loadNetwork(sample("networks/mobilenet-tiny.json"));
        // A dilated one too: a 1x1 kernel spans one pixel whatever its dilation.
        const auto pointwise
            = std::find_if(n.layers.begin(), n.layers.end(), [](const NetworkLayer &l) { return l.layer.w_k == 1; });
        QVERIFY(pointwise != n.layers.end());
        pointwise->layer.dilation_w = 2;
        NetworkAnalysisOptions o;
        o.generate = false;
        const NetworkAnalysis a = analyseNetwork(n, o);
        std::istringstream csv(networkToReportCsv(a));
        std::string line;
        std::getline(csv, line);
        const auto fields = [](const std::string &text) {
            std::vector<std::string> out;
            std::istringstream in(text);
            for (std::string f; std::getline(in, f, ',');)
                out.push_back(f);
            return out;
        };
        const std::vector<std::string> header = fields(line);
        const auto column
            = [&](const char *name) { return std::size_t(std::find(header.begin(), header.end(), name) - header.begin()); };
        QCOMPARE(header[column("group")], std::string("group"));
        int grouped = 0;
        for (const NetworkLayer &layer : n.layers) {
            QVERIFY(std::getline(csv, line));
            const std::vector<std::string> row = fields(line);
            QCOMPARE(row[0], layer.name);
            QCOMPARE(row[column("group")], std::to_string(layer.layer.group));
            QCOMPARE(row[column("dilation_h")], std::to_string(layer.layer.dilation_h));
            QCOMPARE(row[column("dilation_w")], std::to_string(layer.layer.dilation_w));
            grouped += layer.layer.group > 1;
        }
        QVERIFY(grouped > 0);
    }

    void samplesAreWhatTheGeneratorMakes()
    {
        QCOMPARE(readBytes(sample("networks/lenet5.onnx")) == samples::lenet5Model(), true);
        QCOMPARE(readBytes(sample("networks/resnet8.onnx")) == samples::resnet8Model(), true);
        QCOMPARE(readBytes(sample("networks/mobilenet-tiny.onnx")) == samples::mobileNetModel(), true);
    }

    // The committed network projects are what the import makes of the
    // committed models with the hardware next to them (as import-onnx does).
    void sampleNetworksAreTheirImport_data()
    {
        QTest::addColumn<std::string>("network");
        for (const char *name : {"lenet5", "resnet8", "mobilenet-tiny"})
            QTest::newRow(name) << std::string(name);
    }

    void sampleNetworksAreTheirImport()
    {
        QFETCH(std::string, network);
        const std::string base = sample("networks/" + network);
        const Network imported
            = networkFromImport(importOnnx(base + ".onnx"), loadAccelerator(base + "-hardware.json"), true, network + ".onnx");
        QCOMPARE(loadNetwork(base + ".json") == imported, true);
    }

    // The imported networks' layers are the single-layer samples' layers.
    void samplesAgreeWithSingleLayerSamples_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("project");
        QTest::newRow("lenet5 conv1") << "lenet5"
                                      << "conv1"
                                      << "lenet5-conv1.json";
        QTest::newRow("lenet5 conv2") << "lenet5"
                                      << "conv2"
                                      << "lenet5-conv2.json";
        QTest::newRow("resnet8 conv1") << "resnet8"
                                       << "conv1"
                                       << "resnet8-conv1.json";
        QTest::newRow("resnet8 stage1 conv1") << "resnet8"
                                              << "stage1_conv1"
                                              << "resnet8-stage1-conv.json";
        QTest::newRow("resnet8 stage1 conv2") << "resnet8"
                                              << "stage1_conv2"
                                              << "resnet8-stage1-conv.json";
        QTest::newRow("resnet8 stage2 conv1") << "resnet8"
                                              << "stage2_conv1"
                                              << "resnet8-stage2-conv1.json";
        QTest::newRow("resnet8 stage2 shortcut") << "resnet8"
                                                 << "stage2_shortcut"
                                                 << "resnet8-stage2-shortcut.json";
        QTest::newRow("resnet8 stage3 conv2") << "resnet8"
                                              << "stage3_conv2"
                                              << "resnet8-stage3-conv2.json";
    }

    void samplesAgreeWithSingleLayerSamples()
    {
        QFETCH(QString, network);
        QFETCH(QString, layer);
        QFETCH(QString, project);
        const std::string base = sample("networks/" + network.toStdString());
        const Network imported = networkFromImport(
            importOnnx(base + ".onnx"), loadAccelerator(base + "-hardware.json"), true, network.toStdString() + ".onnx");
        const std::ptrdiff_t i = imported.findLayer(layer.toStdString());
        QVERIFY(i >= 0);
        QCOMPARE(imported.layers[std::size_t(i)].layer == loadProject(sample(project.toStdString())).problem.layer, true);
        // The committed network project is this import.
        QCOMPARE(loadNetwork(base + ".json") == imported, true);
    }

    // Every strategy an import stores runs within the memory. Worked out by
    // hand for resnet8's stage3_conv2 (64x8x8, 64 kernels 64x3x3, pads 1,
    // mem_size 20000, nbop_pe 73728): the largest block is B = 33 (33·576 =
    // 19008 kernel elements), and the op limit's G = 73728 / (576·33) = 3
    // puts three neighbouring windows (3x5 pixels x 64 channels = 960) and
    // 99 outputs beside the kernels: 20067 > 20000. Two windows take
    // 3x4x64 = 768 and 66 outputs: 19842, so G = 2.
    void importedStrategiesFitTheMemory()
    {
        for (const std::string name : {"lenet5", "resnet8", "mobilenet-tiny"}) {
            const std::string base = sample("networks/" + name);
            const Network n = networkFromImport(importOnnx(base + ".onnx"), loadAccelerator(base + "-hardware.json"), true, "m");
            for (std::size_t i = 0; i < n.layers.size(); ++i)
                for (const StrategySpec &spec : n.layers[i].strategies) {
                    SimulationOptions options;
                    options.trace = false;
                    const SimulationResult r = simulateStrategy(n.problemOf(i), spec, options);
                    const bool overflows = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                        [](const Diagnostic &d) { return d.rule == Rule::MemoryOverflow; });
                    QVERIFY2(!overflows, (n.layers[i].name + ": " + spec.name).c_str());
                }
            if (name != "resnet8")
                continue;
            const NetworkLayer &s3 = n.layers[std::size_t(n.findLayer("stage3_conv2"))];
            QCOMPARE(s3.strategies.size(), std::size_t(2));
            for (const StrategySpec &spec : s3.strategies) {
                QCOMPARE(spec.kernel_block, std::optional<std::int64_t>(33));
                QCOMPARE(spec.group_size, std::optional<std::int64_t>(2));
            }
        }
    }

    void sampleNetworksHaveEveryConvolution()
    {
        const Network lenet = loadNetwork(sample("networks/lenet5.json"));
        QCOMPARE(lenet.layers.size(), std::size_t(2));
        const Network resnet = loadNetwork(sample("networks/resnet8.json"));
        QCOMPARE(resnet.layers.size(), std::size_t(9)); // conv1, 2 + 3 + 3 in the stages (two shortcuts)
        QCOMPARE(resnet.skipped.empty(), true);
        // stage3_conv2's 64 kernels of 64x3x3 (36864 elements) exceed mem_size 20000.
        const std::ptrdiff_t s3 = resnet.findLayer("stage3_conv2");
        QCOMPARE(kernelsFitOnChip(resnet.problemOf(std::size_t(s3))), false);
        QCOMPARE(resnet.layers[std::size_t(s3)].strategies.front().kind, StrategyKind::KernelBlocked);
    }

    // mobilenet-tiny's eight convolutions, their shapes worked out by hand
    // from the model (tools/onnx-networks: 3x64x64, stem 16@3x3 s2 p1 ->
    // 16x32x32; block1 depthwise 16 + pointwise 16->24 at 32x32; block2
    // depthwise 24 s2 p1 -> 24x16x16 + pointwise 24->32; dilated 32@3x3 d2 p2
    // keeps 16x16; block3 depthwise 32 + pointwise 32->64): every Conv
    // imported, the groups and dilations kept.
    void mobileNetHasEveryConvolution()
    {
        const Network net = loadNetwork(sample("networks/mobilenet-tiny.json"));
        QCOMPARE(net.skipped.empty(), true);
        const auto layer = [](int c, int hw, int n, int k, int stride, int pad, int group, int dilation) {
            Layer l;
            l.c_in = c, l.h_in = hw, l.w_in = hw, l.h_k = k, l.w_k = k, l.n = n;
            l.stride_h = l.stride_w = stride;
            l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = pad;
            l.group = group;
            l.dilation_h = l.dilation_w = dilation;
            return l;
        };
        const std::vector<std::pair<std::string, Layer>> expected{
            {"stem", layer(3, 64, 16, 3, 2, 1, 1, 1)},
            {"block1_dw", layer(16, 32, 16, 3, 1, 1, 16, 1)},
            {"block1_pw", layer(16, 32, 24, 1, 1, 0, 1, 1)},
            {"block2_dw", layer(24, 32, 24, 3, 2, 1, 24, 1)},
            {"block2_pw", layer(24, 16, 32, 1, 1, 0, 1, 1)},
            {"dilated", layer(32, 16, 32, 3, 1, 2, 1, 2)},
            {"block3_dw", layer(32, 16, 32, 3, 1, 1, 32, 1)},
            {"block3_pw", layer(32, 16, 64, 1, 1, 0, 1, 1)},
        };
        QCOMPARE(net.layers.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(net.layers[i].name, expected[i].first);
            QVERIFY2(net.layers[i].layer == expected[i].second, expected[i].first.c_str());
        }
        // The depthwise layers' outputs keep their size: 32x32 after the
        // stem and block1, 16x16 after block2's stride 2 and the dilated
        // 3x3 (its 5x5 reach with pads 2).
        QCOMPARE(net.layers[1].layer.outputCount(), std::int64_t(16 * 32 * 32));
        QCOMPARE(net.layers[3].layer.outputCount(), std::int64_t(24 * 16 * 16));
        QCOMPARE(net.layers[5].layer.outputCount(), std::int64_t(32 * 16 * 16));
    }

    void importWithoutStrategies()
    {
        const Network n = networkFromImport(
            importOnnx(sample("networks/lenet5.onnx")), loadAccelerator(sample("networks/lenet5-hardware.json")), false, "x");
        for (const NetworkLayer &l : n.layers)
            QCOMPARE(l.strategies.empty(), true);
    }

    void importWithNothingUsable()
    {
        NetworkImport none;
        none.skipped.push_back(SkippedNode{"c", "dilations 2x2: the layer model has no dilation"});
        try {
            networkFromImport(none, Accelerator{}, true, "m.onnx");
            QFAIL("accepted");
        } catch (const FormatError &e) {
            QCOMPARE(e.where, std::string("m.onnx"));
            QVERIFY2(e.reason.find("1 skipped (1 dilations 2x2; first: c, dilations") != std::string::npos, e.what());
        }
    }

    void acceleratorFile()
    {
        const Accelerator a = acceleratorFromJson(R"({"hardware": {"mem_size": 7, "nbop_pe": 9, "t_w": 0}})");
        QCOMPARE(a.hardware.mem_size, std::int64_t(7));
        QCOMPARE(a.hardware.t_w, 0.0);
        QCOMPARE(a.options == Options{}, true);
        // Any project file serves too.
        QCOMPARE(
            loadAccelerator(sample("lenet5-conv1.json")).hardware == loadProject(sample("lenet5-conv1.json")).problem.hardware,
            true);
        try {
            acceleratorFromJson(R"({"hardware": {"mem_size": 7}})");
            QFAIL("accepted");
        } catch (const FormatError &e) {
            QCOMPARE(e.where, std::string("hardware.nbop_pe"));
        }
        try {
            acceleratorFromJson(R"({"hardware": {"mem_size": 7, "nbop_pe": 1}, "layer": {}})");
            QFAIL("accepted");
        } catch (const FormatError &e) {
            QCOMPARE(e.where, std::string("layer"));
        }
    }
};

QTEST_APPLESS_MAIN(TestNetwork)
#include "tst_network.moc"
