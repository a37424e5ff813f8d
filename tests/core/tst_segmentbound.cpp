// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The segment bound (SegmentBound.h): values worked out by hand, and never
// above the relaxed optimum of the dynamic programming (an independent
// route: every ordered partition, reload bound dropped) nor above any valid
// strategy's duration on the paper's grid. tst_search checks lowerBound, which
// includes it, against the brute force on its 21 small instances.

#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/S1InstanceBound.h"
#include "convoffload/optimise/SegmentBound.h"
#include "convoffload/io/ProjectFile.h"

#include <QTest>

using namespace convoffload;

class TestSegmentBound : public QObject {
    Q_OBJECT
private slots:
    // 12×12 inputs, G = 2: 100 patches, 50 steps, 144 pixels. Two segments of
    // 25 steps hold 50 patches each, which touch at least
    // ⌈50 + 2·√(2·2·50) + 4⌉ = ⌈82.28⌉ = 83 pixels; the group before the
    // second holds at most 2 windows = 18 pixels: 2·83 − 18 = 148 loads.
    void twelveByTwelveGroupsOfTwo()
    {
        const S1Instance in = makeS1Instance(paperInstance(12, 2));
        QCOMPARE(largestGroupUnion(in), std::int64_t(18));
        const std::optional<std::int64_t> loads = segmentLoadBound(in);
        QVERIFY(loads);
        QVERIFY(*loads >= 148);
        QVERIFY(lowerBound(in) >= 148.0 + 50.0);
    }

    // LeNet-5 conv1: 5×5 windows, 6 kernels of 25 (150 elements), G = 8,
    // mem_size 300, 784 patches in exactly 98 groups, so every group has 8
    // patches (784 − 97·8 = 8). Eight patches leave 300 − 150 − 6·8 = 102
    // pixels and hold at most 25·8 = 200: 102. (A group of 5 would have
    // room for min(125, 120) = 120, but no strategy has one.) Two segments of
    // 49 steps hold 392 patches each, which touch at least
    // ⌈392 + 2·√(4·4·392) + 16⌉ = ⌈566.37⌉ = 567 pixels: 2·567 − 102 = 1032
    // loads, 8 above every pixel once.
    void lenetGroupUnion()
    {
        const Project project = loadProject(std::string(CONVOFFLOAD_SAMPLES) + "/lenet5-conv1.json");
        OptimiseSettings settings;
        settings.group_size = 8;
        const S1Instance in = makeS1Instance(project.problem, settings);
        QCOMPARE(largestGroupUnion(in), std::int64_t(102));
        const std::optional<std::int64_t> loads = segmentLoadBound(in);
        QVERIFY(loads);
        QVERIFY(*loads >= 1032);
        QVERIFY(lowerBound(in) >= in.duration(1032, 98));
    }

    // With any number of groups, a group may be as small as one patch.
    void smallGroupsWhenTheCountIsFree()
    {
        const Project project = loadProject(std::string(CONVOFFLOAD_SAMPLES) + "/lenet5-conv1.json");
        OptimiseSettings settings;
        settings.group_size = 8;
        settings.group_count = GroupCount::AtMostCap;
        QCOMPARE(largestGroupUnion(makeS1Instance(project.problem, settings)), std::int64_t(120));
    }

    // A strategy found outside the product (CaDiCaL on
    // docs/notebook/experiments/sat/paper-cnf.py's CNF for at most 2 reloads,
    // docs/notebook/optimiser.md, "Eleventh round") for the paper's 12×12,
    // G = 6 with reload bound 2: 144 pixels + 2 reloads + 17 computes = 163,
    // two below what the search finds. The bounds must stay at or below it.
    void satStrategyOfTwelveByTwelveGroupsOfSix()
    {
        const Project project = loadProject(std::string(CONVOFFLOAD_EXPERIMENTS) + "/sat/paper-12x12-g6-163.json");
        QCOMPARE(project.strategies.size(), std::size_t(1));
        OptimiseSettings settings;
        settings.group_size = 6;
        const S1Instance in = makeS1Instance(project.problem, settings);
        const S1Evaluation e = evaluate(in, project.strategies.front().groups);
        QVERIFY2(e.feasible, e.violation.c_str());
        QCOMPARE(e.groups, std::int64_t(17));
        QCOMPARE(e.loaded_pixels, std::int64_t(144 + 2));
        QCOMPARE(e.duration, 163.0);
        QVERIFY(lowerBound(in) <= 163.0);
    }

    // Stride 2 and any number of groups are out of its reach.
    void notApplicable()
    {
        Problem strided = paperInstance(9, 2);
        strided.layer.stride_h = strided.layer.stride_w = 2;
        QVERIFY(!segmentLoadBound(makeS1Instance(strided)));
        OptimiseSettings any;
        any.group_count = GroupCount::AtMostCap;
        QVERIFY(!segmentLoadBound(makeS1Instance(paperInstance(9, 2), any)));
    }

    // Sound on the paper's grid: never above the relaxed optimum where the
    // dynamic programming finishes within its default limits, nor above
    // Row-by-Row or ZigZag.
    void neverAboveAnOptimum_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("g");
        for (int size = 4; size <= 12; ++size)
            for (int g = 2; g <= 10; ++g)
                QTest::addRow("%dx%d G=%d", size, size, g) << size << g;
    }
    void neverAboveAnOptimum()
    {
        QFETCH(int, size);
        QFETCH(int, g);
        const S1Instance in = makeS1Instance(paperInstance(size, g));
        const double bound = lowerBound(in);
        QVERIFY(bound >= in.duration(std::int64_t(in.needed_pixels.size()), in.min_groups));
        for (const NamedGroups &h : heuristicCandidates(in))
            QVERIFY(bound <= h.evaluation.duration);
        if (const std::optional<double> relaxed = partitionLowerBound(in))
            QVERIFY2(bound <= *relaxed, (std::to_string(bound) + " > " + std::to_string(*relaxed)).c_str());
    }
};

QTEST_GUILESS_MAIN(TestSegmentBound)
#include "tst_segmentbound.moc"
