// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The front convoffload-cli's side of CliForward.h, and what it links in
// place of the figures and the ONNX import: the commands that need them are
// handed to the full program before they could run here.
#include "CliForward.h"

#include "CliFigures.h"
#include "CliNetwork.h"

#include "convoffload/io/HelperProgram.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace convoffload::cli {

namespace {

[[noreturn]] void notHere(const char *what)
{
    // main hands these commands over before parsing: reaching one is a bug.
    throw std::logic_error(std::string(what) + " runs in convoffload-cli-full, not in the front convoffload-cli");
}

} // namespace

int runFullProgram(int argc, char **argv)
{
    (void)argc;
    const std::string path = helperProgramPath(
        "convoffload-cli-full", "CONVOFFLOAD_CLI_FULL", CONVOFFLOAD_WORKER_FROM_BIN, CONVOFFLOAD_CLI_FULL_BUILD_PATH);
    ::execv(path.c_str(), argv);
    std::fprintf(stderr, "convoffload-cli: cannot run %s, the program that runs `%s`: %s (is ConvOffload fully installed?)\n",
        path.c_str(), argc > 1 ? argv[1] : "", std::strerror(errno));
    return 1;
}

bool figuresBuilt() { return CONVOFFLOAD_FULL_HAS_FIGURES; }

void requireFigures(const std::string &what)
{
    throw UsageError(
        what + ": this convoffload-cli was built without the GUI (CONVOFFLOAD_BUILD_GUI=OFF), which draws the figures");
}

std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool)
{
    return std::make_unique<QCoreApplication>(argc, argv);
}

int exportCommand(const QCommandLineParser &, const Loaded &, const QString &) { notHere("export"); }
bool exportsNetworkFigure(const QCommandLineParser &) { return false; }
int exportNetworkCommand(const QCommandLineParser &, const QString &) { notHere("export"); }
bool exportsParetoFigure(const QCommandLineParser &) { return false; }
int exportParetoCommand(const QCommandLineParser &, const QString &) { notHere("export"); }
void writeGainFigure(const std::vector<ExperimentRow> &, const QString &) { notHere("experiments --out"); }
void writeProvenFigure(const std::vector<ExperimentRow> &, const QString &) { notHere("experiments --proven-out"); }
void writeDurationsFigure(const std::vector<ExperimentRow> &, int, const QString &) { notHere("experiments --durations-out"); }
void writeKernelBlocksFigure(const std::vector<KernelBlockSweepRow> &, const QString &) { notHere("sweep --out"); }
int importOnnxCommand(const QCommandLineParser &, const QString &) { notHere("import-onnx"); }

} // namespace convoffload::cli
