// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The search optimiser inside one kernel-blocked loop (KernelBlockedSearch):
// the block instance's costs worked out by hand and checked against the
// simulator on every grouping of a small layer, the regrouped strategy
// against a brute force over every ordered partition and the naive
// executor, never worse than its start, reproducible, and the members a
// caller may choose.

#include "NaiveExecutor.h"
#include "TestProblems.h"
#include "TestPrinting.h"

#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/optimise/KernelBlockedSearch.h"
#include "convoffload/optimise/Optimiser.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QTest>

#include <limits>

using namespace convoffload;

namespace {

/// The paper's Example layer (2×5×5, two 3×3 kernels of 18 elements, 9
/// patches of 3×3 outputs) on 55 elements of memory: both kernels, a patch
/// and its two outputs need 56, so no S1 strategy runs; one kernel beside a
/// row of three patches (18 + 30 + 3) or a 2×2 square of them (18 + 32 + 4)
/// fits (B = 1), and nbop_pe 72 allows G·B ≤ 4.
Problem tightExample() { return paperExampleProblem(55); }

SimulationOptions quick()
{
    SimulationOptions o;
    o.trace = false;
    o.functional = false;
    return o;
}

StrategySpec stepsSpec(const ComputeSteps &steps)
{
    StrategySpec spec{"x", StrategyKind::Steps, std::nullopt, {}};
    spec.steps = steps;
    return spec;
}

/// Every ordered partition of the patches into exactly `count` non-empty
/// groups of at most `size` (each patch labelled with its group).
std::vector<Groups> orderedPartitions(std::int64_t patches, std::int64_t count, std::int64_t size)
{
    std::vector<Groups> out;
    std::vector<std::int64_t> label(std::size_t(patches), 0);
    while (true) {
        Groups groups(static_cast<std::size_t>(count));
        for (std::int64_t p = 0; p < patches; ++p)
            groups[std::size_t(label[std::size_t(p)])].push_back(PatchId(p));
        if (std::all_of(
                groups.begin(), groups.end(), [size](const Group &g) { return !g.empty() && std::int64_t(g.size()) <= size; }))
            out.push_back(std::move(groups));
        std::size_t i = 0;
        while (i < label.size() && ++label[i] == count)
            label[i++] = 0;
        if (i == label.size())
            return out;
    }
}

/// The input pixels a group needs (padding synthesised on chip).
std::int64_t unionPixels(const Problem &p, const Group &g)
{
    std::vector<PixelId> pixels;
    for (PatchId patch : g)
        forEachPatchPixel(p.layer, p.options.padding_in_dram, patch, [&](PixelId px) { pixels.push_back(px); });
    std::sort(pixels.begin(), pixels.end());
    return std::int64_t(std::unique(pixels.begin(), pixels.end()) - pixels.begin());
}

FamilyMember member(const Problem &p, const KernelBlockedParams &params)
{
    const FamilySearch search = searchMembers(p, {params}, quick());
    return search.members.front();
}

SearchOptions budget(std::int64_t moves)
{
    SearchOptions o;
    o.max_moves = moves;
    o.threads = 1;
    o.seed = 7;
    return o;
}

OptimiseControl generous()
{
    OptimiseControl c;
    c.time_limit_s = 60;
    return c;
}

} // namespace

