// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The application's job without a display: the figures of a project written
// to a folder (grids, memory, durations for each strategy; comparison, sweep
// and storyboard), through the same catalogue as the GUI and the CLI.

#include "convoffload/simulate/WorkEstimate.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace convoffload::ui {

/// Returns the files written; on failure sets `error` (naming the file and the
/// reason) and returns what was written before it. The whole report's work
/// is estimated first: over `budget` (nullopt: no limit, --no-work-limit),
/// nothing is written and `error` says what it would need. Out of memory
/// is an error naming the figure and the project.
QStringList writeHeadlessReport(
    const QString &projectPath, const QString &folder, QString *error, std::optional<WorkBudget> budget = WorkBudget{});

} // namespace convoffload::ui
