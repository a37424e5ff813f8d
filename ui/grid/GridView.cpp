#include "grid/GridView.h"

#include "render/Palette.h"
#include "grid/DropPreview.h"
#include "models/GroupListModel.h"

#include <QApplication>
#include <QDrag>
#include <QDragEnterEvent>
#include <QDragLeaveEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QFocusEvent>
#include <QMimeData>
#include <QPixmap>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

namespace {

constexpr double kZoomStep = 1.25;      // per key press or wheel notch
constexpr double kFitInset = 2.0;       // px between the fitted grid and the viewport's edge
constexpr int kMaxListedSteps = 20;     // in a pixel's tooltip
constexpr int kMaxListedOutputs = 16;   // in a patch's tooltip
constexpr int kMaxListedFindings = 6;   // in a patch's tooltip

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

// Selected patches: a dark blue hatch and ring, distinct from every output
// state colour (a plain wash would read as one of the state swatches).
QColor selectionFill() { return QColor(0x1F, 0x3F, 0xBF, 90); }
QColor selectionLine() { return QColor(0x1F, 0x3F, 0xBF); }

QString range(int first, int last)
{
    return first == last ? QString::number(first) : QStringLiteral("%1–%2").arg(first).arg(last);
}

} // namespace

GridView::GridView(GridKind kind, QWidget *parent) : QWidget(parent), m_kind(kind)
{
    setAttribute(Qt::WA_OpaquePaintEvent); // paintEvent fills what it is asked to paint
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(kind == GridKind::Input ? QStringLiteral("Input grid") : QStringLiteral("Output grid"));
}

void GridView::setSource(const Problem *problem, const StepCursor *cursor)
{
    // The old problem may already be gone: compare with the cached shape only.
    const int rows = problem ? GridRenderer::rowsOf(m_kind, *problem) : 0;
    const int cols = problem ? GridRenderer::colsOf(m_kind, *problem) : 0;
    const bool reshaped = rows != m_rows || cols != m_cols;
    m_problem = problem;
    m_cursor = cursor;
    m_rows = rows;
    m_cols = cols;
    m_hover.reset();
    if (reshaped) {
        m_fitted = true;
        m_anchor.reset();
        if (!m_selection.empty())
            setSelection({}); // the ids named patches of another shape
    }
    updateLayout();
    update();
}

void GridView::setHeatMap(bool on)
{
    if (m_style.heatMap == on)
        return;
    m_style.heatMap = on;
    updateLayout();
    update();
}

void GridView::setOutlineGroup(bool on)
{
    if (m_style.outlineGroup == on)
        return;
    m_style.outlineGroup = on;
    updateLayout();
    update();
}

void GridView::refresh()
{
    updateLayout(); // the heat-map legend grows with the reload count
    update();
}

std::vector<LegendRow> GridView::legendRows() const
{
    if (!m_problem || !m_cursor)
        return {};
    if (m_kind == GridKind::Input) {
        std::vector<LegendRow> rows = GridRenderer::inputLegend(*m_problem, *m_cursor, m_style);
        // Always listed while a preview source is attached, so the layout
        // does not jump when a drag starts.
        if (m_preview && !rows.empty()) {
            rows.back().items.push_back({LegendItem::Kind::Marker, Palette::previewKept(), Palette::previewKeptLabel(), {}, {}});
            rows.back().items.push_back(
                {LegendItem::Kind::Marker, Palette::previewAdded(), Palette::previewAddedLabel(), {}, {}});
        }
        return rows;
    }
    std::vector<LegendRow> rows = GridRenderer::outputLegend(m_style);
    if (m_model && !rows.empty()) {
        rows.back().items.push_back({LegendItem::Kind::Outline, selectionLine(), QStringLiteral("selected"), {}, {}});
        rows.back().items.push_back({LegendItem::Kind::Flag, Palette::flag(), Palette::flagLabel(), {}, {}});
    }
    return rows;
}

