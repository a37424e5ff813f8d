// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ids of mergeable undo commands (QUndoCommand::id), in one place.

namespace convoffload::ui {

enum CommandId {
    EditProblemId = 1, // consecutive edits of one field merge into one undo step
};

} // namespace convoffload::ui
