// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The functional check's fast paths against routes that share none of its
// code: one-channel steps swept a row run at a time (fixed 1×1, 3×3 and 5×5
// loops, a run-time loop otherwise), exact patches times four kernels at once,
// the 16-bit chip with its poison and the 32-bit and 64-bit routes.
//
// - agreesWithDirectConvolution: every shape × data range, through the fused
//   S1 pass (ZigZag: ascending and descending runs, groups across rows) and
//   the general executor (whole patches per step), must pass and leave in
//   DRAM exactly referenceConvolution's outputs.
// - namesFirstWrongOutput: one pixel dropped from a load; the first wrong
//   output in tensor order O[k][i][j] is worked out by a plain presence model
//   of the steps (which pixels are on chip when each output is computed), and
//   the message must name it with the direct convolution's value.

#include "convoffload/model/S1Strategy.h"
#include "convoffload/model/TensorData.h"
#include "convoffload/simulate/FusedSimulation.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StrategySimulation.h"

#include "TestPrinting.h"

#include <QTest>

#include <algorithm>
#include <limits>
#include <set>

using namespace convoffload;

namespace {

struct Shape {
    int channels, height, width, kh, kw, stride, pad, kernels;
    bool paddingInDram;
};

Problem problemOf(const Shape &s)
{
    Problem p;
    p.layer.c_in = s.channels;
    p.layer.h_in = s.height;
    p.layer.w_in = s.width;
    p.layer.h_k = s.kh;
    p.layer.w_k = s.kw;
    p.layer.n = s.kernels;
    p.layer.stride_h = p.layer.stride_w = s.stride;
    p.layer.pad_top = p.layer.pad_bottom = p.layer.pad_left = p.layer.pad_right = s.pad;
    p.options.padding_in_dram = s.paddingInDram;
    p.hardware.mem_size = std::int64_t(1) << 30;
    p.hardware.dram_size = std::int64_t(1) << 30;
    p.hardware.nbop_pe = std::int64_t(1) << 30;
    return p;
}

// Data ranges, one per route: "small" (seeded, the 16-bit chip with the
// poison below every input), "low16" (an input at -32768: the poison goes
// above), "full16" (-32768 and 32767 both taken: a 32-bit chip, 16-bit
// products), "wide" (values past 16 bits: 32-bit products), "huge" (outputs
// past 32 bits: 64-bit sums).
TensorData tensorsFor(const Layer &layer, const QString &range, bool positiveWeights)
{
    TensorData d = seededTensors(layer, 7);
    if (positiveWeights) // no weight, and no sum of weights, can hide the poison
        for (auto &w : d.kernels)
            w = w < 0 ? -w : w + 1;
    const std::int32_t lo = std::numeric_limits<std::int16_t>::min(), hi = std::numeric_limits<std::int16_t>::max();
    if (range == QLatin1String("low16"))
        d.input[d.input.size() / 2] = lo;
    else if (range == QLatin1String("full16")) {
        d.input.front() = lo;
        d.input.back() = hi;
    } else if (range == QLatin1String("wide"))
        for (std::size_t i = 0; i < d.input.size(); i += 3)
            d.input[i] *= 25000;
    else if (range == QLatin1String("huge")) {
        for (auto &x : d.input)
            x *= 400000;
        for (auto &w : d.kernels)
            w *= 300000;
    }
    return d;
}

void addShapeRows(const QStringList &ranges)
{
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("kh");
    QTest::addColumn<int>("kw");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("pad");
    QTest::addColumn<int>("kernels");
    QTest::addColumn<bool>("paddingInDram");
    QTest::addColumn<QString>("range");
    struct Row {
        const char *name;
        Shape shape;
    };
    const Row rows[] = {
        {"1ch 3x3", {1, 9, 11, 3, 3, 1, 0, 1, false}},
        {"1ch 1x1", {1, 6, 7, 1, 1, 1, 0, 1, false}},
        {"1ch 5x5 pad 2", {1, 10, 9, 5, 5, 1, 2, 1, false}},
        {"1ch 3x3 stride 2 pad 1", {1, 11, 12, 3, 3, 2, 1, 1, false}},
        {"1ch 3x3 pad 1 in DRAM", {1, 8, 9, 3, 3, 1, 1, 2, true}},
        {"1ch 5x5 stride 2 3 kernels", {1, 13, 12, 5, 5, 2, 0, 3, false}},
        {"1ch 2x4 kernel pad 1", {1, 7, 10, 2, 4, 1, 1, 1, false}},
        {"3ch 3x3 pad 1 5 kernels", {3, 7, 8, 3, 3, 1, 1, 5, false}},
        {"3ch 1x1 4 kernels", {3, 5, 6, 1, 1, 1, 0, 4, false}},
        {"3ch 5x5 stride 2 pad 2 in DRAM", {3, 9, 9, 5, 5, 2, 2, 2, true}},
    };
    for (const Row &r : rows)
        for (const QString &range : ranges) {
            const Shape &s = r.shape;
            QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(QLatin1String(r.name), range)))
                << s.channels << s.height << s.width << s.kh << s.kw << s.stride << s.pad << s.kernels << s.paddingInDram
                << range;
        }
}

