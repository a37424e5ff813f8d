// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The search optimiser. Its optimum is checked against a brute force that
// enumerates every ordered partition of tiny layers and prices it with its own
// pixel bitmasks (no S1Instance, no search code); its strategies against the
// simulator (validity, reload warnings, functional check, duration).

#include "convoffload/optimise/ExactOptimiser.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/S1InstanceBound.h"
#include "convoffload/optimise/S1InstanceBoundProof.h"
#include "convoffload/optimise/Optimiser.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/optimise/SearchOptimiser.h"
#include "convoffload/simulate/Simulator.h"

#include "exact/LoadOnceProof.h"
#include "exact/PatchSymmetries.h"
#include "search/LoadOnceSearch.h"
#include "search/WavefrontBeam.h"
#include "TestGroups.h"
#include "TestPrinting.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <thread>
#include <vector>

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
std::optional<int> bruteForceOptimumUncached(int hIn, int wIn, int groupSize, int minGroups, int maxGroups, int maxLoads)
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
            std::array<int, 64> perPixel{};
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

/// bruteForceOptimumUncached, worked out once per instance in this process:
/// a dozen functions check against the same 21 instances, and the brute
/// force is most of their time (under AddressSanitizer, most of the suite's).
std::optional<int> bruteForceOptimum(int hIn, int wIn, int groupSize, int minGroups, int maxGroups, int maxLoads)
{
    static std::map<std::array<int, 6>, std::optional<int>> known;
    const std::array<int, 6> key{hIn, wIn, groupSize, minGroups, maxGroups, maxLoads};
    if (const auto it = known.find(key); it != known.end())
        return it->second;
    return known[key] = bruteForceOptimumUncached(hIn, wIn, groupSize, minGroups, maxGroups, maxLoads);
}

/// One row of the brute-force table (findsTheBruteForceOptimum_data): the
/// instance and its optima worked out by the brute force, the real one and
/// the one with the reload bound dropped (relaxed).
struct BruteForceCase {
    Problem problem;
    S1Instance instance;
    std::optional<int> optimum; // nullopt: no strategy meets the reload bound
    std::optional<int> relaxed;

    /// From the current row's data.
    static BruteForceCase fetch()
    {
        QFETCH(int, hIn);
        QFETCH(int, wIn);
        QFETCH(int, groupSize);
        QFETCH(int, maxLoads);
        QFETCH(bool, atMostCap);
        return make(hIn, wIn, groupSize, maxLoads, atMostCap);
    }
    static BruteForceCase make(int hIn, int wIn, int groupSize, int maxLoads, bool atMostCap)
    {
        BruteForceCase c;
        c.problem = paperProblem(hIn, wIn, groupSize, maxLoads);
        OptimiseSettings settings;
        settings.group_count = atMostCap ? GroupCount::AtMostCap : GroupCount::ExactlyKMin;
        c.instance = makeS1Instance(c.problem, settings);
        const int patches = (hIn - 2) * (wIn - 2);
        const int kMin = (patches + groupSize - 1) / groupSize;
        const int maxGroups = atMostCap ? patches : kMin;
        c.optimum = bruteForceOptimum(hIn, wIn, groupSize, kMin, maxGroups, maxLoads);
        // 9 = H_K·W_K: no pixel lies in more patches, the bound cannot bind.
        c.relaxed = maxLoads >= 9 ? c.optimum : bruteForceOptimum(hIn, wIn, groupSize, kMin, maxGroups, 9);
        return c;
    }
    bool atMostCap() const { return instance.group_count == GroupCount::AtMostCap; }
};

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

