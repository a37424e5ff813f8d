// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The visualiser on grouped and dilated layers (issue 38,
// docs/reference/model.md#grouped-and-dilated): input cells partly filled by
// the share of their channel groups on chip, the tooltips naming those
// groups, the kernel strip's group band, a dilated patch's cells, and the
// layer editor's group and dilation fields with their messages and undo.
//
// The grouped layer is small enough to work by hand: 4×4 input, 3×3 kernels,
// 2×2 patches (patch 0 reads rows 0–2 × cols 0–2, patch 3 rows 1–3 × cols
// 1–3). With c_in = n = 4 and g = 2, kernels 0, 1 are group 0 and 2, 3 group
// 1; with g = 4 (depthwise) kernel k is group k. Steps name (patches,
// kernels) and hold exactly the slices of their patches for the groups of
// their kernels, so a step of one group's kernels holds one slice a pixel.

#include "document/ProjectDocument.h"
#include "grid/GridView.h"
#include "panels/ProblemEditor.h"
#include "render/ChannelGroupText.h"
#include "render/GridRenderer.h"
#include "render/KernelStrip.h"
#include "render/Palette.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StepCursor.h"

#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

constexpr double kCell = 40; // px: cells big enough to sample a top and a bottom part

Problem groupedProblem(int group)
{
    Problem p;
    p.layer.c_in = p.layer.n = 4;
    p.layer.h_in = p.layer.w_in = 4;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.group = group;
    p.hardware.mem_size = 1000;
    p.hardware.nbop_pe = 1000;
    p.hardware.max_loads_per_element = 10;
    return p;
}

struct Run {
    Problem problem;
    SimulationResult result;
    std::unique_ptr<StepCursor> cursor;
    Run(int group, const ComputeSteps &steps)
        : problem(groupedProblem(group))
        , result(simulate(problem, expandSteps(problem, steps)))
        , cursor(std::make_unique<StepCursor>(problem, result))
    {
    }
};

// g = 2:  s0 patch 0 × kernels 0,1 (group 0)   s1 patch 0 × kernels 2,3 (group 1)
//         s2 patch 1 × kernels 1,2 (both)      s3 patch 3 × kernel 3 (group 1)
//         s4 patch 3 × kernel 2 (group 1 again)
ComputeSteps twoGroupSteps() { return {{{0}, {0, 1}}, {{0}, {2, 3}}, {{1}, {1, 2}}, {{3}, {3}}, {{3}, {2}}}; }

// g = 4:  s0 patch 0 × kernel 0   s1 patch 0 × kernels 1, 2
ComputeSteps depthwiseSteps() { return {{{0}, {0}}, {{0}, {1, 2}}}; }

QColor at(const QImage &image, const QPointF &p) { return QColor(image.pixel(p.toPoint())); }

QImage renderInput(const Run &run, int step)
{
    run.cursor->seek({step, Action::Compute});
    const GridGeometry g{run.problem.layer.paddedHeight(), run.problem.layer.paddedWidth(), QPointF(0, 0), kCell};
    QImage image(int(g.cols * kCell), int(g.rows * kCell), QImage::Format_RGB32);
    image.fill(Qt::white);
    GridStyle style;
    style.labels = false;
    style.outlineGroup = false;
    GridRenderer renderer;
    QPainter painter(&image);
    renderer.paintInputCells(painter, g, run.problem, *run.cursor, style, g.allCells());
    return image;
}

const QColor kLoaded = Palette::pixel(PixelState::Loaded), kKept = Palette::pixel(PixelState::Kept),
             kFreed = Palette::pixel(PixelState::Freed), kOff = Palette::pixel(PixelState::Off);

} // namespace

