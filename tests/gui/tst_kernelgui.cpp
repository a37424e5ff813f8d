// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The visualiser of kernel-streaming strategies (issue 12): the kernel strip's
// colours, the output cells' fill fraction, the duration chart's split of
// input and kernel loads, the kernel band of the footprint, the strip in the
// grid figures, and the Groups dock's steps with kernels moved by drag and drop.
//
// The layer is small enough to work by hand: C_in 1, 4×4 input, four 3×3
// kernels, stride 1, so 2×2 patches (ids 0 1 / 2 3) and 9 elements a kernel.
// kernel-blocked, G = 2, B = 2, row-by-row, kernels outer gives the groups
// A = {0,1}, B = {2,3}, the blocks {0,1}, {2,3} and the steps
//   s1 (A, {0,1})   s2 (B, {0,1})   s3 (B, {2,3})   s4 (A, {2,3})   s5 drain
// (the second block walks the groups backwards). Kernels, after each step:
//   s1 0,1 loaded now; 2,3 not on chip      s2 0,1 kept; 2,3 not on chip
//   s3 0,1 freed now; 2,3 loaded now        s4 0,1 not on chip; 2,3 kept
//   s5 0,1 not on chip; 2,3 freed now
// Outputs computed of the 4 per patch: s1 {2,2,0,0}, s2 {2,2,2,2},
// s3 {2,2,4,4}, s4 {4,4,4,4}. Input: A reads rows 0–2 (12 pixels), B rows
// 1–3; s1 loads 12 pixels and 18 kernel elements, s2 the 4 pixels of row 3,
// s3 the 18 elements of kernels 2,3, s4 the 4 pixels of row 0.
#include "charts/ChartFactory.h"
#include "charts/ChartsPanel.h"
#include "document/ProjectDocument.h"
#include "models/GroupListModel.h"
#include "models/StepKernelModel.h"
#include "panels/GroupsPanel.h"
#include "export/Figures.h"
#include "grid/GridView.h"
#include "render/GridRenderer.h"
#include "render/KernelStrip.h"
#include "render/Palette.h"

#include "convoffload/model/KernelEdit.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StepCursor.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QImage>
#include <QLineSeries>
#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <memory>

using namespace convoffload;
using namespace convoffload::ui;

Q_DECLARE_METATYPE(convoffload::PixelState)

namespace {

constexpr PixelState L = PixelState::Loaded, K = PixelState::Kept, F = PixelState::Freed, O = PixelState::Off;

Problem smallProblem(double tl = 1, bool preloaded = false)
{
    Problem p;
    p.layer = Layer{1, 4, 4, 3, 3, 4, 1, 1, 0, 0, 0, 0};
    p.hardware.mem_size = 1000;
    p.hardware.nbop_pe = 36; // 2 patches × 2 kernels × 9
    p.hardware.t_l = tl;
    p.options.kernels_preloaded = preloaded;
    return p;
}

StrategySpec kernelsOuter()
{
    StrategySpec s;
    s.name = "KO";
    s.kind = StrategyKind::KernelBlocked;
    s.group_size = 2;
    s.kernel_block = 2;
    s.order = PatchOrder::RowByRow;
    s.loop = KernelLoop::KernelsOuter;
    return s;
}

struct Run {
    Problem problem;
    SimulationResult result;
    std::unique_ptr<StepCursor> cursor;
    explicit Run(Problem p = smallProblem(), const StrategySpec &spec = kernelsOuter())
        : problem(std::move(p))
    {
        SimulationOptions o;
        o.trace = true;
        o.functional = true;
        result = simulateStrategy(problem, spec, o);
        cursor = std::make_unique<StepCursor>(problem, result);
    }
};

// "0 1:0 1|2 3:0 1" = step (patches 0,1; kernels 0,1), step (patches 2,3; kernels 0,1).
ComputeSteps parseSteps(const QString &text)
{
    ComputeSteps steps;
    for (const QString &step : text.split(QLatin1Char('|'))) {
        const QStringList parts = step.split(QLatin1Char(':'));
        ComputeStep s;
        for (const QString &p : parts[0].split(QLatin1Char(' '), Qt::SkipEmptyParts))
            s.patches.push_back(PatchId(p.toUInt()));
        for (const QString &k : parts[1].split(QLatin1Char(' '), Qt::SkipEmptyParts))
            s.kernels.push_back(KernelId(k.toUInt()));
        steps.push_back(s);
    }
    return steps;
}

QString formatSteps(const ComputeSteps &steps)
{
    QStringList out;
    for (const ComputeStep &s : steps) {
        QStringList p, k;
        for (PatchId id : s.patches)
            p << QString::number(id);
        for (KernelId id : s.kernels)
            k << QString::number(id);
        out << p.join(QLatin1Char(' ')) + QLatin1Char(':') + k.join(QLatin1Char(' '));
    }
    return out.join(QLatin1Char('|'));
}

// The hand-worked KO strategy as explicit steps.
const QString kKoSteps = QStringLiteral("0 1:0 1|2 3:0 1|2 3:2 3|0 1:2 3");

Project projectOf(const Problem &problem)
{
    Project project;
    project.problem = problem;
    project.strategies = {kernelsOuter()};
    StrategySpec groups;
    groups.name = "Groups";
    groups.kind = StrategyKind::Groups;
    groups.groups = {{0, 1}, {2, 3}};
    project.strategies.push_back(groups);
    return project;
}

const StrategySpec &specAt(const ProjectDocument &doc, int i) { return doc.project().strategies.at(std::size_t(i)); }

/// The hand-worked project with KO current, and its Groups dock, shown (the
/// message and preview lines show only in a visible panel).
struct StepsDock {
    ProjectDocument doc;
    std::unique_ptr<GroupsPanel> panel;
    StepsDock()
    {
        doc.resetToProject(projectOf(smallProblem()));
        doc.setCurrentStrategy(0);
        panel = std::make_unique<GroupsPanel>(&doc);
        panel->QWidget::show();
    }
};

QRgb at(const QImage &image, const QPointF &p) { return image.pixel(p.toPoint()) | 0xFF000000u; }

} // namespace

