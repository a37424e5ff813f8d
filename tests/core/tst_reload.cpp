// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The paper's reload assumption as one notion: counted in full (pixels,
// kernels, patches) whatever the diagnostics cap, by both executors, and put
// in the same words in the simulate report (text and JSON) and the comparison.
// Every expected number below is worked out by hand in the comments.

#include "convoffload/io/Report.h"
#include "convoffload/simulate/Comparison.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/Verdict.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace convoffload;

namespace {

/// Input 1×2×7, one 2×3 kernel, stride 1, no padding: output 1×5, patch j
/// reads columns j..j+2 of both rows (pixels (0,c) and (1,c)).
Problem stripProblem(int bound)
{
    Problem p;
    p.layer = {1, 2, 7, 2, 3, 1, 1, 1, 0, 0, 0, 0};
    p.hardware.mem_size = 1000;
    p.hardware.nbop_pe = 1000;
    p.hardware.max_loads_per_element = bound;
    return p;
}

/// Groups {0},{3},{1},{4},{2}: column loads per step (U(g) \ U(g-1)):
///   step 1 {0}: cols 0,1,2 loaded          -> c0=1 c1=1 c2=1
///   step 2 {3}: cols 3,4,5 loaded          -> c3=1 c4=1 c5=1
///   step 3 {1}: keeps 3, loads 1,2         -> c1=2 c2=2
///   step 4 {4}: shares nothing with {1,2,3}, loads 4,5,6 -> c4=2 c5=2 c6=1
///   step 5 {2}: keeps 4 of {4,5,6}, loads 2,3 -> c2=3 c3=2
/// Final counts per column: 1 2 3 2 2 2 1 (each for both rows).
StrategySpec hoppingGroups() { return {"Hopping", StrategyKind::Groups, std::nullopt, {{0}, {3}, {1}, {4}, {2}}}; }

SimulationResult run(const Problem &problem, const StrategySpec &spec, bool trace, int cap = 50)
{
    SimulationOptions options;
    options.trace = trace; // a trace forces the general executor; without, the fused pass
    options.max_diagnostics_per_rule = cap;
    return simulateStrategy(problem, spec, options);
}

std::vector<PatchId> patches(std::initializer_list<PatchId> ids) { return ids; }

} // namespace

class TestReload : public QObject {
    Q_OBJECT
private slots:
    void countsEveryElementAndPatch_data()
    {
        QTest::addColumn<int>("bound");
        QTest::addColumn<bool>("trace");
        QTest::addColumn<int>("cap");
        QTest::addColumn<qint64>("pixels");
        QTest::addColumn<std::vector<PatchId>>("flagged");
        // Bound 2: only column 2 (3 loads) -> 2 pixels; it is loaded the 3rd
        // time at step 5, which computes patch 2.
        // Bound 1: columns 1..5 (2 or 3 loads) -> 10 pixels; beyond-bound
        // loads at step 3 (cols 1,2: patch 1), step 4 (cols 4,5: patch 4),
        // step 5 (cols 2,3: patch 2).
        // Bound 3: nothing.
        for (const bool trace : {false, true})
            for (const int cap : {50, 1}) {
                const QByteArray tag = QByteArray(trace ? "general" : "fused") + (cap == 1 ? " cap 1" : "");
                QTest::newRow(tag + ", bound 2") << 2 << trace << cap << qint64(2) << patches({2});
                QTest::newRow(tag + ", bound 1") << 1 << trace << cap << qint64(10) << patches({1, 2, 4});
                QTest::newRow(tag + ", bound 3") << 3 << trace << cap << qint64(0) << patches({});
            }
    }
    void countsEveryElementAndPatch()
    {
        QFETCH(int, bound);
        QFETCH(bool, trace);
        QFETCH(int, cap);
        QFETCH(qint64, pixels);
        QFETCH(std::vector<PatchId>, flagged);
        const SimulationResult r = run(stripProblem(bound), hoppingGroups(), trace, cap);
        QVERIFY(r.valid());
        QCOMPARE(r.functional.status, FunctionalStatus::Pass);
        QCOMPARE(r.reload.bound, bound);
        QCOMPARE(r.reload.pixels, pixels);
        QCOMPARE(r.reload.kernels, qint64(0));
        QCOMPARE(r.reload.patches, flagged);
        QCOMPARE(r.reload.met(), pixels == 0);
        // Whatever the cap lists, the counts are whole; no other warnings.
        QCOMPARE(r.plainWarningCount(), qint64(0));
        const Verdict v = verdictOf(r);
        QCOMPARE(v.status, pixels > 0 ? StrategyStatus::BreaksAssumptions : StrategyStatus::MeetsAssumptions);
    }

