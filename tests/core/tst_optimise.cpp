// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The optimisers' entry points in the core: optimise() on the samples, the
// paper's instances and its experiment grid (runPaperExperiments) with their
// table, CSV and JSON. The CLI's optimiser commands are checked in
// cli/tst_optimise_cli, the Optimise and Experiments dialogs and the
// experiment figures in gui/tst_optimise_gui.

#include "TestOptimisers.h"
#include "TestPrinting.h"
#include "TestProblems.h"

#include "convoffload/optimise/Optimiser.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/io/ProjectFile.h"

#include <QStringList>
#include <QTest>

#include <algorithm>
#include <atomic>

using namespace convoffload;

class TestOptimise : public QObject {
    Q_OBJECT
private slots:
    // Under a transfer model the S1 search still minimises the linear cost:
    // the report lists the result and the heuristics simulated under the
    // real cost (each the simulator's own duration of those groups), and
    // its message says so. Without one (or burst 1, no set-up) nothing is added.
    void transferModelListedApart()
    {
        Problem p = paperExampleProblem(80);
        OptimiseRequest request;
        OptimiseControl control;
        control.time_limit_s = 2;
        QVERIFY(optimise(p, request, control).transfer_durations.empty());
        p.hardware.transfer = Transfer{Layout::Nchw, 1, 0};
        QVERIFY(optimise(p, request, control).transfer_durations.empty());
        p.hardware.transfer = Transfer{Layout::Nchw, 8, 20};
        const OptimiseReport report = optimise(p, request, control);
        QVERIFY(report.result.hasSolution());
        QCOMPARE(report.transfer_durations.size(), std::size_t(1 + report.heuristics.size()));
        QCOMPARE(report.transfer_durations.front().first, std::string("result"));
        SimulationOptions o;
        o.functional = false;
        const auto real = [&](const Groups &groups) {
            StrategySpec spec;
            spec.name = "g";
            spec.kind = StrategyKind::Groups;
            spec.groups = groups;
            return simulateStrategy(p, spec, o).totalDuration();
        };
        QCOMPARE(report.transfer_durations.front().second, real(report.result.groups));
        for (std::size_t i = 0; i < report.heuristics.size(); ++i) {
            QCOMPARE(report.transfer_durations[i + 1].first, report.heuristics[i].name);
            QCOMPARE(report.transfer_durations[i + 1].second, real(report.heuristics[i].groups));
        }
        QVERIFY(report.result.message.find("linear cost") != std::string::npos);
        QVERIFY(optimiseReportToText(report).find("Transfer model:") != std::string::npos);
    }

    // 6x6 input, 3x3 kernel: 4x4 outputs, G = 4 -> K_min = 4 groups. The
    // memory holds 4 whole patches (36 pixels), one kernel (9) and 4 outputs.
    void paperInstanceIsThePapersSetup()
    {
        const Problem p = paperInstance(6, 4);
        QCOMPARE(p.layer.patchCount(), 16);
        QCOMPARE(p.nbPatchesMax(), 4);
        QCOMPARE(p.kMin(), 4);
        QCOMPARE(p.hardware.mem_size, 49);
        QVERIFY(p.options.kernels_preloaded);
        QCOMPARE(p.hardware.t_w, 0.0);
        QCOMPARE(p.hardware.max_loads_per_element, 9);
    }

