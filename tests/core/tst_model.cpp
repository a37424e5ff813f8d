// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The model (docs/reference/model.md, strategies.md): layer geometry, S1 generators, the expansion into
// steps and the paper's Example, with every expected value worked out by hand
// (see the comments) rather than taken from the code.

#include "convoffload/model/Problem.h"
#include "TestProblems.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

#include "TestPrinting.h"

#include <QTest>

using namespace convoffload;

Q_DECLARE_METATYPE(convoffload::Groups)
Q_DECLARE_METATYPE(convoffload::Layer)
Q_DECLARE_METATYPE(std::vector<convoffload::PixelId>)

namespace {

Problem paperExample() { return paperExampleProblem(); }

std::vector<PixelId> pixels(const Layer &l, std::initializer_list<std::pair<int, int>> rc)
{
    std::vector<PixelId> out;
    for (auto [r, c] : rc)
        out.push_back(pixelId(l, r, c));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestModel : public QObject {
    Q_OBJECT
private slots:
    void outputShape_data()
    {
        QTest::addColumn<Layer>("layer");
        QTest::addColumn<int>("hOut");
        QTest::addColumn<int>("wOut");
        // floor((H_in - H_K + p_t + p_b) / s_h) + 1, worked by hand.
        QTest::newRow("paper 5x5 k3 s1") << Layer{2, 5, 5, 3, 3, 2, 1, 1, 0, 0, 0, 0} << 3 << 3;
        QTest::newRow("lenet conv1") << Layer{1, 32, 32, 5, 5, 6, 1, 1, 0, 0, 0, 0} << 28 << 28;
        QTest::newRow("same padding") << Layer{3, 32, 32, 3, 3, 16, 1, 1, 1, 1, 1, 1} << 32 << 32;
        QTest::newRow("stride 2 asym pad") << Layer{16, 32, 32, 3, 3, 32, 2, 2, 0, 1, 0, 1} << 16 << 16;
        QTest::newRow("stride 3 rect") << Layer{1, 10, 7, 2, 3, 1, 3, 2, 0, 0, 1, 0} << 3 << 3;
        QTest::newRow("kernel = input") << Layer{1, 4, 4, 4, 4, 1, 1, 1, 0, 0, 0, 0} << 1 << 1;
    }
    void outputShape()
    {
        QFETCH(Layer, layer);
        QFETCH(int, hOut);
        QFETCH(int, wOut);
        QCOMPARE(layer.hOut(), hOut);
        QCOMPARE(layer.wOut(), wOut);
        QCOMPARE(layer.patchCount(), qint64(hOut) * wOut);
        QVERIFY(layer.problems().empty());
    }

    void layerProblems_data()
    {
        QTest::addColumn<Layer>("layer");
        QTest::addColumn<QString>("field");
        QTest::newRow("zero channels") << Layer{0, 5, 5, 3, 3, 1, 1, 1, 0, 0, 0, 0} << "c_in";
        QTest::newRow("kernel too tall") << Layer{1, 5, 5, 6, 3, 1, 1, 1, 0, 0, 0, 0} << "h_k";
        QTest::newRow("kernel too wide after padding") << Layer{1, 5, 5, 3, 8, 1, 1, 1, 0, 0, 1, 1} << "w_k";
        QTest::newRow("negative padding") << Layer{1, 5, 5, 3, 3, 1, 1, 1, -1, 0, 0, 0} << "pad_top";
        QTest::newRow("zero stride") << Layer{1, 5, 5, 3, 3, 1, 0, 1, 0, 0, 0, 0} << "stride_h";
        QTest::newRow("huge dimension") << Layer{1, 5000000, 5, 3, 3, 1, 1, 1, 0, 0, 0, 0} << "h_in";
        QTest::newRow("too many pixels") << Layer{1, 100000, 100000, 3, 3, 1, 1, 1, 0, 0, 0, 0} << "h_in";
        QTest::newRow("too many outputs") << Layer{1, 4000, 4000, 1, 1, 1000, 1, 1, 0, 0, 0, 0} << "n";
    }
    void layerProblems()
    {
        QFETCH(Layer, layer);
        QFETCH(QString, field);
        const auto problems = layer.problems();
        QVERIFY(!problems.empty());
        QVERIFY2(QString::fromStdString(problems.front()).startsWith(field + QLatin1String(":")), problems.front().c_str());
    }

    void s1Figures()
    {
        Problem p = paperExample();
        QCOMPARE(p.nbPatchesMax(), 2); // floor(72 / 36)
        QCOMPARE(p.kMin(), 5); // ceil(9 / 2)
        QCOMPARE(p.kMax(), 9);
        p.hardware.nbop_pe = 120; // the paper's text: floor(120 / 36) = 3
        QCOMPARE(p.nbPatchesMax(), 3);
        QCOMPARE(p.kMin(), 3);
        p.hardware.nbop_pe = 35;
        QCOMPARE(p.nbPatchesMax(), 0);
        QCOMPARE(p.kMin(), 0);
        QVERIFY_THROWS_EXCEPTION(StrategyError, groupsOf(p, {"Z", StrategyKind::ZigZag, std::nullopt, {}}));
    }

    void generators_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<Groups>("expected");
        // Output grid 3x3, ids row-major: 0 1 2 / 3 4 5 / 6 7 8.
        QTest::newRow("row-by-row G2") << int(StrategyKind::RowByRow) << 2 << Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8}};
        QTest::newRow("zigzag G2") << int(StrategyKind::ZigZag) << 2 << Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}};
        QTest::newRow("zigzag G4") << int(StrategyKind::ZigZag) << 4 << Groups{{0, 1, 2, 5}, {4, 3, 6, 7}, {8}};
        QTest::newRow("zigzag G3 = row-by-row") << int(StrategyKind::ZigZag) << 3 << Groups{{0, 1, 2}, {5, 4, 3}, {6, 7, 8}};
        QTest::newRow("s1-baseline") << int(StrategyKind::S1Baseline) << 0 << Groups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
        QTest::newRow("row-by-row G9") << int(StrategyKind::RowByRow) << 9 << Groups{{0, 1, 2, 3, 4, 5, 6, 7, 8}};
    }
    void generators()
    {
        QFETCH(int, kind);
        QFETCH(int, groupSize);
        QFETCH(Groups, expected);
        StrategySpec spec{"s", StrategyKind(kind), groupSize > 0 ? std::optional<std::int64_t>(groupSize) : std::nullopt, {}};
        QCOMPARE(groupsOf(paperExample(), spec), expected);
    }

    void groupSizeDefaultsToNbPatchesMax()
    {
        const Groups g = groupsOf(paperExample(), {"z", StrategyKind::ZigZag, std::nullopt, {}});
        QCOMPARE(g.size(), std::size_t(5));
        QCOMPARE(g[1], (Group{2, 5}));
    }

    void badGroups()
    {
        const Problem p = paperExample();
        QVERIFY_THROWS_EXCEPTION(StrategyError, groupsOf(p, {"g", StrategyKind::Groups, std::nullopt, {{0, 1}, {9}}}));
        QVERIFY_THROWS_EXCEPTION(StrategyError, groupsOf(p, {"g", StrategyKind::Groups, std::nullopt, {{0, 1}, {}}}));
        QVERIFY_THROWS_EXCEPTION(StrategyError, groupsOf(p, {"g", StrategyKind::Groups, std::nullopt, {}}));
        QVERIFY_THROWS_EXCEPTION(StrategyError, groupsOf(p, {"r", StrategyKind::RowByRow, 0, {}}));
        try {
            groupsOf(p, {"Mine", StrategyKind::Groups, std::nullopt, {{0, 1}, {12}}});
        } catch (const StrategyError &e) {
            QVERIFY2(std::string(e.what()).find("'Mine'") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("patch 12") != std::string::npos, e.what());
        }
    }

    // The paper's Example at step 2 (Section 4), in elements (C_in = 2).
    void paperExampleStep2_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<std::vector<PixelId>>("freed");
        QTest::addColumn<std::vector<PixelId>>("loaded");
        QTest::addColumn<qint64>("inputFootprint");
        const Layer l = paperExample().layer;
        QTest::newRow("row-by-row") << int(StrategyKind::RowByRow) << pixels(l, {{0, 0}, {0, 1}})
                                    << pixels(l, {{0, 4}, {1, 4}, {2, 4}, {3, 0}, {3, 1}, {3, 2}}) << qint64(32);
        QTest::newRow("zigzag") << int(StrategyKind::ZigZag) << pixels(l, {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}})
                                << pixels(l, {{0, 4}, {1, 4}, {2, 4}, {3, 4}, {3, 3}, {3, 2}}) << qint64(24);
    }
    void paperExampleStep2()
    {
        QFETCH(int, kind);
        QFETCH(std::vector<PixelId>, freed);
        QFETCH(std::vector<PixelId>, loaded);
        QFETCH(qint64, inputFootprint);
        const Problem p = paperExample();
        const StepList steps = expandS1(p, groupsOf(p, {"s", StrategyKind(kind), 2, {}}));
        QCOMPARE(steps.size(), std::size_t(6)); // 5 groups + the drain
        QCOMPARE(steps[1].free_input, freed);
        QCOMPARE(steps[1].load_input, loaded);
        QVERIFY(steps[1].load_kernels.empty());
        QVERIFY(steps[1].free_kernels.empty());
        // W_2 = outputs of g_1 = patches 0 and 1 with both kernels: O[0,0,0], O[1,0,0], O[0,0,1], O[1,0,1].
        QCOMPARE(steps[1].write, (std::vector<OutputId>{0, 1, 2, 3}));

        const SimulationResult r = simulate(p, steps);
        QVERIFY(r.valid());
        const StepStats &s2 = r.steps[1];
        QCOMPARE(s2.loaded_input, 12);
        QCOMPARE(s2.written, 4);
        QCOMPARE(s2.after.input, inputFootprint);
        QCOMPARE(r.trace.record(1, Action::LoadInput).after.input, inputFootprint);
        // 12 elements loaded · t_l + 4 written · t_w + t_acc
        QCOMPARE(s2.duration(), 17.0);
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
    }

    // Whole-strategy totals worked by hand from the pixel sets of each group:
    // Row-by-Row loads 12+6+2+6+3 = 29 pixels, ZigZag 12+6+6+4+3 = 31.
    void paperExampleTotals_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("loadedPixels");
        QTest::addColumn<qint64>("peak");
        // Row-by-Row peaks at step 2 after a6: 32 input + 36 kernels + 4 outputs.
        QTest::newRow("row-by-row") << int(StrategyKind::RowByRow) << qint64(29) << qint64(72);
        // ZigZag holds at most 12 pixels: 24 + 36 + 4.
        QTest::newRow("zigzag") << int(StrategyKind::ZigZag) << qint64(31) << qint64(64);
    }
    void paperExampleTotals()
    {
        QFETCH(int, kind);
        QFETCH(qint64, loadedPixels);
        QFETCH(qint64, peak);
        Problem p = paperExample();
        const Groups groups = groupsOf(p, {"s", StrategyKind(kind), 2, {}});
        SimulationResult r = simulate(p, expandS1(p, groups));
        QVERIFY(r.valid());
        QCOMPARE(r.computeSteps(), 5);
        QCOMPARE(r.loadedInput(), 2 * loadedPixels);
        QCOMPARE(r.loadedKernels(), 36);
        QCOMPARE(r.written(), 18);
        QCOMPARE(r.peakFootprint(), peak);
        // elements loaded + kernels + writes + 5 computes, all at unit cost
        QCOMPARE(r.totalDuration(), double(2 * loadedPixels + 36 + 18 + 5));

        // The paper's experiment setting: D = sum |I_slice| (pixels) + n.
        p.layer.c_in = 1;
        p.layer.n = 1;
        p.hardware.nbop_pe = 18;
        p.hardware.t_w = 0;
        p.options.kernels_preloaded = true;
        r = simulate(p, expandS1(p, groups));
        QVERIFY(r.valid());
        QCOMPARE(r.totalDuration(), double(loadedPixels + 5));
    }

    void memoryBindsTheExample()
    {
        Problem p = paperExample();
        p.hardware.mem_size = 71; // Row-by-Row needs 72 at step 2, ZigZag 64
        const SimulationResult row = simulate(p, expandS1(p, rowByRow(p.layer, 2)));
        QVERIFY(!row.valid());
        QCOMPARE(row.errors().front()->rule, Rule::MemoryOverflow);
        QCOMPARE(row.errors().front()->step, 2);
        QCOMPARE(row.errors().front()->action, Action::Compute);
        QVERIFY(simulate(p, expandS1(p, zigzag(p.layer, 2))).valid());
    }

    // As late as possible, mem_size 68, ZigZag G=2: step 1 holds 24+36+4 = 64;
    // step 2 60 + 4 kept + 4 new = 68 fits; step 3 must write the 4 oldest;
    // step 4 the next 4; step 5 (one patch, 18+36) keeps 8 + 2; the drain
    // writes the last 10.
    void writeAsLateAsPossible()
    {
        Problem p = paperExample();
        p.options.write_policy = WritePolicy::AsLateAsPossible;
        p.hardware.mem_size = 68;
        const StepList steps = expandS1(p, zigzag(p.layer, 2));
        std::vector<std::size_t> counts;
        for (const Step &s : steps)
            counts.push_back(s.write.size());
        QCOMPARE(counts, (std::vector<std::size_t>{0, 0, 4, 4, 0, 10}));
        QCOMPARE(steps[2].write, (std::vector<OutputId>{0, 1, 2, 3})); // patches 0, 1
        QCOMPARE(steps[3].write, (std::vector<OutputId>{4, 5, 10, 11})); // patches 2, 5
        const SimulationResult r = simulate(p, steps);
        QVERIFY(r.valid());
        QCOMPARE(r.peakFootprint(), 68);
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
    }

    // 2x2 input, 3x3 kernel, padding 1 all round: a 4x4 padded grid, 2x2 output.
    // In DRAM, S1-baseline loads 9 + 3 + 5 + 3 = 20 pixels; synthesised, only
    // the 4 real pixels are ever loaded.
    void paddingInDramOrSynthesised_data()
    {
        QTest::addColumn<bool>("inDram");
        QTest::addColumn<qint64>("loadedPixels");
        QTest::newRow("in DRAM") << true << qint64(20);
        QTest::newRow("synthesised") << false << qint64(4);
    }
    void paddingInDramOrSynthesised()
    {
        QFETCH(bool, inDram);
        QFETCH(qint64, loadedPixels);
        Problem p;
        p.layer = {1, 2, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1};
        p.hardware.nbop_pe = 9;
        p.options.padding_in_dram = inDram;
        const SimulationResult r = simulate(p, expandS1(p, s1Baseline(p.layer)));
        QVERIFY(r.valid());
        QCOMPARE(r.loadedInput(), loadedPixels);
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
    }

    // Values chosen so the 32-bit fast path must be refused: four products of
    // 50000·50000 sum to 10^10. And a small case the fast path takes:
    // [1 2; 3 4]·[1 -1; -1 1] = 1 - 2 - 3 + 4 = 0,
    // with kernel [2 0; 0 3]: 2·1 + 3·4 = 14.
    void referenceConvolutionByHand()
    {
        const Layer l{1, 2, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0};
        TensorData big{{50000, 50000, 50000, 50000}, {50000, 50000, 50000, 50000}};
        QVERIFY(!outputsFitInt32(l, big));
        QCOMPARE(referenceConvolution(l, big), (std::vector<std::int64_t>{10000000000}));

        const Layer two{1, 2, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0};
        TensorData small{{1, 2, 3, 4}, {1, -1, -1, 1, 2, 0, 0, 3}};
        QVERIFY(outputsFitInt32(two, small));
        QCOMPARE(referenceConvolution(two, small), (std::vector<std::int64_t>{0, 14}));

        Problem p;
        p.layer = l;
        p.hardware.nbop_pe = 4;
        SimulationOptions options;
        options.data = &big;
        QCOMPARE(simulate(p, expandS1(p, s1Baseline(l)), options).functional.status, FunctionalStatus::Pass);
    }

    void drainFreesEverything()
    {
        const Problem p = paperExample();
        const StepList steps = expandS1(p, zigzag(p.layer, 2));
        const Step &drain = steps.back();
        QVERIFY(drain.isDrain());
        QCOMPARE(drain.free_kernels, (std::vector<KernelId>{0, 1}));
        QCOMPARE(drain.write, (std::vector<OutputId>{16, 17})); // patch 8, both kernels
        QCOMPARE(drain.free_input.size(), std::size_t(9)); // the last patch's pixels
        const SimulationResult r = simulate(p, steps);
        QVERIFY(r.steps.back().drain);
        QCOMPARE(r.steps.back().compute_duration, 0.0); // no t_acc in the drain
        QCOMPARE(r.steps.back().after.total(), 0);
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
