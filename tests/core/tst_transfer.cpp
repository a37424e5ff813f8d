// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The transfer model (docs/reference/model.md#transfer-cost): each load and
// write action costs, over its maximal runs of consecutive DRAM addresses,
// t_setup + (aligned blocks of `burst` touched) · burst · t. Checked against
// steps counted on paper, and against a naive route written here from the
// definition: every address an action moves, sorted, cut into runs.

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/FusedSimulation.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace convoffload;

namespace {

struct Counts {
    std::int64_t runs = 0, blocks = 0;
};

/// The definition: sort the addresses, cut where one does not follow the
/// previous, count the aligned blocks each run touches.
Counts naiveCounts(std::vector<std::int64_t> addresses, std::int64_t burst)
{
    std::sort(addresses.begin(), addresses.end());
    Counts c;
    for (std::size_t i = 0; i < addresses.size();) {
        std::size_t j = i + 1;
        while (j < addresses.size() && addresses[j] == addresses[j - 1] + 1)
            ++j;
        ++c.runs;
        c.blocks += addresses[j - 1] / burst - addresses[i] / burst + 1;
        i = j;
    }
    return c;
}

/// Input element (channel c of pixel `p`) as stored: padded when padding
/// is in DRAM, else the unpadded input.
std::int64_t inputAddress(const Problem &p, PixelId pixel, int c)
{
    const Layer &l = p.layer;
    const Grid g = pixelPosition(l, pixel);
    const bool padded = p.options.padding_in_dram;
    const std::int64_t h = padded ? l.paddedHeight() : l.h_in, w = padded ? l.paddedWidth() : l.w_in;
    const std::int64_t y = padded ? g.row : g.row - l.pad_top, x = padded ? g.col : g.col - l.pad_left;
    return p.hardware.transfer->layout == Layout::Nhwc ? (y * w + x) * l.c_in + c : c * h * w + y * w + x;
}

/// Every step's load and write counts, from the expanded step list.
std::vector<std::pair<Counts, Counts>> naiveSteps(const Problem &p, const StepList &steps)
{
    const Layer &l = p.layer;
    const Transfer &t = *p.hardware.transfer;
    std::vector<std::pair<Counts, Counts>> out;
    for (const Step &s : steps) {
        std::vector<std::int64_t> loads, kernels, writes;
        for (SliceId id : s.load_input) {
            const int group = int(id % SliceId(l.group)), cg = l.c_in / l.group;
            for (int c = group * cg; c < (group + 1) * cg; ++c)
                loads.push_back(inputAddress(p, PixelId(id / SliceId(l.group)), c));
        }
        if (!p.options.kernels_preloaded)
            for (KernelId k : s.load_kernels)
                for (std::int64_t e = 0; e < l.kernelElements(); ++e)
                    kernels.push_back(std::int64_t(k) * l.kernelElements() + e);
        for (OutputId o : s.write) {
            const std::int64_t patch = o / OutputId(l.n), k = o % OutputId(l.n);
            writes.push_back(t.layout == Layout::Nhwc ? std::int64_t(o) : k * l.patchCount() + patch);
        }
        // Input and kernels are separate tensors: their runs never join.
        Counts load = naiveCounts(loads, t.burst);
        const Counts kernel = naiveCounts(kernels, t.burst);
        load.runs += kernel.runs;
        load.blocks += kernel.blocks;
        out.push_back({load, naiveCounts(writes, t.burst)});
    }
    return out;
}

Problem handExample(int channels, Layout layout)
{
    Problem p;
    p.layer.c_in = channels;
    p.layer.h_in = 2;
    p.layer.w_in = 7;
    p.layer.h_k = p.layer.w_k = 2;
    p.hardware.mem_size = 100;
    p.hardware.nbop_pe = 2 * channels * 4; // G = 2
    p.hardware.transfer = Transfer{layout, 4, 10};
    return p;
}

StrategySpec zigzagSpec()
{
    StrategySpec s;
    s.name = "ZigZag";
    s.kind = StrategyKind::ZigZag;
    return s;
}

SimulationOptions steppedOptions()
{
    SimulationOptions o;
    o.functional = false;
    return o;
}

} // namespace

