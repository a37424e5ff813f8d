// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Editing groups on the output grid (GridView::setEditable): the left button
// selects patches (click, ctrl-click toggles, shift-click takes the row-major
// range from the last clicked patch, dragging on empty space or an unselected
// patch draws a rubber band), dragging a selected patch starts a drag of the
// selection with GroupListModel's MIME payload, and a drop on a patch of
// another group moves the dragged patches there, a drop on an unassigned patch
// takes them out of their groups (one undo command through the model). While a
// drag hovers over a target the model's DropPreview holds the receptive field
// the group would have. Keys 1–9 move the selection to that group, N makes it
// a new group, Esc clears it; space held turns a left drag into a pan (the
// view pans).
//
// The view owns the controller, forwards its editing events to it and paints
// the state it keeps (selection, rubber band, drop target).

#include "render/GridRenderer.h"

#include "convoffload/model/GroupEdit.h"

#include <QObject>
#include <QRect>

#include <functional>
#include <optional>
#include <set>

class QDragEnterEvent;
class QDragLeaveEvent;
class QDragMoveEvent;
class QDropEvent;
class QKeyEvent;
class QMimeData;
class QMouseEvent;

namespace convoffload::ui {

class GridView;
class GroupListModel;

class GridEditController : public QObject {
    Q_OBJECT
public:
    /// `runDrag` runs the drag of the selection (it owns the data it is given);
    /// the view passes its execDrag so tests can catch the drag start.
    GridEditController(GridView *view, std::function<void(QMimeData *)> runDrag);

    /// The model edited (null: not editing). Resets the gesture and the
    /// selection.
    void setModel(GroupListModel *model);
    GroupListModel *model() const { return m_model; }
    bool isActive() const { return m_model != nullptr; }

    const std::set<PatchId> &selection() const { return m_selection; }
    PatchList selectedPatches() const { return PatchList(m_selection.begin(), m_selection.end()); }
    void setSelectedPatches(const PatchList &patches);
    void clearSelection();
    /// The grid changed shape: the selected ids named patches of another shape.
    void shapeChanged();

    /// The rubber band in widget coordinates; empty when none.
    QRect band() const { return m_band; }
    /// The accepted drop target under a drag.
    std::optional<GridCell> dropCell() const { return m_dropCell; }
    /// Space is held: a left drag pans instead of selecting.
    bool spaceHeld() const { return m_spaceHeld; }

    QMimeData *selectionMimeData() const;
    /// Why `data` cannot be dropped at `pos` (empty: it can, onto `group`).
    /// `inPlace` is set when the patches are already where the drop would put
    /// them: the drag has not left home yet, which is not worth a message.
    QString dropRefusal(const QMimeData *data, const QPointF &pos, int *group = nullptr, bool *inPlace = nullptr) const;
    /// Runs a drag of `data` from the view (blocks in QDrag::exec).
    void execDrag(QMimeData *data);

    // Events forwarded by the view.
    /// A left press in edit mode: starts selecting (or a pending drag).
    void mousePress(QMouseEvent *event);
    /// Returns true when a drag started (the press ended there).
    bool mouseMove(QMouseEvent *event);
    enum class Release { NotMine, Band, Click };
    /// Ends the press; Click when it was a click on the grid (the view reports it).
    Release mouseRelease(QMouseEvent *event);
    /// Ends whatever press is under way without acting on it.
    void cancelPress();
    /// Returns true when the key was an editing key.
    bool keyPress(QKeyEvent *event);
    void keyRelease(QKeyEvent *event);
    void focusOut();
    void dragEnter(QDragEnterEvent *event);
    void dragMove(QDragMoveEvent *event);
    void dragLeave();
    void drop(QDropEvent *event);

Q_SIGNALS:
    void selectionChanged();
    /// A drop (or the drag hovering here) is refused; `reason` says why. An
    /// empty reason withdraws the last one: the drag moved on to a target that
    /// takes the patches, or back over their own group (not worth a message
    /// while hovering: every drag starts there).
    void dropRefused(const QString &reason);

private:
    enum class Gesture { None, Select, RubberBand, PendingDrag };
    std::optional<PatchId> patchAt(const QPointF &pos) const;
    void clickSelect(PatchId patch, Qt::KeyboardModifiers modifiers);
    void updateRubberBand(const QPoint &pos);
    void setSelection(std::set<PatchId> selection);
    void setDropCell(std::optional<GridCell> cell);
    void onModelReset();
    void clearDropPreview();

    GridView *m_view;
    std::function<void(QMimeData *)> m_runDrag;
    GroupListModel *m_model = nullptr; // reset when it is destroyed
    int m_modelStrategy = -1; // the strategy the selection belongs to
    std::set<PatchId> m_selection;
    std::set<PatchId> m_bandBase; // selection kept under a ctrl + rubber band
    std::optional<PatchId> m_anchor; // of shift-click ranges
    Gesture m_gesture = Gesture::None;
    bool m_pressed = false;
    QPoint m_pressPos;
    Qt::KeyboardModifiers m_pressModifiers;
    QRect m_band; // rubber band, widget coordinates; empty when none
    bool m_spaceHeld = false;
    std::optional<GridCell> m_dropCell;
    QString m_lastRefusal; // de-duplicates dropRefused while hovering
};

} // namespace convoffload::ui
