// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-cli: the scripting face of the core (docs/reference/cli.md).
// Exit 0 on success, 1 on bad input with one precise message on stderr.

#include "CliCommon.h"
#include "CliExplore.h"
#include "CliForward.h"
#include "CliFigures.h"
#include "CliNetwork.h"
#include "CliKernelStreaming.h"
#include "CliOptimise.h"
#include "convoffload/io/FormatError.h"
#include "convoffload/io/OutOfMemory.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/StrategyCsv.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/io/TraceExport.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/Version.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <cstdio>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

using namespace convoffload;
using namespace convoffload::cli;

namespace {

SimulationOptions simulationOptions(const QCommandLineParser &parser, const Loaded &loaded, bool trace)
{
    SimulationOptions options;
    options.trace = trace;
    options.functional = !parser.isSet(QStringLiteral("no-functional"));
    options.seed = loaded.project.data.seed;
    options.data = loaded.tensors ? &*loaded.tensors : nullptr;
    options.cancel = interruptFlag(); // Ctrl+C: "cancelled", exit 1
    options.progress = terminalSimulationProgress(parser, "simulating");
    return options;
}

/// The project's strategy `name`; an unknown name lists those it has.
const StrategySpec &strategyNamed(const Project &project, const std::string &name)
{
    if (const StrategySpec *found = project.findStrategy(name))
        return *found;
    std::string names;
    for (const StrategySpec &s : project.strategies)
        names += (names.empty() ? "" : ", ") + ("'" + s.name + "'");
    throw UsageError("no strategy named '" + name + "' in the project (it has " + (names.empty() ? "none" : names) + ")");
}

/// `export PROJECT --strategy NAME --figure trace --out FILE.json`: the
/// schedule as a Chrome Trace Event file (docs/reference/trace.md).
int traceCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const std::string name = str(parser.value(QStringLiteral("strategy")));
    if (name.empty())
        throw UsageError("--figure trace needs --strategy NAME");
    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty() || !out.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        throw UsageError("--figure trace writes a Chrome Trace Event file: --out FILE.json, got '" + str(out) + "'");
    const Project &project = loaded.project;
    const StrategySpec &spec = strategyNamed(project, name);
    SimulationOptions options = simulationOptions(parser, loaded, false);
    options.functional = false; // a timeline of the schedule: the values are not needed
    const Doing doing("simulating strategy '" + spec.name + "' for its trace");
    const SimulationResult result = simulateStrategy(project.problem, spec, options);
    endProgressLine(parser);
    writeTextFileAtomically(str(out), traceToJson(project.problem, spec, computeStepsOf(project.problem, spec), result));
    std::cout << "Wrote " << str(out) << " (" << result.steps.size() << " steps, duration " << result.totalDuration() << ")\n";
    return 0;
}

int simulateCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const Project &project = loaded.project;
    StrategySpec spec;
    if (parser.isSet(QStringLiteral("strategy-csv"))) {
        const QString csv = parser.value(QStringLiteral("strategy-csv"));
        spec = {
            str(QFileInfo(csv).fileName()), StrategyKind::Groups, std::nullopt, loadGroupsCsv(project.problem.layer, str(csv))};
    } else {
        const std::string name = str(parser.value(QStringLiteral("strategy")));
        if (name.empty())
            throw UsageError("simulate needs --strategy NAME or --strategy-csv FILE");
        spec = strategyNamed(project, name);
    }
    const Doing doing("simulating strategy '" + spec.name + "'");
    const SimulationResult result = simulateStrategy(project.problem, spec, simulationOptions(parser, loaded, false));
    endProgressLine(parser);
    if (parser.isSet(QStringLiteral("json")))
        print(simulationToJsonText(project.problem, spec.name, result));
    else
        print(simulationToText(project.problem, spec.name, result));
    return 0;
}

int compareCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const SimulationOptions options = simulationOptions(parser, loaded, false);
    std::vector<CompareRow> rows = compareStrategies(loaded.project, options);
    // Kernels that do not fit: docs/reference/strategies.md#kernel-blocked.
    const std::optional<FamilySearch> family = compareFamily(parser, loaded, options);
    if (family)
        if (std::optional<CompareRow> best = familyRow(*family))
            rows.push_back(*best);
    endProgressLine(parser);
    if (parser.isSet(QStringLiteral("json"))) {
        nlohmann::ordered_json json = compareToJson(loaded.project.problem, rows);
        if (family)
            json["kernel_blocked"] = familyToJson(*family);
        print(json.dump(2) + "\n");
    } else if (parser.isSet(QStringLiteral("csv"))) {
        print(compareToCsv(rows));
    } else {
        print(compareToText(rows) + (family ? familyToText(*family) : std::string()));
    }
    return 0;
}

int sweepCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    if (parser.isSet(QStringLiteral("kernel-blocks")))
        return sweepKernelBlocksCommand(parser, loaded, simulationOptions(parser, loaded, false));
    const QString range = parser.value(QStringLiteral("group-sizes"));
    if (range.isEmpty())
        throw UsageError("sweep needs --group-sizes A..B (e.g. --group-sizes 1..40) or --kernel-blocks A..B");
    const auto [from, to] = parseGroupSizes(range, loaded.project.problem.layer.patchCount());
    checkWorkBudget(parser, loaded.project.problem, 2 * (to - from + 1));
    const Doing doing("sweeping group sizes " + std::to_string(from) + ".." + std::to_string(to));
    const std::vector<SweepRow> rows
        = sweepGroupSizes(loaded.project.problem, from, to, simulationOptions(parser, loaded, false));
    endProgressLine(parser);
    if (parser.isSet(QStringLiteral("json")))
        print(sweepToJson(loaded.project.problem, rows).dump(2) + "\n");
    else if (parser.isSet(QStringLiteral("csv")))
        print(sweepToCsv(rows));
    else
        print(sweepToText(rows));
    return 0;
}

// One row per command: the table drives the usage text, the list of commands
// in messages, the choice of application and the dispatch.
struct CommandInput {
    const QCommandLineParser &parser;
    const Loaded *loaded = nullptr; // every command but `experiments` runs on a project
    QString projectPath;
    double secondsSoFar = 0; // reading the project and the checks before the command (optimize's --time-limit counts them)
};

struct Command {
    const char *name;
    const char *usage; // after the name
    const char *help;
    int (*run)(const CommandInput &);
    const char *doing; // "out of memory while <doing> for <file>" (Doing)
    bool takesProject = true;
    bool readsOwnFile = false; // takes a file but reads it itself (not as a single-layer project)
    bool drawsFigures = false; // runs on a QApplication (fonts, Qt Charts)
    bool needsFigures = false; // refused by a build without the GUI
    bool takesFiles = false; // one file or more, each read by the command (merge)
    bool readsOnnx = false; // reads an ONNX model (the full program links ONNX)
};

/// Run by convoffload-cli-full: the front hands these over (CliForward.h).
[[maybe_unused]] bool needsFullProgram(const Command &c) { return c.drawsFigures || c.needsFigures || c.readsOnnx; }

