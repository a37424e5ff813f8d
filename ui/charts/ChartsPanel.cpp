// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/ChartsPanel.h"

#include "charts/ChartFactory.h"
#include "charts/ChartRefresh.h"
#include "charts/ComparisonView.h"
#include "charts/StepBins.h"
#include "charts/StepChartView.h"
#include "charts/StepHoverText.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace convoffload::ui {

namespace {

QChart *placeholder(const QString &text)
{
    auto *chart = new QChart;
    chart->setTitle(text);
    chart->legend()->setVisible(false);
    chart->setBackgroundRoundness(0);
    return chart;
}

} // namespace

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
{
    m_tabs = new QTabWidget(this);
    const QString names[] = {tr("Footprint"), tr("Durations"), tr("Cumulative"), tr("Compare"), tr("Sweep")};
    for (int tab = FootprintTab; tab <= SweepTab; ++tab) {
        if (tab == CompareTab) { // small multiples, painted: not a QChart
            m_comparisonView = new ComparisonView;
            m_tabs->addTab(m_comparisonView, names[tab]);
            continue;
        }
        auto *view = new StepChartView(placeholder(QString()));
        view->setRenderHint(QPainter::Antialiasing);
        if (tab <= CumulativeTab) {
            view->onStepClicked = [this](int step) { emit stepClicked(step); };
            const StepChartKind kind = tab == FootprintTab ? StepChartKind::Footprint
                : tab == DurationsTab                      ? StepChartKind::Durations
                                                           : StepChartKind::Cumulative;
            view->hoverText = [this, kind](int step) { return m_result ? stepHoverText(*m_result, step, kind) : QString(); };
            view->setToolTip(tr("Click a step to show it"));
        }
        m_views[tab] = view;
        if (tab == FootprintTab) {
            auto *page = new QWidget;
            auto *layout = new QVBoxLayout(page);
            layout->setContentsMargins(0, 0, 0, 0);
            m_perActionBox = new QCheckBox(tr("Per action (a1 free input … a6 compute)"), page);
            m_perActionBox->setToolTip(
                tr("Show the footprint after each of the six actions of every step instead of after each step"));
            connect(m_perActionBox, &QCheckBox::toggled, this, &ChartsPanel::setFootprintPerAction);
            auto *bar = new QHBoxLayout;
            bar->setContentsMargins(6, 4, 6, 0);
            bar->addWidget(m_perActionBox);
            bar->addStretch();
            layout->addLayout(bar);
            layout->addWidget(view, 1);
            m_tabs->addTab(page, names[tab]);
        } else {
            m_tabs->addTab(view, names[tab]);
        }
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab >= FootprintTab && tab <= SweepTab)
            refresh(Tab(tab));
    });
    for (const Tab tab : {FootprintTab, DurationsTab, CumulativeTab, SweepTab})
        rebuild(tab);
    m_comparisonView->setRows({}, tr("No strategies to compare"));
}

ChartsPanel::~ChartsPanel() = default;

void ChartsPanel::replaceChart(Tab tab, QChart *chart)
{
    // The view owns the chart it shows, but not one it has been given back.
    QChartView *view = m_views[tab];
    QChart *old = view->chart();
    if (refreshChart(old, chart)) { // same shape (an edit, another strategy): new data only
        delete chart;
    } else {
        view->setChart(chart);
        delete old;
    }
    const qreal shownWidth = view->chart()->size().width();
    fitChartTitle(view->chart(), shownWidth > 0 ? shownWidth : view->width());
    thinStepLabels(view->chart(), shownWidth > 0 ? shownWidth : view->width());
    fitChartLegend(view->chart(), shownWidth > 0 ? shownWidth : view->width(), kScreenLegendMinPoints);
}

void ChartsPanel::setSimulation(const Problem *problem, const SimulationResult *result, const QString &strategy)
{
    m_problem = problem;
    m_result = result;
    m_strategy = strategy;
    if (!m_result || m_currentStep >= int(m_result->steps.size()))
        m_currentStep = -1;
    // Per action needs the action-level trace.
    m_perActionBox->setEnabled(m_result && !m_result->trace.actions.empty());
    for (const Tab tab : {FootprintTab, DurationsTab, CumulativeTab})
        invalidate(tab);
}

