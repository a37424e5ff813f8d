// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// S1Instance: the compact form of the section-5 problem. Its durations are
// checked against the simulator on the expanded steps, its constraint checks
// against the simulator's diagnostics and against hand-built violations, its
// lower bound against a hand count on the paper's Example.

#include "convoffload/io/ProjectFile.h"
#include "TestProblems.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/Verdict.h"

#include "TestGroups.h"

#include <QDir>
#include <QTest>

#include <random>

using namespace convoffload;

namespace {

/// The paper's Example (docs/reference/model.md#decisions): input 2×5×5, two 3×3 kernels, stride 1,
/// nbop_pe 72 so G = 2, mem_size 200, t_l = t_w = t_acc = 1.
Problem paperExample() { return paperExampleProblem(); }

SimulationResult simulateGroups(const Problem &problem, const Groups &groups)
{
    SimulationOptions options;
    options.trace = false;
    options.functional = false;
    return simulate(problem, expandS1(problem, groups), options);
}

bool hasRule(const SimulationResult &sim, Rule rule)
{
    for (const Diagnostic &d : sim.diagnostics)
        if (d.rule == rule)
            return true;
    return false;
}

/// A random ordered partition: a shuffled patch order cut into groups of
/// random sizes in [1, G].
Groups randomGroups(std::int64_t patches, std::int64_t groupSize, std::mt19937 &rng)
{
    std::vector<PatchId> order(static_cast<std::size_t>(patches));
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = PatchId(i);
    std::shuffle(order.begin(), order.end(), rng);
    Groups groups;
    for (std::size_t i = 0; i < order.size();) {
        const std::size_t size = std::min<std::size_t>(order.size() - i, 1 + rng() % std::uint64_t(groupSize));
        groups.emplace_back(order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(i + size));
        i += size;
    }
    return groups;
}

/// Problems with the features that change the instance: channels, several
/// kernels, strides, padding in DRAM or synthesised, preloaded kernels.
std::vector<std::pair<const char *, Problem>> variedProblems()
{
    std::vector<std::pair<const char *, Problem>> out;
    out.push_back({"paper example", paperExample()});
    Problem strided = paperExample();
    strided.layer = {3, 9, 8, 3, 2, 2, 2, 1, 0, 0, 0, 0};
    strided.hardware.nbop_pe = 3 * 6 * 2 * 3;
    strided.hardware.mem_size = 150;
    strided.hardware.t_l = 2;
    strided.hardware.t_w = 0.5;
    out.push_back({"strided", strided});
    Problem padded = paperExample();
    padded.layer = {1, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1};
    padded.hardware.nbop_pe = 9 * 4;
    padded.hardware.mem_size = 34;
    padded.options.padding_in_dram = false;
    padded.options.kernels_preloaded = true;
    out.push_back({"padding synthesised", padded});
    Problem paddedDram = padded;
    paddedDram.options.padding_in_dram = true;
    paddedDram.options.kernels_preloaded = false;
    out.push_back({"padding in DRAM", paddedDram});
    // Grouped and dilated (docs/reference/model.md#grouped-and-dilated): S1
    // loads every slice of a pixel, so the instance's pixel is C_in
    // elements; a dilated patch's pixels are spaced.
    Problem grouped = paperExample();
    grouped.layer = {4, 9, 8, 3, 3, 4, 1, 1, 1, 1, 1, 1};
    grouped.layer.group = 2;
    grouped.layer.dilation_h = 2;
    grouped.hardware.nbop_pe = 2 * 9 * 4 * 3; // 3 patches a step
    grouped.hardware.mem_size = 250;
    grouped.hardware.max_loads_per_element = 1;
    grouped.options.padding_in_dram = false;
    out.push_back({"grouped, dilated", grouped});
    Problem depthwise = paperExample();
    depthwise.layer = {3, 7, 7, 3, 3, 3, 1, 2, 0, 0, 0, 0};
    depthwise.layer.group = 3;
    depthwise.layer.dilation_w = 2;
    depthwise.hardware.nbop_pe = 9 * 3 * 2;
    depthwise.hardware.mem_size = 120;
    out.push_back({"depthwise, dilated", depthwise});
    return out;
}

} // namespace