class GroupedGuiTest : public QObject {
    Q_OBJECT
private slots:
    // A cell is split at (1 − onChip/g) of its height from the top (no part
    // is under 4 px, which these shares exceed): below, the state of what is
    // on chip; above, freed-now when the step freed one of the missing
    // slices, else not on chip.
    void partialPixels_data()
    {
        QTest::addColumn<int>("group");
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<double>("topY"); // a sample in the top part (fraction of the cell)
        QTest::addColumn<QColor>("top");
        QTest::addColumn<double>("bottomY");
        QTest::addColumn<QColor>("bottom");
        // s0: group 0 of patch 0's pixels loaded, 1 of 2.
        QTest::newRow("g2 s0 (0,0): half loaded") << 2 << 0 << 0 << 0 << 0.2 << kOff << 0.8 << kLoaded;
        // s1: group 1 loaded, group 0 freed now.
        QTest::newRow("g2 s1 (2,2): loaded over freed") << 2 << 1 << 2 << 2 << 0.2 << kFreed << 0.8 << kLoaded;
        // s2: both slices on chip (group 0 reloaded, group 1 kept): a whole
        // cell; outside patch 1, group 1 freed now and nothing on chip.
        QTest::newRow("g2 s2 (1,1): whole") << 2 << 2 << 1 << 1 << 0.2 << kLoaded << 0.8 << kLoaded;
        QTest::newRow("g2 s2 (0,3): whole") << 2 << 2 << 0 << 3 << 0.2 << kLoaded << 0.8 << kLoaded;
        QTest::newRow("g2 s2 (0,0): freed whole") << 2 << 2 << 0 << 0 << 0.2 << kFreed << 0.8 << kFreed;
        // s3: (1,1) keeps group 1, group 0 freed now; (3,3) loads group 1.
        QTest::newRow("g2 s3 (1,1): kept over freed") << 2 << 3 << 1 << 1 << 0.2 << kFreed << 0.8 << kKept;
        QTest::newRow("g2 s3 (3,3): loaded over off") << 2 << 3 << 3 << 3 << 0.2 << kOff << 0.8 << kLoaded;
        // s4: group 1 kept, group 0 freed a step ago; (0,0) freed two steps ago.
        QTest::newRow("g2 s4 (1,1): kept over off") << 2 << 4 << 1 << 1 << 0.2 << kOff << 0.8 << kKept;
        QTest::newRow("g2 s4 (0,0): nothing") << 2 << 4 << 0 << 0 << 0.2 << kOff << 0.8 << kOff;
        // Depthwise s0: 1 of 4 slices, the bottom quarter (30–40 px).
        QTest::newRow("g4 s0 (1,1): a quarter") << 4 << 0 << 1 << 1 << 0.6 << kOff << 0.9 << kLoaded;
        // Depthwise s1: groups 1, 2 loaded, group 0 freed: the bottom half.
        QTest::newRow("g4 s1 (1,1): half over freed") << 4 << 1 << 1 << 1 << 0.3 << kFreed << 0.6 << kLoaded;
    }

    void partialPixels()
    {
        QFETCH(int, group);
        QFETCH(int, step);
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(double, topY);
        QFETCH(QColor, top);
        QFETCH(double, bottomY);
        QFETCH(QColor, bottom);
        const Run run(group, group == 2 ? twoGroupSteps() : depthwiseSteps());
        const QImage image = renderInput(run, step);
        const double x = (col + 0.5) * kCell;
        QCOMPARE(at(image, QPointF(x, (row + topY) * kCell)), top);
        QCOMPARE(at(image, QPointF(x, (row + bottomY) * kCell)), bottom);
    }

    void partialFillHeight()
    {
        QCOMPARE(GridRenderer::partialFillHeight(40, 1, 2), 20.0);
        QCOMPARE(GridRenderer::partialFillHeight(40, 3, 4), 30.0);
        // 1 of 64 of a 40-px cell is under a pixel: shown as the 4-px least.
        QCOMPARE(GridRenderer::partialFillHeight(40, 1, 64), 4.0);
        QCOMPARE(GridRenderer::partialFillHeight(40, 63, 64), 36.0);
    }

    void legendExplainsThePartialCells()
    {
        const Run grouped(2, twoGroupSteps());
        const Run dense(1, {{{0}, {0, 1, 2, 3}}});
        const auto hasPartial = [](const Run &run) {
            for (const LegendRow &row : GridRenderer::inputLegend(run.problem, *run.cursor, GridStyle{}))
                for (const LegendItem &item : row.items)
                    if (item.kind == LegendItem::Kind::PartialFill)
                        return true;
            return false;
        };
        QVERIFY(hasPartial(grouped));
        QVERIFY(!hasPartial(dense));
    }

    void groupTexts()
    {
        QCOMPARE(groupsOnChipText({0, 2}, 4), QStringLiteral("channel groups 0, 2 of 4 on chip"));
        QCOMPARE(groupsOnChipText({1}, 2), QStringLiteral("channel group 1 of 2 on chip"));
        QCOMPARE(groupsOnChipText({0, 1}, 2), QStringLiteral("both channel groups on chip"));
        QCOMPARE(groupsOnChipText({0, 1, 2}, 3), QStringLiteral("all 3 channel groups on chip"));
        QCOMPARE(groupsOnChipText({}, 4), QStringLiteral("no channel group on chip"));
        QCOMPARE(groupRuns({0, 1, 2, 3, 7, 9, 10}), QStringLiteral("0–3, 7, 9–10"));
        QCOMPARE(groupRuns({0, 2, 4, 6}, 2), QStringLiteral("0, 2, …"));
    }