/// A search of `moves` per chain (0: until the time limit or the bound) on
/// `threads` threads (0: one per hardware thread).
SearchOptions budget(std::int64_t moves, std::uint64_t seed = 1, int threads = 0)
{
    SearchOptions o;
    o.seed = seed;
    o.max_moves = moves;
    o.threads = threads;
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
        const BruteForceCase c = BruteForceCase::fetch();
        const Problem &problem = c.problem;
        const S1Instance &in = c.instance;
        const std::optional<int> &optimum = c.optimum;

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
        QCOMPARE(optimiseStatusName(r.status),
            optimiseStatusName(r.duration == r.lower_bound ? OptimiseStatus::Optimal : OptimiseStatus::Feasible));
        checkWithSimulator(problem, r);
    }

    // The anytime search (no move budget) against the brute force where the
    // reload bound binds: its blocks anneal with the bound relaxed and repair
    // the result, so this checks that only strategies keeping the bound come
    // out, and that the optimum is still found. The time limit only ends the
    // run; a fraction of it is enough on instances of at most 12 patches.
    void anytimeFindsTheBruteForceOptimum_data()
    {
        QTest::addColumn<int>("hIn");
        QTest::addColumn<int>("wIn");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("maxLoads");
        QTest::addColumn<bool>("atMostCap");
        QTest::addRow("5x5 G=2 L=1") << 5 << 5 << 2 << 1 << false;
        QTest::addRow("5x5 G=2 L=2") << 5 << 5 << 2 << 2 << false;
        QTest::addRow("5x5 G=3 L=1") << 5 << 5 << 3 << 1 << false;
        QTest::addRow("5x6 G=3 L=2") << 5 << 6 << 3 << 2 << false;
        QTest::addRow("4x5 G=3 any count L=1") << 4 << 5 << 3 << 1 << true;
    }
    void anytimeFindsTheBruteForceOptimum()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        OptimiseControl control;
        control.time_limit_s = 1.0;
        const OptimiseResult r = searchOptimise(c.instance, budget(0, 3, 2), control);
        if (!c.optimum) {
            QVERIFY(!r.hasSolution());
            return;
        }
        QVERIFY2(r.hasSolution(), r.message.c_str());
        const S1Evaluation ev = evaluate(c.instance, r.groups);
        QVERIFY2(ev.feasible, ev.violation.c_str());
        QCOMPARE(r.duration, double(*c.optimum));
        checkWithSimulator(c.problem, r);
    }

    // The relaxed optimum (reload bound dropped) against the brute force: it
    // is the optimum when the reload bound cannot bind, and never above the
    // optimum when it does (also when no strategy meets it at all).
    void partitionBoundIsSound_data() { findsTheBruteForceOptimum_data(); }
    void partitionBoundIsSound()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        const S1Instance &in = c.instance;
        const std::optional<int> &relaxed = c.relaxed;
        const std::optional<int> &optimum = c.optimum;
        const bool atMostCap = c.atMostCap();
        QVERIFY(relaxed);

        PartitionBoundLimits generous;
        generous.max_states = 1 << 26;
        generous.max_work = std::int64_t(1) << 40;
        const std::optional<double> bound = partitionLowerBound(in, generous);
        QVERIFY(bound);
        QCOMPARE(*bound, double(*relaxed));
        if (optimum)
            QVERIFY(*bound <= *optimum);
        QCOMPARE(reloadBoundIsSlack(in), c.instance.max_loads_per_pixel == 9);
        QVERIFY(*bound >= lowerBound(in));

        // Pruning by a known strategy's loads leaves the bound unchanged.
        if (!atMostCap) {
            const Groups known = rowByRow(in.layer, in.group_size);
            PartitionBoundLimits limits = generous;
            limits.known_loads = evaluate(in, known).loaded_pixels;
            const std::optional<double> pruned = partitionLowerBound(in, limits);
            QVERIFY(pruned);
            QCOMPARE(*pruned, *bound);
        }
    }

    // The dynamic programming keeps only partitions whose first ⌊K/2⌋ groups
    // fall short of G by at most ⌊d/2⌋ patches (d = K·G − n), since a
    // partition and its reverse cost the same. Here the memory leaves one
    // way to fill the groups: six patches in three pairs {A, B}, {C, D},
    // {E, F} of pixels {1,2}+{2,3}, {4,5}+{5,6}, {7,8}+{8,9}; only a pair's
    // own union (3 pixels) fits, so K = 3 groups of G = 3 are three pairs,
    // d = 3 and each group is one short. The first group's shortfall, 1, is
    // exactly ⌊d/2⌋; the first two groups' is 2. Every order loads the 9
    // pixels once: 9 + 3 groups = 12, by hand. A rule that kept the first
    // group full, or held the limit past the first ⌊K/2⌋ groups, would find
    // nothing.
    void reversalKeepsTheGroupsAMemoryAllows()
    {
        S1Instance in;
        in.patches = 6;
        in.pixels = 10;
        in.patch_pixels = {{1, 2}, {2, 3}, {4, 5}, {5, 6}, {7, 8}, {8, 9}};
        in.needed_pixels = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        in.group_size = 3;
        in.min_groups = in.max_groups = 2; // K_min = ⌈6 / 3⌉ = 2: no partition into 2 groups fits
        in.group_count = GroupCount::ExactlyKMin;
        in.mem_size = 3;
        in.elements_per_patch = 0;
        QVERIFY(!partitionLowerBound(in));
        in.min_groups = in.max_groups = 3;
        const std::optional<double> bound = partitionLowerBound(in);
        QVERIFY(bound);
        QCOMPARE(*bound, 12.0);
    }

    void partitionBoundRespectsItsLimits()
    {
        // 8×8 outputs: 64 patches, far too many states for the limits.
        const S1Instance big = makeS1Instance(paperProblem(10, 10, 2));
        PartitionBoundLimits limits;
        limits.max_states = 1000;
        QVERIFY(!partitionLowerBound(big, limits));
        limits.max_states = 1 << 30;
        limits.max_work = 1000;
        QVERIFY(!partitionLowerBound(big, limits));
        // Over 64 patches: not tried at all.
        QVERIFY(!partitionLowerBound(makeS1Instance(paperProblem(11, 11, 2))));
    }

    // On 5×5 inputs with G = 2 (9 patches) the pixel bound (30) is below the
    // optimum (31); the relaxed optimum is the optimum: the search says Optimal.
    void searchProvesOptimaWithThePartitionBound()
    {
        const Problem problem = paperProblem(5, 5, 2);
        const S1Instance in = makeS1Instance(problem);
        const std::optional<int> optimum = bruteForceOptimum(5, 5, 2, 5, 5, 9);
        QVERIFY(optimum);
        QVERIFY(lowerBound(in) < *optimum);
        const OptimiseResult r = searchOptimise(in, budget(200000, 1, 1));
        QCOMPARE(r.duration, double(*optimum));
        QCOMPARE(r.lower_bound, double(*optimum));
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Optimal));
    }

    // `--prove` (proveByRelaxedBound) against the brute force: offered the
    // optimum it proves it exactly when the relaxed optimum reaches it (the
    // reload bound slack, or binding without changing the optimum), and
    // otherwise bounds it by the relaxed optimum; offered one more than the
    // optimum it bounds it by the relaxed optimum.
    void proofMatchesTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void proofMatchesTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        const S1Instance &in = c.instance;
        const std::optional<int> &relaxed = c.relaxed;
        const std::optional<int> &optimum = c.optimum;
        QVERIFY(relaxed);
        if (!optimum)
            return; // nothing to prove
        BoundProofLimits limits;
        limits.time_limit_s = 600; // the instances end it, never the clock
        const BoundProof atOptimum = proveByRelaxedBound(in, *optimum, limits);
        QVERIFY(atOptimum.bound);
        if (*relaxed == *optimum) {
            QCOMPARE(boundProofStatusName(atOptimum.status), boundProofStatusName(BoundProofStatus::Proven));
            QCOMPARE(*atOptimum.bound, double(*optimum));
            QCOMPARE(atOptimum.text().rfind("proven optimal by the relaxed bound", 0), std::size_t(0));
        } else {
            QCOMPARE(boundProofStatusName(atOptimum.status), boundProofStatusName(BoundProofStatus::Bounded));
            QCOMPARE(*atOptimum.bound, double(*relaxed));
        }
        const BoundProof above = proveByRelaxedBound(in, *optimum + 1, limits);
        QCOMPARE(boundProofStatusName(above.status), boundProofStatusName(BoundProofStatus::Bounded));
        QCOMPARE(*above.bound, double(*relaxed));
        QVERIFY2(above.text().rfind("bound " + std::to_string(*relaxed) + ", gap ", 0) == 0, above.text().c_str());
    }

    // The dynamic programming on two threads: each step's states are merged
    // in a fixed order, so the bound, the states kept and the rebuilt
    // partition are those of one thread, on every brute-force instance (the
    // bound also against the brute force), with and without an incumbent.
    void proofIsTheSameOnTwoThreads_data() { findsTheBruteForceOptimum_data(); }
    void proofIsTheSameOnTwoThreads()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        QVERIFY(c.relaxed);
        for (const double incumbent : {std::numeric_limits<double>::infinity(), double(*c.relaxed) + 1}) {
            BoundProofLimits limits;
            limits.time_limit_s = 600;
            limits.keep_partition = true;
            limits.threads = 1;
            const BoundProof one = proveByRelaxedBound(c.instance, incumbent, limits);
            limits.threads = 2;
            const BoundProof two = proveByRelaxedBound(c.instance, incumbent, limits);
            QCOMPARE(boundProofStatusName(two.status), boundProofStatusName(BoundProofStatus::Bounded));
            QCOMPARE(boundProofStatusName(one.status), boundProofStatusName(two.status));
            QCOMPARE(*two.bound, double(*c.relaxed));
            QCOMPARE(one.states, two.states);
            QVERIFY(one.partition == two.partition);
            QCOMPARE(evaluate(c.instance, two.partition).duration, double(*c.relaxed));
        }
    }

    // The beam of the dynamic programming (beam_width) against the brute
    // force: a narrow beam never ends below the relaxed optimum and its
    // rebuilt partition has the duration it reports; a beam wider than any
    // step is the whole dynamic programming and finds the relaxed optimum.
    void partitionBeamNeverBeatsTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void partitionBeamNeverBeatsTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        QVERIFY(c.relaxed);
        for (const std::int64_t width : {1, 3, 1 << 24}) {
            PartitionBoundLimits limits;
            limits.max_states = std::int64_t(1) << 26;
            limits.max_work = std::int64_t(1) << 40;
            limits.keep_partition = true;
            limits.beam_width = width;
            const PartitionBoundOutcome beam = partitionBound(c.instance, limits);
            QCOMPARE(int(beam.end), int(PartitionBoundEnd::Finished));
            QVERIFY(beam.bound);
            QVERIFY(*beam.bound >= *c.relaxed);
            if (width == 1 << 24)
                QCOMPARE(*beam.bound, double(*c.relaxed));
            QCOMPARE(evaluate(c.instance, beam.partition).duration, *beam.bound);
        }
    }

    // States kept up to the grid's symmetries (PartitionDp.h): the same
    // relaxed optimum as on the same instance with its symmetries hidden (its
    // layer no longer matches its patch count, so none is found), with fewer
    // states, and a rebuilt partition (its groups mapped back through the
    // symmetries of every step) that reaches it.
    void partitionDpKeepsStatesUpToSymmetry_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("group");
        QTest::addColumn<double>("below");
        QTest::newRow("6x6 G=2 whole") << 6 << 2 << std::numeric_limits<double>::infinity();
        QTest::newRow("7x7 G=3 pruned") << 7 << 3 << 61.0;
    }
    void partitionDpKeepsStatesUpToSymmetry()
    {
        QFETCH(int, size);
        QFETCH(int, group);
        QFETCH(double, below);
        const S1Instance in = makeS1Instance(paperProblem(size, size, group));
        S1Instance hidden = in;
        hidden.layer.h_in += 1;
        QCOMPARE(patchSymmetries(hidden).size(), std::size_t(0));
        QCOMPARE(patchSymmetries(in).size(), std::size_t(7));
        PartitionBoundLimits limits;
        limits.max_states = std::int64_t(1) << 26;
        limits.max_work = std::int64_t(1) << 40;
        limits.keep_partition = true;
        if (std::isfinite(below))
            limits.below_duration = below;
        const PartitionBoundOutcome with = partitionBound(in, limits);
        const PartitionBoundOutcome without = partitionBound(hidden, limits);
        QCOMPARE(int(with.end), int(PartitionBoundEnd::Finished));
        QCOMPARE(int(without.end), int(PartitionBoundEnd::Finished));
        QVERIFY(with.bound && without.bound);
        QCOMPARE(*with.bound, *without.bound);
        QVERIFY2(with.states < without.states, (std::to_string(with.states) + " vs " + std::to_string(without.states)).c_str());
        if (!std::isfinite(below)) {
            // Nothing pruned: one state per orbit of the eight symmetries,
            // so between an eighth and a quarter of them (keeping only first
            // groups up to symmetry, as before, kept 90 % on 6x6 G=2).
            QVERIFY(8 * with.states >= without.states);
            QVERIFY(4 * with.states < without.states);
        }
        QCOMPARE(evaluate(in, with.partition).duration, *with.bound);
    }

    // The same on a layer whose steps have thousands of states, so that both
    // workers expand and merge (7×7, G = 3: 25 patches), also under the tsan
    // preset. No brute force reaches it: the rebuilt partition is evaluated.
    void proofIsTheSameOnTwoThreadsOnALargerLayer()
    {
        const S1Instance in = makeS1Instance(paperProblem(7, 7, 3));
        BoundProofLimits limits;
        limits.time_limit_s = 600;
        limits.keep_partition = true;
        const double incumbent = 61; // one above the optimum (60): the relaxed optimum is found
        limits.threads = 1;
        const BoundProof one = proveByRelaxedBound(in, incumbent, limits);
        limits.threads = 2;
        const BoundProof two = proveByRelaxedBound(in, incumbent, limits);
        QCOMPARE(boundProofStatusName(two.status), boundProofStatusName(BoundProofStatus::Bounded));
        QVERIFY(two.states > 1000);
        QCOMPARE(one.states, two.states);
        QCOMPARE(*one.bound, *two.bound);
        QVERIFY(one.partition == two.partition);
        const S1Evaluation ev = evaluate(in, two.partition);
        QVERIFY2(ev.feasible, ev.violation.c_str());
        QCOMPARE(ev.duration, *two.bound);
    }

    // Climbing from the pixel bound to the incumbent (known_bound) against
    // the brute force: the same outcome as one run at the incumbent, and the
    // highest target with nothing below it is never above the relaxed optimum.
    void climbingMatchesTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void climbingMatchesTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        QVERIFY(c.relaxed);
        for (const int above : {0, 1, 3}) {
            const double incumbent = double(*c.relaxed + above);
            BoundProofLimits limits;
            limits.time_limit_s = 600;
            limits.keep_partition = true;
            limits.known_bound = lowerBound(c.instance);
            std::vector<double> raised;
            limits.bound_raised = [&raised](double bound) { raised.push_back(bound); };
            const BoundProof p = proveByRelaxedBound(c.instance, incumbent, limits);
            QVERIFY(p.nothing_below);
            QVERIFY(*p.nothing_below <= *c.relaxed);
            QCOMPARE(p.incumbent, incumbent);
            // Each target cleared on the way is reported as it is cleared:
            // the first is the known bound + 1 whenever the climb starts
            // below both the incumbent and the relaxed optimum; all rise,
            // and none is above the relaxed optimum.
            const double first = std::floor(*limits.known_bound + 1e-9) + 1;
            if (first < incumbent && first <= *c.relaxed) {
                QVERIFY(!raised.empty());
                QCOMPARE(raised.front(), first);
            }
            for (std::size_t i = 0; i < raised.size(); ++i) {
                QVERIFY(raised[i] <= *c.relaxed);
                QVERIFY(raised[i] <= *p.nothing_below);
                if (i > 0)
                    QVERIFY(raised[i] > raised[i - 1]);
            }
            if (above == 0) {
                QCOMPARE(boundProofStatusName(p.status), boundProofStatusName(BoundProofStatus::Proven));
                QCOMPARE(*p.bound, incumbent);
                continue;
            }
            QCOMPARE(boundProofStatusName(p.status), boundProofStatusName(BoundProofStatus::Bounded));
            QCOMPARE(*p.bound, double(*c.relaxed));
            QCOMPARE(*p.nothing_below, double(*c.relaxed));
            QCOMPARE(evaluate(c.instance, p.partition).duration, double(*c.relaxed));
        }
    }

    // A cap, Stop, the time limit and a layer too large each end the proof
    // with a line that says so; the gap of the line is worked out by hand.
    void proofReportsItsLimits()
    {
        const S1Instance in = makeS1Instance(paperProblem(5, 5, 2));
        const int optimum = *bruteForceOptimum(5, 5, 2, 5, 5, 9);
        BoundProofLimits limits;
        limits.max_states = 3; // far fewer than the 9 patches need
        BoundProof p = proveByRelaxedBound(in, optimum, limits);
        QCOMPARE(boundProofStatusName(p.status), boundProofStatusName(BoundProofStatus::NotReached));
        QVERIFY(!p.bound);
        QCOMPARE(p.why, std::string("states cap hit"));
        QVERIFY2(p.text().rfind("bound not reached: states cap hit after ", 0) == 0, p.text().c_str());

        const std::atomic<bool> cancel{true};
        limits = {};
        limits.cancel = &cancel;
        // 8×8 outputs: far more than 4096 groups tried before it could end.
        const S1Instance big = makeS1Instance(paperProblem(10, 10, 3));
        p = proveByRelaxedBound(big, 1e9, limits);
        QCOMPARE(boundProofStatusName(p.status), boundProofStatusName(BoundProofStatus::NotReached));
        QCOMPARE(p.why, std::string("cancelled"));

        limits = {};
        limits.time_limit_s = 1e-6;
        p = proveByRelaxedBound(big, 1e9, limits);
        QCOMPARE(p.why, std::string("time limit reached"));

        p = proveByRelaxedBound(makeS1Instance(paperProblem(11, 11, 2)), 1e9, {});
        QCOMPARE(boundProofStatusName(p.status), boundProofStatusName(BoundProofStatus::NotTried));
        QVERIFY2(p.text().find("over 64 patches") != std::string::npos, p.text().c_str());

        // State counts in groups of three digits.
        BoundProof many;
        many.status = BoundProofStatus::NotReached;
        many.why = "time limit reached";
        many.states = 2804343;
        QVERIFY2(many.text().rfind("bound not reached: time limit reached after 2 804 343 states", 0) == 0, many.text().c_str());
        many.states = 343;
        QVERIFY2(many.text().rfind("bound not reached: time limit reached after 343 states", 0) == 0, many.text().c_str());

        // The gap in the line: incumbent 40, bound 30: 25.0 %.
        BoundProof line;
        line.status = BoundProofStatus::Bounded;
        line.incumbent = 40;
        line.bound = 30;
        QVERIFY2(line.text().rfind("bound 30, gap 25.0 %", 0) == 0, line.text().c_str());
    }

    // Method "exact" against the brute force. Its search is cut to one move,
    // so the dynamic programming often has to find the optimum and rebuild it
    // (the rebuilt partition is checked on every row first): whenever the relaxed optimum is the optimum, the result is that
    // optimum and says Optimal; where the reload bound binds (relaxed < optimum) it never claims Optimal, its bound is the
    // relaxed optimum, and it never returns an invalid strategy.
    void exactMatchesTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void exactMatchesTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        QVERIFY(c.relaxed);
        // The rebuilt partition of the whole relaxed optimum (no incumbent):
        // the relaxed optimum's duration, and valid when the reload bound is slack.
        BoundProofLimits whole;
        whole.time_limit_s = 600;
        whole.keep_partition = true;
        const BoundProof relaxed = proveByRelaxedBound(c.instance, std::numeric_limits<double>::infinity(), whole);
        QCOMPARE(boundProofStatusName(relaxed.status), boundProofStatusName(BoundProofStatus::Bounded));
        QCOMPARE(*relaxed.bound, double(*c.relaxed));
        QCOMPARE(relaxed.text().rfind("bound " + std::to_string(*c.relaxed) + " (", 0), std::size_t(0));
        const S1Evaluation rebuilt = evaluate(c.instance, relaxed.partition);
        QCOMPARE(rebuilt.duration, double(*c.relaxed));
        if (reloadBoundIsSlack(c.instance))
            QVERIFY2(rebuilt.feasible, rebuilt.violation.c_str());

        ExactOptions options;
        options.search = budget(1, 1, 1);
        OptimiseControl control;
        control.time_limit_s = 600; // the instances end it, never the clock
        const ExactOutcome exact = exactOptimise(c.instance, options, control);
        const OptimiseResult &r = exact.result;
        QCOMPARE(r.method, std::string("exact"));
        QVERIFY(!r.timed_out);
        if (c.optimum == c.relaxed) {
            QVERIFY2(r.hasSolution(), r.message.c_str());
            QCOMPARE(r.duration, double(*c.optimum));
            QCOMPARE(r.lower_bound, double(*c.optimum));
            QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Optimal));
            QCOMPARE(r.message.rfind("proven optimal", 0), std::size_t(0));
            checkWithSimulator(c.problem, r);
            return;
        }
        QVERIFY(optimiseStatusName(r.status) != optimiseStatusName(OptimiseStatus::Optimal));
        QCOMPARE(r.lower_bound, double(*c.relaxed));
        QVERIFY2(r.message.find("breaks the reload bound") != std::string::npos, r.message.c_str());
        if (r.hasSolution()) {
            QVERIFY(c.optimum);
            QVERIFY(r.duration >= *c.optimum);
            checkWithSimulator(c.problem, r);
        } else {
            QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::NoSolution));
        }
    }

    // "exact" through optimise(), with its limits: a layer over 64 patches
    // gets the search's strategy and says why it is not proven; Stop before
    // the start returns the best strategy known (a heuristic) at once; a tiny
    // states cap ends the proof without a claim.
    void exactReportsItsLimits()
    {
        OptimiseRequest request;
        request.method = OptimiseMethod::Exact;
        request.threads = 1;
        request.max_moves = 2000;
        OptimiseControl control;
        control.time_limit_s = 600;
        const OptimiseReport large = optimise(paperProblem(11, 11, 3), request, control);
        QCOMPARE(large.result.method, std::string("exact"));
        QVERIFY(large.result.hasSolution());
        QCOMPARE(optimiseStatusName(large.result.status), optimiseStatusName(OptimiseStatus::Feasible));
        QVERIFY2(large.result.message.find("too large for the exact dynamic programming") != std::string::npos,
            large.result.message.c_str());
        // The complete load-once search runs there instead (81 patches): none
        // loads each pixel once, so the bound is 121 pixels + 27 computes + 1.
        QVERIFY2(
            large.result.message.find("no strategy loads every needed pixel once, so the bound rose by one") != std::string::npos,
            large.result.message.c_str());
        QCOMPARE(large.result.lower_bound, 149.0);
        QVERIFY(large.proof);
        QCOMPARE(boundProofStatusName(large.proof->status), boundProofStatusName(BoundProofStatus::NotTried));

        const std::atomic<bool> cancel{true};
        control.cancel = &cancel;
        const OptimiseReport stopped = optimise(paperProblem(9, 9, 2), request, control);
        QVERIFY(stopped.result.cancelled);
        QVERIFY(stopped.result.hasSolution());
        QVERIFY(evaluate(stopped.instance, stopped.result.groups).feasible);
        QCOMPARE(optimiseStatusName(stopped.result.status), optimiseStatusName(OptimiseStatus::Feasible));

        control.cancel = nullptr;
        request.max_moves = 1;
        request.prove_max_states = 10;
        const OptimiseReport capped = optimise(paperProblem(8, 8, 2), request, control);
        QVERIFY2(capped.result.status == OptimiseStatus::Feasible, capped.result.message.c_str());
        QCOMPARE(capped.result.message, "not proven: " + capped.proof->text());
        QCOMPARE(capped.proof->why, std::string("states cap hit"));
        QVERIFY(optimiseReportToText(capped).find("Proof:           bound not reached: states cap hit") != std::string::npos);
    }

    // The exact method shows its bound as the proof raises it, not only at
    // the end: on 8×8 G = 2 (pixel bound 82, optimum 98) a report carries a
    // bound above the one its search ends with (the same search run alone)
    // and below the final one; the bounds never fall, and the last is the
    // duration proven optimal.
    void exactShowsTheBoundAsItRises()
    {
        const Problem problem = paperProblem(8, 8, 2);
        OptimiseRequest request;
        request.threads = 1;
        request.max_moves = 2000;
        OptimiseControl control;
        control.time_limit_s = 600;
        const double searchBound = optimise(problem, request, control).result.lower_bound;
        request.method = OptimiseMethod::Exact;
        std::vector<double> bounds;
        control.progress = [&bounds](const OptimiseProgress &p) {
            if (p.bound)
                bounds.push_back(*p.bound);
        };
        const OptimiseReport r = optimise(problem, request, control);
        QCOMPARE(optimiseStatusName(r.result.status), optimiseStatusName(OptimiseStatus::Optimal));
        QVERIFY(!bounds.empty());
        QCOMPARE(bounds.back(), r.result.duration);
        QVERIFY(std::is_sorted(bounds.begin(), bounds.end()));
        QVERIFY2(std::any_of(bounds.begin(), bounds.end(), [&](double b) { return b > searchBound && b < r.result.duration; }),
            "no bound between the search's and the proof's was reported");
    }

    // "exact" uses the time it is given: on 11x11 G = 3 (81 patches) the
    // load-once proof answers in a fraction of its half of the time, and the
    // rest goes to a second search (before, the run ended at about half the
    // limit). The strategy stays valid and the bound is the proof's.
    void exactUsesTheTimeLeft()
    {
        OptimiseRequest request;
        request.method = OptimiseMethod::Exact;
        request.threads = 1;
        OptimiseControl control;
        control.time_limit_s = 4;
        const OptimiseReport r = optimise(paperProblem(11, 11, 3), request, control);
        QVERIFY2(
            r.result.message.find("no strategy loads every needed pixel once") != std::string::npos, r.result.message.c_str());
        QCOMPARE(r.result.lower_bound, 149.0);
        QVERIFY2(r.result.seconds >= 0.9 * control.time_limit_s, std::to_string(r.result.seconds).c_str());
        QVERIFY(r.result.timed_out);
        const S1Evaluation ev = evaluate(r.instance, r.result.groups);
        QVERIFY(ev.feasible);
        QCOMPARE(ev.duration, r.result.duration);
    }

    // Through optimise(): --prove is off by default (no proof in the report)
    // and leaves the search's strategy as it is; on, the report has the proof
    // and the status Optimal (here the search's own bound already proves it).
    void optimiseProvesOnRequest()
    {
        const Problem problem = paperProblem(5, 5, 2);
        OptimiseRequest request;
        request.max_moves = 20000;
        request.threads = 1;
        OptimiseControl control;
        control.time_limit_s = 600;
        const OptimiseReport plain = optimise(problem, request, control);
        QVERIFY(!plain.proof);
        request.prove = true;
        const OptimiseReport proved = optimise(problem, request, control);
        QVERIFY(proved.proof);
        QCOMPARE(proved.result.groups, plain.result.groups); // the search itself is unchanged
        QCOMPARE(proved.result.duration, double(*bruteForceOptimum(5, 5, 2, 5, 5, 9)));
        QCOMPARE(optimiseStatusName(proved.result.status), optimiseStatusName(OptimiseStatus::Optimal));
        QVERIFY(proved.proof->bound);
        QCOMPARE(*proved.proof->bound, proved.result.duration);
        QVERIFY(optimiseReportToText(proved).find("Proof:") != std::string::npos);
    }

    // A move budget makes the run reproducible: the same seed, budget and
    // threads give the same groups. With several threads chain 0 is the
    // one-thread run, so the result is never worse than that one.
    void budgetIsDeterministic_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("maxLoads");
        QTest::addColumn<std::int64_t>("moves");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("threads");
        QTest::addRow("10x10 G=3 seed 7 threads 1") << 10 << 3 << 9 << std::int64_t(100000) << 7 << 1;
        QTest::addRow("10x10 G=3 seed 7 threads 2") << 10 << 3 << 9 << std::int64_t(100000) << 7 << 2;
        QTest::addRow("9x9 G=2 L=2 seed 1 threads 1") << 9 << 2 << 2 << std::int64_t(60000) << 1 << 1;
        QTest::addRow("9x9 G=2 L=2 seed 1 threads 3") << 9 << 2 << 2 << std::int64_t(60000) << 1 << 3;
        QTest::addRow("12x12 G=5 L=2 seed 3 threads 2") << 12 << 5 << 2 << std::int64_t(80000) << 3 << 2;
    }
    void budgetIsDeterministic()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        QFETCH(int, maxLoads);
        QFETCH(std::int64_t, moves);
        QFETCH(int, seed);
        QFETCH(int, threads);
        const Problem problem = paperProblem(size, size, groupSize, maxLoads);
        const S1Instance in = makeS1Instance(problem);
        OptimiseControl control;
        control.time_limit_s = 600; // the budget ends these runs, never the clock
        const OptimiseResult a = searchOptimise(in, budget(moves, std::uint64_t(seed), threads), control);
        const OptimiseResult b = searchOptimise(in, budget(moves, std::uint64_t(seed), threads), control);
        QVERIFY2(a.hasSolution(), a.message.c_str());
        QVERIFY(!a.timed_out && !b.timed_out);
        QCOMPARE(groupsText(a.groups), groupsText(b.groups));
        QCOMPARE(a.duration, b.duration);
        QVERIFY2(evaluate(in, a.groups).feasible, evaluate(in, a.groups).violation.c_str());
        if (const std::optional<NamedGroups> heuristic = bestFeasibleHeuristic(in))
            QVERIFY(a.duration <= heuristic->evaluation.duration);
        if (threads > 1) {
            const OptimiseResult one = searchOptimise(in, budget(moves, std::uint64_t(seed), 1), control);
            QVERIFY2(a.duration <= one.duration, (std::to_string(a.duration) + " > " + std::to_string(one.duration)).c_str());
        }
    }

    // Several chains at once: a valid strategy that computes the right
    // convolution, of the duration the simulator measures, never worse than
    // the best heuristic; anytime and with a budget.
    void severalThreadsGiveAValidStrategy_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("maxLoads");
        QTest::addColumn<std::int64_t>("moves");
        QTest::addColumn<int>("threads");
        QTest::addRow("9x9 G=2 L=2 threads 2 anytime") << 9 << 2 << 2 << std::int64_t(0) << 2;
        QTest::addRow("10x10 G=4 L=2 threads 2 budget") << 10 << 4 << 2 << std::int64_t(100000) << 2;
        QTest::addRow("11x11 G=3 threads 4 anytime") << 11 << 3 << 9 << std::int64_t(0) << 4;
        QTest::addRow("12x12 G=5 L=2 threads 3 budget") << 12 << 5 << 2 << std::int64_t(50000) << 3;
    }
    void severalThreadsGiveAValidStrategy()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        QFETCH(int, maxLoads);
        QFETCH(std::int64_t, moves);
        QFETCH(int, threads);
        const Problem problem = paperProblem(size, size, groupSize, maxLoads);
        const S1Instance in = makeS1Instance(problem);
        OptimiseControl control;
        control.time_limit_s = moves > 0 ? 600 : 0.5;
        const OptimiseResult r = searchOptimise(in, budget(moves, 1, threads), control);
        QVERIFY2(r.hasSolution(), r.message.c_str());
        QCOMPARE(evaluate(in, r.groups).duration, r.duration);
        QVERIFY(r.duration >= lowerBound(in));
        if (const std::optional<NamedGroups> heuristic = bestFeasibleHeuristic(in))
            QVERIFY(r.duration <= heuristic->evaluation.duration);
        checkWithSimulator(problem, r);
    }

    // Without a move budget the search keeps improving until the time limit
    // when it cannot reach the lower bound (12×12, G = 3, reload bound 2: the
    // bound is 178, the best known strategy 215).
    void anytimeUsesItsTime_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addRow("threads 1") << 1;
        QTest::addRow("threads 2") << 2;
    }
    void anytimeUsesItsTime()
    {
        QFETCH(int, threads);
        const Problem problem = paperProblem(12, 12, 3, 2);
        const S1Instance in = makeS1Instance(problem);
        OptimiseControl control;
        control.time_limit_s = 1.5;
        const auto start = std::chrono::steady_clock::now();
        const OptimiseResult r = searchOptimise(in, budget(0, 1, threads), control);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY2(seconds >= 0.9 * control.time_limit_s, std::to_string(seconds).c_str());
        QVERIFY2(seconds < control.time_limit_s + 1.0, std::to_string(seconds).c_str());
        QVERIFY(r.timed_out);
        QVERIFY(!r.cancelled);
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Feasible));
        QVERIFY2(evaluate(in, r.groups).feasible, evaluate(in, r.groups).violation.c_str());
        checkWithSimulator(problem, r);
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

    // Cancel, raised from another thread, stops every chain: the best valid
    // strategy so far comes back within a second.
    void cancelReturnsTheBestSoFar_data()
    {
        QTest::addColumn<std::int64_t>("moves");
        QTest::addColumn<int>("threads");
        QTest::addRow("anytime, threads 1") << std::int64_t(0) << 1;
        QTest::addRow("anytime, threads 2") << std::int64_t(0) << 2;
        QTest::addRow("anytime, threads 4") << std::int64_t(0) << 4;
        QTest::addRow("huge budget, threads 2") << (std::int64_t(1) << 40) << 2;
    }
    void cancelReturnsTheBestSoFar()
    {
        QFETCH(std::int64_t, moves);
        QFETCH(int, threads);
        const Problem problem = paperProblem(12, 12, 4);
        const S1Instance in = makeS1Instance(problem);
        std::atomic<bool> cancel = false;
        std::atomic<std::int64_t> cancelledAt{0}; // steady_clock ticks
        OptimiseControl control;
        control.cancel = &cancel;
        control.time_limit_s = 60;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancelledAt = std::chrono::steady_clock::now().time_since_epoch().count();
            cancel = true;
        });
        const OptimiseResult r = searchOptimise(in, budget(moves, 1, threads), control);
        const auto returned = std::chrono::steady_clock::now();
        canceller.join();
        const double afterCancel = std::chrono::duration<double>(
            returned - std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(cancelledAt.load())))
                                       .count();
        QVERIFY(r.cancelled);
        QVERIFY(!r.timed_out);
        QVERIFY2(afterCancel < 1.0, std::to_string(afterCancel).c_str());
        QVERIFY(r.hasSolution());
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Feasible));
        QVERIFY(r.duration <= bestFeasibleHeuristic(in)->evaluation.duration);
        QCOMPARE(evaluate(in, r.groups).duration, r.duration);
        checkWithSimulator(problem, r);
    }

    void timeLimitStopsTheRun_data()
    {
        QTest::addColumn<std::int64_t>("moves");
        QTest::addColumn<int>("threads");
        QTest::addRow("anytime, threads 1") << std::int64_t(0) << 1;
        QTest::addRow("anytime, threads 2") << std::int64_t(0) << 2;
        QTest::addRow("huge budget, threads 1") << (std::int64_t(1) << 40) << 1;
        QTest::addRow("huge budget, threads 2") << (std::int64_t(1) << 40) << 2;
    }
    void timeLimitStopsTheRun()
    {
        QFETCH(std::int64_t, moves);
        QFETCH(int, threads);
        const S1Instance in = makeS1Instance(paperProblem(12, 12, 4));
        OptimiseControl control;
        control.time_limit_s = 0.2;
        const OptimiseResult r = searchOptimise(in, budget(moves, 1, threads), control);
        QVERIFY(r.timed_out);
        QVERIFY(!r.cancelled);
        QVERIFY2(r.seconds < 1.5, std::to_string(r.seconds).c_str());
        QVERIFY(evaluate(in, r.groups).feasible);
    }

    void progressIsReportedAndMonotone_data()
    {
        QTest::addColumn<std::int64_t>("moves");
        QTest::addColumn<int>("threads");
        QTest::addRow("budget, threads 1") << std::int64_t(300000) << 1;
        QTest::addRow("budget, threads 2") << std::int64_t(300000) << 2;
        QTest::addRow("anytime, threads 2") << std::int64_t(0) << 2;
    }
    void progressIsReportedAndMonotone()
    {
        QFETCH(std::int64_t, moves);
        QFETCH(int, threads);
        const S1Instance in = makeS1Instance(paperProblem(12, 12, 3));
        std::vector<OptimiseProgress> seen;
        const std::thread::id caller = std::this_thread::get_id();
        bool fromTheCaller = true;
        OptimiseControl control;
        control.time_limit_s = moves > 0 ? 600 : 0.5;
        control.progress = [&](const OptimiseProgress &p) {
            seen.push_back(p);
            fromTheCaller = fromTheCaller && std::this_thread::get_id() == caller;
        };
        const OptimiseResult r = searchOptimise(in, budget(moves, 1, threads), control);
        QVERIFY(fromTheCaller);
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

    /// Where Row-by-Row already loads every pixel once (6×6, G = 8), the
    /// bound is reached before any chain runs; on 7×7, G = 4 (heuristics 60,
    /// bound 56) a chain reaches it and stops every chain: Optimal, long
    /// before the time limit, with or without a budget.
    void stopsAtTheLowerBound_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<std::int64_t>("moves");
        QTest::addColumn<int>("threads");
        for (int size : {6, 7}) {
            const int g = size == 6 ? 8 : 4;
            QTest::addRow("%dx%d G=%d anytime, threads 1", size, size, g) << size << g << std::int64_t(0) << 1;
            QTest::addRow("%dx%d G=%d anytime, threads 2", size, size, g) << size << g << std::int64_t(0) << 2;
            QTest::addRow("%dx%d G=%d huge budget, threads 2", size, size, g) << size << g << (std::int64_t(1) << 40) << 2;
        }
    }
    void stopsAtTheLowerBound()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        QFETCH(std::int64_t, moves);
        QFETCH(int, threads);
        const S1Instance in = makeS1Instance(paperProblem(size, size, groupSize));
        OptimiseControl control;
        control.time_limit_s = 60;
        const OptimiseResult r = searchOptimise(in, budget(moves, 1, threads), control);
        // With a budget no run can spend, only the bound or the time limit
        // can end the search: not timed out means it stopped at the bound
        // (no wall-clock check: a sanitizer build on a busy CI machine once
        // took 5.2 s here).
        QVERIFY(!r.timed_out);
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Optimal));
        QCOMPARE(r.duration, lowerBound(in));
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

    // The load-once search against the brute force: whatever it returns
    // loads every needed pixel once in K_min groups (so the brute force's
    // optimum must be exactly that), and where the brute force's optimum is
    // that, it finds one (these layers are small enough for its sweeps).
    void loadOnceMatchesTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void loadOnceMatchesTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        const S1Instance &in = c.instance;
        const int pixelBound = int(in.needed_pixels.size() + in.min_groups);
        const LoadOnceOutcome found = findLoadOnceStrategy(in);
        if (found.groups) {
            const S1Evaluation ev = evaluate(in, *found.groups);
            QVERIFY2(ev.feasible, ev.violation.c_str());
            QCOMPARE(ev.loaded_pixels, std::int64_t(in.needed_pixels.size()));
            QCOMPARE(ev.groups, in.min_groups);
            QVERIFY(c.optimum.has_value());
            QCOMPARE(*c.optimum, pixelBound);
            OptimiseResult r;
            r.groups = *found.groups;
            r.duration = pixelBound;
            checkWithSimulator(c.problem, r);
        } else {
            QVERIFY2(!c.optimum || *c.optimum > pixelBound, "the brute force loads every pixel once; the search missed it");
        }
    }

    // The complete load-once search against the brute force: it finds a
    // strategy loading every pixel once exactly where the brute force's
    // optimum is the pixel bound, and otherwise proves there is none, so
    // the bound it then gives never exceeds the optimum.
    void loadOnceProofMatchesTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void loadOnceProofMatchesTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        const S1Instance &in = c.instance;
        const int pixelBound = int(in.needed_pixels.size() + in.min_groups);
        const LoadOnceProof proof = proveLoadOnce(in);
        // The two-word patch sets (layers of 65 to 128 patches) on the same
        // instance: the same search, so the same answer and the same steps.
        LoadOnceProofLimits wide;
        wide.wide_sets = true;
        const LoadOnceProof twoWords = proveLoadOnce(in, wide);
        QCOMPARE(int(twoWords.status), int(proof.status));
        QCOMPARE(twoWords.nodes, proof.nodes);
        QVERIFY(twoWords.groups == proof.groups);
        if (c.optimum && *c.optimum == pixelBound) {
            QCOMPARE(int(proof.status), int(LoadOnceProofStatus::Exists));
            QVERIFY(proof.groups.has_value());
            const S1Evaluation ev = evaluate(in, *proof.groups);
            QVERIFY2(ev.feasible, ev.violation.c_str());
            QCOMPARE(ev.duration, double(pixelBound));
        } else {
            QCOMPARE(int(proof.status), int(LoadOnceProofStatus::None));
            QCOMPARE(boundWithoutLoadOnce(in), double(pixelBound + 1));
            QVERIFY(!c.optimum || boundWithoutLoadOnce(in) <= *c.optimum);
        }
    }

    // On the paper's grid (its memory, reload bound 9): the exact dynamic
    // programming proved 6×6, G = 2 at 48 and 7×7, G = 3 at 60 (docs/design/optimisers.md),
    // above their pixel bounds 44 and 58, so no strategy loads every pixel
    // once there and the proof must say so; the search then reports the
    // pixel bound + 1. On 10×10, G = 5 the proof says none after about 27 M
    // steps (2 s); a strategy of 114 = 100 + 13 + 1 exists (docs/design/optimisers.md), so
    // the bound it gives is reached there.
    void loadOnceProofRaisesTheBound_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("bound");
        QTest::addRow("6x6 G=2") << 6 << 2 << 36 + 8 + 1;
        QTest::addRow("7x7 G=3") << 7 << 3 << 49 + 9 + 1;
        QTest::addRow("10x10 G=5") << 10 << 5 << 100 + 13 + 1;
    }
    void loadOnceProofRaisesTheBound()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        QFETCH(int, bound);
        Problem problem = paperProblem(size, size, groupSize);
        problem.hardware.mem_size = 9 * groupSize + 9 + groupSize;
        const S1Instance in = makeS1Instance(problem);
        const LoadOnceProof proof = proveLoadOnce(in);
        QCOMPARE(int(proof.status), int(LoadOnceProofStatus::None));
        QCOMPARE(boundWithoutLoadOnce(in), double(bound));
        // With a move budget only the node budgets bound the load-once
        // searches (the time limit, far off, is for a sanitizer build).
        OptimiseControl control;
        control.time_limit_s = 600;
        const OptimiseResult r = searchOptimise(in, budget(1000, 1, 1), control);
        QVERIFY(r.lower_bound >= bound);
        QVERIFY(r.duration >= r.lower_bound);
    }

    // Two-word patch sets on the paper's grid over 64 patches (paper
    // memory, reload bound 2): 11×11, G = 7 (81 patches) loads each of the
    // 121 pixels once in K_min = ⌈81/7⌉ = 12 groups, 133 by hand (the
    // simulator checks it); 11×11, G = 3 has none, so every strategy costs
    // at least 121 + 27 + 1 = 149.
    void loadOnceProofOnWideLayers()
    {
        Problem seven = paperProblem(11, 11, 7, 2);
        seven.hardware.mem_size = 9 * 7 + 9 + 7;
        const S1Instance in = makeS1Instance(seven);
        QVERIFY(loadOnceProofFits(in));
        const LoadOnceProof found = proveLoadOnce(in);
        QCOMPARE(int(found.status), int(LoadOnceProofStatus::Exists));
        QVERIFY(found.groups.has_value());
        OptimiseResult r;
        r.groups = *found.groups;
        r.duration = 133;
        checkWithSimulator(seven, r);

        Problem three = paperProblem(11, 11, 3, 2);
        three.hardware.mem_size = 9 * 3 + 9 + 3;
        const S1Instance none = makeS1Instance(three);
        QCOMPARE(int(proveLoadOnce(none).status), int(LoadOnceProofStatus::None));
        QCOMPARE(boundWithoutLoadOnce(none), 149.0);
    }

    // Beyond 128 patches it does not try, and says so.
    void loadOnceProofKnowsItsLimits()
    {
        const S1Instance in = makeS1Instance(paperProblem(14, 14, 6));
        QVERIFY(!loadOnceProofFits(in));
        const LoadOnceProof proof = proveLoadOnce(in);
        QCOMPARE(int(proof.status), int(LoadOnceProofStatus::Unknown));
        QCOMPARE(proof.why, std::string("over 128 patches or 256 needed pixels"));
        LoadOnceProofLimits tiny;
        tiny.max_nodes = 10;
        const LoadOnceProof cut = proveLoadOnce(makeS1Instance(paperProblem(10, 10, 5)), tiny);
        QCOMPARE(int(cut.status), int(LoadOnceProofStatus::Unknown));
        QCOMPARE(cut.why, std::string("node budget spent"));
        // Two groups of 32 of the 64 patches, in a memory of 50 pixels (the
        // kernel and 32 outputs aside): no 32 patches fit (a 4×8 block holds
        // 60 pixels), but the first group's smaller parts that fit are
        // countless. The budget counts every step of building them, so it
        // ends; Stop ends it too.
        Problem wideProblem = paperProblem(10, 10, 32);
        wideProblem.hardware.mem_size = 50 + 32 + 9;
        const S1Instance wide = makeS1Instance(wideProblem);
        LoadOnceProofLimits small;
        small.max_nodes = 100000;
        QCOMPARE(proveLoadOnce(wide, small).why, std::string("node budget spent"));
        const std::atomic<bool> stop{true};
        LoadOnceProofLimits stopped;
        stopped.stop = &stop;
        QCOMPARE(proveLoadOnce(wide, stopped).why, std::string("cancelled"));
    }

    // On the paper's grid (its memory: G windows, G outputs and the kernel;
    // reload bound 2), strategies loading each of the H×W pixels once in
    // K_min = ⌈(H−2)²/G⌉ groups: D = H² + K_min, worked out by hand. The
    // issue's table had 11×11, G = 6 at 135 as reachable, which the annealing
    // never reached (141–143). The simulator checks each strategy.
    void loadOnceReachesThePixelBound_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("duration");
        QTest::addRow("7x7 G=4") << 7 << 4 << 49 + 7;
        QTest::addRow("9x9 G=5") << 9 << 5 << 81 + 10;
        QTest::addRow("11x11 G=6") << 11 << 6 << 121 + 14;
        QTest::addRow("11x11 G=7") << 11 << 7 << 121 + 12;
        QTest::addRow("12x12 G=7") << 12 << 7 << 144 + 15;
    }
    void loadOnceReachesThePixelBound()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        QFETCH(int, duration);
        Problem problem = paperProblem(size, size, groupSize, 2);
        problem.hardware.mem_size = 9 * groupSize + 9 + groupSize;
        const S1Instance in = makeS1Instance(problem);
        const LoadOnceOutcome found = findLoadOnceStrategy(in);
        QVERIFY(found.groups.has_value());
        for (const Group &g : *found.groups)
            QVERIFY(std::int64_t(g.size()) <= groupSize);
        OptimiseResult r;
        r.groups = *found.groups;
        r.duration = duration;
        checkWithSimulator(problem, r);
        // Same budget, same strategy.
        QCOMPARE(groupsText(*findLoadOnceStrategy(in).groups), groupsText(*found.groups));
        // The search starts with it, and stops there: nothing is below. With
        // a move budget only the node budget bounds the load-once search
        // (the time limit, far off, is for a sanitizer build on a slow CI).
        OptimiseControl control;
        control.time_limit_s = 600;
        const OptimiseResult searched = searchOptimise(in, budget(1000, 1, 1), control);
        QCOMPARE(searched.duration, double(duration));
        QCOMPARE(optimiseStatusName(searched.status), optimiseStatusName(OptimiseStatus::Optimal));
    }

    /// The staircase band seed walks a band along its diagonals. On 11×11,
    /// G = 3 (9×9 patches), bands of 3 rows with shift 2 order the first
    /// band by column + 2·row, then row: (0,0) (0,1) (0,2) (1,0) (0,3)
    /// (1,1) (0,4) (1,2) (2,0) ..., so its first groups are {0, 1, 2},
    /// {9, 3, 10}, {4, 11, 18}. The simulator prices it at 172 under the
    /// reload bound 2: the issue's best reachable duration for this instance,
    /// which the search had not reached from the column bands (177–178).
    void staircaseBandWalksDiagonals()
    {
        const Problem problem = paperProblem(11, 11, 3, 2);
        const S1Instance in = makeS1Instance(problem);
        const std::vector<NamedGroups> tilings = tilingCandidates(in);
        const auto it = std::find_if(
            tilings.begin(), tilings.end(), [](const NamedGroups &t) { return t.name == "rows band 3 staircase 2"; });
        QVERIFY(it != tilings.end());
        QVERIFY(it->groups.size() >= 3);
        QCOMPARE(it->groups[0], (Group{0, 1, 2}));
        QCOMPARE(it->groups[1], (Group{9, 3, 10}));
        QCOMPARE(it->groups[2], (Group{4, 11, 18}));
        OptimiseResult r;
        r.groups = it->groups;
        r.duration = 172;
        checkWithSimulator(problem, r);
    }
    // The wavefront beam against the brute force: whatever it returns is a
    // valid strategy of K_min groups, never below the optimum of all ordered
    // partitions; where no strategy keeps the reload bound, it finds none.
    // Two threads give the strategy of one.
    void wavefrontNeverBeatsTheBruteForce_data() { findsTheBruteForceOptimum_data(); }
    void wavefrontNeverBeatsTheBruteForce()
    {
        const BruteForceCase c = BruteForceCase::fetch();
        const S1Instance &in = c.instance;
        WavefrontBeamLimits limits;
        limits.width = 16;
        const std::optional<Groups> found = wavefrontBeam(in, limits);
        if (!c.optimum) {
            QVERIFY(!found);
            return;
        }
        if (!found)
            return; // a beam may miss a strategy the reload bound leaves narrow
        const S1Evaluation ev = evaluate(in, *found);
        QVERIFY2(ev.feasible, ev.violation.c_str());
        QCOMPARE(ev.groups, in.min_groups);
        QVERIFY(ev.duration >= *c.optimum);
        OptimiseResult r;
        r.groups = *found;
        r.duration = ev.duration;
        checkWithSimulator(c.problem, r);
        limits.threads = 2;
        QCOMPARE(groupsText(*wavefrontBeam(in, limits)), groupsText(*found));
    }

    // The issue's table of durations reachable on the paper's grid (memory:
    // G windows, G outputs and the kernel; reload bound 2), which the
    // annealing missed by 3-7 %: a beam of 64 states reaches each, and the
    // simulator confirms the strategy, its duration and the reload bound.
    void wavefrontReachesTheIssuesDurations_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("reachable");
        QTest::addRow("9x9 G=2") << 9 << 2 << 135;
        QTest::addRow("10x10 G=4") << 10 << 4 << 124;
        QTest::addRow("11x11 G=3") << 11 << 3 << 172;
        QTest::addRow("12x12 G=3") << 12 << 3 << 215;
        QTest::addRow("12x12 G=5") << 12 << 5 << 176;
    }
    void wavefrontReachesTheIssuesDurations()
    {
        QFETCH(int, size);
        QFETCH(int, groupSize);
        QFETCH(int, reachable);
        Problem problem = paperProblem(size, size, groupSize, 2);
        problem.hardware.mem_size = 9 * groupSize + 9 + groupSize;
        const S1Instance in = makeS1Instance(problem);
        const std::optional<Groups> found = wavefrontBeam(in);
        QVERIFY(found.has_value());
        const S1Evaluation ev = evaluate(in, *found);
        QVERIFY2(ev.feasible, ev.violation.c_str());
        QVERIFY2(ev.duration <= reachable, std::to_string(ev.duration).c_str());
        OptimiseResult r;
        r.groups = *found;
        r.duration = ev.duration;
        checkWithSimulator(problem, r);
    }

    // A raised stop flag ends the beam at once, with nothing.
    void wavefrontStops()
    {
        const S1Instance in = makeS1Instance(paperProblem(12, 12, 3, 2));
        const std::atomic<bool> stop{true};
        WavefrontBeamLimits limits;
        limits.stop = &stop;
        limits.width = 4096;
        const auto started = std::chrono::steady_clock::now();
        QVERIFY(!wavefrontBeam(in, limits));
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
    }
};

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
