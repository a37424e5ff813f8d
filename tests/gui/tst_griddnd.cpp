// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Editing groups on the output grid, on the paper's Example, strategy "Mine"
// (3×3 patches, groups [[0,1],[2,5],[4,3],[6,7],[8]]): real mouse events select
// patches (click, ctrl-click, shift-click, rubber band), keys move the
// selection (one undo command that undo and redo restore exactly), drops built
// with the model's MIME data are accepted on a patch of another group and
// refused — changing nothing — on the same group or outside the cells, and a
// press + move on a selected patch starts a drag carrying the selection.
// QDrag::exec blocks offscreen, so the drag start is caught by overriding
// GridView::execDrag.
// Groups are written "0 1|2 5|8".

#include "TestGroups.h"
#include "document/ProjectDocument.h"
#include "grid/GridView.h"
#include "models/GroupListModel.h"

#include <QApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

PatchList patches(std::initializer_list<PatchId> ids) { return PatchList(ids); }

/// A grid view whose drag is recorded instead of run (QDrag::exec blocks).
class RecordingGridView : public GridView {
public:
    using GridView::GridView;
    int drags = 0;
    std::optional<PatchPayload> dragged;

protected:
    void execDrag(QMimeData *data) override
    {
        ++drags;
        dragged = GroupListModel::decodePatches(data);
        delete data;
    }
};

} // namespace

class TestGridDnd : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ProjectDocument> m_doc;
    std::unique_ptr<GroupListModel> m_model;
    std::unique_ptr<RecordingGridView> m_view;

    QString mine() const { return groupsText(m_doc->project().strategies.at(kMine).groups); }
    QPoint centre(int row, int col) const { return m_view->geometry().cellRect(row, col).center().toPoint(); }
    QPoint centreOf(PatchId p) const { return centre(int(p / 3), int(p % 3)); }
    void click(PatchId p, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::mouseClick(m_view.get(), Qt::LeftButton, mods, centreOf(p));
    }
    void moveMouse(const QPoint &pos, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        // Sent by hand so the held buttons are explicit.
        QMouseEvent e(QEvent::MouseMove, QPointF(pos), QPointF(m_view->mapToGlobal(pos)), Qt::NoButton, buttons, mods);
        QCoreApplication::sendEvent(m_view.get(), &e);
    }
    void resource()
    {
        const auto sim = m_doc->simulation();
        m_view->setSource(sim ? &sim->problem : &m_doc->problem(), m_doc->cursor());
    }
    /// Sends enter, move and drop of `data` at `pos`; returns whether the drop
    /// was accepted (and checks the move agreed).
    bool drop(const QMimeData *data, const QPoint &pos)
    {
        QDragEnterEvent enter(pos, Qt::MoveAction, data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &enter);
        if (!enter.isAccepted())
            return false;
        QDragMoveEvent move(pos, Qt::MoveAction, data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &move);
        QDropEvent dropEvent(QPointF(pos), Qt::MoveAction, data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &dropEvent);
        if (move.isAccepted() != dropEvent.isAccepted()) {
            qWarning("move and drop disagree");
            return false;
        }
        return dropEvent.isAccepted();
    }