void ChartsPanel::invalidate(Tab tab)
{
    m_stale[tab] = true;
    if (isVisible() && m_tabs->currentIndex() == tab)
        refresh(tab);
}

void ChartsPanel::refresh(Tab tab)
{
    if (std::exchange(m_stale[tab], false))
        rebuild(tab);
}

void ChartsPanel::rebuild(Tab tab)
{
    const bool simulation = m_problem && m_result;
    // A chart of more steps than the view has room for bins them (StepBins):
    // its cost does not grow with the steps.
    const int maxBins = stepChartBins(m_views[tab] ? m_views[tab]->width() : 0);
    switch (tab) {
    case FootprintTab:
        replaceChart(tab,
            simulation ? footprintChart(*m_problem, *m_result, m_currentStep, m_perAction, m_strategy, maxBins)
                       : placeholder(tr("No simulation to show: choose a valid layer and a strategy")));
        break;
    case DurationsTab:
        replaceChart(tab,
            simulation ? durationChart(*m_problem, *m_result, m_currentStep, m_strategy, maxBins)
                       : placeholder(tr("No simulation to show")));
        break;
    case CumulativeTab:
        replaceChart(tab,
            simulation ? cumulativeDurationChart(*m_result, m_currentStep, m_strategy, maxBins)
                       : placeholder(tr("No simulation to show")));
        break;
    case SweepTab:
        replaceChart(tab,
            !m_sweepUnavailable.isEmpty() ? placeholder(m_sweepUnavailable)
                : m_sweep.empty()         ? placeholder(tr("No group-size sweep yet"))
                                          : sweepChart(m_sweep));
        break;
    case CompareTab:
        break; // painted from the rows
    }
}

void ChartsPanel::setComparison(std::vector<CompareRow> rows)
{
    if (rows == m_comparison && m_comparisonView->plot())
        return; // the same figures (an edit that changed no result)
    m_comparison = std::move(rows);
    m_comparisonView->setRows(m_comparison, tr("No strategies to compare"));
}

void ChartsPanel::setSweep(std::vector<SweepRow> rows, const QString &unavailable)
{
    if (rows == m_sweep && unavailable == m_sweepUnavailable)
        return; // strategy edits leave the sweep as it was
    m_sweep = std::move(rows);
    m_sweepUnavailable = unavailable;
    invalidate(SweepTab);
}

void ChartsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The width the tabs take in a row, whatever the position now.
    int row = 0;
    const QFontMetrics metrics(m_tabs->tabBar()->font());
    for (int i = 0; i < m_tabs->count(); ++i)
        row += metrics.horizontalAdvance(m_tabs->tabText(i).remove(QLatin1Char('&'))) + 2 * metrics.averageCharWidth() + 12;
    const QTabWidget::TabPosition want = row > width() ? QTabWidget::West : QTabWidget::North;
    if (m_tabs->tabPosition() != want)
        m_tabs->setTabPosition(want);
}

void ChartsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh(Tab(m_tabs->currentIndex()));
}

void ChartsPanel::setCurrentStep(int step)
{
    if (!m_result || step < 0 || step >= int(m_result->steps.size()))
        step = -1;
    if (step == m_currentStep)
        return;
    m_currentStep = step;
    for (int tab = FootprintTab; tab <= CumulativeTab; ++tab)
        if (!m_stale[tab]) // an out-of-date chart is rebuilt at this step
            moveCursor(m_views[tab]->chart(), step);
}

void ChartsPanel::setFootprintPerAction(bool perAction)
{
    if (perAction == m_perAction)
        return;
    m_perAction = perAction;
    {
        const QSignalBlocker blocker(m_perActionBox);
        m_perActionBox->setChecked(perAction);
    }
    invalidate(FootprintTab);
    emit footprintPerActionChanged(perAction);
}

void ChartsPanel::setCurrentTab(Tab tab) { m_tabs->setCurrentIndex(tab); }

ChartsPanel::Tab ChartsPanel::currentTab() const { return Tab(m_tabs->currentIndex()); }

QChart *ChartsPanel::chart(Tab tab)
{
    refresh(tab);
    return m_views[tab] ? m_views[tab]->chart() : nullptr;
}

QChartView *ChartsPanel::chartView(Tab tab)
{
    refresh(tab);
    return m_views[tab];
}

} // namespace convoffload::ui
