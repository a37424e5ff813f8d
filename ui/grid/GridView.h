// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One grid of the visualiser (the padded input or the output) at the moment of
// a StepCursor: zoom about the mouse (wheel, +/-), pan (drag), fit (double
// click, 0), tooltips naming the cell under the mouse, an optional reload heat
// map. The owner keeps the problem and the cursor alive, seeks the cursor and
// calls refresh(); the view only reads them.
//
// Edit mode (output grid only, setEditable): selecting patches, dragging them
// and dropping them on a group, and the keys that move the selection are
// GridEditController's; the view forwards those events to it and paints the
// selection, the rubber band and the drop target it keeps. While a drag hovers
// over a target the model's DropPreview holds the receptive field the group
// would have; the input grid draws it (setDropPreview). Patches where the
// current simulation breaks a rule are flagged, with the core's messages in
// their tooltips. Panning moves to the middle button or space + left drag.

#include "grid/LegendCache.h"
#include "grid/ViewTransform.h"
#include "render/GridRenderer.h"

#include "convoffload/model/GroupEdit.h"

#include <QWidget>

#include <optional>
#include <vector>

class QMimeData;
class QPainter;

namespace convoffload::ui {

class DropPreview;
class GridEditController;
class GroupListModel;

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
    /// Input grid: the band under the grid that holds the kernel strip (empty on the output grid).
    QRectF kernelStripRect() const { return m_kernelStrip; }
    /// The text of the tooltip at a widget position; empty outside the grid.
    QString toolTipAt(const QPointF &pos) const;

    /// Turns edit mode on for the output grid (null turns it off). The model
    /// edits the document's current strategy; the view must show that
    /// strategy's problem. Ignored on the input grid.
    void setEditable(GroupListModel *model);
    GroupListModel *editModel() const;
    /// Selection, drags, drops and editing keys (active in edit mode).
    GridEditController *editController() const { return m_edit; }
    bool isEditable() const { return editModel() != nullptr; }
    /// The selected patches, ascending (row-major).
    PatchList selectedPatches() const;
    void setSelectedPatches(const PatchList &patches);
    /// The MIME data a drag of the selection carries (caller owns it); null
    /// without a selection or outside edit mode.
    QMimeData *selectionMimeData() const;
    /// Why dropping `data` on the widget position `pos` would be refused;
    /// empty when it would be accepted (then `group` gets the target group,
    /// -1 for a drop on an unassigned patch, which unassigns the patches).
    QString dropRefusal(const QMimeData *data, const QPointF &pos, int *group = nullptr) const;
    /// The patches flagged as breaking a rule (edit mode), ascending.
    const std::vector<PatchId> &flaggedPatches() const { return m_flagged; }

    /// Input grid: draws `preview` (the model's, while a drag hovers over a
    /// target) over the cells and names it in the title; null turns it off.
    void setDropPreview(const DropPreview *preview);
    const DropPreview *dropPreview() const { return m_preview; }
    /// The title shown now.
    QString title() const;
    /// The title and its shorter forms, for a narrow view (longest first).
    QStringList titles() const;

    QSize sizeHint() const override { return QSize(420, 420); }
    /// 140 tall: at 1024×600 a network's dock over an open layer needs the
    /// height (the grids get theirs back when a layer opens from it).
    QSize minimumSizeHint() const override { return QSize(160, 140); }

public Q_SLOTS:
    /// The cursor moved (or its result changed): repaint.
    void refresh();
    /// Input cells by reload count (loads so far) instead of state.
    void setHeatMap(bool on);
    void setOutlineGroup(bool on);
    /// Input grid: outline the DMA runs of the step's input load under a
    /// transfer model (GridStyle::dmaRuns; on by default, nothing without one).
    void setDmaRuns(bool on);
    void fitToView();
    /// Rings one cell (an element a diagnostic names); nullopt clears it.
    void setHighlight(std::optional<GridCell> cell);
    void zoomIn();
    void zoomOut();
    void clearSelection();

Q_SIGNALS:
    void cellClicked(int row, int col);
    /// The cell under the mouse; (-1, -1) when it leaves the grid.
    void cellHovered(int row, int col);
    void selectionChanged();
    /// A drop (or the drag hovering here) is refused; `reason` says why; an
    /// empty one withdraws the last (GridEditController::dropRefused).
    void dropRefused(const QString &reason);

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
    void keyReleaseEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    /// Runs the drag of the selection (takes ownership of `data`); blocks in
    /// QDrag::exec. Virtual so tests can see the drag start without blocking.
    virtual void execDrag(QMimeData *data);

private:
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    QSizeF sceneSize() const { return QSizeF(cols(), rows()); }
    std::vector<LegendRow> legendRows() const;
    /// Every entry the legend may show while the layer, the style and the
    /// edit mode stay as they are (the reload corner, the heat map's counts
    /// at any step; the partly computed outputs while the strategy streams
    /// kernels): the room kept for the legend, so that the grid does not
    /// move or shrink when an entry comes or goes with another strategy or
    /// step.
    std::vector<LegendRow> reservedLegendRows() const;
    /// Recomputes title, axes, viewport and legend; keeps the view fitted or
    /// keeps its centre when the viewport changes.
    void updateLayout();
    QRectF fitRect() const; // where fitToView puts the grid
    void zoomAbout(const QPointF &widgetPoint, double factor);
    void setHover(std::optional<GridCell> cell);
    QRect hoverRect(const std::optional<GridCell> &cell) const;
    QString inputToolTip(int row, int col) const;
    QString outputToolTip(int row, int col) const;
    /// The editing controller's selection, drop target and rubber band.
    void paintEditState(QPainter &painter, const GridGeometry &g, const QRect &cells) const;
    /// The patches `model` flags (none without a model).
    void updateFlags(const GroupListModel *model);

    GridKind m_kind;
    const Problem *m_problem = nullptr;
    const StepCursor *m_cursor = nullptr;
    bool m_streamsKernels = false; // of m_cursor's strategy, read when it was set
    bool m_breaksReload = false; // m_cursor's simulation breaks the reload assumption, read when it was set
    /// Input grid: the legend's DMA runs entry, read when the cursor was set
    /// or moved (the legend is laid out again at teardown, when the cursor
    /// may be gone); none without style.dmaRuns or a transfer model.
    std::optional<LegendItem> m_dmaLegend;
    void updateDmaLegend();
    int m_rows = 0, m_cols = 0; // of the grid shown, cached from m_problem
    GridStyle m_style;
    GridRenderer m_renderer;
    ViewTransform m_transform;
    bool m_fitted = true; // follow the widget size until the user zooms or pans
    QRectF m_title, m_topAxis, m_leftAxis, m_viewport, m_kernelStrip, m_legend;
    LegendCache m_legendCache;
    LegendCache m_reservedLegendCache; // the height of reservedLegendRows()
    // panning (the left button without edit mode, else the middle button or space + left)
    QPoint m_pressPos, m_lastPos;
    bool m_panning = false, m_dragging = false;
    Qt::MouseButton m_panButton = Qt::LeftButton;
    GridEditController *m_edit; // child; edit mode when it has a model
    std::vector<PatchId> m_flagged; // edit mode: patches breaking a rule
    const DropPreview *m_preview = nullptr; // input grid: the drop preview drawn
    std::optional<GridCell> m_hover;
    std::optional<GridCell> m_highlight;
};

} // namespace convoffload::ui
