// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "document/ChangeStrategyCommand.h"

namespace convoffload::ui {

ChangeStrategyCommand::ChangeStrategyCommand(ProjectDocument *document, int index, const StrategySpec &after, const QString &what)
    : m_document(document)
    , m_index(index)
    , m_before(document->project().strategies.at(std::size_t(index)))
    , m_after(after)
{
    setText(what);
}

void ChangeStrategyCommand::undo() { m_document->replaceStrategy(m_index, m_before); }
void ChangeStrategyCommand::redo() { m_document->replaceStrategy(m_index, m_after); }

} // namespace convoffload::ui
