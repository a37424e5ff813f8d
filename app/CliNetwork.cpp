// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "CliNetwork.h"

#include "convoffload/io/NetworkReport.h"
#include "convoffload/optimise/Deadline.h"
#include "convoffload/optimise/NetworkOptimisation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <thread>
#include <unistd.h>

namespace convoffload::cli {

namespace {

QString opt(const char *name) { return QString::fromLatin1(name); }

/// Refuses (UsageError) a network one of whose layers, or whose layers held
/// at once, the work estimate puts over the budget; --no-work-limit skips
/// it. Returns whether the run must stop at the budget's time instead: the
/// estimate adds up every candidate, and the lower bounds rule most of them
/// out without simulating them (docs/reference/cli.md#network), so a network
/// the sum puts over the time limit runs, and stops if it reaches it.
bool checkNetworkBudget(const QCommandLineParser &parser, const Network &network, bool generate)
{
    if (parser.isSet(opt("no-work-limit")))
        return false;
    // Each layer first, as `simulate` checks a project's (its message and
    // limits): one layer beyond them is named before anything runs.
    for (std::size_t i = 0; i < network.layers.size(); ++i)
        checkWorkBudget(parser, network.problemOf(i), 1, network.layers[i].name);
    // Layers run on threads at once (analyseNetwork): as many layers' state.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = parser.isSet(opt("threads")) ? std::size_t(parseInteger(parser, opt("threads"), 1, 256)) : cores;
    WorkEstimate total = estimateNetworkAnalysis(network, generate, threads);
    const bool overTime = total.seconds > WorkBudget{}.seconds;
    total.seconds = std::min(total.seconds, WorkBudget{}.seconds); // the memory decides up front
    if (const std::optional<std::string> why = exceedsBudget(total))
        throw UsageError("refused: simulating every candidate strategy of every layer, " + *why
            + "; try --own-only, or pass --no-work-limit to run it anyway");
    return overTime;
}

/// --optimize: the search optimiser on every layer (core's optimiseNetwork),
/// --time-limit for the whole network.
void optimiseLayers(const QCommandLineParser &parser, NetworkAnalysis &analysis)
{
    NetworkOptimiseOptions options;
    options.time_limit_s = parseSeconds(parser, opt("time-limit"));
    options.request.seed = std::uint64_t(parseInteger(parser, opt("seed"), 0, std::numeric_limits<std::int64_t>::max()));
    if (parser.isSet(opt("moves")))
        options.request.max_moves = parseInteger(parser, opt("moves"), 1, 1000000000000);
    if (parser.isSet(opt("threads")))
        options.request.threads = int(parseInteger(parser, opt("threads"), 1, 256));
    options.cancel = interruptFlag();
    const bool terminal = !parser.isSet(opt("quiet")) && isatty(fileno(stderr));
    if (terminal)
        options.progress = [&analysis](const NetworkOptimiseProgress &p) {
            if (p.progress.seconds > 0)
                return; // one line per layer
            std::fprintf(stderr, "\roptimising %s (%zu of %zu, %.1f s)   ", analysis.layers[p.layer].name.c_str(), p.position,
                p.count, p.time_limit_s);
            std::fflush(stderr);
        };
    optimiseNetwork(analysis, options);
    if (terminal)
        std::fputs("\r\033[K", stderr);
}

} // namespace

void addNetworkOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {opt("hardware"), opt("import-onnx: hardware description ({\"hardware\": ..., \"options\": ...} or a project)."),
            opt("file")},
        {opt("mem-size"),
            opt("import-onnx: on-chip memory in elements (overrides --hardware); explore: the list to try, e.g. 16k..256k*2."),
            opt("n")},
        {opt("nbop-pe"), opt("import-onnx: MACs per compute (overrides --hardware); explore: the list to try, e.g. 256,1024."),
            opt("n")},
        {opt("t-l"), opt("import-onnx: load time per element; explore: the list to try, e.g. 0.5,1,2."), opt("t")},
        {opt("t-w"), opt("import-onnx: write time per element."), opt("t")},
        {opt("t-acc"), opt("import-onnx: time per compute."), opt("t")},
        {opt("dram-size"), opt("import-onnx: DRAM size in elements."), opt("n")},
        {opt("max-loads"), opt("import-onnx: max_loads_per_element, the reload bound."), opt("n")},
        {opt("strategies"), opt("import-onnx: default (heuristics stored with every layer) or none."), opt("which"),
            opt("default")},
        {opt("input-shape"), opt("import-onnx: sizes of a graph input's symbolic dimensions, NAME=1,3,640,640 (repeatable)."),
            opt("name=sizes")},
        {opt("optimize"), opt("network: also run the search optimiser on every layer (--time-limit for the whole network).")},
        {opt("own-only"), opt("network: only the strategies the project holds, none generated.")},
    });
}

NetworkAnalysis analyseNetworkForCli(const QCommandLineParser &parser, const Network &network)
{
    NetworkAnalysisOptions options;
    options.generate = !parser.isSet(opt("own-only"));
    // Ctrl+C, and the work limit's time where the estimate cannot rule it out.
    std::optional<DeadlineFlag> stop;
    if (checkNetworkBudget(parser, network, options.generate))
        stop.emplace(Deadline(WorkBudget{}.seconds), interruptFlag());
    options.cancel = stop ? stop->flag() : interruptFlag();
    if (parser.isSet(opt("threads")))
        options.threads = int(parseInteger(parser, opt("threads"), 1, 256));
    const bool terminal = !parser.isSet(opt("quiet")) && isatty(fileno(stderr));
    if (terminal)
        options.progress = [](std::size_t done, std::size_t n) { // layers run on several threads: a count, not a name
            std::fprintf(stderr, "\ranalysed %zu of %zu layers   ", done, n);
            std::fflush(stderr);
        };
    std::size_t analysed = 0;
    if (stop) {
        options.progress = [terminal, &analysed, report = std::move(options.progress)](std::size_t done, std::size_t n) {
            analysed = done;
            if (terminal && report)
                report(done, n);
        };
    }
    NetworkAnalysis analysis;
    try {
        analysis = analyseNetwork(network, options);
    } catch (const Cancelled &) {
        if (terminal)
            std::fputs("\r\033[K", stderr);
        if (!stop || stop->cancelled())
            throw; // Ctrl+C
        throw UsageError("stopped: simulating the candidate strategies took more than the work limit ("
            + durationText(WorkBudget{}.seconds) + ") after " + std::to_string(analysed) + " of "
            + std::to_string(network.layers.size()) + " layers; try --own-only, or pass --no-work-limit to run it anyway");
    }
    if (terminal)
        std::fputs("\r\033[K", stderr);
    if (parser.isSet(opt("optimize")))
        optimiseLayers(parser, analysis);
    return analysis;
}

int networkCommand(const QCommandLineParser &parser, const QString &projectPath)
{
    const NetworkAnalysis analysis = analyseNetworkForCli(parser, loadNetwork(str(projectPath)));
    if (parser.isSet(opt("json")))
        print(networkToReportJson(analysis).dump(2) + "\n");
    else if (parser.isSet(opt("csv")))
        print(networkToReportCsv(analysis));
    else
        print(networkToReportText(analysis));
    return 0;
}

} // namespace convoffload::cli
