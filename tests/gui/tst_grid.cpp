// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The input and output grids: zoom/pan arithmetic, cell geometry, the headless
// renderer on the paper's Example (colours checked against the states the core
// gives, and those states against the Example worked out by hand), and the
// GridView widget offscreen (painting, tooltips, zoom, pan, clicks).
#include "TestImages.h"
#include "render/GridLegend.h"
#include "render/GridRenderer.h"
#include "render/StepName.h"
#include "render/Palette.h"
#include "grid/GridView.h"
#include "grid/LegendCache.h"
#include "grid/ViewTransform.h"

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StepCursor.h"

#include <QApplication>
#include <QHelpEvent>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QPicture>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <memory>
#include <set>

using namespace convoffload;
using namespace convoffload::ui;

Q_DECLARE_METATYPE(convoffload::PixelState)
Q_DECLARE_METATYPE(convoffload::OutputState)

namespace {

// The paper's Example: C_in 2, 5×5 input, two 3×3 kernels, stride 1,
// nbop_pe 72 (G = 2), zigzag groups {0,1} {2,5} {4,3} {6,7} {8} + the drain.
struct Example {
    Problem problem;
    SimulationResult result;
    std::unique_ptr<StepCursor> cursor;

    explicit Example(Moment at = {1, Action::Compute})
    {
        problem.layer = Layer{2, 5, 5, 3, 3, 2, 1, 1, 0, 0, 0, 0};
        problem.hardware.nbop_pe = 72;
        problem.hardware.mem_size = 200;
        SimulationOptions options;
        options.trace = true;
        options.functional = false;
        result = simulate(problem, expandS1(problem, zigzag(problem.layer, 2)), options);
        cursor = std::make_unique<StepCursor>(problem, result);
        cursor->seek(at);
    }
};

constexpr QRectF kTarget(0, 0, 600, 600);

/// Input 1×2×width, one 2×3 kernel (patch j reads columns j..j+2), room for
/// everything, reload bound 1.
Problem reloadStrip(int width)
{
    Problem problem;
    problem.layer = Layer{1, 2, width, 2, 3, 1, 1, 1, 0, 0, 0, 0};
    problem.hardware.nbop_pe = 1000;
    problem.hardware.mem_size = 1000;
    problem.hardware.max_loads_per_element = 1;
    return problem;
}

QImage blankImage(const QSize &size = QSize(600, 600), QColor fill = Qt::white)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(fill);
    return image;
}

GridFigureLayout figureLayout(GridKind kind, QImage &image, const QRectF &target, const Example &ex, const GridStyle &style)
{
    QPainter p(&image);
    const QFont font = GridRenderer::figureFont(p.font(), target);
    return GridRenderer::layout(kind, QFontMetricsF(font, &image), target, ex.problem, *ex.cursor, style);
}

QRgb colourAt(const QImage &image, const GridGeometry &g, int row, int col)
{
    return image.pixel(g.cellRect(row, col).center().toPoint()) | 0xFF000000u;
}

} // namespace