const Command kCommands[] = {
    {.name = "simulate",
        .usage = "PROJECT (--strategy NAME | --strategy-csv FILE) [--json]",
        .help = "every step, duration, footprint and check of a strategy of the project or of a solver's CSV",
        .run = [](const CommandInput &in) { return simulateCommand(in.parser, *in.loaded); },
        .doing = "simulating the strategy"},
    {.name = "compare",
        .usage = "PROJECT [--json|--csv] [--kernel-blocked auto|always|never]",
        .help = "every strategy of the project (and the best kernel-blocked one when the kernels do not fit)",
        .run = [](const CommandInput &in) { return compareCommand(in.parser, *in.loaded); },
        .doing = "comparing the strategies"},
    {.name = "sweep",
        .usage = "PROJECT --group-sizes A..B [--csv|--json]\n"
                 "          PROJECT --kernel-blocks A..B [--group-size G] [--order O] [--csv|--json] [--out FIGURE]",
        .help = "Row-by-Row vs ZigZag per group size, or kernels-outer vs patches-outer per kernel block size",
        .run = [](const CommandInput &in) { return sweepCommand(in.parser, *in.loaded); },
        .doing = "sweeping",
        .drawsFigures = true},
    {.name = "export",
        .usage = "PROJECT --figure F [--strategy NAME] [--step K [--cursor]] [--preset P | --size WxH] [--no-title]\n"
                 "          --out FILE.{png,svg,pdf}  P: paper-column, paper-wide, slide\n"
                 "          F: grid, input-grid, output-grid, memory, memory-actions, durations, cumulative,\n"
                 "             compare, sweep [--group-sizes A..B], storyboard [--versus NAME] [--steps N]\n"
                 "          --figure trace --strategy NAME --out FILE.json  (a Chrome Trace Event timeline for Perfetto)\n"
                 "          NETWORK --figure network [--optimize [--time-limit S]] [--own-only] [--preset P | --size WxH]\n"
                 "          [--no-title]\n"
                 "          --out FILE.{png,svg,pdf}\n"
                 "          EXPLORE.jsonl --figure pareto [--preset P | --size WxH] [--no-title] --out FILE.{png,svg,pdf}",
        .help = "a figure of the project; the network chart of a network project; the Pareto figure of an exploration",
        .run =
            [](const CommandInput &in) {
                if (in.loaded && in.parser.value(QStringLiteral("figure")) == QLatin1String("trace"))
                    return traceCommand(in.parser, *in.loaded);
                if (exportsParetoFigure(in.parser))
                    return exportParetoCommand(in.parser, in.projectPath);
                return in.loaded ? exportCommand(in.parser, *in.loaded, in.projectPath)
                                 : exportNetworkCommand(in.parser, in.projectPath);
            },
        .doing = "drawing the figure",
        .drawsFigures = true,
        .needsFigures = true},
    {.name = "optimize",
        .usage = "PROJECT [--method search|ilp|exact] [--time-limit S] [--moves N] [--threads N] [--seed N] [--out CSV]\n"
                 "          [--save NAME] [--json] [--group-size G] [--groups kmin|any [--max-groups N]]",
        .help = "an optimised groups strategy",
        .run = [](const CommandInput &in) { return optimizeCommand(in.parser, *in.loaded, in.projectPath, in.secondsSoFar); },
        .doing = "optimising"},
    {.name = "model",
        .usage = "PROJECT --out FILE.{lp,mps} [--group-size G] [--groups kmin|any]",
        .help = "the ILP for external solvers",
        .run = [](const CommandInput &in) { return modelCommand(in.parser, *in.loaded); },
        .doing = "writing the ILP model"},
    {.name = "import-solution",
        .usage = "PROJECT --solution FILE [--save NAME] [--kernel-steps]",
        .help = "a solver's solution, validated; a step,patch,kernel CSV (header or --kernel-steps) as a steps strategy",
        .run = [](const CommandInput &in) { return importSolutionCommand(in.parser, *in.loaded, in.projectPath); },
        .doing = "importing the solution"},
    {.name = "import-onnx",
        .usage = "MODEL.onnx (--hardware HW.json | --mem-size N --nbop-pe N ...) [--input-shape NAME=D1,D2,...] "
                 "[--strategies default|none] --out NETWORK.json",
        .help = "every convolution of an ONNX model as a network project; lists the ones skipped and why",
        .run = [](const CommandInput &in) { return importOnnxCommand(in.parser, in.projectPath); },
        .doing = "importing the ONNX model",
        .readsOwnFile = true,
        .readsOnnx = true},
    {.name = "network",
        .usage = "PROJECT [--json|--csv] [--optimize [--time-limit S]] [--own-only]",
        .help = "every layer of a network project: kernels on chip, best strategy, duration, loads; the total",
        .run = [](const CommandInput &in) { return networkCommand(in.parser, in.projectPath); },
        .doing = "analysing the network",
        .readsOwnFile = true},
    {.name = "explore",
        .usage = "TARGET --mem-size LIST --nbop-pe LIST [--t-l LIST] [--layout LIST] [--burst LIST] [--t-setup LIST]\n"
                 "          [--optimize [--time-limit S] [--moves N] [--seed N]] [--own-only] [--shard I/N] [--max-points N]\n"
                 "          --out FILE.jsonl  LIST: a,b,c or a..b*2 (doublings) or a..b+S; k = x1024, M = x1024^2",
        .help = "a network (or layer) at every design point of the lists: each layer's best strategy, one JSON line per point",
        .run = [](const CommandInput &in) { return exploreCommand(in.parser, in.projectPath); },
        .doing = "exploring the design space",
        .readsOwnFile = true},
    {.name = "merge",
        .usage = "FILE.jsonl... --out ALL.jsonl",
        .help = "the shards of one exploration as one file, points in order; names missing points, refuses mixed runs",
        .run = [](const CommandInput &in) { return mergeCommand(in.parser, in.parser.positionalArguments().mid(1)); },
        .doing = "merging the explore files",
        .readsOwnFile = true,
        .takesFiles = true},
    {.name = "experiments",
        .usage
        = "[--sizes 4..12] [--group-sizes 2..10] [--method search|exact] [--time-limit S] [--threads N]\n"
          "          [--ilp-time-limit S] [--csv|--json] [--out GAIN.{svg,png,pdf}] [--durations-out FILE [--group-size G]]\n"
          "          [--proven-out FILE]",
        .help = "the paper's optimisation experiments: table, gain heat map, durations for one G, proven instances",
        .run = [](const CommandInput &in) { return experimentsCommand(in.parser); },
        .doing = "running the paper's experiments",
        .takesProject = false,
        .drawsFigures = true},
};

