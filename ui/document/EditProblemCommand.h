// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Changes the layer, hardware or options; typing in one field merges into a
// single undo step.

#include "document/ProjectDocument.h"

#include <QUndoCommand>

namespace convoffload::ui {

class EditProblemCommand : public QUndoCommand {
public:
    /// `field` names what changed (e.g. "layer.h_k"), for the undo text and merging.
    EditProblemCommand(ProjectDocument *document, const Problem &after, const QString &field);
    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    ProjectDocument *m_document;
    Problem m_before, m_after;
    QString m_field;
};

} // namespace convoffload::ui
