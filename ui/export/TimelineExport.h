// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// File › Export Timeline: the current strategy's schedule as a Chrome Trace
// Event file for Perfetto (docs/reference/trace.md), the same file as
// `convoffload-cli export --figure trace`.

#include <QString>

namespace convoffload::ui {

class ProjectDocument;

struct TimelineExportResult {
    QString error; // empty on success
    int steps = 0; // the steps written (the drain included)
    explicit operator bool() const { return error.isEmpty(); }
};

/// "<project>-<strategy>.json" beside the project (in the working directory
/// when untitled), characters a file name cannot hold replaced by '-'.
QString defaultTimelineFileName(const ProjectDocument &document);

/// Writes the timeline of the document's current strategy to `path`
/// (atomically). It reuses the simulation the document's worker finished for
/// the current problem and strategy, so nothing is simulated twice; while that
/// one is still running (or the strategy cannot be simulated) the error says
/// so and nothing is written.
TimelineExportResult exportTimeline(const ProjectDocument &document, const QString &path);

} // namespace convoffload::ui