    void inputToolTipNamesTheGroups()
    {
        const Run run(4, depthwiseSteps());
        run.cursor->seek({1, Action::Compute});
        GridView view(GridKind::Input);
        view.resize(500, 500);
        view.setSource(&run.problem, run.cursor.get());
        view.refresh();
        const QString tip = view.toolTipAt(view.geometry().cellRect(1, 1).center());
        QVERIFY2(tip.contains(QStringLiteral("channel groups 1–2 of 4 on chip")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("4 elements in 4 channel groups of 1")), qPrintable(tip));
        // (3,3) is in no patch of the steps.
        const QString off = view.toolTipAt(view.geometry().cellRect(3, 3).center());
        QVERIFY2(off.contains(QStringLiteral("no channel group on chip")), qPrintable(off));
    }

    // The band under the kernels: dark under group 0's, light under group 1's;
    // the cells' centres keep their state colours.
    void kernelStripBand()
    {
        const Run run(2, twoGroupSteps());
        run.cursor->seek({1, Action::Compute}); // kernels 2, 3 loaded now; 0, 1 freed now
        QImage image(600, 60, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        const QRectF rect(10, 10, 580, 30);
        {
            QPainter p(&image);
            KernelStrip::paint(p, rect, run.problem, *run.cursor, true);
        }
        QPainter measure(&image);
        const KernelStripLayout l = KernelStrip::layout(QFontMetricsF(measure.font(), &image), rect, 4, true, 2);
        measure.end();
        QCOMPARE(l.cellCount, 4);
        const PixelState states[] = {PixelState::Freed, PixelState::Freed, PixelState::Loaded, PixelState::Loaded};
        const int groupOf[] = {0, 0, 1, 1};
        for (int k = 0; k < 4; ++k) {
            const QRectF cell = l.cellRect(k);
            QCOMPARE(at(image, QPointF(cell.center().x(), cell.top() + 3)), Palette::pixel(states[k]));
            QCOMPARE(at(image, QPointF(cell.center().x(), cell.bottom() - 2)), KernelStrip::groupTint(groupOf[k]));
        }
        QVERIFY(KernelStrip::groupTint(0) != KernelStrip::groupTint(1));
        QCOMPARE(KernelStrip::caption(l, 2), QStringLiteral("Kernels (g = 2)"));
        const QString tip = KernelStrip::toolTipAt(
            QFontMetricsF(QFont(), &image), rect, run.problem, *run.cursor, true, l.cellRect(3).center());
        QVERIFY2(tip.contains(QStringLiteral("kernel 3 (channel group 1)")), qPrintable(tip));
    }

    // A dilated patch reads h_k × w_k cells d apart, not its whole span.
    void dilatedPatchCells()
    {
        Layer l;
        l.h_in = l.w_in = 8;
        l.h_k = l.w_k = 3;
        l.dilation_h = 2;
        l.dilation_w = 3;
        // Span 5 × 7; w_out = 8 − 7 + 1 = 2, so patch 1 is (0, 1) and starts at column 1.
        const std::vector<QRect> cells = GridRenderer::patchCells(l, 1);
        std::vector<QRect> expected;
        for (int r : {0, 2, 4})
            for (int c : {1, 4, 7})
                expected.emplace_back(c, r, 1, 1);
        QCOMPARE(cells, expected);
        QCOMPARE(GridRenderer::patchPixels(l, 1), QRect(1, 0, 7, 5));
        l.dilation_h = l.dilation_w = 1;
        QCOMPARE(GridRenderer::patchCells(l, 1), std::vector<QRect>{QRect(1, 0, 3, 3)});
    }

    // The output tooltip names the rows and columns a dilated patch reads:
    // 8×8 input, 3×3 taps 2 apart span 5, so patch 0 reads rows and columns
    // 0, 2, 4; patch 5 (row 1, col 1 of the 4×4 output) rows and columns 1, 3, 5.
    void dilatedPatchToolTip()
    {
        Problem p = groupedProblem(1);
        p.layer.h_in = p.layer.w_in = 8;
        p.layer.dilation_h = p.layer.dilation_w = 2;
        const SimulationResult r = simulate(p, expandSteps(p, {{{0, 5}, {0, 1, 2, 3}}}));
        StepCursor cursor(p, r);
        GridView view(GridKind::Output);
        view.resize(500, 500);
        view.setSource(&p, &cursor);
        view.refresh();
        QString tip = view.toolTipAt(view.geometry().cellRect(0, 0).center());
        QVERIFY2(tip.contains(QStringLiteral("rows 0–4 every 2, cols 0–4 every 2")), qPrintable(tip));
        tip = view.toolTipAt(view.geometry().cellRect(1, 1).center());
        QVERIFY2(tip.contains(QStringLiteral("rows 1–5 every 2, cols 1–5 every 2")), qPrintable(tip));
    }

    // The editor's group and dilation fields: the core's messages at the
    // field they name, derived figures from (c_in/g)·h_k·w_k, undo.
    // The paper's Example: c_in 2, 5×5 input, two 3×3 kernels, mem_size 80.
    void editorGroupAndDilation()
    {
        ProjectDocument doc;
        QCOMPARE(doc.load(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")), QString());
        ProblemEditor editor(&doc);
        editor.resize(460, 1000);
        editor.show();
        auto *group = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("layer.group")));
        auto *dh = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("layer.dilation_h")));
        auto *dw = qobject_cast<QSpinBox *>(editor.editorFor(QStringLiteral("layer.dilation_w")));
        QVERIFY(group && dh && dw);
        QCOMPARE(group->value(), 1);
        QCOMPARE(dh->value(), 1);
        QVERIFY(!group->toolTip().isEmpty() && !dh->toolTip().isEmpty());

