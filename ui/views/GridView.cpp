#include "views/GridView.h"

#include "render/Palette.h"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace convoffload::ui {

namespace {

constexpr double kZoomStep = 1.25;      // per key press or wheel notch
constexpr double kFitInset = 2.0;       // px between the fitted grid and the viewport's edge
constexpr int kMaxListedSteps = 20;     // in a pixel's tooltip
constexpr int kMaxListedOutputs = 16;   // in a patch's tooltip

QString fromStd(const std::string &s) { return QString::fromStdString(s); }

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
    if (reshaped)
        m_fitted = true;
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
    return m_kind == GridKind::Input ? GridRenderer::inputLegend(*m_problem, *m_cursor, m_style)
                                     : GridRenderer::outputLegend(m_style);
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
        GridRenderer::paintTitle(painter, m_title,
                                 m_kind == GridKind::Input ? GridRenderer::inputTitle(*m_problem, *m_cursor)
                                                           : GridRenderer::outputTitle(*m_problem, *m_cursor));

    const QRectF shown = m_viewport & QRectF(exposed);
    if (!shown.isEmpty()) {
        const QRect cells = g.cellsIn(shown);
        painter.save();
        painter.setClipRect(shown);
        if (m_kind == GridKind::Input)
            m_renderer.paintInputCells(painter, g, *m_problem, *m_cursor, m_style, cells);
        else
            m_renderer.paintOutputCells(painter, g, *m_problem, *m_cursor, m_style, cells);
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
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = m_lastPos = event->position().toPoint();
}

void GridView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
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
    }
    setHover(m_viewport.contains(event->position()) ? geometry().cellAt(event->position()) : std::nullopt);
}

void GridView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    if (m_dragging)
        unsetCursor();
    else if (m_viewport.contains(event->position()))
        if (const auto cell = geometry().cellAt(event->position()))
            Q_EMIT cellClicked(cell->row, cell->col);
    m_pressed = m_dragging = false;
}

void GridView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        fitToView();
}

void GridView::keyPressEvent(QKeyEvent *event)
{
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
    return lines.join(QLatin1Char('\n'));
}

} // namespace convoffload::ui