    /// Kernel streaming reloads kernels: input 1×1×3, two 1×1 kernels, so
    /// patch j is pixel j. Steps p0×k0, p0×k1, p1×k0, p1×k1, p2×k0, p2×k1:
    /// k0 is loaded at steps 1, 3, 5 (3 times), k1 at 2, 4, 6 (3 times);
    /// each pixel once (kept across the two steps of its patch). Bound 2:
    /// 2 kernels, 0 pixels; the third loads are at steps 5 and 6, both on
    /// patch 2.
    void kernelsAreCountedApart()
    {
        for (const bool trace : {false, true}) {
            Problem p;
            p.layer = {1, 1, 3, 1, 1, 2, 1, 1, 0, 0, 0, 0};
            p.hardware.mem_size = 1000;
            p.hardware.nbop_pe = 1000;
            p.hardware.max_loads_per_element = 2;
            StrategySpec spec;
            spec.name = "Alternating";
            spec.kind = StrategyKind::Steps;
            for (PatchId patch = 0; patch < 3; ++patch)
                for (KernelId k = 0; k < 2; ++k)
                    spec.steps.push_back({{patch}, {k}});
            const SimulationResult r = run(p, spec, trace);
            QVERIFY(r.valid());
            QCOMPARE(r.reload.pixels, qint64(0));
            QCOMPARE(r.reload.kernels, qint64(2));
            QCOMPARE(r.reload.patches, patches({2}));
            QCOMPARE(verdictText(verdictOf(r)), std::string("runs correctly, breaks the reload assumption on 2 kernels"));
        }
    }

    /// An independent route: sets of pixels per group (std::set, no stamps),
    /// loads = U(g) \ U(g-1), over random orders of the patches cut into
    /// groups, on small layers with padding and strides; both executors must
    /// give the same pixel count and marked patches.
    void agreesWithSetsOnRandomGroups()
    {
        std::mt19937 rng(7);
        int broken = 0;
        for (int trial = 0; trial < 60; ++trial) {
            Problem p;
            p.layer = {1, 4 + int(rng() % 5), 4 + int(rng() % 5), 2 + int(rng() % 2), 2 + int(rng() % 2), 1, 1 + int(rng() % 2),
                1, int(rng() % 2), 0, int(rng() % 2), 0};
            p.hardware.mem_size = 100000;
            p.hardware.nbop_pe = 100000;
            p.hardware.max_loads_per_element = 1 + int(rng() % 2);
            const Layer &l = p.layer;
            std::vector<PatchId> order(std::size_t(l.patchCount()));
            std::iota(order.begin(), order.end(), PatchId(0));
            std::shuffle(order.begin(), order.end(), rng);
            const std::size_t g = 1 + rng() % 3;
            Groups groups;
            for (std::size_t i = 0; i < order.size(); i += g)
                groups.emplace_back(
                    order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(std::min(order.size(), i + g)));

            const auto pixelsOf = [&](PatchId patch) {
                std::set<std::pair<int, int>> out;
                const int r0 = int(patch / PatchId(l.wOut())) * l.stride_h, c0 = int(patch % PatchId(l.wOut())) * l.stride_w;
                for (int a = 0; a < l.h_k; ++a)
                    for (int b = 0; b < l.w_k; ++b)
                        out.insert({r0 + a, c0 + b});
                return out;
            };
            std::map<std::pair<int, int>, int> loads;
            std::set<std::pair<int, int>> previous;
            std::vector<PatchId> marked;
            for (const auto &group : groups) {
                std::set<std::pair<int, int>> now, beyond;
                for (PatchId patch : group)
                    for (const auto &px : pixelsOf(patch))
                        now.insert(px);
                for (const auto &px : now)
                    if (!previous.count(px) && ++loads[px] > p.hardware.max_loads_per_element)
                        beyond.insert(px);
                for (PatchId patch : group)
                    for (const auto &px : pixelsOf(patch))
                        if (beyond.count(px)) {
                            marked.push_back(patch);
                            break;
                        }
                previous = now;
            }
            std::sort(marked.begin(), marked.end());
            marked.erase(std::unique(marked.begin(), marked.end()), marked.end());
            const qint64 pixels = std::count_if(
                loads.begin(), loads.end(), [&](const auto &e) { return e.second > p.hardware.max_loads_per_element; });
            broken += pixels > 0;
            for (const bool trace : {false, true}) {
                const SimulationResult r = run(p, {"Random", StrategyKind::Groups, std::nullopt, groups}, trace, 1);
                QCOMPARE(r.reload.pixels, pixels);
                QCOMPARE(r.reload.patches, marked);
            }
        }
        QVERIFY(broken > 10); // the check saw the assumption broken often
    }

