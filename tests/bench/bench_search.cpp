// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench-search: the search optimiser on the paper's experiment
// grid (input H = W from 4 to 12, one 3×3 kernel, stride 1, G from 2 to 10,
// t_l = t_acc = 1, t_w = 0, kernels preloaded, memory for G whole patches (the
// paper's assumption: paperInstance in PaperExperiments.h), a reload bound
// that cannot bind, exactly K_min groups), then on LeNet-5 conv1 (reload
// bound 2, which the heuristics break) and on a 224×224 layer.
//
// Per instance: best feasible heuristic, search result, lower bound, gap
// (search - bound) / search, gain over the heuristic, and wall time.
//
// Usage: convoffload-bench-search [--sizes A..B] [--groups A..B] [--moves N]
//        [--time-limit S] [--threads N] [--reload-bound L] [--table]
//        [--seed S] [--no-grid] [--no-lenet] [--big]
// Without --moves and --time-limit each instance gets automaticMoveBudget()
// moves per chain (about a second each); --time-limit alone runs the anytime
// search for S seconds per instance (or until the bound). --table runs only
// the five instances of the issue "Optimiser, second round" (reload bound 2).
// Exit status 1 when a result is infeasible or worse than the heuristic.

#include "convoffload/io/ProjectFile.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/optimise/SearchOptimiser.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

using namespace convoffload;

namespace {

bool parseRange(const char *text, int &from, int &to) { return std::sscanf(text, "%d..%d", &from, &to) == 2 && from <= to; }

struct Totals {
    int instances = 0, failures = 0, optimal = 0;
    double seconds = 0, worstSeconds = 0;
};

/// Runs one instance and prints its row; false when the result is wrong.
bool runOne(const char *label, const Problem &problem, SearchOptions options, double timeLimit, Totals &totals)
{
    const S1Instance in = makeS1Instance(problem);
    const auto heuristic = bestFeasibleHeuristic(in);
    OptimiseControl control;
    control.time_limit_s = timeLimit > 0 ? timeLimit : 60;
    if (options.max_moves == 0 && timeLimit <= 0)
        options.max_moves = automaticMoveBudget(in);
    const OptimiseResult r = searchOptimise(in, options, control);
    const S1Evaluation check = evaluate(in, r.groups);
    const bool feasible = r.hasSolution() && check.feasible && check.duration == r.duration;
    const bool notWorse = !heuristic || (feasible && r.duration <= heuristic->evaluation.duration);

    char heuristicText[64] = "infeasible";
    if (heuristic)
        std::snprintf(heuristicText, sizeof heuristicText, "%.0f (%s)", heuristic->evaluation.duration, heuristic->name.c_str());
    const double gain
        = heuristic && feasible ? 100.0 * (heuristic->evaluation.duration - r.duration) / heuristic->evaluation.duration : 0.0;
    std::printf("%-22s %6lld %-22s %8.0f %8.0f %6.1f%% %6.1f%% %7.3f  %s%s\n", label, (long long)in.patches, heuristicText,
        r.duration, r.lower_bound, 100.0 * r.gap().value_or(0), gain, r.seconds, optimiseStatusName(r.status).c_str(),
        r.timed_out ? " (time limit)" : "");
    if (!feasible)
        std::printf("  ERROR: infeasible result: %s\n", check.violation.c_str());
    if (!notWorse)
        std::printf("  ERROR: worse than the best heuristic\n");

    ++totals.instances;
    totals.failures += !(feasible && notWorse);
    totals.optimal += r.status == OptimiseStatus::Optimal;
    totals.seconds += r.seconds;
    totals.worstSeconds = std::max(totals.worstSeconds, r.seconds);
    std::fflush(stdout);
    return feasible && notWorse;
}

void printHeader()
{
    std::printf("%-22s %6s %-22s %8s %8s %7s %7s %7s  %s\n", "instance", "patch", "best heuristic", "search", "bound", "gap",
        "gain", "seconds", "status");
}

} // namespace

