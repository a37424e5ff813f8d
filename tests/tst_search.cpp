// The search optimiser. Its optimum is checked against a brute force that
// enumerates every ordered partition of tiny layers and prices it with its own
// pixel bitmasks (no S1Instance, no search code); its strategies against the
// simulator (validity, reload warnings, functional check, duration).

#include "convoffload/optimise/S1Instance.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/optimise/SearchOptimiser.h"
#include "convoffload/simulate/Simulator.h"

#include "TestGroups.h"
#include "TestPrinting.h"

#include <QTest>

#include <atomic>
#include <bit>
#include <chrono>
#include <functional>
#include <thread>

using namespace convoffload;

namespace {

/// The paper's experiment setting: one 3×3 kernel, stride 1, G patches per
/// step, t_l = t_acc = 1, t_w = 0, kernels preloaded, so D = Σ|I_slice| + n.
Problem paperProblem(int hIn, int wIn, int groupSize, int maxLoads = 9)
{
    Problem p;
    p.layer.c_in = 1;
    p.layer.h_in = hIn;
    p.layer.w_in = wIn;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.n = 1;
    p.hardware.nbop_pe = 9 * groupSize;
    p.hardware.mem_size = 1 << 20;
    p.hardware.t_l = p.hardware.t_acc = 1;
    p.hardware.t_w = 0;
    p.hardware.max_loads_per_element = maxLoads;
    p.options.kernels_preloaded = true;
    return p;
}

/// The least D = Σ|U_k \ U_{k-1}| + n over every ordered partition of the
/// patches into groups of at most G, with n in [minGroups, maxGroups], every
/// pixel loaded at most maxLoads times; nullopt when none qualifies. Each
/// patch is a bitmask of the pixels its 3×3 window covers.
std::optional<int> bruteForceOptimum(int hIn, int wIn, int groupSize, int minGroups, int maxGroups, int maxLoads)
{
    const int hOut = hIn - 2, wOut = wIn - 2, patches = hOut * wOut;
    std::vector<std::uint64_t> masks;
    for (int r = 0; r < hOut; ++r)
        for (int c = 0; c < wOut; ++c) {
            std::uint64_t m = 0;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    m |= std::uint64_t(1) << ((r + i) * wIn + c + j);
            masks.push_back(m);
        }

    std::optional<int> best;
    for (int groups = minGroups; groups <= maxGroups; ++groups) {
        std::vector<std::uint64_t> unions(std::size_t(groups), 0);
        std::vector<int> sizes(std::size_t(groups), 0);
        auto price = [&] {
            int loads = 0;
            std::vector<int> perPixel(64, 0);
            for (int k = 0; k < groups; ++k) {
                const std::uint64_t fresh = unions[k] & ~(k > 0 ? unions[k - 1] : 0);
                loads += std::popcount(fresh);
                for (int b = 0; b < 64; ++b)
                    if ((fresh >> b) & 1 && ++perPixel[b] > maxLoads)
                        return;
            }
            if (!best || loads + groups < *best)
                best = loads + groups;
        };
        // Patch p goes to a group label; labels are the positions in the order.
        std::function<void(int)> place = [&](int p) {
            if (p == patches) {
                if (std::find(sizes.begin(), sizes.end(), 0) == sizes.end())
                    price();
                return;
            }
            // Prune: the remaining patches must still fill the empty groups.
            if (std::count(sizes.begin(), sizes.end(), 0) > patches - p)
                return;
            for (int k = 0; k < groups; ++k) {
                if (sizes[k] == groupSize)
                    continue;
                const std::uint64_t saved = unions[k];
                unions[k] |= masks[p];
                ++sizes[k];
                place(p + 1);
                --sizes[k];
                unions[k] = saved;
            }
        };
        place(0);
    }
    return best;
}

/// Expands and simulates with the functional check: the groups must be a
/// valid strategy with no reload warning, computing the right convolution,
/// and the simulator's duration must be the one claimed.
void checkWithSimulator(const Problem &problem, const OptimiseResult &r)
{
    SimulationOptions options;
    options.trace = false;
    options.functional = true;
    const SimulationResult sim = simulate(problem, expandS1(problem, r.groups), options);
    for (const Diagnostic *d : sim.errors())
        qWarning("%s", d->text().c_str());
    QVERIFY(sim.valid());
    for (const Diagnostic *w : sim.warnings())
        QVERIFY2(w->rule != Rule::ReloadBound, w->text().c_str());
    QCOMPARE(sim.functional.status, FunctionalStatus::Pass);
    QCOMPARE(sim.totalDuration(), r.duration);
}

SearchOptions budget(std::int64_t moves, std::uint64_t seed = 1)
{
    SearchOptions o;
    o.seed = seed;
    o.max_moves = moves;
    return o;
}

} // namespace

