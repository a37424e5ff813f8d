// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Groups written the way the group-editing tests read best: "0 1|2 5|8" is
// three groups; "" is none.

#include "convoffload/model/S1Strategy.h"

#include <QString>
#include <QStringList>

/// The paper's Example sample and its hand-made strategy "Mine" (index 3),
/// which the group-editing suites edit.
inline const QString kPaperExample = QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json");
constexpr int kMine = 3;
inline const QString kMineGroups = QStringLiteral("0 1|2 5|4 3|6 7|8");

inline convoffload::Groups parseGroups(const QString &text)
{
    convoffload::Groups groups;
    if (text.isEmpty())
        return groups;
    for (const QString &part : text.split(QLatin1Char('|'))) {
        convoffload::Group g;
        for (const QString &id : part.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            g.push_back(convoffload::PatchId(id.toUInt()));
        groups.push_back(g);
    }
    return groups;
}

inline QString groupsText(const convoffload::Groups &groups)
{
    QStringList parts;
    for (const convoffload::Group &g : groups) {
        QStringList ids;
        for (convoffload::PatchId p : g)
            ids << QString::number(p);
        parts << ids.join(QLatin1Char(' '));
    }
    return parts.join(QLatin1Char('|'));
}
