// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "grid/GridView.h"

#include "grid/GridEditController.h"
#include "models/DropPreview.h"
#include "models/GroupListModel.h"
#include "render/ChannelGroupText.h"
#include "render/KernelStrip.h"
#include "render/Palette.h"

#include "convoffload/simulate/TransferRuns.h"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDragLeaveEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QFocusEvent>
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

constexpr double kZoomStep = 1.25; // per key press or wheel notch
constexpr double kFitInset = 2.0; // px between the fitted grid and the viewport's edge
constexpr int kMaxListedSteps = 20; // in a pixel's tooltip
constexpr int kMaxOutputsOneByOne = 4; // in a patch's tooltip, one line per output up to this many kernels
constexpr int kMaxListedOutputRuns = 8; // beyond: runs of kernels in one state
constexpr int kMaxListedFindings = 6; // in a patch's tooltip

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

// The rubber band: a light wash of the selection colour.
QColor bandFill()
{
    QColor fill = Palette::selection();
    fill.setAlpha(50);
    return fill;
}

QString range(int first, int last)
{
    return first == last ? QString::number(first) : QStringLiteral("%1–%2").arg(first).arg(last);
}

// A dilated patch reads every d-th row (column) of its span.
QString range(int first, int last, int every)
{
    return every == 1 || first == last ? range(first, last) : QStringLiteral("%1 every %2").arg(range(first, last)).arg(every);
}

} // namespace

