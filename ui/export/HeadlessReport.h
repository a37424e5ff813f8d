// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The application's job without a display: the figures of a project written
// to a folder (grids, memory, durations for each strategy; comparison, sweep
// and storyboard), through the same catalogue as the GUI and the CLI.

#include <QString>
#include <QStringList>

namespace convoffload::ui {

/// Returns the files written; on failure sets `error` (naming the file and the
/// reason) and returns what was written before it.
QStringList writeHeadlessReport(const QString &projectPath, const QString &folder, QString *error);

} // namespace convoffload::ui
