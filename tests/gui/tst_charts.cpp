// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The charts and the figure export: series values on the paper's Example
// checked against numbers worked by hand, the cursor and click mapping, the
// chart panel, and exports to PNG / SVG / PDF including their failures.
//
// Set CONVOFFLOAD_CHART_SHOTS=<dir> to also write every chart of the paper
// example and of LeNet-5 conv1 as PNG there (to look at them).

#include "TestImages.h"
#include "TestProblems.h"
#include "charts/ChartFactory.h"
#include "charts/ComparisonPlot.h"
#include "charts/ComparisonView.h"
#include "charts/ChartsPanel.h"
#include "charts/NiceScale.h"
#include "charts/StepBins.h"
#include "charts/StepHoverText.h"
#include "export/FigureExport.h"
#include "export/Figures.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDir>
#include <QTextDocumentFragment>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QImage>
#include <QPainter>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <nlohmann/json.hpp>

#include <memory>
#include <set>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

/// The paper's Example with the sample's hardware (docs/reference/model.md): 2×5×5 input, two 3×3
/// kernels, stride 1, nbop_pe 72 (2 patches per step), mem_size 80.
Problem paperExample() { return paperExampleProblem(80); }

SimulationResult rowByRowG2(const Problem &p)
{
    SimulationOptions options;
    options.trace = true;
    return simulate(p, expandS1(p, rowByRow(p.layer, 2)), options);
}

template <class T> T *seriesNamed(const QChart *chart, const QString &name)
{
    for (QAbstractSeries *s : chart->series())
        if (s->name() == name)
            return qobject_cast<T *>(s);
    return nullptr;
}

template <class T> QList<T *> seriesOfType(const QChart *chart)
{
    QList<T *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *t = qobject_cast<T *>(s))
            out.append(t);
    return out;
}

/// The first point at x: on a per-action staircase, the level of the action
/// that ends at x.
double yAt(const QLineSeries *series, double x)
{
    for (const QPointF &p : series->points())
        if (qFuzzyCompare(p.x() + 1.0, x + 1.0))
            return p.y();
    return -1;
}

/// Middle of the cursor's vertical sides: the step it marks.
double cursorX(const QChart *chart)
{
    const QList<QPointF> points = cursorSeries(chart)->points();
    double lo = points.value(0).x(), hi = lo;
    for (const QPointF &p : points) {
        lo = std::min(lo, p.x());
        hi = std::max(hi, p.x());
    }
    return (lo + hi) / 2;
}

struct NamedChart {
    QString name;
    std::unique_ptr<QChart> chart;
};

std::vector<NamedChart> allCharts(const Problem &p, const SimulationResult &r, const std::vector<CompareRow> &,
    const std::vector<SweepRow> &sweep, int cursor, const QString &strategy)
{
    std::vector<NamedChart> charts;
    charts.push_back({QStringLiteral("footprint-step"), std::unique_ptr<QChart>(footprintChart(p, r, cursor, false, strategy))});
    charts.push_back({QStringLiteral("footprint-action"), std::unique_ptr<QChart>(footprintChart(p, r, cursor, true, strategy))});
    charts.push_back({QStringLiteral("durations"), std::unique_ptr<QChart>(durationChart(r, cursor, strategy))});
    charts.push_back({QStringLiteral("cumulative"), std::unique_ptr<QChart>(cumulativeDurationChart(r, cursor, strategy))});
    charts.push_back({QStringLiteral("sweep"), std::unique_ptr<QChart>(sweepChart(sweep))});
    return charts;
}

