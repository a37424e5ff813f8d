// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The optimiser commands of convoffload-cli: `optimize`, `model` (LP/MPS for
// external solvers), `import-solution` and `experiments` (the paper's grid).
#include "CliCommon.h"

#include <QCommandLineParser>

namespace convoffload::cli {

void addOptimiseOptions(QCommandLineParser &parser);

/// `secondsSoFar`: what reading the project took; --time-limit bounds the
/// whole command, so the optimiser gets the rest.
int optimizeCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath, double secondsSoFar);
int modelCommand(const QCommandLineParser &parser, const Loaded &loaded);
int importSolutionCommand(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath);
/// Needs a QApplication when --figure is given.
int experimentsCommand(const QCommandLineParser &parser);

} // namespace convoffload::cli
