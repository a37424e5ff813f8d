// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Feedback while hand-editing groups, on the paper's Example (input 2×5×5, two
// 3×3 kernels, stride 1, mem_size 80, G = 2), strategy "Mine"
// (groups [[0,1],[2,5],[4,3],[6,7],[8]]):
// - the receptive-field preview while patches are dragged over the output grid
//   or the Groups tree equals the union worked out here from the patches'
//   coordinates, is drawn on the input grid (pixel colours at known cells) and
//   is cleared on leave and drop;
// - rule flags sit on exactly the groups and patches where the core reports a
//   broken rule (a group of G + 1 patches, a memory overflow, an unassigned
//   patch), are drawn on the output grid and disappear after undo;
// - split and merge from the Groups dock are one undo command each, and undo
//   and redo restore each state exactly.
// Groups are written "0 1|2 5|8".

#include "TestGroups.h"
#include "document/ProjectDocument.h"
#include "render/Palette.h"
#include "models/DropPreview.h"
#include "grid/GridView.h"
#include "models/GroupListModel.h"
#include "panels/GroupsPanel.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDragLeaveEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTest>
#include <QTreeView>

#include <memory>
#include <set>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

constexpr int kWidth = 5; // of the input; no padding, so pixel id = row * 5 + col
constexpr int kOutWidth = 3;

/// The pixels patches read, worked out from coordinates: patch (i, j) reads
/// rows i..i+2 and columns j..j+2 (3×3 kernel, stride 1).
std::set<PixelId> fieldByHand(std::initializer_list<PatchId> patches)
{
    std::set<PixelId> pixels;
    for (PatchId p : patches) {
        const int i = int(p) / kOutWidth, j = int(p) % kOutWidth;
        for (int r = i; r < i + 3; ++r)
            for (int c = j; c < j + 3; ++c)
                pixels.insert(PixelId(r * kWidth + c));
    }
    return pixels;
}

std::set<PixelId> asSet(const std::vector<PixelId> &v) { return {v.begin(), v.end()}; }

QColor colourAt(const QImage &image, const QPointF &p) { return image.pixelColor(p.toPoint()); }

} // namespace

