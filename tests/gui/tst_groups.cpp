// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The group list model on the paper's Example, strategy "Mine"
// (groups [[0,1],[2,5],[4,3],[6,7],[8]], nb_patches_max 2): drags built with
// the model's own mimeData and dropped with dropMimeData give the groups worked
// out by hand, each as ONE undo command that undo and redo restore exactly;
// refused drops change nothing; editing a heuristic makes an edited copy; the
// document resimulates after an edit and flags a group that is too big.
// QAbstractItemModelTester (Fatal) watches the model through every edit.
// Groups are written "0 1|2 5|8"; indexes "g1" (top-level row 1), "g1.0"
// (its first patch), "u" (the unassigned row), "u.0" (its first patch).

#include "TestGroups.h"
#include "document/ProjectDocument.h"
#include "models/GroupListModel.h"

#include <QAbstractItemModelTester>
#include <QDataStream>
#include <QIODevice>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

constexpr int kZigZag = 2; // kMine = 3 and the sample: TestGroups.h

QModelIndex indexAt(const GroupListModel &model, const QString &where)
{
    const QStringList parts = where.split(QLatin1Char('.'));
    const int top = parts[0] == QLatin1String("u") ? model.unassignedRow() : parts[0].mid(1).toInt();
    const QModelIndex topIndex = model.index(top, 0);
    return parts.size() == 1 ? topIndex : model.index(parts[1].toInt(), 0, topIndex);
}

QModelIndexList indexesAt(const GroupListModel &model, const QString &list)
{
    QModelIndexList out;
    for (const QString &where : list.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out << indexAt(model, where);
    return out;
}

/// A drop target: "on g2" / "on g2.1" / "on u" (parent, row -1), "between 3"
/// (invalid parent, row 3), "end" (invalid parent, row -1).
struct Target {
    int row = -1;
    QModelIndex parent;
};

Target targetAt(const GroupListModel &model, const QString &text)
{
    if (text.startsWith(QLatin1String("on ")))
        return {-1, indexAt(model, text.mid(3))};
    if (text.startsWith(QLatin1String("between ")))
        return {text.mid(8).toInt(), {}};
    return {};
}

/// The payload format of application/x-convoffload-patches, written by hand.
QByteArray payload(qint32 strategy, bool whole, qint32 group, const QList<quint32> &patches)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << strategy << quint8(whole) << group << quint32(patches.size());
    for (quint32 p : patches)
        out << p;
    return bytes;
}

std::unique_ptr<QMimeData> mime(const QByteArray &bytes, const QString &type = GroupListModel::mimeType())
{
    auto data = std::make_unique<QMimeData>();
    data->setData(type, bytes);
    return data;
}

const StrategySpec &spec(const ProjectDocument &doc, int index) { return doc.project().strategies.at(std::size_t(index)); }

/// Loads the paper's Example and selects `strategy`; waits for its simulation.
#define LOAD_PAPER(doc, strategy)                                                                                                \
    do {                                                                                                                         \
        QCOMPARE((doc).load(kPaperExample), QString());                                                                          \
        (doc).setCurrentStrategy(strategy);                                                                                      \
        QTRY_VERIFY(!(doc).busy() && (doc).simulation() && (doc).simulation()->spec == spec((doc), (strategy)));                 \
    } while (false)

} // namespace

namespace QTest {
template <> inline char *toString(const convoffload::Groups &groups)
{
    std::string text;
    for (const auto &g : groups) {
        text += "[";
        for (auto p : g)
            text += std::to_string(p) + " ";
        text += "]";
    }
    return qstrdup(text.c_str());
}
template <> inline char *toString(const convoffload::PatchList &patches) { return toString(convoffload::Groups{patches}); }
template <> inline char *toString(const convoffload::StrategySpec &s)
{
    std::string text = s.name + " (" + convoffload::strategyKindName(s.kind) + ")";
    if (s.group_size)
        text += " G=" + std::to_string(*s.group_size);
    for (const auto &g : s.groups) {
        text += " [";
        for (auto p : g)
            text += std::to_string(p) + " ";
        text += "]";
    }
    return qstrdup(text.c_str());
}
} // namespace QTest

