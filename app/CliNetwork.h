#pragma once
// The network commands of convoffload-cli (SPEC §4b): `import-onnx` turns an
// ONNX model into a network project, `network` reports every layer's best
// strategy and the network's total.
#include "CliCommon.h"

#include <QCommandLineParser>

namespace convoffload::cli {

void addNetworkOptions(QCommandLineParser &parser);

int importOnnxCommand(const QCommandLineParser &parser, const QString &modelPath);
int networkCommand(const QCommandLineParser &parser, const QString &projectPath);

} // namespace convoffload::cli