void GridView::updateLayout()
{
    const QFontMetricsF fm(font(), this);
    const double h = fm.height();
    const double margin = std::round(h * 0.4);
    const QRectF inner = QRectF(rect()).adjusted(margin, margin, -margin, -margin);
    const double titleH = std::ceil(h * 1.3);
    const double legendH = m_style.legend ? GridRenderer::legendHeight(fm, inner.width(), legendRows()) : 0.0;
    const double legendGap = m_style.legend ? std::round(h * 0.4) : 0.0;
    const QSizeF axis = m_style.labels ? GridRenderer::axisSize(fm, rows(), cols()) : QSizeF(0, 0);

    m_title = QRectF(inner.left(), inner.top(), inner.width(), titleH);
    const double top = m_title.bottom() + axis.height();
    const QRectF viewport(inner.left() + axis.width(), top, std::max(0.0, inner.width() - axis.width()),
                          std::max(0.0, inner.bottom() - legendH - legendGap - top));
    m_topAxis = QRectF(viewport.left(), viewport.top() - axis.height(), viewport.width(), axis.height());
    m_leftAxis = QRectF(inner.left(), viewport.top(), axis.width(), viewport.height());
    m_legend = QRectF(inner.left(), viewport.bottom() + legendGap, inner.width(), legendH);

    const QRectF old = m_viewport;
    m_viewport = viewport;
    if (m_fitted || old.isEmpty())
        m_transform.fit(sceneSize(), fitRect());
    else if (old != m_viewport)
        m_transform.refit(sceneSize(), old.adjusted(kFitInset, kFitInset, -kFitInset, -kFitInset), fitRect());
}

QRectF GridView::fitRect() const
{
    // Inset so the frame and the group's 2 px outline on the edges stay visible.
    return m_viewport.adjusted(kFitInset, kFitInset, -kFitInset, -kFitInset);
}

GridGeometry GridView::geometry() const
{
    return GridGeometry{rows(), cols(), m_transform.offset, m_transform.scale()};
}

void GridView::fitToView()
{
    m_fitted = true;
    m_transform.fit(sceneSize(), fitRect());
    update();
}

void GridView::zoomAbout(const QPointF &widgetPoint, double factor)
{
    m_transform.zoomAbout(widgetPoint, factor);
    m_transform.constrain(sceneSize(), m_viewport);
    m_fitted = false;
    update();
}

void GridView::zoomIn() { zoomAbout(m_viewport.center(), kZoomStep); }
void GridView::zoomOut() { zoomAbout(m_viewport.center(), 1.0 / kZoomStep); }

// --- painting ------------------------------------------------------------------