    // A depthwise layer (c_in = n = g = 2, input 1×4, 1×2 kernels: patches
    // {0,1}, {1,2}, {2,3}) grouped [0], [2], [1]: step 3 loads pixel 1 again
    // (pixel 2 is kept), both its slices; with the bound at 1 that is one
    // pixel beyond it, two slices, two warnings and no other warning.
    void groupedLayerCountsPixels()
    {
        Problem p;
        p.layer.c_in = p.layer.n = p.layer.group = 2;
        p.layer.h_in = 1;
        p.layer.w_in = 4;
        p.layer.h_k = 1;
        p.layer.w_k = 2;
        p.hardware.mem_size = 100;
        p.hardware.nbop_pe = 4;
        p.hardware.max_loads_per_element = 1;
        StrategySpec spec;
        spec.name = "g";
        spec.kind = StrategyKind::Groups;
        spec.groups = {{0}, {2}, {1}};
        for (bool trace : {true, false}) { // the general executor, the fused pass
            SimulationOptions o;
            o.trace = trace;
            const SimulationResult r = simulateStrategy(p, spec, o);
            QCOMPARE(r.input_load_counts, (std::vector<std::uint32_t>{1, 1, 2, 2, 1, 1, 1, 1}));
            QCOMPARE(r.reload.pixels, std::int64_t(1));
            QCOMPARE(r.reload.slices, std::int64_t(2));
            QCOMPARE(r.warning_count, std::int64_t(2));
            QCOMPARE(r.plainWarningCount(), std::int64_t(0));
            const Verdict v = verdictOf(r);
            QCOMPARE(v.plain_warnings, std::int64_t(0));
            QCOMPARE(verdictText(v), std::string("runs correctly, breaks the reload assumption on 1 pixel"));
            CompareRow row;
            setRowFigures(row, r);
            QCOMPARE(verdictText(verdictOf(row)), verdictText(v));
            QCOMPARE(verdictOf(row).plain_warnings, std::int64_t(0));
        }
    }

    void words_data()
    {
        QTest::addColumn<qint64>("errors");
        QTest::addColumn<qint64>("warnings");
        QTest::addColumn<qint64>("pixels");
        QTest::addColumn<qint64>("kernels");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("summary");
        QTest::newRow("meets") << qint64(0) << qint64(0) << qint64(0) << qint64(0)
                               << "runs correctly, meets the paper's assumptions"
                               << "runs correctly, meets the paper's assumptions";
        QTest::newRow("840 pixels") << qint64(0) << qint64(840) << qint64(840) << qint64(0)
                                    << "runs correctly, breaks the reload assumption on 840 pixels"
                                    << "runs correctly, breaks the reload assumption on 840 pixels";
        QTest::newRow("1 pixel, 3 kernels, 2 others")
            << qint64(0) << qint64(6) << qint64(1) << qint64(3)
            << "runs correctly, breaks the reload assumption on 1 pixel and 3 kernels"
            << "runs correctly, breaks the reload assumption on 1 pixel and 3 kernels; 2 other warnings";
        QTest::newRow("invalid") << qint64(3) << qint64(5) << qint64(4) << qint64(0) << "invalid: 3 errors"
                                 << "invalid: 3 errors; 1 warning";
    }
    void words()
    {
        QFETCH(qint64, errors);
        QFETCH(qint64, warnings);
        QFETCH(qint64, pixels);
        QFETCH(qint64, kernels);
        QFETCH(QString, text);
        QFETCH(QString, summary);
        const Verdict v = verdictOf(errors, warnings, pixels, kernels, 2, FunctionalStatus::Pass);
        QCOMPARE(QString::fromStdString(verdictText(v)), text);
        QCOMPARE(QString::fromStdString(verdictSummary(v)), summary);
        QCOMPARE(strategyStatusFromName(strategyStatusName(v.status)), std::optional(v.status));
    }

