#pragma once
// One grid of the visualiser (the padded input or the output) at the moment of
// a StepCursor: zoom about the mouse (wheel, +/-), pan (drag), fit (double
// click, 0), tooltips naming the cell under the mouse, an optional reload heat
// map. The owner keeps the problem and the cursor alive, seeks the cursor and
// calls refresh(); the view only reads them.

#include "render/GridRenderer.h"
#include "views/ViewTransform.h"

#include <QWidget>

#include <optional>

namespace convoffload::ui {

class GridView : public QWidget {
    Q_OBJECT
public:
    using Kind = GridKind; // GridView::Input and GridKind::Input both read well
    static constexpr GridKind Input = GridKind::Input;
    static constexpr GridKind Output = GridKind::Output;

    explicit GridView(GridKind kind, QWidget *parent = nullptr);

    GridKind kind() const { return m_kind; }
    /// Both may be null (nothing to show). They must outlive the view or be
    /// replaced before they die.
    void setSource(const Problem *problem, const StepCursor *cursor);
    const Problem *problem() const { return m_problem; }
    const StepCursor *cursor() const { return m_cursor; }

    bool heatMap() const { return m_style.heatMap; }
    std::optional<GridCell> highlight() const { return m_highlight; }
    const GridStyle &style() const { return m_style; }

    const ViewTransform &transform() const { return m_transform; }
    /// The cells as they are laid out in the widget now (zoom and pan applied).
    GridGeometry geometry() const;
    /// The widget rectangle the grid is drawn in (between title/axes and legend).
    QRectF gridViewport() const { return m_viewport; }
    /// The text of the tooltip at a widget position; empty outside the grid.
    QString toolTipAt(const QPointF &pos) const;

    QSize sizeHint() const override { return QSize(420, 420); }
    QSize minimumSizeHint() const override { return QSize(160, 160); }

public Q_SLOTS:
    /// The cursor moved (or its result changed): repaint.
    void refresh();
    /// Input cells by reload count (loads so far) instead of state.
    void setHeatMap(bool on);
    void setOutlineGroup(bool on);
    void fitToView();
    /// Rings one cell (an element a diagnostic names); nullopt clears it.
    void setHighlight(std::optional<GridCell> cell);
    void zoomIn();
    void zoomOut();

Q_SIGNALS:
    void cellClicked(int row, int col);
    /// The cell under the mouse; (-1, -1) when it leaves the grid.
    void cellHovered(int row, int col);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    QSizeF sceneSize() const { return QSizeF(cols(), rows()); }
    std::vector<LegendRow> legendRows() const;
    /// Recomputes title, axes, viewport and legend; keeps the view fitted or
    /// keeps its centre when the viewport changes.
    void updateLayout();
    QRectF fitRect() const; // where fitToView puts the grid
    void zoomAbout(const QPointF &widgetPoint, double factor);
    void setHover(std::optional<GridCell> cell);
    QRect hoverRect(const std::optional<GridCell> &cell) const;
    QString inputToolTip(int row, int col) const;
    QString outputToolTip(int row, int col) const;

    GridKind m_kind;
    const Problem *m_problem = nullptr;
    const StepCursor *m_cursor = nullptr;
    int m_rows = 0, m_cols = 0; // of the grid shown, cached from m_problem
    GridStyle m_style;
    GridRenderer m_renderer;
    ViewTransform m_transform;
    bool m_fitted = true; // follow the widget size until the user zooms or pans
    QRectF m_title, m_topAxis, m_leftAxis, m_viewport, m_legend;
    QPoint m_pressPos, m_lastPos;
    bool m_pressed = false, m_dragging = false;
    std::optional<GridCell> m_hover;
    std::optional<GridCell> m_highlight;
};

} // namespace convoffload::ui
