// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/ChannelGroupText.h"

#include <QStringList>

namespace convoffload::ui {

QString groupRuns(const std::vector<int> &groups, int maxRuns)
{
    // A depthwise layer has as many groups as channels: runs keep it short.
    QStringList runs;
    for (std::size_t i = 0; i < groups.size();) {
        std::size_t j = i + 1;
        while (j < groups.size() && groups[j] == groups[j - 1] + 1)
            ++j;
        if (int(runs.size()) == maxRuns) {
            runs << QStringLiteral("…");
            break;
        }
        runs << (j - i == 1 ? QString::number(groups[i]) : QStringLiteral("%1–%2").arg(groups[i]).arg(groups[j - 1]));
        i = j;
    }
    return runs.join(QStringLiteral(", "));
}

QString groupsOnChipText(const std::vector<int> &groups, int groupCount)
{
    if (groups.empty())
        return QStringLiteral("no channel group on chip");
    if (int(groups.size()) == groupCount)
        return groupCount == 2 ? QStringLiteral("both channel groups on chip")
                               : QStringLiteral("all %1 channel groups on chip").arg(groupCount);
    return QStringLiteral("%1 %2 of %3 on chip")
        .arg(groups.size() == 1 ? QStringLiteral("channel group") : QStringLiteral("channel groups"), groupRuns(groups))
        .arg(groupCount);
}

} // namespace convoffload::ui
