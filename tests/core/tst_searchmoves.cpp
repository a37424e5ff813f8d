// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The search's moves, one by one: after every proposal (accepted, undone or
// committed) the annealer's incremental state must describe its strategy
// exactly. The reference is priced here from scratch: a pixel is loaded once
// per group holding it whose predecessor does not, and the strategy must stay
// an ordered partition with the group count and sizes of the problem.
// Drives the private annealer (core/optimise/src/search) directly: every kind of
// move, accepted and rejected, with memory and the reload bound binding or not.

#include "search/SearchAnnealer.h"

#include "convoffload/optimise/S1Instance.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace convoffload;
using namespace convoffload::search;

namespace {

Problem problem(int hIn, int wIn, int kernel, int stride, int groupSize, int maxLoads, std::int64_t memSlack)
{
    Problem p;
    p.layer.c_in = 1;
    p.layer.h_in = hIn;
    p.layer.w_in = wIn;
    p.layer.h_k = p.layer.w_k = kernel;
    p.layer.stride_h = p.layer.stride_w = stride;
    p.layer.n = 1;
    p.hardware.nbop_pe = kernel * kernel * groupSize;
    // Memory for a compact group plus `memSlack` pixels: spread groups break it.
    p.hardware.mem_size = std::int64_t(kernel) * (kernel + groupSize - 1) + groupSize + kernel * kernel + memSlack;
    p.hardware.t_l = p.hardware.t_acc = 1;
    p.hardware.t_w = 0;
    p.hardware.max_loads_per_element = maxLoads;
    p.options.kernels_preloaded = true;
    return p;
}

struct Priced {
    std::int64_t loads = 0, reloadExcess = 0, memoryExcess = 0;
};

Priced priceFromScratch(const S1Instance &in, const Groups &groups)
{
    Priced out;
    std::vector<int> loads(std::size_t(in.pixels), 0);
    std::set<PixelId> previous;
    for (const Group &g : groups) {
        std::set<PixelId> current;
        for (PatchId p : g)
            current.insert(in.patch_pixels[p].begin(), in.patch_pixels[p].end());
        for (PixelId px : current)
            if (!previous.count(px)) {
                ++out.loads;
                ++loads[px];
            }
        out.memoryExcess += std::max<std::int64_t>(0,
            std::int64_t(current.size()) * in.elements_per_pixel + std::int64_t(g.size()) * in.elements_per_patch
                + in.fixed_elements - in.mem_size);
        previous = std::move(current);
    }
    for (int l : loads)
        out.reloadExcess += std::max(0, l - in.max_loads_per_pixel);
    return out;
}

void checkPartition(const S1Instance &in, const Groups &groups)
{
    if (in.group_count == GroupCount::ExactlyKMin)
        QCOMPARE(std::int64_t(groups.size()), in.min_groups);
    else
        QVERIFY(std::int64_t(groups.size()) <= in.max_groups);
    std::vector<int> seen(std::size_t(in.patches), 0);
    for (const Group &g : groups) {
        QVERIFY(!g.empty());
        QVERIFY(std::int64_t(g.size()) <= in.group_size);
        for (PatchId p : g)
            ++seen[p];
    }
    for (int s : seen)
        QCOMPARE(s, 1);
}

/// The instance described by the current row of stateFollowsEveryMove_data.
S1Instance instanceFromRow()
{
    QFETCH(int, hIn);
    QFETCH(int, wIn);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(int, groupSize);
    QFETCH(int, maxLoads);
    QFETCH(int, memSlack);
    QFETCH(bool, atMostCap);
    OptimiseSettings settings;
    settings.group_size = groupSize;
    settings.group_count = atMostCap ? GroupCount::AtMostCap : GroupCount::ExactlyKMin;
    return makeS1Instance(problem(hIn, wIn, kernel, stride, groupSize, maxLoads, memSlack), settings);
}

} // namespace