Shape fetchShape()
{
    QFETCH(int, channels);
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(int, kh);
    QFETCH(int, kw);
    QFETCH(int, stride);
    QFETCH(int, pad);
    QFETCH(int, kernels);
    QFETCH(bool, paddingInDram);
    return {channels, height, width, kh, kw, stride, pad, kernels, paddingInDram};
}

SimulationOptions checkOptions(const TensorData &data)
{
    SimulationOptions o;
    o.trace = false;
    o.data = &data;
    o.keep_output = true;
    return o;
}

/// Whether output o's patch reads a pixel not in `present` (synthesised
/// padding is not read from the chip).
bool readsMissing(const Layer &l, bool paddingInDram, OutputId o, const std::set<PixelId> &present)
{
    const PatchId patch = o / OutputId(l.n);
    const int row = int(patch / PatchId(l.wOut())) * l.stride_h, col = int(patch % PatchId(l.wOut())) * l.stride_w;
    for (int h = 0; h < l.h_k; ++h)
        for (int w = 0; w < l.w_k; ++w) {
            const int r = row + h, c = col + w;
            const bool padding = r < l.pad_top || r >= l.pad_top + l.h_in || c < l.pad_left || c >= l.pad_left + l.w_in;
            if ((paddingInDram || !padding) && !present.count(PixelId(r) * PixelId(l.paddedWidth()) + PixelId(c)))
                return true;
        }
    return false;
}

} // namespace

class TestFunctionalCheck : public QObject {
    Q_OBJECT

private slots:
    void agreesWithDirectConvolution_data()
    {
        addShapeRows({QStringLiteral("small"), QStringLiteral("low16"), QStringLiteral("full16"), QStringLiteral("wide"),
            QStringLiteral("huge")});
    }
    void agreesWithDirectConvolution()
    {
        QFETCH(QString, range);
        const Problem p = problemOf(fetchShape());
        const TensorData data = tensorsFor(p.layer, range, false);
        const std::vector<std::int64_t> reference = referenceConvolution(p.layer, data);
        for (std::int64_t g : {std::int64_t(1), std::int64_t(3), std::int64_t(p.layer.wOut() + 2)}) {
            const Groups groups = zigzag(p.layer, g);
            const SimulationOptions o = checkOptions(data);
            const std::optional<SimulationResult> fused = simulateS1Fused(p, groups, o);
            QVERIFY(fused);
            QVERIFY2(fused->functional.status == FunctionalStatus::Pass, fused->functional.message.c_str());
            QVERIFY(fused->functional.dram_output == reference);
            const SimulationResult general = simulate(p, expandS1(p, groups), o);
            QVERIFY2(general.functional.status == FunctionalStatus::Pass, general.functional.message.c_str());
            QVERIFY(general.functional.dram_output == reference);
        }
    }

