// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "grid/GridEditController.h"

#include "grid/GridView.h"
#include "models/DropPreview.h"
#include "models/GroupListModel.h"
#include "render/Palette.h"

#include <QApplication>
#include <QDrag>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>

#include <algorithm>

namespace convoffload::ui {

GridEditController::GridEditController(GridView *view, std::function<void(QMimeData *)> runDrag)
    : QObject(view)
    , m_view(view)
    , m_runDrag(std::move(runDrag))
{
}

void GridEditController::setModel(GroupListModel *model)
{
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_modelStrategy = model ? model->strategy() : -1;
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &GridEditController::onModelReset);
        connect(model, &QObject::destroyed, this, [this] { m_view->setEditable(nullptr); });
    }
    m_gesture = Gesture::None;
    m_pressed = false;
    m_band = {};
    m_anchor.reset();
    setSelection({});
}

void GridEditController::onModelReset()
{
    // Another strategy: its patches are not the ones selected. The same one
    // edited: the patches are still there, keep them.
    if (m_model->strategy() != m_modelStrategy) {
        m_modelStrategy = m_model->strategy();
        m_anchor.reset();
        setSelection({});
    }
}

void GridEditController::clearDropPreview()
{
    if (m_model)
        m_model->dropPreview()->clear();
}

// --- selection -------------------------------------------------------------------

std::optional<PatchId> GridEditController::patchAt(const QPointF &pos) const
{
    const Problem *problem = m_view->problem();
    if (!problem || m_view->kind() != GridKind::Output || !m_view->gridViewport().contains(pos))
        return std::nullopt;
    const auto cell = m_view->geometry().cellAt(pos);
    if (!cell)
        return std::nullopt;
    return patchId(problem->layer, cell->row, cell->col);
}

void GridEditController::setSelection(std::set<PatchId> selection)
{
    if (selection == m_selection)
        return;
    m_selection = std::move(selection);
    m_view->update();
    Q_EMIT selectionChanged();
}

void GridEditController::setSelectedPatches(const PatchList &patches)
{
    const GridGeometry g = m_view->geometry();
    const PatchId count = PatchId(g.rows) * PatchId(g.cols);
    std::set<PatchId> selection;
    for (PatchId p : patches)
        if (p < count)
            selection.insert(p);
    setSelection(std::move(selection));
}

void GridEditController::clearSelection()
{
    m_anchor.reset();
    setSelection({});
}

void GridEditController::shapeChanged()
{
    m_anchor.reset();
    if (!m_selection.empty())
        setSelection({}); // the ids named patches of another shape
}

void GridEditController::clickSelect(PatchId patch, Qt::KeyboardModifiers modifiers)
{
    std::set<PatchId> selection = m_selection;
    if (modifiers & Qt::ShiftModifier) {
        // The row-major range from the anchor; ctrl + shift adds it.
        if (!(modifiers & Qt::ControlModifier))
            selection.clear();
        const PatchId from = m_anchor ? std::min(*m_anchor, patch) : patch;
        const PatchId to = m_anchor ? std::max(*m_anchor, patch) : patch;
        for (PatchId p = from; p <= to; ++p)
            selection.insert(p);
        if (!m_anchor)
            m_anchor = patch;
    } else if (modifiers & Qt::ControlModifier) {
        if (!selection.erase(patch))
            selection.insert(patch);
        m_anchor = patch;
    } else {
        selection = {patch};
        m_anchor = patch;
    }
    setSelection(std::move(selection));
}

void GridEditController::updateRubberBand(const QPoint &pos)
{
    m_band = QRect(m_pressPos, pos).normalized();
    std::set<PatchId> selection = m_bandBase;
    const QRectF area = QRectF(m_band) & m_view->gridViewport();
    if (m_view->problem() && !area.isEmpty()) {
        const QRect cells = m_view->geometry().cellsIn(area);
        for (int r = cells.top(); r <= cells.bottom(); ++r)
            for (int c = cells.left(); c <= cells.right(); ++c)
                selection.insert(patchId(m_view->problem()->layer, r, c));
    }
    setSelection(std::move(selection));
    m_view->update(); // the band itself
}

// --- mouse and keys --------------------------------------------------------------

