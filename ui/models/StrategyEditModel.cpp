// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/StrategyEditModel.h"

#include "document/ChangeStrategyCommand.h"
#include "document/ProjectDocument.h"
#include "document/StrategyEdit.h"

#include <QMimeData>

namespace convoffload::ui {

StrategyEditModel::StrategyEditModel(ProjectDocument *document, QObject *parent)
    : QAbstractItemModel(parent)
    , m_document(document)
{
    // Until the tree is reloaded, keep pointing at the same strategy.
    connect(document, &ProjectDocument::strategyInserted, this, [this](int index) {
        if (m_strategy >= index)
            ++m_strategy;
    });
    connect(document, &ProjectDocument::strategyRemoved, this, [this](int index) {
        if (m_strategy > index)
            --m_strategy;
    });
}

bool StrategyEditModel::canDropMimeData(
    const QMimeData *data, Qt::DropAction action, int row, int, const QModelIndex &parent) const
{
    return dropRefusal(data, action, row, parent).isEmpty();
}

bool StrategyEditModel::dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int, const QModelIndex &parent)
{
    return applyDrop(data, action, row, parent).isEmpty();
}

QString StrategyEditModel::refuse(const QString &reason)
{
    emit editRefused(reason);
    return reason;
}

void StrategyEditModel::pushStrategy(const StrategySpec &spec, const QString &text)
{
    pushStrategyEdit(m_document, m_strategy, spec, text);
}

QString StrategyEditModel::sentence(const std::string &what)
{
    QString s = QString::fromStdString(what);
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

} // namespace convoffload::ui
