// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// StepCursor: the per-pixel and per-output states the visualiser colours,
// checked against the paper's Example by hand, action by action, and for
// consistency of any seek order against a fresh forward replay.

#include "TestPrinting.h"
#include "TestProblems.h"

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/StepCursor.h"

#include <QTest>

#include <random>

using namespace convoffload;

namespace {

Problem paperExample() { return paperExampleProblem(); }

PixelState at(const StepCursor &c, const Layer &l, int row, int col) { return c.pixel(pixelId(l, row, col)); }

} // namespace

namespace QTest {
template <> inline char *toString(const convoffload::PixelState &s)
{
    static const char *names[] = {"off", "kept", "loaded", "freed"};
    return qstrdup(names[int(s)]);
}
template <> inline char *toString(const convoffload::OutputState &s)
{
    static const char *names[] = {"pending", "on chip", "computed", "written", "done"};
    return qstrdup(names[int(s)]);
}
} // namespace QTest

class TestCursor : public QObject {
    Q_OBJECT
private slots:
    // ZigZag step 2 of the paper's Example: frees rows 0-2 x cols 0-1, loads
    // (0..2,4) and (3,2..4), keeps rows 0-2 x cols 2-3.
    void paperExampleZigZagStep2()
    {
        const Problem p = paperExample();
        const Layer &l = p.layer;
        const SimulationResult r = simulate(p, expandS1(p, zigzag(l, 2)));
        StepCursor c(p, r);
        c.seek({1, Action::Compute});
        QCOMPARE(at(c, l, 0, 0), PixelState::Freed);
        QCOMPARE(at(c, l, 2, 1), PixelState::Freed);
        QCOMPARE(at(c, l, 0, 4), PixelState::Loaded);
        QCOMPARE(at(c, l, 3, 3), PixelState::Loaded);
        QCOMPARE(at(c, l, 0, 2), PixelState::Kept);
        QCOMPARE(at(c, l, 2, 3), PixelState::Kept);
        QCOMPARE(at(c, l, 4, 0), PixelState::Off);
        QCOMPARE(at(c, l, 3, 0), PixelState::Off);
        // Outputs: patches 0, 1 written now; 2, 5 computed now; the rest pending.
        QCOMPARE(c.patch(0), OutputState::Written);
        QCOMPARE(c.patch(1), OutputState::Written);
        QCOMPARE(c.patch(2), OutputState::Computed);
        QCOMPARE(c.patch(5), OutputState::Computed);
        QCOMPARE(c.patch(3), OutputState::Pending);
        QCOMPARE(c.output(outputId(l, 5, 1)), OutputState::Computed);
        QCOMPARE(c.currentPatches(), (std::vector<PatchId>{2, 5}));
        QCOMPARE(c.footprint().input, 24);
        QCOMPARE(c.footprint().output, 4);
    }

    // The same step one action at a time.
    void subSteps()
    {
        const Problem p = paperExample();
        const Layer &l = p.layer;
        const SimulationResult r = simulate(p, expandS1(p, zigzag(l, 2)));
        StepCursor c(p, r);
        c.seek({1, Action::FreeInput});
        QCOMPARE(at(c, l, 0, 0), PixelState::Freed);
        QCOMPARE(at(c, l, 0, 4), PixelState::Off); // not loaded yet
        QCOMPARE(c.patch(0), OutputState::OnChip); // not written yet
        QCOMPARE(c.patch(2), OutputState::Pending);
        QCOMPARE(c.footprint().input, 12); // 12 of 24 elements kept
        c.seek({1, Action::Write});
        QCOMPARE(c.patch(0), OutputState::Written);
        c.seek({1, Action::LoadInput});
        QCOMPARE(at(c, l, 0, 4), PixelState::Loaded);
        QCOMPARE(c.patch(2), OutputState::Pending);
        c.seek({2, Action::Compute});
        QCOMPARE(c.patch(0), OutputState::Done);
        QCOMPARE(c.patch(2), OutputState::Written);
        QCOMPARE(c.patch(3), OutputState::Computed);
        QCOMPARE(at(c, l, 0, 4), PixelState::Freed);
        c.seek({0, Action::LoadKernels}); // back to the start
        QCOMPARE(at(c, l, 0, 0), PixelState::Loaded);
        QCOMPARE(c.patch(0), OutputState::Pending);
    }

