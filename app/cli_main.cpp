// convoffload-cli: the scripting face of the core (SPEC §6).
// Exit 0 on success, 1 on bad input with one precise message on stderr.

#include "CliCommon.h"
#include "CliOptimise.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/StrategyCsv.h"
#include "export/Figures.h"
#include "export/HeadlessPlatform.h"

#include <QCommandLineParser>
#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>
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
    return options;
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
        const StrategySpec *found = project.findStrategy(name);
        if (!found) {
            std::string names;
            for (const StrategySpec &s : project.strategies)
                names += (names.empty() ? "" : ", ") + ("'" + s.name + "'");
            throw UsageError("no strategy named '" + name + "' in the project (it has " + (names.empty() ? "none" : names) + ")");
        }
        spec = *found;
    }
    const SimulationResult result = runStrategy(project.problem, spec, simulationOptions(parser, loaded, false));
    if (parser.isSet(QStringLiteral("json")))
        print(simulationToJson(project.problem, spec.name, result).dump(2) + "\n");
    else
        print(simulationToText(project.problem, spec.name, result));
    return 0;
}

int compareCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const std::vector<CompareRow> rows = compareStrategies(loaded.project, simulationOptions(parser, loaded, false));
    if (parser.isSet(QStringLiteral("json")))
        print(compareToJson(loaded.project.problem, rows).dump(2) + "\n");
    else if (parser.isSet(QStringLiteral("csv")))
        print(compareToCsv(rows));
    else
        print(compareToText(rows));
    return 0;
}

IntRange parseGroupSizes(const QString &range, std::int64_t patches)
{
    return parseRange(range, "--group-sizes", patches, "the number of patches");
}

int sweepCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const QString range = parser.value(QStringLiteral("group-sizes"));
    if (range.isEmpty())
        throw UsageError("sweep needs --group-sizes A..B (e.g. --group-sizes 1..40)");
    const auto [from, to] = parseGroupSizes(range, loaded.project.problem.layer.patchCount());
    const std::vector<SweepRow> rows
        = sweepGroupSizes(loaded.project.problem, from, to, simulationOptions(parser, loaded, false));
    if (parser.isSet(QStringLiteral("json")))
        print(sweepToJson(loaded.project.problem, rows).dump(2) + "\n");
    else if (parser.isSet(QStringLiteral("csv")))
        print(sweepToCsv(rows));
    else
        print(sweepToText(rows));
    return 0;
}

Action parseAction(const QString &text)
{
    for (int a = 0; a < kActionCount; ++a) {
        const auto full = actionName(Action(a)), shortName = actionIdentifier(Action(a));
        if (text == QStringLiteral("a%1").arg(a + 1) || text == QLatin1String(shortName.data(), qsizetype(shortName.size()))
            || text == QLatin1String(full.data(), qsizetype(full.size())))
            return Action(a);
    }
    throw UsageError("--action: expected a1..a6 (or free_input, free_kernels, write, load_input, load_kernels, compute), got '"
        + str(text) + "'");
}

int exportCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath)
{
    const QString figureText = parser.value(QStringLiteral("figure"));
    const std::optional<ui::FigureKind> kind = ui::figureKindFromName(figureText);
    if (!kind)
        throw UsageError(
            "--figure: expected one of " + str(ui::figureNames().join(QStringLiteral(", "))) + ", got '" + str(figureText) + "'");
    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty())
        throw UsageError("export needs --out FILE.png, FILE.svg or FILE.pdf");

    ui::FigureRequest request;
    request.kind = *kind;
    request.strategy = str(parser.value(QStringLiteral("strategy")));
    if (request.strategy.empty() && ui::figureNeedsStrategy(*kind))
        throw UsageError("--figure " + str(figureText) + " needs --strategy NAME");
    request.versus = str(parser.value(QStringLiteral("versus")));
    bool ok = true;
    const int step = parser.value(QStringLiteral("step")).toInt(&ok);
    if (!ok || step < 1)
        throw UsageError("--step: expected a step number >= 1, got '" + str(parser.value(QStringLiteral("step"))) + "'");
    const bool hasAction = parser.isSet(QStringLiteral("action"));
    request.moment = {step - 1, hasAction ? parseAction(parser.value(QStringLiteral("action"))) : Action::Compute};
    request.storyboardSteps = parser.value(QStringLiteral("steps")).toInt(&ok);
    if (!ok)
        throw UsageError("--steps: expected a number of steps, got '" + str(parser.value(QStringLiteral("steps"))) + "'");
    request.heatMap = parser.isSet(QStringLiteral("heat-map"));
    if (parser.isSet(QStringLiteral("group-sizes"))) {
        const auto range
            = parseGroupSizes(parser.value(QStringLiteral("group-sizes")), loaded.project.problem.layer.patchCount());
        request.sweepFrom = range.from;
        request.sweepTo = range.to;
    }

    ui::FigureSource source(loaded.project, str(projectPath));
    const ui::Figure figure = ui::makeFigure(source, request);
    QSize size = figure.preferredSize;
    if (parser.isSet(QStringLiteral("size"))) {
        static const QRegularExpression pattern(QStringLiteral("^(\\d{1,6})x(\\d{1,6})$"));
        const QRegularExpressionMatch m = pattern.match(parser.value(QStringLiteral("size")));
        if (!m.hasMatch())
            throw UsageError("--size: expected WIDTHxHEIGHT in pixels, e.g. 1600x900, got '"
                + str(parser.value(QStringLiteral("size"))) + "'");
        size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    const ui::ExportResult result = ui::exportFigure(figure.paint, size, out, figure.title, figure.description);
    if (!result)
        throw std::runtime_error(str(result.error));
    std::cout << "Wrote " << str(out) << " (" << size.width() << "x" << size.height() << ")\n";
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    // Figures need a GUI application (fonts, Qt Charts); everything else runs
    // on a bare core application. Without a display figures render offscreen.
    const bool exporting = argc > 1 && (std::string(argv[1]) == "export" || std::string(argv[1]) == "experiments");
    if (exporting && ui::noDisplay())
        ui::useOffscreenPlatform();
    const std::unique_ptr<QCoreApplication> app(exporting ? new QApplication(argc, argv) : new QCoreApplication(argc, argv));
    QCoreApplication::setApplicationName(QStringLiteral("convoffload-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Simulate and compare convolution offloading strategies.\n\n"
        "Commands:\n"
        "  simulate PROJECT --strategy NAME [--json]   every step, duration, footprint, checks\n"
        "  simulate PROJECT --strategy-csv FILE        a strategy imported from a solver's CSV\n"
        "  compare  PROJECT [--json|--csv]             every strategy of the project\n"
        "  sweep    PROJECT --group-sizes A..B [--csv|--json]  Row-by-Row vs ZigZag per group size\n"
        "  export   PROJECT --figure F [--strategy NAME] [--step K] --out FILE.{png,svg,pdf}\n"
        "           F: grid, input-grid, output-grid, memory, memory-actions, durations, cumulative,\n"
        "              compare, sweep [--group-sizes A..B], storyboard [--versus NAME] [--steps N]\n"
        "  optimize PROJECT [--method search|ilp] [--time-limit S] [--seed N] [--out CSV] [--save NAME] [--json]\n"
        "           [--group-size G] [--groups kmin|any [--max-groups N]]   an optimised groups strategy\n"
        "  model    PROJECT --out FILE.{lp,mps} [--group-size G] [--groups kmin|any]   the ILP for external solvers\n"
        "  import-solution PROJECT --solution FILE [--save NAME]   a solver's solution, validated\n"
        "  experiments [--sizes 4..12] [--group-sizes 2..10] [--time-limit S] [--ilp-time-limit S]\n"
        "           [--csv|--json] [--out GAIN.{svg,png,pdf}] [--durations-out FILE [--group-size G]]\n"
        "           the paper's optimisation experiments: table, gain heat map, durations for one G"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"),
        QStringLiteral("simulate, compare, sweep, export, optimize, model, import-solution or experiments"));
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
        {QStringLiteral("versus"), QStringLiteral("Second strategy of the storyboard."), QStringLiteral("name")},
        {QStringLiteral("steps"), QStringLiteral("Steps shown by the storyboard (default 4)."), QStringLiteral("n"),
            QStringLiteral("4")},
        {QStringLiteral("heat-map"), QStringLiteral("Colour input pixels by their load count.")},
    });
    addOptimiseOptions(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        std::cerr << "convoffload-cli: " << str(parser.errorText()) << "\n";
        return 1;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    const QStringList args = parser.positionalArguments();
    try {
        if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("csv")))
            throw UsageError("--json and --csv exclude each other");
        const QString command = args.value(0);
        if (command == QLatin1String("experiments")) {
            if (args.size() != 1)
                throw UsageError("experiments takes no project file (it builds the paper's layers itself)");
            return experimentsCommand(parser);
        }
        if (args.size() != 2)
            throw UsageError("expected a command and a project file (see --help)");
        const QStringList commands{QStringLiteral("simulate"), QStringLiteral("compare"), QStringLiteral("sweep"),
            QStringLiteral("export"), QStringLiteral("optimize"), QStringLiteral("model"), QStringLiteral("import-solution")};
        if (!commands.contains(command))
            throw UsageError("unknown command '" + str(command)
                + "' (expected simulate, compare, sweep, export, optimize, model, import-solution or experiments)");
        const Loaded loaded = load(args[1]);
        if (command == QLatin1String("simulate"))
            return simulateCommand(parser, loaded);
        if (command == QLatin1String("compare"))
            return compareCommand(parser, loaded);
        if (command == QLatin1String("export"))
            return exportCommand(parser, loaded, args[1]);
        if (command == QLatin1String("optimize"))
            return optimizeCommand(parser, loaded, args[1]);
        if (command == QLatin1String("model"))
            return modelCommand(parser, loaded);
        if (command == QLatin1String("import-solution"))
            return importSolutionCommand(parser, loaded, args[1]);
        return sweepCommand(parser, loaded);
    } catch (const std::bad_alloc &) {
        std::cerr << "convoffload-cli: out of memory (is the layer too large?)\n";
    } catch (const std::exception &e) {
        std::cerr << "convoffload-cli: " << e.what() << "\n";
    }
    return 1;
}