private Q_SLOTS:
    void init()
    {
        m_doc = std::make_unique<ProjectDocument>();
        QCOMPARE(m_doc->load(kPaperExample), QString());
        m_doc->setCurrentStrategy(kMine);
        QTRY_VERIFY(!m_doc->busy() && m_doc->cursor());
        QCOMPARE(mine(), kMineGroups);
        m_model = std::make_unique<GroupListModel>(m_doc.get());
        m_view = std::make_unique<RecordingGridView>(GridKind::Output);
        resource();
        connect(m_doc.get(), &ProjectDocument::simulationChanged, m_view.get(), [this] { resource(); });
        m_view->setEditable(m_model.get());
        m_view->resize(400, 400);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        QCOMPARE(m_view->geometry().rows, 3);
        QCOMPARE(m_view->geometry().cols, 3);
    }

    void cleanup()
    {
        m_view.reset();
        m_model.reset();
        m_doc.reset();
    }

    void inputGridIsNeverEditable()
    {
        GridView input(GridKind::Input);
        input.setEditable(m_model.get());
        QVERIFY(!input.isEditable());
        QVERIFY(!input.acceptDrops());
        QVERIFY(m_view->acceptDrops());
    }

    void clickSelects()
    {
        QSignalSpy changed(m_view.get(), &GridView::selectionChanged);
        click(4);
        QCOMPARE(m_view->selectedPatches(), patches({4}));
        click(1);
        QCOMPARE(m_view->selectedPatches(), patches({1}));
        QCOMPARE(changed.count(), 2);
        click(1); // the same again: no change
        QCOMPARE(changed.count(), 2);
    }

    void ctrlClickToggles()
    {
        click(4);
        click(0, Qt::ControlModifier);
        QCOMPARE(m_view->selectedPatches(), patches({0, 4}));
        click(8, Qt::ControlModifier);
        QCOMPARE(m_view->selectedPatches(), patches({0, 4, 8}));
        click(4, Qt::ControlModifier);
        QCOMPARE(m_view->selectedPatches(), patches({0, 8}));
    }

    void shiftClickTakesTheRowMajorRange()
    {
        click(1);
        click(5, Qt::ShiftModifier);
        QCOMPARE(m_view->selectedPatches(), patches({1, 2, 3, 4, 5}));
        click(0, Qt::ShiftModifier); // the anchor stays at 1
        QCOMPARE(m_view->selectedPatches(), patches({0, 1}));
        click(7, Qt::ControlModifier); // ctrl moves the anchor
        click(8, Qt::ShiftModifier);
        QCOMPARE(m_view->selectedPatches(), patches({7, 8}));
    }

    void clickOutsideClears()
    {
        click(4);
        QTest::mouseClick(m_view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(2, 2));
        QCOMPARE(m_view->selectedPatches(), PatchList());
    }

    void rubberBandSelects()
    {
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::NoModifier, centre(0, 0));
        moveMouse(centre(0, 1), Qt::LeftButton);
        QCOMPARE(m_view->selectedPatches(), patches({0, 1}));
        moveMouse(centre(1, 1), Qt::LeftButton); // the band grows live
        QCOMPARE(m_view->selectedPatches(), patches({0, 1, 3, 4}));
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::NoModifier, centre(1, 1));
        QCOMPARE(m_view->selectedPatches(), patches({0, 1, 3, 4}));

        // ctrl + band adds to the selection; the band started on a patch
        // that is not selected, so it is no drag.
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::ControlModifier, centre(2, 2));
        moveMouse(centre(2, 1), Qt::LeftButton, Qt::ControlModifier);
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::ControlModifier, centre(2, 1));
        QCOMPARE(m_view->selectedPatches(), patches({0, 1, 3, 4, 7, 8}));
        QCOMPARE(m_view->drags, 0);
        QCOMPARE(m_doc->undoStack()->count(), 0);
    }

    void spaceOrMiddleDragPans()
    {
        m_view->zoomIn();
        m_view->zoomIn();
        click(4);
        const QPointF before = m_view->transform().offset;
        QTest::keyPress(m_view.get(), Qt::Key_Space);
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::NoModifier, centre(1, 1));
        moveMouse(centre(1, 1) + QPoint(30, 0), Qt::LeftButton);
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::NoModifier, centre(1, 1) + QPoint(30, 0));
        QTest::keyRelease(m_view.get(), Qt::Key_Space);
        QVERIFY(m_view->transform().offset != before);
        QCOMPARE(m_view->selectedPatches(), patches({4})); // panning keeps the selection
        QCOMPARE(m_view->drags, 0);

        const QPointF middle = m_view->transform().offset;
        const QPoint from = m_view->gridViewport().center().toPoint();
        QTest::mousePress(m_view.get(), Qt::MiddleButton, Qt::NoModifier, from);
        moveMouse(from - QPoint(0, 30), Qt::MiddleButton);
        QTest::mouseRelease(m_view.get(), Qt::MiddleButton, Qt::NoModifier, from - QPoint(0, 30));
        QVERIFY(m_view->transform().offset != middle);
        QCOMPARE(m_view->selectedPatches(), patches({4}));
    }

    void keyMovesSelectionToGroupN()
    {
        click(0);
        click(8, Qt::ControlModifier);
        QTest::keyClick(m_view.get(), Qt::Key_3);
        const QString moved = QStringLiteral("1|2 5|4 3 0 8|6 7");
        QCOMPARE(mine(), moved);
        QCOMPARE(m_doc->undoStack()->count(), 1); // one command for two patches
        QCOMPARE(m_view->selectedPatches(), patches({0, 8})); // still selected: move on
        QTRY_VERIFY(!m_doc->busy());

        m_doc->undoStack()->undo();
        QCOMPARE(mine(), kMineGroups);
        QVERIFY(m_doc->project().strategies.at(kMine).kind == StrategyKind::Groups);
        m_doc->undoStack()->redo();
        QCOMPARE(mine(), moved);
        QTRY_VERIFY(!m_doc->busy());
    }

    void keyNMakesANewGroupAndEscClears()
    {
        click(3);
        click(5, Qt::ControlModifier);
        QTest::keyClick(m_view.get(), Qt::Key_N);
        QCOMPARE(mine(), QStringLiteral("0 1|2|4|6 7|8|3 5"));
        QTRY_VERIFY(!m_doc->busy());
        QTest::keyClick(m_view.get(), Qt::Key_Escape);
        QCOMPARE(m_view->selectedPatches(), PatchList());
        // Without a selection digits do nothing.
        QTest::keyClick(m_view.get(), Qt::Key_1);
        QCOMPARE(m_doc->undoStack()->count(), 1);
    }

    void refusedKeyMoveChangesNothing()
    {
        QSignalSpy refused(m_model.get(), &GroupListModel::editRefused);
        click(0);
        click(1, Qt::ControlModifier);
        QTest::keyClick(m_view.get(), Qt::Key_1); // already all in group 1
        QTest::keyClick(m_view.get(), Qt::Key_9); // there are 5 groups
        QCOMPARE(refused.count(), 2);
        QCOMPARE(mine(), kMineGroups);
        QCOMPARE(m_doc->undoStack()->count(), 0);
    }

    void dropOnAnotherGroupMoves()
    {
        click(0);
        click(8, Qt::ControlModifier);
        std::unique_ptr<QMimeData> data(m_view->selectionMimeData());
        QVERIFY(data);
        QVERIFY(data->hasFormat(GroupListModel::mimeType()));
        QVERIFY(drop(data.get(), centreOf(2))); // onto group 2 = [2,5]
        QCOMPARE(mine(), QStringLiteral("1|2 5 0 8|4 3|6 7"));
        QCOMPARE(m_doc->undoStack()->count(), 1);
        QCOMPARE(m_view->selectedPatches(), PatchList()); // a drop clears the selection
        QTRY_VERIFY(!m_doc->busy());
        m_doc->undoStack()->undo();
        QCOMPARE(mine(), kMineGroups);
        m_doc->undoStack()->redo();
        QCOMPARE(mine(), QStringLiteral("1|2 5 0 8|4 3|6 7"));
        QTRY_VERIFY(!m_doc->busy());
    }

    void dropFromTheListModelWorksToo()
    {
        // A patch row dragged out of the group list, dropped on the grid.
        const QModelIndex patch6 = m_model->index(0, 0, m_model->index(3, 0));
        QCOMPARE(patch6.data(GroupListModel::PatchIdRole).toInt(), 6);
        std::unique_ptr<QMimeData> data(m_model->mimeData({patch6}));
        QVERIFY(drop(data.get(), centreOf(8)));
        QCOMPARE(mine(), QStringLiteral("0 1|2 5|4 3|7|8 6"));
    }

    void refusedDropsChangeNothing_data()
    {
        QTest::addColumn<QList<int>>("dragged");
        QTest::addColumn<int>("target"); // a patch, or -1: outside the cells
        QTest::addColumn<QString>("reason"); // a word of the reason

        QTest::newRow("same group") << QList<int>{0} << 1 << QStringLiteral("already in group 1");
        QTest::newRow("onto itself") << QList<int>{4} << 4 << QStringLiteral("already in group 3");
        QTest::newRow("all of them in the target") << QList<int>{2, 5} << 2 << QStringLiteral("already in group 2");
        QTest::newRow("outside") << QList<int>{0} << -1 << QStringLiteral("on a patch");
        QTest::newRow("missing patch") << QList<int>{42} << 2 << QStringLiteral("does not exist");
    }

    void refusedDropsChangeNothing()
    {
        QFETCH(QList<int>, dragged);
        QFETCH(int, target);
        QFETCH(QString, reason);
        QSignalSpy refused(m_view.get(), &GridView::dropRefused);
        PatchList list;
        for (int p : dragged)
            list.push_back(PatchId(p));
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, list));
        const QPoint pos = target < 0 ? QPoint(3, 3) : centreOf(PatchId(target));

        QDragEnterEvent enter(pos, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &enter);
        QVERIFY(enter.isAccepted()); // our MIME type: the moves decide
        QDragMoveEvent move(pos, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &move);
        QVERIFY(!move.isAccepted()); // the cursor shows "forbidden"
        QDropEvent dropEvent(QPointF(pos), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &dropEvent);
        QVERIFY(!dropEvent.isAccepted());

        QVERIFY(refused.count() >= 1);
        const QString why = refused.last().at(0).toString();
        QVERIFY2(why.contains(reason), qPrintable(why));
        QCOMPARE(mine(), kMineGroups);
        QCOMPARE(m_doc->undoStack()->count(), 0);
    }

    void hoverMessagesFollowTheDrag()
    {
        // A drag starts over its own patches: no refusal for that. A refusal
        // met on the way is withdrawn (an empty reason) once the drag moves on
        // to a target that takes the patches, or back home, so the status bar
        // never says "already in group 1" over a drop that works.
        QSignalSpy refused(m_view.get(), &GridView::dropRefused);
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, patches({0})));
        const auto hover = [&](const QPoint &pos) {
            QDragMoveEvent move(pos, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(m_view.get(), &move);
            return move.isAccepted();
        };
        QDragEnterEvent enter(centreOf(0), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &enter);
        QVERIFY(!hover(centreOf(0))); // home: nothing to drop, nothing said
        QVERIFY(!hover(centreOf(1)));
        QCOMPARE(refused.count(), 0);
        QVERIFY(!hover(QPoint(3, 3))); // off the cells
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.last().at(0).toString().contains(QLatin1String("on a patch")));
        QVERIFY(hover(centreOf(2))); // group 2 takes it: the refusal is withdrawn
        QCOMPARE(refused.count(), 2);
        QCOMPARE(refused.last().at(0).toString(), QString());
        QVERIFY(!hover(centreOf(1))); // home again: still nothing said
        QVERIFY(!hover(QPoint(3, 3)));
        QCOMPARE(refused.count(), 3);
        QVERIFY(!hover(centreOf(0))); // back home withdraws it too
        QCOMPARE(refused.count(), 4);
        QCOMPARE(refused.last().at(0).toString(), QString());
        QVERIFY(hover(centreOf(2)));
        QDropEvent dropEvent(QPointF(centreOf(2)), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &dropEvent);
        QVERIFY(dropEvent.isAccepted());
        QCOMPARE(refused.count(), 4); // the drop worked: no message
        QCOMPARE(mine(), QStringLiteral("1|2 5 0|4 3|6 7|8"));
        QTRY_VERIFY(!m_doc->busy());
    }

    void selectionWithAPatchOfTheTargetIsAccepted()
    {
        // movePatches keeps the target's own patches where they are.
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, patches({0, 2})));
        QVERIFY(drop(data.get(), centreOf(5))); // group 2 = [2, 5]
        QCOMPARE(mine(), QStringLiteral("1|2 5 0|4 3|6 7|8"));
        QCOMPARE(m_doc->undoStack()->count(), 1);
        QTRY_VERIFY(!m_doc->busy());
        m_doc->undoStack()->undo();
        QCOMPARE(mine(), kMineGroups);
    }

    void dropOnAnUnassignedPatchUnassigns()
    {
        QCOMPARE(m_model->unassignPatches(patches({4})), QString());
        QCOMPARE(mine(), QStringLiteral("0 1|2 5|3|6 7|8"));
        std::unique_ptr<QMimeData> data(GroupListModel::encodePatches(kMine, patches({0, 8})));
        QVERIFY(drop(data.get(), centreOf(4)));
        QCOMPARE(mine(), QStringLiteral("1|2 5|3|6 7"));
        QCOMPARE(m_doc->undoStack()->count(), 2);
        // Patches already in no group: the core refuses, nothing changes.
        QSignalSpy refused(m_view.get(), &GridView::dropRefused);
        std::unique_ptr<QMimeData> pool(GroupListModel::encodePatches(kMine, patches({0, 4})));
        QVERIFY(!drop(pool.get(), centreOf(8)));
        QVERIFY(!refused.isEmpty() && refused.last().at(0).toString().contains(QLatin1String("not in any group")));
        QCOMPARE(m_doc->undoStack()->count(), 2);
        QTRY_VERIFY(!m_doc->busy());
        m_doc->undoStack()->undo();
        QCOMPARE(mine(), QStringLiteral("0 1|2 5|3|6 7|8"));
        m_doc->undoStack()->redo();
        QCOMPARE(mine(), QStringLiteral("1|2 5|3|6 7"));
        QTRY_VERIFY(!m_doc->busy());
    }

    void foreignDataIsNotEntered()
    {
        QMimeData text;
        text.setText(QStringLiteral("0 1"));
        QDragEnterEvent enter(centreOf(2), Qt::MoveAction, &text, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &enter);
        QVERIFY(!enter.isAccepted());

        // Patches of another strategy are refused on the cells.
        std::unique_ptr<QMimeData> other(GroupListModel::encodePatches(0, patches({0})));
        QVERIFY(!drop(other.get(), centreOf(2)));
        QCOMPARE(m_doc->undoStack()->count(), 0);
    }

    void dragOfTheSelectionStarts()
    {
        click(0);
        click(8, Qt::ControlModifier);
        const QPoint from = centreOf(8);
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::NoModifier, from);
        moveMouse(from + QPoint(1, 0), Qt::LeftButton); // below the drag distance
        QCOMPARE(m_view->drags, 0);
        moveMouse(from + QPoint(QApplication::startDragDistance() + 2, 0), Qt::LeftButton);
        QCOMPARE(m_view->drags, 1);
        QVERIFY(m_view->dragged);
        QCOMPARE(m_view->dragged->strategy, kMine);
        QCOMPARE(m_view->dragged->wholeGroup, false);
        QCOMPARE(m_view->dragged->patches, patches({0, 8}));
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::NoModifier, from);
        QCOMPARE(m_view->selectedPatches(), patches({0, 8})); // no band, no re-click
        QCOMPARE(m_doc->undoStack()->count(), 0);

        // A press on a selected patch released in place selects just it.
        QTest::mouseClick(m_view.get(), Qt::LeftButton, Qt::NoModifier, from);
        QCOMPARE(m_view->selectedPatches(), patches({8}));
    }

    void selectionSurvivesEditsButNotAnotherStrategy()
    {
        click(6);
        QTest::keyClick(m_view.get(), Qt::Key_1);
        QCOMPARE(m_view->selectedPatches(), patches({6}));
        QTRY_VERIFY(!m_doc->busy());
        m_doc->setCurrentStrategy(0);
        QCOMPARE(m_view->selectedPatches(), PatchList());
        QTRY_VERIFY(!m_doc->busy());
    }

    void screenshot()
    {
        QVERIFY(m_view->style().legend);
        click(0);
        click(4, Qt::ControlModifier);
        click(8, Qt::ControlModifier);
        QDir().mkpath(QStringLiteral("/tmp/dnd-shots"));
        QVERIFY(m_view->grab().save(QStringLiteral("/tmp/dnd-shots/selection.png")));
        // With a drop target under a drag.
        std::unique_ptr<QMimeData> data(m_view->selectionMimeData());
        QDragEnterEvent enter(centreOf(2), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &enter);
        QDragMoveEvent move(centreOf(2), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_view.get(), &move);
        QVERIFY(move.isAccepted());
        QVERIFY(m_view->grab().save(QStringLiteral("/tmp/dnd-shots/drop-target.png")));
        QDragLeaveEvent leave;
        QCoreApplication::sendEvent(m_view.get(), &leave);
    }
};

QTEST_MAIN(TestGridDnd)
#include "tst_griddnd.moc"
