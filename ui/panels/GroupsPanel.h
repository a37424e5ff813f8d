// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The current strategy's groups as a tree to edit by hand: drag patches
// between groups, onto "Unassigned" or between groups (a new group); drag
// groups to reorder them; split and merge groups; or use the keyboard
// actions (also in the toolbar and the context menu). Refused edits say why.
// Groups and patches breaking a rule carry a warning icon and the core's
// message (GroupListModel's findings). A strategy that streams kernels (kinds
// `steps`, `kernel-blocked`) shows its compute steps instead, with their
// kernels: drag kernels onto another step, or between steps for a new step on
// the same patches (StepKernelModel); the group actions are off meanwhile.

#include <QList>
#include <QPersistentModelIndex>
#include <QSet>
#include <QWidget>

#include <optional>
#include <vector>

class QAction;
class QLabel;
class QToolBar;
class QTreeView;

namespace convoffload::ui {

class GroupListModel;
class StepKernelModel;
class ProjectDocument;

class GroupsPanel : public QWidget {
    Q_OBJECT
public:
    explicit GroupsPanel(ProjectDocument *document, QWidget *parent = nullptr);

    GroupListModel *model() const { return m_model; }
    /// The steps of a kernel-streaming strategy (the tree shows it while showsSteps()).
    StepKernelModel *stepModel() const { return m_steps; }
    bool showsSteps() const;
    QTreeView *view() const { return m_view; }
    QString lastMessage() const;
    /// The live feedback line: validity, duration, difference from the best heuristic.
    QString feedback() const;
    /// The editing actions (new group, unassign, split, merge, move up/down),
    /// for the main window's Groups menu.
    QList<QAction *> editActions() const { return m_editActions; }
    QList<QAction *> stepActions() const { return m_stepActions; }
    /// The drop preview line under the steps tree (empty while no kernels hover).
    QString dropPreviewText() const;
    QAction *splitAction() const { return m_split; }
    QAction *mergeAction() const { return m_merge; }

public slots:
    /// Selects `patches` in the tree (the output grid's selection), opens
    /// their groups and scrolls the first of them into view; none clears the
    /// tree's selection.
    void showPatches(const std::vector<std::uint32_t> &patches);
    void newGroupFromSelection();
    void unassignSelection();
    void moveGroupUp();
    void moveGroupDown();
    /// The selected patches (all of one group) become a new group right after it.
    void splitSelection();
    /// The selected groups merge into the first of them; one selected group
    /// merges with the next one.
    void mergeSelection();
    /// Steps view: the selected kernels (of one step) into the step before,
    /// the step after, or a new step after theirs on the same patches.
    void kernelsToPreviousStep();
    void kernelsToNextStep();
    void kernelsToNewStep();

protected:
    /// What changed while the dock was hidden behind another tab is
    /// scrolled to when it is shown.
    void showEvent(QShowEvent *event) override;

private:
    /// Shows an edit's refusal, or else makes `step` (the one that received
    /// the kernels) current, open and in view.
    void showStepEdit(const QString &refusal, int step);
    struct SelectedKernels {
        int step = -1;
        std::vector<std::uint32_t> kernels;
    };
    /// The kernels selected in the steps view, all of one step; nullopt (and
    /// a message) otherwise.
    std::optional<SelectedKernels> selectedKernels();
    std::vector<std::uint32_t> selectedPatches() const;
    int currentGroup() const;
    std::vector<int> selectedGroups() const;
    void show(const QString &error);
    void updateFeedback();
    /// Marks the group the document's moment computes (GroupListModel's
    /// current group) and scrolls it (or the step) into view, unless patches
    /// are selected, which stay in view: stepping through a layer left the
    /// dock at its first groups.
    void followMoment();
    /// Shows the step tree for a kernel-streaming strategy, the groups otherwise.
    void updateMode();

    ProjectDocument *m_document;
    GroupListModel *m_model;
    StepKernelModel *m_steps;
    QTreeView *m_view;
    QToolBar *m_toolBar;
    QList<QAction *> m_editActions;
    QList<QAction *> m_stepActions;
    QAction *m_split = nullptr;
    QAction *m_merge = nullptr;
    QLabel *m_message;
    QLabel *m_feedback;
    QLabel *m_dropPreview;
    QSet<QPersistentModelIndex> m_knownGroups; // the groups before a layout change
    std::vector<std::uint32_t> m_shownPatches; // the grid's selection, shown in the tree
};

} // namespace convoffload::ui
