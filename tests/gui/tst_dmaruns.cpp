// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The input grid's outlines of the DMA runs of a step's input load
// (docs/user/visualiser.md#dma-runs): on hand-made loads of a 2\u00d72\u00d77
// input, the outlines, their cells, the runs and the blocks worked out on
// paper for both layouts (docs/reference/model.md#transfer-cost), and what the
// renderer draws; on random layers, the runs and blocks against the
// simulator's load_runs and load_bursts at every step.
#include "grid/GridView.h"
#include "render/GridRenderer.h"
#include "render/Palette.h"

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StepCursor.h"

#include <QImage>
#include <QPainter>
#include <QTest>

#include <memory>
#include <random>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

constexpr double kCell = 40; // px, for the drawn grid

// A 2\u00d77 input (C_in 2, `group` groups), 1\u00d71 kernels (one patch per
// pixel), room for everything; kernels preloaded so a step's load_runs are
// its input's alone.
Problem strip(Layout layout, int group, bool padded)
{
    Problem p;
    p.layer = Layer{2, 2, 7, 1, 1, group == 1 ? 1 : 2, 1, 1, 0, 0, 0, 0};
    p.layer.group = group;
    if (padded) {
        p.layer.pad_top = p.layer.pad_bottom = p.layer.pad_left = p.layer.pad_right = 1;
        p.options.padding_in_dram = false; // the stored input is the 2\u00d77 inside the padding
    }
    p.hardware.mem_size = 1000;
    p.hardware.nbop_pe = 1000;
    p.hardware.transfer = Transfer{layout, 4, 10};
    p.options.kernels_preloaded = true;
    return p;
}

// One step that loads `slices` (in the order given) and the kernels and
// computes every output of the loaded slices' pixels (one group's kernels on
// a grouped layer), then the drain.
struct OneLoad {
    Problem problem;
    SimulationResult result;
    std::unique_ptr<StepCursor> cursor;

    OneLoad(Problem p, const QList<uint> &slices)
        : problem(std::move(p))
    {
        const Layer &l = problem.layer;
        Step step;
        for (const uint s : slices) {
            step.load_input.push_back(SliceId(s));
            // A slice of group j feeds kernel j (one kernel a group here).
            const PatchId patch = PatchId(pixelOfSlice(l, s)); // 1\u00d71 kernels, stride 1: patch p reads pixel p
            const int kernel = l.group == 1 ? 0 : groupOfSlice(l, s);
            step.compute.push_back(OutputId(patch) * OutputId(l.n) + OutputId(kernel));
        }
        for (int k = 0; k < l.n; ++k)
            step.load_kernels.push_back(KernelId(k));
        std::sort(step.compute.begin(), step.compute.end());
        Step drain;
        drain.write = step.compute;
        drain.free_input = step.load_input;
        std::sort(drain.free_input.begin(), drain.free_input.end());
        for (int k = 0; k < l.n; ++k)
            drain.free_kernels.push_back(KernelId(k));
        SimulationOptions options;
        options.trace = true;
        options.functional = false;
        result = simulate(problem, StepList{step, drain}, options);
        cursor = std::make_unique<StepCursor>(problem, result);
        cursor->seek({0, Action::Compute});
    }
};

// "r0c4x3+r1c0x2": an outline's row rectangles (row, first column, width).
QString describe(const DmaOutline &o)
{
    QStringList parts;
    for (const QRect &r : o.rows) {
        if (r.height() != 1)
            return QStringLiteral("a rectangle of %1 rows").arg(r.height());
        parts << QStringLiteral("r%1c%2x%3").arg(r.y()).arg(r.x()).arg(r.width());
    }
    return parts.join(QLatin1Char('+'));
}

QString describe(const DmaRunOutlines &runs)
{
    QStringList outlines;
    for (const DmaOutline &o : runs.outlines)
        outlines << describe(o);
    return outlines.join(QStringLiteral(" | "));
}