    /// `simulate --json` writes the patch list straight into the text, on
    /// one line; the rest of the text must be exactly nlohmann's dump of
    /// simulationToJson, whatever the names, messages and lists hold, and
    /// the whole must parse to the same JSON.
    void jsonTextIsTheDump_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("patchIds");
        QTest::addColumn<bool>("functionalFails");
        QTest::addColumn<bool>("transfer"); // fractional durations, run counts in every step
        QTest::newRow("assumption met") << QStringLiteral("Hopping") << 0 << false << false;
        QTest::newRow("one patch") << QStringLiteral("Hopping") << 1 << false << false;
        QTest::newRow("many patches") << QStringLiteral("a \"quoted\"\nname \u00e9") << 1000 << false << false;
        QTest::newRow("functional failure") << QStringLiteral("\u0001{\"x\": [1]}") << 3 << true << false;
        QTest::newRow("transfer, fractions") << QStringLiteral("\n  \"per_step\": null") << 2 << false << true;
    }
    void jsonTextIsTheDump()
    {
        QFETCH(QString, name);
        QFETCH(int, patchIds);
        QFETCH(bool, functionalFails);
        QFETCH(bool, transfer);
        Problem problem = stripProblem(2);
        if (transfer) {
            problem.hardware.t_l = 0.3;
            problem.hardware.t_w = 1.7;
            problem.hardware.transfer = Transfer{Layout::Nhwc, 4, 2.5};
        }
        SimulationResult r = run(problem, hoppingGroups(), false);
        r.reload.patches.clear();
        for (int i = 0; i < patchIds; ++i)
            r.reload.patches.push_back(PatchId(i * 7919 % 100000));
        if (functionalFails) {
            r.functional.status = FunctionalStatus::Fail;
            r.functional.message = "output (0,0,1) is 3, expected \"4\"\n";
        }
        const nlohmann::ordered_json json = simulationToJson(problem, name.toStdString(), r);
        const std::string text = simulationToJsonText(problem, name.toStdString(), r);
        QCOMPARE(nlohmann::ordered_json::parse(text), json);
        // The ids on one line, the rest as dump(2) writes it.
        std::string ids;
        for (std::size_t i = 0; i < r.reload.patches.size(); ++i) {
            if (i > 0)
                ids += ',';
            ids += std::to_string(r.reload.patches[i]);
        }
        nlohmann::ordered_json withoutIds = json;
        withoutIds["reload_assumption"]["patch_ids"] = "IDS";
        std::string expected = withoutIds.dump(2) + "\n";
        std::string idsText("\"patch_ids\": [");
        idsText += ids;
        idsText += ']';
        expected.replace(expected.find("\"patch_ids\": \"IDS\""), 18, idsText);
        QCOMPARE(QString::fromStdString(text), QString::fromStdString(expected));
    }

    /// The simulate report: the docs/reference/cli.md fields stay (the reload findings are
    /// still in "warnings"), the new ones say the state; the text report
    /// names the state and lists the findings as "assumption:".
    void reportsSayTheState()
    {
        const Problem problem = stripProblem(2);
        const SimulationResult r = run(problem, hoppingGroups(), false);
        const nlohmann::ordered_json j = simulationToJson(problem, "Hopping", r);
        QCOMPARE(j["valid"].get<bool>(), true);
        QCOMPARE(j["warnings"].size(), std::size_t(2)); // pixels (0,2) and (1,2), as docs/reference/model.md warnings
        QCOMPARE(j["warnings"][0]["rule"].get<std::string>(), std::string("reload-bound"));
        QCOMPARE(j["status"].get<std::string>(), std::string("breaks-assumptions"));
        QCOMPARE(j["verdict"].get<std::string>(), std::string("runs correctly, breaks the reload assumption on 2 pixels"));
        QCOMPARE(j["reload_assumption"]["max_loads_per_element"].get<int>(), 2);
        QCOMPARE(j["reload_assumption"]["met"].get<bool>(), false);
        QCOMPARE(j["reload_assumption"]["pixels"].get<int>(), 2);
        QCOMPARE(j["reload_assumption"]["kernels"].get<int>(), 0);
        QCOMPARE(j["reload_assumption"]["patch_ids"], nlohmann::ordered_json::array({2}));
        QCOMPARE(j["plain_warning_count"].get<int>(), 0);

        const QString text = QString::fromStdString(simulationToText(problem, "Hopping", r));
        QVERIFY2(text.contains(QLatin1String("verdict         runs correctly, breaks the reload assumption on 2 pixels\n")),
            qPrintable(text));
        QVERIFY2(
            text.contains(QLatin1String("assumption: step 5, a4 load input, pixel (0,2): loaded 3 times")), qPrintable(text));
        QVERIFY(!text.contains(QLatin1String("warning: ")));

        CompareRow row;
        row.name = "Hopping";
        setRowFigures(row, r);
        const nlohmann::ordered_json c = compareToJson(problem, {row});
        QCOMPARE(c["strategies"][0]["status"].get<std::string>(), std::string("breaks-assumptions"));
        QCOMPARE(c["strategies"][0]["reload_pixels"].get<int>(), 2);
        QCOMPARE(c["best"].get<std::string>(), row.name); // valid: still a candidate
        QVERIFY(QString::fromStdString(compareToText({row})).contains(QLatin1String("breaks the reload assumption on 2 pixels")));
        QVERIFY(QString::fromStdString(compareToCsv({row})).contains(QLatin1String(",breaks-assumptions,2,0\n")));
    }
};

QTEST_APPLESS_MAIN(TestReload)
#include "tst_reload.moc"