class TestEditFeedback : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ProjectDocument> m_doc;
    std::unique_ptr<GroupsPanel> m_panel;
    std::unique_ptr<GridView> m_input, m_output;

    GroupListModel *model() const { return m_panel->model(); }
    const DropPreview *preview() const { return model()->dropPreview(); }
    QString mine() const { return groupsText(m_doc->project().strategies.at(kMine).groups); }
    QPoint centreOf(PatchId p) const
    {
        return m_output->geometry().cellRect(int(p) / kOutWidth, int(p) % kOutWidth).center().toPoint();
    }
    void resource()
    {
        const auto sim = m_doc->simulation();
        const Problem *problem = sim && m_doc->cursor() ? &sim->problem : nullptr;
        m_input->setSource(problem, m_doc->cursor());
        m_output->setSource(problem, m_doc->cursor());
    }
    /// Waits until the simulation of the current groups is in and the flags follow it.
    void settle()
    {
        QTRY_VERIFY(!m_doc->busy() && m_doc->simulation() && m_doc->simulation()->spec == m_doc->project().strategies.at(kMine));
    }
    void enterAndMove(QWidget *target, const QMimeData *data, const QPoint &pos)
    {
        QDragEnterEvent enter(pos, Qt::MoveAction, data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(target, &enter);
        QDragMoveEvent move(pos, Qt::MoveAction, data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(target, &move);
    }
    void leave(QWidget *target)
    {
        QDragLeaveEvent leave;
        QCoreApplication::sendEvent(target, &leave);
    }
    std::set<int> flaggedGroupRows() const
    {
        std::set<int> rows;
        for (int row = 0; row < model()->rowCount(); ++row)
            if (!model()->index(row, 0).data(GroupListModel::FindingsRole).toStringList().isEmpty())
                rows.insert(row);
        return rows;
    }
    QString groupFindings(int row) const
    {
        return model()->index(row, 0).data(GroupListModel::FindingsRole).toStringList().join(QLatin1Char('\n'));
    }
    void selectPatchRows(const std::vector<std::pair<int, int>> &groupAndRow)
    {
        QTreeView *view = m_panel->view();
        view->selectionModel()->clearSelection();
        for (const auto &[group, row] : groupAndRow)
            view->selectionModel()->select(model()->index(row, 0, model()->index(group, 0)), QItemSelectionModel::Select);
    }

private Q_SLOTS:
    void init()
    {
        m_doc = std::make_unique<ProjectDocument>();
        QCOMPARE(m_doc->load(kPaperExample), QString());
        m_doc->setCurrentStrategy(kMine);
        settle();
        QCOMPARE(mine(), kMineGroups);
        m_panel = std::make_unique<GroupsPanel>(m_doc.get());
        m_input = std::make_unique<GridView>(GridKind::Input);
        m_output = std::make_unique<GridView>(GridKind::Output);
        resource();
        connect(m_doc.get(), &ProjectDocument::simulationChanged, m_input.get(), [this] { resource(); });
        m_output->setEditable(model());
        m_input->setDropPreview(model()->dropPreview());
        for (QWidget *w : {static_cast<QWidget *>(m_input.get()), static_cast<QWidget *>(m_output.get()),
                 static_cast<QWidget *>(m_panel.get())}) {
            w->resize(420, 420);
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w));
        }
    }

    void cleanup()
    {
        m_input.reset();
        m_output.reset();
        m_panel.reset();
        m_doc.reset();
    }

    // ---- receptive-field preview ---------------------------------------------

    void previewWhileDraggingOverTheOutputGrid()
    {
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, {0, 8}));
        enterAndMove(m_output.get(), data.get(), centreOf(2)); // group 2 = [2, 5]
        QVERIFY(preview()->isActive());
        const DropPreview::State &state = *preview()->state();
        QCOMPARE(state.group, 1);
        // By hand: U{2,5} = rows 0-3 × cols 2-4 (12 pixels); {0, 8} add
        // rows 0-2 × cols 0-1 (6) and row 4 × cols 2-4 (3).
        const std::set<PixelId> kept = fieldByHand({2, 5});
        std::set<PixelId> all = fieldByHand({2, 5, 0, 8});
        std::set<PixelId> added;
        std::set_difference(all.begin(), all.end(), kept.begin(), kept.end(), std::inserter(added, added.end()));
        QCOMPARE(kept.size(), std::size_t(12));
        QCOMPARE(added.size(), std::size_t(9));
        QCOMPARE(asSet(state.field.kept), kept);
        QCOMPARE(asSet(state.field.added), added);
        // The group would hold 4 patches (2, 5, 0, 8), over the 2 that
        // nbop_pe = 72 computes in a step (72 / (c_in 2 \u00b7 3\u00b73 \u00b7 n 2)):
        // the preview warns before the drop.
        const QString over = QStringLiteral("; \u26a0 4 patches, over the 2 that nbop_pe = 72 computes in a step");
        QCOMPARE(state.text, QStringLiteral("group 2 would need 21 pixels (+9), 42 elements of 80") + over);
        QCOMPARE(m_input->title(), QStringLiteral("Group 2 would need 21 pixels (+9), 42 elements of 80") + over);
        // A narrow view draws the first that fits: the sentence was cut
        // ("… 30 elemen…") where a shorter one fits; the sign stays.
        QCOMPARE(m_input->titles(),
            (QStringList{QStringLiteral("Group 2 would need 21 pixels (+9), 42 elements of 80") + over,
                QStringLiteral("Group 2 would need 21 pixels (+9) \u26a0"), QStringLiteral("Group 2: 21 pixels (+9) \u26a0")}));

        // Another target: a new computation; leaving clears it.
        enterAndMove(m_output.get(), data.get(), centreOf(6)); // group 4 = [6, 7]
        QCOMPARE(preview()->state()->group, 3);
        QCOMPARE(asSet(preview()->state()->field.kept), fieldByHand({6, 7}));
        leave(m_output.get());
        QVERIFY(!preview()->isActive());
        QVERIFY(m_input->title().startsWith(QStringLiteral("Input 2×5×5")));
        QCOMPARE(mine(), kMineGroups);
    }

    void previewClearedOnDropAndOnRefusedTargets()
    {
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, {0}));
        enterAndMove(m_output.get(), data.get(), centreOf(2));
        QVERIFY(preview()->isActive());
        // Over a patch of its own group: refused, no preview.
        QDragMoveEvent move(centreOf(1), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_output.get(), &move);
        QVERIFY(!move.isAccepted());
        QVERIFY(!preview()->isActive());
        enterAndMove(m_output.get(), data.get(), centreOf(2));
        QVERIFY(preview()->isActive());
        QDropEvent drop(QPointF(centreOf(2)), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_output.get(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(!preview()->isActive());
        QCOMPARE(mine(), QStringLiteral("1|2 5 0|4 3|6 7|8"));
        settle();
    }

    void previewWhileDraggingOverTheGroupsTree()
    {
        QTreeView *view = m_panel->view();
        view->collapseAll();
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, {8}));
        // On the row of group 3 = [4, 3]: join it.
        const QRect group3 = view->visualRect(model()->index(2, 0));
        enterAndMove(view->viewport(), data.get(), group3.center());
        QVERIFY(preview()->isActive());
        QCOMPARE(preview()->state()->group, 2);
        QCOMPARE(asSet(preview()->state()->field.kept), fieldByHand({4, 3}));
        std::set<PixelId> added;
        const std::set<PixelId> all = fieldByHand({4, 3, 8}), kept = fieldByHand({4, 3});
        std::set_difference(all.begin(), all.end(), kept.begin(), kept.end(), std::inserter(added, added.end()));
        QCOMPARE(asSet(preview()->state()->field.added), added);

        // On the top edge of group 1's row: a new group there.
        const QRect group1 = view->visualRect(model()->index(0, 0));
        QDragMoveEvent between(
            group1.topLeft() + QPoint(group1.width() / 2, 1), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(view->viewport(), &between);
        QVERIFY(between.isAccepted());
        QCOMPARE(preview()->state()->group, -1);
        QVERIFY(preview()->state()->field.kept.empty());
        QCOMPARE(asSet(preview()->state()->field.added), fieldByHand({8}));
        QVERIFY(preview()->state()->text.startsWith(QLatin1String("a new group would need 9 pixels (+9)")));
        QVERIFY2(
            !preview()->state()->text.contains(QStringLiteral("nbop_pe")), qPrintable(preview()->state()->text)); // 1 patch of 2

        // On "Unassigned": no group's field changes, so no preview.
        const QRect unassigned = view->visualRect(model()->index(model()->unassignedRow(), 0));
        QDragMoveEvent onPool(unassigned.center(), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(view->viewport(), &onPool);
        QVERIFY(!preview()->isActive());
        enterAndMove(view->viewport(), data.get(), group3.center());
        QVERIFY(preview()->isActive());
        leave(view->viewport());
        QVERIFY(!preview()->isActive());
        QCOMPARE(mine(), kMineGroups);
    }

    void previewIsDrawnOnTheInputGrid()
    {
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, {0, 8}));
        const QImage before = m_input->grab().toImage();
        enterAndMove(m_output.get(), data.get(), centreOf(2));
        const QImage shown = m_input->grab().toImage();
        const GridGeometry g = m_input->geometry();
        // (0,3) is read by group 2 already, (0,0) and (4,4) are added by the drop, (4,0) is outside.
        QCOMPARE(colourAt(shown, g.cellRect(0, 3).center()), Palette::previewKept());
        QCOMPARE(colourAt(shown, g.cellRect(0, 0).center()), Palette::previewAdded());
        QCOMPARE(colourAt(shown, g.cellRect(4, 4).center()), Palette::previewAdded());
        QCOMPARE(colourAt(shown, g.cellRect(4, 0).center()), colourAt(before, g.cellRect(4, 0).center()));
        QDir().mkpath(QStringLiteral("/tmp/editfeedback-shots"));
        QVERIFY(shown.save(QStringLiteral("/tmp/editfeedback-shots/input-preview.png")));
        leave(m_output.get());
        const QImage after = m_input->grab().toImage();
        QCOMPARE(colourAt(after, g.cellRect(0, 0).center()), colourAt(before, g.cellRect(0, 0).center()));
        QCOMPARE(colourAt(after, g.cellRect(0, 3).center()), colourAt(before, g.cellRect(0, 3).center()));
    }

    // ---- the core helpers, on layers and findings written by hand -----------------

    void receptiveFieldSkipsPaddingMadeOnChip()
    {
        // 3×3 input padded by 1 (5×5 padded), 3×3 kernel: patch 0 reads padded
        // rows 0-2 × cols 0-2, of which only (1,1) (1,2) (2,1) (2,2) are real.
        Problem problem;
        problem.layer.c_in = 1;
        problem.layer.h_in = problem.layer.w_in = 3;
        problem.layer.h_k = problem.layer.w_k = 3;
        problem.layer.n = 1;
        problem.layer.pad_top = problem.layer.pad_bottom = problem.layer.pad_left = problem.layer.pad_right = 1;
        problem.options.padding_in_dram = false;
        QCOMPARE(receptiveField(problem, {0}), (std::vector<PixelId>{6, 7, 11, 12}));
        problem.options.padding_in_dram = true;
        QCOMPARE(receptiveField(problem, {0}), (std::vector<PixelId>{0, 1, 2, 5, 6, 7, 10, 11, 12}));
        QCOMPARE(receptiveField(problem, {0, 0}).size(), std::size_t(9)); // each pixel once
    }

    void findingsAreLocatedByStepAndElement()
    {
        const Problem &problem = m_doc->problem();
        const Groups groups = parseGroups(QStringLiteral("0 1|2 5|8"));
        std::vector<Diagnostic> findings(5);
        findings[0].step = 2; // about step 2 as a whole: group 2, all its patches
        findings[1].step = 2; // pixel (0,4) at step 2: only patch 2 of [2, 5] reads it
        findings[1].element_kind = ElementKind::Pixel;
        findings[1].element_id = 4;
        findings[2].step = 4; // the drain: the strategy
        findings[2].rule = Rule::OutputNotWritten; // output O[1] of patch 6: never computed
        findings[2].element_kind = ElementKind::Output;
        findings[2].element_id = 6 * 2 + 1;
        findings[3].step = 0; // the strategy as a whole
        findings[4].step = 1; // output of patch 1 at step 1
        findings[4].element_kind = ElementKind::Output;
        findings[4].element_id = 1 * 2;
        const FindingPlaces places = locateFindings(problem, groups, findings);
        QCOMPARE(places.groups, (std::vector<std::vector<std::size_t>>{{4}, {0, 1}, {}}));
        QCOMPARE(places.strategy, (std::vector<std::size_t>{2, 3}));
        // Unassigned 3, 4, 6, 7 carry the first "never computed" finding.
        QCOMPARE(places.flaggedPatches(), (std::vector<PatchId>{1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(places.ofPatch(2), (std::vector<std::size_t>{0, 1}));
        QCOMPARE(places.ofPatch(5), (std::vector<std::size_t>{0}));
        QCOMPARE(places.ofPatch(4), (std::vector<std::size_t>{2}));
        QCOMPARE(places.ofPatch(0), (std::vector<std::size_t>{}));
    }

    // ---- rule flags -----------------------------------------------------------

    void noFlagsOnAValidStrategy()
    {
        QVERIFY(m_doc->simulation()->result.valid());
        QCOMPARE(flaggedGroupRows(), std::set<int>{});
        QVERIFY(m_output->flaggedPatches().empty());
    }

    void tooManyPatchesFlagTheGroupAndItsPatches()
    {
        // Group 1 gets G + 1 = 3 patches: 6 outputs × 18 MACs = 108 > nbop_pe 72.
        QCOMPARE(model()->moveToGroup({2}, 0), QString());
        QCOMPARE(mine(), QStringLiteral("0 1 2|5|4 3|6 7|8"));
        settle();
        QCOMPARE(flaggedGroupRows(), std::set<int>{0});
        QVERIFY2(groupFindings(0).contains(QLatin1String("more than nbop_pe 72")), qPrintable(groupFindings(0)));
        QCOMPARE(m_output->flaggedPatches(), (std::vector<PatchId>{0, 1, 2}));
        QVERIFY(!model()->index(0, 0).data(Qt::DecorationRole).isNull());
        QVERIFY(model()->index(1, 0).data(Qt::DecorationRole).isNull());
        QVERIFY(model()->index(0, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("nbop_pe")));
        QVERIFY(m_output->toolTipAt(centreOf(2)).contains(QLatin1String("nbop_pe")));

        // Drawn on exactly those cells.
        const QImage image = m_output->grab().toImage();
        const GridGeometry g = m_output->geometry();
        const auto frame = [&](PatchId p) {
            const QRectF cell = g.cellRect(int(p) / kOutWidth, int(p) % kOutWidth);
            return colourAt(image, QPointF(cell.left() + 2, cell.center().y()));
        };
        for (PatchId p : {0u, 1u, 2u})
            QCOMPARE(frame(p), Palette::flag());
        for (PatchId p : {3u, 4u, 5u, 8u})
            QVERIFY(frame(p) != Palette::flag());
        QVERIFY(image.save(QStringLiteral("/tmp/editfeedback-shots/output-flags.png")));
        m_panel->view()->expandAll();
        QVERIFY(m_panel->grab().save(QStringLiteral("/tmp/editfeedback-shots/groups-dock.png")));

        m_doc->undoStack()->undo();
        QCOMPARE(mine(), kMineGroups);
        QVERIFY(m_output->flaggedPatches().empty()); // stale findings are dropped at once
        settle();
        QCOMPARE(flaggedGroupRows(), std::set<int>{});
        QVERIFY(m_output->flaggedPatches().empty());
        m_doc->undoStack()->redo();
        settle();
        QCOMPARE(m_output->flaggedPatches(), (std::vector<PatchId>{0, 1, 2}));
    }

    // New findings are signalled on the rows flagged before or after, and on
    // no other row; rows have one height, tall enough for a flagged row.
    void flagChangesAreSignalledOnFlaggedRowsOnly()
    {
        m_panel->view()->expandAll();
        QSignalSpy changed(model(), &QAbstractItemModel::dataChanged);
        // The rows (group, -1 for the group row itself) a dataChanged about the flags covered.
        const auto signalled = [&] {
            std::set<std::pair<int, int>> rows;
            for (const QList<QVariant> &args : changed) {
                const auto first = args.at(0).value<QModelIndex>(), last = args.at(1).value<QModelIndex>();
                if (!args.at(2).value<QList<int>>().contains(Qt::DecorationRole))
                    continue; // titles after a change of the groups
                for (int row = first.row(); row <= last.row(); ++row)
                    rows.insert(first.parent().isValid() ? std::pair{first.parent().row(), row} : std::pair{row, -1});
            }
            changed.clear();
            return rows;
        };
        const std::set<std::pair<int, int>> group0{{0, -1}, {0, 0}, {0, 1}, {0, 2}}; // "0 1 2" and its patches
        QCOMPARE(model()->moveToGroup({2}, 0), QString()); // group 1 of G + 1 = 3 patches
        settle();
        QCOMPARE(flaggedGroupRows(), std::set<int>{0});
        QCOMPARE(signalled(), group0);
        QTreeView *view = m_panel->view();
        QVERIFY(view->uniformRowHeights());
        const QModelIndex flagged = model()->index(0, 0), plain = model()->index(1, 0);
        QVERIFY(!flagged.data(Qt::DecorationRole).isNull() && plain.data(Qt::DecorationRole).isNull());
        QStyledItemDelegate measure;
        QStyleOptionViewItem option;
        option.initFrom(view);
        const int icon = view->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, view);
        option.decorationSize = view->iconSize().isValid() ? view->iconSize() : QSize(icon, icon);
        QVERIFY(view->visualRect(plain).height() >= measure.sizeHint(option, flagged).height());
        QCOMPARE(view->visualRect(plain).height(), view->visualRect(flagged).height());
        m_doc->undoStack()->undo();
        settle();
        QCOMPARE(flaggedGroupRows(), std::set<int>{});
        QCOMPARE(signalled(), group0); // the same rows, unflagged
    }

    void memoryOverflowFlagsItsGroup()
    {
        // With mem_size 70 every group of "Mine" fits (at most 12 pixels:
        // 24 input + 36 kernel + 4 output elements = 64); [8, 1] reads
        // 9 + 9 - 2 = 16 pixels: 32 + 36 + 4 = 72 > 70 after its compute.
        Problem smaller = m_doc->problem();
        smaller.hardware.mem_size = 70;
        m_doc->setProblem(smaller);
        settle();
        QVERIFY(m_doc->simulation()->result.valid());
        QCOMPARE(model()->moveToGroup({1}, 4), QString());
        QCOMPARE(mine(), QStringLiteral("0|2 5|4 3|6 7|8 1"));
        settle();
        QCOMPARE(flaggedGroupRows(), std::set<int>{4});
        QVERIFY2(groupFindings(4).contains(QLatin1String("72 elements")), qPrintable(groupFindings(4)));
        QCOMPARE(m_output->flaggedPatches(), (std::vector<PatchId>{1, 8}));
        m_doc->undoStack()->undo();
        settle();
        QCOMPARE(flaggedGroupRows(), std::set<int>{});
        QVERIFY(m_output->flaggedPatches().empty());
    }

    // S1-baseline breaks only the reload assumption: pixels (2,0), (2,1),
    // (2,3), (2,4) are loaded a third time at steps 7, 8 and 9, which compute
    // patches 6, 7 and 8 (worked out in tst_panels). No patch breaks a rule,
    // so none carries the rule flag; those three carry the reload corner, and
    // their tooltips say why.
    void reloadBreachesAreMarkedNotFlagged()
    {
        m_doc->setCurrentStrategy(0);
        QTRY_VERIFY(!m_doc->busy() && m_doc->simulation() && m_doc->simulation()->spec == m_doc->project().strategies.at(0));
        QVERIFY(m_doc->simulation()->result.valid());
        QVERIFY(!m_doc->simulation()->result.diagnostics.empty()); // the reload findings are listed
        QVERIFY(m_output->flaggedPatches().empty());
        QCOMPARE(m_doc->simulation()->result.reload.patches, (std::vector<PatchId>{6, 7, 8}));
        // At the drain every patch is computed: the corners show once their
        // patch is (tst_grid reloadMarksWaitForTheirPatch).
        m_doc->seek({int(m_doc->simulation()->result.steps.size()) - 1, Action::Compute});
        QCoreApplication::processEvents();
        const QImage image = m_output->grab().toImage();
        const GridGeometry g = m_output->geometry();
        for (PatchId p = 0; p < 9; ++p) {
            const QRectF cell = g.cellRect(int(p) / kOutWidth, int(p) % kOutWidth);
            const bool marked = p >= 6;
            QCOMPARE(colourAt(image, QPointF(cell.right() - 4, cell.top() + 4)) == Palette::assumption(), marked);
            QCOMPARE(m_output->toolTipAt(centreOf(p)).contains(QLatin1String("breaks the reload assumption")), marked);
        }
    }

    void unassignedPatchesAreFlagged()
    {
        QCOMPARE(model()->unassignPatches({4}), QString());
        settle();
        QCOMPARE(m_output->flaggedPatches(), std::vector<PatchId>{4});
        QCOMPARE(flaggedGroupRows(), std::set<int>{model()->unassignedRow()}); // the "Unassigned" row
        QVERIFY(groupFindings(model()->unassignedRow()).contains(QLatin1String("never computed")));
        m_doc->undoStack()->undo();
        settle();
        QVERIFY(m_output->flaggedPatches().empty());
    }

    // ---- split and merge ---------------------------------------------------------

    void splitFromTheDock()
    {
        selectPatchRows({{1, 1}}); // patch 5 of group 2 = [2, 5]
        m_panel->splitAction()->trigger();
        QCOMPARE(mine(), QStringLiteral("0 1|2|5|4 3|6 7|8"));
        QCOMPARE(m_doc->undoStack()->count(), 1);
        m_doc->undoStack()->undo();
        QCOMPARE(mine(), kMineGroups);
        m_doc->undoStack()->redo();
        QCOMPARE(mine(), QStringLiteral("0 1|2|5|4 3|6 7|8"));
        settle();

        // Patches of two groups, or a whole group: refused, nothing changes.
        selectPatchRows({{0, 0}, {3, 0}});
        m_panel->splitAction()->trigger();
        QVERIFY(m_panel->lastMessage().contains(QLatin1String("one group")));
        selectPatchRows({{0, 0}, {0, 1}});
        m_panel->splitAction()->trigger();
        QVERIFY(m_panel->lastMessage().contains(QLatin1String("empty")));
        QCOMPARE(m_doc->undoStack()->count(), 1);
    }

    void mergeFromTheDock()
    {
        QTreeView *view = m_panel->view();
        view->selectionModel()->clearSelection();
        view->selectionModel()->select(model()->index(1, 0), QItemSelectionModel::Select);
        view->selectionModel()->select(model()->index(3, 0), QItemSelectionModel::Select);
        view->selectionModel()->select(model()->index(4, 0), QItemSelectionModel::Select);
        m_panel->mergeAction()->trigger();
        const QString merged = QStringLiteral("0 1|2 5 6 7 8|4 3");
        QCOMPARE(mine(), merged);
        QCOMPARE(m_doc->undoStack()->count(), 1); // three groups, one command
        m_doc->undoStack()->undo();
        QCOMPARE(mine(), kMineGroups);
        m_doc->undoStack()->redo();
        QCOMPARE(mine(), merged);
        settle();
        // 5 patches in one group: too many ops, flagged there.
        QCOMPARE(flaggedGroupRows(), std::set<int>{1});

        // One group selected merges with the next one; the last has none.
        m_doc->undoStack()->undo();
        settle();
        view->selectionModel()->clearSelection();
        view->selectionModel()->select(model()->index(2, 0), QItemSelectionModel::Select);
        m_panel->mergeAction()->trigger();
        QCOMPARE(mine(), QStringLiteral("0 1|2 5|4 3 6 7|8"));
        m_doc->undoStack()->undo();
        settle();
        view->selectionModel()->clearSelection();
        view->selectionModel()->select(model()->index(4, 0), QItemSelectionModel::Select);
        m_panel->mergeAction()->trigger();
        QVERIFY(!m_panel->lastMessage().isEmpty());
        QCOMPARE(mine(), kMineGroups);
    }

    void actionsHaveShortcutsAndTooltips()
    {
        for (QAction *a : m_panel->editActions()) {
            QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->text()));
            QVERIFY2(a->toolTip().contains(a->shortcut().toString(QKeySequence::NativeText)), qPrintable(a->toolTip()));
        }
        QCOMPARE(m_panel->splitAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+G")));
        QCOMPARE(m_panel->mergeAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+M")));
    }
};

QTEST_MAIN(TestEditFeedback)
#include "tst_editfeedback.moc"