QString runsPerOutline(const DmaRunOutlines &runs)
{
    QStringList counts;
    for (const DmaOutline &o : runs.outlines)
        counts << QString::number(o.runs);
    return counts.join(QLatin1Char(','));
}

bool isDmaColour(QRgb c) { return c == Palette::dmaRun(0).rgb() || c == Palette::dmaRun(1).rgb(); }

} // namespace

class TestDmaRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void handWorked_data();
    void handWorked();
    void nothingBeforeTheLoad();
    void againstTheSimulator();
    void viewToggle();
};

void TestDmaRuns::handWorked_data()
{
    QTest::addColumn<int>("layout"); // 0 nchw, 1 nhwc
    QTest::addColumn<int>("group");
    QTest::addColumn<bool>("padded");
    QTest::addColumn<QList<uint>>("slices"); // as the step lists them
    QTest::addColumn<QString>("outlines");
    QTest::addColumn<QString>("runsEach");
    QTest::addColumn<qint64>("runs");
    QTest::addColumn<qint64>("blocks");

    // Pixels q = row\u00b77 + col. Burst 4. Loaded: row 0 columns 0-2 and
    // 4-6, row 1 columns 0, 1 and 5: stored runs of pixels [0,2] [4,8]
    // (row 0's end goes on at row 1's start) [12].
    const QList<uint> scattered{12, 0, 1, 2, 4, 5, 6, 7, 8};
    const QString three = QStringLiteral("r0c0x3 | r0c4x3+r1c0x2 | r1c5x1");
    // nchw: channel c at c\u00b714 + q: [0,2] [4,8] [12] and [14,16] [18,22]
    // [26]; blocks of 4: 1 + 2 + 1 and 2 + 2 + 1.
    QTest::newRow("nchw, scattered") << 0 << 1 << false << scattered << three << QStringLiteral("2,2,2") << qint64(6)
                                     << qint64(9);
    // nhwc: pixel q at [2q, 2q+1]: [0,5] [8,17] [24,25]; blocks 2 + 3 + 1.
    QTest::newRow("nhwc, scattered") << 1 << 1 << false << scattered << three << QStringLiteral("1,1,1") << qint64(3)
                                     << qint64(6);

    // Pixels 0, 1, 6, 7, 13: [0,1] [6,7] [13]. nchw: channel 0's [13]
    // meets channel 1's [14,15] (the plane's last pixel, then the next
    // plane's first): [0,1] [6,7] [13,15] [20,21] [27], one block each.
    const QList<uint> ends{0, 1, 6, 7, 13};
    const QString wrap = QStringLiteral("r0c0x2 | r0c6x1+r1c0x1 | r1c6x1");
    QTest::newRow("nchw, planes join") << 0 << 1 << false << ends << wrap << QStringLiteral("2,2,2") << qint64(5) << qint64(5);
    // nhwc: [0,3] [12,15] [26,27], one block each.
    QTest::newRow("nhwc, planes join") << 1 << 1 << false << ends << wrap << QStringLiteral("1,1,1") << qint64(3) << qint64(3);

    // Depthwise (g = 2, one channel a group), slices q\u00b72 + group:
    // (0,g0) (0,g1) (1,g1) (2,g0). nhwc: addresses 0 1 3 4: [0,1] over
    // pixel 0 and [3,4] over pixels 1-2 (pixel 1's group 1, pixel 2's group
    // 0); blocks 1 + 2.
    const QList<uint> depthwise{0, 1, 3, 4};
    QTest::newRow("nhwc, depthwise") << 1 << 2 << false << depthwise << QStringLiteral("r0c0x1 | r0c1x2") << QStringLiteral("1,1")
                                     << qint64(2) << qint64(3);
    // nchw: channel 0 holds pixels 0 and 2 ([0] [2]), channel 1 pixels 0
    // and 1 ([14,15]): three runs, a block each; the outlines overlap.
    QTest::newRow("nchw, depthwise") << 0 << 2 << false << depthwise << QStringLiteral("r0c0x1 | r0c0x2 | r0c2x1")
                                     << QStringLiteral("1,1,1") << qint64(3) << qint64(3);

    // Padding made on chip around the 2\u00d77 (padded 4\u00d79, id = row\u00b79 + col):
    // stored pixels 5, 6, 7 are padded (1,6) (1,7) (2,1), one stored run.
    const QList<uint> paddedRun{16, 15, 19};
    QTest::newRow("nchw, padding on chip") << 0 << 1 << true << paddedRun << QStringLiteral("r1c6x2+r2c1x1")
                                           << QStringLiteral("2") << qint64(2) << qint64(3); // [5,7] [19,21]: 2 + 1 blocks
    QTest::newRow("nhwc, padding on chip") << 1 << 1 << true << paddedRun << QStringLiteral("r1c6x2+r2c1x1")
                                           << QStringLiteral("1") << qint64(1) << qint64(2); // [10,15]
}

