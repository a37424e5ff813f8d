// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The groups of the document's current strategy as a two-level tree: one
// top-level row per group ("Group 3 — 4 patches") and a last top-level row
// "Unassigned (N)"; their children are patches ("patch 12 (1,3)"). Patches and
// whole groups are dragged with a custom MIME type and dropped on a group (or
// one of its patches) to join it, on "Unassigned" to leave their group, or
// between top-level rows to become a new group there (a whole group is moved
// there instead). Every accepted edit — drop or keyboard method — pushes ONE
// command (pushStrategyEdit) that turns the strategy into explicit `groups`:
// in place for hand-made groups, as an edited copy ("ZigZag (edited)") of a
// generated strategy, which stays as it was; refused ones change nothing and
// say why. Reset when the document
// shows another strategy (or project); an edit of the strategy shown, or of the
// problem, updates the tree in place with one layout change that carries every
// persistent index (expanded groups, selected patches) to its group or patch.
//
// Feedback: groups and patches where the current simulation breaks a rule
// carry a warning icon and the core's messages (core locateFindings maps the
// findings' steps to groups; the rules themselves stay in the core), and the
// model owns the DropPreview every drop target fills while a drag hovers.

#include "models/StrategyEditModel.h"

#include "convoffload/model/GroupEdit.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QMimeData;

namespace convoffload::ui {

class DropPreview;
class ProjectDocument;
struct SimulationSnapshot;

/// What a drag of patches carries (MIME type GroupListModel::mimeType()): the
/// strategy it comes from, its patches and, for a whole group, that group's
/// index (-1 otherwise).
struct PatchPayload {
    qint32 strategy = -1;
    bool wholeGroup = false;
    qint32 group = -1;
    PatchList patches;
};

class GroupListModel : public StrategyEditModel {
    Q_OBJECT
public:
    enum Role {
        GroupIndexRole = Qt::UserRole, // int: 0-based group index; -1 for the unassigned row and its patches
        PatchIdRole, // int: the patch id on patch rows; invalid on top-level rows
        IsUnassignedRole, // bool: the unassigned row and its patches
        PatchCountRole, // int: patches of a top-level row
        FindingsRole, // QStringList: the core's messages about this group or patch; empty when it breaks no rule
    };

    explicit GroupListModel(ProjectDocument *document, QObject *parent = nullptr);

    static QString mimeType() { return QStringLiteral("application/x-convoffload-patches"); }
    /// A new QMimeData (caller owns it) carrying `payload` in mimeType().
    static QMimeData *encodePatches(const PatchPayload &payload);
    /// Loose patches (no whole group) of strategy `strategy`.
    static QMimeData *encodePatches(int strategy, const PatchList &patches);
    /// The payload of `data`; nullopt without mimeType() or when malformed.
    static std::optional<PatchPayload> decodePatches(const QMimeData *data);

    /// The groups being shown (the current strategy's, heuristics expanded).
    const Groups &groups() const { return m_groups; }
    const PatchList &unassigned() const { return m_unassigned; }
    /// Why the current strategy cannot be edited (empty when it can).
    QString problem() const { return m_problem; }
    /// The top-level row of the "Unassigned" entry.
    int unassignedRow() const { return int(m_groups.size()); }

    // ---- keyboard-friendly edits: each pushes one command, or returns why not
    QString moveToGroup(const PatchList &patches, int group);
    QString newGroup(const PatchList &patches); // appended as the last group
    QString moveGroup(int from, int to); // `to`: the group's index afterwards
    QString split(int group, const PatchList &patches);
    QString merge(int a, int b); // b's patches appended to a
    /// Every group of `groups` (two or more) appended, in order, to the first.
    QString mergeAll(std::vector<int> groups);
    QString unassignPatches(const PatchList &patches);
    /// Why moveToGroup(patches, group) — unassignPatches for group -1 — would
    /// be refused (the core's reason); empty when it would be accepted.
    QString moveRefusal(const PatchList &patches, int group) const;

    // ---- the moment shown --------------------------------------------------------
    /// The group the current step computes (-1: none, the drain): its row is
    /// bold on a tinted background, so that the Groups dock shows where the
    /// grids are.
    int currentGroup() const { return m_currentGroup; }
    void setCurrentGroup(int group);
    /// The rows of `patches` (under their group or "Unassigned") in the
    /// tree's order, in one pass over the tree; patches it does not list are
    /// left out.
    QModelIndexList indexesOfPatches(const PatchList &patches) const;

    // ---- feedback -----------------------------------------------------------
    /// Where the current simulation breaks rules, by group and patch; empty
    /// while no simulation of exactly these groups is ready.
    const FindingPlaces &findings() const { return m_findings; }
    /// The core's messages of those findings (indices into the simulation's diagnostics).
    QStringList findingMessages(const std::vector<std::size_t> &findings) const;
    /// The findings of `findings` about a rule (the reload bound's left out:
    /// the grid marks those patches from SimulationResult::reload).
    std::vector<std::size_t> ruleFindings(const std::vector<std::size_t> &findings) const;
    /// The patches with a finding about a rule, ascending.
    std::vector<PatchId> ruleFlaggedPatches() const;
    /// True when one of the findings is an error (not only warnings).
    bool hasError(const std::vector<std::size_t> &findings) const;
    /// The receptive-field preview of the drag hovering over a drop target.
    DropPreview *dropPreview() const { return m_preview; }
    /// Previews `dragged` joining group `group` (-1: a new group).
    void previewJoin(int group, const PatchList &dragged);
    /// Previews the drop the tree would make of `data` at (row, parent), as
    /// dropMimeData would; clears the preview when the drop is refused or
    /// changes no group's field (unassign, reorder).
    void previewDrop(const QMimeData *data, int row, const QModelIndex &parent) override;
    void clearDropPreview() override;

    // ---- QAbstractItemModel -------------------------------------------------
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    QMimeData *mimeData(const QModelIndexList &indexes) const override;

signals:
    /// findings() changed (a new simulation, or the groups changed).
    void findingsChanged();

protected:
    QString editMimeType() const override { return mimeType(); }
    QString dropRefusal(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const override;
    QString applyDrop(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) override;

private:
    /// A planned edit: the new groups and the undo text, or why it is refused.
    struct Edit {
        Groups groups;
        QString text;
        QString error;
    };
    using Operation = std::function<Groups(const Groups &)>;

    /// What the tree shows of the document's current strategy.
    struct Tree {
        int strategy = -1;
        Groups groups;
        PatchList unassigned;
        QString problem;
        Layer layer; // names the patches
    };
    Tree load() const;
    void assign(Tree tree);
    void resetTree();
    void updateTree();
    void refreshFindings();
    /// dataChanged(roles) for the rows flagged in `before` or now (the tree
    /// unchanged in between), one signal per run of consecutive rows.
    void emitFlaggedRowsChanged(const FindingPlaces &before, const QList<int> &roles);
    void updateFindings();
    Edit plan(const Operation &operation, const QString &text) const;
    Edit planDrop(const QMimeData *data, Qt::DropAction action, int row, const QModelIndex &parent) const;
    QString apply(const Edit &edit);
    QString checkPatches(const PatchList &patches) const;

    Groups m_groups;
    PatchList m_unassigned;
    QString m_problem;
    Layer m_layer;
    std::shared_ptr<const SimulationSnapshot> m_findingsSource; // the diagnostics findings point into
    FindingPlaces m_findings;
    DropPreview *m_preview;
    int m_currentGroup = -1;
};

} // namespace convoffload::ui