class TestGrid : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The reload mark is a triangle of half the cell's side: an eighth of the
    // cell (side²/2 of side² · 4), whatever the cell's size, so the cell's
    // state colour still shows. A floor of 3 units made it 37 % of a 3.5-unit
    // cell (4.5 / 12.25): a paper column's 28×28 output grid, every patch
    // breaking the bound, printed black.
    void reloadMarksLeaveTheCellsColour_data()
    {
        QTest::addColumn<double>("cell"); // units
        QTest::addColumn<double>("scale"); // device pixels a unit: 300 dpi over 96
        QTest::newRow("paper column, 300 dpi") << 3.5 << 300.0 / 96.0;
        QTest::newRow("paper column, 96 dpi") << 3.5 << 1.0;
        QTest::newRow("screen") << 12.0 << 1.0;
    }
    void reloadMarksLeaveTheCellsColour()
    {
        QFETCH(double, cell);
        QFETCH(double, scale);
        const Layer layer{1, 30, 30, 3, 3, 1, 1, 1, 0, 0, 0, 0}; // 28×28 outputs
        std::vector<PatchId> all(std::size_t(layer.patchCount()));
        for (std::size_t p = 0; p < all.size(); ++p)
            all[p] = PatchId(p);
        const GridGeometry geometry{28, 28, QPointF(0, 0), cell};
        const QSize pixels = (QSizeF(28 * cell, 28 * cell) * scale).toSize();
        for (const bool vector : {false, true}) { // stamped (raster) and one polygon a cell (as in a PDF)
            QImage image(pixels, QImage::Format_RGB32);
            image.fill(Qt::white);
            if (vector) {
                QPicture picture; // a recorded drawing takes the vector path
                QPainter recorder(&picture);
                GridRenderer::paintAssumptionMarks(recorder, geometry, layer, all, geometry.allCells());
                recorder.end();
                QPainter painter(&image);
                painter.scale(scale, scale);
                picture.play(&painter);
            } else {
                QPainter painter(&image);
                painter.scale(scale, scale);
                GridRenderer::paintAssumptionMarks(painter, geometry, layer, all, geometry.allCells());
            }
            double ink = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    ink += 1.0 - qGray(image.pixel(x, y)) / 255.0;
            const double share = ink / (double(image.width()) * image.height());
            // An eighth, less the white edge big marks get, plus antialiasing.
            QVERIFY2(share > 0.05 && share < 0.17,
                qPrintable(QStringLiteral("%1: %2 % of the grid inked, an eighth expected")
                               .arg(vector ? QStringLiteral("vector") : QStringLiteral("raster"))
                               .arg(100 * share, 0, 'f', 1)));
        }
    }

    // A patch that breaks the reload assumption is marked once it is
    // computed, not while it is pending. reloadStrip(6), reload bound 1,
    // groups {0} {2} {1} {3}: {2} keeps column 2 of {0}; {1} loads column 1
    // again and {3} column 4, so patches 1 and 3 break the bound, each from
    // the step that computes it (steps 2 and 3).
    void reloadMarksWaitForTheirPatch_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("action");
        QTest::addColumn<QList<int>>("marked");
        QTest::newRow("step 1") << 0 << int(Action::Compute) << QList<int>{};
        QTest::newRow("step 3, loaded, not computed") << 2 << int(Action::LoadInput) << QList<int>{};
        QTest::newRow("step 3, computed") << 2 << int(Action::Compute) << QList<int>{1};
        QTest::newRow("step 4") << 3 << int(Action::Compute) << QList<int>{1, 3};
        QTest::newRow("drain") << 4 << int(Action::Compute) << QList<int>{1, 3};
    }
    void reloadMarksWaitForTheirPatch()
    {
        QFETCH(int, step);
        QFETCH(int, action);
        QFETCH(QList<int>, marked);
        const Problem problem = reloadStrip(6);
        SimulationOptions options;
        options.trace = true;
        options.functional = false;
        const SimulationResult result = simulate(problem, expandS1(problem, Groups{{0}, {2}, {1}, {3}}), options);
        QCOMPARE(result.reload.patches, (std::vector<PatchId>{1, 3}));
        StepCursor cursor(problem, result);
        cursor.seek({step, Action(action)});
        const std::vector<PatchId> shown = GridRenderer::assumptionPatchesAt(cursor, problem.layer, QRect(0, 0, 4, 1));
        QCOMPARE(QList<int>(shown.begin(), shown.end()), marked);
    }

    // --- ViewTransform ---------------------------------------------------------

    void zoomAboutKeepsPointFixed_data()
    {
        QTest::addColumn<QPointF>("point");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("expectedZoom");
        QTest::newRow("in at origin") << QPointF(0, 0) << 2.0 << 2.0;
        QTest::newRow("in off centre") << QPointF(123.5, 47.25) << 1.25 << 1.25;
        QTest::newRow("out") << QPointF(300, 10) << 0.5 << 0.5;
        QTest::newRow("clamped in") << QPointF(40, 400) << 1000.0 << 64.0;
        QTest::newRow("clamped out") << QPointF(-20, 5) << 0.001 << 0.25;
    }
    void zoomAboutKeepsPointFixed()
    {
        QFETCH(QPointF, point);
        QFETCH(double, factor);
        QFETCH(double, expectedZoom);
        ViewTransform t;
        t.baseScale = 7.5;
        t.offset = QPointF(30, -12);
        const QPointF before = t.toScene(point);
        t.zoomAbout(point, factor);
        QCOMPARE(t.zoom, expectedZoom);
        QVERIFY(qFuzzyCompare(t.scale(), 7.5 * expectedZoom));
        const QPointF after = t.toScene(point);
        QVERIFY2(std::abs(after.x() - before.x()) < 1e-9 && std::abs(after.y() - before.y()) < 1e-9,
            "the scene point under the mouse moved");
        const QPointF back = t.toWidget(before);
        QVERIFY(std::abs(back.x() - point.x()) < 1e-9 && std::abs(back.y() - point.y()) < 1e-9);
    }

    void zoomClamps()
    {
        QCOMPARE(ViewTransform::clampZoom(0.1), 0.25);
        QCOMPARE(ViewTransform::clampZoom(100.0), 64.0);
        QCOMPARE(ViewTransform::clampZoom(3.0), 3.0);
        QCOMPARE(ViewTransform::clampZoom(std::nan("")), 1.0);
        ViewTransform t;
        for (int i = 0; i < 100; ++i)
            t.zoomAbout(QPointF(10, 10), 1.25);
        QCOMPARE(t.zoom, ViewTransform::kMaxZoom);
        for (int i = 0; i < 100; ++i)
            t.zoomAbout(QPointF(10, 10), 0.8);
        QCOMPARE(t.zoom, ViewTransform::kMinZoom);
    }

    void fitCentresTheScene_data()
    {
        QTest::addColumn<QSizeF>("scene");
        QTest::addColumn<QRectF>("viewport");
        QTest::addColumn<double>("scale");
        QTest::addColumn<QPointF>("topLeft");
        QTest::newRow("square in wide") << QSizeF(5, 5) << QRectF(10, 20, 200, 100) << 20.0 << QPointF(60, 20);
        QTest::newRow("wide in square") << QSizeF(8, 2) << QRectF(0, 0, 400, 400) << 50.0 << QPointF(0, 150);
        QTest::newRow("224 in 1000") << QSizeF(224, 224) << QRectF(0, 0, 1000, 1000) << 1000.0 / 224 << QPointF(0, 0);
        QTest::newRow("empty scene") << QSizeF(0, 0) << QRectF(0, 0, 100, 50) << 1.0 << QPointF(50, 25);
    }
    void fitCentresTheScene()
    {
        QFETCH(QSizeF, scene);
        QFETCH(QRectF, viewport);
        QFETCH(double, scale);
        QFETCH(QPointF, topLeft);
        ViewTransform t;
        t.zoom = 3; // fit resets the user zoom
        t.fit(scene, viewport);
        QCOMPARE(t.zoom, 1.0);
        QVERIFY(qFuzzyCompare(t.scale(), scale));
        QVERIFY(std::abs(t.toWidget(QPointF(0, 0)).x() - topLeft.x()) < 1e-9);
        QVERIFY(std::abs(t.toWidget(QPointF(0, 0)).y() - topLeft.y()) < 1e-9);
        const QRectF shown = t.toWidget(QRectF(QPointF(0, 0), scene));
        QVERIFY(shown.width() <= viewport.width() + 1e-9 || scene.isEmpty());
        QVERIFY(shown.height() <= viewport.height() + 1e-9 || scene.isEmpty());
        QVERIFY(std::abs(shown.center().x() - viewport.center().x()) < 1e-9);
        QVERIFY(std::abs(shown.center().y() - viewport.center().y()) < 1e-9);
    }

    void roundTrip()
    {
        ViewTransform t;
        t.baseScale = 3.3;
        t.zoom = 5.5;
        t.offset = QPointF(-1234.5, 77.125);
        for (const QPointF p : {QPointF(0, 0), QPointF(17.25, 400), QPointF(-5, -9e3), QPointF(1e4, 3)}) {
            const QPointF q = t.toWidget(t.toScene(p));
            QVERIFY(std::abs(q.x() - p.x()) < 1e-6 && std::abs(q.y() - p.y()) < 1e-6);
        }
        const QRectF r(3, 4, 10, 20);
        const QRectF back = t.toScene(t.toWidget(r));
        QVERIFY(std::abs(back.x() - r.x()) < 1e-9 && std::abs(back.width() - r.width()) < 1e-9);
        t.pan(QPointF(10, -4));
        QCOMPARE(t.offset, QPointF(-1224.5, 73.125));
    }

    void refitKeepsCentreAndConstrainKeepsSceneVisible()
    {
        ViewTransform t;
        t.fit(QSizeF(10, 10), QRectF(0, 0, 100, 100));
        t.zoomAbout(QPointF(20, 30), 4);
        const QPointF centre = t.toScene(QPointF(50, 50));
        t.refit(QSizeF(10, 10), QRectF(0, 0, 100, 100), QRectF(0, 0, 300, 200));
        QCOMPARE(t.zoom, 4.0);
        QVERIFY(qFuzzyCompare(t.baseScale, 20.0));
        const QPointF now = t.toScene(QPointF(150, 100));
        QVERIFY(std::abs(now.x() - centre.x()) < 1e-9 && std::abs(now.y() - centre.y()) < 1e-9);

        t = ViewTransform{};
        t.fit(QSizeF(10, 10), QRectF(0, 0, 100, 100)); // 10 px per cell
        t.pan(QPointF(5000, -5000)); // far off to the top right
        t.constrain(QSizeF(10, 10), QRectF(0, 0, 100, 100), 32);
        const QRectF shown = t.toWidget(QRectF(0, 0, 10, 10));
        QCOMPARE(shown.left(), 100.0 - 32);
        QCOMPARE(shown.bottom(), 32.0);
        const ViewTransform inside = t;
        t.constrain(QSizeF(10, 10), QRectF(0, 0, 100, 100), 32); // already fine: unchanged
        QCOMPARE(t, inside);
    }

    // --- GridGeometry ----------------------------------------------------------

    void gridGeometry_data()
    {
        QTest::addColumn<QPointF>("point");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col"); // -1: outside
        QTest::newRow("first cell") << QPointF(10.1, 20.1) << 0 << 0;
        QTest::newRow("top-left corner is in") << QPointF(10, 20) << 0 << 0;
        QTest::newRow("middle") << QPointF(10 + 2.5 * 8, 20 + 1.5 * 8) << 1 << 2;
        QTest::newRow("last cell") << QPointF(10 + 5 * 8 - 0.01, 20 + 3 * 8 - 0.01) << 2 << 4;
        QTest::newRow("right edge is out") << QPointF(10 + 5 * 8, 21) << -1 << -1;
        QTest::newRow("left of grid") << QPointF(9.99, 25) << -1 << -1;
        QTest::newRow("below grid") << QPointF(15, 20 + 3 * 8 + 1) << -1 << -1;
    }
    void gridGeometry()
    {
        QFETCH(QPointF, point);
        QFETCH(int, row);
        QFETCH(int, col);
        const GridGeometry g{3, 5, QPointF(10, 20), 8};
        const auto cell = g.cellAt(point);
        if (row < 0) {
            QVERIFY(!cell);
            return;
        }
        QVERIFY(cell);
        QCOMPARE(cell->row, row);
        QCOMPARE(cell->col, col);
        QVERIFY(g.cellRect(row, col).contains(point));
        QCOMPARE(g.cellAt(g.cellRect(row, col).center()), cell);
    }

    void gridGeometryRanges()
    {
        const GridGeometry g{3, 5, QPointF(10, 20), 8};
        QCOMPARE(g.bounds(), QRectF(10, 20, 40, 24));
        QCOMPARE(g.cellRect(2, 4), QRectF(42, 36, 8, 8));
        QCOMPARE(g.cellsIn(QRectF(0, 0, 1000, 1000)), QRect(0, 0, 5, 3));
        QCOMPARE(g.cellsIn(QRectF(19, 29, 2, 1)), QRect(1, 1, 1, 1)); // inside cell (1,1)
        QCOMPARE(g.cellsIn(QRectF(17, 27, 2, 2)), QRect(0, 0, 2, 2)); // straddles four cells
        QCOMPARE(g.cellsIn(QRectF(26, 20, 8, 8)), QRect(2, 0, 1, 1)); // exactly cell (0,2)
        QVERIFY(g.cellsIn(QRectF(100, 100, 5, 5)).isEmpty());
        QVERIFY(g.cellsIn(QRectF()).isEmpty());
        QCOMPARE(g.cellsOfUnits(QRectF(-3, 1.5, 100, 0.2)), QRect(0, 1, 5, 1));
        QCOMPARE(g.cellsOfUnits(QRectF(-1e12, -1e12, 2e12, 2e12)), QRect(0, 0, 5, 3));
        QCOMPARE(g.rectOf(QRect(1, 1, 2, 2)), QRectF(18, 28, 16, 16));
        const GridGeometry fitted = GridGeometry::fit(3, 5, QRectF(0, 0, 100, 100));
        QCOMPARE(fitted.cellSize, 20.0);
        QCOMPARE(fitted.origin, QPointF(0, 20));
    }

    // --- renderer on the paper's Example -----------------------------------------

    void paperExampleInput_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<PixelState>("state");
        // Zigzag step 2 computes patches 2 and 5 (rows 0–3, cols 2–4): it frees
        // what patches 0,1 used outside them and loads its new pixels.
        for (auto [r, c] : {std::pair{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}})
            QTest::addRow("freed (%d,%d)", r, c) << r << c << PixelState::Freed;
        for (auto [r, c] : {std::pair{0, 4}, {1, 4}, {2, 4}, {3, 4}, {3, 3}, {3, 2}})
            QTest::addRow("loaded (%d,%d)", r, c) << r << c << PixelState::Loaded;
        for (auto [r, c] : {std::pair{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 2}, {2, 3}})
            QTest::addRow("kept (%d,%d)", r, c) << r << c << PixelState::Kept;
        for (auto [r, c] : {std::pair{3, 0}, {3, 1}, {4, 0}, {4, 2}, {4, 4}})
            QTest::addRow("off (%d,%d)", r, c) << r << c << PixelState::Off;
    }
    void paperExampleInput()
    {
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(PixelState, state);
        const Example ex;
        QCOMPARE(ex.cursor->pixel(pixelId(ex.problem.layer, row, col)), state); // the core agrees with the paper
        QImage image = blankImage();
        const GridStyle style;
        {
            QPainter p(&image);
            GridRenderer().paintInputGrid(p, kTarget, ex.problem, *ex.cursor, style);
        }
        const GridFigureLayout lay = figureLayout(GridKind::Input, image, kTarget, ex, style);
        QCOMPARE(lay.geometry.rows, 5);
        QCOMPARE(lay.geometry.cols, 5);
        QVERIFY(lay.geometry.cellSize >= 40);
        QVERIFY(kTarget.contains(lay.geometry.bounds()));
        QVERIFY(!lay.legend.intersects(lay.geometry.bounds()));
        QVERIFY(!lay.title.intersects(lay.geometry.bounds()));
        QCOMPARE(colourAt(image, lay.geometry, row, col), Palette::pixel(state).rgb());
    }

    void paperExampleOutput_data()
    {
        QTest::addColumn<int>("patch");
        QTest::addColumn<OutputState>("state");
        const OutputState expected[9] = {OutputState::Written, OutputState::Written, OutputState::Computed, OutputState::Pending,
            OutputState::Pending, OutputState::Computed, OutputState::Pending, OutputState::Pending, OutputState::Pending};
        for (int p = 0; p < 9; ++p)
            QTest::addRow("patch %d", p) << p << expected[p];
    }
    void paperExampleOutput()
    {
        QFETCH(int, patch);
        QFETCH(OutputState, state);
        const Example ex;
        QCOMPARE(ex.cursor->patch(PatchId(patch)), state);
        QImage image = blankImage();
        const GridStyle style;
        {
            QPainter p(&image);
            GridRenderer().paintOutputGrid(p, kTarget, ex.problem, *ex.cursor, style);
        }
        const GridFigureLayout lay = figureLayout(GridKind::Output, image, kTarget, ex, style);
        QCOMPARE(lay.geometry.rows, 3);
        QCOMPARE(lay.geometry.cols, 3);
        const Grid g = patchPosition(ex.problem.layer, PatchId(patch));
        QCOMPARE(colourAt(image, lay.geometry, g.row, g.col), Palette::output(state).rgb());
    }

    // Action-level sub-steps: the same pixel through the six actions of step 2.
    void subStepsOneAtATime()
    {
        Example ex({1, Action::FreeInput});
        const PixelId freed = pixelId(ex.problem.layer, 0, 0), loaded = pixelId(ex.problem.layer, 0, 4);
        const GridStyle style;
        QImage image = blankImage();
        const GridFigureLayout lay = figureLayout(GridKind::Input, image, kTarget, ex, style);
        GridRenderer renderer;
        const std::pair<Action, std::pair<PixelState, PixelState>> expected[] = {
            {Action::FreeInput, {PixelState::Freed, PixelState::Off}},
            {Action::Write, {PixelState::Freed, PixelState::Off}},
            {Action::LoadInput, {PixelState::Freed, PixelState::Loaded}},
            {Action::Compute, {PixelState::Freed, PixelState::Loaded}},
        };
        for (const auto &[action, states] : expected) {
            ex.cursor->seek({1, action});
            QCOMPARE(ex.cursor->pixel(freed), states.first);
            QCOMPARE(ex.cursor->pixel(loaded), states.second);
            image.fill(Qt::white);
            QPainter p(&image);
            renderer.paintInputGrid(p, kTarget, ex.problem, *ex.cursor, style);
            p.end();
            QCOMPARE(colourAt(image, lay.geometry, 0, 0), Palette::pixel(states.first).rgb());
            QCOMPARE(colourAt(image, lay.geometry, 0, 4), Palette::pixel(states.second).rgb());
        }
        QCOMPARE(GridRenderer::inputTitle(ex.problem, *ex.cursor), QStringLiteral("Input 2×5×5 — step 2 of 5, a6 compute"));
        // Shorter forms for a narrow grid: the sizes go first, then the action.
        QCOMPARE(GridRenderer::titleChoices(GridKind::Input, ex.problem, *ex.cursor),
            QStringList(
                {QStringLiteral("Input 2×5×5 — step 2 of 5, a6 compute"), QStringLiteral("Input — step 2 of 5, a6 compute"),
                    QStringLiteral("Input — step 2 of 5"), QStringLiteral("step 2 of 5")}));
        ex.cursor->seek({1, Action::LoadInput});
        QCOMPARE(GridRenderer::momentText(*ex.cursor), QStringLiteral("step 2 of 5, a4 load input"));
        ex.cursor->seek({5, Action::Write});
        // The paper's five compute steps, then the drain, which computes nothing.
        QCOMPARE(GridRenderer::momentText(*ex.cursor), QStringLiteral("drain (after step 5)"));
        QCOMPARE(stepName(-1, 6, true), QStringLiteral("before step 1 of 5"));
        QCOMPARE(stepName(4, 6, true), QStringLiteral("step 5 of 5"));
        QCOMPARE(stepName(5, 6, false), QStringLiteral("step 6 of 6")); // no drain: every step computes
    }

    // A legend entry wider than the legend ("filled: share of the N outputs
    // computed" in an output grid a narrow dock wide) wraps onto more lines:
    // nothing is drawn past the legend's right edge, and the legend is taller
    // than at a width where every entry fits on its own.
    void legendWrapsLongEntries()
    {
        const std::vector<LegendRow> rows = GridRenderer::outputLegend(GridStyle{}, {}, true);
        QImage image(400, 300, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        QFont font = p.font();
        font.setPixelSize(13);
        p.setFont(font);
        const QFontMetricsF fm(font, &image);
        const double entry = fm.horizontalAdvance(QStringLiteral("filled: share of the N outputs computed"));
        const double narrow = std::floor(entry * 0.6); // narrower than the entry's text alone
        const double wide = entry + 100;
        QVERIFY(GridLegend::height(fm, narrow, rows) > GridLegend::height(fm, wide, rows) + 0.5 * fm.height());
        const QRectF rect(0, 0, narrow, GridLegend::height(fm, narrow, rows));
        GridLegend::paint(p, rect, rows);
        p.end();
        for (int y = 0; y < image.height(); ++y)
            for (int x = int(std::ceil(narrow)) + 1; x < image.width(); ++x)
                QVERIFY2(image.pixelColor(x, y) == Qt::white, qPrintable(QStringLiteral("ink at %1,%2").arg(x).arg(y)));
    }

    // Zigzag step 3 reloads rows 1–2 of columns 0–1, freed at step 2.
    void heatMap()
    {
        const Example ex({2, Action::Compute});
        const Layer &l = ex.problem.layer;
        QCOMPARE(ex.cursor->maxLoadsSoFar(), 2u);
        QCOMPARE(ex.cursor->loadsSoFar(pixelId(l, 1, 0)), 2u);
        QCOMPARE(ex.cursor->loadsSoFar(pixelId(l, 3, 0)), 1u);
        QCOMPARE(ex.cursor->loadsSoFar(pixelId(l, 4, 4)), 0u);
        GridStyle style;
        style.heatMap = true;
        QImage image = blankImage();
        {
            QPainter p(&image);
            GridRenderer().paintInputGrid(p, kTarget, ex.problem, *ex.cursor, style);
        }
        const GridGeometry g = figureLayout(GridKind::Input, image, kTarget, ex, style).geometry;
        // The count is written in the centre: sample a quarter of the way in.
        auto heatAt = [&](int r, int c) {
            const QRectF cell = g.cellRect(r, c);
            return image.pixel((cell.topLeft() + QPointF(cell.width() / 4, cell.height() / 4)).toPoint()) | 0xFF000000u;
        };
        QCOMPARE(heatAt(1, 0), Palette::heat(1.0).rgb());
        QCOMPARE(heatAt(3, 0), Palette::heat(0.5).rgb());
        QCOMPARE(heatAt(4, 4), Palette::heat(0.0).rgb());
        const auto legend = GridRenderer::inputLegend(ex.problem, *ex.cursor, style);
        QCOMPARE(legend.size(), std::size_t(1));
        QCOMPARE(legend[0].items.size(), std::size_t(1 + 3 + 1)); // caption, counts 0–2, group outline
    }

    void groupOutlineAndPadding()
    {
        Example ex;
        // Pad the Example by one on each side: a 7×7 padded input, 5×5 outputs.
        ex.problem.layer = Layer{2, 5, 5, 3, 3, 2, 1, 1, 1, 1, 1, 1};
        SimulationOptions options;
        options.functional = false;
        ex.result = simulate(ex.problem, expandS1(ex.problem, zigzag(ex.problem.layer, 2)), options);
        ex.cursor = std::make_unique<StepCursor>(ex.problem, ex.result);
        ex.cursor->seek({0, Action::Compute}); // patches 0 and 1: padded rows 0–2, cols 0–3
        const GridStyle style;
        QImage image = blankImage();
        {
            QPainter p(&image);
            GridRenderer().paintInputGrid(p, kTarget, ex.problem, *ex.cursor, style);
        }
        const GridGeometry g = figureLayout(GridKind::Input, image, kTarget, ex, style).geometry;
        QCOMPARE(g.rows, 7);
        // The outline: dark pixels on the group's right edge (col 4 boundary), none inside.
        const double xEdge = g.origin.x() + 4 * g.cellSize;
        const double yMid = g.cellRect(1, 3).center().y();
        QCOMPARE(qGray(image.pixel(QPointF(xEdge, yMid).toPoint())), 0);
        QCOMPARE(qGray(image.pixel(QPointF(xEdge, g.cellRect(5, 3).center().y()).toPoint())) > 100, true);
        // Padding is hatched: its cells hold darker pixels than their state colour.
        const QRectF pad = g.cellRect(6, 6);
        int dark = 0;
        for (int y = int(pad.top()) + 2; y < int(pad.bottom()) - 2; ++y)
            for (int x = int(pad.left()) + 2; x < int(pad.right()) - 2; ++x)
                dark += qGray(image.pixel(x, y)) < qGray(Palette::pixel(PixelState::Off).rgb()) - 30;
        QVERIFY2(dark > 10, "padding cell not hatched");
        const auto legend = GridRenderer::inputLegend(ex.problem, *ex.cursor, style);
        QVERIFY(std::any_of(legend[0].items.begin(), legend[0].items.end(),
            [](const LegendItem &i) { return i.kind == LegendItem::Kind::Hatch; }));
    }

    // exposedCells paints those cells and nothing else.
    void partialRepaint()
    {
        const Example ex;
        const GridStyle style;
        QImage full = blankImage();
        {
            QPainter p(&full);
            GridRenderer().paintInputGrid(p, kTarget, ex.problem, *ex.cursor, style);
        }
        const QColor marker(255, 0, 255);
        QImage part = blankImage(QSize(600, 600), marker);
        {
            QPainter p(&part);
            GridRenderer().paintInputGrid(p, kTarget, ex.problem, *ex.cursor, style, QRectF(1.5, 0.2, 2, 1));
        }
        const GridGeometry g = figureLayout(GridKind::Input, part, kTarget, ex, style).geometry;
        for (int r = 0; r < 5; ++r)
            for (int c = 0; c < 5; ++c) {
                const bool exposed = r <= 1 && c >= 1 && c <= 3; // cols 1.5–3.5, rows 0.2–1.2
                const QRgb got = colourAt(part, g, r, c);
                if (exposed)
                    QCOMPARE(got, colourAt(full, g, r, c));
                else
                    QCOMPARE(got, marker.rgb());
            }
        QCOMPARE(part.pixel(2, 2), marker.rgb()); // no background, title or legend either
    }

    // Vector devices take the run-of-rectangles path: same colours.
    // Every patch that breaks the reload assumption is marked, not only those
    // of listed findings. Input 1×2×7, one 2×3 kernel (patch j reads columns
    // j..j+2), groups {0},{3},{1},{4},{2}, bound 1, one finding listed per
    // rule: loads beyond the bound happen at step 3 (columns 1, 2: patch 1),
    // step 4 (columns 4, 5: patch 4) and step 5 (columns 2, 3: patch 2) —
    // worked out in tst_reload. Patches 0 and 3 load each column first.
    void reloadMarksEveryPatch()
    {
        const Problem problem = reloadStrip(7);
        SimulationOptions options;
        options.functional = false;
        options.max_diagnostics_per_rule = 1;
        const SimulationResult result = simulate(problem, expandS1(problem, {{0}, {3}, {1}, {4}, {2}}), options);
        QCOMPARE(result.diagnostics.size(), std::size_t(1));
        QCOMPARE(result.reload.patches, (std::vector<PatchId>{1, 2, 4}));
        StepCursor cursor(problem, result);
        cursor.seek({cursor.stepCount() - 1, Action::Compute}); // the drain: every patch computed, so every mark shows

        QImage image = blankImage(QSize(220, 60));
        const GridGeometry g{1, 5, QPointF(10, 10), 40};
        {
            QPainter p(&image);
            GridRenderer().paintOutputCells(p, g, problem, cursor, GridStyle{}, g.allCells());
        }
        for (int col = 0; col < 5; ++col) {
            const QRectF cell = g.cellRect(0, col);
            const QRgb corner = image.pixel(QPoint(int(cell.right()) - 4, int(cell.top()) + 4)) | 0xFF000000u;
            const bool marked = col == 1 || col == 2 || col == 4;
            QVERIFY2((corner == qRgb(0, 0, 0)) == marked, qPrintable(QStringLiteral("patch %1").arg(col)));
        }
        // The input grid has no such marks (they are about patches).
        QImage input = blankImage(QSize(320, 100));
        const GridGeometry gi{2, 7, QPointF(10, 10), 40};
        {
            QPainter p(&input);
            GridRenderer().paintInputCells(p, gi, problem, cursor, GridStyle{}, gi.allCells());
        }
        for (int row = 0; row < 2; ++row)
            for (int col = 0; col < 7; ++col) {
                const QRectF cell = gi.cellRect(row, col);
                QVERIFY((input.pixel(QPoint(int(cell.right()) - 4, int(cell.top()) + 4)) | 0xFF000000u) != qRgb(0, 0, 0));
            }
        const auto labels = [](const std::vector<LegendRow> &rows) {
            QStringList out;
            for (const LegendRow &row : rows)
                for (const LegendItem &item : row.items)
                    out << item.label;
            return out;
        };
        QVERIFY(labels(GridRenderer::outputLegend(GridStyle{}, {}, false, GridRenderer::breaksReload(cursor)))
                    .contains(Palette::assumptionLabel()));
        QVERIFY(!labels(GridRenderer::outputLegend(GridStyle{}, {}, false, false)).contains(Palette::assumptionLabel()));
        GridStyle plain;
        plain.reloadMarks = false;
        QVERIFY(!labels(GridRenderer::outputLegend(plain, {}, false, true)).contains(Palette::assumptionLabel()));
    }

    // Cells under 2 device pixels (a 1024\u00d71024 layer fitted to a view):
    // the marks go to the pixels under them as ink, an eighth of each
    // cell, in one image (stamping a million of them took 80-130 ms). By
    // hand: 400\u00d7400 cells of 0.5 px, every one marked, on white: each
    // pixel holds 4 cells, 4 \u00d7 1/8 of a quarter pixel = 1/8 of it
    // black, so 255 \u00d7 7/8 = 223 everywhere; unmarked cells stay white.
    void tinyReloadMarksKeepTheirInk()
    {
        Layer layer{1, 400, 400, 1, 1, 1, 1, 1, 0, 0, 0, 0};
        GridGeometry geometry;
        geometry.rows = geometry.cols = 400;
        geometry.cellSize = 0.5;
        std::vector<PatchId> marked;
        for (PatchId p = 0; p < PatchId(400 * 200); ++p) // the top half
            marked.push_back(p);
        QImage image = blankImage(QSize(200, 200));
        {
            QPainter painter(&image);
            GridRenderer::paintAssumptionMarks(painter, geometry, layer, marked, geometry.allCells());
        }
        for (const QPoint at : {QPoint(0, 0), QPoint(199, 99), QPoint(100, 50), QPoint(37, 12)})
            QVERIFY2(std::abs(qRed(image.pixel(at)) - 223) <= 1, qPrintable(QString::number(qRed(image.pixel(at)))));
        for (const QPoint at : {QPoint(0, 100), QPoint(199, 199), QPoint(100, 150)})
            QCOMPARE(image.pixel(at) | 0xFF000000u, 0xFFFFFFFFu);
    }

    // On raster devices the reload marks are stamped from pre-drawn images
    // (quarter-pixel offsets); a vector device (QPicture, as SVG/PDF) draws
    // each as a polygon. Replayed, both must give the same marks. Input
    // 1×2×24, one 2×3 kernel (patch j reads columns j..j+2), bound 1: the
    // even patches first, then the odd ones, each of which reloads columns
    // the evens loaded and freed.
    void stampedMarksMatchPolygons_data()
    {
        QTest::addColumn<double>("cellSize");
        QTest::addColumn<QPointF>("origin");
        QTest::newRow("whole cells, white rim") << 40.0 << QPointF(10, 10);
        QTest::newRow("fractional cells and origin") << 13.37 << QPointF(3.3, 7.6);
        QTest::newRow("small cells, no rim") << 9.5 << QPointF(0.25, 2.75);
    }
    void stampedMarksMatchPolygons()
    {
        QFETCH(double, cellSize);
        QFETCH(QPointF, origin);
        const Problem problem = reloadStrip(24);
        Groups groups;
        for (PatchId p = 0; p < 22; p += 2)
            groups.push_back({p});
        for (PatchId p = 1; p < 22; p += 2)
            groups.push_back({p});
        SimulationOptions options;
        options.functional = false;
        const SimulationResult result = simulate(problem, expandS1(problem, groups), options);
        QVERIFY(result.reload.patches.size() >= 8); // enough marks for the stamps
        StepCursor cursor(problem, result);
        cursor.seek({cursor.stepCount() - 1, Action::Compute}); // the drain: every patch computed, so every mark shows
        const GridGeometry g{1, 22, origin, cellSize};
        const QSize size(int(origin.x() + 22 * cellSize) + 4, int(origin.y() + cellSize) + 4);
        QImage stamped = blankImage(size), drawn = blankImage(size);
        {
            QPainter p(&stamped);
            GridRenderer().paintOutputCells(p, g, problem, cursor, GridStyle{}, g.allCells());
        }
        QPicture picture;
        {
            QPainter p(&picture);
            GridRenderer().paintOutputCells(p, g, problem, cursor, GridStyle{}, g.allCells());
        }
        {
            QPainter p(&drawn);
            p.drawPicture(0, 0, picture);
        }
        const std::set<PatchId> marked(result.reload.patches.begin(), result.reload.patches.end());
        for (int col = 0; col < 22; ++col) {
            const QRectF cell = g.cellRect(0, col);
            const QPoint inside(int(cell.right() - cellSize * 0.1), int(cell.top() + cellSize * 0.1));
            const QRgb at = stamped.pixel(inside);
            const bool dark = std::max({qRed(at), qGreen(at), qBlue(at)}) < 40; // the mark is black
            QVERIFY2(dark == bool(marked.count(PatchId(col))), qPrintable(QStringLiteral("patch %1").arg(col)));
            if (!dark)
                continue;
            // Pixel by pixel around the mark: at most an eighth of a pixel
            // apart, so antialiased edges differ a little, nothing more.
            const double side = std::clamp(cellSize * 0.5, 3.0, 14.0);
            const QRect around
                = QRectF(cell.right() - side - 1, cell.top() - 1, side + 2, side + 2).toAlignedRect() & stamped.rect();
            for (int y = around.top(); y <= around.bottom(); ++y)
                for (int x = around.left(); x <= around.right(); ++x) {
                    const QRgb a = stamped.pixel(x, y), b = drawn.pixel(x, y);
                    const int diff
                        = std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
                    QVERIFY2(
                        diff <= 72, qPrintable(QStringLiteral("patch %1, pixel (%2, %3): %4").arg(col).arg(x).arg(y).arg(diff)));
                }
        }
    }

    // A grid view's legend comes from an image kept while it stays the
    // same; it must look as GridRenderer paints it, and follow changes.
    void cachedLegendLooksTheSame()
    {
        std::vector<LegendRow> rows = GridRenderer::outputLegend(GridStyle{}, {}, false, true);
        const QFont font = QApplication::font();
        const QFontMetricsF fm(font);
        LegendCache cache;
        const double width = 300;
        QCOMPARE(cache.height(font, nullptr, width, rows), GridLegend::height(fm, width, rows));
        for (int change = 0; change < 2; ++change) {
            const QRectF rect(5.5, 3.25, width, GridLegend::height(fm, width, rows));
            QImage direct = blankImage(QSize(320, int(rect.bottom()) + 4)), cached = direct;
            {
                QPainter p(&direct);
                p.setFont(font);
                GridLegend::paint(p, rect, rows);
            }
            for (int again = 0; again < 2; ++again) { // the second paint comes from the kept image
                cached.fill(Qt::white);
                QPainter p(&cached);
                p.setFont(font);
                cache.paint(p, rect, rows);
            }
            int worst = 0;
            for (int y = 0; y < direct.height(); ++y)
                for (int x = 0; x < direct.width(); ++x) {
                    const QRgb a = direct.pixel(x, y), b = cached.pixel(x, y);
                    worst = std::max(
                        {worst, std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
                }
            QVERIFY2(worst <= 2, qPrintable(QStringLiteral("change %1: a pixel differs by %2").arg(change).arg(worst)));
            rows.back().items.pop_back(); // a legend that changed is painted anew
            QCOMPARE(cache.height(font, nullptr, width, rows), GridLegend::height(fm, width, rows));
        }
    }

    void vectorPathMatchesRaster()
    {
        const Example ex;
        const GridStyle style;
        QPicture picture;
        {
            QPainter p(&picture);
            GridRenderer().paintGrids(p, kTarget, ex.problem, *ex.cursor, style);
        }
        QImage fromPicture = blankImage(), raster = blankImage();
        {
            QPainter p(&fromPicture);
            p.drawPicture(0, 0, picture);
        }
        {
            QPainter p(&raster);
            GridRenderer().paintGrids(p, kTarget, ex.problem, *ex.cursor, style);
        }
        int same = 0, total = 0;
        for (int y = 0; y < 600; y += 7)
            for (int x = 0; x < 600; x += 7, ++total)
                same += fromPicture.pixel(x, y) == raster.pixel(x, y);
        QVERIFY2(same > total * 9 / 10, qPrintable(QStringLiteral("%1 of %2 samples agree").arg(same).arg(total)));
    }

    // The side-by-side figure lists each colour once: the grids share "on
    // chip", "not on chip / pending" and the current group's frame. Every
    // item of the two grids' own legends is there (same kind and colour),
    // the step's events come first, and at a paper column's width the
    // legend takes fewer lines, so the grids get the room. With the heat
    // map the input's colours are counts: both captioned rows stay.
    // The grid comes first: on a short, wide view the legend (a few lines)
    // would leave the grid less height than itself, so it gives way; on a
    // tall view it stays under the grid.
    void legendGivesWayToAShortGrid()
    {
        const Example ex;
        const GridStyle style;
        for (const GridKind kind : {GridKind::Input, GridKind::Output}) {
            QImage tall = blankImage(QSize(300, 600));
            const GridFigureLayout roomy = figureLayout(kind, tall, QRectF(0, 0, 300, 600), ex, style);
            QVERIFY(roomy.legend.height() > 0);
            QVERIFY(roomy.geometry.bounds().height() >= roomy.legend.height());
            // As tall as the legend alone needs, plus a little: with it, the
            // grid would be shorter than the legend.
            const double shortHeight = roomy.legend.height() + 60;
            QImage flat = blankImage(QSize(300, int(shortHeight)));
            const GridFigureLayout squeezed = figureLayout(kind, flat, QRectF(0, 0, 300, shortHeight), ex, style);
            QCOMPARE(squeezed.legend.height(), 0.0);
            QVERIFY2(squeezed.geometry.bounds().height() > roomy.legend.height() / 2,
                qPrintable(QString::number(squeezed.geometry.bounds().height())));
        }
    }

    void gridFigureListsSharedColoursOnce()
    {
        const Example ex;
        const GridStyle style;
        const std::vector<LegendRow> merged = GridRenderer::gridsLegend(ex.problem, *ex.cursor, style);
        QCOMPARE(merged.size(), std::size_t(1));
        QVERIFY(merged.front().caption.isEmpty());
        const std::vector<LegendItem> &items = merged.front().items;
        const auto same = [](const LegendItem &a, const LegendItem &b) { return a.kind == b.kind && a.color == b.color; };
        for (std::size_t i = 0; i < items.size(); ++i)
            for (std::size_t j = i + 1; j < items.size(); ++j)
                QVERIFY2(!same(items[i], items[j]), qPrintable(items[i].label + QStringLiteral(" twice")));

        std::vector<LegendRow> separate = GridRenderer::inputLegend(ex.problem, *ex.cursor, style, QStringLiteral("Input:"));
        for (const LegendRow &row :
            GridRenderer::outputLegend(style, QStringLiteral("Output:"), false, GridRenderer::breaksReload(*ex.cursor)))
            separate.push_back(row);
        std::size_t separateItems = 0;
        for (const LegendRow &row : separate)
            for (const LegendItem &item : row.items) {
                ++separateItems;
                QVERIFY2(std::any_of(items.begin(), items.end(), [&](const LegendItem &m) { return same(m, item); }),
                    qPrintable(item.label + QStringLiteral(" is missing")));
            }
        QCOMPARE(items.size(), separateItems - 3); // on chip, not on chip / pending, the group: once each
        QCOMPARE(items[0].label, Palette::pixelLabel(PixelState::Loaded));
        QCOMPARE(items[1].label, Palette::pixelLabel(PixelState::Freed));
        QCOMPARE(items[2].label, Palette::outputLabel(OutputState::Computed));
        QCOMPARE(items[3].label, Palette::outputLabel(OutputState::Written));

        QFont font;
        font.setPixelSize(10);
        const QFontMetricsF fm(font);
        for (const double width : {320.0, 480.0})
            QVERIFY(GridLegend::height(fm, width, merged) < 0.75 * GridLegend::height(fm, width, separate));

        GridStyle heat;
        heat.heatMap = true;
        const std::vector<LegendRow> heatLegend = GridRenderer::gridsLegend(ex.problem, *ex.cursor, heat);
        QCOMPARE(heatLegend.size(), std::size_t(2));
        QCOMPARE(heatLegend[0].caption, QStringLiteral("Input:"));
        QCOMPARE(heatLegend[1].caption, QStringLiteral("Output:"));
    }

    void sideBySideFigure()
    {
        const Example ex;
        QImage image = blankImage(QSize(1000, 500));
        {
            QPainter p(&image);
            GridRenderer().paintGrids(p, QRectF(0, 0, 1000, 500), ex.problem, *ex.cursor, GridStyle{});
        }
        int loaded = 0, written = 0, computed = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QRgb c = image.pixel(x, y) | 0xFF000000u;
                loaded += c == Palette::pixel(PixelState::Loaded).rgb();
                written += c == Palette::output(OutputState::Written).rgb();
                computed += c == Palette::output(OutputState::Computed).rgb();
            }
        QVERIFY(loaded > 6 * 400); // six loaded cells of > 20×20 px
        QVERIFY(written > 2 * 400); // two written patches
        QVERIFY(computed > 2 * 400); // two computed patches
    }

    // --- GridView offscreen --------------------------------------------------------

    void viewPaintsAndTooltips()
    {
        const Example ex;
        GridView view(GridKind::Input);
        view.setSource(&ex.problem, ex.cursor.get());
        view.resize(420, 460);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage shot = view.grab().toImage();
        QVERIFY(distinctColours(shot) > 5);
        const GridGeometry g = view.geometry();
        QCOMPARE(g.rows, 5);
        QVERIFY(view.gridViewport().contains(g.bounds()));
        const qreal dpr = shot.devicePixelRatio();
        auto shotAt = [&](int r, int c) { return shot.pixel((g.cellRect(r, c).center() * dpr).toPoint()) | 0xFF000000u; };
        QCOMPARE(shotAt(0, 4), Palette::pixel(PixelState::Loaded).rgb());
        QCOMPARE(shotAt(0, 0), Palette::pixel(PixelState::Freed).rgb());
        QCOMPARE(shotAt(1, 2), Palette::pixel(PixelState::Kept).rgb());

        const QPoint pos = g.cellRect(0, 4).center().toPoint();
        const QString tip = view.toolTipAt(pos);
        QVERIFY2(tip.contains(QStringLiteral("pixel (0,4)")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("2 elements")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("loaded now")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("loads so far: 1")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("loaded at step 2")), qPrintable(tip));
        QVERIFY(view.toolTipAt(QPointF(1, 1)).isEmpty());

        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("pixel (0,4)")), qPrintable(QToolTip::text()));
        QToolTip::hideText();

        // A reloaded pixel lists every step that loads it (1-based).
        ex.cursor->seek({2, Action::Compute});
        view.refresh();
        const QString reloaded = view.toolTipAt(g.cellRect(1, 0).center());
        QVERIFY2(reloaded.contains(QStringLiteral("loads so far: 2")), qPrintable(reloaded));
        QVERIFY2(reloaded.contains(QStringLiteral("loaded at steps 1, 3")), qPrintable(reloaded));
    }

    void outputViewTooltip()
    {
        const Example ex;
        GridView view(GridKind::Output);
        view.setSource(&ex.problem, ex.cursor.get());
        view.resize(400, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const GridGeometry g = view.geometry();
        QCOMPARE(g.rows, 3);
        const QString tip = view.toolTipAt(g.cellRect(0, 2).center());
        QVERIFY2(tip.contains(QStringLiteral("patch 2 (0,2)")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("computed now")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("output O[1](0,2)")), qPrintable(tip));
        const QString written = view.toolTipAt(g.cellRect(0, 0).center());
        QVERIFY2(written.contains(QStringLiteral("written now")), qPrintable(written));
        const QImage shot = view.grab().toImage();
        QCOMPARE(shot.pixel((g.cellRect(1, 2).center() * shot.devicePixelRatio()).toPoint()) | 0xFF000000u,
            Palette::output(OutputState::Computed).rgb());
    }

    void viewZoomPanAndClick()
    {
        const Example ex;
        GridView view(GridKind::Input);
        view.setSource(&ex.problem, ex.cursor.get());
        view.resize(400, 440);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // The wheel zooms about the mouse: the cell under it stays under it.
        const QPointF at = view.geometry().cellRect(3, 1).center() + QPointF(3, -2);
        const QPointF sceneBefore = view.transform().toScene(at);
        QWheelEvent wheel(
            at, view.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QCOMPARE(view.transform().zoom, 1.25);
        const QPointF sceneAfter = view.transform().toScene(at);
        QVERIFY(std::abs(sceneAfter.x() - sceneBefore.x()) < 1e-9 && std::abs(sceneAfter.y() - sceneBefore.y()) < 1e-9);

        // A drag pans by the mouse's displacement.
        const QPointF offset = view.transform().offset;
        const QPointF from = view.gridViewport().center();
        auto mouse = [&](QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
            QMouseEvent e(type, pos, view.mapToGlobal(pos), button, buttons, Qt::NoModifier);
            QApplication::sendEvent(&view, &e);
        };
        mouse(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        mouse(QEvent::MouseMove, from + QPointF(20, 10), Qt::NoButton, Qt::LeftButton);
        mouse(QEvent::MouseMove, from + QPointF(30, 15), Qt::NoButton, Qt::LeftButton);
        mouse(QEvent::MouseButtonRelease, from + QPointF(30, 15), Qt::LeftButton, Qt::NoButton);
        QCOMPARE(view.transform().offset, offset + QPointF(30, 15));

        // Keys: + zooms in, - out, 0 fits.
        QTest::keyClick(&view, Qt::Key_Plus);
        QCOMPARE(view.transform().zoom, 1.25 * 1.25);
        QTest::keyClick(&view, Qt::Key_Minus);
        QVERIFY(qFuzzyCompare(view.transform().zoom, 1.25));
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.transform().zoom, 1.0);
        QVERIFY(view.gridViewport().contains(view.geometry().bounds()));

        // A click without a drag names the cell.
        QSignalSpy clicked(&view, &GridView::cellClicked);
        const QPointF cell = view.geometry().cellRect(1, 2).center();
        mouse(QEvent::MouseButtonPress, cell, Qt::LeftButton, Qt::LeftButton);
        mouse(QEvent::MouseButtonRelease, cell, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), 1);
        QCOMPARE(clicked.at(0).at(1).toInt(), 2);

        // Zoomed far in, the view still paints the right colour under a cell.
        for (int i = 0; i < 8; ++i)
            QTest::keyClick(&view, Qt::Key_Plus);
        QVERIFY(view.geometry().cellSize > view.gridViewport().width() / 2); // under two cells across
        const QPointF middle = view.gridViewport().center();
        const auto under = view.geometry().cellAt(middle);
        QVERIFY(under);
        const QImage zoomed = view.grab().toImage();
        QCOMPARE(zoomed.pixel((middle * zoomed.devicePixelRatio()).toPoint()) | 0xFF000000u,
            Palette::pixel(ex.cursor->pixel(pixelId(ex.problem.layer, under->row, under->col))).rgb());
        view.fitToView();
        QCOMPARE(view.transform().zoom, 1.0);
    }

    // The grid keeps its place and size when the legend gains or loses an
    // entry (issue 41: the output grid jumped between strategies): the room
    // of every entry the legend may show is kept. A view 200 px wide puts
    // about one entry a line, so an entry more is a line more; 700 px tall,
    // the legend has room beside the grid (it does not give way).
    void viewKeepsItsGridWhenTheLegendChanges_data()
    {
        QTest::addColumn<bool>("output");
        QTest::newRow("output: the second strategy breaks the reload assumption") << true;
        QTest::newRow("input heat map: a later step has more load counts") << false;
    }
    void viewKeepsItsGridWhenTheLegendChanges()
    {
        QFETCH(bool, output);
        SimulationOptions options;
        options.trace = true;
        options.functional = false;
        GridView view(output ? GridKind::Output : GridKind::Input);
        view.resize(200, 700);
        view.setHeatMap(!output);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        if (output) {
            // reloadStrip(6): patches in order keep what the next one reads;
            // 0, 2, 1, 3 frees columns that patch 1 loads again (bound 1).
            const Problem problem = reloadStrip(6);
            const SimulationResult inOrder = simulate(problem, expandS1(problem, Groups{{0}, {1}, {2}, {3}}), options);
            const SimulationResult reloads = simulate(problem, expandS1(problem, Groups{{0}, {2}, {1}, {3}}), options);
            QVERIFY(inOrder.reload.patches.empty());
            QVERIFY(!reloads.reload.patches.empty());
            StepCursor first(problem, inOrder), second(problem, reloads);
            view.setSource(&problem, &first);
            const QRectF before = view.gridViewport();
            QVERIFY2(before.bottom() < view.height() - 2 * view.fontMetrics().height(),
                qPrintable(QString::number(before.bottom()))); // the legend is shown
            view.setSource(&problem, &second);
            QCOMPARE(view.gridViewport(), before);
            view.setSource(&problem, &first);
            QCOMPARE(view.gridViewport(), before);
            view.setSource(nullptr, nullptr);
        } else {
            // Input 1\u00d71\u00d727, one 1\u00d714 kernel: 14 patches, one a
            // step, in the order 0, 13, 1, 12, ..., 6, 7, with room for one
            // patch only (14 pixels, 14 kernel elements, 1 output). Pixel 6
            // is read by patches 0 to 6 and by none of 13 to 7 between
            // them: it is loaded 7 times. The legend's counts go from the
            // swatches "0 1" at the first step to the gradient past 6.
            Problem problem;
            problem.layer = Layer{1, 1, 27, 1, 14, 1, 1, 1, 0, 0, 0, 0};
            problem.hardware.nbop_pe = 14;
            problem.hardware.mem_size = 29;
            problem.hardware.max_loads_per_element = 100;
            Groups alternating;
            for (PatchId k = 0; k < 7; ++k)
                alternating.insert(alternating.end(), {{k}, {PatchId(13 - k)}});
            const SimulationResult result = simulate(problem, expandS1(problem, alternating), options);
            StepCursor cursor(problem, result);
            cursor.seek({0, Action::Compute});
            QCOMPARE(cursor.maxLoadsSoFar(), 1u);
            view.setSource(&problem, &cursor);
            const QRectF before = view.gridViewport();
            QVERIFY(before.bottom() < view.height() - 2 * view.fontMetrics().height()); // the legend is shown
            for (int step = 1; step < cursor.stepCount(); ++step) {
                cursor.seek({step, Action::Compute});
                view.refresh();
                QCOMPARE(view.gridViewport(), before);
            }
            QVERIFY2(cursor.maxLoadsSoFar() > 6, qPrintable(QString::number(cursor.maxLoadsSoFar())));
            view.setSource(nullptr, nullptr);
        }
    }

    // A grid view as short as the output grid at 1024\u00d7600 (about
    // 170\u00d7270): the legend would leave the grid a sliver, so it gives
    // way and the grid takes the height (title and axis aside).
    void viewLegendGivesWayToAShortGrid()
    {
        const Example ex;
        GridView view(GridKind::Output);
        view.setSource(&ex.problem, ex.cursor.get());
        view.resize(170, 270);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY2(view.gridViewport().height() > 270 / 2, qPrintable(QString::number(view.gridViewport().height())));
        view.resize(170, 900); // room for both
        QTRY_VERIFY(view.gridViewport().bottom() < 900 - 4 * view.fontMetrics().height());
        view.setSource(nullptr, nullptr);
    }

    void viewHeatMapToggle()
    {
        const Example ex({2, Action::Compute});
        GridView view(GridKind::Input);
        view.setSource(&ex.problem, ex.cursor.get());
        view.resize(400, 440);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.heatMap());
        view.setHeatMap(true);
        QVERIFY(view.heatMap());
        const GridGeometry g = view.geometry();
        const QImage shot = view.grab().toImage();
        const QRectF cell = g.cellRect(1, 0);
        const QPointF quarter = cell.topLeft() + QPointF(cell.width() / 4, cell.height() / 4);
        QCOMPARE(shot.pixel((quarter * shot.devicePixelRatio()).toPoint()) | 0xFF000000u, Palette::heat(1.0).rgb());
        view.setSource(nullptr, nullptr); // nothing to show: no crash, no tooltip
        QVERIFY(view.toolTipAt(QPointF(200, 200)).isEmpty());
        QVERIFY(!view.grab().isNull());
    }
};

QTEST_MAIN(TestGrid)
#include "tst_grid.moc"