void TestDmaRuns::handWorked()
{
    QFETCH(int, layout);
    QFETCH(int, group);
    QFETCH(bool, padded);
    QFETCH(QList<uint>, slices);
    QFETCH(QString, outlines);
    QFETCH(QString, runsEach);
    QFETCH(qint64, runs);
    QFETCH(qint64, blocks);

    const OneLoad load(strip(layout ? Layout::Nhwc : Layout::Nchw, group, padded), slices);
    // (The layer's other outputs are never computed, an error that leaves
    // the step's load as listed.)
    QCOMPARE(load.result.steps[0].loaded_input, qint64(slices.size()) * load.problem.layer.sliceChannels());
    const DmaRunOutlines got = GridRenderer::dmaRunOutlines(load.problem, *load.cursor);
    QVERIFY(got.shown);
    QCOMPARE(describe(got), outlines);
    QCOMPARE(runsPerOutline(got), runsEach);
    QCOMPARE(got.runs, runs);
    QCOMPARE(got.blocks, blocks);
    QCOMPARE(got.burst, qint64(4));
    // The simulator counts the same load alike (kernels preloaded: no run).
    QCOMPARE(load.result.steps[0].load_runs, runs);
    QCOMPARE(load.result.steps[0].load_bursts, blocks);

    // Drawn: the dashed colours in exactly the cells of some outline.
    const Layer &l = load.problem.layer;
    GridGeometry geometry;
    geometry.rows = l.paddedHeight();
    geometry.cols = l.paddedWidth();
    geometry.cellSize = kCell;
    QImage image(int(geometry.cols * kCell), int(geometry.rows * kCell), QImage::Format_RGB32);
    image.fill(Qt::white);
    GridStyle style;
    style.dmaRuns = true;
    style.outlineGroup = false;
    style.labels = false;
    {
        QPainter painter(&image);
        GridRenderer().paintInputCells(painter, geometry, load.problem, *load.cursor, style, geometry.allCells());
    }
    for (int r = 0; r < geometry.rows; ++r)
        for (int c = 0; c < geometry.cols; ++c) {
            bool inside = false;
            for (const DmaOutline &o : got.outlines)
                for (const QRect &part : o.rows)
                    inside = inside || part.contains(c, r);
            bool drawn = false;
            const QRect cell = geometry.cellRect(r, c).toRect().adjusted(1, 1, -1, -1);
            for (int y = cell.top(); y <= cell.bottom() && !drawn; ++y)
                for (int x = cell.left(); x <= cell.right() && !drawn; ++x)
                    drawn = isDmaColour(image.pixel(x, y));
            QVERIFY2(drawn == inside,
                qPrintable(QStringLiteral("cell (%1,%2) %3")
                               .arg(r)
                               .arg(c)
                               .arg(inside ? QStringLiteral("not drawn") : QStringLiteral("drawn"))));
        }
}

