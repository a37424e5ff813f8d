// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Explore dialog's chart: a ParetoPlot at the widget's size and font, or
// a short message before the first point. Clicking a point reports it;
// hovering one tells its hardware and duration in a tooltip.
#include "explore/ParetoPlot.h"

#include <QWidget>

#include <memory>

namespace convoffload::ui {

class ParetoPlotView : public QWidget {
    Q_OBJECT
public:
    explicit ParetoPlotView(QWidget *parent = nullptr);

    /// null, or a plot without points, shows `emptyText` instead.
    void setPlot(std::shared_ptr<const ParetoPlot> plot, const QString &emptyText = {});
    std::shared_ptr<const ParetoPlot> plot() const { return m_plot; }
    /// The point (an index of plot()->points()) at `position` (widget
    /// coordinates), -1 when none.
    int pointAt(QPointF position) const;
    /// Where point `index` is drawn (widget coordinates).
    QPointF positionOf(int index) const;

signals:
    void pointClicked(int index);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    double hitRadius() const;
    std::shared_ptr<const ParetoPlot> m_plot;
    QString m_emptyText;
};

} // namespace convoffload::ui
