// The search's moves, one by one: after every proposal (accepted, undone or
// committed) the annealer's incremental state must describe its strategy
// exactly. The reference is priced here from scratch: a pixel is loaded once
// per group holding it whose predecessor does not, and the strategy must stay
// an ordered partition with the group count and sizes of the problem.
// Drives the private annealer (core/optimise/src), large moves included.

#include "SearchAnnealer.h"

#include "convoffload/optimise/S1Instance.h"

#include <QTest>

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
        QTest::addColumn<double>("ruin");
        QTest::addColumn<double>("reorder");
        QTest::newRow("7x7 G2 ruin") << 7 << 7 << 3 << 1 << 2 << 2 << 30 << false << 0.5 << 0.0;
        QTest::newRow("8x9 G3 reorder") << 8 << 9 << 3 << 1 << 3 << 2 << 30 << false << 0.0 << 0.5;
        QTest::newRow("9x9 G4 mixed") << 9 << 9 << 3 << 1 << 4 << 2 << 30 << false << 0.2 << 0.2;
        QTest::newRow("9x8 G5 tight memory") << 9 << 8 << 3 << 1 << 5 << 2 << 0 << false << 0.3 << 0.2;
        QTest::newRow("8x8 G3 any count") << 8 << 8 << 3 << 1 << 3 << 2 << 30 << true << 0.3 << 0.2;
        QTest::newRow("11x10 k4 s2 G3") << 11 << 10 << 4 << 2 << 3 << 1 << 10 << false << 0.3 << 0.2;
        QTest::newRow("6x12 G7 loose reloads") << 6 << 12 << 3 << 1 << 7 << 9 << 30 << true << 0.3 << 0.3;
    }

    void stateFollowsEveryMove()
    {
        QFETCH(int, hIn);
        QFETCH(int, wIn);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, groupSize);
        QFETCH(int, maxLoads);
        QFETCH(int, memSlack);
        QFETCH(bool, atMostCap);
        QFETCH(double, ruin);
        QFETCH(double, reorder);
        OptimiseSettings settings;
        settings.group_size = groupSize;
        settings.group_count = atMostCap ? GroupCount::AtMostCap : GroupCount::ExactlyKMin;
        const S1Instance in = makeS1Instance(problem(hIn, wIn, kernel, stride, groupSize, maxLoads, memSlack), settings);
        Annealer annealer(in, rowByRow(in.layer, in.group_size), 7, MoveMix{ruin, reorder});
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
        QVERIFY(applied > 1000);
    }
};

QTEST_GUILESS_MAIN(TestSearchMoves)
#include "tst_searchmoves.moc"
