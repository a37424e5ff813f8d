// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How an edit of a strategy's groups or compute steps reaches the document.
// A strategy the project defines by hand (explicit groups or steps) is
// changed in place. A generated one (Row-by-Row, ZigZag, S1-baseline, a
// kernel-blocked member) stays as it is, comparable with the edits: the first
// edit adds an edited copy right after it ("ZigZag (edited)", made unique),
// which becomes the current strategy; undoing the edit removes the copy.

#include "convoffload/model/S1Strategy.h"

#include <QString>

namespace convoffload::ui {

class ProjectDocument;

/// True for the kinds a generator expands (their groups or steps are not stored).
bool isGenerated(StrategyKind kind);

/// The name an edited copy of `name` gets: "<name> (edited)", unique in the project.
QString editedCopyName(const ProjectDocument &document, const std::string &name);

/// Pushes ONE undo command that makes strategy `index` read `after` (its
/// kind, groups and steps; the name is the command's business): in place,
/// or as an edited copy of a generated strategy. `text` names the edit.
void pushStrategyEdit(ProjectDocument *document, int index, StrategySpec after, const QString &text);

} // namespace convoffload::ui
