// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// StepCursor on a grouped layer (docs/reference/model.md#grouped-and-dilated):
// the trace names pixel slices, the cursor answers per pixel. A hand-made
// `steps` strategy whose steps use one group's kernels holds only that
// group's slices, so pixels are partly on chip; the expected slices were
// worked out by hand from the patches' pixels and the groups of the kernels.

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/StepCursor.h"

#include <QTest>

using namespace convoffload;

Q_DECLARE_METATYPE(convoffload::PixelState)

namespace QTest {
template <> inline char *toString(const convoffload::PixelState &s)
{
    static const char *names[] = {"off", "kept", "loaded", "freed"};
    return qstrdup(names[int(s)]);
}
} // namespace QTest

namespace {

// c_in 4, 4×4 input, four 3×3 kernels in g = 2 groups (kernels 0, 1 read
// channels 0-1, kernels 2, 3 channels 2-3): 2×2 patches, a slice is 2 elements.
Problem groupedProblem()
{
    Problem p;
    p.layer.c_in = 4;
    p.layer.h_in = p.layer.w_in = 4;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.n = 4;
    p.layer.group = 2;
    p.hardware.mem_size = 1000;
    p.hardware.nbop_pe = 1000;
    p.hardware.max_loads_per_element = 10;
    return p;
}

// Patch 0 reads rows 0-2 × cols 0-2, patch 1 rows 0-2 × cols 1-3, patch 3
// rows 1-3 × cols 1-3.
//   step 0: patch 0 with kernels 0, 1 (group 0): group 0 of patch 0's 9 pixels
//   step 1: patch 0 with kernels 2, 3 (group 1): group 1 loaded, group 0 freed
//   step 2: patch 1 with kernels 1, 2 (both groups): both slices of rows 0-2 × cols 1-3
//   step 3: patch 3 with kernel 3 (group 1): group 1 of rows 1-3 × cols 1-3
// (No output is computed twice; the strategy leaves some uncomputed, which
// the simulator reports at the end and the cursor does not mind.)
ComputeSteps oneGroupSteps() { return {{{0}, {0, 1}}, {{0}, {2, 3}}, {{1}, {1, 2}}, {{3}, {3}}}; }

std::vector<int> groups(std::initializer_list<int> g) { return g; }

} // namespace

class TestCursorGroups : public QObject {
    Q_OBJECT
private slots:
    void slicesPerPixel_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<PixelState>("state");
        QTest::addColumn<std::vector<int>>("onChip");
        QTest::addColumn<unsigned>("loads");

