// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Hand edits of S1 groups (core/GroupEdit): every operation on small groups
// written by hand, with the expected groups written by hand too; refusals,
// the clean-up of groups left empty and the index fixing that goes with it.
// Groups are written "0 1|2 5|8": groups separated by '|', patch ids by spaces.

#include "TestGroups.h"
#include "convoffload/model/GroupEdit.h"

#include <QTest>

using namespace convoffload;

namespace {

PatchList parsePatches(const QString &text)
{
    const Groups g = parseGroups(text);
    return g.empty() ? PatchList{} : g.front();
}

QString formatGroups(const Groups &groups)
{
    QStringList parts;
    for (const Group &g : groups) {
        QStringList ids;
        for (PatchId p : g)
            ids << QString::number(p);
        parts << ids.join(QLatin1Char(' '));
    }
    return parts.join(QLatin1Char('|'));
}

/// Runs an edit; returns its groups written as text, or "error: ..." when it refused.
template <typename Edit> QString outcome(Edit &&edit)
{
    try {
        return formatGroups(edit());
    } catch (const StrategyError &e) {
        return QStringLiteral("error: ") + QString::fromStdString(e.what());
    }
}

void addColumns()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("patches");
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("after"); // expected groups, or a piece of the refusal after "error: "
}

void check(const QString &result, const QString &after)
{
    if (after.startsWith(QLatin1String("error: ")))
        QVERIFY2(result.startsWith(QLatin1String("error: ")) && result.contains(after.mid(7)), qPrintable(result));
    else
        QCOMPARE(result, after);
}

} // namespace

class TestGroupEdit : public QObject {
    Q_OBJECT
private slots:
    void unassignedPatches_data()
    {
        QTest::addColumn<QString>("groups");
        QTest::addColumn<QString>("expected");
        QTest::newRow("all assigned") << kMineGroups << QString();
        QTest::newRow("none assigned") << QString() << QStringLiteral("0 1 2 3 4 5 6 7 8");
        QTest::newRow("some, sorted") << QStringLiteral("8 0|4") << QStringLiteral("1 2 3 5 6 7");
        QTest::newRow("ids out of range ignored") << QStringLiteral("0 1 2 3 4 5 6 7 99") << QStringLiteral("8");
    }
    void unassignedPatches()
    {
        QFETCH(QString, groups);
        QFETCH(QString, expected);
        Layer layer; // the paper's Example: 5x5 input, 3x3 kernels -> 3x3 outputs
        layer.c_in = 2;
        layer.h_in = 5;
        layer.w_in = 5;
        layer.h_k = 3;
        layer.w_k = 3;
        layer.n = 2;
        QCOMPARE(formatGroups(Groups{convoffload::unassignedPatches(layer, parseGroups(groups))}), expected);
    }

    void movePatches_data()
    {
        addColumns();
        QTest::newRow("one patch to another group")
            << kMineGroups << QStringLiteral("5") << 0 << QStringLiteral("0 1 5|2|4 3|6 7|8");
        QTest::newRow("from two groups, in the given order")
            << kMineGroups << QStringLiteral("7 2") << 4 << QStringLiteral("0 1|5|4 3|6|8 7 2");
        QTest::newRow("emptied group before the target is dropped")
            << kMineGroups << QStringLiteral("0 1") << 2 << QStringLiteral("2 5|4 3 0 1|6 7|8");
        QTest::newRow("emptied group after the target is dropped")
            << kMineGroups << QStringLiteral("8") << 1 << QStringLiteral("0 1|2 5 8|4 3|6 7");
        QTest::newRow("whole group onto another = merge")
            << kMineGroups << QStringLiteral("4 3") << 0 << QStringLiteral("0 1 4 3|2 5|6 7|8");
        QTest::newRow("from the unassigned pool")
            << QStringLiteral("0|1") << QStringLiteral("5 2") << 1 << QStringLiteral("0|1 5 2");
        QTest::newRow("part already in the target stays in place")
            << kMineGroups << QStringLiteral("0 2") << 0 << QStringLiteral("0 1 2|5|4 3|6 7|8");
        QTest::newRow("refused: same group")
            << kMineGroups << QStringLiteral("4 3") << 2 << QStringLiteral("error: already in group 3");
        QTest::newRow("refused: one patch of the same group")
            << kMineGroups << QStringLiteral("7") << 3 << QStringLiteral("error: changes nothing");
        QTest::newRow("refused: nothing selected") << kMineGroups << QString() << 0 << QStringLiteral("error: no patch selected");
        QTest::newRow("refused: target out of range")
            << kMineGroups << QStringLiteral("0") << 5 << QStringLiteral("error: target group 6 does not exist");
        QTest::newRow("refused: patch twice")
            << kMineGroups << QStringLiteral("2 2") << 0 << QStringLiteral("error: patch 2 is selected twice");
        QTest::newRow("refused: no groups at all")
            << QString() << QStringLiteral("0") << 0 << QStringLiteral("error: does not exist");
    }
    void movePatches()
    {
        QFETCH(QString, before);
        QFETCH(QString, patches);
        QFETCH(int, index);
        QFETCH(QString, after);
        check(outcome([&] { return convoffload::movePatches(parseGroups(before), parsePatches(patches), std::size_t(index)); }),
            after);
    }