class TestSearch : public QObject {
    Q_OBJECT
private slots:
    void findsTheBruteForceOptimum_data()
    {
        QTest::addColumn<int>("hIn");
        QTest::addColumn<int>("wIn");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("maxLoads");
        QTest::addColumn<bool>("atMostCap");
        // Outputs 2×2, 2×3, 3×3 and 3×4; the reload bound 9 cannot bind, 1 and
        // 2 do (1 may leave no solution at all).
        for (int g = 2; g <= 4; ++g) {
            QTest::addRow("4x4 G=%d", g) << 4 << 4 << g << 9 << false;
            QTest::addRow("4x5 G=%d", g) << 4 << 5 << g << 9 << false;
            QTest::addRow("5x5 G=%d", g) << 5 << 5 << g << 9 << false;
        }
        QTest::addRow("5x5 G=2 L=1") << 5 << 5 << 2 << 1 << false;
        QTest::addRow("5x5 G=2 L=2") << 5 << 5 << 2 << 2 << false;
        QTest::addRow("5x5 G=3 L=1") << 5 << 5 << 3 << 1 << false;
        QTest::addRow("5x6 G=3") << 5 << 6 << 3 << 9 << false;
        QTest::addRow("5x6 G=4") << 5 << 6 << 4 << 9 << false;
        QTest::addRow("5x6 G=5") << 5 << 6 << 5 << 9 << false;
        // Any number of groups: more computes may buy fewer reloads.
        QTest::addRow("4x5 G=2 any count") << 4 << 5 << 2 << 9 << true;
        QTest::addRow("4x5 G=3 any count L=1") << 4 << 5 << 3 << 1 << true;
        QTest::addRow("5x5 G=3 any count L=1") << 5 << 5 << 3 << 1 << true;
    }
    void findsTheBruteForceOptimum()
    {
        QFETCH(int, hIn);
        QFETCH(int, wIn);
        QFETCH(int, groupSize);
        QFETCH(int, maxLoads);
        QFETCH(bool, atMostCap);
        const Problem problem = paperProblem(hIn, wIn, groupSize, maxLoads);
        OptimiseSettings settings;
        settings.group_count = atMostCap ? GroupCount::AtMostCap : GroupCount::ExactlyKMin;
        const S1Instance in = makeS1Instance(problem, settings);
        const int patches = (hIn - 2) * (wIn - 2);
        const int kMin = (patches + groupSize - 1) / groupSize;
        const std::optional<int> optimum = bruteForceOptimum(hIn, wIn, groupSize, kMin, atMostCap ? patches : kMin, maxLoads);

        const OptimiseResult r = searchOptimise(in, budget(200000));
        QCOMPARE(r.method, std::string("search"));
        if (!optimum) {
            QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::NoSolution));
            QVERIFY(!r.hasSolution());
            QVERIFY(!r.message.empty());
            return;
        }
        QVERIFY2(r.hasSolution(), r.message.c_str());
        QCOMPARE(r.duration, double(*optimum));
        const S1Evaluation ev = evaluate(in, r.groups);
        QVERIFY2(ev.feasible, ev.violation.c_str());
        QCOMPARE(ev.duration, r.duration);
        QVERIFY(r.lower_bound <= r.duration);
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(r.duration == r.lower_bound ? OptimiseStatus::Optimal : OptimiseStatus::Feasible));
        checkWithSimulator(problem, r);
    }

    void sameSeedSameStrategy()
    {
        const S1Instance in = makeS1Instance(paperProblem(10, 10, 3));
        const OptimiseResult a = searchOptimise(in, budget(100000, 7));
        const OptimiseResult b = searchOptimise(in, budget(100000, 7));
        QCOMPARE(groupsText(a.groups), groupsText(b.groups));
        QCOMPARE(a.duration, b.duration);
    }

    void neverWorseThanTheHeuristics_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        for (int size : {6, 9, 12})
            for (int g : {2, 5, 8})
                QTest::addRow("%dx%d G=%d", size, size, g) << size << g;
    }
    void neverWorseThanTheHeuristics()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        const Problem problem = paperProblem(size, size, groupSize);
        const S1Instance in = makeS1Instance(problem);
        const std::optional<NamedGroups> heuristic = bestFeasibleHeuristic(in);
        QVERIFY(heuristic);
        const OptimiseResult r = searchOptimise(in, budget(50000));
        QVERIFY(r.hasSolution());
        QVERIFY(r.duration <= heuristic->evaluation.duration);
        QCOMPARE(evaluate(in, r.groups).duration, r.duration);
        QVERIFY(r.duration >= lowerBound(in));
        checkWithSimulator(problem, r);
    }

    /// Row-by-Row and ZigZag reload LeNet-5 conv1 pixels up to 5 times, over
    /// its bound of 2; the search still finds a strategy within it.
    void lenetWithinTheReloadBound()
    {
        const Project project = loadProject(std::string(CONVOFFLOAD_SAMPLES) + "/lenet5-conv1.json");
        const S1Instance in = makeS1Instance(project.problem);
        QVERIFY(!bestFeasibleHeuristic(in));
        const OptimiseResult r = searchOptimise(in, budget(20000));
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Feasible));
        QCOMPARE(std::int64_t(r.groups.size()), in.min_groups);
        QVERIFY2(evaluate(in, r.groups).feasible, evaluate(in, r.groups).violation.c_str());
        checkWithSimulator(project.problem, r);
    }

    void cancelReturnsTheBestSoFar()
    {
        const S1Instance in = makeS1Instance(paperProblem(12, 12, 4));
        std::atomic<bool> cancel = false;
        OptimiseControl control;
        control.cancel = &cancel;
        control.time_limit_s = 60;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel = true;
        });
        const auto start = std::chrono::steady_clock::now();
        const OptimiseResult r = searchOptimise(in, budget(std::int64_t(1) << 40), control);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        canceller.join();
        QVERIFY(r.cancelled);
        QVERIFY(!r.timed_out);
        QVERIFY2(seconds < 2.0, std::to_string(seconds).c_str());
        QVERIFY(r.hasSolution());
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Feasible));
        QVERIFY(r.duration <= bestFeasibleHeuristic(in)->evaluation.duration);
        QCOMPARE(evaluate(in, r.groups).duration, r.duration);
    }

    void timeLimitStopsTheRun()
    {
        const S1Instance in = makeS1Instance(paperProblem(12, 12, 4));
        OptimiseControl control;
        control.time_limit_s = 0.2;
        const OptimiseResult r = searchOptimise(in, budget(std::int64_t(1) << 40), control);
        QVERIFY(r.timed_out);
        QVERIFY(!r.cancelled);
        QVERIFY(r.seconds < 1.5);
        QVERIFY(evaluate(in, r.groups).feasible);
    }

    void progressIsReportedAndMonotone()
    {
        const S1Instance in = makeS1Instance(paperProblem(12, 12, 3));
        std::vector<OptimiseProgress> seen;
        OptimiseControl control;
        control.progress = [&](const OptimiseProgress &p) { seen.push_back(p); };
        const OptimiseResult r = searchOptimise(in, budget(300000), control);
        QVERIFY(seen.size() >= 2); // the start and the end at least
        QCOMPARE(seen.size(), r.history.size());
        for (std::size_t i = 1; i < seen.size(); ++i) {
            QVERIFY(seen[i].seconds >= seen[i - 1].seconds);
            QVERIFY(seen[i].incumbent && seen[i - 1].incumbent);
            QVERIFY(*seen[i].incumbent <= *seen[i - 1].incumbent);
            QCOMPARE(*seen[i].bound, r.lower_bound);
        }
        QCOMPARE(*seen.back().incumbent, r.duration);
        QVERIFY(seen.size() < 10 + std::size_t(r.seconds * 25)); // at most ~20 a second
    }

    /// Where Row-by-Row already loads every pixel once, the bound is reached
    /// and the search stops at once with Optimal.
    void stopsAtTheLowerBound()
    {
        const S1Instance in = makeS1Instance(paperProblem(6, 6, 8));
        const OptimiseResult r = searchOptimise(in, budget(std::int64_t(1) << 40));
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Optimal));
        QCOMPARE(r.duration, lowerBound(in));
        QVERIFY(r.seconds < 1.0);
    }

    /// With a cap, groups may be added or dissolved; the result respects the cap.
    void atMostCapRespectsTheCap()
    {
        const Problem problem = paperProblem(8, 8, 4, 2);
        OptimiseSettings settings;
        settings.group_count = GroupCount::AtMostCap;
        settings.max_groups = 12; // K_min = 9
        const S1Instance in = makeS1Instance(problem, settings);
        const OptimiseResult r = searchOptimise(in, budget(100000));
        QVERIFY(r.hasSolution());
        QVERIFY(std::int64_t(r.groups.size()) <= 12);
        QVERIFY(std::int64_t(r.groups.size()) >= in.min_groups);
        QVERIFY2(evaluate(in, r.groups).feasible, evaluate(in, r.groups).violation.c_str());
        checkWithSimulator(problem, r);
    }

    /// Every tiling seed is a partition into exactly K_min groups of at most G.
    void tilingsArePartitions()
    {
        const S1Instance in = makeS1Instance(paperProblem(9, 7, 6));
        const std::vector<NamedGroups> tilings = tilingCandidates(in);
        QVERIFY(tilings.size() >= 10);
        for (const NamedGroups &t : tilings) {
            QVERIFY2(t.evaluation.feasible, (t.name + ": " + t.evaluation.violation).c_str());
            QCOMPARE(std::int64_t(t.groups.size()), in.min_groups);
        }
    }
};

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
