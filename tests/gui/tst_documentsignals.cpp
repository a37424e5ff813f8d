// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The document's fine-grained signals and the models that follow them, on the
// paper's Example (strategies S1-baseline, Row-by-Row, ZigZag, "Mine"):
// adding, removing and redefining a strategy emit about-to/done pairs with the
// right indices; the strategy list inserts, removes and updates rows without a
// reset; the group tree of the strategy shown is updated in place, so that in
// the Groups dock expanded groups stay expanded and selected patches stay
// selected through a drop, its undo and its redo; the step table does not reset
// for edits that leave the steps as they were. QAbstractItemModelTester (Fatal)
// watches every model through every edit, undo and redo.

#include "TestGroups.h"

#include "document/AddStrategyCommand.h"
#include "document/ChangeStrategyCommand.h"
#include "document/EditProblemCommand.h"
#include "document/ProjectDocument.h"
#include "document/RemoveStrategyCommand.h"
#include "models/GroupListModel.h"
#include "models/StepTableModel.h"
#include "models/StrategyListModel.h"
#include "panels/GroupsPanel.h"

#include <QAbstractItemModelTester>
#include <QListView>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

constexpr int kZigZag = 2; // kMine = 3: TestGroups.h

const StrategySpec &spec(const ProjectDocument &doc, int index) { return doc.project().strategies.at(std::size_t(index)); }

QString nameAt(const QAbstractItemModel &model, int row) { return model.index(row, 0).data().toString(); }

/// The patch ids of the selected patch rows, sorted.
QList<int> selectedPatches(const QTreeView &view)
{
    QList<int> ids;
    for (const QModelIndex &i : view.selectionModel()->selectedIndexes())
        if (i.parent().isValid())
            ids << i.data(GroupListModel::PatchIdRole).toInt();
    std::sort(ids.begin(), ids.end());
    return ids;
}

/// The top-level row holding patch `patch`.
int groupOf(const GroupListModel &model, int patch)
{
    for (int row = 0; row < model.rowCount(); ++row)
        for (int i = 0; i < model.rowCount(model.index(row, 0)); ++i)
            if (model.index(i, 0, model.index(row, 0)).data(GroupListModel::PatchIdRole).toInt() == patch)
                return row;
    return -1;
}

/// The index of patch `patch` in the tree.
QModelIndex patchIndex(const GroupListModel &model, int patch)
{
    const int row = groupOf(model, patch);
    if (row < 0)
        return {};
    const QModelIndex group = model.index(row, 0);
    for (int i = 0; i < model.rowCount(group); ++i)
        if (model.index(i, 0, group).data(GroupListModel::PatchIdRole).toInt() == patch)
            return model.index(i, 0, group);
    return {};
}

/// Which top-level rows are expanded, as "+" / "-" per row ("+-++++").
QString expansion(const QTreeView &view)
{
    QString out;
    for (int row = 0; row < view.model()->rowCount(); ++row)
        out += view.isExpanded(view.model()->index(row, 0)) ? QLatin1Char('+') : QLatin1Char('-');
    return out;
}

using Tester = QAbstractItemModelTester;
constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

} // namespace

/// Loads the paper's Example and selects `strategy`; waits for its simulation.
#define LOAD_PAPER(doc, strategy)                                                                                                \
    do {                                                                                                                         \
        QCOMPARE((doc).load(kPaperExample), QString());                                                                          \
        (doc).setCurrentStrategy(strategy);                                                                                      \
        QTRY_VERIFY(!(doc).busy() && (doc).simulation() && (doc).simulation()->spec == spec((doc), (strategy)));                 \
    } while (false)

class TestDocumentSignals : public QObject {
    Q_OBJECT
private slots:
    void strategySignalPairs()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        StrategyListModel strategies(&doc);
        GroupListModel groups(&doc);
        StepTableModel steps(&doc);
        Tester t1(&strategies, kFatal), t2(&groups, kFatal), t3(&steps, kFatal);