    // The rule the grid's drag shares with movePatches (hovering the
    // patches' own group is a move that changes nothing).
    void allAlreadyIn()
    {
        using convoffload::allAlreadyIn;
        QVERIFY(allAlreadyIn({4, 3}, {3, 4}));
        QVERIFY(allAlreadyIn({4, 3, 9}, {3}));
        QVERIFY(!allAlreadyIn({4, 3}, {3, 5}));
        QVERIFY(!allAlreadyIn({}, {0}));
        QVERIFY(allAlreadyIn({1}, {}));
    }

    void moveToNewGroup_data()
    {
        addColumns();
        QTest::newRow("at the front") << kMineGroups << QStringLiteral("5") << 0 << QStringLiteral("5|0 1|2|4 3|6 7|8");
        QTest::newRow("at the end") << kMineGroups << QStringLiteral("0 7") << 5 << QStringLiteral("1|2 5|4 3|6|8|0 7");
        QTest::newRow("in the middle") << kMineGroups << QStringLiteral("3") << 2 << QStringLiteral("0 1|2 5|3|4|6 7|8");
        QTest::newRow("position after an emptied group shifts")
            << kMineGroups << QStringLiteral("8 0 1") << 3 << QStringLiteral("2 5|4 3|8 0 1|6 7");
        QTest::newRow("whole group to another place")
            << kMineGroups << QStringLiteral("0 1") << 3 << QStringLiteral("2 5|4 3|0 1|6 7|8");
        QTest::newRow("reordered inside its own place")
            << kMineGroups << QStringLiteral("1 0") << 0 << QStringLiteral("1 0|2 5|4 3|6 7|8");
        QTest::newRow("from the pool into no groups") << QString() << QStringLiteral("4") << 0 << QStringLiteral("4");
        QTest::newRow("refused: group before itself")
            << kMineGroups << QStringLiteral("2 5") << 1 << QStringLiteral("error: changes nothing");
        QTest::newRow("refused: group after itself")
            << kMineGroups << QStringLiteral("2 5") << 2 << QStringLiteral("error: changes nothing");
        QTest::newRow("refused: position out of range")
            << kMineGroups << QStringLiteral("0") << 6 << QStringLiteral("error: position 6 is out of range");
        QTest::newRow("refused: nothing selected") << kMineGroups << QString() << 0 << QStringLiteral("error: no patch selected");
    }
    void moveToNewGroup()
    {
        QFETCH(QString, before);
        QFETCH(QString, patches);
        QFETCH(int, index);
        QFETCH(QString, after);
        check(
            outcome([&] { return convoffload::moveToNewGroup(parseGroups(before), parsePatches(patches), std::size_t(index)); }),
            after);
    }