void GridEditController::mousePress(QMouseEvent *event)
{
    m_pressed = true;
    m_pressModifiers = event->modifiers();
    m_pressPos = event->position().toPoint();
    // A plain press on a selected patch may become a drag of the selection;
    // anywhere else a move draws a rubber band.
    const auto patch = patchAt(event->position());
    const bool plain = !(m_pressModifiers & (Qt::ControlModifier | Qt::ShiftModifier));
    m_gesture = plain && patch && m_selection.count(*patch) ? Gesture::PendingDrag : Gesture::Select;
}

void GridEditController::cancelPress()
{
    m_pressed = false;
    m_gesture = Gesture::None;
}

bool GridEditController::mouseMove(QMouseEvent *event)
{
    if (!m_pressed || !(event->buttons() & Qt::LeftButton))
        return false;
    const QPoint pos = event->position().toPoint();
    const bool far = (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
    switch (m_gesture) {
    case Gesture::PendingDrag:
        if (far) {
            // QDrag::exec swallows the release: the press ends here.
            m_pressed = false;
            m_gesture = Gesture::None;
            m_runDrag(selectionMimeData());
            return true;
        }
        break;
    case Gesture::Select:
        if (!far)
            break;
        m_gesture = Gesture::RubberBand;
        m_bandBase = (m_pressModifiers & Qt::ControlModifier) ? m_selection : std::set<PatchId>{};
        [[fallthrough]];
    case Gesture::RubberBand:
        updateRubberBand(pos);
        break;
    case Gesture::None:
        break;
    }
    return false;
}

GridEditController::Release GridEditController::mouseRelease(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return Release::NotMine;
    const Gesture gesture = m_gesture;
    m_pressed = false;
    m_gesture = Gesture::None;
    if (gesture == Gesture::RubberBand) {
        m_band = {};
        m_bandBase.clear();
        m_view->update();
        return Release::Band;
    }
    if (gesture == Gesture::Select || gesture == Gesture::PendingDrag) {
        if (const auto patch = patchAt(event->position()))
            clickSelect(*patch, gesture == Gesture::PendingDrag ? Qt::NoModifier : m_pressModifiers);
        else if (!(m_pressModifiers & (Qt::ControlModifier | Qt::ShiftModifier)))
            clearSelection();
    }
    return Release::Click;
}

bool GridEditController::keyPress(QKeyEvent *event)
{
    if (!m_model)
        return false;
    const int key = event->key();
    if (key == Qt::Key_Space) {
        if (!event->isAutoRepeat())
            m_spaceHeld = true; // space + drag pans
        return true;
    }
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    if (key == Qt::Key_Escape && !m_selection.empty()) {
        clearSelection();
        return true;
    }
    if (m_selection.empty())
        return false;
    if (key >= Qt::Key_1 && key <= Qt::Key_9) {
        // Refusals reach the user through the model's editRefused.
        m_model->moveToGroup(selectedPatches(), key - Qt::Key_1);
        return true;
    }
    if (key == Qt::Key_N) {
        m_model->newGroup(selectedPatches());
        return true;
    }
    return false;
}

void GridEditController::keyRelease(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat())
        m_spaceHeld = false;
}

void GridEditController::focusOut() { m_spaceHeld = false; }

// --- drag and drop ---------------------------------------------------------------

QMimeData *GridEditController::selectionMimeData() const
{
    if (!m_model || m_selection.empty())
        return nullptr;
    return GroupListModel::encodePatches(m_model->strategy(), selectedPatches());
}

void GridEditController::execDrag(QMimeData *data)
{
    if (!data)
        return;
    auto *drag = new QDrag(m_view);
    drag->setMimeData(data);
    // A badge with the number of patches dragged.
    const QString text = QString::number(m_selection.size());
    const QFontMetrics fm(m_view->font());
    const qreal ratio = m_view->devicePixelRatio();
    QPixmap badge(QSize(fm.horizontalAdvance(text) + 12, fm.height() + 6) * ratio);
    badge.setDevicePixelRatio(ratio);
    badge.fill(Qt::transparent);
    {
        QPainter p(&badge);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::selection());
        const QRectF r(QPointF(0, 0), QSizeF(badge.size()) / badge.devicePixelRatio());
        p.drawRoundedRect(r, 6, 6);
        p.setPen(Qt::white);
        p.drawText(r, Qt::AlignCenter, text);
    }
    drag->setPixmap(badge);
    drag->setHotSpot(QPoint(-8, -8));
    drag->exec(Qt::MoveAction);
    clearDropPreview(); // a cancelled drag may end outside every target
}

