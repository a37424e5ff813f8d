// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Inserts a strategy (new heuristic, duplicate, CSV import) at an index.

#include "document/ProjectDocument.h"

#include <QUndoCommand>

namespace convoffload::ui {

class AddStrategyCommand : public QUndoCommand {
public:
    /// `selectOnUndo`: the strategy to select again when undone (the source
    /// of an edited copy); -1 leaves the choice to the document.
    AddStrategyCommand(ProjectDocument *document, int index, const StrategySpec &spec, int selectOnUndo = -1);
    void undo() override;
    void redo() override;

private:
    ProjectDocument *m_document;
    int m_index;
    StrategySpec m_spec;
    int m_selectOnUndo;
};

} // namespace convoffload::ui