    void reorderGroup_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::addColumn<QString>("after");
        QTest::newRow("first to last") << kMineGroups << 0 << 4 << QStringLiteral("2 5|4 3|6 7|8|0 1");
        QTest::newRow("last to first") << kMineGroups << 4 << 0 << QStringLiteral("8|0 1|2 5|4 3|6 7");
        QTest::newRow("one down") << kMineGroups << 1 << 2 << QStringLiteral("0 1|4 3|2 5|6 7|8");
        QTest::newRow("refused: same place")
            << kMineGroups << 2 << 2 << QStringLiteral("error: group 3 is already at that place");
        QTest::newRow("refused: from out of range") << kMineGroups << 5 << 0 << QStringLiteral("error: group 6 does not exist");
        QTest::newRow("refused: to out of range") << kMineGroups << 0 << 5 << QStringLiteral("error: position 6 is out of range");
    }
    void reorderGroup()
    {
        QFETCH(QString, before);
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(QString, after);
        check(outcome([&] { return convoffload::reorderGroup(parseGroups(before), std::size_t(from), std::size_t(to)); }), after);
    }

    void splitGroup_data()
    {
        addColumns();
        QTest::newRow("second patch off") << kMineGroups << QStringLiteral("5") << 1 << QStringLiteral("0 1|2|5|4 3|6 7|8");
        QTest::newRow("first patch off") << kMineGroups << QStringLiteral("4") << 2 << QStringLiteral("0 1|2 5|3|4|6 7|8");
        QTest::newRow("kept in the group's order")
            << QStringLiteral("0 1 2 3") << QStringLiteral("3 1") << 0 << QStringLiteral("0 2|1 3");
        QTest::newRow("refused: whole group")
            << kMineGroups << QStringLiteral("1 0") << 0 << QStringLiteral("error: would leave it empty");
        QTest::newRow("refused: patch of another group")
            << kMineGroups << QStringLiteral("2") << 0 << QStringLiteral("error: patch 2 is not in group 1");
        QTest::newRow("refused: group out of range")
            << kMineGroups << QStringLiteral("0") << 7 << QStringLiteral("error: group 8 does not exist");
        QTest::newRow("refused: nothing selected") << kMineGroups << QString() << 0 << QStringLiteral("error: no patch selected");
    }
    void splitGroup()
    {
        QFETCH(QString, before);
        QFETCH(QString, patches);
        QFETCH(int, index);
        QFETCH(QString, after);
        check(outcome([&] { return convoffload::splitGroup(parseGroups(before), std::size_t(index), parsePatches(patches)); }),
            after);
    }

    void mergeGroups_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<QString>("after");
        QTest::newRow("later into earlier") << kMineGroups << 0 << 4 << QStringLiteral("0 1 8|2 5|4 3|6 7");
        QTest::newRow("earlier into later, a shifts") << kMineGroups << 3 << 1 << QStringLiteral("0 1|4 3|6 7 2 5|8");
        QTest::newRow("neighbours") << kMineGroups << 2 << 3 << QStringLiteral("0 1|2 5|4 3 6 7|8");
        QTest::newRow("refused: itself") << kMineGroups << 2 << 2 << QStringLiteral("error: cannot merge group 3 with itself");
        QTest::newRow("refused: out of range") << kMineGroups << 0 << 5 << QStringLiteral("error: group 6 does not exist");
    }
    void mergeGroups()
    {
        QFETCH(QString, before);
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(QString, after);
        check(outcome([&] { return convoffload::mergeGroups(parseGroups(before), std::size_t(a), std::size_t(b)); }), after);
    }

    void unassign_data()
    {
        addColumns();
        QTest::newRow("one patch") << kMineGroups << QStringLiteral("5") << 0 << QStringLiteral("0 1|2|4 3|6 7|8");
        QTest::newRow("empties and drops groups") << kMineGroups << QStringLiteral("8 0 1 6") << 0 << QStringLiteral("2 5|4 3|7");
        QTest::newRow("everything") << QStringLiteral("0|1") << QStringLiteral("0 1") << 0 << QString();
        QTest::newRow("mixed with unassigned ones") << QStringLiteral("0 1") << QStringLiteral("1 5") << 0 << QStringLiteral("0");
        QTest::newRow("refused: all unassigned already")
            << QStringLiteral("0 1") << QStringLiteral("5 6") << 0 << QStringLiteral("error: not in any group already");
        QTest::newRow("refused: nothing selected") << kMineGroups << QString() << 0 << QStringLiteral("error: no patch selected");
    }
    void unassign()
    {
        QFETCH(QString, before);
        QFETCH(QString, patches);
        QFETCH(QString, after);
        check(outcome([&] { return convoffload::unassign(parseGroups(before), parsePatches(patches)); }), after);
    }

    void editableGroups()
    {
        Problem problem;
        problem.layer.c_in = 2;
        problem.layer.h_in = 5;
        problem.layer.w_in = 5;
        problem.layer.h_k = 3;
        problem.layer.w_k = 3;
        problem.layer.n = 2;
        problem.hardware.nbop_pe = 72; // nb_patches_max = 2

        StrategySpec zigzag{"ZigZag", StrategyKind::ZigZag, 2, {}};
        QCOMPARE(formatGroups(convoffload::editableGroups(problem, zigzag)), QStringLiteral("0 1|2 5|4 3|6 7|8"));
        StrategySpec rows{"Row-by-Row", StrategyKind::RowByRow, std::nullopt, {}}; // G = nb_patches_max
        QCOMPARE(formatGroups(convoffload::editableGroups(problem, rows)), QStringLiteral("0 1|2 3|4 5|6 7|8"));
        StrategySpec baseline{"S1", StrategyKind::S1Baseline, std::nullopt, {}};
        QCOMPARE(formatGroups(convoffload::editableGroups(problem, baseline)), QStringLiteral("0|1|2|3|4|5|6|7|8"));
        // Explicit groups as they are, even when groupsOf would refuse them.
        StrategySpec partial{"Mine", StrategyKind::Groups, std::nullopt, parseGroups(QStringLiteral("8 0"))};
        QCOMPARE(formatGroups(convoffload::editableGroups(problem, partial)), QStringLiteral("8 0"));
        StrategySpec empty{"Empty", StrategyKind::Groups, std::nullopt, {}};
        QVERIFY(convoffload::editableGroups(problem, empty).empty());

        StrategySpec broken{"Broken", StrategyKind::ZigZag, 0, {}};
        QVERIFY_THROWS_EXCEPTION(StrategyError, convoffload::editableGroups(problem, broken));
    }
};

QTEST_GUILESS_MAIN(TestGroupEdit)
#include "tst_groupedit.moc"