        // g = 3 divides neither c_in = 2 nor n = 2.
        group->setValue(3);
        QCOMPARE(doc.problem().layer.group, 3);
        QVERIFY2(editor.messageAt(QStringLiteral("layer.group")).contains(QStringLiteral("does not divide c_in = 2")),
            qPrintable(editor.messageAt(QStringLiteral("layer.group"))));
        QVERIFY(editor.generalMessage().isEmpty());
        bool shown = false;
        for (QLabel *label : group->parentWidget()->findChildren<QLabel *>())
            shown = shown || (label->isVisible() && label->text().contains(QStringLiteral("does not divide")));
        QVERIFY(shown);
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().layer.group, 1);
        QCOMPARE(group->value(), 1);
        QVERIFY(editor.messageAt(QStringLiteral("layer.group")).isEmpty());

        // g = 2 (depthwise): one channel a kernel, 9 weights; a patch is
        // n·(c_in/g)·9 = 18 MACs.
        group->setValue(2);
        QVERIFY(editor.messageAt(QStringLiteral("layer.group")).isEmpty());
        const auto labelWith = [&](const QString &text) {
            for (QLabel *label : editor.findChildren<QLabel *>())
                if (label->text().contains(text))
                    return true;
            return false;
        };
        QVERIFY(labelWith(QStringLiteral("18 MACs each")));
        // An S1 step holds one patch's 9 pixels whole (2 channels: 18), both
        // kernels (2 × 9) and 2 outputs: 38 elements, over a mem_size of 35.
        auto *mem = qobject_cast<QDoubleSpinBox *>(editor.editorFor(QStringLiteral("hardware.mem_size")));
        QVERIFY(mem);
        mem->setValue(35);
        QVERIFY2(editor.messageAt(QStringLiteral("hardware.mem_size")).contains(QStringLiteral("at least 38 elements")),
            qPrintable(editor.messageAt(QStringLiteral("hardware.mem_size"))));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().layer.group, 1);
        QCOMPARE(doc.problem().hardware.mem_size, std::int64_t(80));

        // dilation_h 3 spans 3·2 + 1 = 7 rows of a 5-row input.
        dh->setValue(3);
        QVERIFY2(editor.messageAt(QStringLiteral("layer.dilation_h")).contains(QStringLiteral("7 rows")),
            qPrintable(editor.messageAt(QStringLiteral("layer.dilation_h"))));
        QVERIFY(editor.messageAt(QStringLiteral("layer.h_k")).isEmpty());
        // Typing on in one field is one undo step: 3 then 2 undo to 1.
        dh->setValue(2);
        QVERIFY(editor.messageAt(QStringLiteral("layer.dilation_h")).isEmpty());
        // Span 5 of 5 rows: h_out 1; w_out (5 − 3) + 1 = 3: 2 × 1 × 3 outputs.
        QVERIFY(labelWith(QStringLiteral("2 × 1 × 3 = 6 elements")));
        dw->setValue(2);
        QVERIFY(labelWith(QStringLiteral("spanning 5 × 5 pixels")));
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().layer.dilation_w, 1);
        QCOMPARE(dw->value(), 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.problem().layer.dilation_h, 1);
        QCOMPARE(dh->value(), 1);
        QTRY_VERIFY(!doc.busy());
    }
};

QTEST_MAIN(GroupedGuiTest)
#include "tst_groupedgui.moc"