class TestKernelRegroup : public QObject {
    Q_OBJECT
private slots:
    // By hand, B = 1 of N = 2: m = 2 blocks, C_in = 2, 18 elements a kernel,
    // t_l = t_w = t_acc = 1, 18 outputs.
    // kernels-outer: a pixel load 2·2 = 4, a group 2 computes, constant 36 + 18.
    // patches-outer: a pixel load 2, a group 2 + 18 (the other kernel
    // reloaded), constant 18 + 18 (the first group's two kernels: 18 here,
    // 18 in its group cost).
    void blockInstanceCosts()
    {
        const Problem p = tightExample();
        const S1Instance outer = blockInstance(p, {KernelLoop::KernelsOuter, PatchOrder::ZigZag, 1, 3});
        QCOMPARE(outer.cost_per_pixel_load, 4.0);
        QCOMPARE(outer.cost_per_group, 2.0);
        QCOMPARE(outer.constant_cost, 54.0);
        QCOMPARE(outer.fixed_elements, std::int64_t(18)); // one kernel on chip
        QCOMPARE(outer.elements_per_patch, std::int64_t(1)); // one output per patch and step
        QCOMPARE(outer.min_groups, std::int64_t(3));
        const S1Instance inner = blockInstance(p, {KernelLoop::PatchesOuter, PatchOrder::ZigZag, 1, 3});
        QCOMPARE(inner.cost_per_pixel_load, 2.0);
        QCOMPARE(inner.cost_per_group, 20.0);
        QCOMPARE(inner.constant_cost, 36.0);
        Problem preloaded = p;
        preloaded.options.kernels_preloaded = true;
        QCOMPARE(blockInstance(preloaded, {KernelLoop::PatchesOuter, PatchOrder::ZigZag, 1, 3}).cost_per_group, 2.0);
        // G above what the op limit allows for B kernels: refused by name.
        QVERIFY_THROWS_EXCEPTION(InstanceError, blockInstance(p, {KernelLoop::KernelsOuter, PatchOrder::ZigZag, 1, 5}));
        QVERIFY_THROWS_EXCEPTION(InstanceError, blockInstance(p, {KernelLoop::KernelsOuter, PatchOrder::ZigZag, 3, 1}));
    }

    // On every grouping of 9 patches into 3 groups of at most 3 (1680), the
    // block instance's duration is the simulator's: exactly for
    // patches-outer, and for kernels-outer plus the input kept at the turn
    // (the last group of the first pass starts the second).
    void blockInstanceMatchesSimulation_data()
    {
        QTest::addColumn<int>("loop");
        QTest::newRow("kernels-outer") << int(KernelLoop::KernelsOuter);
        QTest::newRow("patches-outer") << int(KernelLoop::PatchesOuter);
    }
    void blockInstanceMatchesSimulation()
    {
        QFETCH(int, loop);
        const Problem p = tightExample();
        const KernelBlockedParams params{KernelLoop(loop), PatchOrder::ZigZag, 1, 3};
        const S1Instance in = blockInstance(p, params);
        const std::vector<KernelBlock> blocks = kernelBlocks(2, 1);
        const std::vector<Groups> all = orderedPartitions(9, 3, 3);
        QCOMPARE(all.size(), std::size_t(1680)); // 9! / (3!·3!·3!)
        int feasible = 0;
        for (const Groups &groups : all) {
            const S1Evaluation ev = evaluate(in, groups);
            const SimulationResult sim = simulateStrategy(p, stepsSpec(kernelBlockedSteps(groups, blocks, params.loop)), quick());
            QCOMPARE(ev.feasible, sim.valid()); // memory: 2·|U| + 18 + 3 ≤ 55, i.e. at most 17 pixels a group
            feasible += ev.feasible ? 1 : 0;
            const double turn = params.loop == KernelLoop::KernelsOuter ? 2.0 * double(unionPixels(p, groups.back())) : 0.0;
            QCOMPARE(ev.duration, sim.totalDuration() + turn);
        }
        QVERIFY(feasible > 0 && feasible < int(all.size()));
    }

