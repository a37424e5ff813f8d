// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "CliOptimise.h"

#include "CliFigures.h"
#include "CliKernelStreaming.h"

#include "convoffload/optimise/IlpFiles.h"
#include "convoffload/optimise/IlpModel.h"
#include "convoffload/optimise/IlpModelSize.h"
#include "convoffload/optimise/Optimiser.h"
#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/optimise/SolutionImport.h"
#include "convoffload/io/StrategyCsv.h"

#include <QDir>
#include <QFileInfo>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace convoffload::cli {

namespace {

QString opt(const char *name) { return QString::fromLatin1(name); }

OptimiseSettings settingsFrom(const QCommandLineParser &parser, const Problem &problem)
{
    OptimiseSettings settings;
    if (parser.isSet(opt("group-size")))
        settings.group_size = parseInteger(parser, opt("group-size"), 1, problem.layer.patchCount());
    const QString groups = parser.value(opt("groups"));
    if (groups == QLatin1String("any")) {
        settings.group_count = GroupCount::AtMostCap;
        if (parser.isSet(opt("max-groups")))
            settings.max_groups = parseInteger(parser, opt("max-groups"), 1, problem.layer.patchCount());
    } else if (groups != QLatin1String("kmin")) {
        throw UsageError("--groups: expected kmin (exactly K_min groups, the paper's choice) or any, got '" + str(groups) + "'");
    } else if (parser.isSet(opt("max-groups"))) {
        throw UsageError("--max-groups needs --groups any");
    }
    return settings;
}

/// An output file is checked before the (possibly long) run, so a typo in
/// its path does not throw the result away: its folder must exist and, for
/// figures, its extension name a format.
QString outputPath(const QCommandLineParser &parser, const QString &option, const QStringList &extensions)
{
    const QString path = parser.value(option);
    if (path.isEmpty())
        return path;
    const QFileInfo info(path);
    if (!info.absoluteDir().exists())
        throw UsageError("--" + str(option) + ": the folder of '" + str(path) + "' does not exist");
    if (!extensions.isEmpty() && !extensions.contains(info.suffix().toLower()))
        throw UsageError(
            "--" + str(option) + ": '" + str(path) + "' should end in ." + str(extensions.join(QStringLiteral(", ."))));
    return path;
}

bool ilpStartFromSearch(const QCommandLineParser &parser)
{
    const QString start = parser.value(opt("ilp-start"));
    if (start != QLatin1String("heuristic") && start != QLatin1String("search"))
        throw UsageError("--ilp-start: expected heuristic or search, got '" + str(start) + "'");
    return start == QLatin1String("search");
}

/// --moves, or its first name --max-moves (the one typed is named in errors).
/// 10^12 moves would take days: a larger budget is a typo.
std::int64_t moveBudget(const QCommandLineParser &parser)
{
    const QString name = parser.optionNames().contains(opt("max-moves")) ? opt("max-moves") : opt("moves");
    return parseInteger(parser, name, 1, 1000000000000);
}

OptimiseRequest requestFrom(const QCommandLineParser &parser, const Problem &problem)
{
    OptimiseRequest request;
    const std::optional<OptimiseMethod> method = optimiseMethodFromName(str(parser.value(opt("method"))));
    if (!method)
        throw UsageError("--method: expected search, ilp or exact, got '" + str(parser.value(opt("method"))) + "'");
    request.method = *method;
    request.settings = settingsFrom(parser, problem);
    request.seed = std::uint64_t(parseInteger(parser, opt("seed"), 0, std::numeric_limits<std::int64_t>::max()));
    if (parser.isSet(opt("moves")))
        request.max_moves = moveBudget(parser);
    if (parser.isSet(opt("threads")))
        request.threads = int(parseInteger(parser, opt("threads"), 1, 256));
    request.worker_path = str(parser.value(opt("cbc-worker")));
    request.ilp_start_from_search = ilpStartFromSearch(parser);
    // A layer whose kernels do not fit gets the best kernel-blocked strategy
    // (docs/reference/strategies.md#kernel-blocked).
    request.stream_kernels = true;
    request.family = familyChoiceFrom(parser, problem);
    request.prove = parser.isSet(opt("prove"));
    if (request.prove && request.method == OptimiseMethod::Exact)
        throw UsageError("--prove: --method exact proves by itself (its proof shares --time-limit with the search)");
    if (request.prove && request.method != OptimiseMethod::Search)
        throw UsageError("--prove needs --method search (the ILP proves by its own bound)");
    if (parser.isSet(opt("prove-states")) && !request.prove && request.method != OptimiseMethod::Exact)
        throw UsageError("--prove-states needs --prove or --method exact");
    if (parser.isSet(opt("prove-time-limit")) && !request.prove)
        throw UsageError(std::string("--prove-time-limit needs --prove")
            + (request.method == OptimiseMethod::Exact ? " (--method exact spends --time-limit on the search and the proof)"
                                                       : ""));
    if (parser.isSet(opt("prove-states")))
        request.prove_max_states = parseInteger(parser, opt("prove-states"), 1, 100000000);
    if (parser.isSet(opt("prove-time-limit")))
        request.prove_time_limit_s = parseSeconds(parser, opt("prove-time-limit"));
    return request;
}

/// A duration of the progress line, rounded as the tables print it, or `none`.
std::string roundedOr(const std::optional<double> &duration, const char *none)
{
    return duration ? std::to_string(std::llround(*duration)) : none;
}

/// Live progress on stderr when a person is watching (a terminal).
ProgressCallback terminalProgress()
{
    if (!isatty(fileno(stderr)))
        return {};
    return [](const OptimiseProgress &p) {
        std::fprintf(stderr, "\r[%7.1f s] best %s  bound %s   ", p.seconds, roundedOr(p.incumbent, "-").c_str(),
            roundedOr(p.bound, "-").c_str());
        std::fflush(stderr);
    };
}

/// Clears the rest of a terminal line (ECMA-48 EL): a shorter line written
/// over a longer one leaves nothing of it.
constexpr const char *kEraseLine = "\x1b[K";

/// "3/81 instances done; H=W=9, G=2 running: best 131, bound 124 (14.0 s)":
/// the words of the Experiments dialog's status line.
std::string experimentRunningLine(int done, int total, int size, int g, const OptimiseProgress &p)
{
    char line[160];
    std::snprintf(line, sizeof line, "%d/%d instances done; H=W=%d, G=%d running: best %s, bound %s (%.1f s)", done, total, size,
        g, roundedOr(p.incumbent, "none yet").c_str(), roundedOr(p.bound, "-").c_str(), p.seconds);
    return line;
}

} // namespace

void addOptimiseOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {opt("method"),
            opt("Optimiser: search (default), ilp (CBC) or exact (a search, then a dynamic programming that proves its "
                "strategy optimal or finds the optimum, within --time-limit, on layers of at most 64 outputs; up to 128, "
                "a proof that no strategy loads each pixel once; time left after a proof goes to a second search)."),
            opt("method"), opt("search")},
        {opt("time-limit"),
            opt("Optimiser time limit in seconds (default 10). The search uses all of it unless it reaches the lower "
                "bound or --moves ends it."),
            opt("seconds"), opt("10")},
        {opt("seed"), opt("Seed of the search optimiser (default 1)."), opt("n"), opt("1")},
        {QStringList{opt("moves"), opt("max-moves")},
            opt("Move budget of each search thread, for reproducible runs: the same seed, budget and --threads give the "
                "same strategy on any machine (default: no budget, the time limit ends the search; experiments: "
                "scaled to the layer)."),
            opt("n")},
        {opt("prove"),
            opt("optimize --method search: after the time limit, try to prove the strategy optimal by the exact optimum "
                "with the reload bound dropped, pruned by the strategy (layers of at most 64 outputs).")},
        {opt("prove-states"),
            opt("Cap on the states --prove and --method exact keep (default 40000000, under 3 GB; exact keeps every step's "
                "states, to rebuild the optimum)."),
            opt("n")},
        {opt("prove-time-limit"), opt("Time limit of --prove in seconds, after the search's (default 60)."), opt("seconds")},
        {opt("threads"),
            opt("Search threads, one annealing chain each, and threads of the proof's dynamic programming; network: layers "
                "analysed at once (default: one per hardware thread)."),
            opt("n")},
        {opt("group-size"), opt("G, the largest group (default nb_patches_max)."), opt("g")},
        {opt("groups"), opt("kmin: exactly K_min groups (the paper's choice, default); any: up to --max-groups."), opt("rule"),
            opt("kmin")},
        {opt("max-groups"), opt("Cap on the number of groups with --groups any (default: one per patch)."), opt("n")},
        {opt("ilp-start"), opt("MIP start of the ILP: heuristic (the paper's choice, default) or search."), opt("from"),
            opt("heuristic")},
        {opt("save"), opt("optimize, import-solution: add the strategy to the project file under this name."), opt("name")},
        {opt("cbc-worker"), opt("Path of convoffload-cbc-worker (default: next to this program)."), opt("path")},
        {opt("format"), opt("Model file format for `model`: lp or mps (default: from --out's extension)."), opt("format")},
        {opt("solution"), opt("Solution file to import: CBC's solution file, name-value pairs or a strategy CSV."), opt("file")},
        {opt("durations-out"), opt("experiments: the duration-against-size figure for --group-size G (default 4)."), opt("file")},
        {opt("proven-out"),
            opt("experiments: the heat map of the instances proven optimal (a check mark) and the others' gap to the bound."),
            opt("file")},
        {opt("sizes"), opt("Input sizes H_in = W_in of the experiments, A..B (default 4..12)."), opt("range")},
        {opt("ilp-time-limit"), opt("Run CBC on each experiment with this time limit (default: not run)."), opt("seconds")},
    });
}

int optimizeCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath, double secondsSoFar)
{
    const Problem &problem = loaded.project.problem;
    const OptimiseRequest request = requestFrom(parser, problem);
    std::string saveName = str(parser.value(opt("save")));
    if (parser.isSet(opt("save")) && saveName.empty())
        throw UsageError("--save: the strategy needs a name");
    if (!saveName.empty() && loaded.project.findStrategy(saveName))
        throw UsageError("--save: the project already has a strategy named '" + saveName + "'");
    const QString csvOut = outputPath(parser, opt("out"), {QStringLiteral("csv")}); // a strategy CSV, whatever the layer

    OptimiseControl control;
    const double timeLimit = parseSeconds(parser, opt("time-limit"));
    if (secondsSoFar >= timeLimit) {
        char text[96];
        std::snprintf(
            text, sizeof text, "the time limit of %g s ran out while the project was read (%.1f s)", timeLimit, secondsSoFar);
        throw UsageError(text);
    }
    control.time_limit_s = timeLimit - secondsSoFar;
    control.cancel = interruptFlag();
    control.progress = terminalProgress();
    if (control.progress)
        control.proof_progress = [](std::int64_t states, double seconds) {
            std::fprintf(stderr, "proving: %lld states in %.1f s   ", static_cast<long long>(states), seconds);
            std::fflush(stderr);
        };
    const OptimiseReport report = optimise(problem, request, control);
    if (control.progress)
        std::fputs("\n", stderr);

    if (parser.isSet(opt("json")))
        print(optimiseReportToJson(report).dump(2) + "\n");
    else
        print(optimiseReportToText(report));
    if (!report.result.hasSolution()) {
        std::cerr << "convoffload-cli: " << optimiseStatusName(report.result.status)
                  << (report.result.message.empty() ? "" : ": " + report.result.message) << "\n";
        return 1;
    }
    if (!csvOut.isEmpty() && report.regrouped) {
        saveComputeStepsCsv(report.regrouped->steps, str(csvOut)); // step,patch,kernel: the groups alone miss the kernels
        std::cerr << "Wrote " << str(csvOut) << "\n";
    } else if (!csvOut.isEmpty()) {
        saveGroupsCsv(problem.layer, report.result.groups, str(csvOut));
        std::cerr << "Wrote " << str(csvOut) << "\n";
    }
    if (!saveName.empty()) {
        Project project = loaded.project;
        project.strategies.push_back(toStrategy(report, saveName));
        saveProject(project, str(projectPath));
        std::cerr << "Added strategy '" << saveName << "' to " << str(projectPath) << "\n";
    }
    return 0;
}

int modelCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const QString out = parser.value(opt("out"));
    if (out.isEmpty())
        throw UsageError("model needs --out FILE.lp or FILE.mps");
    QString format = parser.value(opt("format"));
    if (format.isEmpty())
        format = QFileInfo(out).suffix().toLower();
    if (format != QLatin1String("lp") && format != QLatin1String("mps"))
        throw UsageError(
            "model: expected --format lp or mps (or an --out file ending in .lp or .mps), got '" + str(format) + "'");
    const S1Instance instance = makeS1Instance(loaded.project.problem, settingsFrom(parser, loaded.project.problem));
    // CoinUtils does not check its allocations: refuse a model beyond the
    // memory before building it, as simulations beyond the budget are.
    if (!parser.isSet(QStringLiteral("no-work-limit")))
        if (const std::optional<std::string> why = ilpModelExceedsMemory(estimateIlpModelSize(instance)))
            throw UsageError(*why + "; use a larger --group-size or a smaller layer, or pass --no-work-limit to build it anyway");
    const IlpModel model = buildIlpModel(instance);
    if (format == QLatin1String("lp"))
        writeLp(model, str(out));
    else
        writeMps(model, str(out));
    std::cout << "Wrote " << str(out) << ": " << model.columnCount() << " variables, " << model.rowCount() << " constraints ("
              << instance.min_groups << (instance.group_count == GroupCount::ExactlyKMin ? "" : "+") << " groups of at most "
              << instance.group_size << " patches)\n";
    return 0;
}

int importSolutionCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath)
{
    const QString file = parser.value(opt("solution"));
    if (file.isEmpty())
        throw UsageError("import-solution needs --solution FILE (CBC solution, name-value pairs or strategy CSV)");
    if (isStepsCsv(parser, file))
        return importStepsCsv(parser, loaded, projectPath, file); // docs/reference/strategy-csv.md#steps-csv: kernels streamed
    const Problem &problem = loaded.project.problem;
    const S1Instance instance = makeS1Instance(problem, settingsFrom(parser, problem));
    // A strategy CSV (docs/reference/strategy-csv.md#group-csv) by its extension; anything else is a solver's
    // solution file in terms of the model's variables.
    Groups groups;
    std::string fileSays;
    if (QFileInfo(file).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
        groups = loadGroupsCsv(problem.layer, str(file));
    } else {
        const ImportedSolution solution = loadSolution(instance, str(file));
        groups = solution.groups;
        if (solution.objective)
            fileSays = " (the file reports " + (solution.solver_status.empty() ? "" : solution.solver_status + ", ")
                + "objective " + std::to_string(*solution.objective) + ")";
    }
    const S1Evaluation evaluation = evaluate(instance, groups);
    std::string name = str(parser.value(opt("save")));
    if (name.empty())
        name = str(QFileInfo(file).completeBaseName());
    std::cout << "Imported '" << name << "': " << groups.size() << " groups, duration " << evaluation.duration << fileSays
              << (evaluation.feasible ? "" : " — breaks the problem: " + evaluation.violation) << "\n";
    if (parser.isSet(opt("save"))) {
        if (loaded.project.findStrategy(name))
            throw UsageError("--save: the project already has a strategy named '" + name + "'");
        Project project = loaded.project;
        project.strategies.push_back({name, StrategyKind::Groups, std::nullopt, groups});
        saveProject(project, str(projectPath));
        std::cout << "Added strategy '" << name << "' to " << str(projectPath) << "\n";
    }
    return 0;
}

