// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "CliCommon.h"

#include "convoffload/simulate/WorkEstimate.h"

#include <QRegularExpression>

#include <algorithm>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include <unistd.h>

namespace convoffload::cli {

Loaded load(const QString &path)
{
    Loaded loaded{loadProject(str(path)), std::nullopt};
    const std::string dataFile = resolveDataFile(str(path), loaded.project.data);
    if (!dataFile.empty())
        loaded.tensors = loadTensorData(loaded.project.problem.layer, dataFile);
    return loaded;
}

void checkWorkBudget(const QCommandLineParser &parser, const Problem &problem, std::int64_t runs, const std::string &layerName)
{
    if (parser.isSet(QStringLiteral("no-work-limit")))
        return;
    WorkEstimate work = estimateSimulation(problem, !parser.isSet(QStringLiteral("no-functional")));
    // Runs follow one another: their times add up, their memory does not.
    work.seconds *= double(std::max<std::int64_t>(1, runs));
    if (const std::optional<std::string> why = exceedsBudget(work))
        throw UsageError(layerForMessages(layerName, problem.layer) + ": " + *why
            + "; make the layer smaller, or pass --no-work-limit to run it anyway");
}

namespace {

std::atomic<bool> interrupted{false};

extern "C" void onInterrupt(int)
{
    interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);
}

} // namespace

const std::atomic<bool> *interruptFlag()
{
    std::signal(SIGINT, onInterrupt);
    return &interrupted;
}

std::function<void(std::size_t, std::size_t)> terminalSimulationProgress(const QCommandLineParser &parser, std::string what)
{
    if (parser.isSet(QStringLiteral("quiet")) || !isatty(fileno(stderr)))
        return {};
    return [what = std::move(what)](std::size_t done, std::size_t total) {
        std::fprintf(stderr, "\r%s: step %zu of %zu (%3.0f %%)  ", what.c_str(), done, total,
            total > 0 ? 100.0 * double(done) / double(total) : 100.0);
        std::fflush(stderr);
    };
}

void endProgressLine(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("quiet")) && isatty(fileno(stderr)))
        std::fputs("\r\033[K", stderr);
}

void print(const std::string &text) { std::fwrite(text.data(), 1, text.size(), stdout); }

namespace {

std::string doing = "running the command";

} // namespace

Doing::Doing(std::string what)
    : m_previous(std::exchange(doing, std::move(what)))
    , m_exceptions(std::uncaught_exceptions())
{
}

Doing::~Doing()
{
    if (std::uncaught_exceptions() == m_exceptions) // not left by an exception: the outer words again
        doing = std::move(m_previous);
}

std::string Doing::current() { return doing; }

IntRange parseRange(const QString &text, const std::string &option, std::int64_t max, const std::string &maxWhat)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,9})\\s*\\.\\.\\s*(\\d{1,9})\\s*$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        throw UsageError(option + ": expected A..B with integers A <= B, got '" + str(text) + "'");
    const IntRange r{m.captured(1).toLongLong(), m.captured(2).toLongLong()};
    if (r.from < 1 || r.to < r.from)
        throw UsageError(option + ": expected 1 <= A <= B, got " + str(text));
    if (r.to > max)
        throw UsageError(option + ": B = " + std::to_string(r.to) + " exceeds " + maxWhat + " (" + std::to_string(max) + ")");
    return r;
}

IntRange parseGroupSizes(const QString &range, std::int64_t patches)
{
    return parseRange(range, "--group-sizes", patches, "the number of patches");
}

double parseSeconds(const QCommandLineParser &parser, const QString &option)
{
    bool ok = false;
    const double seconds = parser.value(option).toDouble(&ok);
    constexpr int kWeek = 7 * 24 * 3600;
    if (!ok || !std::isfinite(seconds) || seconds <= 0 || seconds > kWeek)
        throw UsageError("--" + str(option) + ": expected a number of seconds above 0 and at most " + std::to_string(kWeek)
            + " (a week), got '" + str(parser.value(option)) + "'");
    return seconds;
}

std::int64_t parseInteger(const QCommandLineParser &parser, const QString &option, std::int64_t min, std::int64_t max)
{
    bool ok = false;
    const qlonglong value = parser.value(option).toLongLong(&ok);
    if (!ok || value < min || value > max)
        throw UsageError("--" + str(option) + ": expected an integer from " + std::to_string(min) + " to " + std::to_string(max)
            + ", got '" + str(parser.value(option)) + "'");
    return value;
}

} // namespace convoffload::cli