    // A depthwise layer (2×5×5, g = 2, two 3×3 kernels of 9 elements) with
    // blocks of one group (B = N/g = 1), kernels-outer: each pass loads only
    // its group's slice of a pixel (1 element), and the turn between passes
    // keeps nothing (the next pass needs the other group's slices), so the
    // block instance is exact on every grouping of its 9 patches into 3
    // groups of at most 3: a pixel load costs 2 (one slice in each pass).
    void groupedBlockInstanceMatchesSimulation()
    {
        Problem p = tightExample();
        p.layer.group = 2;
        p.hardware.nbop_pe = 27; // three patches with one kernel
        p.hardware.mem_size = 1000;
        const KernelBlockedParams params{KernelLoop::KernelsOuter, PatchOrder::ZigZag, 1, 3};
        const S1Instance in = blockInstance(p, params);
        QCOMPARE(in.cost_per_pixel_load, 2.0);
        QCOMPARE(in.elements_per_pixel, std::int64_t(1));
        const std::vector<KernelBlock> blocks = kernelBlocks(2, 1);
        for (const Groups &groups : orderedPartitions(9, 3, 3)) {
            const S1Evaluation ev = evaluate(in, groups);
            const SimulationResult sim = simulateStrategy(p, stepsSpec(kernelBlockedSteps(groups, blocks, params.loop)), quick());
            QVERIFY(ev.feasible && sim.valid());
            QCOMPARE(ev.duration, sim.totalDuration());
        }
    }

    // The regrouped strategy against a brute force over every ordered
    // partition (3 groups of at most G, in the member's loop), simulated:
    // patches-outer, whose block instance is exact, reaches the optimum;
    // kernels-outer lies between the optimum and its start. Either is what
    // the simulator and the naive executor say of its steps.
    void regroupAgainstBruteForce_data()
    {
        QTest::addColumn<int>("loop");
        QTest::addColumn<int>("group");
        for (const int g : {3, 4}) {
            QTest::addRow("kernels-outer G=%d", g) << int(KernelLoop::KernelsOuter) << g;
            QTest::addRow("patches-outer G=%d", g) << int(KernelLoop::PatchesOuter) << g;
        }
    }
    void regroupAgainstBruteForce()
    {
        QFETCH(int, loop);
        QFETCH(int, group);
        const Problem p = tightExample();
        const KernelBlockedParams params{KernelLoop(loop), PatchOrder::RowByRow, 1, group};
        const FamilyMember start = member(p, params);
        // Row-by-Row's first group of 4 (a row and one patch) needs 18
        // pixels, more than 17: that start is invalid, and the search must
        // still find a valid grouping.
        QCOMPARE(start.row.valid, group == 3);
        const RegroupResult r = regroupKernelBlocked(p, start, {}, budget(20000), generous());

        double brute = std::numeric_limits<double>::infinity();
        for (const Groups &groups : orderedPartitions(9, 3, group)) {
            const SimulationResult sim
                = simulateStrategy(p, stepsSpec(kernelBlockedSteps(groups, kernelBlocks(2, 1), params.loop)), quick());
            if (sim.valid())
                brute = std::min(brute, sim.totalDuration());
        }
        QVERIFY(r.row.valid);
        QVERIFY(!start.row.valid || r.row.total_duration <= start.row.total_duration);
        QVERIFY(r.row.total_duration >= brute);
        if (params.loop == KernelLoop::PatchesOuter)
            QCOMPARE(r.row.total_duration, brute);
        QCOMPARE(r.improved, !start.row.valid || r.row.total_duration < start.row.total_duration);
        QCOMPARE(r.steps, kernelBlockedSteps(r.groups, kernelBlocks(2, 1), params.loop));

        const SimulationResult fast = simulateStrategy(p, stepsSpec(r.steps), {});
        QCOMPARE(fast.totalDuration(), r.row.total_duration);
        QCOMPARE(fast.functional.status, FunctionalStatus::Pass);
        const naive::NaiveReport slow = naive::naiveExecute(p, naive::naiveExpandSteps(p, r.steps));
        QVERIFY(slow.valid());
        QCOMPARE(slow.totalDuration(), r.row.total_duration);
    }