/// Listed and run by this build: the figures need the GUI.
bool available(const Command &c) { return !c.needsFigures || figuresBuilt(); }

const Command *findCommand(const QString &name)
{
    for (const Command &c : kCommands)
        if (name == QLatin1String(c.name))
            return &c;
    return nullptr;
}

/// "simulate, compare, ... or experiments"
QString commandNames()
{
    QStringList names;
    for (const Command &c : kCommands)
        if (available(c))
            names << QLatin1String(c.name);
    const QString last = names.takeLast();
    return names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

QString usageText()
{
    QString text = QStringLiteral("Simulate and compare convolution offloading strategies.\n\nCommands:");
    for (const Command &c : kCommands)
        if (available(c))
            text += QStringLiteral("\n  %1 %2\n      %3")
                        .arg(QLatin1String(c.name), QLatin1String(c.usage), QLatin1String(c.help));
    if (!figuresBuilt())
        text += QStringLiteral(
            "\n\nBuilt without the GUI: no figures (export, experiments --out, --durations-out and --proven-out).");
    return text;
}

/// `convoffload-cli COMMAND --help`: the command's usage and the options it
/// names, cut from the whole help (which lists every command's options).
QString commandHelp(const Command &c, const QString &fullHelp)
{
    QSet<QString> named;
    const QRegularExpression option(QStringLiteral("--([a-z][a-z0-9-]*)"));
    for (auto it = option.globalMatch(QLatin1String(c.usage)); it.hasNext();)
        named.insert(it.next().captured(1));
    QString text = QStringLiteral("Usage: convoffload-cli %1 %2\n  %3\n")
                       .arg(QLatin1String(c.name), QLatin1String(c.usage), QLatin1String(c.help));
    const qsizetype options = fullHelp.indexOf(QStringLiteral("\nOptions:\n"));
    if (options < 0)
        return text;
    // An option's block: its line ("  --figure <name>  Figure to export.")
    // and the lines its description wraps onto (indented, no dash).
    QString kept;
    bool keep = false;
    const QStringList lines = fullHelp.mid(options + 10).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1Char('-'))) {
            keep = false;
            for (auto it = option.globalMatch(trimmed.section(QStringLiteral("  "), 0, 0)); it.hasNext();)
                if (named.contains(it.next().captured(1)))
                    keep = true;
        } else if (trimmed.isEmpty()) {
            keep = false;
        }
        if (keep)
            kept += line + QLatin1Char('\n');
    }
    if (!kept.isEmpty())
        text += QStringLiteral("\nOptions:\n") + kept;
    return text + QStringLiteral("\nEvery command and option: convoffload-cli --help\n");
}

} // namespace