int experimentsCommand(const QCommandLineParser &parser)
{
    ExperimentGrid grid;
    if (parser.isSet(opt("sizes"))) {
        const IntRange sizes = parseRange(parser.value(opt("sizes")), "--sizes", 64, "the largest input of the experiments");
        if (sizes.from < 3)
            throw UsageError("--sizes: inputs smaller than the 3x3 kernel have no output");
        grid.size_from = int(sizes.from);
        grid.size_to = int(sizes.to);
    }
    if (parser.isSet(opt("group-sizes"))) {
        const IntRange groups
            = parseRange(parser.value(opt("group-sizes")), "--group-sizes", 64, "the largest group of the experiments");
        grid.group_from = int(groups.from);
        grid.group_to = int(groups.to);
    }
    grid.search_time_limit_s = parseSeconds(parser, opt("time-limit"));
    const std::optional<OptimiseMethod> method = optimiseMethodFromName(str(parser.value(opt("method"))));
    if (!method || *method == OptimiseMethod::Ilp)
        throw UsageError("experiments --method: expected search or exact (CBC runs with --ilp-time-limit), got '"
            + str(parser.value(opt("method"))) + "'");
    grid.method = *method;
    if (parser.isSet(opt("threads")))
        grid.threads = int(parseInteger(parser, opt("threads"), 1, 256));
    grid.seed = std::uint64_t(parseInteger(parser, opt("seed"), 0, std::numeric_limits<std::int64_t>::max()));
    if (parser.isSet(opt("moves")))
        grid.search_max_moves = moveBudget(parser);
    // An explicit time limit is the time the search may use on each instance.
    grid.search_anytime = parser.isSet(opt("time-limit")) && !parser.isSet(opt("moves"));
    if (parser.isSet(opt("ilp-time-limit")))
        grid.ilp_time_limit_s = parseSeconds(parser, opt("ilp-time-limit"));
    grid.worker_path = str(parser.value(opt("cbc-worker")));
    grid.ilp_start_from_search = ilpStartFromSearch(parser);
    const QStringList figureFormats{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
    const QString gainOut = outputPath(parser, opt("out"), figureFormats);
    const QString durationsOut = outputPath(parser, opt("durations-out"), figureFormats);
    const QString provenOut = outputPath(parser, opt("proven-out"), figureFormats);
    if (!gainOut.isEmpty())
        requireFigures("experiments --out");
    if (!durationsOut.isEmpty())
        requireFigures("experiments --durations-out");
    if (!provenOut.isEmpty())
        requireFigures("experiments --proven-out");
    const int durationsGroup = parser.isSet(opt("group-size")) ? int(parseInteger(parser, opt("group-size"), 1, 64)) : 4;
    if (!durationsOut.isEmpty() && (durationsGroup < grid.group_from || durationsGroup > grid.group_to))
        throw UsageError("--group-size " + std::to_string(durationsGroup) + " is outside the experiments' group sizes ("
            + std::to_string(grid.group_from) + ".." + std::to_string(grid.group_to) + ")");

    // On a terminal, one line that says how far the run is: the instance
    // under way with its best and bound a few times a second (an exact run
    // can spend its whole time limit on one instance), and each instance as
    // it ends. Both callbacks come on this thread.
    const bool verbose = isatty(fileno(stderr));
    const int total = grid.instances();
    int done = 0;
    std::optional<std::chrono::steady_clock::time_point> shown; // the running line last written; none since the last row
    ExperimentProgress rowDone;
    ExperimentInstanceProgress running;
    if (verbose) {
        rowDone = [&](const ExperimentRow &row, int doneSoFar, int) {
            done = doneSoFar;
            shown.reset();
            char verdict[32];
            if (row.proven())
                std::snprintf(verdict, sizeof verdict, "optimal");
            else
                std::snprintf(verdict, sizeof verdict, "gap %.1f %%", 100 * row.gap());
            std::fprintf(stderr, "\r%d/%d instances done; H=W=%d, G=%d: %lld, %s%s", done, total, row.input_size, row.group_size,
                std::llround(row.bestOptimised()), verdict, kEraseLine);
            std::fflush(stderr);
        };
        running = [&](int size, int g, const OptimiseProgress &p) {
            const auto now = std::chrono::steady_clock::now();
            if (shown && now - *shown < std::chrono::milliseconds(250))
                return;
            shown = now;
            std::fprintf(stderr, "\r%s%s", experimentRunningLine(done, total, size, g, p).c_str(), kEraseLine);
            std::fflush(stderr);
        };
    }
    const std::vector<ExperimentRow> rows = runPaperExperiments(grid, interruptFlag(), rowDone, running);
    if (verbose)
        std::fputs("\n", stderr);
    if (parser.isSet(opt("json")))
        print(experimentsToJson(rows).dump(2) + "\n");
    else if (parser.isSet(opt("csv")))
        print(experimentsToCsv(rows));
    else
        print(experimentsToText(rows));

    if (!gainOut.isEmpty()) {
        writeGainFigure(rows, gainOut);
        std::cerr << "Wrote " << str(gainOut) << "\n";
    }
    if (!durationsOut.isEmpty()) {
        writeDurationsFigure(rows, durationsGroup, durationsOut);
        std::cerr << "Wrote " << str(durationsOut) << "\n";
    }
    if (!provenOut.isEmpty()) {
        writeProvenFigure(rows, provenOut);
        std::cerr << "Wrote " << str(provenOut) << "\n";
    }
    return interruptFlag()->load() ? 1 : 0;
}

} // namespace convoffload::cli