        QSignalSpy aboutToInsert(&doc, &ProjectDocument::strategyAboutToBeInserted);
        QSignalSpy inserted(&doc, &ProjectDocument::strategyInserted);
        QSignalSpy aboutToRemove(&doc, &ProjectDocument::strategyAboutToBeRemoved);
        QSignalSpy removed(&doc, &ProjectDocument::strategyRemoved);
        QSignalSpy changed(&doc, &ProjectDocument::strategyChanged);
        QSignalSpy groupsChanged(&doc, &ProjectDocument::groupsChanged);
        QSignalSpy reset(&strategies, &QAbstractItemModel::modelReset);
        QSignalSpy rowsInserted(&strategies, &QAbstractItemModel::rowsInserted);
        QSignalSpy rowsRemoved(&strategies, &QAbstractItemModel::rowsRemoved);
        QSignalSpy dataChanged(&strategies, &QAbstractItemModel::dataChanged);
        const auto clear = [&] {
            for (QSignalSpy *spy :
                {&aboutToInsert, &inserted, &aboutToRemove, &removed, &changed, &groupsChanged, &rowsInserted, &rowsRemoved})
                spy->clear();
        };
        // Each pair: about-to with the index while the list is as before, done
        // once it has changed.
        int countAtAboutTo = -1, countAtDone = -1;
        connect(&doc, &ProjectDocument::strategyAboutToBeInserted, this,
            [&] { countAtAboutTo = int(doc.project().strategies.size()); });
        connect(&doc, &ProjectDocument::strategyInserted, this, [&] { countAtDone = int(doc.project().strategies.size()); });
        connect(&doc, &ProjectDocument::strategyAboutToBeRemoved, this,
            [&] { countAtAboutTo = int(doc.project().strategies.size()); });
        connect(&doc, &ProjectDocument::strategyRemoved, this, [&] { countAtDone = int(doc.project().strategies.size()); });

