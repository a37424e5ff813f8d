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
#include "export/Figures.h"
#include "grid/GridView.h"
#include "render/GridRenderer.h"
#include "render/KernelStrip.h"
#include "render/Palette.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/Comparison.h"
#include "convoffload/simulate/StepCursor.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QTest>

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
        result = runStrategy(problem, spec, o);
        cursor = std::make_unique<StepCursor>(problem, result);
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
    void durationSplit_data();
    void durationSplit();
    void kernelBandMoves();
    void figuresShowTheStrip();
    void gridViewShowsTheStrip();
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
    // 8 kernels in a strip with room for 3 cells of kMinCellWidth: 3 kernels
    // a cell, cells {0,1,2} {3,4,5} {6,7}.
    QCOMPARE(KernelStrip::kernelsPerCell(8, 3), 3);
    QCOMPARE(KernelStrip::kernelsPerCell(8, 8), 1);
    QCOMPARE(KernelStrip::kernelsPerCell(256, 64), 4);
    QCOMPARE(KernelStrip::kernelsPerCell(5, 0), 5);
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

QTEST_MAIN(KernelGuiTest)
#include "tst_kernelgui.moc"