QString GridEditController::dropRefusal(const QMimeData *data, const QPointF &pos, int *group, bool *inPlace) const
{
    if (inPlace)
        *inPlace = false;
    if (!m_model)
        return tr("This grid is not being edited.");
    if (!m_model->problem().isEmpty())
        return m_model->problem();
    if (!data || !data->hasFormat(GroupListModel::mimeType()))
        return tr("Only patches can be dropped here.");
    const std::optional<PatchPayload> payload = GroupListModel::decodePatches(data);
    if (!payload)
        return tr("The dragged data is damaged.");
    if (payload->strategy != m_model->strategy() || m_model->strategy() < 0)
        return tr("These patches come from another strategy.");
    const auto target = patchAt(pos);
    if (!target)
        return tr("Drop the patches on a patch of the group they should join.");

    // The target patch's group (-1: unassigned, a drop there unassigns);
    // whether the move makes sense is the core's to say.
    int targetGroup = -1;
    const Groups &groups = m_model->groups();
    for (std::size_t g = 0; g < groups.size() && targetGroup < 0; ++g)
        if (std::find(groups[g].begin(), groups[g].end(), *target) != groups[g].end())
            targetGroup = int(g);
    const QString why = m_model->moveRefusal(payload->patches, targetGroup);
    if (!why.isEmpty()) {
        if (inPlace)
            *inPlace
                = allAlreadyIn(targetGroup >= 0 ? groups[std::size_t(targetGroup)] : m_model->unassigned(), payload->patches);
        return why;
    }
    if (group)
        *group = targetGroup;
    return {};
}

void GridEditController::setDropCell(std::optional<GridCell> cell)
{
    if (cell == m_dropCell)
        return;
    m_dropCell = cell;
    m_view->update();
}

void GridEditController::dragEnter(QDragEnterEvent *event)
{
    m_lastRefusal.clear();
    if (m_model && event->mimeData()->hasFormat(GroupListModel::mimeType())) {
        // Accept the enter so the moves follow; they decide cell by cell.
        event->setDropAction(Qt::MoveAction);
        event->accept();
    } else {
        event->ignore();
    }
}

void GridEditController::dragMove(QDragMoveEvent *event)
{
    int group = -1;
    bool inPlace = false;
    const QString why = dropRefusal(event->mimeData(), event->position(), &group, &inPlace);
    // A refusal shown a moment ago is stale over a target that takes the
    // patches, or back over their own group: an empty reason withdraws it.
    const auto withdrawRefusal = [this] {
        if (!m_lastRefusal.isEmpty()) {
            m_lastRefusal.clear();
            Q_EMIT dropRefused(QString());
        }
    };
    if (why.isEmpty()) {
        withdrawRefusal();
        setDropCell(m_view->geometry().cellAt(event->position()));
        const std::optional<PatchPayload> payload = GroupListModel::decodePatches(event->mimeData());
        if (group >= 0 && payload)
            m_model->previewJoin(group, payload->patches);
        else
            clearDropPreview(); // unassigning: no group's field to show
        event->setDropAction(Qt::MoveAction);
        event->accept();
        return;
    }
    setDropCell(std::nullopt);
    clearDropPreview();
    event->ignore(); // the cursor shows "forbidden"
    if (inPlace) { // every drag starts over its own patches: nothing to explain
        withdrawRefusal();
        return;
    }
    if (why != m_lastRefusal) {
        m_lastRefusal = why;
        Q_EMIT dropRefused(why);
    }
}

void GridEditController::dragLeave()
{
    setDropCell(std::nullopt);
    clearDropPreview();
    m_lastRefusal.clear();
}

void GridEditController::drop(QDropEvent *event)
{
    setDropCell(std::nullopt);
    clearDropPreview();
    m_lastRefusal.clear();
    int group = -1;
    // Dropped back home, the reason is said now: the user let go on purpose.
    QString why = dropRefusal(event->mimeData(), event->position(), &group);
    if (why.isEmpty()) {
        // One undo command either way.
        const std::optional<PatchPayload> payload = GroupListModel::decodePatches(event->mimeData());
        why = group >= 0 ? m_model->moveToGroup(payload->patches, group) : m_model->unassignPatches(payload->patches);
    }
    if (!why.isEmpty()) {
        event->ignore();
        Q_EMIT dropRefused(why);
        return;
    }
    event->setDropAction(Qt::MoveAction);
    event->accept();
    clearSelection();
}

} // namespace convoffload::ui
