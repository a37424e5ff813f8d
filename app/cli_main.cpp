// convoffload-cli: the scripting face of the core (SPEC §6).
// Exit 0 on success, 1 on bad input with one precise message on stderr.

#include "convoffload/Project.h"
#include "convoffload/Report.h"
#include "convoffload/StrategyCsv.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>
#include <iostream>
#include <optional>

using namespace convoffload;

namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string str(const QString &s) { return s.toStdString(); }

struct Loaded {
    Project project;
    std::optional<TensorData> tensors;
};

Loaded load(const QString &path)
{
    Loaded loaded{loadProject(str(path)), std::nullopt};
    const std::string dataFile = resolveDataFile(str(path), loaded.project.data);
    if (!dataFile.empty())
        loaded.tensors = loadTensorData(loaded.project.problem.layer, dataFile);
    return loaded;
}

SimulationOptions simulationOptions(const QCommandLineParser &parser, const Loaded &loaded, bool trace)
{
    SimulationOptions options;
    options.trace = trace;
    options.functional = !parser.isSet(QStringLiteral("no-functional"));
    options.seed = loaded.project.data.seed;
    options.data = loaded.tensors ? &*loaded.tensors : nullptr;
    return options;
}

void print(const std::string &text) { std::fwrite(text.data(), 1, text.size(), stdout); }

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

int sweepCommand(const QCommandLineParser &parser, const Loaded &loaded)
{
    const QString range = parser.value(QStringLiteral("group-sizes"));
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,9})\\s*\\.\\.\\s*(\\d{1,9})\\s*$"));
    const QRegularExpressionMatch m = pattern.match(range);
    if (range.isEmpty())
        throw UsageError("sweep needs --group-sizes A..B (e.g. --group-sizes 1..40)");
    if (!m.hasMatch())
        throw UsageError("--group-sizes: expected A..B with integers A <= B, got '" + str(range) + "'");
    const std::int64_t from = m.captured(1).toLongLong(), to = m.captured(2).toLongLong();
    const std::int64_t patches = loaded.project.problem.layer.patchCount();
    if (from < 1 || to < from)
        throw UsageError("--group-sizes: expected 1 <= A <= B, got " + str(range));
    if (to > patches)
        throw UsageError(
            "--group-sizes: B = " + std::to_string(to) + " exceeds the number of patches (" + std::to_string(patches) + ")");
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

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("convoffload-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Simulate and compare convolution offloading strategies.\n\n"
                       "Commands:\n"
                       "  simulate PROJECT --strategy NAME [--json]   every step, duration, footprint, checks\n"
                       "  simulate PROJECT --strategy-csv FILE        a strategy imported from a solver's CSV\n"
                       "  compare  PROJECT [--json|--csv]             every strategy of the project\n"
                       "  sweep    PROJECT --group-sizes A..B [--csv|--json]  Row-by-Row vs ZigZag per group size"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("simulate, compare or sweep"));
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("project file (.json)"));
    parser.addOptions({
        {QStringLiteral("strategy"), QStringLiteral("Strategy name in the project."), QStringLiteral("name")},
        {QStringLiteral("strategy-csv"), QStringLiteral("Strategy CSV (patch,group | row,col,group | 0/1 matrix)."),
            QStringLiteral("file")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
        {QStringLiteral("csv"), QStringLiteral("Print CSV.")},
        {QStringLiteral("group-sizes"), QStringLiteral("Group sizes to sweep, A..B."), QStringLiteral("range")},
        {QStringLiteral("no-functional"), QStringLiteral("Skip the functional simulation on values.")},
    });
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
        if (args.size() != 2)
            throw UsageError("expected a command and a project file (see --help)");
        if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("csv")))
            throw UsageError("--json and --csv exclude each other");
        const QString command = args[0];
        if (command != QLatin1String("simulate") && command != QLatin1String("compare") && command != QLatin1String("sweep"))
            throw UsageError("unknown command '" + str(command) + "' (expected simulate, compare or sweep)");
        const Loaded loaded = load(args[1]);
        if (command == QLatin1String("simulate"))
            return simulateCommand(parser, loaded);
        if (command == QLatin1String("compare"))
            return compareCommand(parser, loaded);
        return sweepCommand(parser, loaded);
    } catch (const std::bad_alloc &) {
        std::cerr << "convoffload-cli: out of memory (is the layer too large?)\n";
    } catch (const std::exception &e) {
        std::cerr << "convoffload-cli: " << e.what() << "\n";
    }
    return 1;
}