void GridView::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    const QRect exposed = event->rect();
    painter.fillRect(exposed, Qt::white);
    if (!m_problem || !m_cursor) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("No simulation to show"));
        return;
    }
    const GridGeometry g = geometry();
    if (m_title.intersects(exposed))
        GridRenderer::paintTitle(painter, m_title, title());

    const QRectF shown = m_viewport & QRectF(exposed);
    if (!shown.isEmpty()) {
        const QRect cells = g.cellsIn(shown);
        painter.save();
        painter.setClipRect(shown);
        if (m_kind == GridKind::Input)
            m_renderer.paintInputCells(painter, g, *m_problem, *m_cursor, m_style, cells);
        else
            m_renderer.paintOutputCells(painter, g, *m_problem, *m_cursor, m_style, cells);
        if (m_preview && m_preview->isActive())
            GridRenderer::paintFieldPreview(painter, g, m_problem->layer, m_preview->state()->field, cells);
        if (!m_flagged.empty())
            GridRenderer::paintPatchFlags(painter, g, m_problem->layer, m_flagged, cells);
        if (m_highlight && m_highlight->row < m_rows && m_highlight->col < m_cols) {
            // A white ring inside a dark one reads on every state colour.
            const QRectF r = g.cellRect(m_highlight->row, m_highlight->col);
            const double w = std::max(2.0, std::min(5.0, g.cellSize / 6));
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(Palette::cursor(), w));
            painter.drawRect(r.adjusted(-w, -w, w, w));
            painter.setPen(QPen(Qt::white, w / 2));
            painter.drawRect(r.adjusted(-w / 4, -w / 4, w / 4, w / 4));
        }
        if (!m_selection.empty() && m_cols > 0) {
            const double w = std::max(2.0, std::min(4.0, g.cellSize / 10));
            painter.setPen(QPen(selectionLine(), w));
            painter.setBrush(QBrush(selectionLine(), Qt::BDiagPattern));
            for (PatchId id : m_selection) {
                const int r = int(id / PatchId(m_cols)), c = int(id % PatchId(m_cols));
                if (cells.contains(c, r))
                    painter.drawRect(g.cellRect(r, c).adjusted(w / 2, w / 2, -w / 2, -w / 2));
            }
        }
        if (m_dropCell) {
            const double w = std::max(2.0, std::min(5.0, g.cellSize / 6));
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(selectionLine(), w, Qt::DashLine));
            painter.drawRect(g.cellRect(m_dropCell->row, m_dropCell->col).adjusted(w / 2, w / 2, -w / 2, -w / 2));
        }
        if (!m_band.isEmpty()) {
            QColor fill = selectionFill();
            fill.setAlpha(50);
            painter.setPen(QPen(selectionLine(), 1, Qt::DashLine));
            painter.setBrush(fill);
            painter.drawRect(QRectF(m_band).adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (m_hover) {
            painter.setPen(QPen(Palette::cursor(), 1, Qt::DotLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(g.cellRect(m_hover->row, m_hover->col).adjusted(1, 1, -1, -1));
        }
        painter.restore();
    }
    if (m_style.labels && (m_topAxis.intersects(exposed) || m_leftAxis.intersects(exposed))) {
        painter.save();
        painter.setClipRect(QRectF(exposed) & (m_topAxis | m_leftAxis));
        GridRenderer::paintAxes(painter, g, m_topAxis, m_leftAxis, g.cellsIn(m_viewport));
        painter.restore();
    }
    if (m_style.legend && m_legend.intersects(exposed))
        GridRenderer::paintLegend(painter, m_legend, legendRows());
}

QString GridView::title() const
{
    if (!m_problem || !m_cursor)
        return {};
    if (m_kind == GridKind::Input && m_preview && m_preview->isActive()) {
        // The sentence alone (the legend names the markers): it must fit narrow docks.
        QString text = m_preview->state()->text;
        if (!text.isEmpty())
            text[0] = text[0].toUpper();
        return text;
    }
    return m_kind == GridKind::Input ? GridRenderer::inputTitle(*m_problem, *m_cursor)
                                     : GridRenderer::outputTitle(*m_problem, *m_cursor);
}

void GridView::setDropPreview(const DropPreview *preview)
{
    if (m_kind != GridKind::Input)
        preview = nullptr;
    if (m_preview == preview)
        return;
    if (m_preview)
        disconnect(m_preview, nullptr, this, nullptr);
    m_preview = preview;
    if (preview) {
        connect(preview, &DropPreview::changed, this, qOverload<>(&QWidget::update));
        connect(preview, &QObject::destroyed, this, [this] { setDropPreview(nullptr); });
    }
    updateLayout(); // the legend gains or loses the preview's markers
    update();
}

void GridView::setHighlight(std::optional<GridCell> cell)
{
    if (cell == m_highlight)
        return;
    m_highlight = cell;
    update();
}

void GridView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateLayout();
}

// --- interaction ---------------------------------------------------------------

void GridView::wheelEvent(QWheelEvent *event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0 || !m_problem) {
        event->ignore();
        return;
    }
    zoomAbout(event->position(), std::pow(kZoomStep, notches));
    event->accept();
}

void GridView::mousePressEvent(QMouseEvent *event)
{
    const bool editing = isEditable();
    const bool pan = event->button() == Qt::LeftButton ? !editing || m_spaceHeld
                                                       : editing && event->button() == Qt::MiddleButton;
    if (!pan && !(editing && event->button() == Qt::LeftButton)) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressButton = event->button();
    m_pressModifiers = event->modifiers();
    m_pressPos = m_lastPos = event->position().toPoint();
    if (pan) {
        m_gesture = Gesture::Pan;
        return;
    }
    // A plain press on a selected patch may become a drag of the selection;
    // anywhere else a move draws a rubber band.
    const auto patch = patchAt(event->position());
    const bool plain = !(m_pressModifiers & (Qt::ControlModifier | Qt::ShiftModifier));
    m_gesture = plain && patch && m_selection.count(*patch) ? Gesture::PendingDrag : Gesture::Select;
}