class KernelGuiTest : public QObject {
    Q_OBJECT
private slots:
    void strategyIsValid();
    void cursorKernelStates_data();
    void cursorKernelStates();
    void stripColours_data();
    void stripColours();
    void stripBlocksWhenNarrow();
    void fillFractions_data();
    void fillFractions();
    void fillPainted();
    void smallFillStaysVisible();
    void legendExplainsFill();
    void durationSplit_data();
    void durationSplit();
    void kernelBandMoves();
    void figuresShowTheStrip();
    void gridViewShowsTheStrip();
    void kernelEdits_data();
    void kernelEdits();
    void dockShowsSteps();
    void dockDragMovesKernel();
    void dockRefusesDrops();
    void dockDropPreview();
    void dockKeyboardActions();
    void sweepSaysWhyThereIsNone();
};

void KernelGuiTest::strategyIsValid()
{
    const Run run;
    QVERIFY2(run.result.valid(), "the hand-worked strategy must be valid");
    QCOMPARE(run.result.functional.status, FunctionalStatus::Pass);
    QCOMPARE(run.cursor->stepCount(), 5);
}

void KernelGuiTest::cursorKernelStates_data()
{
    QTest::addColumn<int>("step");
    QTest::addColumn<int>("action");
    QTest::addColumn<QList<PixelState>>("states");
    QTest::addColumn<QList<int>>("current");
    const int a6 = int(Action::Compute);
    QTest::newRow("s1") << 0 << a6 << QList<PixelState>{L, L, O, O} << QList<int>{0, 1};
    QTest::newRow("s2") << 1 << a6 << QList<PixelState>{K, K, O, O} << QList<int>{0, 1};
    QTest::newRow("s3 after a2 free kernels")
        << 2 << int(Action::FreeKernels) << QList<PixelState>{F, F, O, O} << QList<int>{2, 3};
    QTest::newRow("s3") << 2 << a6 << QList<PixelState>{F, F, L, L} << QList<int>{2, 3};
    QTest::newRow("s4") << 3 << a6 << QList<PixelState>{O, O, K, K} << QList<int>{2, 3};
    QTest::newRow("s5 drain") << 4 << int(Action::Write) << QList<PixelState>{O, O, F, F} << QList<int>{};
    QTest::newRow("back to s2") << 1 << a6 << QList<PixelState>{K, K, O, O} << QList<int>{0, 1};
}

void KernelGuiTest::cursorKernelStates()
{
    QFETCH(int, step);
    QFETCH(int, action);
    QFETCH(QList<PixelState>, states);
    QFETCH(QList<int>, current);
    Run run;
    run.cursor->seek({4, Action::Compute}); // then back: the checkpoints restore kernels too
    run.cursor->seek({step, Action(action)});
    for (int k = 0; k < 4; ++k)
        QCOMPARE(run.cursor->kernel(KernelId(k)), states[k]);
    QList<int> got;
    for (KernelId k : run.cursor->currentKernels())
        got << int(k);
    QCOMPARE(got, current);
}

void KernelGuiTest::stripColours_data()
{
    QTest::addColumn<int>("step");
    QTest::addColumn<QList<PixelState>>("states");
    QTest::newRow("s1") << 0 << QList<PixelState>{L, L, O, O};
    QTest::newRow("s2") << 1 << QList<PixelState>{K, K, O, O};
    QTest::newRow("s3") << 2 << QList<PixelState>{F, F, L, L};
    QTest::newRow("s4") << 3 << QList<PixelState>{O, O, K, K};
}