int main(int argc, char *argv[])
{
    const auto started = std::chrono::steady_clock::now();
    // Figures need a GUI application (fonts, Qt Charts); everything else runs
    // on a bare core application. Without a display figures render offscreen.
    const Command *named = argc > 1 ? findCommand(QString::fromLocal8Bit(argv[1])) : nullptr;
#ifdef CONVOFFLOAD_CLI_FRONT
    if (named && needsFullProgram(*named))
        return runFullProgram(argc, argv);
#endif
    const std::unique_ptr<QCoreApplication> app = makeApplication(argc, argv, named && named->drawsFigures);
    QCoreApplication::setApplicationName(QStringLiteral("convoffload-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CONVOFFLOAD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(usageText());
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"), commandNames());
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("project file (.json)"));
    parser.addOptions({
        {QStringLiteral("strategy"), QStringLiteral("Strategy name in the project."), QStringLiteral("name")},
        {QStringLiteral("strategy-csv"), QStringLiteral("Strategy CSV (patch,group | row,col,group | 0/1 matrix)."),
            QStringLiteral("file")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
        {QStringLiteral("csv"), QStringLiteral("Print CSV.")},
        {QStringLiteral("group-sizes"), QStringLiteral("Group sizes to sweep, A..B."), QStringLiteral("range")},
        {QStringLiteral("no-functional"), QStringLiteral("Skip the functional simulation on values.")},
        {QStringLiteral("figure"), QStringLiteral("Figure to export."), QStringLiteral("name")},
        {QStringLiteral("step"), QStringLiteral("Step of the figure, from 1 (default 2)."), QStringLiteral("k"),
            QStringLiteral("2")},
        {QStringLiteral("action"), QStringLiteral("Show the step right after this action (a1..a6)."), QStringLiteral("action")},
        {QStringLiteral("out"),
            QStringLiteral("Output file: a figure (.png, .svg, .pdf) for export and experiments, a strategy CSV for optimize, "
                           ".lp or .mps for model."),
            QStringLiteral("file")},
        {QStringLiteral("size"), QStringLiteral("Figure size in pixels, WIDTHxHEIGHT."), QStringLiteral("size")},
        {QStringLiteral("preset"),
            QStringLiteral("Figure for a report: paper-column, paper-wide or slide (printed size, text 7-10 pt)."),
            QStringLiteral("name")},
        {QStringLiteral("versus"), QStringLiteral("Second strategy of the storyboard."), QStringLiteral("name")},
        {QStringLiteral("steps"), QStringLiteral("Steps shown by the storyboard (default 4)."), QStringLiteral("n"),
            QStringLiteral("4")},
        {QStringLiteral("heat-map"), QStringLiteral("Colour input pixels by their load count.")},
        {QStringLiteral("cursor"),
            QStringLiteral("Mark --step on the step charts with the interactive cursor (off by default).")},
        {QStringLiteral("no-title"),
            QStringLiteral("Leave the figure's built-in title out (a paper's caption gives it); the file's metadata keep it.")},
        {QStringLiteral("quiet"), QStringLiteral("No progress line on a terminal.")},
        {QStringLiteral("no-work-limit"),
            QStringLiteral("Run even what the work estimate puts over 10 minutes or 3/4 of the memory.")},
    });
    addOptimiseOptions(parser);
    addNetworkOptions(parser);
    addKernelStreamingOptions(parser);
    addExploreOptions(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        std::cerr << "convoffload-cli: " << str(parser.errorText()) << "\n";
        return 1;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        if (const Command *command = findCommand(parser.positionalArguments().value(0)); command && available(*command)) {
            std::cout << str(commandHelp(*command, parser.helpText()));
            return 0;
        }
        parser.showHelp(0);
    }
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    const QStringList args = parser.positionalArguments();
    // The file an out-of-memory error names: the project (or model, network,
    // explore file); merge's first, with how many more.
    std::string file = args.size() > 1 ? str(args[1]) : std::string();
    if (args.size() > 2)
        file += " and " + std::to_string(args.size() - 2) + " more";
    try {
        if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("csv")))
            throw UsageError("--json and --csv exclude each other");
        const QString name = args.value(0);
        const Command *command = findCommand(name);
        if (command && !command->takesProject) {
            if (args.size() != 1)
                throw UsageError(std::string(command->name) + " takes no project file (it builds the paper's layers itself)");
        } else if (command && command->takesFiles) {
            if (args.size() < 2)
                throw UsageError(std::string(command->name) + " expects one file or more (see " + command->name + " --help)");
        } else if (args.size() != 2) {
            throw UsageError("expected a command and a project file (see --help)");
        }
        if (!command)
            throw UsageError("unknown command '" + str(name) + "' (expected " + str(commandNames()) + ")");
        if (!available(*command))
            requireFigures(command->name);
        std::optional<Loaded> loaded;
        // export --figure network reads its network project itself, and
        // --figure pareto its explore file; an explore file is no project.
        const bool exportsOwnFile = exportsNetworkFigure(parser) || exportsParetoFigure(parser);
        if (name == QLatin1String("export") && !exportsOwnFile && args[1].endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive)
            && figuresBuilt())
            throw UsageError("'" + str(args[1]) + "' is an explore file: its figure is --figure pareto");
        const bool readsOwnFile = command->readsOwnFile || (name == QLatin1String("export") && exportsOwnFile);
        if (command->takesProject && !readsOwnFile) {
            const Doing reading("reading the project");
            loaded = load(args[1]);
            // Before anything is expanded or built: a small file can describe
            // days of work. compare and export simulate every strategy.
            const bool everyStrategy = name == QLatin1String("compare") || name == QLatin1String("export");
            checkWorkBudget(parser, loaded->project.problem, everyStrategy ? std::int64_t(loaded->project.strategies.size()) : 1);
        }
        const double secondsSoFar = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const Doing running(command->doing);
        return command->run({parser, loaded ? &*loaded : nullptr, args.value(1), secondsSoFar});
    } catch (const Cancelled &) {
        std::cerr << "convoffload-cli: cancelled (Ctrl+C)\n";
    } catch (const std::bad_alloc &) {
        std::cerr << "convoffload-cli: " << outOfMemoryMessage(Doing::current(), file) << "\n";
    } catch (const std::exception &e) {
        // Messages carry names from files and from the command line: never
        // raw to the terminal (a FormatError's are escaped already).
        std::cerr << "convoffload-cli: " << printable(e.what()) << "\n";
    }
    return 1;
}