GridView::GridView(GridKind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_edit(new GridEditController(this, [this](QMimeData *data) { execDrag(data); }))
{
    connect(m_edit, &GridEditController::selectionChanged, this, &GridView::selectionChanged);
    connect(m_edit, &GridEditController::dropRefused, this, &GridView::dropRefused);
    setAttribute(Qt::WA_OpaquePaintEvent); // paintEvent fills what it is asked to paint
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(kind == GridKind::Input ? QStringLiteral("Input grid") : QStringLiteral("Output grid"));
    m_style.dmaRuns = kind == GridKind::Input; // drawn only under a transfer model
}

void GridView::setSource(const Problem *problem, const StepCursor *cursor)
{
    // The old problem may already be gone: compare with the cached shape only.
    const int rows = problem ? GridRenderer::rowsOf(m_kind, *problem) : 0;
    const int cols = problem ? GridRenderer::colsOf(m_kind, *problem) : 0;
    const bool reshaped = rows != m_rows || cols != m_cols;
    m_problem = problem;
    m_cursor = cursor;
    // Cached: the layout is also redone when the cursor may be gone (teardown).
    m_streamsKernels = cursor && GridRenderer::streamsKernels(*cursor);
    m_breaksReload = cursor && GridRenderer::breaksReload(*cursor);
    updateDmaLegend();
    m_rows = rows;
    m_cols = cols;
    m_hover.reset();
    if (reshaped) {
        m_fitted = true;
        m_edit->shapeChanged();
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

void GridView::setDmaRuns(bool on)
{
    if (m_style.dmaRuns == on)
        return;
    m_style.dmaRuns = on;
    updateDmaLegend();
    updateLayout();
    update();
}

void GridView::updateDmaLegend()
{
    m_dmaLegend.reset();
    if (m_kind == GridKind::Input && m_style.dmaRuns && m_problem && m_cursor && m_problem->hardware.transfer)
        m_dmaLegend = GridRenderer::dmaRunsLegend(GridRenderer::dmaRunOutlines(*m_problem, *m_cursor));
}

void GridView::refresh()
{
    updateDmaLegend();
    updateLayout(); // the heat-map legend grows with the reload count
    update();
}

std::vector<LegendRow> GridView::legendRows() const
{
    if (!m_problem || !m_cursor)
        return {};
    if (m_kind == GridKind::Input) {
        GridStyle style = m_style;
        style.dmaRuns = false; // from m_dmaLegend: the cursor may be gone by now
        std::vector<LegendRow> rows = GridRenderer::inputLegend(*m_problem, *m_cursor, style);
        if (m_dmaLegend && !rows.empty())
            rows.back().items.push_back(*m_dmaLegend);
        // Always listed while a preview source is attached, so the layout
        // does not jump when a drag starts.
        if (m_preview && !rows.empty()) {
            rows.back().items.push_back({LegendItem::Kind::Marker, Palette::previewKept(), Palette::previewKeptLabel(), {}, {}});
            rows.back().items.push_back(
                {LegendItem::Kind::Marker, Palette::previewAdded(), Palette::previewAddedLabel(), {}, {}});
        }
        return rows;
    }
    std::vector<LegendRow> rows = GridRenderer::outputLegend(m_style, {}, m_streamsKernels, m_breaksReload);
    if (isEditable() && !rows.empty()) {
        rows.back().items.push_back({LegendItem::Kind::Outline, Palette::selection(), QStringLiteral("selected"), {}, {}});
        rows.back().items.push_back({LegendItem::Kind::Flag, Palette::flag(), Palette::flagLabel(), {}, {}});
    }
    return rows;
}

std::vector<LegendRow> GridView::reservedLegendRows() const
{
    if (!m_problem || !m_cursor)
        return {};
    using K = LegendItem::Kind;
    std::vector<LegendRow> rows;
    if (m_kind == GridKind::Output) {
        // The reload corner comes and goes between strategies of any layer;
        // the partly computed outputs only with a strategy that streams
        // kernels, whose long entry would cost every other strategy's grid
        // two lines (the output legend gave way at 1280×720).
        rows = GridRenderer::outputLegend(m_style, {}, m_streamsKernels, true);
        if (isEditable() && !rows.empty()) {
            rows.back().items.push_back({K::Outline, Palette::selection(), QStringLiteral("selected"), {}, {}});
            rows.back().items.push_back({K::Flag, Palette::flag(), Palette::flagLabel(), {}, {}});
        }
        return rows;
    }
    rows = legendRows();
    if (m_style.heatMap && !rows.empty()) {
        // The counts grow with the steps: the legend's longest forms, the
        // swatches of 0 to 6 loads and the gradient, are kept room for.
        std::vector<LegendItem> &items = rows.front().items;
        const auto heat = [](const LegendItem &item) {
            return item.kind == K::Gradient || (item.kind == K::Text && item.label == QStringLiteral("loads so far:"))
                || (item.kind == K::Swatch && !item.label.isEmpty() && item.label.front().isDigit());
        };
        items.erase(std::remove_if(items.begin(), items.end(), heat), items.end());
        std::vector<LegendItem> counts{{K::Text, {}, QStringLiteral("loads so far:"), {}, {}}};
        for (int k = 0; k <= 6; ++k)
            counts.push_back({K::Swatch, Palette::heat(k / 6.0), QString::number(k), {}, {}});
        const QString most = QString::number(std::max<std::uint32_t>(m_cursor->maxLoadsSoFar(), 999));
        counts.push_back({K::Gradient, {}, QStringLiteral("loads so far"), QStringLiteral("0"), most});
        items.insert(items.begin(), counts.begin(), counts.end());
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
    // The room of every entry the legend may show, not of those it shows now.
    double legendH = m_style.legend ? std::max(m_reservedLegendCache.height(font(), this, inner.width(), reservedLegendRows()),
                         m_legendCache.height(font(), this, inner.width(), legendRows()))
                                    : 0.0;
    double legendGap = m_style.legend ? std::round(h * 0.4) : 0.0;
    const QSizeF axis = m_style.labels ? GridRenderer::axisSize(fm, rows(), cols()) : QSizeF(0, 0);
    const double stripBand = m_problem ? GridRenderer::kernelStripBand(fm, m_kind, m_style) : 0.0;
    // The grid comes first, as in the grid figures: where the legend would
    // leave the grid less height than itself (1024×600: none at all), it
    // gives way; the cells' tooltips still name their states.
    if (inner.height() - titleH - axis.height() - stripBand - legendGap - legendH < legendH)
        legendH = legendGap = 0.0;

    m_title = QRectF(inner.left(), inner.top(), inner.width(), titleH);
    const double top = m_title.bottom() + axis.height();
    const QRectF viewport(inner.left() + axis.width(), top, std::max(0.0, inner.width() - axis.width()),
        std::max(0.0, inner.bottom() - legendH - legendGap - stripBand - top));
    m_kernelStrip = stripBand > 0
        ? QRectF(inner.left(), viewport.bottom() + stripBand - KernelStrip::height(fm), inner.width(), KernelStrip::height(fm))
        : QRectF();
    m_topAxis = QRectF(viewport.left(), viewport.top() - axis.height(), viewport.width(), axis.height());
    m_leftAxis = QRectF(inner.left(), viewport.top(), axis.width(), viewport.height());
    m_legend = QRectF(inner.left(), viewport.bottom() + stripBand + legendGap, inner.width(), legendH);

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

GridGeometry GridView::geometry() const { return GridGeometry{rows(), cols(), m_transform.offset, m_transform.scale()}; }

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
        GridRenderer::paintTitle(painter, m_title, titles());

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
        paintEditState(painter, g, cells);
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
    if (!m_kernelStrip.isEmpty() && m_kernelStrip.intersects(exposed))
        KernelStrip::paint(painter, m_kernelStrip, *m_problem, *m_cursor, m_style.labels);
    if (m_style.legend && m_legend.intersects(exposed))
        m_legendCache.paint(painter, m_legend, legendRows());
}

void GridView::paintEditState(QPainter &painter, const GridGeometry &g, const QRect &cells) const
{
    const std::set<PatchId> &selection = m_edit->selection();
    if (!selection.empty() && m_cols > 0) {
        const double w = std::max(2.0, std::min(4.0, g.cellSize / 10));
        painter.setPen(QPen(Palette::selection(), w));
        painter.setBrush(QBrush(Palette::selection(), Qt::BDiagPattern));
        for (PatchId id : selection) {
            const int r = int(id / PatchId(m_cols)), c = int(id % PatchId(m_cols));
            if (cells.contains(c, r))
                painter.drawRect(g.cellRect(r, c).adjusted(w / 2, w / 2, -w / 2, -w / 2));
        }
    }
    if (const std::optional<GridCell> drop = m_edit->dropCell()) {
        const double w = std::max(2.0, std::min(5.0, g.cellSize / 6));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Palette::selection(), w, Qt::DashLine));
        painter.drawRect(g.cellRect(drop->row, drop->col).adjusted(w / 2, w / 2, -w / 2, -w / 2));
    }
    if (const QRect band = m_edit->band(); !band.isEmpty()) {
        painter.setPen(QPen(Palette::selection(), 1, Qt::DashLine));
        painter.setBrush(bandFill());
        painter.drawRect(QRectF(band).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

QStringList GridView::titles() const
{
    if (!m_problem || !m_cursor)
        return {};
    if (m_kind == GridKind::Input && m_preview && m_preview->isActive() && !m_preview->state()->text.isEmpty()) {
        // The sentence, then shorter ones: the first that fits is drawn.
        QStringList choices{title()};
        for (QString text : m_preview->state()->shorter) {
            text[0] = text[0].toUpper();
            choices << text;
        }
        return choices;
    }
    return GridRenderer::titleChoices(m_kind, *m_problem, *m_cursor);
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
    const bool pan
        = event->button() == Qt::LeftButton ? !editing || m_edit->spaceHeld() : editing && event->button() == Qt::MiddleButton;
    if (!pan && !(editing && event->button() == Qt::LeftButton)) {
        QWidget::mousePressEvent(event);
        return;
    }
    // A new press replaces the one under way, pan or edit.
    m_edit->cancelPress();
    m_panning = false;
    m_dragging = false;
    if (!pan) {
        m_edit->mousePress(event);
        return;
    }
    m_panning = true;
    m_panButton = event->button();
    m_pressPos = m_lastPos = event->position().toPoint();
}

void GridView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_panning && (event->buttons() & m_panButton)) {
        if (!m_dragging && (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
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
    } else if (m_edit->mouseMove(event)) {
        return; // a drag of the selection ran
    }
    setHover(m_viewport.contains(event->position()) ? geometry().cellAt(event->position()) : std::nullopt);
}

void GridView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning && event->button() == m_panButton) {
        const bool panned = m_dragging;
        m_panning = m_dragging = false;
        if (panned) {
            unsetCursor();
            return;
        }
        if (m_panButton != Qt::LeftButton)
            return; // a middle click is no click on a cell
    } else {
        switch (m_edit->mouseRelease(event)) {
        case GridEditController::Release::NotMine:
            QWidget::mouseReleaseEvent(event);
            return;
        case GridEditController::Release::Band:
            return;
        case GridEditController::Release::Click:
            break;
        }
    }
    if (const auto cell = m_viewport.contains(event->position()) ? geometry().cellAt(event->position()) : std::nullopt)
        Q_EMIT cellClicked(cell->row, cell->col);
}

void GridView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        fitToView();
}

void GridView::keyPressEvent(QKeyEvent *event)
{
    if (m_edit->keyPress(event))
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
            QToolTip::showText(
                help->globalPos(), text, this, cell ? geometry().cellRect(cell->row, cell->col).toAlignedRect() : QRect());
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
    GroupListModel *old = m_edit->model();
    if (old == model)
        return;
    if (old)
        disconnect(old, nullptr, this, nullptr);
    if (model)
        connect(model, &GroupListModel::findingsChanged, this, [this] { updateFlags(m_edit->model()); });
    updateFlags(model);
    m_panning = m_dragging = false;
    m_edit->setModel(model); // ends its gesture, clears the selection
    setAcceptDrops(model != nullptr);
    updateLayout(); // the legend gains or loses "selected"
    update();
}

GroupListModel *GridView::editModel() const { return m_edit->model(); }

void GridView::updateFlags(const GroupListModel *model)
{
    std::vector<PatchId> flagged = model ? model->ruleFlaggedPatches() : std::vector<PatchId>{};
    if (flagged == m_flagged)
        return;
    m_flagged = std::move(flagged);
    update();
}

PatchList GridView::selectedPatches() const { return m_edit->selectedPatches(); }

void GridView::setSelectedPatches(const PatchList &patches) { m_edit->setSelectedPatches(patches); }

void GridView::clearSelection() { m_edit->clearSelection(); }

QMimeData *GridView::selectionMimeData() const { return m_edit->selectionMimeData(); }

QString GridView::dropRefusal(const QMimeData *data, const QPointF &pos, int *group) const
{
    return m_edit->dropRefusal(data, pos, group);
}

void GridView::execDrag(QMimeData *data) { m_edit->execDrag(data); }

void GridView::dragEnterEvent(QDragEnterEvent *event) { m_edit->dragEnter(event); }

void GridView::dragMoveEvent(QDragMoveEvent *event) { m_edit->dragMove(event); }

void GridView::dragLeaveEvent(QDragLeaveEvent *event)
{
    m_edit->dragLeave();
    QWidget::dragLeaveEvent(event);
}

void GridView::dropEvent(QDropEvent *event) { m_edit->drop(event); }

void GridView::keyReleaseEvent(QKeyEvent *event)
{
    m_edit->keyRelease(event);
    QWidget::keyReleaseEvent(event);
}

void GridView::focusOutEvent(QFocusEvent *event)
{
    m_edit->focusOut();
    QWidget::focusOutEvent(event);
}

// --- tooltips --------------------------------------------------------------------

QString GridView::toolTipAt(const QPointF &pos) const
{
    if (m_problem && m_cursor && m_kernelStrip.contains(pos))
        return KernelStrip::toolTipAt(QFontMetricsF(font(), this), m_kernelStrip, *m_problem, *m_cursor, m_style.labels, pos);
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
        lines
            << QStringLiteral("input pixel (%1,%2) of %3×%4").arg(row - l.pad_top).arg(col - l.pad_left).arg(l.h_in).arg(l.w_in);
    if (!l.isGrouped())
        lines << (l.c_in == 1 ? QStringLiteral("1 element: channel 0")
                              : QStringLiteral("%1 elements: channels 0–%2").arg(l.c_in).arg(l.c_in - 1));
    else // held per channel group (docs/reference/model.md#grouped-and-dilated)
        lines << QStringLiteral("%1 elements in %2 channel groups of %3").arg(l.c_in).arg(l.group).arg(l.sliceChannels());
    lines << QStringLiteral("now: %1 (%2)").arg(Palette::pixelLabel(m_cursor->pixel(p)), GridRenderer::momentText(*m_cursor));
    if (l.isGrouped())
        lines << groupsOnChipText(m_cursor->groupsOnChip(p), l.group);
    lines << (l.isGrouped() ? QStringLiteral("loads so far: %1 (its most loaded channel group)")
                            : QStringLiteral("loads so far: %1"))
                 .arg(m_cursor->loadsSoFar(p));
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
    if (m_style.dmaRuns && m_problem->hardware.transfer) {
        const DmaRunOutlines runs = GridRenderer::dmaRunOutlines(*m_problem, *m_cursor);
        if (runs.shown) {
            lines << QStringLiteral("this step\u2019s input load (%1): %2")
                         .arg(fromStd(layoutName(runs.layout)), GridRenderer::dmaRunsText(runs));
            const StoredInput stored = storedInput(*m_problem);
            for (const DmaOutline &o : runs.outlines) {
                if (!std::any_of(o.rows.begin(), o.rows.end(), [&](const QRect &r) { return r.contains(col, row); }))
                    continue;
                const auto at = [&](std::int64_t q) {
                    return QStringLiteral("(%1,%2)").arg(stored.row0 + q / stored.cols).arg(stored.col0 + q % stored.cols);
                };
                QString where = QStringLiteral("in a DMA run over pixels %1\u2013%2").arg(at(o.first), at(o.last));
                if (runs.layout == Layout::Nchw)
                    where += QStringLiteral(", one in each channel plane that loads them: %1").arg(o.runs);
                else if (o.runs > 1)
                    where += QStringLiteral(" (%1 runs on these pixels)").arg(o.runs);
                lines << where;
            }
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString GridView::outputToolTip(int row, int col) const
{
    const Layer &l = m_problem->layer;
    const PatchId patch = patchId(l, row, col);
    QStringList lines;
    lines << fromStd(patchName(l, patch));
    lines
        << QStringLiteral("now: %1 (%2)").arg(Palette::outputLabel(m_cursor->patch(patch)), GridRenderer::momentText(*m_cursor));
    const QRect px = GridRenderer::patchPixels(l, patch);
    lines << QStringLiteral("reads pixels rows %1, cols %2")
                 .arg(range(px.top(), px.bottom(), l.dilation_h), range(px.left(), px.right(), l.dilation_w));
    lines << QStringLiteral("%1 of %2 output%3 computed:")
                 .arg(GridRenderer::outputsComputed(*m_problem, *m_cursor, patch))
                 .arg(l.n)
                 .arg(l.n == 1 ? QString() : QStringLiteral("s"));
    if (l.n <= kMaxOutputsOneByOne) {
        for (int k = 0; k < l.n; ++k) {
            const OutputId o = outputId(l, patch, KernelId(k));
            lines << QStringLiteral("  %1: %2").arg(fromStd(outputName(l, o)), Palette::outputLabel(m_cursor->output(o)));
        }
    } else {
        // Runs of kernels whose outputs share a state ("kernels 0–15:
        // computed now"): a streaming layer's 256 outputs in a few lines.
        int runs = 0, from = 0;
        for (int k = 1; k <= l.n; ++k) {
            const OutputState state = m_cursor->output(outputId(l, patch, KernelId(from)));
            if (k < l.n && m_cursor->output(outputId(l, patch, KernelId(k))) == state)
                continue;
            if (++runs <= kMaxListedOutputRuns)
                lines << QStringLiteral("  %1: %2")
                             .arg(k - 1 == from ? QStringLiteral("kernel %1").arg(from)
                                                : QStringLiteral("kernels %1–%2").arg(from).arg(k - 1),
                                 Palette::outputLabel(state));
            from = k;
        }
        if (runs > kMaxListedOutputRuns)
            lines << QStringLiteral("  … and %1 more runs").arg(runs - kMaxListedOutputRuns);
    }
    const ReloadCheck &reload = m_cursor->result().reload;
    if (std::binary_search(reload.patches.begin(), reload.patches.end(), patch))
        lines << QStringLiteral("◥ %1: computed at a step that loads one of its pixels or kernels more than %2 times")
                     .arg(Palette::assumptionLabel())
                     .arg(reload.bound);
    if (const GroupListModel *model = editModel(); model && std::binary_search(m_flagged.begin(), m_flagged.end(), patch)) {
        const QStringList messages = model->findingMessages(model->ruleFindings(model->findings().ofPatch(patch)));
        for (qsizetype i = 0; i < messages.size() && i < kMaxListedFindings; ++i)
            lines << QStringLiteral("⚠ ") + messages[i];
        if (messages.size() > kMaxListedFindings)
            lines << QStringLiteral("  … and %1 more").arg(messages.size() - kMaxListedFindings);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace convoffload::ui
