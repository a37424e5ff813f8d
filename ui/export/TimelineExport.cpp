// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "export/TimelineExport.h"

#include "document/ProjectDocument.h"

#include "convoffload/io/TextFile.h"
#include "convoffload/io/TraceExport.h"
#include "convoffload/model/KernelStreaming.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <exception>

namespace convoffload::ui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("TimelineExport", text); }

} // namespace

QString defaultTimelineFileName(const ProjectDocument &document)
{
    const auto snapshot = document.simulation();
    const QString project
        = document.filePath().isEmpty() ? document.displayName() : QFileInfo(document.filePath()).completeBaseName();
    QString base = project;
    if (snapshot)
        base += QLatin1Char('-') + QString::fromStdString(snapshot->spec.name);
    // Strategy names are free text ("Kernel-blocked 2/4"); network layer names hold "›".
    base.replace(QRegularExpression(QStringLiteral("[/\\\\:*?\"<>|›]+")), QStringLiteral("-"));
    const QString dir = document.filePath().isEmpty() ? QDir::currentPath() : QFileInfo(document.filePath()).path();
    return QDir(dir).filePath(base.trimmed() + QStringLiteral(".json"));
}

TimelineExportResult exportTimeline(const ProjectDocument &document, const QString &path)
{
    const auto snapshot = document.simulation();
    if (!snapshot)
        return {tr("No strategy is simulated: choose a valid layer and a strategy."), 0};
    if (!snapshot->failure.empty())
        return {tr("The strategy '%1' cannot be simulated: %2")
                    .arg(QString::fromStdString(snapshot->spec.name), QString::fromStdString(snapshot->failure)),
            0};
    // What the document's worker computed for exactly this problem and
    // strategy; after an edit its next simulation is still on its way.
    const StrategySpec *current = document.project().findStrategy(snapshot->spec.name);
    if (!(snapshot->problem == document.problem()) || !current || !(*current == snapshot->spec) || snapshot->result.steps.empty())
        return {tr("The simulation of the current strategy has not finished yet: export again when it has."), 0};
    try {
        const std::string json
            = traceToJson(snapshot->problem, snapshot->spec, computeStepsOf(snapshot->problem, snapshot->spec), snapshot->result);
        writeTextFileAtomically(path.toStdString(), json);
    } catch (const std::exception &e) {
        return {QString::fromStdString(e.what()), 0};
    }
    return {{}, int(snapshot->result.steps.size())};
}

} // namespace convoffload::ui
