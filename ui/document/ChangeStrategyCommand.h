// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Replaces a strategy's definition: rename, new group size, new groups.

#include "document/ProjectDocument.h"

#include <QUndoCommand>

namespace convoffload::ui {

class ChangeStrategyCommand : public QUndoCommand {
public:
    ChangeStrategyCommand(ProjectDocument *document, int index, const StrategySpec &after, const QString &what);
    void undo() override;
    void redo() override;

private:
    ProjectDocument *m_document;
    int m_index;
    StrategySpec m_before, m_after;
};

} // namespace convoffload::ui
