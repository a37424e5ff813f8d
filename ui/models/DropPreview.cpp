// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "models/DropPreview.h"

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
    state.text = describe(problem, group, state.field);
    state.shorter = describeShorter(group, state.field);
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

QString DropPreview::describe(const Problem &problem, int group, const FieldPreview &field)
{
    // Patch groups are S1 groups: every kernel, hence every channel group's
    // slice of each pixel, so a pixel counts c_in elements whatever g.
    const qint64 pixels = qint64(field.pixels());
    return tr("%1 would need %2 pixels (+%3), %4 elements of %5")
        .arg(target(group))
        .arg(pixels)
        .arg(field.added.size())
        .arg(pixels * problem.layer.c_in)
        .arg(problem.hardware.mem_size);
}

QStringList DropPreview::describeShorter(int group, const FieldPreview &field)
{
    const qint64 pixels = qint64(field.pixels());
    return {tr("%1 would need %2 pixels (+%3)").arg(target(group)).arg(pixels).arg(field.added.size()),
        tr("%1: %2 pixels (+%3)").arg(target(group)).arg(pixels).arg(field.added.size())};
}

} // namespace convoffload::ui
