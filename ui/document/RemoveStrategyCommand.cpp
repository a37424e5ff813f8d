// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "document/RemoveStrategyCommand.h"

namespace convoffload::ui {

RemoveStrategyCommand::RemoveStrategyCommand(ProjectDocument *document, int index)
    : m_document(document)
    , m_index(index)
    , m_spec(document->project().strategies.at(std::size_t(index)))
{
    setText(QObject::tr("Delete strategy %1").arg(QString::fromStdString(m_spec.name)));
}

void RemoveStrategyCommand::undo() { m_document->insertStrategy(m_index, m_spec); }
void RemoveStrategyCommand::redo() { m_document->removeStrategy(m_index); }

} // namespace convoffload::ui
