// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The figures of convoffload-cli, drawn by the GUI's renderers: `export` and
// the figures of `experiments` (see CliFigures.h).
#include "CliFigures.h"

#include "CliNetwork.h"

#include "convoffload/explore/ExploreFile.h"

#include "export/FigureExport.h"
#include "export/ExportPreset.h"
#include "export/Figures.h"
#include "export/HeadlessPlatform.h"
#include "explore/ParetoPlot.h"
#include "network/NetworkPlot.h"
#include "optimise/ExperimentCharts.h"
#include "optimise/GainHeatMap.h"

#include <QApplication>
#include <QChart>
#include <QRegularExpression>

#include <iostream>
#include <optional>

namespace convoffload::cli {

namespace {

constexpr char kNetworkFigure[] = "network";
constexpr char kParetoFigure[] = "pareto";

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

/// Where and how big a figure goes: --out, then --preset or --size.
struct ExportTarget {
    QString out;
    std::optional<QSize> size; // the layout size asked for
    std::optional<QFont> font; // the preset's
    qreal png_scale = 1.0;
};

/// Read and checked before the figure is computed: a typo must not throw a
/// long simulation away.
ExportTarget exportTarget(const QCommandLineParser &parser)
{
    ExportTarget target;
    target.out = parser.value(QStringLiteral("out"));
    if (target.out.isEmpty())
        throw UsageError("export needs --out FILE.png, FILE.svg or FILE.pdf");
    if (parser.isSet(QStringLiteral("preset"))) {
        const std::optional<ui::ExportPreset> preset = ui::exportPresetFromName(parser.value(QStringLiteral("preset")));
        if (!preset)
            throw UsageError("--preset: expected one of " + str(ui::exportPresetNames()) + ", got '"
                + str(parser.value(QStringLiteral("preset"))) + "'");
        target.size = ui::presetLayoutSize(*preset);
        target.font = ui::presetFont(*preset);
        target.png_scale = ui::presetPngScale(*preset);
    }
    if (parser.isSet(QStringLiteral("size"))) {
        static const QRegularExpression pattern(QStringLiteral("^(\\d{1,6})x(\\d{1,6})$"));
        const QRegularExpressionMatch m = pattern.match(parser.value(QStringLiteral("size")));
        if (!m.hasMatch())
            throw UsageError("--size: expected WIDTHxHEIGHT in pixels, e.g. 1600x900, got '"
                + str(parser.value(QStringLiteral("size"))) + "'");
        target.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    if (const ui::ExportResult check = ui::checkExportTarget(target.out, target.size.value_or(QSize(1, 1))); !check)
        throw std::runtime_error(str(check.error));
    return target;
}

} // namespace

bool figuresBuilt() { return true; }

void requireFigures(const std::string &) { }

std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool drawsFigures)
{
    if (!drawsFigures)
        return std::make_unique<QCoreApplication>(argc, argv);
    if (ui::noDisplay())
        ui::useOffscreenPlatform();
    return std::make_unique<QApplication>(argc, argv);
}

int exportCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath)
{
    const QString figureText = parser.value(QStringLiteral("figure"));
    const std::optional<ui::FigureKind> kind = ui::figureKindFromName(figureText);
    if (!kind)
        throw UsageError("--figure: expected one of " + str(ui::figureNames().join(QStringLiteral(", "))) + " or "
            + kNetworkFigure + " (a network project) or " + kParetoFigure + " (an explore file, .jsonl), got '" + str(figureText)
            + "'");
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
    request.cursor = parser.isSet(QStringLiteral("cursor"));
    request.title = !parser.isSet(QStringLiteral("no-title"));
    if (parser.isSet(QStringLiteral("group-sizes"))) {
        const auto range
            = parseGroupSizes(parser.value(QStringLiteral("group-sizes")), loaded.project.problem.layer.patchCount());
        request.sweepFrom = range.from;
        request.sweepTo = range.to;
    }

    const ExportTarget target = exportTarget(parser);
    request.font = target.font;
    const std::optional<QSize> requestedSize = target.size;
    const qreal pngScale = target.png_scale;
    const QString out = target.out;

    if (requestedSize)
        request.size = *requestedSize;
    const Doing doing("drawing the " + str(figureText) + " figure");
    ui::FigureSource source(loaded.project, str(projectPath));
    // Each simulation the figure needs is estimated first, the sweep's and
    // the comparison's too, as the commands are (checkWorkBudget).
    source.setWorkBudget(parser.isSet(QStringLiteral("no-work-limit")) ? std::nullopt : std::optional<WorkBudget>(WorkBudget{}),
        "make the layer smaller, or pass --no-work-limit to run it anyway");
    const ui::Figure figure = ui::makeFigure(source, request);
    const QSize size = requestedSize ? *requestedSize : figure.preferredSize;
    const ui::ExportResult result = ui::exportFigure(figure.paint, size, out, figure.title, figure.description, pngScale);
    if (!result)
        throw std::runtime_error(str(result.error));
    std::cout << "Wrote " << str(out) << " (" << size.width() << "x" << size.height() << ")\n";
    return 0;
}

bool exportsNetworkFigure(const QCommandLineParser &parser)
{
    return parser.value(QStringLiteral("figure")) == QLatin1String(kNetworkFigure);
}

bool exportsParetoFigure(const QCommandLineParser &parser)
{
    return parser.value(QStringLiteral("figure")) == QLatin1String(kParetoFigure);
}

