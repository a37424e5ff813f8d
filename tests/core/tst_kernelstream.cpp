// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Strategies that stream kernels (docs/reference/strategies.md#steps-strategies): the expansion worked by hand on
// two small layers, the kernel-blocked generator, the validity findings, the
// project file and CSV forms, and the S1 equivalence on every sample.
//
// Every figure below is worked out by hand in the comments from the definitions
// of docs/reference/strategies.md, never copied from the program's output.

#include "TestPrinting.h"
#include "TestProblems.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/StrategyCsv.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/Comparison.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <optional>
#include <random>

using namespace convoffload;

namespace {

const std::string kDataDir = CONVOFFLOAD_TEST_DATA;
const std::string kSharedDataDir = CONVOFFLOAD_SHARED_TEST_DATA;

QString qs(const std::string &s) { return QString::fromStdString(s); }

/// The docs/reference/strategies.md#steps-strategies example's layer: a 1×3×3 input, two 2×2 kernels, stride 1.
/// Pixels are ids 0..8 row-major; the four patches are
///   patch 0 (0,0): {0,1,3,4}   patch 1 (0,1): {1,2,4,5}
///   patch 2 (1,0): {3,4,6,7}   patch 3 (1,1): {4,5,7,8}
/// A kernel holds 1·2·2 = 4 elements; output id = patch·2 + kernel.
/// nbop_pe 8: two outputs of 4 MACs per step.
Problem twoBlocksProblem()
{
    Problem p;
    p.layer = {1, 3, 3, 2, 2, 2, 1, 1, 0, 0, 0, 0};
    p.hardware.mem_size = 100;
    p.hardware.nbop_pe = 8;
    return p;
}

/// The "Two blocks" example of docs/reference/strategies.md#steps-strategies: kernel 0 on patches {0,1} then {2,3}, then
/// kernel 1 on {2,3} (kept) then {0,1}.
ComputeSteps twoBlocks() { return {{{0, 1}, {0}}, {{2, 3}, {0}}, {{2, 3}, {1}}, {{0, 1}, {1}}}; }

SimulationOptions fullOptions()
{
    SimulationOptions o;
    o.trace = true;
    o.functional = true;
    return o;
}

std::string firstError(const SimulationResult &r)
{
    const auto errors = r.errors();
    return errors.empty() ? std::string() : errors.front()->message;
}

template <typename F> std::optional<std::string> strategyErrorOf(F &&f)
{
    try {
        f();
    } catch (const StrategyError &e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

template <typename F> std::optional<FormatError> formatErrorOf(F &&f)
{
    try {
        f();
    } catch (const FormatError &e) {
        return e;
    }
    return std::nullopt;
}

const Diagnostic *findRule(const SimulationResult &r, Rule rule)
{
    for (const Diagnostic &d : r.diagnostics)
        if (d.rule == rule)
            return &d;
    return nullptr;
}

/// A project holding the paper Example's layer with one strategy of each new
/// kind, optional keys both given and omitted.
Project streamingProject()
{
    Project p;
    p.problem = paperExampleProblem();
    StrategySpec steps{"Two blocks", StrategyKind::Steps, std::nullopt, {}};
    steps.steps = {{{0, 1, 2, 3}, {0}}, {{4, 5, 6, 7}, {0}}, {{8}, {0, 1}}, {{7, 6, 5, 4}, {1}}, {{0, 1, 2, 3}, {1}}};
    StrategySpec blocked{"Blocked", StrategyKind::KernelBlocked, 4, {}};
    blocked.kernel_block = 1;
    blocked.order = PatchOrder::RowByRow;
    blocked.loop = KernelLoop::PatchesOuter;
    StrategySpec defaults{"Blocked defaults", StrategyKind::KernelBlocked, std::nullopt, {}};
    p.strategies = {{"ZigZag", StrategyKind::ZigZag, 2, {}}, steps, blocked, defaults};
    return p;
}

} // namespace

// Checks that `call` throws a FormatError at `where` whose reason contains `reason`.
#define VERIFY_FORMAT_ERROR(call, expectedWhere, expectedReason)                                                                 \
    do {                                                                                                                         \
        const auto error_ = formatErrorOf([&] { (void)(call); });                                                                \
        QVERIFY2(error_.has_value(), "no FormatError was thrown");                                                               \
        QCOMPARE(qs(error_->where), qs(expectedWhere));                                                                          \
        QVERIFY2(error_->reason.find(expectedReason) != std::string::npos, error_->what());                                      \
    } while (false)

class TestKernelStream : public QObject {
    Q_OBJECT

private slots:
    // ------------------------------------------------------------ by hand

    // The "Two blocks" example on the 1×3×3 layer above, next-step writes,
    // t_l = t_w = t_acc = 1.
    void twoBlocksByHand()
    {
        const Problem p = twoBlocksProblem();
        const StepList steps = expandSteps(p, twoBlocks());
        QCOMPARE(steps.size(), std::size_t(5)); // four compute steps and the drain

        // Step 1, ({0,1}, {k0}): memory empty. I_slice = U = {0,1,2,3,4,5}
        // (6 elements), K_sub = {k0} (4), Out = {p0k0, p1k0} = ids {0, 2}.
        QCOMPARE(steps[0].load_input, (std::vector<PixelId>{0, 1, 2, 3, 4, 5}));
        QCOMPARE(steps[0].load_kernels, (std::vector<KernelId>{0}));
        QCOMPARE(steps[0].compute, (std::vector<OutputId>{0, 2}));
        QVERIFY(steps[0].free_input.empty() && steps[0].free_kernels.empty() && steps[0].write.empty());
        // Step 2, ({2,3}, {k0}): U = {3,4,5,6,7,8}; F_inp = {0,1,2},
        // I_slice = {6,7,8}; k0 kept; W = step 1's {0,2}; Out = {4, 6}.
        QCOMPARE(steps[1].free_input, (std::vector<PixelId>{0, 1, 2}));
        QCOMPARE(steps[1].load_input, (std::vector<PixelId>{6, 7, 8}));
        QVERIFY(steps[1].load_kernels.empty() && steps[1].free_kernels.empty());
        QCOMPARE(steps[1].write, (std::vector<OutputId>{0, 2}));
        QCOMPARE(steps[1].compute, (std::vector<OutputId>{4, 6}));
        // Step 3, ({2,3}, {k1}): input kept; F_ker = {k0}, K_sub = {k1};
        // W = {4,6}; Out = {5, 7}.
        QVERIFY(steps[2].free_input.empty() && steps[2].load_input.empty());
        QCOMPARE(steps[2].free_kernels, (std::vector<KernelId>{0}));
        QCOMPARE(steps[2].load_kernels, (std::vector<KernelId>{1}));
        QCOMPARE(steps[2].write, (std::vector<OutputId>{4, 6}));
        QCOMPARE(steps[2].compute, (std::vector<OutputId>{5, 7}));
        // Step 4, ({0,1}, {k1}): F_inp = {6,7,8}, I_slice = {0,1,2}; k1 kept;
        // W = {5,7}; Out = {1, 3}.
        QCOMPARE(steps[3].free_input, (std::vector<PixelId>{6, 7, 8}));
        QCOMPARE(steps[3].load_input, (std::vector<PixelId>{0, 1, 2}));
        QVERIFY(steps[3].load_kernels.empty() && steps[3].free_kernels.empty());
        QCOMPARE(steps[3].write, (std::vector<OutputId>{5, 7}));
        QCOMPARE(steps[3].compute, (std::vector<OutputId>{1, 3}));
        // Drain: W = {1,3}, F_inp = {0..5}, F_ker = {k1}.
        QCOMPARE(steps[4].write, (std::vector<OutputId>{1, 3}));
        QCOMPARE(steps[4].free_input, (std::vector<PixelId>{0, 1, 2, 3, 4, 5}));
        QCOMPARE(steps[4].free_kernels, (std::vector<KernelId>{1}));
        QVERIFY(steps[4].isDrain());

        const SimulationResult r = simulate(p, steps, fullOptions());
        QVERIFY2(r.valid(), firstError(r).c_str());
        QVERIFY2(r.diagnostics.empty(), r.diagnostics.empty() ? "" : r.diagnostics.front().message.c_str());
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
        // Durations (loads + writes + t_acc):
        //   step 1: 6 + 4 kernel + 0 + 1 = 11     step 2: 3 + 2 + 1 = 6
        //   step 3: 4 kernel + 2 + 1 = 7          step 4: 3 + 2 + 1 = 6
        //   drain: 2 writes, no t_acc = 2         total 32
        const double durations[] = {11, 6, 7, 6, 2};
        for (int k = 0; k < 5; ++k)
            QCOMPARE(r.steps[std::size_t(k)].duration(), durations[k]);
        QCOMPARE(r.totalDuration(), 32.0);
        // Footprints (input, kernels, output) after each action of step 3:
        // before (6,4,2); a1 (6,4,2); a2 frees k0 (6,0,2); a3 writes 2
        // (6,0,0); a4 (6,0,0); a5 loads k1 (6,4,0); a6 (6,4,2).
        QCOMPARE(r.trace.record(2, Action::FreeKernels).after, (Footprint{6, 0, 2}));
        QCOMPARE(r.trace.record(2, Action::Write).after, (Footprint{6, 0, 0}));
        QCOMPARE(r.trace.record(2, Action::LoadKernels).after, (Footprint{6, 4, 0}));
        QCOMPARE(r.trace.record(2, Action::Compute).after, (Footprint{6, 4, 2}));
        QCOMPARE(r.steps[2].freed_kernels, std::int64_t(4));
        QCOMPARE(r.steps[2].loaded_kernels, std::int64_t(4));
        // Step 2: before (6,4,2); a1 frees 3 → 3+4+2 = 9; a3 → 7; a4 → 10;
        // a6 → 12. The peak of the whole run is 12, at the end of steps 1-4.
        QCOMPARE(r.trace.record(1, Action::FreeInput).after.total(), std::int64_t(9));
        QCOMPARE(r.trace.record(1, Action::LoadInput).after.total(), std::int64_t(10));
        QCOMPARE(r.peakFootprint(), std::int64_t(12));
        // Totals: input 6+3+0+3 = 12 elements, kernels 2·4 = 8, written 8.
        QCOMPARE(r.loadedInput(), std::int64_t(12));
        QCOMPARE(r.loadedKernels(), std::int64_t(8));
        QCOMPARE(r.written(), std::int64_t(8));
        QCOMPARE(r.kernel_load_counts, (std::vector<std::uint32_t>{1, 1}));

        // kernels_preloaded: the 8 kernel elements cost nothing (32 - 8 = 24)
        // but still occupy memory (same peak) and count as loads.
        Problem preloaded = p;
        preloaded.options.kernels_preloaded = true;
        const SimulationResult q = simulate(preloaded, expandSteps(preloaded, twoBlocks()), fullOptions());
        QCOMPARE(q.totalDuration(), 24.0);
        QCOMPARE(q.steps[2].duration(), 3.0); // step 3: 2 writes + t_acc
        QCOMPARE(q.peakFootprint(), std::int64_t(12));
        QCOMPARE(q.loadedKernels(), std::int64_t(8));

        // As late as possible with room for everything: nothing is written
        // before the drain, which writes all 8; after step 4 the memory holds
        // input 6, kernel 4 and all 8 outputs = 18, the peak.
        Problem late = p;
        late.options.write_policy = WritePolicy::AsLateAsPossible;
        const StepList lateSteps = expandSteps(late, twoBlocks());
        for (int k = 0; k < 4; ++k)
            QVERIFY(lateSteps[std::size_t(k)].write.empty());
        QCOMPARE(lateSteps[4].write, (std::vector<OutputId>{0, 1, 2, 3, 4, 5, 6, 7}));
        const SimulationResult l = simulate(late, lateSteps, fullOptions());
        QVERIFY(l.valid());
        QCOMPARE(l.peakFootprint(), std::int64_t(18));
        QCOMPARE(l.totalDuration(), 32.0); // the same loads, writes and computes
        QCOMPARE(l.functional.status, FunctionalStatus::Pass);

        // As late as possible in 12 elements: step 2 keeps 6 input + 4 kernel
        // elements and computes 2, so the 2 pending outputs must go first
        // (10 + 2 + 2 = 14 > 12): the same writes as next-step.
        late.hardware.mem_size = 12;
        QCOMPARE(expandSteps(late, twoBlocks()), steps);
    }

    // The kernel-blocked generator gives exactly the "Two blocks" example: G = 2,
    // B = 1, row-by-row groups {0,1}, {2,3}; block 0 walks the groups
    // forwards, block 1 backwards.
    void twoBlocksIsKernelBlocked()
    {
        const Problem p = twoBlocksProblem();
        QCOMPARE(kernelBlocked(p.layer, 2, 1, PatchOrder::RowByRow, KernelLoop::KernelsOuter), twoBlocks());
        // G defaults to floor(nbop_pe / (C_in·H_K·W_K·B)) = 8 / (4·1) = 2.
        StrategySpec spec{"b", StrategyKind::KernelBlocked, std::nullopt, {}};
        spec.kernel_block = 1;
        spec.order = PatchOrder::RowByRow;
        QCOMPARE(computeStepsOf(p, spec), twoBlocks());
        // patches-outer: group {0,1} with blocks 0, 1; group {2,3} with 1, 0.
        const ComputeSteps patchesOuter{{{0, 1}, {0}}, {{0, 1}, {1}}, {{2, 3}, {1}}, {{2, 3}, {0}}};
        QCOMPARE(kernelBlocked(p.layer, 2, 1, PatchOrder::RowByRow, KernelLoop::PatchesOuter), patchesOuter);
    }

    // The paper's Example layer (2×5×5 input, two 3×3 kernels, nbop_pe 72,
    // mem_size 200, all costs 1), kernel-blocked with B = 1: G defaults to
    // 72 / (2·3·3·1) = 4, row-by-row groups g0 = {0,1,2,3}, g1 = {4,5,6,7},
    // g2 = {8}. A kernel is 18 elements.
    //   U(g0) = rows 0-2 (15 pixels) + row 3 cols 0-2 (3) = 18 pixels = 36 el.
    //   U(g1) = row 1 cols 1-4, rows 2-3, row 4 cols 0-3 = 18 pixels = 36 el.
    //   U(g2) = rows 2-4 cols 2-4 = 9 pixels = 18 el.
    //   U(g0) ∩ U(g1) = 12 pixels; U(g1) ∩ U(g2) = 8 pixels; U(g2) ⊂ rows 2-4.
    void paperLayerKernelBlockedByHand_data()
    {
        QTest::addColumn<int>("loop");
        QTest::addColumn<QList<double>>("durations");
        QTest::addColumn<qint64>("loadedInput");
        QTest::addColumn<qint64>("loadedKernels");
        QTest::addColumn<qint64>("peak");
        // kernels-outer: (g0,k0) (g1,k0) (g2,k0) (g2,k1) (g1,k1) (g0,k1).
        //   1: load 36 + k0 18, compute 4             = 36+18+0+1 = 55
        //   2: free 12, load 12, write 4, compute 4   = 12+4+1    = 17
        //   3: free 20, load 2 (pixel (4,4)), write 4 = 2+4+1     = 7
        //   4: free k0, load k1 18, write 1           = 18+1+1    = 20
        //   5: free 2, load 20, write 1, compute 4    = 20+1+1    = 22
        //   6: free 12, load 12, write 4, compute 4   = 12+4+1    = 17
        //   drain: write 4                            = 4        total 142
        // Input 36+12+2+20+12 = 82, kernels 36. Peak: after step 1,
        // 36 + 18 + 4 outputs = 58 (again in steps 2, 5 and 6).
        QTest::newRow("kernels-outer") << int(KernelLoop::KernelsOuter) << QList<double>{55, 17, 7, 20, 22, 17, 4} << qint64(82)
                                       << qint64(36) << qint64(58);
        // patches-outer: (g0,k0) (g0,k1) (g1,k1) (g1,k0) (g2,k0) (g2,k1).
        //   1: load 36 + k0 18, compute 4             = 55
        //   2: free k0, load k1 18, write 4           = 18+4+1 = 23
        //   3: free 12, load 12, write 4              = 12+4+1 = 17
        //   4: free k1, load k0 18, write 4           = 18+4+1 = 23
        //   5: free 20, load 2, write 4, compute 1    = 2+4+1  = 7
        //   6: free k0, load k1 18, write 1           = 18+1+1 = 20
        //   drain: write 1                            = 1     total 146
        // Every pixel loaded once (25 pixels = 50), kernels 4·18 = 72.
        QTest::newRow("patches-outer") << int(KernelLoop::PatchesOuter) << QList<double>{55, 23, 17, 23, 7, 20, 1} << qint64(50)
                                       << qint64(72) << qint64(58);
    }

    void paperLayerKernelBlockedByHand()
    {
        QFETCH(int, loop);
        QFETCH(QList<double>, durations);
        QFETCH(qint64, loadedInput);
        QFETCH(qint64, loadedKernels);
        QFETCH(qint64, peak);
        const Problem p = paperExampleProblem();
        StrategySpec spec{"blocked", StrategyKind::KernelBlocked, std::nullopt, {}};
        spec.kernel_block = 1;
        spec.order = PatchOrder::RowByRow;
        spec.loop = KernelLoop(loop);
        const SimulationResult r = simulateStrategy(p, spec, fullOptions());
        QVERIFY2(r.valid(), firstError(r).c_str());
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
        QCOMPARE(int(r.steps.size()), int(durations.size()));
        for (int k = 0; k < durations.size(); ++k)
            QCOMPARE(r.steps[std::size_t(k)].duration(), durations[k]);
        double total = 0;
        for (double d : durations)
            total += d;
        QCOMPARE(r.totalDuration(), total);
        QCOMPARE(r.loadedInput(), std::int64_t(loadedInput));
        QCOMPARE(r.loadedKernels(), std::int64_t(loadedKernels));
        QCOMPARE(r.peakFootprint(), std::int64_t(peak));
        QCOMPARE(r.written(), std::int64_t(18)); // 9 patches × 2 kernels
        // No pixel is loaded more than twice: max_loads_per_element 2 holds.
        QVERIFY(std::none_of(
            r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic &d) { return d.rule == Rule::ReloadBound; }));
    }

    // ------------------------------------------------------------ S1 equivalence

    // B = N gives exactly the S1 heuristic of the same order and G, in both loops.
    void allKernelsBlockIsS1_data()
    {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("loop");
        QTest::addColumn<int>("groupSize");
        for (int order : {int(PatchOrder::RowByRow), int(PatchOrder::ZigZag)})
            for (int loop : {int(KernelLoop::KernelsOuter), int(KernelLoop::PatchesOuter)})
                for (int g : {1, 2, 3, 4}) {
                    const std::string name
                        = patchOrderName(PatchOrder(order)) + " " + kernelLoopName(KernelLoop(loop)) + " G" + std::to_string(g);
                    QTest::newRow(name.c_str()) << order << loop << g;
                }
    }

    void allKernelsBlockIsS1()
    {
        QFETCH(int, order);
        QFETCH(int, loop);
        QFETCH(int, groupSize);
        for (Problem p : {paperExampleProblem(), twoBlocksProblem()}) {
            const Groups groups
                = PatchOrder(order) == PatchOrder::RowByRow ? rowByRow(p.layer, groupSize) : zigzag(p.layer, groupSize);
            const ComputeSteps blocked = kernelBlocked(p.layer, groupSize, p.layer.n, PatchOrder(order), KernelLoop(loop));
            QCOMPARE(blocked, stepsOfGroups(p.layer, groups));
            for (WritePolicy w : {WritePolicy::NextStep, WritePolicy::AsLateAsPossible}) {
                p.options.write_policy = w;
                QCOMPARE(expandSteps(p, blocked), expandS1(p, groups));
            }
        }
        // Defaults: B = N and G = nb_patches_max, as for the S1 generator.
        const Problem p = paperExampleProblem();
        StrategySpec blocked{"b", StrategyKind::KernelBlocked, std::nullopt, {}};
        blocked.order = PatchOrder(order);
        blocked.loop = KernelLoop(loop);
        const StrategyKind s1 = PatchOrder(order) == PatchOrder::RowByRow ? StrategyKind::RowByRow : StrategyKind::ZigZag;
        QCOMPARE(expandStrategy(p, blocked), expandS1(p, groupsOf(p, {"s", s1, std::nullopt, {}})));
    }

    // Every S1 strategy of every sample, as steps with all kernels, expands to
    // exactly its S1 steps, under every option combination; and simulateStrategy
    // gives the same figures through either route. (A sample's kernel-blocked
    // strategies, mobilenetv2-depthwise-conv's, have no S1 groups: tst_samples
    // runs them against the naive executor.)
    void samplesAsStepsAreS1_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void samplesAsStepsAreS1()
    {
        QFETCH(QString, path);
        const Project project = loadProject(path.toStdString());
        for (const StrategySpec &spec : project.strategies) {
            if (!isS1Kind(spec.kind))
                continue;
            const QByteArray name = QByteArray::fromStdString(spec.name);
            for (bool preloaded : {false, true})
                for (WritePolicy w : {WritePolicy::NextStep, WritePolicy::AsLateAsPossible})
                    for (bool padding : {true, false}) {
                        Problem p = project.problem;
                        p.options = {preloaded, w, padding};
                        const Groups groups = groupsOf(p, spec);
                        const StepList s1 = expandS1(p, groups);
                        QVERIFY2(expandSteps(p, stepsOfGroups(p.layer, groups)) == s1, name);
                        QVERIFY2(expandStrategy(p, spec) == s1, name);
                        StrategySpec asSteps{spec.name, StrategyKind::Steps, std::nullopt, {}};
                        asSteps.steps = stepsOfGroups(p.layer, groups);
                        QVERIFY2(expandStrategy(p, asSteps) == s1, name);
                    }
        }
    }

    // The same on random layers and random groups.
    void randomLayersAsStepsAreS1()
    {
        std::mt19937 rng(20261123);
        const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        for (int k = 0; k < 300; ++k) {
            Problem p;
            Layer &l = p.layer;
            l.c_in = uniform(1, 3);
            l.h_in = uniform(2, 9);
            l.w_in = uniform(2, 9);
            l.pad_top = uniform(0, 1);
            l.pad_bottom = uniform(0, 1);
            l.pad_left = uniform(0, 1);
            l.pad_right = uniform(0, 1);
            l.h_k = uniform(1, std::min(3, l.paddedHeight()));
            l.w_k = uniform(1, std::min(3, l.paddedWidth()));
            l.stride_h = uniform(1, 2);
            l.stride_w = uniform(1, 2);
            l.n = uniform(1, 4);
            p.hardware.mem_size = uniform(10, 400);
            p.options
                = {uniform(0, 1) == 1, uniform(0, 1) ? WritePolicy::NextStep : WritePolicy::AsLateAsPossible, uniform(0, 1) == 1};
            std::vector<PatchId> order(std::size_t(l.patchCount()));
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = PatchId(i);
            std::shuffle(order.begin(), order.end(), rng);
            Groups groups;
            for (std::size_t at = 0; at < order.size();) {
                const std::size_t size = std::min<std::size_t>(std::size_t(uniform(1, 5)), order.size() - at);
                groups.emplace_back(order.begin() + std::ptrdiff_t(at), order.begin() + std::ptrdiff_t(at + size));
                at += size;
            }
            ComputeSteps steps = stepsOfGroups(l, groups);
            for (ComputeStep &s : steps) // the order of a step's kernels does not matter
                std::shuffle(s.kernels.begin(), s.kernels.end(), rng);
            QVERIFY2(expandSteps(p, steps) == expandS1(p, groups), ("random layer " + std::to_string(k)).c_str());
        }
    }

    // ------------------------------------------------------------ the generator

    void kernelBlocks_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("block");
        QTest::addColumn<QString>("expected");
        QTest::newRow("5 by 2") << 5 << 2 << QStringLiteral("0 1|2 3|4");
        QTest::newRow("4 by 4") << 4 << 4 << QStringLiteral("0 1 2 3");
        QTest::newRow("3 by 1") << 3 << 1 << QStringLiteral("0|1|2");
    }