SimulationOptions quick()
{
    SimulationOptions o;
    o.trace = false;
    o.functional = false;
    return o;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    // A step chart's tooltip gives the steps table's numbers for the step
    // under the mouse (it said only "Click a step to show it"). Three steps
    // made up by hand, the last the drain.
    void hoverTextGivesTheStepsNumbers()
    {
        SimulationResult r;
        r.steps.resize(3);
        r.steps[0].after = {18, 36, 2};
        r.steps[0].peak_footprint = 56;
        r.steps[0].load_duration = 54;
        r.steps[0].compute_duration = 1;
        r.steps[1].after = {6, 36, 4};
        r.steps[1].peak_footprint = 58;
        r.steps[1].load_duration = 6;
        r.steps[1].compute_duration = 1;
        r.steps[1].write_duration = 2;
        r.steps[2].drain = true;
        r.steps[2].write_duration = 4;
        const auto plain = [&](int step, StepChartKind kind) {
            return QTextDocumentFragment::fromHtml(stepHoverText(r, step, kind)).toPlainText();
        };
        QCOMPARE(plain(1, StepChartKind::Footprint),
            QStringLiteral("step 2 of 2\nafter it: 46 elements (input 6, kernels 36, output 4)\npeak during it: 58 elements\n"
                           "Click to show this step"));
        QCOMPARE(plain(1, StepChartKind::Durations),
            QStringLiteral("step 2 of 2\n9 cycles: load 6, compute 1, write back 2\nClick to show this step"));
        QCOMPARE(plain(2, StepChartKind::Cumulative),
            QStringLiteral(
                "drain (after step 2)\n68 cycles up to its end (this step: 4)\nClick to show this step")); // 55 + 9 + 4
        QCOMPARE(stepHoverText(r, 3, StepChartKind::Footprint), QString());
        QCOMPARE(stepHoverText(r, -1, StepChartKind::Durations), QString());
    }

    // Round scales, worked out by hand: the step is the smallest 1, 2 or 5 ×
    // 10^k giving at most the asked intervals once both ends are rounded out.
    void niceScales_data()
    {
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<double>("minStep");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("decimals");
        // 10.5 / 5 = 2.1 -> 5: 0, 5, 10, 15 (not 0.0, 2.6, 5.3, 7.9, 10.5)
        QTest::newRow("seconds") << 0.0 << 10.5 << 5 << 0.0 << 0.0 << 15.0 << 5.0 << 0;
        QTest::newRow("seconds, 8 ticks") << 0.0 << 10.5 << 8 << 0.0 << 0.0 << 12.0 << 2.0 << 0;
        // 239.7 / 5 -> 50 gives 6200..6500 = 6 steps: 100
        QTest::newRow("durations") << 6240.3 << 6480.0 << 5 << 1.0 << 6200.0 << 6500.0 << 100.0 << 0;
        // 1.2 / 5 = 0.24, at least 1: whole cycles
        QTest::newRow("close durations") << 6327.4 << 6328.6 << 5 << 1.0 << 6327.0 << 6329.0 << 1.0 << 0;
        QTest::newRow("tenths") << 0.0 << 0.8 << 5 << 0.0 << 0.0 << 0.8 << 0.2 << 1;
        QTest::newRow("hundredths") << 0.0 << 0.07 << 5 << 0.0 << 0.0 << 0.08 << 0.02 << 2;
        QTest::newRow("one value") << 5.0 << 5.0 << 5 << 0.0 << 5.0 << 5.2 << 0.2 << 1;
    }
    void niceScales()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(int, intervals);
        QFETCH(double, minStep);
        const NiceScale s = niceScale(low, high, intervals, minStep);
        QTEST(s.min, "min");
        QTEST(s.max, "max");
        QTEST(s.step, "step");
        QTEST(s.decimals, "decimals");
        QValueAxis axis;
        applyNiceScale(&axis, s);
        QCOMPARE(axis.tickInterval(), s.step);
        QCOMPARE(axis.labelFormat(), QStringLiteral("%.%1f").arg(s.decimals));
    }

    void footprintPerStep()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        QCOMPARE(r.steps.size(), std::size_t(6)); // 9 patches in 5 groups of ≤ 2, plus the drain
        std::unique_ptr<QChart> chart(footprintChart(p, r, -1, false));

        auto *input = seriesNamed<QAreaSeries>(chart.get(), QStringLiteral("input"));
        auto *kernels = seriesNamed<QAreaSeries>(chart.get(), QStringLiteral("kernels"));
        auto *output = seriesNamed<QAreaSeries>(chart.get(), QStringLiteral("output"));
        QVERIFY(input && kernels && output);
        // Stacked: each area starts where the one below ends.
        QCOMPARE(input->lowerSeries(), nullptr);
        QCOMPARE(kernels->lowerSeries(), input->upperSeries());
        QCOMPARE(output->lowerSeries(), kernels->upperSeries());
        QCOMPARE(output->upperSeries()->count(), 6);

        // By hand. Step 1 (x = 0) after its compute: patches 0,1 need rows
        // 0..2 × cols 0..3 = 12 pixels · 2 channels = 24 input, 2 kernels ·
        // 18 = 36, 2 patches · 2 kernels = 4 outputs: 24 / 60 / 64 stacked.
        QCOMPARE(yAt(input->upperSeries(), 0), 24.0);
        QCOMPARE(yAt(kernels->upperSeries(), 0), 60.0);
        QCOMPARE(yAt(output->upperSeries(), 0), 64.0);
        // Step 2 (x = 1): patches 2,3 need cols 2..4 of rows 0..2 and cols
        // 0..2 of rows 1..3: 16 pixels, 32 input + 36 + 4 (outputs of step 1
        // written at this step) = 72, the peak.
        QCOMPARE(yAt(input->upperSeries(), 1), 32.0);
        QCOMPARE(yAt(kernels->upperSeries(), 1), 68.0);
        QCOMPARE(yAt(output->upperSeries(), 1), 72.0);
        // The drain (x = 5) leaves the memory empty.
        QCOMPARE(yAt(output->upperSeries(), 5), 0.0);

        auto *capacity = seriesNamed<QLineSeries>(chart.get(), QStringLiteral("mem_size = 80"));
        QVERIFY(capacity);
        QVERIFY(capacity->count() >= 2);
        for (const QPointF &pt : capacity->points())
            QCOMPARE(pt.y(), 80.0);

        // Steps labelled 1..n and the drain; axis titles with units.
        auto *x = qobject_cast<QCategoryAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->categoriesLabels(),
            (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("5"),
                QStringLiteral("drain")}));
        auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QVERIFY(y->titleText().contains(QStringLiteral("elements")));
        QVERIFY(y->max() > 80); // the capacity line is inside the plot
        QVERIFY(chart->legend()->isVisible());
        QVERIFY(chart->title().contains(QStringLiteral("72")));
    }

    void footprintPerAction()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        std::unique_ptr<QChart> chart(footprintChart(p, r, 1, true));
        auto *output = seriesNamed<QAreaSeries>(chart.get(), QStringLiteral("output"));
        QVERIFY(output);
        // A staircase: 6 actions for each of 6 steps, each a level of two
        // points; step 1's a1 frees nothing from the empty memory.
        QCOMPARE(output->upperSeries()->count(), 2 * 6 * 6);
        QCOMPARE(yAt(output->upperSeries(), -1), 0.0);
        // After each compute (x = k) the per-action curve meets the per-step one.
        for (int k = 0; k < 6; ++k)
            QCOMPARE(yAt(output->upperSeries(), k), double(r.steps[std::size_t(k)].after.total()));
        double peak = 0;
        for (const QPointF &pt : output->upperSeries()->points())
            peak = std::max(peak, pt.y());
        QCOMPARE(peak, 72.0);
        // Step 2's actions lie in (0, 1], by hand: step 1 left rows 0..2 ×
        // cols 0..3 on chip (12 pixels); a1 frees the 2 pixels patches 2 and 3
        // do not use, (0,0) and (0,1): 20 elements; a4 loads the 6 missing,
        // col 4 of rows 0..2 and cols 0..2 of row 3: 32 elements.
        auto *input = seriesNamed<QAreaSeries>(chart.get(), QStringLiteral("input"));
        QCOMPARE(yAt(input->upperSeries(), 1.0 / 6.0), 20.0);
        QCOMPARE(yAt(input->upperSeries(), 4.0 / 6.0), 32.0);
        // Per-action clicks: x in (0, 1] is step 2 (index 1).
        QCOMPARE(stepAt(chart.get(), 0.5), 1);
        QCOMPARE(stepAt(chart.get(), 1.0), 1);
        QCOMPARE(stepAt(chart.get(), -0.9), 0);
        QCOMPARE(stepAt(chart.get(), -1.5), -1);
        QCOMPARE(stepAt(chart.get(), 5.5), -1);
    }

    void footprintPerActionWithoutTrace()
    {
        const Problem p = paperExample();
        const SimulationResult r = simulate(p, expandS1(p, rowByRow(p.layer, 2)), quick());
        std::unique_ptr<QChart> chart(footprintChart(p, r, -1, true));
        // Falls back to one point per step rather than failing.
        QCOMPARE(seriesNamed<QAreaSeries>(chart.get(), QStringLiteral("output"))->upperSeries()->count(), 6);
    }

    void durations()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        std::unique_ptr<QChart> chart(durationChart(r, 0));
        const QList<QStackedBarSeries *> bars = seriesOfType<QStackedBarSeries>(chart.get());
        QCOMPARE(bars.size(), 1);
        QCOMPARE(bars[0]->count(), 3); // load, write, compute
        double sum = 0;
        for (int k = 0; k < 6; ++k) {
            double step = 0;
            for (QBarSet *set : bars[0]->barSets())
                step += set->at(k);
            QCOMPARE(step, r.steps[std::size_t(k)].duration());
            sum += step;
        }
        // By hand: 58 input elements + 36 kernel elements loaded, 18 outputs
        // written, 5 computes, every unit costing 1.
        QCOMPARE(sum, 117.0);
        QCOMPARE(r.totalDuration(), 117.0);
        QVERIFY(chart->title().contains(QStringLiteral("117")));
        QVERIFY(qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0))->titleText().contains(QStringLiteral("cycles")));
        // Bars are centred on their step index.
        QCOMPARE(stepAt(chart.get(), 2.3), 2);
        QCOMPARE(stepAt(chart.get(), 5.4), 5);
        QCOMPARE(stepAt(chart.get(), 5.6), -1);
    }

    // docs/reference/model.md#transfer-cost: with a transfer model the load
    // and write bars hold their data only and a "DMA set-up" set stacks on
    // them. With burst 1 the data is the linear model's (elements·t), and
    // every run costs t_setup on top.
    void durationsSplitTheSetUp()
    {
        Problem p = paperExample();
        p.hardware.transfer = Transfer{Layout::Nhwc, 1, 20.0};
        const SimulationResult r = rowByRowG2(p);
        QVERIFY(r.transfer_model);
        QVERIFY(r.transferRuns() > 0);
        QCOMPARE(r.totalDuration(), 117.0 + 20.0 * double(r.transferRuns())); // 117: durations() by hand
        for (int withProblem = 0; withProblem < 2; ++withProblem) {
            std::unique_ptr<QChart> chart(withProblem ? durationChart(p, r, -1) : durationChart(r, -1));
            const QList<QStackedBarSeries *> bars = seriesOfType<QStackedBarSeries>(chart.get());
            QCOMPARE(bars.size(), 1);
            QStringList names;
            for (QBarSet *set : bars[0]->barSets())
                names << set->label();
            QCOMPARE(names,
                (QStringList{QStringLiteral("load data"), QStringLiteral("write data"), QStringLiteral("DMA set-up"),
                    QStringLiteral("compute")}));
            const QList<QBarSet *> sets = bars[0]->barSets();
            QBarSet *load = sets[0], *write = sets[1], *setup = sets[2];
            QVERIFY(setup->color() != load->color() && setup->color() != write->color() && setup->color() != sets[3]->color());
            double setupSum = 0;
            for (int k = 0; k < int(r.steps.size()); ++k) {
                const StepStats &s = r.steps[std::size_t(k)];
                QCOMPARE(load->at(k), double(s.loaded_input + s.loaded_kernels));
                QCOMPARE(write->at(k), double(s.written));
                QCOMPARE(setup->at(k), 20.0 * double(s.load_runs + s.write_runs));
                double step = 0;
                for (QBarSet *set : sets)
                    step += set->at(k);
                QCOMPARE(step, s.duration());
                setupSum += setup->at(k);
            }
            QCOMPARE(setupSum, r.setupDuration());
            QCOMPARE(setupSum, 20.0 * double(r.transferRuns()));
            QVERIFY(chart->title().contains(QStringLiteral("set-up")));
        }

        // Aligned bursts of 8: the set-up still sums to the result's, the stacks to the steps.
        p.hardware.transfer = Transfer{Layout::Nchw, 8, 5.0};
        const SimulationResult bursts = rowByRowG2(p);
        std::unique_ptr<QChart> chart(durationChart(p, bursts, 2));
        QBarSet *setup = seriesOfType<QStackedBarSeries>(chart.get()).value(0)->barSets().value(2);
        QVERIFY(setup);
        double setupSum = 0;
        for (int k = 0; k < setup->count(); ++k)
            setupSum += setup->at(k);
        QCOMPARE(setupSum, bursts.setupDuration());
        QCOMPARE(setupSum, 5.0 * double(bursts.transferRuns()));

        // Without one, unchanged: input and kernel loads, write back, compute.
        const SimulationResult linear = rowByRowG2(paperExample());
        std::unique_ptr<QChart> plain(durationChart(paperExample(), linear, -1));
        QStringList names;
        for (QBarSet *set : seriesOfType<QStackedBarSeries>(plain.get()).value(0)->barSets())
            names << set->label();
        QCOMPARE(names,
            (QStringList{QStringLiteral("load input"), QStringLiteral("load kernels"), QStringLiteral("write back"),
                QStringLiteral("compute")}));
    }

    // More steps than bins (docs/user/visualiser.md, "Charts"): ten steps
    // made up by hand into bins of 3 ([0, 3), [3, 6), [6, 9), [9]).
    void binnedCharts()
    {
        SimulationResult r;
        const int input[] = {5, 9, 1, 3, 3, 2, 7, 0, 8, 4};
        for (int k = 0; k < 10; ++k) {
            StepStats s;
            s.load_duration = 10.0 * (k + 1);
            s.write_duration = 1;
            s.compute_duration = 5;
            s.after = Footprint{input[k], 2, 0};
            r.steps.push_back(s);
        }
        const int maxBins = 4;

        // Durations: each bin's mean step, stacked, as a stair over its steps.
        std::unique_ptr<QChart> durations(durationChart(r, 4, QString(), maxBins));
        QVERIFY(seriesOfType<QStackedBarSeries>(durations.get()).isEmpty());
        const QList<QPointF> load{{-0.5, 20}, {2.5, 20}, {2.5, 50}, {5.5, 50}, {5.5, 80}, {8.5, 80}, {8.5, 100}, {9.5, 100}};
        QCOMPARE(
            seriesNamed<QAreaSeries>(durations.get(), QStringLiteral("load (input + kernels)"))->upperSeries()->points(), load);
        QList<QPointF> top = load; // + write 1 + compute 5
        for (QPointF &p : top)
            p.setY(p.y() + 6);
        const QAreaSeries *compute = seriesNamed<QAreaSeries>(durations.get(), QStringLiteral("compute"));
        QCOMPARE(compute->upperSeries()->points(), top);
        QCOMPARE(compute->lowerSeries()->points().value(0).y(), 21.0);
        // The longest step of each bin: its last, 10(k+1) + 6.
        QCOMPARE(seriesNamed<QLineSeries>(durations.get(), QStringLiteral("longest"))->points(),
            (QList<QPointF>{{-0.5, 36}, {2.5, 36}, {2.5, 66}, {5.5, 66}, {5.5, 96}, {8.5, 96}, {8.5, 106}, {9.5, 106}}));
        const auto *x = qobject_cast<QCategoryAxis *>(durations->axes(Qt::Horizontal).value(0));
        QVERIFY(x->titleText().contains(QStringLiteral("10 steps, 3 per bar")));
        // Steps keep their x: the cursor and clicks are the steps'.
        QCOMPARE(cursorX(durations.get()), 4.0);
        QCOMPARE(stepAt(durations.get(), 6.6), 7);

        // Footprint per step: each bin at its highest step (the first on ties).
        std::unique_ptr<QChart> footprint(footprintChart(paperExample(), r, -1, false, QString(), maxBins));
        QCOMPARE(seriesNamed<QAreaSeries>(footprint.get(), QStringLiteral("input"))->upperSeries()->points(),
            (QList<QPointF>{{1, 9}, {3, 3}, {8, 8}, {9, 4}}));
        QCOMPARE(seriesNamed<QAreaSeries>(footprint.get(), QStringLiteral("kernels"))->upperSeries()->points(),
            (QList<QPointF>{{1, 11}, {3, 5}, {8, 10}, {9, 6}}));
        QVERIFY(qobject_cast<QCategoryAxis *>(footprint->axes(Qt::Horizontal).value(0))
                    ->titleText()
                    .contains(QStringLiteral("10 steps, highest of each 3")));

        // Per action: 60 actions in bins of 15, each a stair at its highest
        // action (input = the action's index, but 100 at action 20).
        r.trace.actions.resize(60);
        for (int a = 0; a < 60; ++a)
            r.trace.actions[std::size_t(a)].after = Footprint{a == 20 ? 100 : a, 0, 0};
        std::unique_ptr<QChart> perAction(footprintChart(paperExample(), r, -1, true, QString(), maxBins));
        QCOMPARE(seriesNamed<QAreaSeries>(perAction.get(), QStringLiteral("input"))->upperSeries()->points(),
            (QList<QPointF>{{-1, 14}, {1.5, 14}, {1.5, 100}, {4, 100}, {4, 44}, {6.5, 44}, {6.5, 59}, {9, 59}}));

        // Cumulative: the running total at the first step and at each bin's last.
        std::unique_ptr<QChart> cumulative(cumulativeDurationChart(r, -1, QString(), maxBins));
        QLineSeries *line = seriesNamed<QLineSeries>(cumulative.get(), QStringLiteral("duration so far"));
        QCOMPARE(line->points(), (QList<QPointF>{{0, 16}, {2, 78}, {5, 246}, {8, 504}, {9, 610}}));

        // As many bins as steps: nothing binned, bars as before.
        std::unique_ptr<QChart> whole(durationChart(r, -1, QString(), 10));
        QCOMPARE(seriesOfType<QStackedBarSeries>(whole.get()).size(), 1);
        QVERIFY(!seriesNamed<QLineSeries>(whole.get(), QStringLiteral("longest")));
    }

    // The bins of a chart: at least 160, so tens of steps are never binned;
    // one per 3 pixels of plot (the width less about 90 px of axis).
    void stepBins()
    {
        QCOMPARE(stepChartBins(0), 160);
        QCOMPARE(stepChartBins(300), 160);
        QCOMPARE(stepChartBins(900), 270);
        const StepBins bins(3137, 270);
        QCOMPARE(bins.perBin(), 12); // ceil(3137 / 270)
        QCOMPARE(bins.binCount(), 262); // ceil(3137 / 12)
        QCOMPARE(bins.first(261), 3132);
        QCOMPARE(bins.end(261), 3137);
        QVERIFY(!StepBins(160, 160).aggregated());
        QCOMPARE(StepBins(0, 10).binCount(), 0);
    }

    void cumulative()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        std::unique_ptr<QChart> chart(cumulativeDurationChart(r, -1));
        QLineSeries *line = nullptr;
        for (QLineSeries *s : seriesOfType<QLineSeries>(chart.get()))
            if (s != cursorSeries(chart.get()))
                line = s;
        QVERIFY(line);
        QCOMPARE(line->count(), 6);
        for (int k = 1; k < line->count(); ++k)
            QVERIFY(line->at(k).y() >= line->at(k - 1).y());
        QCOMPARE(line->at(line->count() - 1).y(), 117.0);
    }

    void cursor()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        {
            // Per step: a vertical line at x = 1 from 0 to the top of the plot.
            std::unique_ptr<QChart> chart(footprintChart(p, r, 1, false));
            QLineSeries *c = cursorSeries(chart.get());
            QVERIFY(c);
            QCOMPARE(c->name(), cursorSeriesName());
            QVERIFY(c->isVisible());
            const double top = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0))->max();
            QCOMPARE(c->points(), (QList<QPointF>{{1, 0}, {1, top}}));
            moveCursor(chart.get(), 5);
            QCOMPARE(c->points(), (QList<QPointF>{{5, 0}, {5, top}}));
            QCOMPARE(cursorSeries(chart.get()), c); // moved, not rebuilt
            moveCursor(chart.get(), -1);
            QVERIFY(!c->isVisible());
            moveCursor(chart.get(), 2);
            QVERIFY(c->isVisible());
            moveCursor(chart.get(), 99); // past the end: hidden too
            QVERIFY(!c->isVisible());
        }
        {
            // Per action: a box around the six actions of step 2, (0, 1].
            std::unique_ptr<QChart> chart(footprintChart(p, r, 1, true));
            const double top = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0))->max();
            QCOMPARE(cursorSeries(chart.get())->points(), (QList<QPointF>{{0, 0}, {0, top}, {1, top}, {1, 0}}));
        }
        {
            // Bars: a box around the bar.
            std::unique_ptr<QChart> chart(durationChart(r, 3));
            const double top = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0))->max();
            QCOMPARE(cursorSeries(chart.get())->points(), (QList<QPointF>{{2.5, 0}, {2.5, top}, {3.5, top}, {3.5, 0}}));
        }
        {
            std::unique_ptr<QChart> chart(cumulativeDurationChart(r, 3));
            QCOMPARE(cursorX(chart.get()), 3.0);
        }
        std::unique_ptr<QChart> none(durationChart(r, -1));
        QVERIFY(!cursorSeries(none.get())->isVisible());
        // The cursor never has a legend entry (items are visible only in a scene).
        QGraphicsScene scene;
        scene.addItem(none.get());
        none->resize(800, 500);
        const QList<QLegendMarker *> markers = none->legend()->markers(cursorSeries(none.get()));
        QCOMPARE(markers.size(), 1);
        QVERIFY(!markers[0]->isVisible());
        QVERIFY(none->legend()->markers().first()->isVisible());
        moveCursor(none.get(), 0);
        QVERIFY(!markers[0]->isVisible());
        moveCursor(none.get(), -1);
        QVERIFY(!markers[0]->isVisible());
        scene.removeItem(none.get());
    }

    void comparison()
    {
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/paper-example.json");
        std::vector<CompareRow> rows = compareStrategies(project, quick());
        QCOMPARE(rows.size(), std::size_t(4));
        // docs/user/samples.md table: Row-by-Row 117 is the best of S1-baseline 145, ZigZag 121.
        QCOMPARE(bestRow(rows), 1);
        // An invalid strategy faster than all is not the best; a failed one neither.
        CompareRow cheat = rows[0];
        cheat.name = "Cheat";
        cheat.valid = false;
        cheat.total_duration = 10;
        rows.push_back(cheat);
        CompareRow broken;
        broken.name = "Broken";
        broken.failure = "group size 0";
        rows.push_back(broken);
        QCOMPARE(bestRow(rows), 1);

        // Small multiples: a panel per quantity, the names once per row of
        // panels with their marks, every value printed; the best valid value of
        // each quantity bold (duration: Row-by-Row 117; the invalid Cheat's 10
        // is not bold).
        const ComparisonPlot plot(rows);
        QVERIFY(plot.title().contains(QStringLiteral("best Row-by-Row (117 cycles)")));
        const QFont font;
        const std::vector<PlacedText> texts = plot.texts(QRectF(0, 0, 1000, 560), font);
        const auto find = [&](const QString &t) {
            return std::count_if(texts.begin(), texts.end(), [&](const PlacedText &p) { return p.text == t; });
        };
        QCOMPARE(find(QStringLiteral("★ Row-by-Row")), 1); // side by side at 1000 wide: names once
        QCOMPARE(find(QStringLiteral("Cheat ✗ invalid")), 1);
        QCOMPARE(find(QStringLiteral("Broken ✗ failed")), 1);
        QCOMPARE(find(QStringLiteral("S1-baseline")), 1);
        QCOMPARE(find(QStringLiteral("total duration (cycles)")), 1);
        QCOMPARE(find(QStringLiteral("loaded input (elements)")), 1);
        QCOMPARE(find(QStringLiteral("peak footprint (elements)")), 1);
        for (const char *value : {"145", "117", "121", "10"}) {
            const auto it
                = std::find_if(texts.begin(), texts.end(), [&](const PlacedText &p) { return p.text == QLatin1String(value); });
            QVERIFY2(it != texts.end(), value);
            QCOMPARE(it->font.bold(), QLatin1String(value) == QLatin1String("117"));
        }
        QCOMPARE(find(QStringLiteral("—")), 3); // the failed strategy has no bar in any panel
        // Narrow (a dock): the panels stack, each with the names again.
        const std::vector<PlacedText> narrow = plot.texts(QRectF(0, 0, 260, 900), font);
        QCOMPARE(std::count_if(
                     narrow.begin(), narrow.end(), [](const PlacedText &p) { return p.text == QStringLiteral("★ Row-by-Row"); }),
            3);
        // Every strategy here loads the kernels once: no kernel panel. One
        // that streams them (three times the loads) gets one, with its value.
        QCOMPARE(find(QStringLiteral("loaded kernels (elements)")), 0);
        std::vector<CompareRow> streaming{rows[0], rows[1]};
        streaming[1].name = "Streams";
        streaming[1].loaded_kernels = 3 * rows[1].loaded_kernels;
        const std::vector<PlacedText> four = ComparisonPlot(streaming).texts(QRectF(0, 0, 1000, 560), font);
        const auto inFour = [&](const QString &t) {
            return std::count_if(four.begin(), four.end(), [&](const PlacedText &p) { return p.text == t; });
        };
        QCOMPARE(inFour(QStringLiteral("loaded kernels (elements)")), 1);
        QCOMPARE(inFour(plotNumber(double(streaming[1].loaded_kernels))), 1);
    }

    // Thinned for a narrow chart, the step labels stay evenly spaced: the
    // first, then consecutive multiples of one stride of 1, 2 or 5 × 10^k,
    // then "drain" (every other one removed gave "1, 100, 300, 500, drain",
    // issue 41 item 4). 700 compute steps and the drain, made up by hand.
    void stepLabelsThinEvenly_data()
    {
        QTest::addColumn<int>("width");
        for (const int width : {200, 300, 450, 700})
            QTest::newRow(qPrintable(QString::number(width))) << width;
    }
    void stepLabelsThinEvenly()
    {
        QFETCH(int, width);
        SimulationResult r;
        r.steps.resize(701);
        for (StepStats &s : r.steps)
            s.compute_duration = 1;
        r.steps.back().drain = true;
        std::unique_ptr<QChart> chart(cumulativeDurationChart(r, -1));
        auto *x = qobject_cast<QCategoryAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        // 700 steps: a label every 100 (at most 8), 700 left out by "drain".
        QCOMPARE(x->categoriesLabels(),
            (QStringList{QStringLiteral("1"), QStringLiteral("100"), QStringLiteral("200"), QStringLiteral("300"),
                QStringLiteral("400"), QStringLiteral("500"), QStringLiteral("600"), QStringLiteral("drain")}));
        thinStepLabels(chart.get(), width);
        const QStringList labels = x->categoriesLabels();
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(QStringLiteral(", ")))); // 200 px: "1" and "drain" alone
        QCOMPARE(labels.first(), QStringLiteral("1"));
        QCOMPARE(labels.last(), QStringLiteral("drain"));
        QCOMPARE(x->endValue(QStringLiteral("1")), 0.0); // step n at x = n - 1
        QCOMPARE(x->endValue(QStringLiteral("drain")), 700.0);
        const QStringList numbers = labels.mid(1, labels.size() - 2);
        if (!numbers.isEmpty()) {
            const int stride = numbers.first().toInt();
            QVERIFY2(QList<int>({1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}).contains(stride),
                qPrintable(labels.join(QStringLiteral(", "))));
            for (int i = 0; i < numbers.size(); ++i) {
                QCOMPARE(numbers[i].toInt(), stride * (i + 1));
                QCOMPARE(x->endValue(numbers[i]), double(stride * (i + 1) - 1));
            }
            QVERIFY(700 + 1 - numbers.last().toInt() >= stride); // a stride clear of "drain"
        }
        if (width == 300) // thinned at all
            QVERIFY(labels.size() < 8);
    }

    // "drain" is centred on the last step: with the plot ending there, its
    // end fell outside a step chart exported at its own size ("drai" at the
    // figure's right edge). No text may touch the right edge of the figure.
    void drainLabelStaysInTheFigure()
    {
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/streaming/resnet18-layer3-conv.json");
        FigureSource source(project, CONVOFFLOAD_SAMPLES "/streaming/resnet18-layer3-conv.json");
        for (const FigureKind kind : {FigureKind::Memory, FigureKind::Durations, FigureKind::Cumulative}) {
            FigureRequest request;
            request.kind = kind;
            request.strategy = project.strategies.at(0).name;
            request.size = QSize(1400, 700);
            const Figure figure = makeFigure(source, request);
            QImage image(1400, 700, QImage::Format_RGB32);
            image.fill(Qt::white);
            {
                QPainter painter(&image);
                figure.paint(painter, QRectF(image.rect()));
            }
            int dark = 0; // text pixels in the last 3 columns, below the plot's middle
            for (int y = image.height() / 2; y < image.height(); ++y)
                for (int x = image.width() - 3; x < image.width(); ++x)
                    dark += QColor(image.pixel(x, y)).lightness() < 128 ? 1 : 0;
            QVERIFY2(
                dark == 0, qPrintable(QStringLiteral("%1: %2 dark pixels at the right edge").arg(figureName(kind)).arg(dark)));
        }
    }

    void sweep()
    {
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json");
        const std::vector<SweepRow> rows = sweepGroupSizes(project.problem, 1, 32, quick());
        // docs/user/samples.md: ZigZag faster up to G = 16, Row-by-Row from 17 on (tie at 28).
        const std::vector<double> crossings = sweepCrossovers(rows);
        QCOMPARE(crossings.size(), std::size_t(1));
        QVERIFY(crossings[0] > 16 && crossings[0] < 17);

        std::unique_ptr<QChart> chart(sweepChart(rows));
        // Valid sizes 1..8 (nb_patches_max 8) drawn filled, 9..32 hollow.
        int filled = 0, hollow = 0;
        for (QScatterSeries *s : seriesOfType<QScatterSeries>(chart.get()))
            (s->brush().color() == QColor(Qt::white) ? hollow : filled) += s->count();
        QCOMPARE(filled, 2 * 8);
        QCOMPARE(hollow, 2 * 24);
        QLineSeries *rbr = seriesNamed<QLineSeries>(chart.get(), QStringLiteral("Row-by-Row"));
        QLineSeries *rbrInvalid = seriesNamed<QLineSeries>(chart.get(), QStringLiteral("Row-by-Row, invalid"));
        QVERIFY(rbr && rbrInvalid);
        QCOMPARE(rbr->pen().style(), Qt::SolidLine);
        QCOMPARE(rbrInvalid->pen().style(), Qt::CustomDashLine); // short dashes, as its legend entry's
        QCOMPARE(rbr->at(0), QPointF(1, 10118)); // docs/user/samples.md sweep table
        QCOMPARE(rbrInvalid->at(0), QPointF(8, 9432)); // continues from the last valid size
        QCOMPARE(rbrInvalid->at(rbrInvalid->count() - 1), QPointF(32, 5903));
        bool crossoverShown = false;
        for (QAbstractSeries *s : chart->series())
            crossoverShown = crossoverShown || s->name() == QStringLiteral("crossover");
        QVERIFY(crossoverShown);
        QVERIFY2(chart->title().contains(QStringLiteral("crossover at G ≈ 16.")), qPrintable(chart->title()));
        auto *x = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x->titleText().contains(QStringLiteral("group size")));
    }

    void exportEveryChart_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::newRow("png") << QStringLiteral("png");
        QTest::newRow("svg") << QStringLiteral("svg");
        QTest::newRow("pdf") << QStringLiteral("pdf");
    }
    void exportEveryChart()
    {
        QFETCH(QString, extension);
        const Project project = loadProject(CONVOFFLOAD_SAMPLES "/paper-example.json");
        const Problem &p = project.problem;
        const SimulationResult r = rowByRowG2(p);
        const auto rows = compareStrategies(project, quick());
        const auto sweep = sweepGroupSizes(p, 1, 9, quick());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const NamedChart &c : allCharts(p, r, rows, sweep, 1, QStringLiteral("Row-by-Row"))) {
            const QString path = dir.filePath(c.name + QLatin1Char('.') + extension);
            const QString title = plainChartTitle(c.chart.get());
            const ExportResult result
                = exportFigure(chartPainter(c.chart.get()), QSize(900, 560), path, title, QStringLiteral("ConvOffload test"));
            QVERIFY2(result.ok, qPrintable(result.error));
            QVERIFY(result.error.isEmpty());
            QVERIFY(!c.chart->scene()); // the private scene gave the chart back
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            if (extension == QLatin1String("png")) {
                QImage image;
                QVERIFY(image.loadFromData(bytes, "PNG"));
                QCOMPARE(image.size(), QSize(900, 560));
                QVERIFY2(distinctColours(image) > 8, qPrintable(c.name));
            } else if (extension == QLatin1String("svg")) {
                QVERIFY(bytes.contains("<path") || bytes.contains("<rect"));
                QVERIFY2(QString::fromUtf8(bytes).contains(title.toHtmlEscaped()), qPrintable(title));
                QVERIFY(bytes.contains("ConvOffload test"));
                QVERIFY(QSvgRenderer(bytes).isValid());
            } else {
                QVERIFY(bytes.startsWith("%PDF"));
                QVERIFY(bytes.contains("/Type /Page") || bytes.contains("/Type/Page"));
            }
        }
    }

    void exportErrors()
    {
        const PaintFunction paint = [](QPainter &painter, const QRectF &r) { painter.fillRect(r, Qt::red); };
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no-such-folder/figure.png"));
        ExportResult result = exportFigure(paint, QSize(100, 100), missing, QStringLiteral("t"));
        QVERIFY(!result.ok);
        QVERIFY2(result.error.contains(QDir::toNativeSeparators(missing)), qPrintable(result.error));
        for (const QString &ext : {QStringLiteral("svg"), QStringLiteral("pdf")}) {
            const QString path = dir.filePath(QStringLiteral("no-such-folder/figure.") + ext);
            result = exportFigure(paint, QSize(100, 100), path, QStringLiteral("t"));
            QVERIFY(!result.ok);
            QVERIFY2(result.error.contains(QDir::toNativeSeparators(path)), qPrintable(result.error));
        }

        result = exportFigure(paint, QSize(100, 100), dir.filePath(QStringLiteral("figure.bmp")), QStringLiteral("t"));
        QVERIFY(!result.ok);
        QVERIFY2(result.error.contains(QStringLiteral(".bmp")), qPrintable(result.error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("figure.bmp"))));

        result = exportFigure(paint, QSize(0, 100), dir.filePath(QStringLiteral("zero.png")), QStringLiteral("t"));
        QVERIFY(!result.ok);
        QVERIFY(result.error.contains(QStringLiteral("empty")));

        for (const QString &ext : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
            const QString path = dir.filePath(QStringLiteral("huge.") + ext);
            result = exportFigure(paint, QSize(100000, 100000), path, QStringLiteral("t"));
            QVERIFY(!result.ok);
            QVERIFY2(result.error.contains(QStringLiteral("too large")), qPrintable(result.error));
            QVERIFY(result.error.contains(QDir::toNativeSeparators(path)));
            QVERIFY(!QFile::exists(path));
        }

        // A failed export keeps the file that was there.
        const QString kept = dir.filePath(QStringLiteral("kept.png"));
        QVERIFY(exportFigure(paint, QSize(10, 10), kept, QStringLiteral("t")).ok);
        const QByteArray before = [&] {
            QFile f(kept);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        QVERIFY(!exportFigure(paint, QSize(100000, 10), kept, QStringLiteral("t")).ok);
        QFile after(kept);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
    }

    void exportChartShownInView()
    {
        // A chart shown in a view is rendered at the export size and given
        // back its geometry.
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        QChartView view(durationChart(r, 2));
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRectF before = view.chart()->geometry();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("view.png"));
        const ExportResult result = exportFigure(chartPainter(view.chart()), QSize(1200, 700), path, QStringLiteral("t"));
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(view.chart()->geometry(), before);
        QImage image(path);
        QCOMPARE(image.size(), QSize(1200, 700));
        QVERIFY(distinctColours(image) > 8);
        // The bottom right corner holds chart content (legend/axes are laid
        // out at the export size, not at the view's 400×300).
        QVERIFY(distinctColours(image.copy(600, 350, 600, 350)) > 2);
    }

    void exportScaled()
    {
        // At scale 2 the chart is laid out at half the size and drawn twice
        // as large: the same picture as at scale 1, pixel for pixel doubled
        // up to antialiasing, so the title's ink is about twice as tall.
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        std::unique_ptr<QChart> chart(durationChart(r, -1));
        QTemporaryDir dir;
        const auto titleInkHeight = [](const QImage &image) {
            int top = -1, bottom = -1;
            for (int y = 0; y < image.height() / 6; ++y)
                for (int x = 0; x < image.width(); ++x)
                    if (qGray(image.pixel(x, y)) < 128) {
                        top = top < 0 ? y : top;
                        bottom = y;
                        break;
                    }
            return bottom - top;
        };
        const QString one = dir.filePath(QStringLiteral("one.png")), two = dir.filePath(QStringLiteral("two.png"));
        QVERIFY(exportFigure(chartPainter(chart.get()), QSize(800, 500), one, QString()).ok);
        QVERIFY(exportFigure(chartPainter(chart.get(), 2.0), QSize(1600, 1000), two, QString()).ok);
        const int h1 = titleInkHeight(QImage(one)), h2 = titleInkHeight(QImage(two));
        QVERIFY2(h1 > 5 && std::abs(h2 - 2 * h1) <= 3, qPrintable(QStringLiteral("%1 %2").arg(h1).arg(h2)));
    }

    void metrics()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        const QString csv = exportMetricsCsv(r);
        const QStringList lines = csv.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + 6);
        const QStringList header = lines[0].split(QLatin1Char(','));
        QCOMPARE(header.first(), QStringLiteral("step"));
        QCOMPARE(header.last(), QStringLiteral("cumulative_duration"));
        const QStringList step2 = lines[2].split(QLatin1Char(','));
        QCOMPARE(step2.size(), header.size());
        QCOMPARE(step2[header.indexOf(QStringLiteral("footprint_after"))], QStringLiteral("72"));
        QCOMPARE(step2[header.indexOf(QStringLiteral("loaded_input"))], QStringLiteral("12")); // 6 new pixels · 2 channels
        const QStringList drain = lines[6].split(QLatin1Char(','));
        QCOMPARE(drain[header.indexOf(QStringLiteral("drain"))], QStringLiteral("true"));
        QCOMPARE(drain.last(), QStringLiteral("117"));

        const QString json = exportMetricsJson(p, QStringLiteral("Row-by-Row"), r);
        const auto j = nlohmann::json::parse(json.toStdString());
        QCOMPARE(j["strategy"].get<std::string>(), std::string("Row-by-Row"));
        QCOMPARE(j["total_duration"].get<double>(), 117.0);
        QCOMPARE(j["per_step"].size(), std::size_t(6));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.csv"));
        QVERIFY(exportText(csv, path).ok);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), csv);
        const QString bad = dir.filePath(QStringLiteral("nope/m.csv"));
        const ExportResult failed = exportText(csv, bad);
        QVERIFY(!failed.ok);
        QVERIFY(failed.error.contains(QDir::toNativeSeparators(bad)));
    }

    void panelUpdatesChartsInPlace()
    {
        const Problem p = paperExample();
        const SimulationResult rows = rowByRowG2(p);
        SimulationOptions options;
        const SimulationResult zig = simulate(p, expandS1(p, zigzag(p.layer, 2)), options);
        const SimulationResult single = simulate(p, expandS1(p, rowByRow(p.layer, 1)), options);
        ChartsPanel panel;
        panel.resize(900, 600);
        panel.setSimulation(&p, &rows, QStringLiteral("Row-by-Row"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QChart *footprint = panel.chart(ChartsPanel::FootprintTab);
        QChart *durations = panel.chart(ChartsPanel::DurationsTab);
        QChart *cumulative = panel.chart(ChartsPanel::CumulativeTab);

        // Another result of the same shape (and one with more steps): the
        // same charts, holding what freshly built ones hold.
        for (const SimulationResult *r : {&zig, &single}) {
            panel.setSimulation(&p, r, QStringLiteral("Edited"));
            QCOMPARE(panel.chart(ChartsPanel::FootprintTab), footprint);
            QCOMPARE(panel.chart(ChartsPanel::DurationsTab), durations);
            QCOMPARE(panel.chart(ChartsPanel::CumulativeTab), cumulative);
            std::unique_ptr<QChart> freshFootprint(footprintChart(p, *r, -1, false, QStringLiteral("Edited")));
            std::unique_ptr<QChart> freshDurations(durationChart(p, *r, -1, QStringLiteral("Edited")));
            std::unique_ptr<QChart> freshCumulative(cumulativeDurationChart(*r, -1, QStringLiteral("Edited")));
            QCOMPARE(footprint->title(), freshFootprint->title());
            QCOMPARE(durations->title(), freshDurations->title());
            for (const QString &name : {QStringLiteral("input"), QStringLiteral("kernels"), QStringLiteral("output")})
                QCOMPARE(seriesNamed<QAreaSeries>(footprint, name)->upperSeries()->points(),
                    seriesNamed<QAreaSeries>(freshFootprint.get(), name)->upperSeries()->points());
            const auto sets = seriesOfType<QStackedBarSeries>(durations).value(0)->barSets();
            const auto freshSets = seriesOfType<QStackedBarSeries>(freshDurations.get()).value(0)->barSets();
            QCOMPARE(sets.size(), freshSets.size());
            for (qsizetype i = 0; i < sets.size(); ++i) {
                QCOMPARE(sets[i]->count(), freshSets[i]->count());
                for (int k = 0; k < sets[i]->count(); ++k)
                    QCOMPARE(sets[i]->at(k), freshSets[i]->at(k));
            }
            QCOMPARE(seriesOfType<QLineSeries>(cumulative).value(0)->points(),
                seriesOfType<QLineSeries>(freshCumulative.get()).value(0)->points());
            const auto *x = qobject_cast<QCategoryAxis *>(durations->axes(Qt::Horizontal).value(0));
            auto *freshX = qobject_cast<QCategoryAxis *>(freshDurations->axes(Qt::Horizontal).value(0));
            QVERIFY(x && freshX);
            QCOMPARE(const_cast<QCategoryAxis *>(x)->categoriesLabels(), freshX->categoriesLabels());
            QCOMPARE(x->max(), freshX->max());
            // The cursor still follows the steps.
            panel.setCurrentStep(int(r->steps.size()) - 1);
            QCOMPARE(cursorX(footprint), double(r->steps.size() - 1));
            panel.setCurrentStep(-1);
        }
        // A placeholder has another shape: replaced.
        panel.setSimulation(nullptr, nullptr);
        QVERIFY(panel.chart(ChartsPanel::FootprintTab)->series().isEmpty());
    }

    void panel()
    {
        const Problem p = paperExample();
        const SimulationResult r = rowByRowG2(p);
        ChartsPanel panel;
        panel.resize(900, 600);
        panel.setSimulation(&p, &r, QStringLiteral("Row-by-Row"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));

        // Moving the step moves the cursors, without rebuilding the charts.
        QChart *footprint = panel.chart(ChartsPanel::FootprintTab);
        QChart *durations = panel.chart(ChartsPanel::DurationsTab);
        panel.setCurrentStep(3);
        QCOMPARE(panel.chart(ChartsPanel::FootprintTab), footprint);
        QCOMPARE(panel.chart(ChartsPanel::DurationsTab), durations);
        QCOMPARE(cursorX(footprint), 3.0);
        QCOMPARE(cursorX(durations), 3.0);
        QCOMPARE(cursorX(panel.chart(ChartsPanel::CumulativeTab)), 3.0);

        // The per-action toggle rebuilds the footprint only, keeping the cursor.
        QSignalSpy toggled(&panel, &ChartsPanel::footprintPerActionChanged);
        panel.findChild<QCheckBox *>()->click();
        QCOMPARE(toggled.count(), 1);
        QVERIFY(panel.footprintPerAction());
        QCOMPARE(panel.chart(ChartsPanel::DurationsTab), durations);
        QCOMPARE(
            seriesNamed<QAreaSeries>(panel.chart(ChartsPanel::FootprintTab), QStringLiteral("output"))->upperSeries()->count(),
            72);
        QCOMPARE(cursorX(panel.chart(ChartsPanel::FootprintTab)), 2.5); // the box around (2, 3]

        // Clicking the bar of step 3 (index 2) selects it.
        panel.setCurrentTab(ChartsPanel::DurationsTab);
        QChartView *view = panel.chartView(ChartsPanel::DurationsTab);
        QTRY_VERIFY(view->isVisible());
        QSignalSpy clicked(&panel, &ChartsPanel::stepClicked);
        const QPointF inChart = durations->mapToPosition(QPointF(2, 5));
        const QPoint inView = view->mapFromScene(durations->mapToScene(inChart));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, inView);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), 2);
        // Outside the plot: nothing.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(clicked.count(), 1);

        panel.setComparison(compareStrategies(loadProject(CONVOFFLOAD_SAMPLES "/paper-example.json"), quick()));
        QVERIFY(panel.comparisonView()->plot());
        QCOMPARE(panel.comparisonView()->plot()->rows().size(), std::size_t(4));
        QVERIFY(!panel.chart(ChartsPanel::CompareTab)); // painted, not a QChart
        panel.setSweep(sweepGroupSizes(p, 1, 4, quick()));
        QVERIFY(!panel.chart(ChartsPanel::SweepTab)->series().isEmpty());

        // Clearing the simulation leaves placeholders, and a step is ignored.
        panel.setSimulation(nullptr, nullptr);
        QVERIFY(panel.chart(ChartsPanel::FootprintTab)->series().isEmpty());
        panel.setCurrentStep(2);
        QCOMPARE(panel.currentStep(), -1);
    }

    void shots()
    {
        const QString out = qEnvironmentVariable("CONVOFFLOAD_CHART_SHOTS");
        if (out.isEmpty())
            QSKIP("set CONVOFFLOAD_CHART_SHOTS=<dir> to write the charts as PNG");
        QVERIFY(QDir().mkpath(out));
        const auto shoot = [&](const QString &prefix, const Project &project, const SimulationResult &r, const QString &strategy,
                               std::int64_t sweepTo, int cursor) {
            const auto rows = compareStrategies(project, quick());
            const auto sweep = sweepGroupSizes(project.problem, 1, sweepTo, quick());
            for (const NamedChart &c : allCharts(project.problem, r, rows, sweep, cursor, strategy)) {
                const QString path = QDir(out).filePath(prefix + QLatin1Char('-') + c.name + QStringLiteral(".png"));
                const ExportResult result = exportFigure(chartPainter(c.chart.get()), QSize(1000, 620), path, c.chart->title());
                QVERIFY2(result.ok, qPrintable(result.error));
            }
            const NamedChart pdf{QString(), std::unique_ptr<QChart>(footprintChart(project.problem, r, cursor, true, strategy))};
            QVERIFY(exportFigure(chartPainter(pdf.chart.get()), QSize(1000, 620),
                QDir(out).filePath(prefix + QStringLiteral("-footprint-action.pdf")), pdf.chart->title(), QString())
                        .ok);
            const NamedChart svg{QString(), std::unique_ptr<QChart>(sweepChart(sweep))};
            QVERIFY(exportFigure(chartPainter(svg.chart.get()), QSize(1000, 620),
                QDir(out).filePath(prefix + QStringLiteral("-sweep.svg")), svg.chart->title(), QStringLiteral("sweep"))
                        .ok);
        };
        const Project paper = loadProject(CONVOFFLOAD_SAMPLES "/paper-example.json");
        shoot(QStringLiteral("paper"), paper, rowByRowG2(paper.problem), QStringLiteral("Row-by-Row"), 9, 1);
        {
            // Invalid and failed strategies in the comparison.
            auto rows = compareStrategies(paper, quick());
            CompareRow cheat = rows[2];
            cheat.name = "Too big";
            cheat.valid = false;
            cheat.total_duration = 90;
            rows.push_back(cheat);
            CompareRow broken;
            broken.name = "Broken";
            broken.failure = "group size 0";
            rows.push_back(broken);
            const ComparisonPlot plot(rows);
            QVERIFY(exportFigure([&](QPainter &painter, const QRectF &target) { plot.paint(painter, target, QFont()); },
                QSize(1000, 620), QDir(out).filePath(QStringLiteral("paper-compare-invalid.png")), plot.title())
                        .ok);
            // The SVG as another program would draw it.
            QSvgRenderer svg(QDir(out).filePath(QStringLiteral("paper-sweep.svg")));
            QVERIFY(svg.isValid());
            QImage image(1000, 620, QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            svg.render(&painter);
            painter.end();
            QVERIFY(image.save(QDir(out).filePath(QStringLiteral("paper-sweep-svg.png"))));
            // The panel as the window shows it.
            const SimulationResult r = rowByRowG2(paper.problem);
            ChartsPanel panel;
            panel.resize(900, 560);
            panel.setSimulation(&paper.problem, &r, QStringLiteral("Row-by-Row"));
            panel.setCurrentStep(1);
            panel.setFootprintPerAction(true);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY(panel.grab().save(QDir(out).filePath(QStringLiteral("paper-panel.png"))));
        }
        const Project lenet = loadProject(CONVOFFLOAD_SAMPLES "/lenet5-conv1.json");
        const StrategySpec *zigzag = lenet.findStrategy("ZigZag");
        QVERIFY(zigzag);
        shoot(QStringLiteral("lenet"), lenet, simulateStrategy(lenet.problem, *zigzag, SimulationOptions{}),
            QStringLiteral("ZigZag"), 32, 40);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