    // Row-by-Row with G = W_out = 4 takes one output row per group: 18 pixels
    // first, then one new input row of 6 pixels per group: 36 loads + 4
    // computes = 40, which is every pixel once and K_min computes: optimal.
    void rowByRowIsOptimalWhenGroupsAreWholeRows()
    {
        ExperimentGrid grid;
        grid.size_from = grid.size_to = 6;
        grid.group_from = grid.group_to = 4;
        grid.search_time_limit_s = 5;
        const std::vector<ExperimentRow> rows = runPaperExperiments(grid);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0].row_by_row, 40.0);
        QCOMPARE(rows[0].lower_bound, 40.0);
        QCOMPARE(rows[0].search.duration, 40.0);
        QVERIFY(rows[0].search.status == OptimiseStatus::Optimal);
        QCOMPARE(rows[0].gain(), 0.0);
    }

    // On a small grid every optimised strategy is valid for the simulator,
    // passes the functional check, has the simulated duration, is never worse
    // than the best heuristic and never below the lower bound.
    void experimentsAreValidAndNeverWorse()
    {
        const ExperimentGrid grid = smallGrid(7, 4, 5);
        int calls = 0;
        const std::vector<ExperimentRow> rows
            = runPaperExperiments(grid, nullptr, [&calls](const ExperimentRow &, int done, int total) {
                  ++calls;
                  QCOMPARE(done, calls);
                  QCOMPARE(total, 12);
              });
        QCOMPARE(rows.size(), std::size_t(12));
        for (const ExperimentRow &r : rows) {
            const Problem problem = paperInstance(r.input_size, r.group_size);
            QVERIFY(r.search.hasSolution());
            bool valid = false;
            QCOMPARE(simulated(problem, r.search.groups, &valid), r.search.duration);
            QVERIFY(valid);
            QCOMPARE(simulated(problem, rowByRow(problem.layer, r.group_size)), r.row_by_row);
            QCOMPARE(simulated(problem, zigzag(problem.layer, r.group_size)), r.zigzag);
            QVERIFY(r.search.duration <= r.bestHeuristic());
            QVERIFY(r.search.duration >= r.lower_bound);
            QVERIFY(r.gain() >= 0.0);
            QCOMPARE(std::int64_t(r.search.groups.size()), problem.kMin());
        }
        const QStringList csv = QString::fromStdString(experimentsToCsv(rows)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 13);
        QVERIFY(csv[0].startsWith(QLatin1String("input_size,group_size,")));
    }

    // Stop during an instance: the run ends with that instance's best so
    // far, marked stopped in every output (the finished ones are not).
    void experimentsMarkTheInstanceStopCutShort()
    {
        ExperimentGrid grid = smallGrid(4, 2, 60);
        grid.method = OptimiseMethod::Exact;
        std::vector<ExperimentRow> rows = runPaperExperiments(grid); // 4×4, G = 2: proven at once
        grid.size_from = grid.size_to = 9; // takes minutes
        std::atomic<bool> cancel{false};
        const std::vector<ExperimentRow> cut
            = runPaperExperiments(grid, &cancel, {}, [&cancel](int, int, const OptimiseProgress &p) {
                  if (p.seconds > 0.3)
                      cancel = true;
              });
        QCOMPARE(cut.size(), std::size_t(1));
        rows.push_back(cut.front());
        QCOMPARE(rows.size(), std::size_t(2));
        QVERIFY(rows[0].proven() && !rows[0].stopped());
        QVERIFY(rows[1].search.cancelled && !rows[1].proven());
        QVERIFY(rows[1].stopped());
        const QStringList csv = QString::fromStdString(experimentsToCsv(rows)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 3);
        QVERIFY(csv[0].endsWith(QLatin1String(",status,stopped")));
        QVERIFY(csv[1].endsWith(QLatin1String(",0")));
        QVERIFY(csv[2].endsWith(QLatin1String(",1")));
        const QStringList text = QString::fromStdString(experimentsToText(rows)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(text.size(), 3);
        QVERIFY(!text[1].contains(QLatin1String("stopped")));
        QVERIFY(text[2].endsWith(QLatin1String("  (stopped)")));
        const nlohmann::ordered_json json = experimentsToJson(rows);
        QCOMPARE(json[0]["stopped"].get<bool>(), false);
        QCOMPARE(json[1]["stopped"].get<bool>(), true);
    }

    // optimise() on the paper's Example: the result is a groups strategy the
    // simulator accepts, no longer than the best heuristic (Row-by-Row, 117).
    void optimiseReportOnThePaperExample()
    {
        const Project project = loadProject(sample("paper-example.json").toStdString());
        OptimiseControl control;
        control.time_limit_s = 1; // the search uses all of it: the bound (109) is out of reach
        const OptimiseReport report = optimise(project.problem, {}, control);
        QVERIFY(report.best_heuristic);
        QCOMPARE(report.best_heuristic->name, std::string("Row-by-Row"));
        QCOMPARE(report.best_heuristic->evaluation.duration, 117.0);
        QVERIFY(report.result.duration <= 117.0);
        const StrategySpec spec = toStrategy(report, "Optimised");
        QVERIFY(spec.kind == StrategyKind::Groups);
        bool valid = false;
        QCOMPARE(simulated(project.problem, spec.groups, &valid), report.result.duration);
        QVERIFY(valid);
        QVERIFY(report.gainOverHeuristic().has_value());
        const auto json = optimiseReportToJson(report);
        QCOMPARE(json["method"].get<std::string>(), std::string("search"));
        QCOMPARE(json["duration"].get<double>(), report.result.duration);
    }

    // LeNet-5 conv1: both heuristics break the reload bound of 2, so the ILP
    // starts from a short search; CBC cannot finish its root LP in seconds,
    // and the start is kept: a valid strategy, said so in the message.
    void ilpWithoutAFeasibleHeuristicStartsFromASearch()
    {
        const Project project = loadProject(sample("lenet5-conv1.json").toStdString());
        OptimiseRequest request;
        request.method = OptimiseMethod::Ilp;
        request.worker_path = CONVOFFLOAD_CBC_WORKER;
        OptimiseControl control;
        control.time_limit_s = 3;
        std::vector<double> seconds;
        control.progress = [&seconds](const OptimiseProgress &p) { seconds.push_back(p.seconds); };
        const OptimiseReport report = optimise(project.problem, request, control);
        QVERIFY(!report.best_heuristic);
        QVERIFY2(report.result.hasSolution(), report.result.message.c_str());
        QVERIFY2(report.result.message.find("the start strategy came from a short search, as no heuristic satisfies the problem")
                != std::string::npos,
            report.result.message.c_str());
        // The short search's points, then the ILP's: one clock, from the
        // run's start (the ILP's own began at 0 after the search).
        QVERIFY(!seconds.empty());
        QVERIFY(std::is_sorted(seconds.begin(), seconds.end()));
        QVERIFY(seconds.back() <= report.result.seconds);
        QVERIFY(!report.result.history.empty());
        QVERIFY(report.result.history.front().seconds >= seconds.front());
        QVERIFY(report.result.history.back().seconds <= report.result.seconds);
        bool valid = false;
        QCOMPARE(simulated(project.problem, report.result.groups, &valid), report.result.duration);
        QVERIFY(valid);
    }

    void optimiseRefusesImpossibleSettings_data()
    {
        QTest::addColumn<std::int64_t>("groupSize");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << std::int64_t(0) << QStringLiteral("group size must be at least 1");
        QTest::newRow("above nb_patches_max") << std::int64_t(3) << QStringLiteral("exceeds nb_patches_max = 2");
    }
    void optimiseRefusesImpossibleSettings()
    {
        QFETCH(std::int64_t, groupSize);
        QFETCH(QString, expected);
        const Project project = loadProject(sample("paper-example.json").toStdString());
        OptimiseRequest request;
        request.settings.group_size = groupSize;
        try {
            optimise(project.problem, request, {});
            QFAIL("no error");
        } catch (const InstanceError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestOptimise)
#include "tst_optimise.moc"