    // Row-by-Row with G = 3, patches-outer, worked out by hand: the groups
    // are the three output rows; rows 0 and 1 share 2 input rows of 5
    // pixels, rows 1 and 2 too, so the input is loaded 15 + 5 + 5 = 25
    // pixels (50 elements), both kernels at the start (36) and one kernel
    // for each later group (36): 122 loads, 18 writes, 6 computes = 146.
    // Nothing is shorter with 3 groups: every pixel is loaded at least once
    // (50), the first group loads both kernels and each later one the kernel
    // it does not keep (72), and the writes and computes are fixed. So the
    // member's own groups are kept.
    void startKeptWhenNothingBeatsIt()
    {
        const Problem p = tightExample();
        const FamilyMember start = member(p, {KernelLoop::PatchesOuter, PatchOrder::RowByRow, 1, 3});
        QCOMPARE(start.row.total_duration, 146.0);
        const RegroupResult r = regroupKernelBlocked(p, start, {}, budget(20000), generous());
        QVERIFY(!r.improved);
        QCOMPARE(r.groups, rowByRow(p.layer, 3));
        QCOMPARE(r.row.total_duration, 146.0);
    }

    // Under a transfer model (docs/reference/cli.md#under-a-transfer-model)
    // the regrouping minimises the transfer cost of the member's loop: its
    // result is the brute force's optimum under that cost (every ordered
    // partition into 3 groups of at most 3, simulated with the transfer
    // model), at or below its start, and what the instance says is what the
    // simulator says.
    void regroupUnderTransferAgainstBruteForce_data()
    {
        QTest::addColumn<int>("loop");
        QTest::addColumn<bool>("nhwc");
        QTest::addColumn<int>("burst");
        QTest::addColumn<int>("setup");
        for (const int loop : {int(KernelLoop::KernelsOuter), int(KernelLoop::PatchesOuter)}) {
            const char *name = loop == int(KernelLoop::KernelsOuter) ? "kernels-outer" : "patches-outer";
            QTest::addRow("%s nchw 8 20", name) << loop << false << 8 << 20;
            QTest::addRow("%s nhwc 16 100", name) << loop << true << 16 << 100;
            QTest::addRow("%s nchw 64 0", name) << loop << false << 64 << 0;
        }
    }
    void regroupUnderTransferAgainstBruteForce()
    {
        QFETCH(int, loop);
        QFETCH(bool, nhwc);
        QFETCH(int, burst);
        QFETCH(int, setup);
        Problem p = tightExample();
        p.hardware.transfer = Transfer{nhwc ? Layout::Nhwc : Layout::Nchw, burst, double(setup)};
        const KernelBlockedParams params{KernelLoop(loop), PatchOrder::ZigZag, 1, 3};
        const S1Instance in = regroupInstance(p, params);
        QVERIFY(in.transfer);
        const FamilyMember start = member(p, params);
        QVERIFY(start.row.valid);
        const RegroupResult r = regroupKernelBlocked(p, start, {}, budget(20000), generous());
        QVERIFY(r.transfer_cost);

        double brute = std::numeric_limits<double>::infinity();
        for (const Groups &groups : orderedPartitions(9, 3, 3)) {
            const SimulationResult sim
                = simulateStrategy(p, stepsSpec(kernelBlockedSteps(groups, kernelBlocks(2, 1), params.loop)), quick());
            if (sim.valid())
                brute = std::min(brute, sim.totalDuration());
        }
        QVERIFY(r.row.valid);
        QVERIFY(r.row.total_duration <= start.row.total_duration);
        QCOMPARE(r.row.total_duration, brute);
        QCOMPARE(evaluate(in, r.groups).duration, r.row.total_duration);
        QCOMPARE(r.search.duration, r.row.total_duration);
    }

    // Never worse than the start, whatever the budget, and the same result
    // for the same seed, budget and one thread.
    void neverWorseAndReproducible()
    {
        const Problem p = tightExample();
        for (const KernelBlockedParams &params : kernelBlockedFamily(p)) {
            const FamilyMember start = member(p, params);
            for (const std::int64_t moves : {1, 50, 5000}) {
                const RegroupResult a = regroupKernelBlocked(p, start, {}, budget(moves), generous());
                const RegroupResult b = regroupKernelBlocked(p, start, {}, budget(moves), generous());
                QVERIFY2(a.row.total_duration <= start.row.total_duration, kernelBlockedParamsText(params).c_str());
                QCOMPARE(a.groups, b.groups);
                QCOMPARE(a.row.total_duration, b.row.total_duration);
            }
        }
    }