    void loadsSoFarAndSteps()
    {
        const Problem p = paperExample();
        const Layer &l = p.layer;
        const SimulationResult r = simulate(p, expandS1(p, s1Baseline(l)));
        StepCursor c(p, r);
        // S1-baseline: pixel (2,0) belongs to patches 0, 3, 6, loaded at steps 1, 4, 7.
        QCOMPARE(c.stepsLoading(pixelId(l, 2, 0)), (std::vector<int>{0, 3, 6}));
        c.seek({4, Action::Compute});
        QCOMPARE(c.loadsSoFar(pixelId(l, 2, 0)), 2u);
        c.seek({c.stepCount() - 1, Action::Compute});
        QCOMPARE(c.loadsSoFar(pixelId(l, 2, 0)), 3u);
        QCOMPARE(c.maxLoadsSoFar(), 3u);
    }

    void seekOrderDoesNotMatter_data()
    {
        QTest::addColumn<qulonglong>("budget");
        QTest::newRow("default budget") << qulonglong(StepCursor::kDefaultCheckpointBudget);
        QTest::newRow("room for two checkpoints") << qulonglong(2 * (31 * 31 * 5 + 29 * 29));
        QTest::newRow("no checkpoint") << qulonglong(0);
    }

    // Several checkpoints, two or none: any seek order gives the same states
    // as a fresh cursor that only moves forward from the start.
    void seekOrderDoesNotMatter()
    {
        QFETCH(qulonglong, budget);
        Problem p;
        p.layer = {1, 30, 30, 3, 3, 1, 1, 1, 1, 0, 0, 1}; // 29x29 patches
        p.hardware.mem_size = 100000;
        p.hardware.nbop_pe = 9;
        const SimulationResult r = simulate(p, expandS1(p, s1Baseline(p.layer)));
        QVERIFY(r.steps.size() > 600);
        StepCursor wandering(p, r, budget);
        std::mt19937 rng(7);
        for (int i = 0; i < 40; ++i) {
            const Moment m{int(rng() % r.steps.size()), Action(rng() % kActionCount)};
            wandering.seek(m);
            StepCursor fresh(p, r);
            fresh.seek(m);
            for (PixelId px = 0; px < PixelId(p.layer.pixelCount()); ++px) {
                QCOMPARE(wandering.pixel(px), fresh.pixel(px));
                QCOMPARE(wandering.loadsSoFar(px), fresh.loadsSoFar(px));
            }
            for (PatchId q = 0; q < PatchId(p.layer.patchCount()); ++q)
                QCOMPARE(wandering.patch(q), fresh.patch(q));
        }
        wandering.seek({int(r.steps.size()) - 1, Action::Compute});
        for (PixelId px = 0; px < PixelId(p.layer.pixelCount()); ++px)
            QCOMPARE(wandering.loadsSoFar(px), r.input_load_counts[px]);
        // The memory stays within the budget and the number of checkpoints.
        QVERIFY(wandering.checkpointBytes() <= budget);
        const int spacing = wandering.checkpointSpacing();
        QVERIFY(spacing == 0 || int(r.steps.size()) / spacing <= StepCursor::kMaxCheckpoints);
        QCOMPARE(spacing == 0, budget == 0);
    }

    // One pixel loaded and freed 300 times: the checkpoints keep load counts
    // past a byte (they switch to 32 bits) and restore them exactly.
    void checkpointsKeepLargeLoadCounts()
    {
        Problem p;
        p.layer = {1, 2, 2, 1, 1, 1};
        p.hardware.mem_size = 1000;
        p.hardware.nbop_pe = 1000;
        p.hardware.max_loads_per_element = 1000;
        StepList steps(300);
        for (Step &s : steps) {
            s.load_input = {0};
            s.free_input = {0};
        }
        steps.front().free_input.clear();
        const SimulationResult r = simulate(p, steps);
        StepCursor c(p, r);
        QVERIFY(c.checkpointSpacing() > 0);
        c.seek({299, Action::Compute});
        QCOMPARE(c.loadsSoFar(0), 300u);
        for (int step : {280, 10, 290, 150}) {
            c.seek({step, Action::Compute});
            QCOMPARE(c.loadsSoFar(0), std::uint32_t(step + 1));
            QCOMPARE(c.pixel(0), PixelState::Loaded);
        }
    }

    void needsATrace()
    {
        const Problem p = paperExample();
        SimulationOptions options;
        options.trace = false;
        const SimulationResult r = simulate(p, expandS1(p, zigzag(p.layer, 2)), options);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StepCursor(p, r));
    }
};

QTEST_GUILESS_MAIN(TestCursor)
#include "tst_cursor.moc"
