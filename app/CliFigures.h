// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The figures of convoffload-cli: `export` and the figures of `experiments`.
// They are drawn by the GUI's renderers (the ui library, Qt Widgets and
// Charts); a build without the GUI (CONVOFFLOAD_BUILD_GUI=OFF) links
// CliNoFigures.cpp instead, which refuses them with a clear message.
#include "CliCommon.h"

#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/simulate/Comparison.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <memory>
#include <string>
#include <vector>

namespace convoffload::cli {

/// True when this convoffload-cli was built with the GUI and can draw figures.
bool figuresBuilt();
/// Throws UsageError saying that `what` needs the figures of the GUI when
/// this program was built without it.
void requireFigures(const std::string &what);

/// A QApplication (fonts, Qt Charts; offscreen without a display) for a
/// command that draws, a QCoreApplication otherwise.
std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool drawsFigures);

int exportCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath);
/// `export --figure network`: reads the network project itself (a
/// single-layer project is refused).
bool exportsNetworkFigure(const QCommandLineParser &parser);
int exportNetworkCommand(const QCommandLineParser &parser, const QString &projectPath);
/// `export --figure pareto`: the Pareto figure of an explore file (.jsonl),
/// read by the command itself (docs/user/explore.md#the-pareto-figure).
bool exportsParetoFigure(const QCommandLineParser &parser);
int exportParetoCommand(const QCommandLineParser &parser, const QString &explorePath);

/// The paper's gain heat map, the heat map of the instances proven optimal
/// (with the gap of the others) and the duration-against-size chart for
/// group size `group`; throw std::runtime_error when the file cannot be written.
void writeGainFigure(const std::vector<ExperimentRow> &rows, const QString &path);
void writeProvenFigure(const std::vector<ExperimentRow> &rows, const QString &path);
void writeDurationsFigure(const std::vector<ExperimentRow> &rows, int group, const QString &path);
/// Duration against the kernel block size B, one line per loop (sweep --kernel-blocks --out).
void writeKernelBlocksFigure(const std::vector<KernelBlockSweepRow> &rows, const QString &path);

} // namespace convoffload::cli