    // The members a caller allows: the example's family has B = 1 only (16
    // members: G 4..1, both loops and orders; B = 2 allows G ≤ 2 by the op
    // limit but not even one patch by memory).
    void chosenMembersFilter()
    {
        const Problem p = tightExample();
        QCOMPARE(chosenMembers(p, {}), kernelBlockedFamily(p));
        const std::vector<KernelBlockedParams> inner = chosenMembers(p, {KernelLoop::PatchesOuter, std::nullopt, std::nullopt});
        QCOMPARE(inner.size(), std::size_t(8));
        for (const KernelBlockedParams &m : inner)
            QCOMPARE(m.loop, KernelLoop::PatchesOuter);
        const std::vector<KernelBlockedParams> fixed = chosenMembers(p, {std::nullopt, 1, 3});
        QCOMPARE(fixed.size(), std::size_t(4)); // both loops, both orders, at G = 3
        for (const KernelBlockedParams &m : fixed)
            QCOMPARE(m.group_size, std::int64_t(3));
        // B = 2 leaves no room (36 + 18 + 2 > 55): no member, but with a G
        // the members of that B are still tried, so the refusal has a reason.
        QVERIFY(chosenMembers(p, {std::nullopt, 2, std::nullopt}).empty());
        QCOMPARE(chosenMembers(p, {KernelLoop::KernelsOuter, 2, 1}).size(), std::size_t(2));
    }

    // optimise(): the search regroups the family's best and returns it as
    // explicit steps; the ILP returns the member as before; a choice that
    // leaves no valid member is refused with the choice named.
    void optimiseRegroups()
    {
        const Problem p = tightExample();
        OptimiseRequest request;
        request.stream_kernels = true;
        request.max_moves = 20000;
        request.threads = 1;
        const OptimiseReport report = optimise(p, request, generous());
        QVERIFY(report.kernel_blocked);
        QVERIFY(report.regrouped);
        QCOMPARE(report.result.method, std::string("search"));
        QVERIFY(report.result.duration <= report.kernel_blocked->row.total_duration);
        const StrategySpec spec = toStrategy(report, "Regrouped");
        QCOMPARE(spec.kind, StrategyKind::Steps);
        QCOMPARE(simulateStrategy(p, spec, {}).totalDuration(), report.result.duration);
        QVERIFY(optimiseReportToJson(report)["regrouped"].is_object());
        OptimiseRequest prove = request;
        prove.prove = true; // the relaxed bound is S1's: said, not run
        const OptimiseReport proved = optimise(p, prove, generous());
        QVERIFY(proved.proof);
        QCOMPARE(proved.proof->status, BoundProofStatus::NotTried);
        QCOMPARE(proved.result.duration, report.result.duration);

        request.family.loop = KernelLoop::PatchesOuter;
        request.settings.group_size = 3;
        const OptimiseReport inner = optimise(p, request, generous());
        QCOMPARE(inner.regrouped->start.params.loop, KernelLoop::PatchesOuter);
        QCOMPARE(inner.regrouped->start.params.group_size, std::int64_t(3));
        QCOMPARE(inner.result.duration, 146.0); // the brute-force optimum above

        OptimiseRequest ilp = request;
        ilp.method = OptimiseMethod::Ilp;
        const OptimiseReport asIs = optimise(p, ilp, generous());
        QVERIFY(!asIs.regrouped);
        QCOMPARE(toStrategy(asIs, "x").kind, StrategyKind::KernelBlocked);

        OptimiseRequest none = request;
        none.family = {std::nullopt, 2, std::nullopt};
        none.settings.group_size = 1;
        try {
            optimise(p, none, generous());
            QFAIL("expected a refusal");
        } catch (const InstanceError &e) {
            QVERIFY2(std::string(e.what()).find("with B = 2, G = 1") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestKernelRegroup)
#include "tst_kernelregroup.moc"
