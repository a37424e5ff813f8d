// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "document/EditProblemCommand.h"

#include "document/CommandIds.h"

namespace convoffload::ui {

EditProblemCommand::EditProblemCommand(ProjectDocument *document, const Problem &after, const QString &field)
    : m_document(document)
    , m_before(document->problem())
    , m_after(after)
    , m_field(field)
{
    setText(QObject::tr("Edit %1").arg(field));
}

void EditProblemCommand::undo() { m_document->setProblem(m_before); }
void EditProblemCommand::redo() { m_document->setProblem(m_after); }
int EditProblemCommand::id() const { return EditProblemId; }

bool EditProblemCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const EditProblemCommand *>(other);
    if (next->m_field != m_field)
        return false;
    m_after = next->m_after;
    setObsolete(m_after == m_before);
    return true;
}

} // namespace convoffload::ui
