// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The search under a transfer model (docs/reference/cli.md#under-a-transfer-model):
// its pricing of S1 strategies from pixel and patch sets, against a count
// made by hand and against the simulator, which expands the strategy into
// steps and counts each action's runs its own way; the incremental state
// after every kind of move against evaluate() from scratch; and the search's
// result against the heuristics under the same cost.

#include "search/SearchAnnealer.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/optimise/KernelBlockedSearch.h"
#include "convoffload/optimise/Optimiser.h"
#include "TestProblems.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/S1TransferCost.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace convoffload;
using namespace convoffload::search;

namespace {

double simulated(const Problem &problem, const Groups &groups)
{
    StrategySpec spec;
    spec.name = "groups";
    spec.kind = StrategyKind::Groups;
    spec.groups = groups;
    SimulationOptions options;
    options.functional = false;
    return simulateStrategy(problem, spec, options).totalDuration();
}

/// A small random layer and hardware whose memory holds any group, under a
/// random transfer model.
Problem randomProblem(std::mt19937 &random)
{
    auto pick = [&random](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    Problem p;
    Layer &l = p.layer;
    l.c_in = pick(1, 3);
    l.n = pick(1, 3);
    if (pick(0, 3) == 0 && l.c_in == l.n)
        l.group = l.c_in; // depthwise
    l.h_in = pick(2, 7);
    l.w_in = pick(2, 7);
    l.h_k = pick(1, std::min(3, l.h_in));
    l.w_k = pick(1, std::min(3, l.w_in));
    l.stride_h = pick(1, 2);
    l.stride_w = pick(1, 2);
    l.pad_top = pick(0, 1);
    l.pad_bottom = pick(0, 1);
    l.pad_left = pick(0, 1);
    l.pad_right = pick(0, 1);
    p.hardware.mem_size = 1000000;
    p.hardware.nbop_pe = 1000000;
    p.hardware.t_l = pick(1, 3);
    p.hardware.t_w = pick(1, 2);
    p.hardware.t_acc = pick(1, 5);
    p.hardware.max_loads_per_element = 1000;
    const std::int64_t bursts[] = {1, 2, 3, 4, 8, 16};
    p.hardware.transfer = Transfer{pick(0, 1) ? Layout::Nhwc : Layout::Nchw, bursts[pick(0, 5)], double(pick(0, 2) * 10)};
    if (p.hardware.transfer->isLinear())
        p.hardware.transfer->t_setup = 3;
    p.options.padding_in_dram = pick(0, 1) == 1;
    p.options.kernels_preloaded = pick(0, 1) == 1;
    return p;
}

/// Patches shuffled and cut into groups of random sizes.
Groups randomGroups(std::int64_t patches, std::mt19937 &random)
{
    std::vector<PatchId> order(static_cast<std::size_t>(patches));
    std::iota(order.begin(), order.end(), PatchId(0));
    std::shuffle(order.begin(), order.end(), random);
    Groups groups;
    for (std::size_t i = 0; i < order.size();) {
        const std::size_t size = std::uniform_int_distribution<std::size_t>(1, 4)(random);
        Group g(order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(std::min(order.size(), i + size)));
        std::sort(g.begin(), g.end());
        groups.push_back(std::move(g));
        i += size;
    }
    return groups;
}

/// A kernel-blocked member's schedule of `groups`, simulated under the
/// problem's transfer model.
double simulatedBlocked(const Problem &problem, const Groups &groups, KernelLoop loop, std::int64_t kernelBlock)
{
    StrategySpec spec{"x", StrategyKind::Steps, std::nullopt, {}};
    spec.steps = kernelBlockedSteps(groups, kernelBlocks(problem.layer.n, kernelBlock), loop);
    SimulationOptions options;
    options.functional = false;
    return simulateStrategy(problem, spec, options).totalDuration();
}

/// randomProblem with one channel group and up to 5 kernels, for the
/// kernel-blocked loops, and a member of random loop and block size whose
/// groups hold up to 4 patches, any number of them.
struct BlockedCase {
    Problem problem;
    KernelBlockedParams member;
    S1Instance instance;
};
BlockedCase randomBlockedCase(std::mt19937 &random)
{
    auto pick = [&random](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    BlockedCase c;
    c.problem = randomProblem(random);
    c.problem.layer.group = 1;
    c.problem.layer.n = pick(1, 5);
    const KernelLoop loop = pick(0, 1) ? KernelLoop::KernelsOuter : KernelLoop::PatchesOuter;
    c.member = {loop, PatchOrder::ZigZag, pick(1, c.problem.layer.n), 4};
    OptimiseSettings settings;
    settings.group_count = GroupCount::AtMostCap;
    c.instance = regroupInstance(c.problem, c.member, settings);
    return c;
}

S1Instance transferInstance(const Problem &problem, std::int64_t groupSize)
{
    OptimiseSettings settings;
    settings.group_size = groupSize;
    settings.group_count = GroupCount::AtMostCap;
    S1Instance in = makeS1Instance(problem, settings);
    in.transfer = S1TransferCost::make(problem);
    return in;
}

} // namespace

class TestSearchTransfer : public QObject {
    Q_OBJECT
private slots:
    /// Items {0, 1, 2, 5, 6} of a lane of 7, worked on paper. NCHW with two
    /// channels: lane 0 holds addresses 0-2 and 5-6, lane 1 7-9 and 12-13;
    /// 5-9 is one run across the lanes, so 3 runs: [0,2] (block 0), [5,9]
    /// (blocks 1, 2), [12,13] (block 3) with bursts of 4: 4 blocks. NHWC
    /// with two channels: pixels 0-2 are addresses 0-5 (blocks 0, 1) and
    /// pixels 5-6 are 10-13 (blocks 2, 3): 2 runs, 4 blocks. One channel:
    /// [0,2] and [5,6], blocks 0 and 1: 2 runs, 2 blocks.
    void runsAndBlocksByHand_data()
    {
        QTest::addColumn<bool>("nhwc");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("runs");
        QTest::addColumn<int>("blocks");
        QTest::newRow("nchw, 2 channels") << false << 2 << 3 << 4;
        QTest::newRow("nhwc, 2 channels") << true << 2 << 2 << 4;
        QTest::newRow("nchw, 1 channel") << false << 1 << 2 << 2;
    }
    void runsAndBlocksByHand()
    {
        QFETCH(bool, nhwc);
        QFETCH(int, channels);
        QFETCH(int, runs);
        QFETCH(int, blocks);
        Problem p;
        p.layer.c_in = channels;
        p.layer.n = 1;
        p.layer.h_in = 1;
        p.layer.w_in = 7;
        p.layer.h_k = p.layer.w_k = 1;
        p.hardware.transfer = Transfer{nhwc ? Layout::Nhwc : Layout::Nchw, 4, 10};
        const std::optional<S1TransferCost> cost = S1TransferCost::make(p);
        QVERIFY(cost);
        const std::vector<std::int64_t> items{0, 1, 2, 5, 6};
        QCOMPARE(cost->input(items), (TransferTally{runs, blocks}));
    }

    void noTransferCostWhereTheLinearOneIsExact()
    {
        Problem p;
        QVERIFY(!S1TransferCost::make(p));
        p.hardware.transfer = Transfer{Layout::Nhwc, 1, 0};
        QVERIFY(!S1TransferCost::make(p));
        p.hardware.transfer = Transfer{Layout::Nhwc, 4, 0};
        QVERIFY(S1TransferCost::make(p));
        p.options.write_policy = WritePolicy::AsLateAsPossible;
        QVERIFY(!S1TransferCost::make(p));
    }

    /// evaluate() under the transfer model is the simulator's duration, on
    /// random layers, layouts, bursts, set-ups and groupings.
    void evaluationIsTheSimulatorsDuration()
    {
        std::mt19937 random(2026);
        for (int i = 0; i < 300; ++i) {
            const Problem p = randomProblem(random);
            const S1Instance in = transferInstance(p, 4);
            QVERIFY(in.transfer);
            const Groups groups = randomGroups(in.patches, random);
            const S1Evaluation ev = evaluate(in, groups);
            QVERIFY2(ev.feasible, ev.violation.c_str());
            const double expected = simulated(p, groups);
            QVERIFY2(std::abs(ev.duration - expected) < 1e-9 * std::max(1.0, expected),
                qPrintable(QStringLiteral("case %1: evaluated %2, simulated %3").arg(i).arg(ev.duration).arg(expected)));
        }
    }

    /// The kernel-blocked loops: evaluate() on regroupInstance is the
    /// simulator's duration of the member's steps, on random layers,
    /// layouts, bursts, set-ups, block sizes, loops and groupings; so both
    /// the writes block by block, the kernels' reloads and kernels-outer's
    /// backward passes and turns are priced exactly.
    void blockedEvaluationIsTheSimulatorsDuration()
    {
        std::mt19937 random(39);
        int blocked = 0, kernelsOuter = 0;
        for (int i = 0; i < 400; ++i) {
            const BlockedCase c = randomBlockedCase(random);
            QVERIFY(c.instance.transfer);
            const Groups groups = randomGroups(c.instance.patches, random);
            const S1Evaluation ev = evaluate(c.instance, groups);
            QVERIFY2(ev.feasible, ev.violation.c_str());
            const double expected = simulatedBlocked(c.problem, groups, c.member.loop, c.member.kernel_block);
            QVERIFY2(std::abs(ev.duration - expected) < 1e-9 * std::max(1.0, expected),
                qPrintable(QStringLiteral("case %1 (%2, B = %3 of N = %4, %5): evaluated %6, simulated %7")
                               .arg(i)
                               .arg(QString::fromStdString(kernelLoopName(c.member.loop)))
                               .arg(c.member.kernel_block)
                               .arg(c.problem.layer.n)
                               .arg(QString::fromStdString(layoutName(c.problem.hardware.transfer->layout)))
                               .arg(ev.duration)
                               .arg(expected)));
            blocked += c.member.kernel_block < c.problem.layer.n;
            kernelsOuter += c.member.loop == KernelLoop::KernelsOuter && c.member.kernel_block < c.problem.layer.n;
        }
        QVERIFY(blocked > 100 && kernelsOuter > 50); // the cases streamed kernels
    }

    /// Worked on paper: a 1\u00d71\u00d73 input, four 1\u00d71 kernels in blocks
    /// of 2, patches-outer, one group of the 3 patches, nchw, bursts of 8,
    /// set-up 10, kernels preloaded. The group loads pixels 0-2 (one run,
    /// block 0: 10 + 8); block 0's outputs are kernels 0-1 at 0-2 and 3-5,
    /// one run in block 0 (10 + 8); block 1's are 6-8 and 9-11, one run
    /// over blocks 0 and 1 (10 + 16); two computes: 64.
    void blockedWritesByHand()
    {
        Problem p;
        p.layer = Layer{1, 1, 3, 1, 1, 4, 1, 1, 0, 0, 0, 0};
        p.hardware.mem_size = 1000;
        p.hardware.nbop_pe = 1000;
        p.hardware.transfer = Transfer{Layout::Nchw, 8, 10};
        p.options.kernels_preloaded = true;
        const KernelBlockedParams member{KernelLoop::PatchesOuter, PatchOrder::ZigZag, 2, 3};
        const S1Instance in = regroupInstance(p, member);
        QVERIFY(in.transfer);
        const Groups one{{0, 1, 2}};
        QCOMPARE(evaluate(in, one).duration, 64.0);
        QCOMPARE(simulatedBlocked(p, one, member.loop, member.kernel_block), 64.0);
    }

    /// A grouped layer's kernel-blocked steps load some channel groups of a
    /// pixel: not priced, so the regrouping keeps the linear cost there.
    void groupedBlockedStaysLinear()
    {
        Problem p = paperExampleProblem(1000);
        p.layer.group = 2;
        p.hardware.transfer = Transfer{Layout::Nchw, 8, 20};
        QVERIFY(!regroupInstance(p, {KernelLoop::KernelsOuter, PatchOrder::ZigZag, 1, 2}).transfer);
        p.layer.group = 1;
        QVERIFY(regroupInstance(p, {KernelLoop::KernelsOuter, PatchOrder::ZigZag, 1, 2}).transfer);
        p.hardware.transfer = Transfer{Layout::Nchw, 1, 0}; // linear: the linear cost is exact
        QVERIFY(!regroupInstance(p, {KernelLoop::KernelsOuter, PatchOrder::ZigZag, 1, 2}).transfer);
    }

    /// The incremental state of the kernel-blocked loops (backward tallies
    /// included) after every kind of move, against evaluate() from scratch.
    void blockedStateFollowsEveryMove()
    {
        std::mt19937 random(11);
        int checked = 0;
        for (int i = 0; i < 40; ++i) {
            const BlockedCase c = randomBlockedCase(random);
            Annealer annealer(c.instance, randomGroups(c.instance.patches, random), std::uint64_t(i));
            Random coin(std::uint64_t(i) + 1);
            for (int m = 0; m < 300; ++m) {
                const Annealer::Proposal proposal = annealer.propose();
                if (proposal == Annealer::Proposal::Applied && coin.below(3) == 0)
                    annealer.undo();
                const SearchState &s = annealer.state();
                const double expected = evaluate(c.instance, s.groups()).duration;
                QVERIFY2(std::abs(s.duration() - expected) < 1e-9 * std::max(1.0, expected),
                    qPrintable(QStringLiteral("case %1, move %2: state %3, from scratch %4")
                                   .arg(i)
                                   .arg(m)
                                   .arg(s.duration())
                                   .arg(expected)));
                ++checked;
            }
        }
        QVERIFY(checked > 10000);
    }

    /// After every proposal (accepted, undone or committed) the state's
    /// duration is evaluate()'s from scratch.
    void stateFollowsEveryMove()
    {
        std::mt19937 random(7);
        int checked = 0;
        for (int i = 0; i < 40; ++i) {
            const Problem p = randomProblem(random);
            const S1Instance in = transferInstance(p, 3);
            Annealer annealer(in, randomGroups(in.patches, random), std::uint64_t(i));
            Random coin(std::uint64_t(i) + 1);
            for (int m = 0; m < 300; ++m) {
                const Annealer::Proposal proposal = annealer.propose();
                QVERIFY(proposal != Annealer::Proposal::Priced); // order moves are applied under a transfer model
                if (proposal == Annealer::Proposal::Applied && coin.below(3) == 0)
                    annealer.undo();
                const SearchState &s = annealer.state();
                const double expected = evaluate(in, s.groups()).duration;
                QVERIFY2(std::abs(s.duration() - expected) < 1e-9 * std::max(1.0, expected),
                    qPrintable(QStringLiteral("case %1, move %2: state %3, from scratch %4")
                                   .arg(i)
                                   .arg(m)
                                   .arg(s.duration())
                                   .arg(expected)));
                ++checked;
            }
        }
        QVERIFY(checked > 10000);
    }

    /// On the paper's example under NCHW, bursts of 8 and a set-up of 20,
    /// the linear optimum costs more than Row-by-Row; the search, minimising
    /// the transfer cost, does at least as well as every heuristic, and its
    /// duration is what the simulator says.
    void searchBeatsTheHeuristicsUnderTheSameCost_data()
    {
        QTest::addColumn<bool>("nhwc");
        QTest::addColumn<int>("burst");
        QTest::addColumn<int>("setup");
        QTest::newRow("nchw 8, 20") << false << 8 << 20;
        QTest::newRow("nhwc 16, 100") << true << 16 << 100;
        QTest::newRow("nchw 64, 0") << false << 64 << 0;
    }
    void searchBeatsTheHeuristicsUnderTheSameCost()
    {
        QFETCH(bool, nhwc);
        QFETCH(int, burst);
        QFETCH(int, setup);
        Problem p = paperExampleProblem(80);
        p.hardware.transfer = Transfer{nhwc ? Layout::Nhwc : Layout::Nchw, burst, double(setup)};
        OptimiseRequest request;
        request.max_moves = 200000;
        request.threads = 1;
        OptimiseControl control;
        control.time_limit_s = 60;
        const OptimiseReport report = optimise(p, request, control);
        QVERIFY(report.result.hasSolution());
        QVERIFY(report.instance.transfer);
        const double result = simulated(p, report.result.groups);
        QCOMPARE(report.result.duration, result);
        QVERIFY(report.result.duration >= report.lower_bound);
        for (const NamedGroups &h : report.heuristics) {
            const double heuristic = simulated(p, h.groups);
            QCOMPARE(h.evaluation.duration, heuristic);
            QVERIFY2(result <= heuristic,
                qPrintable(QStringLiteral("%1: %2 > %3").arg(QString::fromStdString(h.name)).arg(result).arg(heuristic)));
        }
        QVERIFY(report.result.message.find("the transfer model's cost, which the search minimised") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSearchTransfer)
#include "tst_searchtransfer.moc"