    // A depthwise layer with a dilated kernel, every figure by hand
    // (docs/reference/model.md#grouped-and-dilated): input 2×1×3, two 1×2
    // kernels, g = 2, dilation_w = 2. One patch, pixels (0,0) and (0,2); kernel
    // 0 reads channel 0, kernel 1 channel 1; a kernel holds 2 elements.
    // I = [[1,2,3],[4,5,6]], K0 = [10,100], K1 = [1000,10000]:
    // O[0] = 1·10 + 3·100 = 310, O[1] = 4·1000 + 6·10000 = 64000.
    void depthwiseDilatedByHand_data()
    {
        QTest::addColumn<bool>("streamed");
        QTest::addColumn<QList<qint64>>("loadedInput"); // per step, elements
        QTest::addColumn<QList<qint64>>("peak"); // per step
        QTest::addColumn<qint64>("duration");
        // S1: step 1 loads both slices of both pixels (4 elements) and both
        // kernels (4): peak 4 + 4 + 2 outputs; the drain frees the input
        // first (kernels 4 + outputs 2 = 6 after a1), then writes 2. 8 + 1 + 2.
        QTest::newRow("s1") << false << QList<qint64>{4, 0} << QList<qint64>{10, 6} << qint64(11);
        // Kernel-blocked B = 1: step 1 loads group 0's slices (2) and kernel 0
        // (2), computes O[0]: peak 5; step 2 frees them, writes O[0], loads
        // group 1's slices and kernel 1: peak 5 (output 0 leaves at a3
        // before the loads); the drain's peak is after a1 (kernel 1's 2 and
        // O[1]). Loads 8, writes 2, two computes: 12.
        QTest::newRow("kernel-blocked") << true << QList<qint64>{2, 2, 0} << QList<qint64>{5, 5, 3} << qint64(12);
    }
    void depthwiseDilatedByHand()
    {
        QFETCH(bool, streamed);
        QFETCH(QList<qint64>, loadedInput);
        QFETCH(QList<qint64>, peak);
        QFETCH(qint64, duration);
        Problem p;
        p.layer.c_in = 2;
        p.layer.h_in = 1;
        p.layer.w_in = 3;
        p.layer.h_k = 1;
        p.layer.w_k = 2;
        p.layer.n = 2;
        p.layer.group = 2;
        p.layer.dilation_w = 2;
        p.hardware.mem_size = 100;
        p.hardware.nbop_pe = 4;
        QVERIFY(p.layer.problems().empty());
        QCOMPARE(p.layer.wOut(), 1);
        QCOMPARE(p.layer.kernelElements(), 2);
        const TensorData data{{1, 2, 3, 4, 5, 6}, {10, 100, 1000, 10000}};
        StrategySpec spec;
        spec.name = "s";
        if (streamed) {
            spec.kind = StrategyKind::KernelBlocked;
            spec.kernel_block = 1;
        }
        for (bool traced : {true, false}) {
            SimulationOptions o = checkOptions(data);
            o.trace = traced; // the general executor (with a trace), else the fused pass where it applies
            const SimulationResult r = simulateStrategy(p, spec, o);
            QVERIFY2(r.valid(), r.diagnostics.empty() ? "" : r.diagnostics.front().message.c_str());
            QVERIFY2(r.functional.status == FunctionalStatus::Pass, r.functional.message.c_str());
            QCOMPARE(r.functional.dram_output, (std::vector<std::int64_t>{310, 64000}));
            QCOMPARE(r.totalDuration(), double(duration));
            QCOMPARE(qsizetype(r.steps.size()), loadedInput.size());
            for (qsizetype i = 0; i < loadedInput.size(); ++i) {
                QCOMPARE(r.steps[std::size_t(i)].loaded_input, loadedInput[i]);
                QCOMPARE(r.steps[std::size_t(i)].peak_footprint, peak[i]);
            }
            QCOMPARE(r.input_load_counts, (std::vector<std::uint32_t>{1, 1, 0, 0, 1, 1}));
        }
        QCOMPARE(referenceConvolution(p.layer, data), (std::vector<std::int64_t>{310, 64000}));
    }

    void namesFirstWrongOutput_data()
    {
        addShapeRows({QStringLiteral("small"), QStringLiteral("full16"), QStringLiteral("wide")});
    }
    void namesFirstWrongOutput()
    {
        QFETCH(QString, range);
        const Problem p = problemOf(fetchShape());
        const Layer &l = p.layer;
        const TensorData data = tensorsFor(l, range, true);
        const std::vector<std::int64_t> reference = referenceConvolution(l, data);
        StepList steps = expandS1(p, zigzag(l, 3));
        // Drop the first pixel a middle step loads.
        std::size_t s = steps.size() / 2;
        while (steps[s].load_input.empty())
            ++s;
        steps[s].load_input.erase(steps[s].load_input.begin());

        // Which outputs read a pixel that is not on chip, step by step.
        std::set<PixelId> present;
        std::set<OutputId> wrong;
        for (const Step &step : steps) {
            for (PixelId q : step.free_input)
                present.erase(q);
            present.insert(step.load_input.begin(), step.load_input.end());
            for (OutputId o : step.compute)
                if (readsMissing(l, p.options.padding_in_dram, o, present))
                    wrong.insert(o);
        }
        QVERIFY(!wrong.empty());
        // The first in tensor order O[k][i][j]: kernel first, then patch.
        const OutputId first = *std::min_element(wrong.begin(), wrong.end(), [&](OutputId a, OutputId b) {
            return std::pair(a % OutputId(l.n), a / OutputId(l.n)) < std::pair(b % OutputId(l.n), b / OutputId(l.n));
        });
        const std::string expected = outputName(l, first) + " in DRAM is "; // outputName: "output O[k](i,j)"
        const std::string gives = ", the direct convolution gives " + std::to_string(reference[first]);

        SimulationOptions o = checkOptions(data);
        o.keep_output = false;
        const SimulationResult r = simulate(p, steps, o);
        QCOMPARE(r.functional.status, FunctionalStatus::Fail);
        QVERIFY2(r.functional.message.rfind(expected, 0) == 0, (r.functional.message + " / expected: " + expected).c_str());
        QVERIFY2(r.functional.message.find(gives) != std::string::npos, r.functional.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestFunctionalCheck)
#include "tst_functionalcheck.moc"
