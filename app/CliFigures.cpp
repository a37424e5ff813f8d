// The figures of convoffload-cli, drawn by the GUI's renderers: `export` and
// the figures of `experiments` (see CliFigures.h).
#include "CliFigures.h"

#include "export/FigureExport.h"
#include "export/ExportPreset.h"
#include "export/Figures.h"
#include "export/HeadlessPlatform.h"
#include "optimise/ExperimentCharts.h"
#include "optimise/GainHeatMap.h"

#include <QApplication>
#include <QChart>
#include <QRegularExpression>

#include <iostream>
#include <optional>

namespace convoffload::cli {

namespace {

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
    request.cursor = parser.isSet(QStringLiteral("cursor"));
    if (parser.isSet(QStringLiteral("group-sizes"))) {
        const auto range
            = parseGroupSizes(parser.value(QStringLiteral("group-sizes")), loaded.project.problem.layer.patchCount());
        request.sweepFrom = range.from;
        request.sweepTo = range.to;
    }

    // The file name and size are checked before the figure is computed: a
    // typo must not throw a long simulation away.
    std::optional<QSize> requestedSize;
    qreal pngScale = 1.0;
    if (parser.isSet(QStringLiteral("preset"))) {
        const std::optional<ui::ExportPreset> preset = ui::exportPresetFromName(parser.value(QStringLiteral("preset")));
        if (!preset)
            throw UsageError("--preset: expected one of " + str(ui::exportPresetNames()) + ", got '"
                + str(parser.value(QStringLiteral("preset"))) + "'");
        requestedSize = ui::presetLayoutSize(*preset);
        request.font = ui::presetFont(*preset);
        pngScale = ui::presetPngScale(*preset);
    }
    if (parser.isSet(QStringLiteral("size"))) {
        static const QRegularExpression pattern(QStringLiteral("^(\\d{1,6})x(\\d{1,6})$"));
        const QRegularExpressionMatch m = pattern.match(parser.value(QStringLiteral("size")));
        if (!m.hasMatch())
            throw UsageError("--size: expected WIDTHxHEIGHT in pixels, e.g. 1600x900, got '"
                + str(parser.value(QStringLiteral("size"))) + "'");
        requestedSize = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    if (const ui::ExportResult target = ui::checkExportTarget(out, requestedSize.value_or(QSize(1, 1))); !target)
        throw std::runtime_error(str(target.error));

    if (requestedSize)
        request.size = *requestedSize;
    ui::FigureSource source(loaded.project, str(projectPath));
    const ui::Figure figure = ui::makeFigure(source, request);
    const QSize size = requestedSize ? *requestedSize : figure.preferredSize;
    const ui::ExportResult result = ui::exportFigure(figure.paint, size, out, figure.title, figure.description, pngScale);
    if (!result)
        throw std::runtime_error(str(result.error));
    std::cout << "Wrote " << str(out) << " (" << size.width() << "x" << size.height() << ")\n";
    return 0;
}

void writeGainFigure(const std::vector<ExperimentRow> &rows, const QString &path)
{
    const ui::ExportResult result
        = ui::exportFigure([&rows](QPainter &painter, const QRectF &target) { ui::paintGainHeatMap(painter, target, rows); },
            QSize(900, 640), path, QStringLiteral("Gain over the best heuristic"),
            QStringLiteral("The paper's gain figure: best optimised strategy versus the best of Row-by-Row and ZigZag"));
    if (!result)
        throw std::runtime_error(str(result.error));
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
