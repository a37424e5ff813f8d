// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The network commands of convoffload-cli (docs/reference/cli.md): `import-onnx` turns an
// ONNX model into a network project, `network` reports every layer's best
// strategy and the network's total.
#include "CliCommon.h"

#include "convoffload/simulate/NetworkAnalysis.h"

#include <QCommandLineParser>

namespace convoffload::cli {

void addNetworkOptions(QCommandLineParser &parser);

int importOnnxCommand(const QCommandLineParser &parser, const QString &modelPath);
/// The analysis `network` reports and `export --figure network` draws:
/// the work budget checked first (--no-work-limit), --own-only, and
/// --optimize [--time-limit S] (core's optimiseNetwork); a progress line on
/// a terminal unless --quiet.
NetworkAnalysis analyseNetworkForCli(const QCommandLineParser &parser, const Network &network);
int networkCommand(const QCommandLineParser &parser, const QString &projectPath);

} // namespace convoffload::cli
