// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "export/HeadlessReport.h"

#include "export/Figures.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/OutOfMemory.h"
#include "convoffload/model/KernelBlockedFamily.h"

#include <QDir>

#include <algorithm>
#include <QFileInfo>

namespace convoffload::ui {

namespace {

QString slug(const std::string &name)
{
    QString s = QString::fromStdString(name).toLower();
    for (QChar &c : s)
        if (!c.isLetterOrNumber())
            c = QLatin1Char('-');
    return s;
}

} // namespace

QStringList writeHeadlessReport(
    const QString &projectPath, const QString &folder, QString *error, std::optional<WorkBudget> budget)
{
    QStringList written;
    const std::string path = projectPath.toStdString();
    std::string doing = "reading the project";
    try {
        FigureSource source(loadProject(path), path);
        source.setWorkBudget(budget, "make the layer smaller, or pass --no-work-limit to write the report anyway");
        const auto &strategies = source.project().strategies;
        const Problem &problem = source.project().problem;

        // The storyboard of the paper: Row-by-Row against ZigZag when the
        // project has both, otherwise its last two strategies.
        const auto firstOf = [&](StrategyKind kind) {
            const auto it
                = std::find_if(strategies.begin(), strategies.end(), [kind](const StrategySpec &s) { return s.kind == kind; });
            return it == strategies.end() ? std::string() : it->name;
        };
        FigureRequest story;
        story.kind = FigureKind::Storyboard;
        story.strategy = firstOf(StrategyKind::RowByRow);
        story.versus = firstOf(StrategyKind::ZigZag);
        if ((story.strategy.empty() || story.versus.empty()) && strategies.size() >= 2) {
            story.strategy = strategies[strategies.size() - 2].name;
            story.versus = strategies.back().name;
        }
        const bool storyboard = !story.strategy.empty() && !story.versus.empty();
        const auto inStory
            = [&](const std::string &name) { return storyboard && (name == story.strategy || name == story.versus); };
        const std::int64_t sweepTo
            = std::min<std::int64_t>(problem.layer.patchCount(), std::max<std::int64_t>(32, 2 * problem.nbPatchesMax()));
        const bool sweeps = !strategies.empty() && kernelsFit(problem);

        // The whole report before any of it: its simulations one after the
        // other (times add up), each strategy's traced one kept while its
        // figures are drawn, the storyboard's two until the end.
        if (budget) {
            WorkEstimate total;
            double storyBytes = 0;
            for (const StrategySpec &s : strategies)
                if (inStory(s.name))
                    storyBytes += source.simulationWork(s.name).bytes;
            for (const StrategySpec &s : strategies) {
                const WorkEstimate one = source.simulationWork(s.name);
                total.seconds += one.seconds;
                total.bytes = std::max(total.bytes, one.bytes + storyBytes);
            }
            if (!strategies.empty())
                total.seconds += source.comparisonWork().seconds;
            if (sweeps)
                total.seconds += source.sweepWork(1, sweepTo).seconds;
            const std::string subject = "its figures (" + std::to_string(strategies.size())
                + " traced simulations, the comparison"
                + (sweeps ? " and a sweep of group sizes 1.." + std::to_string(sweepTo) : "") + ")";
            if (const std::optional<std::string> why = exceedsBudget(total, *budget, subject))
                throw FigureError(printable(path) + ": " + *why
                    + "; make the layer smaller, or pass --no-work-limit to write the report anyway");
        }

        doing = "creating the report's folder";
        if (!QDir().mkpath(folder)) {
            // mkdir never follows a link: a dangling one is named, with where it points.
            const QFileInfo info(folder);
            *error = info.isSymLink()
                ? QStringLiteral("%1: cannot create the folder: it is a symbolic link to %2, which does not exist")
                      .arg(QDir::toNativeSeparators(folder), QDir::toNativeSeparators(info.symLinkTarget()))
                : QStringLiteral("%1: cannot create the folder").arg(QDir::toNativeSeparators(folder));
            return written;
        }
        const QString base = QFileInfo(projectPath).completeBaseName();
        const auto write = [&](const FigureRequest &request, const QString &name,
                               const QString &extension = QStringLiteral("png")) {
            doing = "drawing the report's figure " + name.toStdString() + "." + extension.toStdString();
            const Figure figure = makeFigure(source, request);
            const QString path = QDir(folder).filePath(QStringLiteral("%1-%2.%3").arg(base, name, extension));
            const ExportResult result = exportFigure(figure.paint, figure.preferredSize, path, figure.title, figure.description);
            if (!result)
                throw FigureError(result.error.toStdString());
            written << path;
        };
        for (const StrategySpec &s : strategies) {
            const int steps = int(source.simulation(s.name).steps.size());
            FigureRequest r;
            r.strategy = s.name;
            r.moment = {std::min(1, steps - 1), Action::Compute};
            r.kind = FigureKind::Grid;
            write(r, slug(s.name) + QStringLiteral("-grid-step%1").arg(r.moment.step + 1));
            r.kind = FigureKind::Memory;
            write(r, slug(s.name) + QStringLiteral("-memory"));
            r.kind = FigureKind::Durations;
            write(r, slug(s.name) + QStringLiteral("-durations"));
            if (!inStory(s.name))
                source.release(s.name); // its trace is not needed any more
        }
        if (!strategies.empty()) {
            FigureRequest compare;
            compare.kind = FigureKind::Compare;
            write(compare, QStringLiteral("compare"));
            write(compare, QStringLiteral("compare"), QStringLiteral("svg"));
            FigureRequest sweep;
            sweep.kind = FigureKind::Sweep;
            write(sweep, QStringLiteral("sweep"));
        }
        if (storyboard) {
            write(story, QStringLiteral("storyboard"));
            write(story, QStringLiteral("storyboard"), QStringLiteral("pdf"));
        }
    } catch (const std::exception &e) {
        *error = QString::fromStdString(errorMessage(e, doing, path));
    }
    return written;
}

} // namespace convoffload::ui
