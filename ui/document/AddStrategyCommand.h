#pragma once
// Inserts a strategy (new heuristic, duplicate, CSV import) at an index.

#include "document/ProjectDocument.h"

#include <QUndoCommand>

namespace convoffload::ui {

class AddStrategyCommand : public QUndoCommand {
public:
    AddStrategyCommand(ProjectDocument *document, int index, const StrategySpec &spec);
    void undo() override;
    void redo() override;

private:
    ProjectDocument *m_document;
    int m_index;
    StrategySpec m_spec;
};

} // namespace convoffload::ui
