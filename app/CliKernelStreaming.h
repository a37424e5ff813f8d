// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// convoffload-cli's part of the strategies that stream kernels (docs/reference/strategies.md#steps-strategies):
// the kernel-blocked family in `compare`, `sweep --kernel-blocks` and the
// `import-steps` command.
#include "CliCommon.h"

#include "convoffload/optimise/KernelBlockedSearch.h"
#include "convoffload/simulate/Comparison.h"

#include <nlohmann/json.hpp>

#include <QCommandLineParser>

#include <optional>
#include <string>
#include <vector>

namespace convoffload::cli {

void addKernelStreamingOptions(QCommandLineParser &parser);

/// The family search `compare` adds (--kernel-blocked auto|always|never;
/// auto: when the kernels do not fit or the layer is grouped); nullopt when not asked for.
/// Refuses (UsageError) a search over the work budget unless --no-work-limit.
std::optional<FamilySearch> compareFamily(
    const QCommandLineParser &parser, const Loaded &loaded, const SimulationOptions &options);
/// What compare prints about it: JSON object, and one text line.
nlohmann::ordered_json familyToJson(const FamilySearch &search);
std::string familyToText(const FamilySearch &search);

/// `optimize --loop-order kernels-outer|patches-outer --kernel-block B`: the
/// family members the optimiser may pick on a layer whose kernels do not
/// fit. Refuses (UsageError) an unknown loop, B outside 1..N, and either
/// option on a layer whose kernels fit (its optimum is an S1 strategy).
FamilyChoice familyChoiceFrom(const QCommandLineParser &parser, const Problem &problem);

/// `sweep --kernel-blocks A..B [--group-size G] [--order O] [--out FIGURE]`.
int sweepKernelBlocksCommand(const QCommandLineParser &parser, const Loaded &loaded, const SimulationOptions &options);

/// True when import-solution should read `file` as a `step,patch,kernel`
/// CSV (docs/reference/strategy-csv.md#steps-csv): --kernel-steps is given, or its first line is that header.
bool isStepsCsv(const QCommandLineParser &parser, const QString &file);

/// `import-solution PROJECT --solution FILE.csv [--save NAME]` for such a
/// file: simulated, its findings printed, and with --save added to the
/// project as a `steps` strategy. An id out of range or an empty step makes
/// the file unusable (UsageError naming file, step and element).
int importStepsCsv(const QCommandLineParser &parser, const Loaded &loaded, const QString &projectPath, const QString &file);

} // namespace convoffload::cli
