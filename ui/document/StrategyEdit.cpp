// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "document/StrategyEdit.h"

#include "document/AddStrategyCommand.h"
#include "document/ChangeStrategyCommand.h"
#include "document/ProjectDocument.h"

#include <QUndoStack>

namespace convoffload::ui {

bool isGenerated(StrategyKind kind) { return kind != StrategyKind::Groups && kind != StrategyKind::Steps; }

QString editedCopyName(const ProjectDocument &document, const std::string &name)
{
    return document.uniqueStrategyName(QString::fromStdString(name) + QObject::tr(" (edited)"));
}

void pushStrategyEdit(ProjectDocument *document, int index, StrategySpec after, const QString &text)
{
    const StrategySpec &before = document->project().strategies.at(std::size_t(index));
    if (!isGenerated(before.kind)) {
        after.name = before.name;
        document->undoStack()->push(new ChangeStrategyCommand(document, index, after, text));
        return;
    }
    after.name = editedCopyName(*document, before.name).toStdString();
    auto *add = new AddStrategyCommand(document, index + 1, after, index);
    add->setText(QObject::tr("%1 (as the new strategy %2)").arg(text, QString::fromStdString(after.name)));
    document->undoStack()->push(add);
}

} // namespace convoffload::ui
