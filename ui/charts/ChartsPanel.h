// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The charts of the visualiser, one tab each: footprint (per step or per
// action), durations, cumulative duration, strategy comparison, group-size
// sweep. New data update the charts shown in place when they keep their shape
// (same series and axes: after a hand edit), else the chart is replaced;
// moving the current step only moves the cursor lines. Clicking a step chart selects that step.
// Only the chart on screen is brought up to date when new data arrive; the
// others are when their tab is shown or chart()/chartView() asks for them.
// Data equal to what is shown (the sweep after a strategy edit) change nothing.

#include "convoffload/model/Problem.h"
#include "convoffload/io/Report.h"
#include "convoffload/simulate/Simulator.h"

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QChart;
class QChartView;
class QTabWidget;
QT_END_NAMESPACE

namespace convoffload::ui {

class ComparisonView;

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    enum Tab { FootprintTab, DurationsTab, CumulativeTab, CompareTab, SweepTab };

    explicit ChartsPanel(QWidget *parent = nullptr);
    ~ChartsPanel() override;

    /// Shows a simulation; both must outlive the panel or the next call
    /// (nullptrs clear the step charts). `strategy` names the figures.
    void setSimulation(const Problem *problem, const SimulationResult *result, const QString &strategy = {});
    void setComparison(std::vector<CompareRow> rows);
    /// The group-size sweep; `unavailable`, when set, says why there is none.
    void setSweep(std::vector<SweepRow> rows, const QString &unavailable = {});
    /// 0-based step, -1 for none; only the cursor lines move.
    void setCurrentStep(int step);
    int currentStep() const { return m_currentStep; }

    void setFootprintPerAction(bool perAction);
    bool footprintPerAction() const { return m_perAction; }

    void setCurrentTab(Tab tab);
    Tab currentTab() const;
    /// The chart of a tab (owned by its view), up to date, for export;
    /// nullptr for the Compare tab, which is painted (comparisonView()).
    QChart *chart(Tab tab);
    QChartView *chartView(Tab tab);
    ComparisonView *comparisonView() const { return m_comparisonView; }

signals:
    /// A step chart was clicked on the plot of step `step` (0-based).
    void stepClicked(int step);
    void footprintPerActionChanged(bool perAction);

protected:
    void showEvent(QShowEvent *event) override;
    /// The tabs go to the side when the panel is too narrow for them in a
    /// row (at 1024×600 "Compare" and "Sweep" hid behind scroll arrows).
    void resizeEvent(QResizeEvent *event) override;

private:
    /// Marks the chart of `tab` out of date, and brings it up to date now if it is on screen.
    void invalidate(Tab tab);
    /// Brings the chart of `tab` up to date if it is out of date.
    void refresh(Tab tab);
    void rebuild(Tab tab);
    void replaceChart(Tab tab, QChart *chart);

    QTabWidget *m_tabs = nullptr;
    QCheckBox *m_perActionBox = nullptr;
    QChartView *m_views[5] = {};
    ComparisonView *m_comparisonView = nullptr;
    const Problem *m_problem = nullptr;
    const SimulationResult *m_result = nullptr;
    QString m_strategy;
    std::vector<CompareRow> m_comparison;
    std::vector<SweepRow> m_sweep;
    QString m_sweepUnavailable;
    int m_currentStep = -1;
    bool m_stale[5] = {}; // per tab: its chart shows older data than the panel holds
    bool m_perAction = false;
};

} // namespace convoffload::ui