    void kernelBlocks()
    {
        QFETCH(int, n);
        QFETCH(int, block);
        QFETCH(QString, expected);
        QStringList got;
        for (const KernelBlock &b : convoffload::kernelBlocks(n, block)) {
            QStringList ids;
            for (KernelId k : b)
                ids << QString::number(k);
            got << ids.join(QLatin1Char(' '));
        }
        QCOMPARE(got.join(QLatin1Char('|')), expected);
    }

    // 3 kernels in blocks of 2 ({0,1}, {2}) on a 2×2 output (4 patches),
    // zigzag groups of 2: {0,1}, {3,2}.
    void serpentineWalks()
    {
        Layer l{1, 3, 3, 2, 2, 3, 1, 1, 0, 0, 0, 0};
        const ComputeSteps kernelsOuter{{{0, 1}, {0, 1}}, {{3, 2}, {0, 1}}, {{3, 2}, {2}}, {{0, 1}, {2}}};
        QCOMPARE(kernelBlocked(l, 2, 2, PatchOrder::ZigZag, KernelLoop::KernelsOuter), kernelsOuter);
        const ComputeSteps patchesOuter{{{0, 1}, {0, 1}}, {{0, 1}, {2}}, {{3, 2}, {2}}, {{3, 2}, {0, 1}}};
        QCOMPARE(kernelBlocked(l, 2, 2, PatchOrder::ZigZag, KernelLoop::PatchesOuter), patchesOuter);
        // Three groups of one, kernels-outer: forwards, backwards.
        const ComputeSteps single{
            {{0}, {0, 1}}, {{1}, {0, 1}}, {{3}, {0, 1}}, {{2}, {0, 1}}, {{2}, {2}}, {{3}, {2}}, {{1}, {2}}, {{0}, {2}}};
        QCOMPARE(kernelBlocked(l, 1, 2, PatchOrder::ZigZag, KernelLoop::KernelsOuter), single);
    }