void TestDmaRuns::nothingBeforeTheLoad()
{
    OneLoad load(strip(Layout::Nhwc, 1, false), {0, 1, 2});
    load.cursor->seek({0, Action::Write}); // a3: the load has not happened yet
    QVERIFY(!GridRenderer::dmaRunOutlines(load.problem, *load.cursor).shown);
    load.cursor->seek({0, Action::LoadInput});
    QCOMPARE(GridRenderer::dmaRunOutlines(load.problem, *load.cursor).runs, qint64(1));
    // Without a transfer model there is nothing to outline.
    Problem linear = load.problem;
    linear.hardware.transfer.reset();
    QVERIFY(!GridRenderer::dmaRunOutlines(linear, *load.cursor).shown);
}

// Random layers, layouts, bursts, padding and groups under S1 strategies:
// at every step, the outlines' runs and blocks are the simulator's.
void TestDmaRuns::againstTheSimulator()
{
    std::mt19937 rng(39);
    const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int checkedSteps = 0, loadsWithSeveralRuns = 0;
    for (int trial = 0; trial < 60; ++trial) {
        Problem p;
        Layer &l = p.layer;
        l.group = pick(0, 2) == 0 ? 2 : 1;
        l.c_in = l.group * pick(1, 2);
        l.n = l.group * pick(1, 2);
        l.h_in = pick(2, 7);
        l.w_in = pick(2, 7);
        l.h_k = pick(1, std::min(3, l.h_in));
        l.w_k = pick(1, std::min(3, l.w_in));
        l.stride_h = pick(1, 2);
        l.stride_w = pick(1, 2);
        if (pick(0, 1))
            l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = 1;
        p.options.padding_in_dram = pick(0, 1);
        p.options.kernels_preloaded = true;
        p.hardware.mem_size = 100000;
        p.hardware.nbop_pe = std::int64_t(l.kernelElements()) * l.n * pick(1, 6);
        p.hardware.transfer = Transfer{pick(0, 1) ? Layout::Nhwc : Layout::Nchw, std::int64_t(pick(1, 8)), double(pick(0, 20))};
        const std::int64_t g = pick(1, int(std::max<std::int64_t>(1, p.nbPatchesMax())));
        SimulationOptions options;
        options.trace = true;
        options.functional = false;
        const Groups groups = pick(0, 1) ? zigzag(l, g) : rowByRow(l, g);
        const SimulationResult result = simulate(p, expandS1(p, groups), options);
        StepCursor cursor(p, result);
        for (int k = 0; k < cursor.stepCount(); ++k) {
            cursor.seek({k, Action::Compute});
            const DmaRunOutlines runs = GridRenderer::dmaRunOutlines(p, cursor);
            QVERIFY(runs.shown);
            QCOMPARE(runs.runs, result.steps[std::size_t(k)].load_runs);
            QCOMPARE(runs.blocks, result.steps[std::size_t(k)].load_bursts);
            ++checkedSteps;
            loadsWithSeveralRuns += runs.runs > 1;
        }
    }
    QVERIFY(checkedSteps > 200);
    QVERIFY(loadsWithSeveralRuns > 50); // the loads were not all one run
}

// The view draws them by default, and the toggle takes them away.
void TestDmaRuns::viewToggle()
{
    // nchw: [0,2] [4,5] [14,16] [18,19]; blocks of 4: 1 + 1 + 2 + 1.
    const OneLoad load(strip(Layout::Nchw, 1, false), {0, 1, 2, 4, 5});
    GridView view(GridView::Input);
    QVERIFY(view.style().dmaRuns);
    view.resize(500, 400);
    view.setSource(&load.problem, load.cursor.get());
    const auto dmaPixels = [&view] {
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += isDmaColour(image.pixel(x, y));
        return n;
    };
    QVERIFY(dmaPixels() > 100);
    // A cell of the first run names the load and its run in its tooltip.
    const GridGeometry g = view.geometry();
    const QString tip = view.toolTipAt(g.cellRect(0, 1).center());
    QVERIFY2(tip.contains(QStringLiteral("input load (nchw): 4 runs, 5 blocks of 4")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("pixels (0,0)\u2013(0,2)")), qPrintable(tip));
    view.setDmaRuns(false);
    QCOMPARE(dmaPixels(), 0);
}

QTEST_MAIN(TestDmaRuns)
#include "tst_dmaruns.moc"
