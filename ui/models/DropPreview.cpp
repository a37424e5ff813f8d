// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/DropPreview.h"

#include <algorithm>

namespace convoffload::ui {

void DropPreview::show(const Problem &problem, const Groups &groups, int group, const PatchList &dragged)
{
    if (group >= int(groups.size()))
        group = -1;
    const PatchList target = group >= 0 ? groups[std::size_t(group)] : PatchList{};
    if (m_state && m_state->group == group && m_state->target == target && m_state->dragged == dragged)
        return;
    State state;
    state.group = group;
    state.target = target;
    state.dragged = dragged;
    state.field = previewJoin(problem, target, dragged);
    PatchList joined = target;
    joined.insert(joined.end(), dragged.begin(), dragged.end());
    std::sort(joined.begin(), joined.end());
    const auto patches = std::int64_t(std::unique(joined.begin(), joined.end()) - joined.begin());
    state.text = describe(problem, group, state.field, patches);
    state.shorter = describeShorter(group, state.field, patches > problem.nbPatchesMax());
    m_state = std::move(state);
    emit changed();
}

void DropPreview::clear()
{
    if (!m_state)
        return;
    m_state.reset();
    emit changed();
}

QString DropPreview::target(int group) { return group >= 0 ? tr("group %1").arg(group + 1) : tr("a new group"); }

QString DropPreview::describe(const Problem &problem, int group, const FieldPreview &field, std::int64_t patches)
{
    // Patch groups are S1 groups: every kernel, hence every channel group's
    // slice of each pixel, so a pixel counts c_in elements whatever g.
    const qint64 pixels = qint64(field.pixels());
    QString text = tr("%1 would need %2 pixels (+%3), %4 elements of %5")
                       .arg(target(group))
                       .arg(pixels)
                       .arg(field.added.size())
                       .arg(pixels * problem.layer.c_in)
                       .arg(problem.hardware.mem_size);
    if (patches > problem.nbPatchesMax())
        text += tr("; \u26a0 %1 patches, over the %2 that nbop_pe = %3 computes in a step")
                    .arg(patches)
                    .arg(problem.nbPatchesMax())
                    .arg(problem.hardware.nbop_pe);
    return text;
}

QStringList DropPreview::describeShorter(int group, const FieldPreview &field, bool overLimit)
{
    const qint64 pixels = qint64(field.pixels());
    const QString warning = overLimit ? QStringLiteral(" \u26a0") : QString(); // too many patches: the sign stays
    return {tr("%1 would need %2 pixels (+%3)").arg(target(group)).arg(pixels).arg(field.added.size()) + warning,
        tr("%1: %2 pixels (+%3)").arg(target(group)).arg(pixels).arg(field.added.size()) + warning};
}

} // namespace convoffload::ui