    void names()
    {
        for (StrategyKind k : {StrategyKind::Steps, StrategyKind::KernelBlocked})
            QCOMPARE(strategyKindFromName(strategyKindName(k)), std::optional<StrategyKind>(k));
        QCOMPARE(strategyKindName(StrategyKind::KernelBlocked), std::string("kernel-blocked"));
        QCOMPARE(strategyKindName(StrategyKind::Steps), std::string("steps"));
        QCOMPARE(patchOrderFromName("zigzag"), std::optional<PatchOrder>(PatchOrder::ZigZag));
        QCOMPARE(patchOrderFromName("row-by-row"), std::optional<PatchOrder>(PatchOrder::RowByRow));
        QCOMPARE(kernelLoopFromName("patches-outer"), std::optional<KernelLoop>(KernelLoop::PatchesOuter));
        QCOMPARE(kernelLoopFromName("kernels-outer"), std::optional<KernelLoop>(KernelLoop::KernelsOuter));
        QVERIFY(!patchOrderFromName("zig-zag") && !kernelLoopFromName("outer"));
        QVERIFY(!isS1Kind(StrategyKind::Steps) && isS1Kind(StrategyKind::Groups));
    }

    // ------------------------------------------------------------ validity

    // What cannot be expanded is refused before simulation, located like a
    // finding: step (1-based), action, element.
    void refusedSpecs_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("steps"); // "patches/kernels;..." for kind steps
        QTest::addColumn<int>("block"); // kernel-blocked: B (0 = unset)
        QTest::addColumn<int>("groupSize"); // 0 = unset
        QTest::addColumn<QString>("message");
        const int steps = int(StrategyKind::Steps), blocked = int(StrategyKind::KernelBlocked);
        QTest::newRow("kernel out of range") << steps << QStringLiteral("0 1/0;2 3/0 7") << 0 << 0
                                             << QStringLiteral("strategy 'S': step 2, a5 load kernels, kernel 7: no such kernel "
                                                               "(the layer has n = 2 kernels, ids 0..1)");
        QTest::newRow("patch out of range") << steps << QStringLiteral("0 4/0") << 0 << 0
                                            << QStringLiteral(
                                                   "strategy 'S': step 1, a6 compute, patch 4: no such patch (the layer "
                                                   "has 4 patches, ids 0..3)");
        QTest::newRow("no kernels") << steps << QStringLiteral("0 1/0;2 3/") << 0 << 0
                                    << QStringLiteral("strategy 'S': step 2 has no kernels");
        QTest::newRow("no patches") << steps << QStringLiteral("/0") << 0 << 0
                                    << QStringLiteral("strategy 'S': step 1 has no patches");
        QTest::newRow("no steps") << steps << QString() << 0 << 0 << QStringLiteral("strategy 'S': it has no steps");
        QTest::newRow("B > N") << blocked << QString() << 3 << 0
                               << QStringLiteral("strategy 'S': kernel_block must be between 1 and N = 2, got 3");
        QTest::newRow("B = 0") << blocked << QString() << -1 << 0
                               << QStringLiteral("strategy 'S': kernel_block must be between 1 and N = 2, got 0");
        QTest::newRow("G = 0") << blocked << QString() << 1 << -1
                               << QStringLiteral("strategy 'S': group_size must be at least 1, got 0");
    }

    void refusedSpecs()
    {
        QFETCH(int, kind);
        QFETCH(QString, steps);
        QFETCH(int, block);
        QFETCH(int, groupSize);
        QFETCH(QString, message);
        StrategySpec spec{"S", StrategyKind(kind), std::nullopt, {}};
        for (const QString &step : steps.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            ComputeStep s;
            const QStringList parts = step.split(QLatin1Char('/'));
            for (const QString &id : parts[0].split(QLatin1Char(' '), Qt::SkipEmptyParts))
                s.patches.push_back(PatchId(id.toUInt()));
            for (const QString &id : parts[1].split(QLatin1Char(' '), Qt::SkipEmptyParts))
                s.kernels.push_back(KernelId(id.toUInt()));
            spec.steps.push_back(s);
        }
        if (block != 0)
            spec.kernel_block = std::max(block, 0);
        if (groupSize != 0)
            spec.group_size = std::max(groupSize, 0);
        const Problem p = twoBlocksProblem();
        const std::optional<std::string> error = strategyErrorOf([&] { (void)expandStrategy(p, spec); });
        QVERIFY2(error.has_value(), "no StrategyError");
        QVERIFY2(error->find(message.toStdString()) == 0, error->c_str());
        // Through the comparison the strategy is a row that failed, not a crash.
        Project project;
        project.problem = p;
        project.strategies = {spec};
        SimulationOptions quick;
        quick.functional = false;
        const std::vector<CompareRow> rows = compareStrategies(project, quick);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(qs(rows[0].failure), qs(*error));
        QCOMPARE(rows[0].kind, strategyKindName(StrategyKind(kind)));
        // S1 groups cannot be asked of a kernel-streaming strategy.
        QVERIFY(strategyErrorOf([&] { (void)groupsOf(p, spec); })->find("streams kernels") != std::string::npos);
    }

    // The pair rules and the op limit are findings of the simulation, located
    // at (step, action, element) as for S1 strategies.
    void pairComputedTwice()
    {
        const Problem p = twoBlocksProblem();
        ComputeSteps steps = twoBlocks();
        steps.push_back({{1}, {0}}); // step 5 computes O[0](0,1) again, first computed at step 1
        const SimulationResult r = simulate(p, expandSteps(p, steps), fullOptions());
        const Diagnostic *d = findRule(r, Rule::ComputedTwice);
        QVERIFY(d);
        QCOMPARE(d->step, 5);
        QCOMPARE(d->action, Action::Compute);
        QCOMPARE(d->element_kind, ElementKind::Output);
        QCOMPARE(d->element_id, OutputId(2)); // patch 1 · 2 + kernel 0
        QCOMPARE(
            qs(d->message), QStringLiteral("step 5, a6 compute, output O[0](0,1): computed again (first computed at step 1)"));
        QVERIFY(!r.valid());
    }

    void pairNeverComputed()
    {
        const Problem p = twoBlocksProblem();
        ComputeSteps steps = twoBlocks();
        steps[3].patches = {0}; // patch 1 never meets kernel 1
        const SimulationResult r = simulate(p, expandSteps(p, steps), fullOptions());
        const Diagnostic *d = findRule(r, Rule::OutputNotWritten);
        QVERIFY(d);
        QCOMPARE(d->step, 5); // the last step (the drain)
        QCOMPARE(d->element_kind, ElementKind::Output);
        QCOMPARE(d->element_id, OutputId(3)); // patch 1 · 2 + kernel 1
        QVERIFY2(d->message.find("output O[1](0,1): never computed") != std::string::npos, d->message.c_str());
        QCOMPARE(r.functional.status, FunctionalStatus::Fail);
        QVERIFY2(r.functional.message.find("output O[1](0,1) in DRAM is never written") == 0, r.functional.message.c_str());
    }

    void stepOverOpLimit()
    {
        const Problem p = twoBlocksProblem();
        // Step 2 computes 2 patches × 2 kernels = 4 outputs of 4 MACs = 16 > 8.
        const ComputeSteps steps{{{0, 1}, {0, 1}}, {{2, 3}, {0, 1}}};
        const SimulationResult r = simulate(p, expandSteps(p, steps), fullOptions());
        const Diagnostic *d = findRule(r, Rule::TooManyOps);
        QVERIFY(d);
        QCOMPARE(d->step, 1);
        QCOMPARE(d->action, Action::Compute);
        QCOMPARE(qs(d->message), QStringLiteral("step 1, a6 compute: 4 outputs need 16 MACs, more than nbop_pe 8"));
        QCOMPARE(r.error_count, std::int64_t(2)); // steps 1 and 2
        QCOMPARE(r.functional.status, FunctionalStatus::Pass); // the values are right, the accelerator cannot do it
    }

    // The reload bound applies to kernels: with max_loads_per_element = 1,
    // patches-outer on that layer, ({0,1},k0) ({0,1},k1) ({2,3},k1)
    // ({2,3},k0), loads k0 at steps 1 and 4 (k1 once, at step 2; every
    // pixel once).
    void kernelReloadBound()
    {
        Problem p = twoBlocksProblem();
        p.hardware.max_loads_per_element = 1;
        const StepList steps = expandSteps(p, kernelBlocked(p.layer, 2, 1, PatchOrder::RowByRow, KernelLoop::PatchesOuter));
        QCOMPARE(steps[3].load_kernels, (std::vector<KernelId>{0}));
        const SimulationResult r = simulate(p, steps, fullOptions());
        QVERIFY(r.valid()); // a warning, not an error
        QCOMPARE(r.kernel_load_counts, (std::vector<std::uint32_t>{2, 1}));
        std::vector<const Diagnostic *> kernelWarnings;
        for (const Diagnostic *d : r.warnings())
            if (d->rule == Rule::ReloadBound && d->element_kind == ElementKind::Kernel)
                kernelWarnings.push_back(d);
        QCOMPARE(kernelWarnings.size(), std::size_t(1));
        QCOMPARE(kernelWarnings[0]->step, 4);
        QCOMPARE(kernelWarnings[0]->action, Action::LoadKernels);
        QCOMPARE(kernelWarnings[0]->element_id, std::uint32_t(0));
        QCOMPARE(qs(kernelWarnings[0]->message),
            QStringLiteral("step 4, a5 load kernels, kernel 0: loaded 2 times, more than max_loads_per_element = 1"));
        // kernels_preloaded does not lift the bound: the load still happens.
        p.options.kernels_preloaded = true;
        QCOMPARE(simulate(p, steps, fullOptions()).kernel_load_counts, (std::vector<std::uint32_t>{2, 1}));
    }

    // The functional check names the first wrong output of a broken
    // kernel-streaming strategy: step 3's load of k1 removed, so k1 is never
    // on chip and every O[1] (steps 3 and 4) reads memory that holds no
    // weight; in tensor order O[1](0,0), computed at step 4, is first.
    void functionalNamesFirstWrongOutput()
    {
        const Problem p = twoBlocksProblem();
        StepList steps = expandSteps(p, twoBlocks());
        steps[2].load_kernels.clear();
        const SimulationResult r = simulate(p, steps, fullOptions());
        QCOMPARE(r.functional.status, FunctionalStatus::Fail);
        QVERIFY2(r.functional.message.find("output O[1](0,0) in DRAM is ") == 0, r.functional.message.c_str());
        const Diagnostic *d = findRule(r, Rule::KernelNotOnChip);
        QVERIFY(d);
        QCOMPARE(d->step, 3);
    }

    // ------------------------------------------------------------ project file

    void projectFileReads()
    {
        const Project p = loadProject(kSharedDataDir + "/kernelstream-two-blocks.json");
        QCOMPARE(p.strategies.size(), std::size_t(3));
        QCOMPARE(p.strategies[0].kind, StrategyKind::Steps);
        QCOMPARE(p.strategies[0].steps, twoBlocks());
        const StrategySpec &blocked = p.strategies[1];
        QCOMPARE(blocked.kind, StrategyKind::KernelBlocked);
        QCOMPARE(blocked.group_size, std::optional<std::int64_t>(2));
        QCOMPARE(blocked.kernel_block, std::optional<std::int64_t>(1));
        QCOMPARE(blocked.order, PatchOrder::RowByRow);
        QCOMPARE(blocked.loop, KernelLoop::KernelsOuter);
        // Defaults: B = N, order zigzag, loop kernels-outer.
        const StrategySpec &defaults = p.strategies[2];
        QVERIFY(!defaults.kernel_block && !defaults.group_size);
        QCOMPARE(defaults.order, PatchOrder::ZigZag);
        QCOMPARE(defaults.loop, KernelLoop::KernelsOuter);
        // The explicit steps and the generator are the same strategy.
        QCOMPARE(expandStrategy(p.problem, p.strategies[0]), expandStrategy(p.problem, p.strategies[1]));
        const std::vector<CompareRow> rows = compareStrategies(p, fullOptions());
        for (const CompareRow &row : rows) {
            QVERIFY2(row.valid, row.name.c_str());
            QCOMPARE(row.functional, FunctionalStatus::Pass);
        }
        QCOMPARE(rows[0].total_duration, 32.0); // worked by hand above
        QCOMPARE(rows[0].group_size, std::int64_t(0)); // explicit steps
        QCOMPARE(rows[1].group_size, std::int64_t(2));
        QCOMPARE(rows[2].group_size, std::int64_t(1)); // 8 / (4·2)
    }

    void projectFileRoundTrip()
    {
        const Project p = streamingProject();
        const std::string text = projectToJson(p);
        QCOMPARE(projectFromJson(text), p);
        // Steps as the reference writes them, one line each; generator parameters
        // written in full, B only when set.
        QVERIFY2(text.find(R"({"patches": [0, 1, 2, 3], "kernels": [0]})") != std::string::npos, text.c_str());
        QVERIFY2(text.find(R"("kernel_block": 1)") != std::string::npos, text.c_str());
        QVERIFY2(text.find(R"("order": "row-by-row")") != std::string::npos, text.c_str());
        QVERIFY2(text.find(R"("loop": "patches-outer")") != std::string::npos, text.c_str());
        QVERIFY2(text.find(R"("version": 1)") != std::string::npos, text.c_str());
        // Through a file as well.
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("p.json")).toStdString();
        saveProject(p, path);
        QCOMPARE(loadProject(path), p);
        // The steps strategy of streamingProject computes every pair once:
        // valid on the paper's layer.
        const SimulationResult r = simulateStrategy(p.problem, p.strategies[1], fullOptions());
        QVERIFY2(r.valid(), firstError(r).c_str());
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
    }

    void projectFileErrors_data()
    {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *name, const char *strategy, const char *where, const char *reason) {
            QTest::newRow(name) << QString::fromUtf8(strategy) << QString::fromUtf8(where) << QString::fromUtf8(reason);
        };
        row("kernel out of range",
            R"({"name": "S", "kind": "steps", "steps": [{"patches": [0], "kernels": [0]}, {"patches": [1], "kernels": [1]},
                {"patches": [2], "kernels": [1]}, {"patches": [3], "kernels": [7, 0]}]})",
            "strategies[2].steps[3].kernels[0]", "kernel 7 out of range (n = 2)");
        row("patch out of range", R"({"name": "S", "kind": "steps", "steps": [{"patches": [0, 9], "kernels": [0]}]})",
            "strategies[2].steps[0].patches[1]", "patch 9 is out of range (the layer has 4 patches, ids 0..3)");
        row("no kernels", R"({"name": "S", "kind": "steps", "steps": [{"patches": [0], "kernels": []}]})",
            "strategies[2].steps[0].kernels", "a step needs at least one kernel");
        row("no patches", R"({"name": "S", "kind": "steps", "steps": [{"patches": [], "kernels": [0]}]})",
            "strategies[2].steps[0].patches", "a step needs at least one patch");
        row("missing kernels", R"({"name": "S", "kind": "steps", "steps": [{"patches": [0]}]})", "strategies[2].steps[0].kernels",
            "missing required key");
        row("unknown key in a step", R"({"name": "S", "kind": "steps", "steps": [{"patches": [0], "kernels": [0], "k": 1}]})",
            "strategies[2].steps[0].k", "unknown key 'k' (known keys: patches, kernels)");
        row("negative kernel", R"({"name": "S", "kind": "steps", "steps": [{"patches": [0], "kernels": [-1]}]})",
            "strategies[2].steps[0].kernels[0]", "must be an integer ≥ 0, got -1");
        row("steps missing", R"({"name": "S", "kind": "steps"})", "strategies[2].steps", "missing required key");
        row("steps not an array", R"({"name": "S", "kind": "steps", "steps": 3})", "strategies[2].steps", "expected an array");
        row("group_size on steps", R"({"name": "S", "kind": "steps", "group_size": 2, "steps": []})", "strategies[2].group_size",
            "not allowed for kind \"steps\"");
        row("steps on groups", R"({"name": "S", "kind": "groups", "groups": [[0]], "steps": []})", "strategies[2].steps",
            "only allowed for kind \"steps\"");
        row("kernel_block on zigzag", R"({"name": "S", "kind": "zigzag", "kernel_block": 1})", "strategies[2].kernel_block",
            "only allowed for kind \"kernel-blocked\"");
        row("loop on steps", R"({"name": "S", "kind": "steps", "steps": [], "loop": "kernels-outer"})", "strategies[2].loop",
            "only allowed for kind \"kernel-blocked\"");
        row("B = 0", R"({"name": "S", "kind": "kernel-blocked", "kernel_block": 0})", "strategies[2].kernel_block",
            "must be an integer ≥ 1, got 0");
        row("B > N", R"({"name": "S", "kind": "kernel-blocked", "kernel_block": 3})", "strategies[2].kernel_block",
            "must be between 1 and n = 2 (the layer's kernels), got 3");
        row("bad order", R"({"name": "S", "kind": "kernel-blocked", "order": "snake"})", "strategies[2].order",
            "must be \"row-by-row\" or \"zigzag\", got \"snake\"");
        row("bad loop", R"({"name": "S", "kind": "kernel-blocked", "loop": "inner"})", "strategies[2].loop",
            "must be \"kernels-outer\" or \"patches-outer\", got \"inner\"");
        row("unknown kind", R"({"name": "S", "kind": "blocks"})", "strategies[2].kind",
            "(known kinds: s1-baseline, row-by-row, zigzag, groups, steps, kernel-blocked)");
    }

    void projectFileErrors()
    {
        QFETCH(QString, strategy);
        QFETCH(QString, where);
        QFETCH(QString, reason);
        const std::string text = R"({"format": "convoffload-project", "version": 1,
            "layer": {"c_in": 1, "h_in": 3, "w_in": 3, "h_k": 2, "w_k": 2, "n": 2},
            "hardware": {"mem_size": 100, "nbop_pe": 8},
            "strategies": [{"name": "A", "kind": "zigzag"}, {"name": "B", "kind": "groups", "groups": [[0, 1], [2, 3]]},
            )"
            + strategy.toStdString() + "]}";
        VERIFY_FORMAT_ERROR(projectFromJson(text), where.toStdString(), reason.toStdString());
    }

    // Version-1 projects without the new kinds load as before: every sample
    // without a kernel-streaming strategy (all but mobilenetv2-depthwise-conv)
    // and tests/core/data/spec-example.json hold only S1 kinds with the new
    // fields unset.
    void versionOneUnchanged()
    {
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES));
        QStringList files;
        for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            if (f != QLatin1String("mobilenetv2-depthwise-conv.json"))
                files << dir.filePath(f);
        QVERIFY(files.size() >= 9);
        files << QString::fromStdString(kDataDir + "/spec-example.json");
        for (const QString &f : files) {
            const Project p = loadProject(f.toStdString());
            for (const StrategySpec &s : p.strategies) {
                QVERIFY2(isS1Kind(s.kind), qPrintable(f));
                QVERIFY(s.steps.empty() && !s.kernel_block);
                const std::string text = projectToJson(p);
                for (const char *key : {"\"steps\"", "\"kernel_block\"", "\"order\"", "\"loop\""})
                    QVERIFY2(text.find(key) == std::string::npos, qPrintable(f));
            }
        }
    }

    // ------------------------------------------------------------ CSV

    void csvReads()
    {
        const Layer l = twoBlocksProblem().layer;
        QCOMPARE(loadComputeStepsCsv(l, kSharedDataDir + "/kernelstream-two-blocks.csv"), twoBlocks());
        // Without a header, semicolons, any step indices (ascending order),
        // rows of a step in any order.
        QCOMPARE(computeStepsFromCsv(l, "10;2;0\n10;3;0\n-5;0;0\n-5;1;0\n30;0;1\n20;3;1\n20;2;1\n30;1;1\n"),
            (ComputeSteps{{{0, 1}, {0}}, {{2, 3}, {0}}, {{3, 2}, {1}}, {{0, 1}, {1}}}));
        // A step with two kernels: patches and kernels in order of first appearance.
        QCOMPARE(computeStepsFromCsv(l, "step,patch,kernel\n0,1,1\n0,1,0\n0,0,1\n0,0,0\n"), (ComputeSteps{{{1, 0}, {1, 0}}}));
    }

    void csvRoundTrip()
    {
        const Problem p = paperExampleProblem();
        for (const StrategySpec &spec : streamingProject().strategies) {
            const ComputeSteps steps = computeStepsOf(p, spec);
            const std::string text = computeStepsToCsv(steps);
            QVERIFY(text.rfind("step,patch,kernel\n", 0) == 0);
            QCOMPARE(computeStepsFromCsv(p.layer, text), steps);
        }
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("s.csv")).toStdString();
        saveComputeStepsCsv(twoBlocks(), path);
        QCOMPARE(loadComputeStepsCsv(twoBlocksProblem().layer, path), twoBlocks());
        // The export of the "Two blocks" example, pair by pair.
        QCOMPARE(computeStepsToCsv(twoBlocks()),
            std::string("step,patch,kernel\n0,0,0\n0,1,0\n1,2,0\n1,3,0\n2,2,1\n2,3,1\n3,0,1\n3,1,1\n"));
    }

    void csvErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *name, const char *text, const char *where, const char *reason) {
            QTest::newRow(name) << QString::fromUtf8(text) << QString::fromUtf8(where) << QString::fromUtf8(reason);
        };
        row("kernel out of range", "step,patch,kernel\n0,0,0\n0,1,7\n", "line 3",
            "kernel 7 is out of range (the layer has 2 kernels, ids 0..1)");
        row("patch out of range", "0,0,0\n\n0,4,0\n", "line 3", "patch 4 is out of range (the layer has 4 patches, ids 0..3)");
        row("two fields", "step,patch,kernel\n0,0\n", "line 2", "expected 3 fields (step,patch,kernel), got 2");
        row("not an integer", "0,0,0\n0,x,0\n", "line 2", "field 2 is not an integer: 'x'");
        row("pair twice in a step", "0,0,0\n0,1,0\n0,0,0\n", "line 3",
            "step 0 names patch 0 with kernel 0 again (first on line 1)");
        row("not a product", "step,patch,kernel\n4,0,0\n4,1,1\n", "line 2",
            "step 4 does not compute every one of its patches with every one of its kernels: patch 0 with kernel 1 is missing");
        row("bad header", "step,patch,kernels\n0,0,0\n", "line 1",
            "unrecognised header 'step,patch,kernels': expected step,patch,kernel");
        row("empty", "\n\n", "end of file", "no data");
        row("header only", "step,patch,kernel\n", "end of file", "no data after the header");
    }

    void csvErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, reason);
        VERIFY_FORMAT_ERROR(
            computeStepsFromCsv(twoBlocksProblem().layer, text.toStdString()), where.toStdString(), reason.toStdString());
    }

    // The groups import names the other form rather than guessing.
    void groupsCsvRefusesStepsFile()
    {
        VERIFY_FORMAT_ERROR(
            groupsFromCsv(twoBlocksProblem().layer, "step,patch,kernel\n0,0,0\n"), "line 1", "import it as steps, not as groups");
        // A file error names the path.
        VERIFY_FORMAT_ERROR(loadComputeStepsCsv(twoBlocksProblem().layer, kSharedDataDir + "/groups-mine.csv"),
            kSharedDataDir + "/groups-mine.csv: line 1", "unrecognised header");
    }
};

QTEST_GUILESS_MAIN(TestKernelStream)
#include "tst_kernelstream.moc"