void KernelGuiTest::stripColours()
{
    QFETCH(int, step);
    QFETCH(QList<PixelState>, states);
    Run run;
    run.cursor->seek({step, Action::Compute});
    QImage image(600, 60, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const QRectF rect(10, 10, 580, 24);
    {
        QPainter p(&image);
        KernelStrip::paint(p, rect, run.problem, *run.cursor, true);
    }
    QPainter measure(&image);
    const KernelStripLayout l = KernelStrip::layout(QFontMetricsF(measure.font(), &image), rect, 4, true);
    measure.end();
    QCOMPARE(l.cellCount, 4);
    QCOMPARE(l.kernelsPerCell, 1);
    for (int k = 0; k < 4; ++k)
        QCOMPARE(QColor(at(image, l.cellRect(k).center())), Palette::pixel(states[k]));
}

void KernelGuiTest::stripBlocksWhenNarrow()
{
    // 8 kernels in a strip with room for 3 cells of kMinCellWidth: ceil(8/3) = 3,
    // rounded up to a power of two: 4 kernels a cell, cells {0–3} {4–7}.
    QCOMPARE(KernelStrip::kernelsPerCell(8, 3), 4);
    QCOMPARE(KernelStrip::kernelsPerCell(8, 8), 1);
    QCOMPARE(KernelStrip::kernelsPerCell(256, 64), 4);
    QCOMPARE(KernelStrip::kernelsPerCell(128, 43), 4); // 32 cells
    QCOMPARE(KernelStrip::kernelsPerCell(256, 20), 16); // ceil = 13
    QCOMPARE(KernelStrip::kernelsPerCell(5, 0), 8); // one cell
    // Cells of 2 kernels at s3 of the hand-worked run: {0,1} freed, {2,3} loaded.
    Run run;
    run.cursor->seek({2, Action::Compute});
    QCOMPARE(KernelStrip::cellState(*run.cursor, 0, 2), F);
    QCOMPARE(KernelStrip::cellState(*run.cursor, 2, 2), L);
    // s3 after a2: {0,1} freed, {2,3} not loaded yet; one cell of all four shows "freed".
    run.cursor->seek({2, Action::FreeKernels});
    QCOMPARE(KernelStrip::cellState(*run.cursor, 0, 4), F);
    run.cursor->seek({1, Action::Compute});
    QCOMPARE(KernelStrip::cellState(*run.cursor, 0, 4), K);
}

void KernelGuiTest::fillFractions_data()
{
    QTest::addColumn<int>("step");
    QTest::addColumn<QList<int>>("done");
    QTest::newRow("s1") << 0 << QList<int>{2, 2, 0, 0};
    QTest::newRow("s2") << 1 << QList<int>{2, 2, 2, 2};
    QTest::newRow("s3") << 2 << QList<int>{2, 2, 4, 4};
    QTest::newRow("s4") << 3 << QList<int>{4, 4, 4, 4};
}

void KernelGuiTest::fillFractions()
{
    QFETCH(int, step);
    QFETCH(QList<int>, done);
    Run run;
    run.cursor->seek({step, Action::Compute});
    for (int p = 0; p < 4; ++p)
        QCOMPARE(GridRenderer::outputsComputed(run.problem, *run.cursor, PatchId(p)), done[p]);
}

void KernelGuiTest::fillPainted()
{
    // s3: patches 0,1 half done (computed at s1, written at s2): top half
    // pending, bottom half "done"; patches 2,3 whole, "computed now" (their
    // last two outputs; the first two were written at s3 itself: written now wins).
    Run run;
    run.cursor->seek({2, Action::Compute});
    QImage image(600, 600, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    GridStyle style;
    GridRenderer renderer;
    {
        QPainter p(&image);
        renderer.paintOutputGrid(p, QRectF(0, 0, 600, 600), run.problem, *run.cursor, style);
    }
    QPainter measure(&image);
    const GridFigureLayout lay = GridRenderer::layout(GridKind::Output,
        QFontMetricsF(GridRenderer::figureFont(measure.font(), QRectF(0, 0, 600, 600)), &image), QRectF(0, 0, 600, 600),
        run.problem, *run.cursor, style);
    measure.end();
    const auto point = [&](int row, int col, double fy) {
        const QRectF c = lay.geometry.cellRect(row, col);
        return QPointF(c.center().x(), c.top() + fy * c.height());
    };
    const QColor pending = Palette::output(OutputState::Pending);
    QCOMPARE(QColor(at(image, point(0, 0, 0.3))), pending);
    QCOMPARE(QColor(at(image, point(0, 0, 0.75))), Palette::output(OutputState::Done));
    QCOMPARE(QColor(at(image, point(0, 1, 0.3))), pending);
    QCOMPARE(QColor(at(image, point(1, 0, 0.3))), Palette::output(OutputState::Written));
    QCOMPARE(QColor(at(image, point(1, 1, 0.75))), Palette::output(OutputState::Written));
}

// 16 kernels, one block at a time (B = G = 1, kernels outer): after step 1
// patch 0 has 1 of its 16 outputs, 1/16 of its cell, under a pixel of a
// small cell. Each part of a partly computed cell keeps at least a quarter of
// it, up to 4 px: the bottom quarter is "computed now", the rest pending.
void KernelGuiTest::smallFillStaysVisible()
{
    Problem p = smallProblem();
    p.layer.n = 16;
    p.hardware.nbop_pe = 9;
    StrategySpec spec = kernelsOuter();
    spec.group_size = 1;
    spec.kernel_block = 1;
    Run run(p, spec);
    run.cursor->seek({0, Action::Compute});
    QCOMPARE(GridRenderer::outputsComputed(run.problem, *run.cursor, PatchId(0)), 1);
    const QRectF target(0, 0, 70, 70);
    QImage image(70, 70, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    GridStyle style;
    style.legend = false;
    GridRenderer renderer;
    {
        QPainter painter(&image);
        renderer.paintOutputGrid(painter, target, run.problem, *run.cursor, style);
    }
    QPainter measure(&image);
    const GridFigureLayout lay = GridRenderer::layout(GridKind::Output,
        QFontMetricsF(GridRenderer::figureFont(measure.font(), target), &image), target, run.problem, *run.cursor, style);
    measure.end();
    const QRectF cell = lay.geometry.cellRect(0, 0);
    QVERIFY2(cell.height() >= 8 && cell.height() / 16 < 1, qPrintable(QString::number(cell.height())));
    const double least = std::min(cell.height() / 4, 4.0);
    const auto at_ = [&](double fromBottom) { return QColor(at(image, QPointF(cell.center().x(), cell.bottom() - fromBottom))); };
    QCOMPARE(at_(least - 0.5), Palette::output(OutputState::Computed));
    QCOMPARE(at_(least + 1.5), Palette::output(OutputState::Pending));
    // The tooltip gives the 16 outputs as runs of kernels, not 16 lines.
    GridView view(GridKind::Output);
    view.resize(400, 400);
    view.setSource(&run.problem, run.cursor.get());
    const QString tip = view.toolTipAt(view.geometry().cellRect(0, 0).center());
    QVERIFY2(tip.contains(QStringLiteral("1 of 16 outputs computed:\n  kernel 0: computed now\n  kernels 1–15: pending")),
        qPrintable(tip));
}

void KernelGuiTest::legendExplainsFill()
{
    const auto hasFillItem = [](const std::vector<LegendRow> &rows) {
        for (const LegendRow &row : rows)
            for (const LegendItem &item : row.items)
                if (item.kind == LegendItem::Kind::PartialFill)
                    return true;
        return false;
    };
    const Run streaming;
    QVERIFY(GridRenderer::streamsKernels(*streaming.cursor));
    QVERIFY(hasFillItem(GridRenderer::outputLegend(GridStyle{}, {}, true)));
    QVERIFY(!hasFillItem(GridRenderer::outputLegend(GridStyle{})));
    // B = N is the S1 heuristic: kernels loaded at step 1, freed by the drain only.
    StrategySpec s1 = kernelsOuter();
    s1.kernel_block = 4;
    s1.group_size = 1; // 1 patch × 4 kernels × 9 = 36 ops
    const Run whole(smallProblem(), s1);
    QVERIFY(whole.result.valid());
    QVERIFY(!GridRenderer::streamsKernels(*whole.cursor));
}

void KernelGuiTest::durationSplit_data()
{
    QTest::addColumn<double>("tl");
    QTest::addColumn<bool>("preloaded");
    QTest::addColumn<QList<double>>("input");
    QTest::addColumn<QList<double>>("kernels");
    // Hand: input elements 12, 4, 0, 4, 0; kernel elements 18, 0, 18, 0, 0.
    QTest::newRow("t_l 1") << 1.0 << false << QList<double>{12, 4, 0, 4, 0} << QList<double>{18, 0, 18, 0, 0};
    QTest::newRow("t_l 2") << 2.0 << false << QList<double>{24, 8, 0, 8, 0} << QList<double>{36, 0, 36, 0, 0};
    QTest::newRow("kernels preloaded") << 2.0 << true << QList<double>{24, 8, 0, 8, 0} << QList<double>{0, 0, 0, 0, 0};
}

void KernelGuiTest::durationSplit()
{
    QFETCH(double, tl);
    QFETCH(bool, preloaded);
    QFETCH(QList<double>, input);
    QFETCH(QList<double>, kernels);
    const Run run(smallProblem(tl, preloaded));
    QCOMPARE(int(run.result.steps.size()), 5);
    for (int s = 0; s < 5; ++s) {
        const LoadSplit split = loadSplit(run.problem, run.result.steps[std::size_t(s)]);
        QCOMPARE(split.input, input[s]);
        QCOMPARE(split.kernels, kernels[s]);
        QCOMPARE(split.input + split.kernels, run.result.steps[std::size_t(s)].load_duration);
    }
    std::unique_ptr<QChart> chart(durationChart(run.problem, run.result, 1));
    QAbstractBarSeries *bars = nullptr;
    for (QAbstractSeries *series : chart->series())
        if (auto *b = qobject_cast<QAbstractBarSeries *>(series))
            bars = b;
    QVERIFY(bars);
    QBarSet *in = nullptr, *ker = nullptr;
    for (QBarSet *set : bars->barSets()) {
        if (set->label() == QLatin1String("load input"))
            in = set;
        if (set->label() == QLatin1String("load kernels"))
            ker = set;
    }
    QVERIFY(in && ker);
    for (int s = 0; s < 5; ++s) {
        QCOMPARE(in->at(s), input[s]);
        QCOMPARE(ker->at(s), kernels[s]);
    }
}

void KernelGuiTest::kernelBandMoves()
{
    // Per action, the kernel band (kernels line minus input line) is 18 after
    // s1's a5, 18 after s3's a1, 0 after s3's a2 (both freed), 18 after s3's
    // a5 (the next block), 0 after the drain's a2.
    const Run run;
    std::unique_ptr<QChart> chart(footprintChart(run.problem, run.result, -1, true));
    QAreaSeries *kernels = nullptr;
    for (QAbstractSeries *series : chart->series())
        if (series->name() == QLatin1String("kernels"))
            kernels = qobject_cast<QAreaSeries *>(series);
    QVERIFY(kernels && kernels->upperSeries() && kernels->lowerSeries());
    const auto band = [&](int step, Action a) {
        const int i = (step * kActionCount + int(a)) * 2; // two points per action
        return kernels->upperSeries()->at(i).y() - kernels->lowerSeries()->at(i).y();
    };
    QCOMPARE(band(0, Action::LoadKernels), 18.0);
    QCOMPARE(band(2, Action::FreeInput), 18.0);
    QCOMPARE(band(2, Action::FreeKernels), 0.0);
    QCOMPARE(band(2, Action::LoadKernels), 18.0);
    QCOMPARE(band(4, Action::FreeKernels), 0.0);
}

void KernelGuiTest::figuresShowTheStrip()
{
    // The input-grid figure (storyboards draw it too) has the strip under the
    // grid; at s3 its cells read freed, freed, loaded, loaded.
    Run run;
    run.cursor->seek({2, Action::Compute});
    const QRectF target(0, 0, 700, 700);
    QImage image(700, 700, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    GridStyle style;
    GridRenderer renderer;
    {
        QPainter p(&image);
        renderer.paintInputGrid(p, target, run.problem, *run.cursor, style);
    }
    QPainter measure(&image);
    const QFont font = GridRenderer::figureFont(measure.font(), target);
    const QFontMetricsF fm(font, &image);
    const GridFigureLayout lay = GridRenderer::layout(GridKind::Input, fm, target, run.problem, *run.cursor, style);
    measure.end();
    QVERIFY(!lay.kernelStrip.isEmpty());
    QVERIFY(lay.kernelStrip.top() >= lay.geometry.bounds().bottom());
    QVERIFY(lay.legend.top() >= lay.kernelStrip.bottom());
    const KernelStripLayout l = KernelStrip::layout(fm, lay.kernelStrip, 4, true);
    const PixelState want[] = {F, F, L, L};
    for (int k = 0; k < 4; ++k)
        QCOMPARE(QColor(at(image, l.cellRect(k).center())), Palette::pixel(want[k]));
    // Without the strip the band is gone.
    style.kernelStrip = false;
    QVERIFY(GridRenderer::layout(GridKind::Input, fm, target, run.problem, *run.cursor, style).kernelStrip.isEmpty());

    // Through the export catalogue: the storyboard of KO against itself paints.
    Project project;
    project.problem = run.problem;
    project.strategies = {kernelsOuter()};
    StrategySpec other = kernelsOuter();
    other.name = "PO";
    other.loop = KernelLoop::PatchesOuter;
    project.strategies.push_back(other);
    FigureSource source(project, {});
    FigureRequest request;
    request.kind = FigureKind::Storyboard;
    request.strategy = "KO";
    request.versus = "PO";
    request.storyboardSteps = 4;
    const Figure figure = makeFigure(source, request);
    QImage board(figure.preferredSize, QImage::Format_ARGB32_Premultiplied);
    board.fill(Qt::white);
    {
        QPainter p(&board);
        figure.paint(p, QRectF(QPointF(0, 0), QSizeF(figure.preferredSize)));
    }
    // Some pixel of the storyboard has the "loaded now" colour in a strip row
    // at s3 of KO; the whole board at least carries every kernel colour used.
    bool loaded = false, freed = false;
    for (int y = 0; y < board.height() && !(loaded && freed); ++y)
        for (int x = 0; x < board.width(); ++x) {
            const QColor c(board.pixel(x, y) | 0xFF000000u);
            loaded |= c == Palette::pixel(L);
            freed |= c == Palette::pixel(F);
        }
    QVERIFY(loaded && freed);
}

void KernelGuiTest::gridViewShowsTheStrip()
{
    Run run;
    run.cursor->seek({2, Action::Compute});
    GridView view(GridKind::Input);
    view.resize(500, 500);
    view.setSource(&run.problem, run.cursor.get());
    view.refresh();
    const QRectF strip = view.kernelStripRect();
    QVERIFY(!strip.isEmpty());
    QVERIFY(strip.top() >= view.gridViewport().bottom());
    const QImage image = view.grab().toImage();
    const KernelStripLayout l = KernelStrip::layout(QFontMetricsF(view.font(), &view), strip, 4, true);
    const PixelState want[] = {F, F, L, L};
    for (int k = 0; k < 4; ++k)
        QCOMPARE(QColor(at(image, l.cellRect(k).center())), Palette::pixel(want[k]));
    QVERIFY(view.toolTipAt(l.cellRect(2).center()).contains(QStringLiteral("kernel 2: loaded now")));
    GridView output(GridKind::Output);
    output.resize(500, 500);
    output.setSource(&run.problem, run.cursor.get());
    QVERIFY(output.kernelStripRect().isEmpty());
    QVERIFY(output.toolTipAt(output.geometry().cellRect(0, 0).center()).contains(QStringLiteral("2 of 4 outputs computed")));
}

void KernelGuiTest::kernelEdits_data()
{
    QTest::addColumn<QString>("op"); // "move" or "new"
    QTest::addColumn<int>("from");
    QTest::addColumn<QList<int>>("kernels");
    QTest::addColumn<int>("to"); // target step, or the new step's position
    QTest::addColumn<QString>("after"); // the steps, or "!" + the refusal
    QTest::newRow("block split: kernel 3 of s3 to a new step after it")
        << "new" << 2 << QList<int>{3} << 3 << QStringLiteral("0 1:0 1|2 3:0 1|2 3:2|2 3:3|0 1:2 3");
    QTest::newRow("new step first") << "new" << 1 << QList<int>{1, 0} << 0 << QStringLiteral("2 3:0 1|0 1:0 1|2 3:2 3|0 1:2 3");
    QTest::newRow("merge the blocks of group B")
        << "move" << 2 << QList<int>{2, 3} << 1 << QStringLiteral("0 1:0 1|2 3:0 1 2 3|0 1:2 3");
    QTest::newRow("one kernel across groups (coverage is the simulator's finding)")
        << "move" << 0 << QList<int>{0} << 2 << QStringLiteral("0 1:1|2 3:0 1|2 3:0 2 3|0 1:2 3");
    QTest::newRow("refused: already there") << "move" << 2 << QList<int>{3} << 3
                                            << QStringLiteral("!kernel 3 is computed by step 4 already");
    QTest::newRow("refused: not in the step")
        << "move" << 0 << QList<int>{2} << 1 << QStringLiteral("!kernel 2 is not computed by step 1");
    QTest::newRow("refused: same step") << "move" << 1 << QList<int>{0} << 1
                                        << QStringLiteral("!the kernels are in step 2 already: nothing to move");
    QTest::newRow("refused: no kernel") << "move" << 1 << QList<int>{} << 2
                                        << QStringLiteral("!no kernel selected: select the kernels to move");
    QTest::newRow("refused: twice") << "move" << 1 << QList<int>{0, 0} << 2 << QStringLiteral("!kernel 0 is listed twice");
    QTest::newRow("refused: step out of range")
        << "move" << 1 << QList<int>{0} << 7 << QStringLiteral("!step 8 does not exist: the strategy has 4 steps");
    QTest::newRow("refused: whole step next to itself")
        << "new" << 1 << QList<int>{0, 1} << 2 << QStringLiteral("!these are all the kernels of step 2: it would stay as it is");
    QTest::newRow("whole step elsewhere = reorder")
        << "new" << 1 << QList<int>{0, 1} << 4 << QStringLiteral("0 1:0 1|2 3:2 3|0 1:2 3|2 3:0 1");
}

void KernelGuiTest::kernelEdits()
{
    QFETCH(QString, op);
    QFETCH(int, from);
    QFETCH(QList<int>, kernels);
    QFETCH(int, to);
    QFETCH(QString, after);
    const ComputeSteps steps = parseSteps(kKoSteps);
    std::vector<KernelId> ks;
    for (int k : kernels)
        ks.push_back(KernelId(k));
    try {
        const ComputeSteps out = op == QLatin1String("move")
            ? moveKernels(steps, std::size_t(from), ks, std::size_t(to))
            : moveKernelsToNewStep(steps, std::size_t(from), ks, std::size_t(to));
        QCOMPARE(formatSteps(out), after);
    } catch (const StrategyError &e) {
        QCOMPARE(QStringLiteral("!") + QString::fromStdString(e.what()), after);
    }
}

void KernelGuiTest::dockShowsSteps()
{
    ProjectDocument doc;
    doc.resetToProject(projectOf(smallProblem()));
    doc.setCurrentStrategy(0);
    GroupsPanel panel(&doc);
    QAbstractItemModelTester tester(panel.stepModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QVERIFY(panel.showsSteps());
    QCOMPARE(panel.view()->model(), panel.stepModel());
    const StepKernelModel &m = *panel.stepModel();
    QCOMPARE(m.rowCount(), 4);
    QCOMPARE(m.index(0, 0).data().toString(), QStringLiteral("Step 1 — patches 0, 1 × kernels 0, 1"));
    QCOMPARE(m.index(3, 0).data().toString(), QStringLiteral("Step 4 — patches 0, 1 × kernels 2, 3"));
    QCOMPARE(m.rowCount(m.index(2, 0)), 2);
    const QModelIndex k3 = m.index(1, 0, m.index(2, 0));
    QCOMPARE(k3.data().toString(), QStringLiteral("kernel 3"));
    QCOMPARE(k3.data(StepKernelModel::KernelIdRole).toInt(), 3);
    QCOMPARE(k3.data(StepKernelModel::StepIndexRole).toInt(), 2);
    QVERIFY(m.flags(k3) & Qt::ItemIsDragEnabled);
    QVERIFY(!(m.flags(m.index(2, 0)) & Qt::ItemIsDragEnabled));
    for (QAction *a : panel.editActions())
        QVERIFY(!a->isEnabled());

    // An S1 strategy: the groups again, their actions back on.
    doc.setCurrentStrategy(1);
    QVERIFY(!panel.showsSteps());
    QCOMPARE(panel.view()->model(), panel.model());
    for (QAction *a : panel.editActions())
        QVERIFY(a->isEnabled());
}

void KernelGuiTest::dockDragMovesKernel()
{
    ProjectDocument doc;
    doc.resetToProject(projectOf(smallProblem()));
    doc.setCurrentStrategy(0);
    QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec == specAt(doc, 0));
    GroupsPanel panel(&doc);
    StepKernelModel &m = *panel.stepModel();
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const StrategySpec before = specAt(doc, 0);
    QTRY_VERIFY(panel.feedback().contains(QStringLiteral("runs correctly")));
    const std::size_t count = doc.project().strategies.size();

    // Kernel 3 of step 3 dragged between steps 3 and 4: a new step on patches 2,3.
    std::unique_ptr<QMimeData> data(m.mimeData({m.index(1, 0, m.index(2, 0))}));
    QVERIFY(data);
    QVERIFY(m.canDropMimeData(data.get(), Qt::MoveAction, 3, 0, {}));
    QVERIFY(m.dropMimeData(data.get(), Qt::MoveAction, 3, 0, {}));
    // KO is generated: it stays as it was, the edit is a new strategy after it, selected.
    QCOMPARE(doc.project().strategies.size(), count + 1);
    QCOMPARE(specAt(doc, 0), before);
    QCOMPARE(doc.currentStrategy(), 1);
    const StrategySpec edited = specAt(doc, 1);
    QCOMPARE(edited.kind, StrategyKind::Steps);
    QCOMPARE(edited.name, std::string("KO (edited)"));
    QCOMPARE(formatSteps(edited.steps), QStringLiteral("0 1:0 1|2 3:0 1|2 3:2|2 3:3|0 1:2 3"));
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(
        doc.undoStack()->undoText(), QStringLiteral("Move 1 kernel of step 3 to a new step (as the new strategy KO (edited))"));
    QCOMPARE(m.rowCount(), 5);
    QVERIFY(panel.showsSteps());
    // Live feedback: still valid (every pair computed once), and one step longer:
    // the new step costs t_acc more and loads nothing new.
    QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec == edited);
    QVERIFY(doc.simulation()->result.valid());
    QTRY_VERIFY(panel.feedback().contains(QStringLiteral("runs correctly")));

    // Undo removes the copy and selects KO again, redo brings the copy back.
    doc.undoStack()->undo();
    QCOMPARE(doc.project().strategies.size(), count);
    QCOMPARE(specAt(doc, 0), before);
    QCOMPARE(doc.currentStrategy(), 0);
    QCOMPARE(m.rowCount(), 4);
    doc.undoStack()->redo();
    QCOMPARE(specAt(doc, 1), edited);
    QCOMPARE(doc.currentStrategy(), 1);

    // Kernel 0 of step 1 onto step 3 (other patches): accepted, and the
    // simulation then flags the pairs computed twice or never. The copy is
    // hand-made now: edited in place.
    std::unique_ptr<QMimeData> across(m.mimeData({m.index(0, 0, m.index(0, 0))}));
    QVERIFY(m.dropMimeData(across.get(), Qt::MoveAction, -1, 0, m.index(2, 0)));
    QCOMPARE(doc.project().strategies.size(), count + 1);
    QCOMPARE(specAt(doc, 1).name, std::string("KO (edited)"));
    QCOMPARE(formatSteps(specAt(doc, 1).steps), QStringLiteral("0 1:1|2 3:0 1|2 3:0 2|2 3:3|0 1:2 3"));
    QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec == specAt(doc, 1));
    QVERIFY(!doc.simulation()->result.valid());
    QTRY_VERIFY(panel.feedback().contains(QStringLiteral("error")));
    QCOMPARE(doc.undoStack()->count(), 2);
}

void KernelGuiTest::dockRefusesDrops()
{
    StepsDock dock;
    ProjectDocument &doc = dock.doc;
    GroupsPanel &panel = *dock.panel;
    StepKernelModel &m = *panel.stepModel();
    QSignalSpy refused(&m, &StepKernelModel::editRefused);
    const StrategySpec before = specAt(doc, 0);

    // Kernel 3 of step 3 onto step 4, which computes kernel 3 already.
    std::unique_ptr<QMimeData> data(m.mimeData({m.index(1, 0, m.index(2, 0))}));
    QVERIFY(!m.canDropMimeData(data.get(), Qt::MoveAction, -1, 0, m.index(3, 0)));
    QVERIFY(!m.dropMimeData(data.get(), Qt::MoveAction, -1, 0, m.index(3, 0)));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.at(0).at(0).toString(), QStringLiteral("Kernel 3 is computed by step 4 already"));
    QCOMPARE(panel.lastMessage(), QStringLiteral("Kernel 3 is computed by step 4 already"));
    QCOMPARE(specAt(doc, 0), before);
    QCOMPARE(doc.undoStack()->count(), 0);

    // Kernels of two steps cannot be dragged together.
    QVERIFY(!m.mimeData({m.index(0, 0, m.index(0, 0)), m.index(0, 0, m.index(1, 0))}));
    // Patches (the group tree's payload) are not kernels.
    QMimeData patches;
    patches.setData(QStringLiteral("application/x-convoffload-patches"), QByteArray(17, '\0'));
    QVERIFY(!m.canDropMimeData(&patches, Qt::MoveAction, -1, 0, m.index(0, 0)));
    // A payload of another strategy.
    std::unique_ptr<QMimeData> other(StepKernelModel::encodeKernels({1, 0, {0}}));
    QVERIFY(!m.dropMimeData(other.get(), Qt::MoveAction, -1, 0, m.index(2, 0)));
    QCOMPARE(refused.last().at(0).toString(), QStringLiteral("These kernels come from another strategy."));
    // Malformed bytes.
    QMimeData garbage;
    garbage.setData(StepKernelModel::mimeType(), QByteArray("xyz"));
    QVERIFY(!m.canDropMimeData(&garbage, Qt::MoveAction, -1, 0, m.index(0, 0)));
    QCOMPARE(specAt(doc, 0), before);
}

// While kernels hover, the preview says what the target step would compute,
// worked out by hand on the 1×4×4 layer (9 MACs and 9 elements a kernel,
// nbop_pe 36), or why the drop is refused; it clears when the drag ends.
void KernelGuiTest::dockDropPreview()
{
    StepsDock dock;
    ProjectDocument &doc = dock.doc;
    GroupsPanel &panel = *dock.panel;
    StepKernelModel &m = *panel.stepModel();
    const StrategySpec before = specAt(doc, 0);
    std::unique_ptr<QMimeData> kernel3(m.mimeData({m.index(1, 0, m.index(2, 0))})); // kernel 3 of step 3

    // Onto step 2 (patches 2, 3; kernels 0, 1): 2 × 3 kernels = 54 MACs.
    m.previewDrop(kernel3.get(), -1, m.index(1, 0));
    const QString onStep2 = QStringLiteral("Step 2 would compute 2 patches × 3 kernels: 54 of 36 MACs, 3 kernels (27 "
                                           "elements) on chip — over the op limit; step 3 keeps 1 kernel");
    QCOMPARE(m.dropPreview(), onStep2);
    QCOMPARE(panel.dropPreviewText(), onStep2);
    // Between steps 3 and 4: a new step on step 3's patches with kernel 3 alone.
    m.previewDrop(kernel3.get(), 3, {});
    QCOMPARE(m.dropPreview(),
        QStringLiteral("A new step at position 4 would compute 2 patches × 1 kernel: 18 of 36 MACs, 1 "
                       "kernel (9 elements) on chip; step 3 keeps 1 kernel"));
    // Both kernels of step 3 onto step 1: step 3 would go.
    std::unique_ptr<QMimeData> both(m.mimeData({m.index(0, 0, m.index(2, 0)), m.index(1, 0, m.index(2, 0))}));
    m.previewDrop(both.get(), -1, m.index(0, 0));
    QVERIFY(m.dropPreview().endsWith(QStringLiteral("; step 3 would be removed")));
    QVERIFY(m.dropPreview().startsWith(QStringLiteral("Step 1 would compute 2 patches × 4 kernels: 72 of 36 MACs")));
    // Refused: step 4 computes kernel 3 already; the reason is the drop's.
    m.previewDrop(kernel3.get(), -1, m.index(3, 0));
    QCOMPARE(m.dropPreview(), QStringLiteral("✗ Kernel 3 is computed by step 4 already"));
    // The drag leaves: nothing shown, nothing changed.
    m.clearDropPreview();
    QCOMPARE(m.dropPreview(), QString());
    QCOMPARE(panel.dropPreviewText(), QString());
    QCOMPARE(specAt(doc, 0), before);
    QCOMPARE(doc.undoStack()->count(), 0);
}

// The steps view's actions move the selected kernels as drops would, one
// undo step each, and say why when they cannot; the group actions are hidden.
void KernelGuiTest::dockKeyboardActions()
{
    StepsDock dock;
    ProjectDocument &doc = dock.doc;
    GroupsPanel &panel = *dock.panel;
    StepKernelModel &m = *panel.stepModel();
    QCOMPARE(panel.stepActions().size(), 3);
    QAction *previous = panel.stepActions()[0], *next = panel.stepActions()[1], *newStep = panel.stepActions()[2];
    for (QAction *a : panel.stepActions())
        QVERIFY(a->isEnabled() && a->isVisible());
    for (QAction *a : panel.editActions())
        QVERIFY(!a->isVisible());
    QCOMPARE(previous->shortcut(), QKeySequence(QStringLiteral("Alt+Up")));
    QVERIFY(panel.view()->actions().contains(newStep)); // in the context menu
    const auto select = [&](const QModelIndexList &rows) {
        panel.view()->selectionModel()->clearSelection();
        for (const QModelIndex &i : rows)
            panel.view()->selectionModel()->select(i, QItemSelectionModel::Select);
    };

    // KO is generated: every move makes the edited copy "KO (edited)" after it
    // (index 1), which undo removes again.
    // Kernel 3 of step 3 into step 2 (it joins step 2's kernels).
    select({m.index(1, 0, m.index(2, 0))});
    previous->trigger();
    QCOMPARE(formatSteps(specAt(doc, 1).steps), QStringLiteral("0 1:0 1|2 3:0 1 3|2 3:2|0 1:2 3"));
    QCOMPARE(
        doc.undoStack()->undoText(), QStringLiteral("Move 1 kernel from step 3 to step 2 (as the new strategy KO (edited))"));
    doc.undoStack()->undo();
    // Kernel 0 of step 2 into step 3 (joined in id order).
    select({m.index(0, 0, m.index(1, 0))});
    next->trigger();
    QCOMPARE(formatSteps(specAt(doc, 1).steps), QStringLiteral("0 1:0 1|2 3:1|2 3:0 2 3|0 1:2 3"));
    doc.undoStack()->undo();
    // Kernel 3 of step 3 to a new step right after it: the block split.
    select({m.index(1, 0, m.index(2, 0))});
    newStep->trigger();
    QCOMPARE(formatSteps(specAt(doc, 1).steps), QStringLiteral("0 1:0 1|2 3:0 1|2 3:2|2 3:3|0 1:2 3"));
    // The tree was rebuilt for the edited copy: the new step (4) is current
    // and open, not wherever the reset left the view.
    QCOMPARE(panel.view()->currentIndex(), m.index(3, 0));
    QVERIFY(panel.view()->isExpanded(m.index(3, 0)));
    QCOMPARE(doc.undoStack()->count(), 1); // the earlier moves were undone, so this push dropped them
    doc.undoStack()->undo();

    // Refusals, nothing changed.
    const StrategySpec before = specAt(doc, 0);
    select({m.index(0, 0, m.index(0, 0))});
    previous->trigger();
    QCOMPARE(panel.lastMessage(), QStringLiteral("Step 1 is the first step: there is no step before it."));
    select({m.index(1, 0, m.index(2, 0))});
    next->trigger(); // step 4 computes kernel 3 already: the core's reason
    QCOMPARE(panel.lastMessage(), QStringLiteral("Kernel 3 is computed by step 4 already"));
    select({m.index(0, 0, m.index(0, 0)), m.index(0, 0, m.index(1, 0))});
    newStep->trigger();
    QCOMPARE(panel.lastMessage(), QStringLiteral("Select kernels of one step: kernels of two steps cannot move at once."));
    select({m.index(1, 0)});
    next->trigger();
    QCOMPARE(panel.lastMessage(), QStringLiteral("Select the kernels to move (the rows under a step)."));
    QCOMPARE(specAt(doc, 0), before);

    // An S1 strategy: the group actions are back and the step actions gone.
    doc.setCurrentStrategy(1);
    for (QAction *a : panel.stepActions())
        QVERIFY(!a->isEnabled() && !a->isVisible());
    for (QAction *a : panel.editActions())
        QVERIFY(a->isVisible());
}

QTEST_MAIN(KernelGuiTest)

// A layer whose kernels do not fit (one patch with its 4 kernels is 36 MACs,
// nbop_pe 18) has no S1 strategy: the group-size sweep of Row-by-Row and
// ZigZag would plot only invalid points, so there is none, and the Sweep
// tab says why instead.
void KernelGuiTest::sweepSaysWhyThereIsNone()
{
    Problem p = smallProblem();
    p.hardware.nbop_pe = 18;
    ProjectDocument doc;
    QSignalSpy compared(&doc, &ProjectDocument::comparisonChanged);
    doc.resetToProject(projectOf(p));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.busy(), 20000);
    QVERIFY(doc.sweep().empty());
    QVERIFY2(doc.sweepUnavailable().contains(QStringLiteral("keep all 4 kernels on chip")), qPrintable(doc.sweepUnavailable()));
    ChartsPanel panel;
    panel.setSweep(doc.sweep(), doc.sweepUnavailable());
    const QString title = panel.chart(ChartsPanel::SweepTab)->title();
    QVERIFY2(title.startsWith(QStringLiteral("No group-size sweep for this layer")), qPrintable(title));
    // Nor is there one to export.
    FigureSource source(projectOf(p), "");
    FigureRequest request;
    request.kind = FigureKind::Sweep;
    try {
        makeFigure(source, request);
        QFAIL("a sweep figure of invalid strategies");
    } catch (const FigureError &e) {
        QVERIFY2(std::string(e.what()).find("keep all 4 kernels on chip") != std::string::npos, e.what());
    }

    // Kernels that fit: a sweep, and nothing to explain.
    doc.resetToProject(projectOf(smallProblem()));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.busy() && !doc.sweep().empty(), 20000);
    QVERIFY(doc.sweepUnavailable().isEmpty());
}

#include "tst_kernelgui.moc"