class TestInstance : public QObject {
    Q_OBJECT
private slots:
    void durationsMatchTheSimulatorOnSamples_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES));
        for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void durationsMatchTheSimulatorOnSamples()
    {
        QFETCH(QString, path);
        const Project project = loadProject(path.toStdString());
        for (const StrategySpec &spec : project.strategies) {
            if (!isS1Kind(spec.kind)) // kernel-blocked (mobilenetv2-depthwise-conv): no S1 instance
                continue;
            const Groups groups = groupsOf(project.problem, spec);
            std::int64_t widest = 1;
            for (const Group &g : groups)
                widest = std::max(widest, std::int64_t(g.size()));
            OptimiseSettings settings;
            settings.group_size = widest;
            settings.group_count = GroupCount::AtMostCap;
            const S1Instance in = makeS1Instance(project.problem, settings);
            const S1Evaluation ev = evaluate(in, groups);
            const SimulationResult sim = simulateGroups(project.problem, groups);
            QCOMPARE(ev.duration, sim.totalDuration());
            QCOMPARE(ev.loaded_pixels * in.elements_per_pixel, sim.loadedInput());
            QCOMPARE(ev.groups, std::int64_t(sim.computeSteps()));
        }
    }

    /// Random strategies on varied layers: the same duration as the
    /// simulator, a memory violation exactly when the simulator overflows, a
    /// reload violation exactly when it warns about the bound.
    void randomStrategiesAgreeWithTheSimulator_data()
    {
        QTest::addColumn<int>("which");
        const auto problems = variedProblems();
        for (int i = 0; i < int(problems.size()); ++i)
            QTest::newRow(problems[std::size_t(i)].first) << i;
    }
    void randomStrategiesAgreeWithTheSimulator()
    {
        QFETCH(int, which);
        const Problem problem = variedProblems()[std::size_t(which)].second;
        OptimiseSettings settings;
        settings.group_count = GroupCount::AtMostCap;
        const S1Instance in = makeS1Instance(problem, settings);
        std::mt19937 rng(std::uint32_t(42 + which));
        int memoryViolations = 0, reloadViolations = 0;
        for (int trial = 0; trial < 60; ++trial) {
            const Groups groups = randomGroups(in.patches, in.group_size, rng);
            const S1Evaluation ev = evaluate(in, groups);
            const SimulationResult sim = simulateGroups(problem, groups);
            QCOMPARE(ev.duration, sim.totalDuration());
            // The reload assumption counted in full both ways, in the same words.
            QCOMPARE(ev.reload_pixels, sim.reload.pixels);
            if (ev.rule_violation.empty() && sim.valid())
                QCOMPARE(evaluationVerdict(ev), ev.feasible ? std::string() : verdictText(verdictOf(sim)));
            const bool memory = ev.violation.find("mem_size") != std::string::npos;
            const bool reload = ev.violation.find("reload bound") != std::string::npos;
            memoryViolations += hasRule(sim, Rule::MemoryOverflow);
            reloadViolations += hasRule(sim, Rule::ReloadBound);
            // evaluate() reports the first violation only: compare when it is
            // the only kind the simulator sees.
            const bool simMemory = hasRule(sim, Rule::MemoryOverflow), simReload = hasRule(sim, Rule::ReloadBound);
            if (memory)
                QVERIFY(simMemory);
            if (reload)
                QVERIFY(simReload);
            if (ev.feasible) {
                QVERIFY(sim.valid());
                QVERIFY(!simReload);
            }
            if (!simMemory && !simReload)
                QVERIFY2(ev.feasible, ev.violation.c_str());
        }
        // The random strategies do exercise both checks where they can bind.
        if (which == 2)
            QVERIFY(memoryViolations > 0);
        if (which == 0)
            QVERIFY(reloadViolations > 0);
    }

    void violations_data()
    {
        QTest::addColumn<QString>("groups");
        QTest::addColumn<int>("memSize");
        QTest::addColumn<bool>("atMostCap");
        QTest::addColumn<int>("cap");
        QTest::addColumn<QString>("message");
        // The paper example: 3×3 patches, G = 2, K_min = 5.
        QTest::newRow("empty group") << "0 1|2 3||4 5|6 7 8" << 200 << true << 9 << "group 3 is empty";
        QTest::newRow("group too big") << "0 1 2|3 4|5 6|7 8" << 200 << false << 0 << "group 1 has 3 patches, more than G = 2";
        QTest::newRow("unknown patch") << "0 1|2 3|4 5|6 7|8 9" << 200 << false << 0
                                       << "group 5 names patch 9, but the layer has 9 patches";
        QTest::newRow("patch twice") << "0 1|2 3|4 5|6 7|8 0" << 200 << false << 0 << "is in group 1 and in group 5";
        QTest::newRow("patch missing") << "0 1|2 3|4 5|6 7" << 200 << true << 9 << "patch 8 (2,2) is in no group";
        QTest::newRow("not K_min groups") << "0 1|2 3|4 5|6|7|8" << 200 << false << 0
                                          << "6 groups, but the problem asks for exactly K_min = 5";
        QTest::newRow("over the cap") << "0|1|2|3|4|5|6|7|8" << 200 << true << 8 << "9 groups, more than the cap of 8";
        // Group 1 of patches 0 and 8 (sharing pixel (2,2)): 17 pixels · 2
        // channels + 2·2 outputs + 36 kernel elements = 74 > 73; the other
        // groups need at most 16·2 + 4 + 36 = 72.
        QTest::newRow("memory") << "0 8|1 2|3 4|5 6|7" << 73 << false << 0
                                << "group 1 needs 74 elements on chip, more than mem_size = 73";
        // Pixel (0,2) belongs to patches 0, 1 and 2 only, here in groups 1, 3
        // and 5, with groups not holding it in between: three loads.
        QTest::newRow("reload bound") << "0|8|1|7|2 6|3|5|4" << 200 << true << 9
                                      << "pixel (0,2) is loaded 3 times (group 5), more than the reload bound of 2";
    }
    void violations()
    {
        QFETCH(QString, groups);
        QFETCH(int, memSize);
        QFETCH(bool, atMostCap);
        QFETCH(int, cap);
        QFETCH(QString, message);
        Problem problem = paperExample();
        problem.hardware.mem_size = memSize;
        OptimiseSettings settings;
        settings.group_count = atMostCap ? GroupCount::AtMostCap : GroupCount::ExactlyKMin;
        settings.max_groups = cap;
        const S1Instance in = makeS1Instance(problem, settings);
        const S1Evaluation ev = evaluate(in, parseGroups(groups));
        QVERIFY(!ev.feasible);
        QVERIFY2(ev.violation.find(message.toStdString()) != std::string::npos, ev.violation.c_str());
    }

    void rowByRowIsFeasibleOnTheExample()
    {
        const S1Instance in = makeS1Instance(paperExample());
        const S1Evaluation ev = evaluate(in, parseGroups(QStringLiteral("0 1|2 3|4 5|6 7|8")));
        QVERIFY2(ev.feasible, ev.violation.c_str());
        QCOMPARE(ev.groups, std::int64_t(5));
    }

    void instanceErrors_data()
    {
        QTest::addColumn<int>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("invalid layer") << 0 << "the problem is invalid: layer.";
        QTest::newRow("G below 1") << 1 << "group size must be at least 1, got 0";
        QTest::newRow("G above max") << 2 << "group size 3 exceeds nb_patches_max = 2";
        QTest::newRow("nbop_pe too small") << 3 << "cannot compute one patch with every kernel (36 MACs)";
        QTest::newRow("memory too small") << 4 << "cannot hold one patch (18 input elements)";
        QTest::newRow("cap below K_min") << 5 << "the cap of 4 groups is below K_min = 5";
    }
    void instanceErrors()
    {
        QFETCH(int, change);
        QFETCH(QString, message);
        Problem problem = paperExample();
        OptimiseSettings settings;
        switch (change) {
        case 0:
            problem.layer.h_k = 0;
            break;
        case 1:
            settings.group_size = 0;
            break;
        case 2:
            settings.group_size = 3;
            break;
        case 3:
            problem.hardware.nbop_pe = 35;
            break;
        case 4: // one patch needs 9 pixels · 2 channels + 2 outputs + 36 kernel elements = 56
            problem.hardware.mem_size = 55;
            break;
        case 5:
            settings.group_count = GroupCount::AtMostCap;
            settings.max_groups = 4;
            break;
        }
        try {
            makeS1Instance(problem, settings);
            QFAIL("no error");
        } catch (const InstanceError &e) {
            QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
        }
    }

    /// By hand on the paper's Example: 25 pixels of 2 channels loaded once
    /// (50 elements, t_l = 1), K_min = 5 computes, 36 kernel elements loaded
    /// once, 18 outputs written once (t_w = 1): 50 + 5 + 36 + 18 = 109.
    void lowerBoundOfTheExample()
    {
        const S1Instance in = makeS1Instance(paperExample());
        QCOMPARE(in.min_groups, std::int64_t(5));
        QCOMPARE(in.needed_pixels.size(), std::size_t(25));
        QCOMPARE(lowerBound(in), 109.0);
        Problem preloaded = paperExample();
        preloaded.options.kernels_preloaded = true;
        QCOMPARE(lowerBound(makeS1Instance(preloaded)), 109.0 - 36.0);
    }

    /// Row-by-Row and ZigZag on the Example: both legal, and the step-2 loads
    /// of the paper (6 pixels each) are part of their durations.
    void heuristicsOfTheExample()
    {
        const S1Instance in = makeS1Instance(paperExample());
        const std::vector<NamedGroups> candidates = heuristicCandidates(in);
        QCOMPARE(candidates.size(), std::size_t(2));
        QCOMPARE(candidates[0].name, std::string("Row-by-Row"));
        QCOMPARE(candidates[1].name, std::string("ZigZag"));
        for (const NamedGroups &c : candidates) {
            QVERIFY(c.evaluation.feasible);
            QCOMPARE(c.evaluation.duration, simulateGroups(paperExample(), c.groups).totalDuration());
        }
        QVERIFY(bestFeasibleHeuristic(in));
    }
};

QTEST_GUILESS_MAIN(TestInstance)
#include "tst_instance.moc"
