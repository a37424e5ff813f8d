// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The shipped sample projects: they load, survive a save/load round trip,
// their memory really binds (the layer does not fit on chip), and every
// strategy agrees with the naive reference executor and passes the
// functional check (S1 strategies expanded from their groups, kernel-blocked
// ones from their compute steps, docs/reference/strategies.md). The grouped
// and dilated samples' figures are also worked out by hand.

#include "NaiveExecutor.h"
#include "TestPrinting.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace convoffload;

class TestSamples : public QObject {
    Q_OBJECT
private slots:
    void sample_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 8);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void sample()
    {
        QFETCH(QString, path);
        const Project project = loadProject(path.toStdString());
        const Problem &p = project.problem;
        QVERIFY(!project.strategies.empty());

        QTemporaryDir tmp;
        const std::string copy = tmp.filePath(QStringLiteral("copy.json")).toStdString();
        saveProject(project, copy);
        QVERIFY(loadProject(copy) == project);

        const std::int64_t layerElements
            = p.layer.pixelCount() * p.layer.c_in + p.layer.kernelElements() * p.layer.n + p.layer.outputCount();
        QVERIFY2(layerElements > p.hardware.mem_size, "the on-chip memory should not hold the whole layer");

        for (const StrategySpec &spec : project.strategies) {
            const QByteArray name = QByteArray::fromStdString(spec.name);
            const bool streams = spec.kind == StrategyKind::KernelBlocked || spec.kind == StrategyKind::Steps;
            const SimulationResult fast = streams ? simulateStrategy(p, spec, {}) : simulate(p, expandS1(p, groupsOf(p, spec)));
            QVERIFY2(fast.valid(), name);
            QVERIFY2(fast.peakFootprint() <= p.hardware.mem_size, name);
            QCOMPARE(fast.functional.status, FunctionalStatus::Pass);

            const naive::NaiveReport slow = naive::naiveExecute(
                p, streams ? naive::naiveExpandSteps(p, computeStepsOf(p, spec)) : naive::naiveExpandS1(p, groupsOf(p, spec)));
            QVERIFY2(slow.valid(), name);
            QCOMPARE(fast.totalDuration(), slow.totalDuration());
            QCOMPARE(fast.loadedInput(), slow.loadedInput());
            QCOMPARE(fast.written(), slow.written());
            QCOMPARE(fast.peakFootprint(), slow.peakFootprint());
        }
    }

    // mobilenetv2-depthwise-conv: 96 channels of 14x14, pads 1 (16x16 =
    // 256 padded pixels, padding loaded from DRAM), 96 kernels 3x3 in 96
    // groups (depthwise, K = 9), 14x14 = 196 patches, nbop_pe 3456, t = 1.
    // "One group per pass" (kernel-blocked B = 1, kernels-outer): G =
    // floor(3456 / 9) = 384 >= 196, so each pass is one step computing
    // every patch with one kernel, whose group's slices are the 256 pixels of
    // its channel, loaded once: 96 compute steps, 96 x 256 = 24576 input
    // loads, 96 x 9 = 864 kernel loads, 96 x 196 = 18816 writes; duration
    // 24576 + 864 + 18816 + 96 = 44352. Peak after a step's compute: the
    // 256 slices, the kernel and its 196 outputs (the previous step's
    // outputs are written and its slices freed first) = 461.
    void depthwiseOneGroupPerPassByHand()
    {
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/mobilenetv2-depthwise-conv.json");
        const Problem &p = project.problem;
        QCOMPARE(p.layer.group, 96);
        QCOMPARE(p.layer.c_in, 96);
        QCOMPARE(p.layer.n, 96);
        const auto spec = std::find_if(project.strategies.begin(), project.strategies.end(),
            [](const StrategySpec &s) { return s.kind == StrategyKind::KernelBlocked && s.kernel_block == 1; });
        QVERIFY(spec != project.strategies.end());
        QCOMPARE(spec->loop, KernelLoop::KernelsOuter);
        const SimulationResult r = simulateStrategy(p, *spec, {});
        QVERIFY(r.valid());
        QCOMPARE(r.loadedInput(), std::int64_t(24576));
        QCOMPARE(r.loadedKernels(), std::int64_t(864));
        QCOMPARE(r.written(), std::int64_t(18816));
        QCOMPARE(r.totalDuration(), 44352.0);
        QCOMPARE(r.peakFootprint(), std::int64_t(461));
    }

    // deeplab-dilated-conv: 32 channels of 33x33, 32 kernels 3x3 with
    // dilation 2 and pads 2 (37x37 padded, padding loaded from DRAM): patch
    // (i, j) reads rows i, i+2, i+4 and columns j, j+2, j+4, so the output
    // keeps 33x33 = 1089 patches, and K = 32 x 9 = 288. S1-baseline computes
    // one patch per step in row-major order; the next patch, (i, j+1) or
    // (i+1, 0), has columns or rows of the other parity, so it shares no
    // pixel with the one before: every step loads its 9 pixels x 32
    // channels afresh, 1089 x 288 = 313632 input loads. With the 32 kernels
    // (9216) loaded once, 32 x 1089 = 34848 writes and 1089 compute steps:
    // 313632 + 9216 + 34848 + 1089 = 358785.
    void dilatedBaselineByHand()
    {
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/deeplab-dilated-conv.json");
        const Problem &p = project.problem;
        QCOMPARE(p.layer.dilation_h, 2);
        QCOMPARE(p.layer.dilation_w, 2);
        QCOMPARE(p.layer.patchCount(), std::int64_t(33 * 33));
        const auto spec = std::find_if(project.strategies.begin(), project.strategies.end(),
            [](const StrategySpec &s) { return s.kind == StrategyKind::S1Baseline; });
        QVERIFY(spec != project.strategies.end());
        const SimulationResult r = simulateStrategy(p, *spec, {});
        QVERIFY(r.valid());
        QCOMPARE(r.loadedKernels(), std::int64_t(9216));
        QCOMPARE(r.written(), std::int64_t(34848));
        QCOMPARE(r.loadedInput(), std::int64_t(313632));
        QCOMPARE(r.totalDuration(), 358785.0);
    }
};

QTEST_GUILESS_MAIN(TestSamples)
#include "tst_samples.moc"