int exportParetoCommand(const QCommandLineParser &parser, const QString &explorePath)
{
    const std::string path = str(explorePath);
    if (!explorePath.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive))
        throw UsageError("--figure pareto draws an explore file (FILE.jsonl, as explore or merge writes it), got '" + path + "'");
    for (const char *name : {"strategy", "versus", "action", "heat-map", "cursor", "group-sizes", "optimize"})
        if (parser.isSet(QLatin1String(name)))
            throw UsageError(std::string("--") + name + " does not apply to --figure pareto (it draws the points of the file)");
    const ExportTarget target = exportTarget(parser);
    // An incomplete file (a shard, a stopped run) is drawn, its title saying
    // how many points of the run it holds (docs/user/explore.md#the-pareto-figure).
    auto drawn = std::make_shared<ui::ParetoPlot>(readExploreFile(path));
    drawn->setTitleShown(!parser.isSet(QStringLiteral("no-title")));
    const std::shared_ptr<const ui::ParetoPlot> plot = drawn;
    const QSize size = target.size.value_or(QSize(900, 600));
    const QFont font = target.font.value_or(QFont());
    // Every mark and text inside the figure, or nothing written.
    if (!plot->fitsIn(QRectF(QPointF(0, 0), QSizeF(size)), font)) {
        const QSize fit = plot->sizeToFit(size, font);
        throw UsageError("the Pareto figure of " + std::to_string(plot->series().size()) + " series does not fit in "
            + std::to_string(size.width()) + "x" + std::to_string(size.height())
            + (target.font ? " at the preset's text size" : "") + ": give --size " + std::to_string(fit.width()) + "x"
            + std::to_string(fit.height()) + " or more");
    }
    const ui::Figure figure = ui::paretoFigure(plot, target.font, size);
    const ui::ExportResult result
        = ui::exportFigure(figure.paint, size, target.out, figure.title, figure.description, target.png_scale);
    if (!result)
        throw std::runtime_error(str(result.error));
    std::cout << "Wrote " << str(target.out) << " (" << size.width() << "x" << size.height() << ", " << plot->points().size()
              << " of " << plot->runPoints() << " points, " << plot->front().size() << " on the Pareto front)\n";
    return 0;
}

int exportNetworkCommand(const QCommandLineParser &parser, const QString &projectPath)
{
    const std::string path = str(projectPath);
    const Network network = loadNetwork(path); // a file it cannot read: the place and the reason
    if (!isNetworkProjectFile(path))
        throw UsageError("--figure network draws a network project (version 2, as import-onnx writes it), but '" + path
            + "' is a single-layer project: export its figures (e.g. --figure compare), or import a network");
    for (const char *name : {"strategy", "versus", "action", "heat-map", "cursor", "group-sizes"})
        if (parser.isSet(QLatin1String(name)))
            throw UsageError(std::string("--") + name + " does not apply to --figure network (it draws every layer)");
    const ExportTarget target = exportTarget(parser);
    const NetworkAnalysis analysis = analyseNetworkForCli(parser, network);
    const int width = target.size ? target.size->width() : 1000;
    const ui::Figure figure = ui::networkFigure(analysis, target.font, width, !parser.isSet(QStringLiteral("no-title")));
    QSize size = figure.preferredSize;
    if (parser.isSet(QStringLiteral("size"))) {
        if (target.size->height() < size.height())
            throw UsageError("--size " + std::to_string(width) + "x" + std::to_string(target.size->height())
                + ": the network chart of " + std::to_string(network.layers.size()) + " layers needs at least "
                + std::to_string(size.height()) + " pixels of height at that width (or omit --size)");
        size = *target.size;
    } else if (target.size) { // a preset: its width and font, as tall as the rows need
        size.setHeight(std::max(size.height(), target.size->height()));
    }
    const ui::ExportResult result
        = ui::exportFigure(figure.paint, size, target.out, figure.title, figure.description, target.png_scale);
    if (!result)
        throw std::runtime_error(str(result.error));
    std::cout << "Wrote " << str(target.out) << " (" << size.width() << "x" << size.height() << ")\n";
    return 0;
}

namespace {

void writeHeatMap(const std::vector<ExperimentRow> &rows, ui::ExperimentHeatMap map, const QString &path, const QString &title,
    const QString &description)
{
    const ui::ExportResult result = ui::exportFigure(
        [&rows, map](QPainter &painter, const QRectF &target) { ui::paintExperimentHeatMap(painter, target, rows, map); },
        QSize(900, 640), path, title, description);
    if (!result)
        throw std::runtime_error(str(result.error));
}

} // namespace

void writeGainFigure(const std::vector<ExperimentRow> &rows, const QString &path)
{
    writeHeatMap(rows, ui::ExperimentHeatMap::Gain, path, QStringLiteral("Gain over the best heuristic"),
        QStringLiteral("The paper's gain figure: best optimised strategy versus the best of Row-by-Row and ZigZag"));
}

void writeProvenFigure(const std::vector<ExperimentRow> &rows, const QString &path)
{
    writeHeatMap(rows, ui::ExperimentHeatMap::Gap, path, QStringLiteral("Proven optimal and gap to the lower bound"),
        QStringLiteral("A check mark where the best strategy found meets its lower bound; elsewhere the gap in percent"));
}

void writeDurationsFigure(const std::vector<ExperimentRow> &rows, int group, const QString &path)
{
    const std::unique_ptr<QChart> chart(ui::durationsBySizeChart(rows, group));
    const ui::ExportResult result = ui::exportFigure(
        ui::chartPainter(chart.get()), QSize(900, 560), path, QStringLiteral("Duration against input size, G = %1").arg(group));
    if (!result)
        throw std::runtime_error(str(result.error));
}

} // namespace convoffload::cli
