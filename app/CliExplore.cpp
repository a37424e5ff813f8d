// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "CliExplore.h"

#include "convoffload/Version.h"
#include "convoffload/explore/ExploreFile.h"
#include "convoffload/explore/Exploration.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/optimise/Deadline.h"
#include "convoffload/simulate/NetworkAnalysis.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>
#include <thread>
#include <unistd.h>

namespace convoffload::cli {

namespace {

QString opt(const char *name) { return QString::fromLatin1(name); }

/// --out FILE.jsonl in a folder that exists.
std::string outPath(const QCommandLineParser &parser, const char *command)
{
    const QString out = parser.value(opt("out"));
    if (out.isEmpty() || !out.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive))
        throw UsageError(std::string(command) + " writes JSON Lines: --out FILE.jsonl, got '" + str(out) + "'");
    if (!QFileInfo(out).absoluteDir().exists())
        throw UsageError("--out: the folder of '" + str(out) + "' does not exist");
    return str(out);
}

DesignSpace designSpace(const QCommandLineParser &parser, std::int64_t maxPoints)
{
    if (!parser.isSet(opt("mem-size")) || !parser.isSet(opt("nbop-pe")))
        throw UsageError("explore needs the lists to explore: at least --mem-size LIST and --nbop-pe LIST (e.g. --mem-size "
                         "16k..256k*2 --nbop-pe 256,1024)");
    DesignSpace space;
    space.mem_sizes = parseIntegerList(str(parser.value(opt("mem-size"))), "--mem-size", 1, maxPoints);
    space.nbop_pes = parseIntegerList(str(parser.value(opt("nbop-pe"))), "--nbop-pe", 1, maxPoints);
    if (parser.isSet(opt("t-l")))
        space.t_ls = parseNumberList(str(parser.value(opt("t-l"))), "--t-l", maxPoints);
    if (parser.isSet(opt("layout")))
        space.layouts = parseLayoutList(str(parser.value(opt("layout"))), "--layout");
    if (parser.isSet(opt("burst")))
        space.bursts = parseIntegerList(str(parser.value(opt("burst"))), "--burst", 1, maxPoints);
    if (parser.isSet(opt("t-setup")))
        space.t_setups = parseNumberList(str(parser.value(opt("t-setup"))), "--t-setup", maxPoints);
    return space;
}

ExploreOptions exploreOptions(const QCommandLineParser &parser)
{
    ExploreOptions options;
    options.generate = !parser.isSet(opt("own-only"));
    if (parser.isSet(opt("optimize")))
        options.optimise_s = parseSeconds(parser, opt("time-limit"));
    else if (parser.isSet(opt("moves")))
        throw UsageError("--moves bounds the search of --optimize, which is not given");
    options.seed = std::uint64_t(parseInteger(parser, opt("seed"), 0, std::numeric_limits<std::int64_t>::max()));
    if (parser.isSet(opt("moves")))
        options.moves = parseInteger(parser, opt("moves"), 1, 1000000000000);
    if (parser.isSet(opt("threads")))
        options.threads = int(parseInteger(parser, opt("threads"), 1, 256));
    options.cancel = interruptFlag();
    return options;
}

/// Refuses a shard with a point whose analysis the work estimate puts over
/// the memory budget, as `network` refuses that network, before the first
/// point runs; --no-work-limit skips it. Returns whether a point's estimate
/// is over the time budget: then each point stops at it (plus --optimize's
/// time), as `network` does. A sweep's total is not bounded: many points
/// are what a shard on a cluster is for.
bool checkExploreBudget(const QCommandLineParser &parser, const Network &target, const DesignSpace &space, std::int64_t points,
    const Shard &shard, const ExploreOptions &options)
{
    if (parser.isSet(opt("no-work-limit")))
        return false;
    // Each layer first, in `simulate`'s words and limits (a layer's work
    // does not depend on the hardware).
    for (std::size_t i = 0; i < target.layers.size(); ++i)
        checkWorkBudget(parser, target.problemOf(i), 1, target.layers[i].name);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = options.threads > 0 ? std::size_t(options.threads) : cores;
    bool overTime = false;
    for (std::int64_t k = shard.index; k < points; k += shard.count) {
        Network network = target;
        network.hardware = space.hardwareAt(target.hardware, k);
        WorkEstimate work = estimateNetworkAnalysis(network, options.generate, threads);
        work.seconds += options.optimise_s;
        // The memory decides up front; the time, a sum over every candidate
        // that the lower bounds mostly rule out, is the point's deadline.
        overTime = overTime || work.seconds > WorkBudget{}.seconds + options.optimise_s;
        work.seconds = std::min(work.seconds, WorkBudget{}.seconds);
        if (const std::optional<std::string> why = exceedsBudget(work))
            throw UsageError("refused: design point " + std::to_string(k)
                + ", simulating every candidate strategy of every layer, " + *why
                + "; try --own-only, or pass --no-work-limit to run it anyway");
    }
    return overTime;
}

std::string shardText(const Shard &shard)
{
    return shard.count > 1 ? " (shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + ")" : std::string();
}

} // namespace

void addExploreOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {opt("layout"), opt("explore: DRAM layouts to try, e.g. nchw,nhwc (the transfer model)."), opt("list")},
        {opt("burst"), opt("explore: DMA burst sizes in elements to try, e.g. 1,8,64."), opt("list")},
        {opt("t-setup"), opt("explore: DMA set-up times per run to try, e.g. 0,20."), opt("list")},
        {opt("shard"), opt("explore: evaluate only the points k with k mod N = I (I/N, e.g. $SLURM_ARRAY_TASK_ID/4)."),
            opt("I/N")},
        {opt("max-points"), opt("explore: refuse more design points than this (default 100000)."), opt("n")},
    });
}

int exploreCommand(const QCommandLineParser &parser, const QString &targetPath)
{
    const std::string out = outPath(parser, "explore");
    const std::int64_t maxPoints = parser.isSet(opt("max-points"))
        ? parseInteger(parser, opt("max-points"), 1, std::numeric_limits<std::int64_t>::max())
        : kDefaultMaxPoints;
    const DesignSpace space = designSpace(parser, maxPoints);
    const std::int64_t points = space.pointCount(maxPoints);
    const Shard shard = parser.isSet(opt("shard")) ? parseShard(str(parser.value(opt("shard")))) : Shard{};
    ExploreOptions options = exploreOptions(parser);
    CandidateCache cache;
    options.cache = &cache;

    // The target's bytes, read once: they name the run, and they are the network.
    const std::string path = str(targetPath);
    const std::string bytes = readTextFile(path);
    Network target = loadNetwork(path);
    if (target.layers.empty())
        throw UsageError("'" + path + "' has no convolution layer to explore");
    for (std::int64_t k = 0; k < points; ++k)
        if (const std::vector<std::string> problems = space.hardwareAt(target.hardware, k).problems(); !problems.empty())
            throw UsageError("design point " + std::to_string(k) + ": " + problems.front());
    const bool pointDeadline = checkExploreBudget(parser, target, space, points, shard, options);
    const std::string run = exploreRunId(bytes, space, maxPoints, options, CONVOFFLOAD_VERSION);

    const std::int64_t mine = shard.pointsOf(points);
    const bool terminal = !parser.isSet(opt("quiet")) && isatty(fileno(stderr));
    const auto started = std::chrono::steady_clock::now();
    AtomicFileWriter file(out);
    std::int64_t done = 0;
    bool stopped = false;
    for (std::int64_t k = shard.index; k < points; k += shard.count) {
        if (terminal) {
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            std::fprintf(stderr, "\rexplored %lld of %lld points%s, %.0f s   ", static_cast<long long>(done),
                static_cast<long long>(mine), shardText(shard).c_str(), elapsed);
            std::fflush(stderr);
        }
        try {
            std::optional<DeadlineFlag> stop;
            ExploreOptions pointOptions = options;
            if (pointDeadline) {
                stop.emplace(Deadline(WorkBudget{}.seconds + options.optimise_s), interruptFlag());
                pointOptions.cancel = stop->flag();
            }
            try {
                file.append(exploreLine(run, points, explorePoint(target, space, k, pointOptions)) + "\n");
            } catch (const Cancelled &) {
                if (!stop || stop->cancelled())
                    throw; // Ctrl+C
                file.commit(); // the points done are kept
                throw UsageError("stopped: design point " + std::to_string(k) + " took more than the work limit ("
                    + durationText(WorkBudget{}.seconds + options.optimise_s) + "); " + out + " holds the " + std::to_string(done)
                    + " points before it, whole lines only; try --own-only, or pass --no-work-limit to run it anyway");
            }
        } catch (const Cancelled &) {
            stopped = true;
            break;
        }
        ++done;
    }
    if (terminal)
        std::fputs("\r\033[K", stderr);
    // Stopped or not, the file holds whole lines only: what is done is kept,
    // and merge names what is missing.
    file.commit();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (stopped) {
        std::fprintf(stderr,
            "convoffload-cli: stopped (Ctrl+C) after %lld of %lld points%s; %s holds them, whole lines only (merge names the "
            "missing points)\n",
            static_cast<long long>(done), static_cast<long long>(mine), shardText(shard).c_str(), out.c_str());
        return 1;
    }
    char summary[160];
    std::snprintf(summary, sizeof summary, "%lld design point%s of %lld%s in %.1f s (run %s)", static_cast<long long>(done),
        done == 1 ? "" : "s", static_cast<long long>(points), shardText(shard).c_str(), seconds, run.c_str());
    const std::int64_t runs = cache.hits() + cache.misses();
    print("Wrote " + out + ": " + summary + "; " + std::to_string(cache.hits()) + " of " + std::to_string(runs)
        + " strategy runs shared between points and layers\n");
    return 0;
}

int mergeCommand(const QCommandLineParser &parser, const QStringList &files)
{
    const std::string out = outPath(parser, "merge");
    std::vector<ExploreRecord> records;
    for (const QString &f : files) {
        std::vector<ExploreRecord> read = readExploreFile(str(f));
        records.insert(records.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
    }
    const std::string text = mergeExploreRecords(records);
    writeTextFileAtomically(out, text);
    print("Wrote " + out + ": " + std::to_string(records.front().points) + " design points of run " + records.front().run
        + " from " + std::to_string(files.size()) + (files.size() == 1 ? " file" : " files") + "\n");
    return 0;
}

} // namespace convoffload::cli
