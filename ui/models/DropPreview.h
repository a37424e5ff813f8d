// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a drag of patches hovering over a drop target would do to the receptive
// field of the group it joins: U(target ∪ dragged), split into the pixels the
// group reads already and the ones the drop adds (core previewJoin), and a
// sentence with the counts. Every drop target (output grid, Groups tree) sets
// it while a drag hovers and clears it on leave, drop or cancel; the input grid
// draws it. It lives with the models: the Groups model owns it, and the grids,
// which already see the models, fill and draw it (in grid/ the models had to
// reach up into the views).

#include "convoffload/model/GroupEdit.h"

#include <QObject>
#include <QString>

#include <optional>

namespace convoffload::ui {

class DropPreview : public QObject {
    Q_OBJECT
public:
    struct State {
        int group = -1; // the 0-based group joined; -1 for a new group
        PatchList target, dragged;
        FieldPreview field;
        QString text; // "group 5 would need 28 pixels (+6), 56 elements of 200"
        /// The same, shorter and shorter, for a title that must fit:
        /// text, "group 5 would need 28 pixels (+6)", "group 5: 28 pixels (+6)".
        QStringList shorter;
    };

    using QObject::QObject;

    /// The preview being shown; nullopt when no drag hovers over a target.
    const std::optional<State> &state() const { return m_state; }
    bool isActive() const { return m_state.has_value(); }

    /// `dragged` joining group `group` of `groups` (-1: a new group). Cheap to
    /// call on every drag move: nothing is recomputed for the same target.
    void show(const Problem &problem, const Groups &groups, int group, const PatchList &dragged);
    void clear();

    /// The sentence for a field (public for the tests' independent check);
    /// with the group's patches after the drop, a warning when they are more
    /// than one step computes (nb_patches_max, from nbop_pe): that error
    /// came only after the drop.
    static QString describe(const Problem &problem, int group, const FieldPreview &field, std::int64_t patches = 0);
    static QStringList describeShorter(int group, const FieldPreview &field, bool overLimit = false);

signals:
    void changed();

private:
    static QString target(int group); // "group 5", "a new group"

    std::optional<State> m_state;
};

} // namespace convoffload::ui
