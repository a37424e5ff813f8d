// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every convoffload-cli command shares: the usage error, loading a
// project with its data file, printing, and parsing ranges.
#include "convoffload/model/TensorData.h"
#include "convoffload/io/ProjectFile.h"

#include <QCommandLineParser>
#include <QString>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace convoffload::cli {

/// A mistake on the command line: reported as one message, exit 1.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline std::string str(const QString &s) { return s.toStdString(); }

struct Loaded {
    Project project;
    std::optional<TensorData> tensors;
};

Loaded load(const QString &path);

/// Refuses (UsageError) work the estimate puts over the budget (10 minutes,
/// 3/4 of the memory): `runs` simulations of the problem one after another.
/// --no-work-limit skips the check, --no-functional makes the work smaller.
/// The message names the layer (`layerName`: a network's layer; empty: the
/// project's), in the same words for every command.
void checkWorkBudget(
    const QCommandLineParser &parser, const Problem &problem, std::int64_t runs = 1, const std::string &layerName = {});

void print(const std::string &text);

/// What the command is doing, for the one line of an out-of-memory error
/// ("out of memory while <doing> for <file>", outOfMemoryMessage): set for a
/// scope, the innermost wins. A scope left by an exception keeps its words,
/// so main's catch names what was being done when memory ran out.
class Doing {
public:
    explicit Doing(std::string what);
    ~Doing();
    Doing(const Doing &) = delete;
    Doing &operator=(const Doing &) = delete;
    /// The innermost words set; "running the command" when none is.
    static std::string current();

private:
    std::string m_previous;
    int m_exceptions;
};

/// Raised by Ctrl+C from the first call on: long work polls it and stops (the
/// optimiser keeps its best strategy so far). A second Ctrl+C falls back to
/// the default action and ends the process.
const std::atomic<bool> *interruptFlag();

/// Simulation progress on stderr, one line rewritten in place, when a person
/// is watching (stderr is a terminal) and --quiet is not given; else empty.
std::function<void(std::size_t, std::size_t)> terminalSimulationProgress(const QCommandLineParser &parser, std::string what);
/// Erases that line once the work is done, before the results are printed.
void endProgressLine(const QCommandLineParser &parser);

struct IntRange {
    std::int64_t from = 0, to = 0;
};
/// "A..B" with 1 <= A <= B <= max; `option` names the flag and `maxWhat`
/// the limit in messages ("the number of patches").
IntRange parseRange(const QString &text, const std::string &option, std::int64_t max, const std::string &maxWhat);
/// --group-sizes A..B, at most the number of patches `patches`.
IntRange parseGroupSizes(const QString &range, std::int64_t patches);

/// A number option: `option` named in the message when it is not one or out of range.
double parseSeconds(const QCommandLineParser &parser, const QString &option);
std::int64_t parseInteger(const QCommandLineParser &parser, const QString &option, std::int64_t min, std::int64_t max);

} // namespace convoffload::cli