class TestSearchMoves : public QObject {
    Q_OBJECT
private slots:
    void stateFollowsEveryMove_data()
    {
        QTest::addColumn<int>("hIn");
        QTest::addColumn<int>("wIn");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("maxLoads");
        QTest::addColumn<int>("memSlack");
        QTest::addColumn<bool>("atMostCap");
        QTest::newRow("7x7 G2") << 7 << 7 << 3 << 1 << 2 << 2 << 30 << false;
        QTest::newRow("8x9 G3") << 8 << 9 << 3 << 1 << 3 << 2 << 30 << false;
        QTest::newRow("9x9 G4") << 9 << 9 << 3 << 1 << 4 << 2 << 30 << false;
        QTest::newRow("9x8 G5 tight memory") << 9 << 8 << 3 << 1 << 5 << 2 << 0 << false;
        QTest::newRow("8x8 G3 any count") << 8 << 8 << 3 << 1 << 3 << 2 << 30 << true;
        QTest::newRow("11x10 k4 s2 G3") << 11 << 10 << 4 << 2 << 3 << 1 << 10 << false;
        QTest::newRow("6x12 G7 loose reloads") << 6 << 12 << 3 << 1 << 7 << 9 << 30 << true;
    }

    void stateFollowsEveryMove()
    {
        const S1Instance in = instanceFromRow();
        Annealer annealer(in, rowByRow(in.layer, in.group_size), 7);
        Random coin(11);
        int applied = 0;
        for (int i = 0; i < 3000; ++i) {
            const Annealer::Proposal proposal = annealer.propose();
            if (proposal == Annealer::Proposal::Priced && coin.below(2) == 0)
                annealer.commit();
            else if (proposal == Annealer::Proposal::Applied && coin.below(3) == 0)
                annealer.undo();
            if (proposal != Annealer::Proposal::None)
                ++applied;
            const SearchState &s = annealer.state();
            const Groups groups = s.groups();
            checkPartition(in, groups);
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("after proposal %1").arg(i)));
            const Priced expected = priceFromScratch(in, groups);
            QCOMPARE(s.loadedPixels(), expected.loads);
            QCOMPARE(s.reloadExcess(), expected.reloadExcess);
            QCOMPARE(s.memoryExcess(), expected.memoryExcess);
            QCOMPARE(s.duration(), evaluate(in, groups).duration);
        }
        QVERIFY(applied > 300); // the moves were exercised, not just drawn
    }

    /// The Or-opt move (a run of 2..8 groups moved next to a neighbour's
    /// group, either way round): its price is the change of the objective it
    /// causes once committed, and the strategy stays an ordered partition
    /// priced as from scratch.
    void segmentMoveIsPricedExactly_data() { stateFollowsEveryMove_data(); }
    void segmentMoveIsPricedExactly()
    {
        const S1Instance in = instanceFromRow();
        Annealer annealer(in, rowByRow(in.layer, in.group_size), 5);
        Random coin(3);
        int committed = 0;
        for (int i = 0; i < 2000; ++i) {
            const double before = annealer.objective();
            const Groups unchanged = annealer.state().groups();
            const Annealer::Proposal proposal = annealer.proposeSegmentMove();
            QVERIFY(proposal != Annealer::Proposal::Applied); // an order move: priced, not applied
            if (proposal == Annealer::Proposal::None)
                continue;
            if (coin.below(2) == 0) {
                QCOMPARE(annealer.state().groups(), unchanged); // pricing alone changes nothing
                continue;
            }
            const double delta = annealer.pricedDelta();
            annealer.commit();
            ++committed;
            QVERIFY2(std::abs(annealer.objective() - before - delta) < 1e-9,
                qPrintable(QStringLiteral("move %1: priced %2, objective %3 -> %4")
                               .arg(i)
                               .arg(delta)
                               .arg(before)
                               .arg(annealer.objective())));
            const Groups groups = annealer.state().groups();
            checkPartition(in, groups);
            // The same groups, only reordered.
            std::multiset<Group> a(groups.begin(), groups.end()), b(unchanged.begin(), unchanged.end());
            QVERIFY(a == b);
            const Priced expected = priceFromScratch(in, groups);
            QCOMPARE(annealer.state().loadedPixels(), expected.loads);
            QCOMPARE(annealer.state().reloadExcess(), expected.reloadExcess);
        }
        QVERIFY2(committed > 20, qPrintable(QString::number(committed))); // few groups leave few runs to move
    }
};

QTEST_GUILESS_MAIN(TestSearchMoves)
#include "tst_searchmoves.moc"