class TestTransfer : public QObject {
    Q_OBJECT
private slots:
    // A 2×7 input, one 2×2 kernel, G = 2, ZigZag: groups {0,1}, {2,3},
    // {4,5} read input columns 0–2, 2–4 (column 2 kept), 4–6; burst 4,
    // set-up 10, t = 1. Rows are 7 apart. Per step (load runs, load
    // blocks, write runs, write blocks, duration), worked on paper:
    // - one channel (both layouts store it alike): step 1 loads {0,1,2},
    //   {7,8,9} (blocks 0 | 1,2) and the kernel [0,3]: 3 runs, 4 blocks,
    //   30 + 16 + t_acc = 47; step 2 loads {3,4} (blocks 0,1), {10,11}
    //   (block 2) and writes outputs 0,1: 20 + 12 + 10 + 4 + 1 = 47; step 3
    //   {5,6}, {12,13}: 2 runs, 2 blocks, writes 2,3: 43; the drain writes
    //   4,5: 14. Total 151.
    // - two channels, NHWC (address = pixel·2 + c): step 1 [0,5], [14,19]
    //   and the kernel's 8 elements: 3 runs, 2 + 2 + 2 blocks = 55; step 2
    //   [6,9], [20,23]: 2 runs, 3 blocks, + write = 47; step 3 [10,13],
    //   [24,27]: 47; drain 14. Total 163.
    // - two channels, NCHW (address = c·14 + pixel): step 1 channel 0 {0,1,2},
    //   {7,8,9}, channel 1 {14,15,16}, {21,22,23}: 4 runs, 1 + 2 + 2 + 1
    //   blocks, + the kernel (1 run, 2 blocks) = 50 + 32 + 1 = 83; step 2
    //   {3,4}, {10,11}, {17,18}, {24,25}: 4 runs, 5 blocks, + write: 75;
    //   step 3 {5,6}, {12,13}, {19,20}, {26,27}: 4 runs, 5 blocks: 75; drain
    //   14. Total 247.
    void handWorked_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("layout");
        QTest::addColumn<QList<qint64>>("perStep"); // load runs, load blocks, write runs, write blocks, duration
        QTest::addColumn<double>("total");
        const QList<qint64> one{3, 4, 0, 0, 47, 2, 3, 1, 1, 47, 2, 2, 1, 1, 43, 0, 0, 1, 1, 14};
        QTest::newRow("1 channel, NCHW") << 1 << int(Layout::Nchw) << one << 151.0;
        QTest::newRow("1 channel, NHWC") << 1 << int(Layout::Nhwc) << one << 151.0;
        QTest::newRow("2 channels, NHWC") << 2 << int(Layout::Nhwc)
                                          << QList<qint64>{3, 6, 0, 0, 55, 2, 3, 1, 1, 47, 2, 3, 1, 1, 47, 0, 0, 1, 1, 14}
                                          << 163.0;
        QTest::newRow("2 channels, NCHW") << 2 << int(Layout::Nchw)
                                          << QList<qint64>{5, 8, 0, 0, 83, 4, 5, 1, 1, 75, 4, 5, 1, 1, 75, 0, 0, 1, 1, 14}
                                          << 247.0;
    }
    void handWorked()
    {
        QFETCH(int, channels);
        QFETCH(int, layout);
        QFETCH(QList<qint64>, perStep);
        QFETCH(double, total);
        const Problem p = handExample(channels, Layout(layout));
        const SimulationResult r = simulateStrategy(p, zigzagSpec(), steppedOptions());
        QVERIFY(r.valid());
        QVERIFY(r.transfer_model);
        QCOMPARE(qsizetype(r.steps.size()) * 5, perStep.size());
        for (std::size_t i = 0; i < r.steps.size(); ++i) {
            const StepStats &s = r.steps[i];
            const qsizetype at = qsizetype(i) * 5;
            QCOMPARE(s.load_runs, perStep[at]);
            QCOMPARE(s.load_bursts, perStep[at + 1]);
            QCOMPARE(s.write_runs, perStep[at + 2]);
            QCOMPARE(s.write_bursts, perStep[at + 3]);
            QCOMPARE(s.duration(), double(perStep[at + 4]));
            QCOMPARE(s.setup_duration, 10.0 * double(s.load_runs + s.write_runs));
        }
        QCOMPARE(r.totalDuration(), total);
        // Footprint and load counts still count only the elements needed.
        Problem linear = p;
        linear.hardware.transfer.reset();
        const SimulationResult l = simulateStrategy(linear, zigzagSpec(), steppedOptions());
        QCOMPARE(r.peakFootprint(), l.peakFootprint());
        QCOMPARE(r.loadedInput(), l.loadedInput());
        QCOMPARE(r.input_load_counts, l.input_load_counts);
    }

    // Burst 1 and no set-up is the linear model: the same durations as no
    // transfer model at all, on random layers and strategies.
    void burstOneIsLinear()
    {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 60; ++trial) {
            Problem p = randomProblem(rng);
            Problem linear = p;
            linear.hardware.transfer.reset();
            p.hardware.transfer = Transfer{trial % 2 ? Layout::Nhwc : Layout::Nchw, 1, 0};
            for (const StrategySpec &spec : randomSpecs(p, rng)) {
                const SimulationResult a = simulateStrategy(p, spec, steppedOptions());
                const SimulationResult b = simulateStrategy(linear, spec, steppedOptions());
                QCOMPARE(a.totalDuration(), b.totalDuration());
                QCOMPARE(a.valid(), b.valid());
                for (std::size_t i = 0; i < a.steps.size(); ++i)
                    QCOMPARE(a.steps[i].duration(), b.steps[i].duration());
            }
        }
    }

    // Random layers (grouped, padded, padding in DRAM or not), layouts,
    // bursts and set-ups, S1 and kernel-blocked strategies: every step's
    // runs and blocks are the naive route's, and the durations follow.
    void agreesWithSortedAddresses()
    {
        std::mt19937 rng(11);
        int checked = 0;
        for (int trial = 0; trial < 150; ++trial) {
            Problem p = randomProblem(rng);
            p.hardware.transfer = Transfer{std::uniform_int_distribution<int>(0, 1)(rng) ? Layout::Nhwc : Layout::Nchw,
                std::uniform_int_distribution<std::int64_t>(1, 9)(rng), double(std::uniform_int_distribution<int>(0, 20)(rng))};
            for (const StrategySpec &spec : randomSpecs(p, rng)) {
                const StepList steps = expandStrategy(p, spec);
                const SimulationResult r = simulate(p, steps, steppedOptions());
                if (!r.valid())
                    continue; // an invalid step's loads and writes may move less than they list
                const auto naive = naiveSteps(p, steps);
                QCOMPARE(r.steps.size(), naive.size());
                for (std::size_t i = 0; i < naive.size(); ++i) {
                    const StepStats &s = r.steps[i];
                    const std::string where
                        = "trial " + std::to_string(trial) + " " + spec.name + " step " + std::to_string(i + 1);
                    QVERIFY2(s.load_runs == naive[i].first.runs, where.c_str());
                    QVERIFY2(s.load_bursts == naive[i].first.blocks, where.c_str());
                    QVERIFY2(s.write_runs == naive[i].second.runs, where.c_str());
                    QVERIFY2(s.write_bursts == naive[i].second.blocks, where.c_str());
                    const Transfer &t = *p.hardware.transfer;
                    const double expected = double(naive[i].first.runs + naive[i].second.runs) * t.t_setup
                        + double(naive[i].first.blocks) * double(t.burst) * p.hardware.t_l
                        + double(naive[i].second.blocks) * double(t.burst) * p.hardware.t_w + (s.drain ? 0.0 : p.hardware.t_acc);
                    QVERIFY2(s.duration() == expected, where.c_str());
                }
                // The run without step stats (the fused path's callers) totals the same.
                SimulationOptions totals = steppedOptions();
                totals.step_stats = false;
                const SimulationResult t = simulateStrategy(p, spec, totals);
                QCOMPARE(t.totalDuration(), r.totalDuration());
                QCOMPARE(t.transferRuns(), r.transferRuns());
                ++checked;
            }
        }
        QVERIFY(checked > 150);
    }

    // The fused pass counts runs itself for S1 strategies whose outputs are
    // written at the next step: the same steps, figures and durations as the
    // general executor, on random layers and transfer settings.
    void fusedPassAgrees()
    {
        std::mt19937 rng(23);
        int fused = 0;
        for (int trial = 0; trial < 120; ++trial) {
            Problem p = randomProblem(rng);
            p.options.write_policy = WritePolicy::NextStep;
            p.hardware.transfer = Transfer{std::uniform_int_distribution<int>(0, 1)(rng) ? Layout::Nhwc : Layout::Nchw,
                std::uniform_int_distribution<std::int64_t>(1, 9)(rng), double(std::uniform_int_distribution<int>(0, 20)(rng))};
            p.hardware.mem_size = std::uniform_int_distribution<int>(0, 1)(rng) ? 100000 : 60; // overflows too
            for (const StrategySpec &spec : randomSpecs(p, rng)) {
                if (!isS1Kind(spec.kind))
                    continue;
                SimulationOptions o = steppedOptions();
                o.trace = false; // the fused pass takes no trace
                o.functional = trial % 2 == 0; // with the chip memory's own loads (one channel: loaded in the walk)
                const std::optional<SimulationResult> f = simulateS1Fused(p, groupsOf(p, spec), o);
                QVERIFY(f);
                const SimulationResult g = simulate(p, expandStrategy(p, spec), o);
                QCOMPARE(f->steps.size(), g.steps.size());
                for (std::size_t i = 0; i < g.steps.size(); ++i) {
                    const std::string where
                        = "trial " + std::to_string(trial) + " " + spec.name + " step " + std::to_string(i + 1);
                    QVERIFY2(f->steps[i] == g.steps[i], where.c_str());
                }
                QCOMPARE(f->totalDuration(), g.totalDuration());
                QCOMPARE(f->functional.status, g.functional.status);
                ++fused;
            }
        }
        QVERIFY(fused > 300);
    }