void GridView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressed && (event->buttons() & m_pressButton)) {
        const bool far = (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
        switch (m_gesture) {
        case Gesture::Pan:
            if (!m_dragging && far) {
                m_dragging = true;
                setCursor(Qt::ClosedHandCursor);
            }
            if (m_dragging) {
                m_transform.pan(QPointF(pos - m_lastPos));
                m_transform.constrain(sceneSize(), m_viewport);
                m_fitted = false;
                m_lastPos = pos;
                update();
            }
            break;
        case Gesture::PendingDrag:
            if (far) {
                // QDrag::exec swallows the release: the press ends here.
                m_pressed = false;
                m_gesture = Gesture::None;
                execDrag(selectionMimeData());
                return;
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
    }
    setHover(m_viewport.contains(event->position()) ? geometry().cellAt(event->position()) : std::nullopt);
}

void GridView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != m_pressButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const Gesture gesture = m_gesture;
    const bool panned = m_dragging;
    m_pressed = m_dragging = false;
    m_gesture = Gesture::None;
    if (gesture == Gesture::RubberBand) {
        m_band = {};
        m_bandBase.clear();
        update();
        return;
    }
    if (gesture == Gesture::Pan && panned) {
        unsetCursor();
        return;
    }
    if (gesture == Gesture::Pan && m_pressButton != Qt::LeftButton)
        return; // a middle click is no click on a cell
    const auto cell = m_viewport.contains(event->position()) ? geometry().cellAt(event->position()) : std::nullopt;
    if (gesture == Gesture::Select || gesture == Gesture::PendingDrag) {
        if (const auto patch = patchAt(event->position()))
            clickSelect(*patch, gesture == Gesture::PendingDrag ? Qt::NoModifier : m_pressModifiers);
        else if (!(m_pressModifiers & (Qt::ControlModifier | Qt::ShiftModifier)))
            clearSelection();
    }
    if (cell)
        Q_EMIT cellClicked(cell->row, cell->col);
}

void GridView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        fitToView();
}

void GridView::keyPressEvent(QKeyEvent *event)
{
    if (editKey(event))
        return;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        fitToView();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void GridView::leaveEvent(QEvent *event)
{
    setHover(std::nullopt);
    QWidget::leaveEvent(event);
}

QRect GridView::hoverRect(const std::optional<GridCell> &cell) const
{
    if (!cell)
        return {};
    return geometry().cellRect(cell->row, cell->col).toAlignedRect().adjusted(-2, -2, 2, 2) & m_viewport.toAlignedRect();
}

void GridView::setHover(std::optional<GridCell> cell)
{
    if (cell == m_hover)
        return;
    update(hoverRect(m_hover)); // only the two cells change
    m_hover = cell;
    update(hoverRect(m_hover));
    Q_EMIT cellHovered(cell ? cell->row : -1, cell ? cell->col : -1);
}

bool GridView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            const auto cell = geometry().cellAt(help->pos());
            QToolTip::showText(help->globalPos(), text, this,
                               cell ? geometry().cellRect(cell->row, cell->col).toAlignedRect() : QRect());
        }
        return true;
    }
    return QWidget::event(event);
}

// --- edit mode -------------------------------------------------------------------

void GridView::setEditable(GroupListModel *model)
{
    if (m_kind != GridKind::Output)
        model = nullptr;
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_modelStrategy = model ? model->strategy() : -1;
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &GridView::onModelReset);
        connect(model, &GroupListModel::findingsChanged, this, &GridView::onFindingsChanged);
        connect(model, &QObject::destroyed, this, [this] { setEditable(nullptr); });
    }
    onFindingsChanged();
    m_gesture = Gesture::None;
    m_pressed = m_dragging = false;
    m_band = {};
    m_anchor.reset();
    setSelection({});
    setAcceptDrops(model != nullptr);
    updateLayout(); // the legend gains or loses "selected"
    update();
}

void GridView::onModelReset()
{
    // Another strategy: its patches are not the ones selected. The same one
    // edited: the patches are still there, keep them.
    if (m_model->strategy() != m_modelStrategy) {
        m_modelStrategy = m_model->strategy();
        m_anchor.reset();
        setSelection({});
    }
}

