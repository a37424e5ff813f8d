// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Network dock's Chart tab: the NetworkPlot of the finished analysis at
// the widget's width and font, as tall as its rows need (the dock scrolls),
// or a short message before. Clicking a bar reports its layer; hovering one
// tells its split in a tooltip.
#include "network/NetworkPlot.h"

#include <QWidget>

#include <optional>

namespace convoffload::ui {

class NetworkPlotView : public QWidget {
    Q_OBJECT
public:
    explicit NetworkPlotView(QWidget *parent = nullptr);

    /// nullopt shows `emptyText` instead.
    void setPlot(std::optional<NetworkPlot> plot, const QString &emptyText = {});
    const NetworkPlot *plot() const { return m_plot ? &*m_plot : nullptr; }
    /// The layer of the bar at `point` (widget coordinates), -1 when none.
    int layerAt(QPointF point) const;

    bool hasHeightForWidth() const override { return m_plot.has_value(); }
    int heightForWidth(int width) const override;

signals:
    void layerClicked(int layer);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    void fitHeight();

    std::optional<NetworkPlot> m_plot;
    QString m_emptyText;
};

} // namespace convoffload::ui
