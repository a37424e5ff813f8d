// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A chart view that reports the step under a left click on the plot area of a
// step chart (see ChartFactory's stepAt).

#include <QChartView>

#include <functional>

namespace convoffload::ui {

class StepChartView : public QChartView {
    Q_OBJECT
public:
    using QChartView::QChartView;
    /// Called with the 0-based step clicked; unset: clicks are not reported.
    std::function<void(int)> onStepClicked;
    /// The tooltip over the 0-based step under the mouse; unset or empty:
    /// the view's own tooltip.
    std::function<QString(int)> hoverText;

protected:
    bool viewportEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    /// Fits the chart's title to the new width (fitChartTitle).
    void resizeEvent(QResizeEvent *event) override;
    /// The same when a tab shows it: a hidden view may have been refilled.
    void showEvent(QShowEvent *event) override;
};

} // namespace convoffload::ui