private:
    static Problem randomProblem(std::mt19937 &rng)
    {
        const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        Problem p;
        Layer &l = p.layer;
        l.group = pick(1, 3) == 1 ? pick(2, 3) : 1;
        l.c_in = l.group * pick(1, 2);
        l.n = l.group * pick(1, 2);
        l.h_in = pick(2, 7);
        l.w_in = pick(2, 7);
        l.h_k = pick(1, std::min(3, l.h_in));
        l.w_k = pick(1, std::min(3, l.w_in));
        l.stride_h = pick(1, 2);
        l.stride_w = pick(1, 2);
        if (pick(0, 1)) {
            l.pad_top = pick(0, 1);
            l.pad_bottom = pick(0, 1);
            l.pad_left = pick(0, 1);
            l.pad_right = pick(0, 1);
        }
        p.options.padding_in_dram = pick(0, 1) == 1;
        p.options.kernels_preloaded = pick(0, 3) == 0;
        p.options.write_policy = pick(0, 1) ? WritePolicy::AsLateAsPossible : WritePolicy::NextStep;
        p.hardware.mem_size = 100000;
        p.hardware.nbop_pe = l.kernelElements() * l.n * pick(1, 4);
        p.hardware.t_l = pick(1, 3);
        p.hardware.t_w = pick(0, 2);
        p.hardware.t_acc = pick(0, 2);
        return p;
    }

    static std::vector<StrategySpec> randomSpecs(const Problem &p, std::mt19937 &rng)
    {
        std::vector<StrategySpec> specs;
        for (StrategyKind kind : {StrategyKind::S1Baseline, StrategyKind::RowByRow, StrategyKind::ZigZag}) {
            StrategySpec s;
            s.name = strategyKindName(kind);
            s.kind = kind;
            specs.push_back(s);
        }
        StrategySpec kb;
        kb.name = "kernel-blocked";
        kb.kind = StrategyKind::KernelBlocked;
        kb.kernel_block = std::uniform_int_distribution<std::int64_t>(1, p.layer.n)(rng);
        kb.loop = std::uniform_int_distribution<int>(0, 1)(rng) ? KernelLoop::KernelsOuter : KernelLoop::PatchesOuter;
        specs.push_back(kb);
        return specs;
    }
};

QTEST_APPLESS_MAIN(TestTransfer)
#include "tst_transfer.moc"