        // Add at 1.
        StrategySpec zz;
        zz.name = "ZigZag G=1";
        zz.kind = StrategyKind::ZigZag;
        zz.group_size = 1;
        doc.undoStack()->push(new AddStrategyCommand(&doc, 1, zz));
        QCOMPARE(aboutToInsert.count(), 1);
        QCOMPARE(aboutToInsert.at(0).at(0).toInt(), 1);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(0).toInt(), 1);
        QCOMPARE(countAtAboutTo, 4);
        QCOMPARE(countAtDone, 5);
        QCOMPARE(rowsInserted.count(), 1);
        QCOMPARE(rowsInserted.at(0).at(1).toInt(), 1);
        QCOMPARE(rowsInserted.at(0).at(2).toInt(), 1);
        QCOMPARE(strategies.rowCount(), 5);
        QCOMPARE(nameAt(strategies, 1), QStringLiteral("ZigZag G=1"));
        QCOMPARE(nameAt(strategies, 4), QStringLiteral("Mine"));
        QCOMPARE(doc.currentStrategy(), 1); // the new strategy is shown, as before
        QCOMPARE(aboutToRemove.count() + removed.count() + changed.count(), 0);

        // Its undo removes row 1, its redo inserts it again.
        clear();
        doc.undoStack()->undo();
        QCOMPARE(aboutToRemove.count(), 1);
        QCOMPARE(aboutToRemove.at(0).at(0).toInt(), 1);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.at(0).at(0).toInt(), 1);
        QCOMPARE(countAtAboutTo, 5);
        QCOMPARE(countAtDone, 4);
        QCOMPARE(rowsRemoved.count(), 1);
        QCOMPARE(rowsRemoved.at(0).at(1).toInt(), 1);
        QCOMPARE(nameAt(strategies, 1), QStringLiteral("Row-by-Row"));
        clear();
        doc.undoStack()->redo();
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(0).toInt(), 1);
        QCOMPARE(rowsInserted.count(), 1);
        doc.undoStack()->undo();
        QTRY_VERIFY(!doc.busy());

        // Remove the first strategy, undo, redo.
        clear();
        doc.undoStack()->push(new RemoveStrategyCommand(&doc, 0));
        QCOMPARE(aboutToRemove.count(), 1);
        QCOMPARE(aboutToRemove.at(0).at(0).toInt(), 0);
        QCOMPARE(removed.at(0).at(0).toInt(), 0);
        QCOMPARE(rowsRemoved.count(), 1);
        QCOMPARE(rowsRemoved.at(0).at(1).toInt(), 0);
        QCOMPARE(nameAt(strategies, 0), QStringLiteral("Row-by-Row"));
        doc.undoStack()->undo();
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(0).toInt(), 0);
        QCOMPARE(rowsInserted.count(), 1);
        QCOMPARE(nameAt(strategies, 0), QStringLiteral("S1-baseline"));
        doc.undoStack()->redo();
        QCOMPARE(removed.count(), 2);
        doc.undoStack()->undo();
        QTRY_VERIFY(!doc.busy());

        // Rename ZigZag: one strategyChanged(2), one dataChanged of row 2, the
        // groups are not touched.
        clear();
        dataChanged.clear();
        StrategySpec renamed = spec(doc, kZigZag);
        renamed.name = "Zag";
        doc.undoStack()->push(new ChangeStrategyCommand(&doc, kZigZag, renamed, QStringLiteral("Rename")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toInt(), kZigZag);
        QCOMPARE(groupsChanged.count(), 0);
        QCOMPARE(dataChanged.count(), 1);
        QCOMPARE(dataChanged.at(0).at(0).toModelIndex(), strategies.index(kZigZag));
        QCOMPARE(dataChanged.at(0).at(1).toModelIndex(), strategies.index(kZigZag));
        QCOMPARE(nameAt(strategies, kZigZag), QStringLiteral("Zag"));
        doc.undoStack()->undo();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(nameAt(strategies, kZigZag), QStringLiteral("ZigZag"));
        doc.undoStack()->redo();
        QCOMPARE(changed.count(), 3);

        // Editing groups says which strategy's groups changed.
        clear();
        StrategySpec regrouped = spec(doc, kMine);
        regrouped.groups = parseGroups(QStringLiteral("0 1|2 5|4 3|6|7|8"));
        doc.undoStack()->push(new ChangeStrategyCommand(&doc, kMine, regrouped, QStringLiteral("Split")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(groupsChanged.count(), 1);
        QCOMPARE(groupsChanged.at(0).at(0).toInt(), kMine);
        doc.undoStack()->undo();
        QCOMPARE(groupsChanged.count(), 2);

        QTRY_VERIFY(!doc.busy());
        QCOMPARE(reset.count(), 0);
        QCOMPARE(strategies.rowCount(), 4);

        // Only a new project resets the list, once, in an about-to/done pair.
        QSignalSpy aboutToReset(&doc, &ProjectDocument::projectAboutToBeReset);
        QSignalSpy projectReset(&doc, &ProjectDocument::projectReset);
        int countAtAboutToReset = -1;
        connect(&doc, &ProjectDocument::projectAboutToBeReset, this,
            [&] { countAtAboutToReset = int(doc.project().strategies.size()); });
        doc.undoStack()->push(new RemoveStrategyCommand(&doc, 0));
        QCOMPARE(doc.load(kPaperExample), QString());
        QCOMPARE(countAtAboutToReset, 3);
        QCOMPARE(aboutToReset.count(), 1);
        QCOMPARE(projectReset.count(), 1);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(strategies.rowCount(), 4);
        QTRY_VERIFY(!doc.busy());
    }

    void strategySelectionSurvives()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        StrategyListModel model(&doc);
        Tester tester(&model, kFatal);
        // A view of its own, so that only the model's signals move its selection.
        QListView view;
        view.setModel(&model);
        view.setSelectionMode(QAbstractItemView::SingleSelection);
        view.setCurrentIndex(model.index(kZigZag));
        const auto selected = [&] {
            const QModelIndexList rows = view.selectionModel()->selectedIndexes();
            return rows.size() == 1 && view.currentIndex() == rows.front() ? rows.front().data().toString() : QString();
        };
        QCOMPARE(selected(), QStringLiteral("ZigZag"));

        StrategySpec s1;
        s1.name = "Another";
        s1.kind = StrategyKind::S1Baseline;
        doc.undoStack()->push(new AddStrategyCommand(&doc, 0, s1)); // before the selection
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QCOMPARE(view.currentIndex().row(), kZigZag + 1);
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QCOMPARE(view.currentIndex().row(), kZigZag);
        doc.undoStack()->redo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        doc.undoStack()->undo();

        doc.undoStack()->push(new AddStrategyCommand(&doc, 4, s1)); // after it
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));

        doc.undoStack()->push(new RemoveStrategyCommand(&doc, 0));
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QCOMPARE(view.currentIndex().row(), kZigZag - 1);
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QCOMPARE(view.currentIndex().row(), kZigZag);

        StrategySpec renamed = spec(doc, kMine);
        renamed.name = "Hand-made";
        doc.undoStack()->push(new ChangeStrategyCommand(&doc, kMine, renamed, QStringLiteral("Rename")));
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        doc.undoStack()->undo();
        QCOMPARE(selected(), QStringLiteral("ZigZag"));
        QTRY_VERIFY(!doc.busy());
    }

    void groupTreeKeepsExpansionAndSelection()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupsPanel panel(&doc);
        panel.resize(320, 480);
        panel.QWidget::show(); // GroupsPanel::show(QString) shows a message
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        GroupListModel &model = *panel.model();
        QTreeView &view = *panel.view();
        Tester tester(&model, kFatal);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QCOMPARE(groupsText(model.groups()), kMineGroups); // 0 1|2 5|4 3|6 7|8

        // Group 1 (0 1) collapsed, the others open; patches 5 and 7 selected.
        view.expandToDepth(0); // as the panel does for a new tree
        QCOMPARE(expansion(view), QStringLiteral("++++++"));
        view.collapse(model.index(0, 0));
        view.selectionModel()->select(patchIndex(model, 5), QItemSelectionModel::Select);
        view.selectionModel()->select(patchIndex(model, 7), QItemSelectionModel::Select);
        view.selectionModel()->setCurrentIndex(patchIndex(model, 7), QItemSelectionModel::NoUpdate);
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));

        // Drag the selection onto group 3 (4 3), as the view does on a drop.
        std::unique_ptr<QMimeData> data(model.mimeData(view.selectionModel()->selectedIndexes()));
        QVERIFY(data);
        QVERIFY(model.dropMimeData(data.get(), Qt::MoveAction, -1, 0, model.index(2, 0)));
        QCOMPARE(groupsText(spec(doc, kMine).groups), QStringLiteral("0 1|2|4 3 5 7|6|8"));
        QCOMPARE(groupsText(model.groups()), QStringLiteral("0 1|2|4 3 5 7|6|8"));
        QCOMPARE(expansion(view), QStringLiteral("-+++++"));
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));
        QCOMPARE(groupOf(model, 5), 2);
        QCOMPARE(view.currentIndex(), patchIndex(model, 7));

        doc.undoStack()->undo();
        QCOMPARE(groupsText(model.groups()), kMineGroups);
        QCOMPARE(expansion(view), QStringLiteral("-+++++"));
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));
        QCOMPARE(view.currentIndex(), patchIndex(model, 7));
        QCOMPARE(groupOf(model, 7), 3);

        doc.undoStack()->redo();
        QCOMPARE(groupsText(model.groups()), QStringLiteral("0 1|2|4 3 5 7|6|8"));
        QCOMPARE(expansion(view), QStringLiteral("-+++++"));
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));
        doc.undoStack()->undo();

        // A reordered group keeps its state at its new row.
        QCOMPARE(model.moveGroup(0, 2), QString());
        QCOMPARE(groupsText(model.groups()), QStringLiteral("2 5|4 3|0 1|6 7|8"));
        QCOMPARE(expansion(view), QStringLiteral("++-+++"));
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));
        doc.undoStack()->undo();
        QCOMPARE(expansion(view), QStringLiteral("-+++++"));

        // A new group opens; the groups around it keep their state.
        QCOMPARE(model.newGroup({1}), QString());
        QCOMPARE(groupsText(model.groups()), QStringLiteral("0|2 5|4 3|6 7|8|1"));
        QCOMPARE(expansion(view), QStringLiteral("-++++++"));
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));
        doc.undoStack()->undo();
        QCOMPARE(expansion(view), QStringLiteral("-+++++"));
        QCOMPARE(selectedPatches(view), (QList<int>{5, 7}));

        QTRY_VERIFY(!doc.busy());
        QCOMPARE(reset.count(), 0);
    }

    void groupTreeThroughEveryEdit_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("after");
        QTest::newRow("move") << "move 7 to 0"
                              << "0 1 7|2 5|4 3|6|8";
        QTest::newRow("new group") << "new group 2 4"
                                   << "0 1|5|3|6 7|8|2 4";
        QTest::newRow("reorder") << "move group 4 to 0"
                                 << "8|0 1|2 5|4 3|6 7";
        QTest::newRow("split") << "split 5 off 1"
                               << "0 1|2|5|4 3|6 7|8";
        QTest::newRow("merge") << "merge 3 into 0"
                               << "0 1 6 7|2 5|4 3|8";
        QTest::newRow("merge all") << "merge all"
                                   << "0 1 2 5 4 3 6 7 8";
        QTest::newRow("unassign") << "unassign 3 8"
                                  << "0 1|2 5|4|6 7";
    }

    void groupTreeThroughEveryEdit()
    {
        QFETCH(QString, edit);
        QFETCH(QString, after);
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        Tester tester(&model, kFatal);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
        const auto groups = [&] { return groupsText(model.groups()); };
        // A view with every patch selected: each patch stays selected wherever it goes.
        QTreeView view;
        view.setModel(&model);
        view.setSelectionMode(QAbstractItemView::ExtendedSelection);
        view.expandAll();
        for (int patch = 0; patch < 9; ++patch)
            view.selectionModel()->select(patchIndex(model, patch), QItemSelectionModel::Select);
        const QList<int> all{0, 1, 2, 3, 4, 5, 6, 7, 8};
        QCOMPARE(selectedPatches(view), all);

        QString refused = QStringLiteral("unknown edit");
        if (edit == QLatin1String("move 7 to 0"))
            refused = model.moveToGroup({7}, 0);
        else if (edit == QLatin1String("new group 2 4"))
            refused = model.newGroup({2, 4});
        else if (edit == QLatin1String("move group 4 to 0"))
            refused = model.moveGroup(4, 0);
        else if (edit == QLatin1String("split 5 off 1"))
            refused = model.split(1, {5});
        else if (edit == QLatin1String("merge 3 into 0"))
            refused = model.merge(0, 3);
        else if (edit == QLatin1String("merge all"))
            refused = model.mergeAll({0, 1, 2, 3, 4});
        else if (edit == QLatin1String("unassign 3 8"))
            refused = model.unassignPatches({3, 8});
        QCOMPARE(refused, QString());
        QCOMPARE(groups(), after);
        QCOMPARE(selectedPatches(view), all);
        doc.undoStack()->undo();
        QCOMPARE(groups(), kMineGroups);
        QCOMPARE(selectedPatches(view), all);
        doc.undoStack()->redo();
        QCOMPARE(groups(), after);
        QCOMPARE(selectedPatches(view), all);
        doc.undoStack()->undo();
        QCOMPARE(groups(), kMineGroups);
        QCOMPARE(selectedPatches(view), all);
        QCOMPARE(model.unassignedRow(), 5);
        QCOMPARE(layout.count(), 4); // edit, undo, redo, undo: one layout change each

        // An edit of the problem updates the tree in place too.
        Problem p = doc.problem();
        p.hardware.mem_size += 1;
        doc.undoStack()->push(new EditProblemCommand(&doc, p, QStringLiteral("hardware.mem_size")));
        doc.undoStack()->undo();
        QCOMPARE(groups(), kMineGroups);
        QTRY_VERIFY(!doc.busy());
        QCOMPARE(reset.count(), 0);

        // Another strategy shown: a new tree.
        doc.setCurrentStrategy(kZigZag);
        QCOMPARE(reset.count(), 1);
        QTRY_VERIFY(!doc.busy());
    }

    void stepTableResetsOnlyForOtherSteps()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kZigZag);
        StepTableModel model(&doc);
        Tester tester(&model, kFatal);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QCOMPARE(model.rowCount(), 6);

        // Renaming the strategy shown resimulates it: the same steps, updated in place.
        StrategySpec renamed = spec(doc, kZigZag);
        renamed.name = "Zag";
        doc.undoStack()->push(new ChangeStrategyCommand(&doc, kZigZag, renamed, QStringLiteral("Rename")));
        QTRY_VERIFY(!doc.busy() && doc.simulation()->spec == renamed);
        // Edits of other strategies do not touch the simulation.
        StrategySpec mine = spec(doc, kMine);
        mine.groups = parseGroups(QStringLiteral("0 1|2 5|4 3|6|7|8"));
        doc.undoStack()->push(new ChangeStrategyCommand(&doc, kMine, mine, QStringLiteral("Split")));
        QTRY_VERIFY(!doc.busy());
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QTRY_VERIFY(!doc.busy() && doc.simulation()->spec == spec(doc, kZigZag));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.rowCount(), 6);

        // Another strategy has other steps: a reset.
        doc.setCurrentStrategy(0);
        QTRY_VERIFY(!doc.busy() && doc.simulation()->spec == spec(doc, 0));
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(reset.count(), 1);
    }
};

QTEST_MAIN(TestDocumentSignals)
#include "tst_documentsignals.moc"
