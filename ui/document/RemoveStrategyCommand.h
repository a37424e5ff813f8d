// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deletes a strategy; undo puts it back where it was.

#include "document/ProjectDocument.h"

#include <QUndoCommand>

namespace convoffload::ui {

class RemoveStrategyCommand : public QUndoCommand {
public:
    RemoveStrategyCommand(ProjectDocument *document, int index);
    void undo() override;
    void redo() override;

private:
    ProjectDocument *m_document;
    int m_index;
    StrategySpec m_spec;
};

} // namespace convoffload::ui