class TestGroups : public QObject {
    Q_OBJECT
private slots:
    void shape()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("Group 2 — 2 patches"));
        QCOMPARE(model.index(4, 0).data().toString(), QStringLiteral("Group 5 — 1 patch"));
        QCOMPARE(model.index(5, 0).data().toString(), QStringLiteral("Unassigned (0)"));
        QCOMPARE(model.rowCount(model.index(5, 0)), 0);
        const QModelIndex patch3 = indexAt(model, QStringLiteral("g2.1"));
        QCOMPARE(patch3.data().toString(), QStringLiteral("patch 3 (1,0)"));
        QCOMPARE(patch3.data(GroupListModel::PatchIdRole).toInt(), 3);
        QCOMPARE(patch3.data(GroupListModel::GroupIndexRole).toInt(), 2);
        QCOMPARE(patch3.data(GroupListModel::IsUnassignedRole).toBool(), false);
        QCOMPARE(model.index(5, 0).data(GroupListModel::IsUnassignedRole).toBool(), true);
        QCOMPARE(model.index(5, 0).data(GroupListModel::GroupIndexRole).toInt(), -1);
        QCOMPARE(model.index(2, 0).data(GroupListModel::PatchCountRole).toInt(), 2);
        QVERIFY(model.flags({}) & Qt::ItemIsDropEnabled);
        QVERIFY(model.flags(model.index(0, 0)) & Qt::ItemIsDragEnabled);
        QVERIFY(!(model.flags(model.index(5, 0)) & Qt::ItemIsDragEnabled)); // nothing unassigned to drag
        QCOMPARE(model.mimeTypes(), QStringList{GroupListModel::mimeType()});

        // Another strategy selected: the model follows it.
        doc.setCurrentStrategy(0); // S1-baseline: nine groups of one patch
        QCOMPARE(model.rowCount(), 10);
    }

    void drops_data()
    {
        QTest::addColumn<QString>("drag");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("text");
        QTest::newRow("patch onto a group row")
            << QStringLiteral("g1.1") << QStringLiteral("on g0") << QStringLiteral("0 1 5|2|4 3|6 7|8")
            << QStringLiteral("Move 1 patch to group 1");
        QTest::newRow("patch onto a patch of a group")
            << QStringLiteral("g1.1") << QStringLiteral("on g4.0") << QStringLiteral("0 1|2|4 3|6 7|8 5")
            << QStringLiteral("Move 1 patch to group 5");
        QTest::newRow("two patches from two groups")
            << QStringLiteral("g3.1 g1.0") << QStringLiteral("on g4") << QStringLiteral("0 1|5|4 3|6|8 7 2")
            << QStringLiteral("Move 2 patches to group 5");
        QTest::newRow("whole group onto a group: emptied one dropped")
            << QStringLiteral("g4") << QStringLiteral("on g0") << QStringLiteral("0 1 8|2 5|4 3|6 7")
            << QStringLiteral("Move 1 patch to group 1");
        QTest::newRow("patch between rows: new group")
            << QStringLiteral("g2.1") << QStringLiteral("between 0") << QStringLiteral("3|0 1|2 5|4|6 7|8")
            << QStringLiteral("Move 1 patch to a new group");
        QTest::newRow("all patches of a group as patches")
            << QStringLiteral("g0.0 g0.1") << QStringLiteral("between 3") << QStringLiteral("2 5|4 3|0 1|6 7|8")
            << QStringLiteral("Move 2 patches to a new group");
        QTest::newRow("whole group down") << QStringLiteral("g0") << QStringLiteral("between 3")
                                          << QStringLiteral("2 5|4 3|0 1|6 7|8") << QStringLiteral("Move group 1 to position 3");
        QTest::newRow("whole group to the top")
            << QStringLiteral("g4") << QStringLiteral("between 0") << QStringLiteral("8|0 1|2 5|4 3|6 7")
            << QStringLiteral("Move group 5 to position 1");
        QTest::newRow("whole group below the list")
            << QStringLiteral("g1") << QStringLiteral("end") << QStringLiteral("0 1|4 3|6 7|8|2 5")
            << QStringLiteral("Move group 2 to position 5");
        QTest::newRow("whole group after the unassigned row")
            << QStringLiteral("g1") << QStringLiteral("between 6") << QStringLiteral("0 1|4 3|6 7|8|2 5")
            << QStringLiteral("Move group 2 to position 5");
        QTest::newRow("patch onto unassigned") << QStringLiteral("g3.0") << QStringLiteral("on u")
                                               << QStringLiteral("0 1|2 5|4 3|7|8") << QStringLiteral("Unassign 1 patch");
        QTest::newRow("group onto unassigned") << QStringLiteral("g2") << QStringLiteral("on u")
                                               << QStringLiteral("0 1|2 5|6 7|8") << QStringLiteral("Unassign 2 patches");
    }
    void drops()
    {
        QFETCH(QString, drag);
        QFETCH(QString, target);
        QFETCH(QString, after);
        QFETCH(QString, text);
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const StrategySpec before = spec(doc, kMine);

        std::unique_ptr<QMimeData> data(model.mimeData(indexesAt(model, drag)));
        QVERIFY(data);
        const Target t = targetAt(model, target);
        QVERIFY(model.canDropMimeData(data.get(), Qt::MoveAction, t.row, 0, t.parent));
        QVERIFY(model.dropMimeData(data.get(), Qt::MoveAction, t.row, 0, t.parent));

        StrategySpec expected = before;
        expected.groups = parseGroups(after);
        QCOMPARE(spec(doc, kMine), expected);
        QCOMPARE(model.groups(), expected.groups);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), text);
        QVERIFY(doc.isModified());

        doc.undoStack()->undo();
        QCOMPARE(spec(doc, kMine), before);
        QCOMPARE(model.groups(), before.groups);
        doc.undoStack()->redo();
        QCOMPARE(spec(doc, kMine), expected);
        QCOMPARE(model.rowCount(), int(expected.groups.size()) + 1);
    }

    void dragFromUnassigned()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model.unassignPatches({6, 7, 2}), QString()); // -> 0 1|5|4 3|8, pool 2 6 7
        QCOMPARE(spec(doc, kMine).groups, parseGroups(QStringLiteral("0 1|5|4 3|8")));
        QCOMPARE(model.index(model.unassignedRow(), 0).data().toString(), QStringLiteral("Unassigned (3)"));
        QCOMPARE(indexAt(model, QStringLiteral("u.1")).data(GroupListModel::PatchIdRole).toInt(), 6);

        // One pooled patch onto a group, then the whole pool into a new group.
        std::unique_ptr<QMimeData> one(model.mimeData(indexesAt(model, QStringLiteral("u.0"))));
        QVERIFY(model.dropMimeData(one.get(), Qt::MoveAction, -1, 0, indexAt(model, QStringLiteral("g1"))));
        QCOMPARE(spec(doc, kMine).groups, parseGroups(QStringLiteral("0 1|5 2|4 3|8")));
        std::unique_ptr<QMimeData> pool(model.mimeData(indexesAt(model, QStringLiteral("u"))));
        QVERIFY(model.dropMimeData(pool.get(), Qt::MoveAction, 3, 0, {}));
        QCOMPARE(spec(doc, kMine).groups, parseGroups(QStringLiteral("0 1|5 2|4 3|6 7|8")));
        QCOMPARE(model.unassigned(), PatchList{});

        // A pooled patch dropped on the pool again changes nothing.
        QCOMPARE(model.unassignPatches({6}), QString());
        std::unique_ptr<QMimeData> back(model.mimeData(indexesAt(model, QStringLiteral("u.0"))));
        const int count = doc.undoStack()->count();
        QVERIFY(!model.canDropMimeData(back.get(), Qt::MoveAction, -1, 0, indexAt(model, QStringLiteral("u"))));
        QVERIFY(!model.dropMimeData(back.get(), Qt::MoveAction, -1, 0, indexAt(model, QStringLiteral("u"))));
        QCOMPARE(doc.undoStack()->count(), count);

        // Undo walks every state back to the file's groups.
        while (doc.undoStack()->canUndo())
            doc.undoStack()->undo();
        QCOMPARE(spec(doc, kMine).groups, parseGroups(QStringLiteral("0 1|2 5|4 3|6 7|8")));
    }

    void refusedDrops_data()
    {
        QTest::addColumn<QString>("drag"); // indexes, or "mime:<kind>" for a hand-made payload
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("reason"); // a piece of the message the refusal gives
        QTest::newRow("group onto itself") << QStringLiteral("g2") << QStringLiteral("on g2")
                                           << QStringLiteral("already in group 3");
        QTest::newRow("patch onto its own group")
            << QStringLiteral("g2.0") << QStringLiteral("on g2") << QStringLiteral("already in group 3");
        QTest::newRow("patch onto a patch of its own group")
            << QStringLiteral("g2.0") << QStringLiteral("on g2.1") << QStringLiteral("already in group 3");
        QTest::newRow("group just above itself")
            << QStringLiteral("g2") << QStringLiteral("between 2") << QStringLiteral("already at that place");
        QTest::newRow("group just below itself")
            << QStringLiteral("g2") << QStringLiteral("between 3") << QStringLiteral("already at that place");
        QTest::newRow("whole group as a new group at its place")
            << QStringLiteral("g2.0 g2.1") << QStringLiteral("between 2") << QStringLiteral("changes nothing");
        QTest::newRow("wrong MIME type") << QStringLiteral("mime:text") << QStringLiteral("on g0")
                                         << QStringLiteral("Only patches and groups");
        QTest::newRow("garbage payload") << QStringLiteral("mime:garbage") << QStringLiteral("on g0")
                                         << QStringLiteral("damaged");
        QTest::newRow("truncated payload") << QStringLiteral("mime:truncated") << QStringLiteral("on g0")
                                           << QStringLiteral("damaged");
        QTest::newRow("count larger than the payload")
            << QStringLiteral("mime:count") << QStringLiteral("on g0") << QStringLiteral("damaged");
        QTest::newRow("empty patch list") << QStringLiteral("mime:empty") << QStringLiteral("on g0") << QStringLiteral("damaged");
        QTest::newRow("other strategy") << QStringLiteral("mime:other") << QStringLiteral("on g0")
                                        << QStringLiteral("another strategy");
        QTest::newRow("patch out of range") << QStringLiteral("mime:range") << QStringLiteral("on g0")
                                            << QStringLiteral("Patch 9 does not exist");
        QTest::newRow("patch twice") << QStringLiteral("mime:twice") << QStringLiteral("on g0")
                                     << QStringLiteral("selected twice");
        QTest::newRow("stale whole group") << QStringLiteral("mime:stale") << QStringLiteral("between 0")
                                           << QStringLiteral("has changed");
        QTest::newRow("copy instead of move")
            << QStringLiteral("mime:copy") << QStringLiteral("on g0") << QStringLiteral("only be moved");
    }
    void refusedDrops()
    {
        QFETCH(QString, drag);
        QFETCH(QString, target);
        QFETCH(QString, reason);
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const StrategySpec before = spec(doc, kMine);

        std::unique_ptr<QMimeData> data;
        Qt::DropAction action = Qt::MoveAction;
        if (drag == QLatin1String("mime:text"))
            data = mime(payload(kMine, false, -1, {8}), QStringLiteral("text/plain"));
        else if (drag == QLatin1String("mime:garbage"))
            data = mime(QByteArrayLiteral("\x01\x02garbage\xff"));
        else if (drag == QLatin1String("mime:truncated"))
            data = mime(payload(kMine, false, -1, {8, 7}).chopped(2));
        else if (drag == QLatin1String("mime:count"))
            data = mime(payload(kMine, false, -1, {8}).replace(12, 1, "\xff"));
        else if (drag == QLatin1String("mime:empty"))
            data = mime(payload(kMine, false, -1, {}));
        else if (drag == QLatin1String("mime:other"))
            data = mime(payload(kZigZag, false, -1, {8}));
        else if (drag == QLatin1String("mime:range"))
            data = mime(payload(kMine, false, -1, {9}));
        else if (drag == QLatin1String("mime:twice"))
            data = mime(payload(kMine, false, -1, {8, 8}));
        else if (drag == QLatin1String("mime:stale"))
            data = mime(payload(kMine, true, 3, {8})); // group 3 is [6,7]
        else if (drag == QLatin1String("mime:copy")) {
            data = mime(payload(kMine, false, -1, {8}));
            action = Qt::CopyAction;
        } else
            data.reset(model.mimeData(indexesAt(model, drag)));
        QVERIFY(data);
        const Target t = targetAt(model, target);

        QSignalSpy refused(&model, &GroupListModel::editRefused);
        QVERIFY(!model.canDropMimeData(data.get(), action, t.row, 0, t.parent));
        QVERIFY(!model.dropMimeData(data.get(), action, t.row, 0, t.parent));
        QCOMPARE(refused.count(), 1);
        const QString message = refused.at(0).at(0).toString();
        QVERIFY2(message.contains(reason), qPrintable(message));
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(spec(doc, kMine), before);
        QCOMPARE(model.groups(), before.groups);
    }

    void dragFromAnotherStrategy()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        std::unique_ptr<QMimeData> data(model.mimeData(indexesAt(model, QStringLiteral("g4.0"))));
        doc.setCurrentStrategy(kZigZag); // same groups, other strategy: refused all the same
        QVERIFY(!model.dropMimeData(data.get(), Qt::MoveAction, -1, 0, model.index(0, 0)));
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void keyboardEdits()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const auto groups = [&] { return spec(doc, kMine).groups; };

        QCOMPARE(model.newGroup({0}), QString());
        QCOMPARE(groups(), parseGroups(QStringLiteral("1|2 5|4 3|6 7|8|0")));
        QCOMPARE(model.moveGroup(5, 0), QString());
        QCOMPARE(groups(), parseGroups(QStringLiteral("0|1|2 5|4 3|6 7|8")));
        QCOMPARE(model.merge(0, 1), QString());
        QCOMPARE(groups(), parseGroups(QStringLiteral("0 1|2 5|4 3|6 7|8")));
        QCOMPARE(doc.undoStack()->text(2), QStringLiteral("Merge group 2 into group 1"));
        QCOMPARE(model.split(3, {7}), QString());
        QCOMPARE(groups(), parseGroups(QStringLiteral("0 1|2 5|4 3|6|7|8")));
        QCOMPARE(model.moveToGroup({7}, 5), QString());
        QCOMPARE(groups(), parseGroups(QStringLiteral("0 1|2 5|4 3|6|8 7")));
        QCOMPARE(doc.undoStack()->count(), 5);

        // Refusals say why and push nothing.
        QSignalSpy refused(&model, &GroupListModel::editRefused);
        QVERIFY(model.moveToGroup({6}, 3).contains(QLatin1String("already in group 4")));
        QVERIFY(model.merge(2, 2).contains(QLatin1String("itself")));
        QVERIFY(model.split(0, {0, 1}).contains(QLatin1String("empty")));
        QVERIFY(model.moveGroup(0, 9).contains(QLatin1String("out of range")));
        QVERIFY(model.newGroup({42}).contains(QLatin1String("does not exist")));
        QVERIFY(model.newGroup({}).contains(QLatin1String("No patch selected")));
        QCOMPARE(refused.count(), 6);
        QCOMPARE(doc.undoStack()->count(), 5);
    }

    /// A generated strategy is never changed by an edit: the first edit makes
    /// "ZigZag (edited)" after it (selected; the original stays comparable),
    /// undo removes it and selects ZigZag again, later edits change the copy
    /// in place, and a new edit of the original makes another, unique copy.
    void heuristicEditMakesACopy()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kZigZag);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const StrategySpec before = spec(doc, kZigZag);
        const std::size_t count = doc.project().strategies.size();
        QVERIFY(before.kind == StrategyKind::ZigZag);
        QCOMPARE(model.groups(), parseGroups(QStringLiteral("0 1|2 5|4 3|6 7|8"))); // ZigZag, G = 2

        std::unique_ptr<QMimeData> data(model.mimeData(indexesAt(model, QStringLiteral("g4.0"))));
        QVERIFY(model.dropMimeData(data.get(), Qt::MoveAction, -1, 0, model.index(1, 0)));
        const StrategySpec expected{
            "ZigZag (edited)", StrategyKind::Groups, std::nullopt, parseGroups(QStringLiteral("0 1|2 5 8|4 3|6 7"))};
        QCOMPARE(doc.project().strategies.size(), count + 1);
        QCOMPARE(spec(doc, kZigZag), before);
        QCOMPARE(spec(doc, kZigZag + 1), expected);
        QCOMPARE(doc.currentStrategy(), kZigZag + 1);
        QCOMPARE(model.groups(), expected.groups);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.project().strategies.size(), count);
        QCOMPARE(spec(doc, kZigZag), before);
        QCOMPARE(doc.currentStrategy(), kZigZag);
        QCOMPARE(model.groups(), parseGroups(QStringLiteral("0 1|2 5|4 3|6 7|8")));
        doc.undoStack()->redo();
        QCOMPARE(spec(doc, kZigZag + 1), expected);
        QCOMPARE(doc.currentStrategy(), kZigZag + 1);

        // The copy is hand-made: edited in place, name kept.
        std::unique_ptr<QMimeData> again(model.mimeData(indexesAt(model, QStringLiteral("g3.0"))));
        QVERIFY(model.dropMimeData(again.get(), Qt::MoveAction, -1, 0, model.index(0, 0)));
        QCOMPARE(doc.project().strategies.size(), count + 1);
        QCOMPARE(spec(doc, kZigZag + 1).name, std::string("ZigZag (edited)"));
        QCOMPARE(spec(doc, kZigZag + 1).groups, parseGroups(QStringLiteral("0 1 6|2 5 8|4 3|7")));

        // The original edited again: a second copy with a unique name.
        doc.setCurrentStrategy(kZigZag);
        QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec == before);
        std::unique_ptr<QMimeData> third(model.mimeData(indexesAt(model, QStringLiteral("g4.0"))));
        QVERIFY(model.dropMimeData(third.get(), Qt::MoveAction, -1, 0, model.index(1, 0)));
        QCOMPARE(doc.project().strategies.size(), count + 2);
        QCOMPARE(spec(doc, kZigZag), before);
        QCOMPARE(spec(doc, kZigZag + 1).name, std::string("ZigZag (edited) (2)"));
        QCOMPARE(doc.currentStrategy(), kZigZag + 1);
    }

    void resimulatesAndFlagsOverflow()
    {
        ProjectDocument doc;
        LOAD_PAPER(doc, kMine);
        GroupListModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(doc.problem().nbPatchesMax(), 2);
        QVERIFY(doc.simulation()->failure.empty());
        const auto tooManyOps = [&] {
            const auto errors = doc.simulation()->result.errors();
            return std::any_of(errors.begin(), errors.end(), [](const Diagnostic *d) { return d->rule == Rule::TooManyOps; });
        };
        QVERIFY(!tooManyOps());

        // Three patches in group 1 with nb_patches_max 2: too many ops.
        std::unique_ptr<QMimeData> data(model.mimeData(indexesAt(model, QStringLiteral("g1.0"))));
        QVERIFY(model.dropMimeData(data.get(), Qt::MoveAction, -1, 0, model.index(0, 0)));
        const StrategySpec edited = spec(doc, kMine);
        QCOMPARE(edited.groups, parseGroups(QStringLiteral("0 1 2|5|4 3|6 7|8")));
        QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec == edited);
        QVERIFY(doc.simulation()->failure.empty());
        QVERIFY(!doc.simulation()->result.valid());
        QVERIFY(tooManyOps());

        // Undo resimulates the file's groups: no overflow any more.
        doc.undoStack()->undo();
        QTRY_VERIFY(!doc.busy() && doc.simulation() && doc.simulation()->spec == spec(doc, kMine));
        QVERIFY(!tooManyOps());
    }
};

QTEST_MAIN(TestGroups)
#include "tst_groups.moc"
