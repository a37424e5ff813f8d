// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-cli built without the GUI (CONVOFFLOAD_BUILD_GUI=OFF): every
// figure is refused with one message, and no Qt module but QtCore is linked.
#include "CliFigures.h"

namespace convoffload::cli {

bool figuresBuilt() { return false; }

void requireFigures(const std::string &what)
{
    throw UsageError(
        what + ": this convoffload-cli was built without the GUI (CONVOFFLOAD_BUILD_GUI=OFF), which draws the figures");
}

std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool)
{
    return std::make_unique<QCoreApplication>(argc, argv);
}

int exportCommand(const QCommandLineParser &, const Loaded &, const QString &)
{
    requireFigures("export");
    return 1;
}

bool exportsNetworkFigure(const QCommandLineParser &) { return false; }

bool exportsParetoFigure(const QCommandLineParser &) { return false; }

int exportParetoCommand(const QCommandLineParser &, const QString &)
{
    requireFigures("export");
    return 1;
}

int exportNetworkCommand(const QCommandLineParser &, const QString &)
{
    requireFigures("export");
    return 1;
}

void writeGainFigure(const std::vector<ExperimentRow> &, const QString &) { requireFigures("experiments --out"); }

void writeProvenFigure(const std::vector<ExperimentRow> &, const QString &) { requireFigures("experiments --proven-out"); }

void writeDurationsFigure(const std::vector<ExperimentRow> &, int, const QString &)
{
    requireFigures("experiments --durations-out");
}

void writeKernelBlocksFigure(const std::vector<KernelBlockSweepRow> &, const QString &) { requireFigures("sweep --out"); }

} // namespace convoffload::cli
