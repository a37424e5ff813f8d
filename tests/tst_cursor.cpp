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

    // More than one checkpoint's worth of steps: any seek order gives the
    // same states as a fresh cursor that only moves forward.
    void seekOrderDoesNotMatter()
    {
        Problem p;
        p.layer = {1, 30, 30, 3, 3, 1, 1, 1, 1, 0, 0, 1}; // 29x29 patches
        p.hardware.mem_size = 100000;
        p.hardware.nbop_pe = 9;
        const SimulationResult r = simulate(p, expandS1(p, s1Baseline(p.layer)));
        QVERIFY(r.steps.size() > 600);
        StepCursor wandering(p, r);
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
