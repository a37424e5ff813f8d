// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "document/AddStrategyCommand.h"

namespace convoffload::ui {

AddStrategyCommand::AddStrategyCommand(ProjectDocument *document, int index, const StrategySpec &spec, int selectOnUndo)
    : m_document(document)
    , m_index(index)
    , m_spec(spec)
    , m_selectOnUndo(selectOnUndo)
{
    setText(QObject::tr("Add strategy %1").arg(QString::fromStdString(spec.name)));
}

void AddStrategyCommand::undo()
{
    m_document->removeStrategy(m_index);
    if (m_selectOnUndo >= 0)
        m_document->setCurrentStrategy(m_selectOnUndo);
}
void AddStrategyCommand::redo() { m_document->insertStrategy(m_index, m_spec); }

} // namespace convoffload::ui