void GridView::onFindingsChanged()
{
    std::vector<PatchId> flagged = m_model ? m_model->findings().flaggedPatches() : std::vector<PatchId>{};
    if (flagged == m_flagged)
        return;
    m_flagged = std::move(flagged);
    update();
}

void GridView::clearDropPreview()
{
    if (m_model)
        m_model->dropPreview()->clear();
}

std::optional<PatchId> GridView::patchAt(const QPointF &pos) const
{
    if (!m_problem || m_kind != GridKind::Output || !m_viewport.contains(pos))
        return std::nullopt;
    const auto cell = geometry().cellAt(pos);
    if (!cell)
        return std::nullopt;
    return patchId(m_problem->layer, cell->row, cell->col);
}

void GridView::setSelection(std::set<PatchId> selection)
{
    if (selection == m_selection)
        return;
    m_selection = std::move(selection);
    update();
    Q_EMIT selectionChanged();
}

void GridView::setSelectedPatches(const PatchList &patches)
{
    const PatchId count = PatchId(m_rows) * PatchId(m_cols);
    std::set<PatchId> selection;
    for (PatchId p : patches)
        if (p < count)
            selection.insert(p);
    setSelection(std::move(selection));
}

void GridView::clearSelection()
{
    m_anchor.reset();
    setSelection({});
}

void GridView::clickSelect(PatchId patch, Qt::KeyboardModifiers modifiers)
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

void GridView::updateRubberBand(const QPoint &pos)
{
    m_band = QRect(m_pressPos, pos).normalized();
    std::set<PatchId> selection = m_bandBase;
    const QRectF area = QRectF(m_band) & m_viewport;
    if (m_problem && !area.isEmpty()) {
        const QRect cells = geometry().cellsIn(area);
        for (int r = cells.top(); r <= cells.bottom(); ++r)
            for (int c = cells.left(); c <= cells.right(); ++c)
                selection.insert(patchId(m_problem->layer, r, c));
    }
    setSelection(std::move(selection));
    update(); // the band itself
}

QMimeData *GridView::selectionMimeData() const
{
    if (!m_model || m_selection.empty())
        return nullptr;
    return GroupListModel::encodePatches(m_model->strategy(), selectedPatches());
}