        QTest::newRow("0: patch pixel, group 0 loaded") << 0 << 0 << 0 << PixelState::Loaded << groups({0}) << 1u;
        QTest::newRow("0: outside the patch") << 0 << 3 << 3 << PixelState::Off << groups({}) << 0u;
        QTest::newRow("1: group 1 loaded, group 0 freed") << 1 << 0 << 0 << PixelState::Loaded << groups({1}) << 1u;
        QTest::newRow("1: col 3 untouched") << 1 << 0 << 3 << PixelState::Off << groups({}) << 0u;
        QTest::newRow("2: group 0 reloaded, group 1 kept") << 2 << 1 << 1 << PixelState::Loaded << groups({0, 1}) << 2u;
        QTest::newRow("2: col 3, both loaded") << 2 << 2 << 3 << PixelState::Loaded << groups({0, 1}) << 1u;
        QTest::newRow("2: row 3 untouched") << 2 << 3 << 0 << PixelState::Off << groups({}) << 0u;
        QTest::newRow("2: col 0, group 1 freed") << 2 << 0 << 0 << PixelState::Freed << groups({}) << 1u;
        QTest::newRow("3: both freed") << 3 << 0 << 1 << PixelState::Freed << groups({}) << 2u;
        QTest::newRow("3: group 1 kept, group 0 freed") << 3 << 1 << 1 << PixelState::Kept << groups({1}) << 2u;
        QTest::newRow("3: row 3 group 1 loaded") << 3 << 3 << 3 << PixelState::Loaded << groups({1}) << 1u;
        QTest::newRow("3: col 0, off since step 2") << 3 << 2 << 0 << PixelState::Off << groups({}) << 1u;
    }

    void slicesPerPixel()
    {
        QFETCH(int, step);
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(PixelState, state);
        QFETCH(std::vector<int>, onChip);
        QFETCH(unsigned, loads);
        const Problem p = groupedProblem();
        const SimulationResult r = simulate(p, expandSteps(p, oneGroupSteps()));
        StepCursor c(p, r);
        c.seek({step, Action::Compute});
        const PixelId px = pixelId(p.layer, row, col);
        QCOMPARE(c.pixel(px), state);
        QCOMPARE(c.slicesOnChip(px), int(onChip.size()));
        QCOMPARE(c.groupsOnChip(px), onChip);
        QCOMPARE(c.loadsSoFar(px), loads);
    }

    // Input footprint after the compute: slices on chip × c_in/g = 2 elements.
    void footprintCountsSlices_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("elements");
        QTest::newRow("9 slices") << 0 << 9 * 2;
        QTest::newRow("9 other slices") << 1 << 9 * 2;
        QTest::newRow("9 pixels × 2 slices") << 2 << 9 * 2 * 2;
        QTest::newRow("9 slices of group 1") << 3 << 9 * 2;
    }

    void footprintCountsSlices()
    {
        QFETCH(int, step);
        QFETCH(int, elements);
        const Problem p = groupedProblem();
        const SimulationResult r = simulate(p, expandSteps(p, oneGroupSteps()));
        StepCursor c(p, r);
        c.seek({step, Action::Compute});
        QCOMPARE(c.footprint().input, elements);
        // The same count from the per-pixel answers.
        int slices = 0;
        for (PixelId px = 0; px < PixelId(p.layer.pixelCount()); ++px)
            slices += c.slicesOnChip(px);
        QCOMPARE(slices * p.layer.sliceChannels(), elements);
    }

    void stepsLoadingAnySlice()
    {
        const Problem p = groupedProblem();
        const Layer &l = p.layer;
        const SimulationResult r = simulate(p, expandSteps(p, oneGroupSteps()));
        const StepCursor c(p, r);
        QCOMPARE(c.stepsLoading(pixelId(l, 0, 0)), (std::vector<int>{0, 1}));
        QCOMPARE(c.stepsLoading(pixelId(l, 1, 1)), (std::vector<int>{0, 1, 2})); // group 1 kept at step 3
        QCOMPARE(c.stepsLoading(pixelId(l, 1, 3)), (std::vector<int>{2}));
        QCOMPARE(c.stepsLoading(pixelId(l, 3, 3)), (std::vector<int>{3}));
        QCOMPARE(c.stepsLoading(pixelId(l, 3, 0)), (std::vector<int>{}));
    }

    // Before the load action the step's slices are not there yet; the freed
    // group shows as freed while the other stays off.
    void withinAStep()
    {
        const Problem p = groupedProblem();
        const PixelId px = pixelId(p.layer, 0, 0);
        const SimulationResult r = simulate(p, expandSteps(p, oneGroupSteps()));
        StepCursor c(p, r);
        c.seek({1, Action::FreeInput});
        QCOMPARE(c.pixel(px), PixelState::Freed);
        QCOMPARE(c.slicesOnChip(px), 0);
        QCOMPARE(c.slice(sliceId(p.layer, px, 0)), PixelState::Freed);
        QCOMPARE(c.slice(sliceId(p.layer, px, 1)), PixelState::Off);
        c.seek({1, Action::LoadInput});
        QCOMPARE(c.pixel(px), PixelState::Loaded);
        QCOMPARE(c.slice(sliceId(p.layer, px, 0)), PixelState::Freed);
        QCOMPARE(c.slice(sliceId(p.layer, px, 1)), PixelState::Loaded);
        c.seek({0, Action::Compute}); // back
        QCOMPARE(c.groupsOnChip(px), groups({0}));
    }

    // An S1 strategy holds every kernel, hence every slice of its pixels.
    void s1LoadsWholePixels()
    {
        const Problem p = groupedProblem();
        const SimulationResult r = simulate(p, expandS1(p, s1Baseline(p.layer)));
        StepCursor c(p, r);
        c.seek({0, Action::Compute});
        QCOMPARE(c.slicesOnChip(pixelId(p.layer, 2, 2)), 2);
        QCOMPARE(c.groupsOnChip(pixelId(p.layer, 2, 2)), groups({0, 1}));
        QCOMPARE(c.slicesOnChip(pixelId(p.layer, 3, 3)), 0);
    }

    // Depthwise (g = c_in = n = 3), one kernel per step: one slice per pixel
    // on chip at a time, the slice of that kernel's channel.
    void depthwiseOneKernelPerStep()
    {
        Problem p = groupedProblem();
        p.layer.c_in = p.layer.n = p.layer.group = 3;
        const SimulationResult r = simulate(p, expandSteps(p, {{{0}, {0}}, {{0}, {1}}, {{0}, {2}}}));
        StepCursor c(p, r);
        for (int step = 0; step < 3; ++step) {
            c.seek({step, Action::Compute});
            QCOMPARE(c.groupsOnChip(pixelId(p.layer, 1, 1)), groups({step}));
            QCOMPARE(c.pixel(pixelId(p.layer, 1, 1)), PixelState::Loaded);
        }
        QCOMPARE(c.loadsSoFar(pixelId(p.layer, 1, 1)), 1u); // each slice once
        QCOMPARE(c.maxLoadsSoFar(), 1u);
    }
};

QTEST_GUILESS_MAIN(TestCursorGroups)
#include "tst_cursorgroups.moc"