int main(int argc, char **argv)
{
    int sizeFrom = 4, sizeTo = 12, groupFrom = 2, groupTo = 10;
    SearchOptions options;
    double timeLimit = 0; // 0: a move budget, automatic unless --moves
    int reloadBound = 0; // 0: paperInstance's
    bool lenet = true, big = false, table = false;
    for (int i = 1; i < argc; ++i) {
        const bool hasValue = i + 1 < argc;
        if (!std::strcmp(argv[i], "--sizes") && hasValue && parseRange(argv[i + 1], sizeFrom, sizeTo))
            ++i;
        else if (!std::strcmp(argv[i], "--groups") && hasValue && parseRange(argv[i + 1], groupFrom, groupTo))
            ++i;
        else if (!std::strcmp(argv[i], "--moves") && hasValue)
            options.max_moves = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--time-limit") && hasValue)
            timeLimit = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--threads") && hasValue)
            options.threads = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--reload-bound") && hasValue)
            reloadBound = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--table"))
            table = true;
        else if (!std::strcmp(argv[i], "--seed") && hasValue)
            options.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--no-grid"))
            sizeFrom = sizeTo + 1;
        else if (!std::strcmp(argv[i], "--no-lenet"))
            lenet = false;
        else if (!std::strcmp(argv[i], "--big"))
            big = true;
        else {
            std::fprintf(stderr,
                "usage: %s [--sizes A..B] [--groups A..B] [--moves N] [--time-limit S] [--threads N] [--reload-bound L] "
                "[--table] [--seed S] [--no-grid] [--no-lenet] [--big]\n",
                argv[0]);
            return 2;
        }
    }

    auto instance = [&](int size, int g) {
        Problem p = paperInstance(size, g);
        if (reloadBound > 0)
            p.hardware.max_loads_per_element = reloadBound;
        return p;
    };
    Totals grid;
    if (table) { // the table: 135/124/172/215/176 are reachable
        std::printf("The issue's instances, reload bound 2\n");
        printHeader();
        reloadBound = reloadBound > 0 ? reloadBound : 2;
        for (auto [size, g] : {std::pair{9, 2}, {10, 4}, {11, 3}, {12, 3}, {12, 5}}) {
            const std::string label = std::to_string(size) + "x" + std::to_string(size) + " G=" + std::to_string(g);
            runOne(label.c_str(), instance(size, g), options, timeLimit, grid);
        }
        return grid.failures == 0 ? 0 : 1;
    }
    std::printf("Paper grid: input HxW, one 3x3 kernel, G patches per group, exactly K_min groups\n");
    printHeader();
    for (int size = sizeFrom; size <= sizeTo; ++size)
        for (int g = groupFrom; g <= groupTo; ++g) {
            const std::string label = std::to_string(size) + "x" + std::to_string(size) + " G=" + std::to_string(g);
            runOne(label.c_str(), instance(size, g), options, timeLimit, grid);
        }
    std::printf("grid: %d instances, %d at the lower bound, %d failures, %.2f s in all, slowest %.2f s\n\n", grid.instances,
        grid.optimal, grid.failures, grid.seconds, grid.worstSeconds);

    Totals other;
    if (lenet || big)
        printHeader();
    if (lenet) {
        const Project project = loadProject(std::string(CONVOFFLOAD_SAMPLES) + "/lenet5-conv1.json");
        runOne("LeNet-5 conv1 G=8", project.problem, options, timeLimit, other);
    }
    if (big) {
        Problem p = paperInstance(224, 16);
        p.hardware.max_loads_per_element = 2;
        SearchOptions quick = options;
        if (quick.max_moves == 0)
            quick.max_moves = 2000000;
        runOne("224x224 G=16 L=2", p, quick, timeLimit, other);
    }
    return grid.failures + other.failures == 0 ? 0 : 1;
}