void GridView::execDrag(QMimeData *data)
{
    if (!data)
        return;
    auto *drag = new QDrag(this);
    drag->setMimeData(data);
    // A badge with the number of patches dragged.
    const QString text = QString::number(m_selection.size());
    const QFontMetrics fm(font());
    QPixmap badge(QSize(fm.horizontalAdvance(text) + 12, fm.height() + 6) * devicePixelRatio());
    badge.setDevicePixelRatio(devicePixelRatio());
    badge.fill(Qt::transparent);
    {
        QPainter p(&badge);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(selectionLine());
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

QString GridView::dropRefusal(const QMimeData *data, const QPointF &pos, int *group) const
{
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
    if (!why.isEmpty())
        return why;
    if (group)
        *group = targetGroup;
    return {};
}

void GridView::setDropCell(std::optional<GridCell> cell)
{
    if (cell == m_dropCell)
        return;
    m_dropCell = cell;
    update();
}

void GridView::dragEnterEvent(QDragEnterEvent *event)
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

void GridView::dragMoveEvent(QDragMoveEvent *event)
{
    int group = -1;
    const QString why = dropRefusal(event->mimeData(), event->position(), &group);
    if (why.isEmpty()) {
        m_lastRefusal.clear();
        setDropCell(geometry().cellAt(event->position()));
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
    if (why != m_lastRefusal) {
        m_lastRefusal = why;
        Q_EMIT dropRefused(why);
    }
}

void GridView::dragLeaveEvent(QDragLeaveEvent *event)
{
    setDropCell(std::nullopt);
    clearDropPreview();
    m_lastRefusal.clear();
    QWidget::dragLeaveEvent(event);
}

void GridView::dropEvent(QDropEvent *event)
{
    setDropCell(std::nullopt);
    clearDropPreview();
    m_lastRefusal.clear();
    int group = -1;
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

bool GridView::editKey(QKeyEvent *event)
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

void GridView::keyReleaseEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat())
        m_spaceHeld = false;
    QWidget::keyReleaseEvent(event);
}

void GridView::focusOutEvent(QFocusEvent *event)
{
    m_spaceHeld = false;
    QWidget::focusOutEvent(event);
}

// --- tooltips --------------------------------------------------------------------

QString GridView::toolTipAt(const QPointF &pos) const
{
    if (!m_problem || !m_cursor || !m_viewport.contains(pos))
        return {};
    const auto cell = geometry().cellAt(pos);
    if (!cell)
        return {};
    return m_kind == GridKind::Input ? inputToolTip(cell->row, cell->col) : outputToolTip(cell->row, cell->col);
}

QString GridView::inputToolTip(int row, int col) const
{
    const Layer &l = m_problem->layer;
    const PixelId p = pixelId(l, row, col);
    QStringList lines;
    lines << fromStd(pixelName(l, p)) + QStringLiteral(" — id %1").arg(p);
    if (l.isPadding(row, col))
        lines << (m_problem->options.padding_in_dram ? QStringLiteral("padding: zeros held in DRAM, loaded like any pixel")
                                                     : QStringLiteral("padding: made on chip, never loaded"));
    else
        lines << QStringLiteral("input pixel (%1,%2) of %3×%4").arg(row - l.pad_top).arg(col - l.pad_left).arg(l.h_in).arg(l.w_in);
    lines << (l.c_in == 1 ? QStringLiteral("1 element: channel 0")
                          : QStringLiteral("%1 elements: channels 0–%2").arg(l.c_in).arg(l.c_in - 1));
    lines << QStringLiteral("now: %1 (%2)").arg(Palette::pixelLabel(m_cursor->pixel(p)), GridRenderer::momentText(*m_cursor));
    lines << QStringLiteral("loads so far: %1").arg(m_cursor->loadsSoFar(p));
    const std::vector<int> steps = m_cursor->stepsLoading(p);
    if (steps.empty()) {
        lines << QStringLiteral("never loaded");
    } else {
        QStringList listed;
        for (std::size_t i = 0; i < steps.size() && i < std::size_t(kMaxListedSteps); ++i)
            listed << QString::number(steps[i] + 1);
        QString text = listed.join(QStringLiteral(", "));
        if (steps.size() > std::size_t(kMaxListedSteps))
            text += QStringLiteral(", … (%1 in all)").arg(steps.size());
        lines << (steps.size() == 1 ? QStringLiteral("loaded at step ") : QStringLiteral("loaded at steps ")) + text;
    }
    return lines.join(QLatin1Char('\n'));
}

QString GridView::outputToolTip(int row, int col) const
{
    const Layer &l = m_problem->layer;
    const PatchId patch = patchId(l, row, col);
    QStringList lines;
    lines << fromStd(patchName(l, patch));
    lines << QStringLiteral("now: %1 (%2)").arg(Palette::outputLabel(m_cursor->patch(patch)), GridRenderer::momentText(*m_cursor));
    const QRect px = GridRenderer::patchPixels(l, patch);
    lines << QStringLiteral("reads pixels rows %1, cols %2").arg(range(px.top(), px.bottom()), range(px.left(), px.right()));
    lines << QStringLiteral("%1 output%2:").arg(l.n).arg(l.n == 1 ? QString() : QStringLiteral("s"));
    for (int k = 0; k < l.n && k < kMaxListedOutputs; ++k) {
        const OutputId o = outputId(l, patch, KernelId(k));
        lines << QStringLiteral("  %1: %2").arg(fromStd(outputName(l, o)), Palette::outputLabel(m_cursor->output(o)));
    }
    if (l.n > kMaxListedOutputs)
        lines << QStringLiteral("  … and %1 more").arg(l.n - kMaxListedOutputs);
    if (m_model && std::binary_search(m_flagged.begin(), m_flagged.end(), patch)) {
        const QStringList messages = m_model->findingMessages(m_model->findings().ofPatch(patch));
        for (qsizetype i = 0; i < messages.size() && i < kMaxListedFindings; ++i)
            lines << QStringLiteral("⚠ ") + messages[i];
        if (messages.size() > kMaxListedFindings)
            lines << QStringLiteral("  … and %1 more").arg(messages.size() - kMaxListedFindings);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace convoffload::ui
