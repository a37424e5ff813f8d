// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the Groups dock's two trees share (GroupListModel: patch groups;
// StepKernelModel: compute steps and their kernels): they edit the document's
// current strategy by drag and drop, one custom MIME type each, moves only.
// This base keeps the index of the strategy edited across insertions and
// removals, answers the view's drag-and-drop questions from one planned edit
// (dropRefusal / applyDrop), pushes every accepted edit as ONE undo command
// (pushStrategyEdit) and says why a refused one changed nothing
// (editRefused). While a drag hovers, the tree's view asks for a preview of
// the drop (previewDrop) and clears it on leave, drop or cancel.

#include "convoffload/model/S1Strategy.h"

#include <QAbstractItemModel>
#include <QString>

#include <string>

class QMimeData;

namespace convoffload::ui {

class ProjectDocument;

class StrategyEditModel : public QAbstractItemModel {
    Q_OBJECT
public:
    explicit StrategyEditModel(ProjectDocument *document, QObject *parent = nullptr);

    /// The index of the strategy being edited (-1 for none).
    int strategy() const { return m_strategy; }

    /// Previews what dropping `data` at (row, parent) would do, as
    /// dropMimeData would; clears the preview when nothing is to be shown.
    virtual void previewDrop(const QMimeData *data, int row, const QModelIndex &parent) = 0;
    virtual void clearDropPreview() = 0;

    QStringList mimeTypes() const override { return {editMimeType()}; }
    bool canDropMimeData(
        const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) const override;
    bool dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) override;
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }

signals:
    /// An edit (drop or keyboard method) was refused; `reason` says why.
    void editRefused(const QString &reason);

protected:
    /// The MIME type this tree drags and accepts.
    virtual QString editMimeType() const = 0;
    /// Why the drop would be refused; empty when it would be accepted.
    virtual QString dropRefusal(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const = 0;
    /// Makes the drop (through the undo stack); why not when refused.
    virtual QString applyDrop(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) = 0;

    /// Refused: says why (editRefused) and returns it.
    QString refuse(const QString &reason);
    /// Accepted: the strategy edited reads `spec`, one undo step named `text`
    /// (in place, or as an edited copy of a generated strategy: pushStrategyEdit).
    void pushStrategy(const StrategySpec &spec, const QString &text);
    /// The core's sentences start lower case; the dock shows them on their own.
    static QString sentence(const std::string &what);

    ProjectDocument *m_document;
    int m_strategy = -1;
};

} // namespace convoffload::ui
