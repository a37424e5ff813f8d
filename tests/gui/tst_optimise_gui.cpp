// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The optimisers in the application: the Optimise dialog (its run, chart,
// methods, Stop, remembered choices) and its menu entry in the main window,
// the Experiments dialog and its figures (gain and proven heat maps, the
// durations chart), the dialogs' size and keys.

#include "TestImages.h"
#include "TestOptimisers.h"
#include "TestPrinting.h"

#include "convoffload/optimise/Optimiser.h"
#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/Simulator.h"
#include "optimise/DialogSize.h"
#include "optimise/ExperimentCharts.h"
#include "optimise/ExperimentsDialog.h"
#include "optimise/GainHeatMap.h"
#include "optimise/OptimiseDialog.h"
#include "mainwindow/MainWindow.h"
#include "document/ProjectDocument.h"

#include <QAction>
#include <QUndoStack>

#include <QApplication>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <functional>
#include <limits>

using namespace convoffload;

namespace {

/// CONVOFFLOAD_SHOTS=DIR saves what the dialogs look like, to look at them.
void saveShot(QWidget &widget, const char *name)
{
    const QString dir = qEnvironmentVariable("CONVOFFLOAD_SHOTS");
    if (!dir.isEmpty())
        widget.grab().save(dir + QLatin1Char('/') + QLatin1String(name));
}

/// A row of the heat maps: input `size`, G = 2, both heuristics at
/// `heuristic`, the best strategy (one group, enough for the figures) at
/// `duration`, the lower bound at `bound`.
ExperimentRow experimentRow(int size, double heuristic, double duration, double bound)
{
    ExperimentRow row;
    row.input_size = size;
    row.group_size = 2;
    row.row_by_row = row.zigzag = heuristic;
    row.search.groups = {{0}};
    row.search.duration = duration;
    row.lower_bound = bound;
    return row;
}

QPushButton *addButton(const QWidget &dialog)
{
    for (QPushButton *b : dialog.findChildren<QPushButton *>())
        if (b->text() == QLatin1String("&Add to project"))
            return b;
    return nullptr;
}

/// The least duration over every ordered partition of the patches into
/// exactly `groups` groups of at most `groupSize`, each priced by the
/// simulator and kept only if valid and within the reload bound: the
/// optimum the Exact method must prove, found without the optimiser's code.
double simulatedOptimum(const Problem &problem, int groupSize, int groups)
{
    const int patches = int(problem.layer.patchCount());
    std::vector<bool> used(std::size_t(patches), false);
    Groups order;
    double best = std::numeric_limits<double>::infinity();
    SimulationOptions options;
    options.trace = false;
    options.functional = false;
    std::function<void(int)> next = [&](int left) {
        const int groupsLeft = groups - int(order.size());
        if (groupsLeft == 0) {
            if (left > 0)
                return;
            const SimulationResult r = simulate(problem, expandS1(problem, order), options);
            if (r.valid() && r.reload.met())
                best = std::min(best, r.totalDuration());
            return;
        }
        if (left < groupsLeft || left > groupsLeft * groupSize)
            return;
        // The next group: any set of 1..groupSize unused patches, listed once
        // (ascending ids).
        Group group;
        std::function<void(int)> extend = [&](int from) {
            if (!group.empty()) {
                order.push_back(group);
                next(left - int(group.size()));
                order.pop_back();
            }
            if (int(group.size()) == groupSize)
                return;
            for (int p = from; p < patches; ++p)
                if (!used[std::size_t(p)]) {
                    used[std::size_t(p)] = true;
                    group.push_back(p);
                    extend(p + 1);
                    group.pop_back();
                    used[std::size_t(p)] = false;
                }
        };
        extend(0);
    };
    next(patches);
    return best;
}

/// The dialog's label whose text starts with `prefix`, or nullptr.
QLabel *labelStarting(const QWidget &dialog, const QString &prefix)
{
    for (QLabel *label : dialog.findChildren<QLabel *>())
        if (label->text().startsWith(prefix))
            return label;
    return nullptr;
}

/// Picks the method whose entry starts with `prefix` in the dialog's Method
/// box, as the user does.
bool chooseMethod(const QWidget &dialog, const QString &prefix)
{
    for (QComboBox *box : dialog.findChildren<QComboBox *>())
        for (int i = 0; i < box->count(); ++i)
            if (box->itemText(i).startsWith(prefix)) {
                box->setCurrentIndex(i);
                return true;
            }
    return false;
}

} // namespace

class TestOptimiseGui : public QObject {
    Q_OBJECT
private slots:
    // The dialogs' remembered choices live apart from the user's.
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadOptimiseTests")); }

    // While an instance runs, the optimiser's progress comes out with the
    // instance's size and G: in the grid's order, each instance before its
    // row, a best duration never below the one the row ends with, a bound
    // never above the row's.
    void experimentsReportTheInstanceUnderWay()
    {
        ExperimentGrid grid = smallGrid(6, 2, 3);
        grid.method = OptimiseMethod::Exact;
        grid.search_time_limit_s = 30;
        struct Point {
            int size, group;
            OptimiseProgress progress;
        };
        std::vector<Point> points;
        std::vector<std::size_t> pointsBeforeRow;
        const std::vector<ExperimentRow> rows = runPaperExperiments(
            grid, nullptr, [&](const ExperimentRow &, int, int) { pointsBeforeRow.push_back(points.size()); },
            [&](int size, int group, const OptimiseProgress &p) {
                points.push_back({size, group, p});
            });
        QCOMPARE(rows.size(), pointsBeforeRow.size());
        std::size_t from = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const ExperimentRow &r = rows[i];
            QVERIFY2(pointsBeforeRow[i] > from, "no progress while an instance ran");
            for (std::size_t k = from; k < pointsBeforeRow[i]; ++k) {
                const Point &p = points[k];
                QCOMPARE(p.size, r.input_size);
                QCOMPARE(p.group, r.group_size);
                if (p.progress.incumbent)
                    QVERIFY(*p.progress.incumbent >= r.search.duration);
                if (p.progress.bound)
                    QVERIFY(*p.progress.bound <= r.lower_bound);
            }
            from = pointsBeforeRow[i];
        }
        QCOMPARE(points.size(), from); // nothing after the last row
        QCOMPARE(ui::ExperimentsDialog::runningText(3, 81, 9, 2, {12.34, 131.0, 123.0}),
            QStringLiteral("3 of 81 instances done; H=W=9, G=2 running: best 131, bound 123 (12.3 s)"));
        QCOMPARE(ui::ExperimentsDialog::runningText(0, 4, 4, 2, {0.0, std::nullopt, std::nullopt}),
            QStringLiteral("0 of 4 instances done; H=W=4, G=2 running: best none yet, bound – (0.0 s)"));
    }

    // The heat map colours a cell by its gain: white for none, the darkest
    // blue for the largest.
    void gainHeatMapColoursCells()
    {
        QCOMPARE(ui::gainColour(0.0, 0.3), QColor(255, 255, 255));
        QCOMPARE(ui::gainColour(0.3, 0.3), QColor(0, 80, 140));
        QCOMPARE(ui::gainColour(0.6, 0.3), QColor(0, 80, 140));

        const ExperimentRow none = experimentRow(4, 100, 100, 0);
        const ExperimentRow some = experimentRow(5, 100, 80, 0); // gain 20 %
        QImage image(600, 400, QImage::Format_RGB32);
        QPainter painter(&image);
        ui::paintGainHeatMap(painter, QRectF(image.rect()), {none, some});
        painter.end();
        QVERIFY(countColour(image, ui::gainColour(0.2, 0.2)) > 1000);
        QVERIFY(countColour(image, QColor(255, 255, 255)) > 1000);
    }

    // The proven map: the proven fill and a check mark where the best
    // strategy meets its bound, the darkest vermillion for the largest gap
    // (white for none, the ramp's foot); proven() allows
    // for a float bound just under a whole duration (CBC's), no more.
    void provenHeatMapColoursTheGap()
    {
        QCOMPARE(ui::gapColour(0.0, 0.2), QColor(255, 255, 255));
        QCOMPARE(ui::gapColour(0.2, 0.2), QColor(170, 60, 0));
        QCOMPARE(ui::gapColour(0.1, 0.2), QColor(213, 158, 128)); // halfway, rounded

        const ExperimentRow proven = experimentRow(4, 120, 100, 100);
        const ExperimentRow open = experimentRow(5, 120, 100, 80); // gap 20 %
        QVERIFY(proven.proven());
        QVERIFY(!open.proven());
        ExperimentRow almost = proven;
        almost.lower_bound = 99.9999999;
        QVERIFY(almost.proven());
        almost.lower_bound = 99.99;
        QVERIFY(!almost.proven());

        QImage image(600, 400, QImage::Format_RGB32);
        QPainter painter(&image);
        ui::paintExperimentHeatMap(painter, QRectF(image.rect()), {proven, open}, ui::ExperimentHeatMap::Gap);
        painter.end();
        QVERIFY(countColour(image, ui::gapColour(0.2, 0.2)) > 1000); // the open cell
        QVERIFY(countColour(image, ui::provenColour()) > 1000); // the proven one
        QCOMPARE(countColour(image, ui::gainColour(1, 1)), 0); // not the gain map's blue
    }

    // The colour scale ticks every 1, 2 or 5 × 10^k up to a round top: a
    // largest gain of 20 of 120 = 16.7 % reads 0, 5, 10, 15, 20 % (its
    // quarters read 0, 4, 8, 13, 17 %).
    void heatMapScaleHasRoundTicks()
    {
        QBuffer svg;
        svg.open(QIODevice::WriteOnly);
        {
            QSvgGenerator generator;
            generator.setOutputDevice(&svg);
            generator.setSize(QSize(600, 400));
            generator.setViewBox(QRect(0, 0, 600, 400));
            QPainter painter(&generator);
            ui::paintExperimentHeatMap(
                painter, QRectF(0, 0, 600, 400), {experimentRow(5, 120, 100, 80)}, ui::ExperimentHeatMap::Gain);
        }
        QStringList percents;
        const QRegularExpression label(QStringLiteral(">\\s*([0-9.]+ %)\\s*<"));
        for (auto it = label.globalMatch(QString::fromUtf8(svg.data())); it.hasNext();)
            percents << it.next().captured(1);
        QCOMPARE(percents,
            (QStringList{QStringLiteral("0 %"), QStringLiteral("5 %"), QStringLiteral("10 %"), QStringLiteral("15 %"),
                QStringLiteral("20 %")}));
    }

    // An instance Stop cut short (its result is its best so far, and not
    // proven) is hatched in both maps and says so in its tip; a proven
    // instance is its result even when Stop came after the proof.
    void stoppedInstancesAreHatched()
    {
        const ExperimentRow finished = experimentRow(5, 120, 100, 80);
        ExperimentRow stopped = finished;
        stopped.search.cancelled = true;
        ExperimentRow provenThenStopped = experimentRow(5, 120, 100, 100);
        provenThenStopped.search.cancelled = true;
        QVERIFY(!finished.stopped());
        QVERIFY(stopped.stopped());
        QVERIFY(!provenThenStopped.stopped());

        for (const ui::ExperimentHeatMap map : {ui::ExperimentHeatMap::Gain, ui::ExperimentHeatMap::Gap}) {
            // The scale ends on a round percentage: the gain, 20 of 120 =
            // 16.7 %, is 5/6 of a scale to 20 %; the gap (20 of 100) is a
            // scale's round top itself.
            const QColor fill = map == ui::ExperimentHeatMap::Gain ? ui::gainColour(20.0 / 120, 0.20) : ui::gapColour(1, 1);
            QImage plain(600, 400, QImage::Format_RGB32), hatched(600, 400, QImage::Format_RGB32);
            for (auto [image, row] : {std::pair{&plain, finished}, std::pair{&hatched, stopped}}) {
                QPainter painter(image);
                ui::paintExperimentHeatMap(painter, QRectF(image->rect()), {row}, map);
            }
            // The hatch covers a part of the one cell (the rest of the
            // figure is the same).
            const int plainFill = countColour(plain, fill), hatchedFill = countColour(hatched, fill);
            QVERIFY2(plainFill > 10000, qPrintable(QString::number(plainFill)));
            QVERIFY2(hatchedFill < plainFill * 9 / 10 && hatchedFill > plainFill / 3,
                qPrintable(QStringLiteral("%1 of %2").arg(hatchedFill).arg(plainFill)));
            // The hatch's key, under the colour scale, is drawn only when a cell has it.
            int keyPixels = 0;
            for (int y = plain.height() * 85 / 100; y < plain.height(); ++y)
                for (int x = plain.width() * 80 / 100; x < plain.width(); ++x)
                    keyPixels += plain.pixel(x, y) != hatched.pixel(x, y) ? 1 : 0;
            QVERIFY2(keyPixels > 50, qPrintable(QString::number(keyPixels)));
            QVERIFY(ui::experimentCellTip(stopped, map).contains(QStringLiteral("stopped before its end")));
            QVERIFY(!ui::experimentCellTip(finished, map).contains(QStringLiteral("stopped")));
        }
    }

    // The cell found under a point (the tooltips') is the cell painted
    // there: sampled over the whole figure, a point on the open instance is
    // drawn in the gap colour, one on the proven instance in the proven
    // fill (but for their labels), and a point on no cell in neither (but
    // for the key of the proven fill). The tips say what the cell shows.
    void heatMapFindsTheCellUnderAPoint()
    {
        const std::vector<ExperimentRow> rows{experimentRow(4, 120, 100, 100), experimentRow(5, 120, 100, 80)};
        QImage image(600, 400, QImage::Format_RGB32);
        QPainter painter(&image);
        const QFont font = painter.font();
        ui::paintExperimentHeatMap(painter, QRectF(image.rect()), rows, ui::ExperimentHeatMap::Gap);
        painter.end();
        int onProven = 0, onOpen = 0, provenMatch = 0, openMatch = 0, offCells = 0, offButColoured = 0;
        double provenX = 0, openX = 0;
        for (int y = 0; y < image.height(); y += 5)
            for (int x = 0; x < image.width(); x += 5) {
                const QColor colour = image.pixelColor(x, y);
                const ExperimentRow *row = ui::experimentRowAt(rows, QRectF(image.rect()), font, QPointF(x, y));
                if (row == &rows[0]) {
                    ++onProven;
                    provenX += x;
                    provenMatch += colour == ui::provenColour() ? 1 : 0;
                } else if (row == &rows[1]) {
                    ++onOpen;
                    openX += x;
                    openMatch += colour == ui::gapColour(0.2, 0.2) ? 1 : 0;
                } else {
                    ++offCells;
                    offButColoured += colour == ui::provenColour() || colour == ui::gapColour(0.2, 0.2) ? 1 : 0;
                }
            }
        QVERIFY(onProven > 100 && onOpen > 100);
        QVERIFY(provenX / onProven < openX / onOpen); // input size 4 left of 5
        QVERIFY2(provenMatch > onProven * 9 / 10, qPrintable(QStringLiteral("%1 of %2").arg(provenMatch).arg(onProven)));
        QVERIFY2(openMatch > onOpen * 9 / 10, qPrintable(QStringLiteral("%1 of %2").arg(openMatch).arg(onOpen)));
        QVERIFY2(offButColoured < offCells / 50, qPrintable(QString::number(offButColoured)));
        QVERIFY(!ui::experimentRowAt({}, QRectF(image.rect()), font, QPointF(300, 200)));

        QCOMPARE(ui::experimentCellTip(rows[0], ui::ExperimentHeatMap::Gap),
            QStringLiteral("H_in = W_in = 4, G = 2: 100, proven optimal"));
        QCOMPARE(ui::experimentCellTip(rows[1], ui::ExperimentHeatMap::Gap),
            QStringLiteral("H_in = W_in = 5, G = 2: best found 100, lower bound 80, gap 20.0 %"));
        QCOMPARE(ui::experimentCellTip(rows[1], ui::ExperimentHeatMap::Gain),
            QStringLiteral("H_in = W_in = 5, G = 2: best heuristic 120, optimised 100, gain 16.7 %"));
    }

    // One series per strategy, a point per input size of the chosen G, in
    // the rows' values; CBC is left out when it did not run.
    void durationsChartHasTheRowsValues()
    {
        std::vector<ExperimentRow> rows;
        for (int size : {6, 5, 7})
            for (int g : {3, 4}) {
                ExperimentRow r;
                r.input_size = size;
                r.group_size = g;
                r.s1_baseline = 100 * size + g;
                r.row_by_row = 10 * size + g;
                r.zigzag = 10 * size + g + 1;
                r.search.groups = {{0}};
                r.search.duration = 10 * size;
                r.lower_bound = 9 * size;
                rows.push_back(r);
            }
        const std::unique_ptr<QChart> chart(ui::durationsBySizeChart(rows, 4));
        const auto series = chart->series();
        QCOMPARE(series.size(), 5);
        const QStringList expected{QStringLiteral("S1-baseline"), QStringLiteral("Row-by-Row"), QStringLiteral("ZigZag"),
            QStringLiteral("Search"), QStringLiteral("Lower bound")};
        for (int i = 0; i < series.size(); ++i)
            QCOMPARE(series[i]->name(), expected[i]);
        auto points = [&](int i) { return static_cast<QLineSeries *>(series[i])->points(); };
        QCOMPARE(points(0), (QList<QPointF>{{5, 504}, {6, 604}, {7, 704}}));
        QCOMPARE(points(1), (QList<QPointF>{{5, 54}, {6, 64}, {7, 74}}));
        QCOMPARE(points(3), (QList<QPointF>{{5, 50}, {6, 60}, {7, 70}}));
        QCOMPARE(points(4), (QList<QPointF>{{5, 45}, {6, 54}, {7, 63}}));

        // An exact run's series is named after it, not "Search".
        for (ExperimentRow &r : rows)
            r.search.method = "exact";
        const std::unique_ptr<QChart> exact(ui::durationsBySizeChart(rows, 4));
        QCOMPARE(exact->series().at(3)->name(), QStringLiteral("Exact"));
    }

    // The dialog runs the search on a worker thread, draws the incumbent,
    // and hands a valid strategy to the project.
    void optimiseDialogRunsAndAddsTheStrategy()
    {
        const Project project = loadProject(sample("paper-example.json").toStdString());
        ui::OptimiseDialog dialog(project.problem, {QStringLiteral("Optimised")});
        dialog.setTimeLimit(3);
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        QSignalSpy ready(&dialog, &ui::OptimiseDialog::strategyReady);
        dialog.start();
        QVERIFY(dialog.isRunning());
        QVERIFY(finished.wait(20000));
        QVERIFY(!dialog.isRunning());
        QVERIFY(dialog.report() && dialog.report()->result.hasSolution());
        auto *chartView = dialog.findChild<QChartView *>();
        QVERIFY(chartView);
        const auto series = chartView->chart()->series();
        QVERIFY(!series.isEmpty());
        QVERIFY(static_cast<QLineSeries *>(series[0])->count() > 0);
        dialog.resize(700, 720);
        saveShot(dialog, "optimise-dialog.png");

        QPushButton *add = addButton(dialog);
        QVERIFY(add && add->isEnabled());
        add->click();
        QCOMPARE(ready.size(), 1);
        const auto spec = ready[0][0].value<StrategySpec>();
        QCOMPARE(spec.name, std::string("Optimised 2")); // "Optimised" is taken
        bool valid = false;
        QCOMPARE(simulated(project.problem, spec.groups, &valid), dialog.report()->result.duration);
        QVERIFY(valid);
    }

    // The progress chart's ticks are round (time: a step of 1, 2 or 5 ×
    // 10^k; duration: whole cycles) and the dialog keeps its size when a run
    // ends and fills the summary.
    void optimiseDialogKeepsItsSizeAndRoundTicks()
    {
        const Project project = loadProject(sample("paper-example.json").toStdString());
        ui::OptimiseDialog dialog(project.problem, {});
        dialog.setTimeLimit(0.5);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::qWait(50);
        const QSize before = dialog.size();
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(20000));
        QTest::qWait(100); // the layout settles
        QVERIFY(dialog.report() && dialog.report()->result.hasSolution());
        QCOMPARE(dialog.size(), before);

        auto *chartView = dialog.findChild<QChartView *>();
        QVERIFY(chartView);
        const auto round = [](double step) {
            const double decade = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
            const double m = step / decade;
            return std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9;
        };
        for (QAbstractAxis *a : chartView->chart()->axes()) {
            auto *axis = qobject_cast<QValueAxis *>(a);
            QVERIFY(axis);
            QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
            const double step = axis->tickInterval();
            QVERIFY2(round(step), qPrintable(QString::number(step)));
            for (const double end : {axis->min(), axis->max()})
                QVERIFY2(std::abs(end / step - std::round(end / step)) < 1e-9, qPrintable(QString::number(end)));
            if (axis->orientation() == Qt::Vertical) { // durations: integers, drawn as such
                QVERIFY(step >= 1);
                QCOMPARE(axis->labelFormat(), QStringLiteral("%.0f"));
                QVERIFY(axis->min() <= dialog.report()->result.duration && dialog.report()->result.duration <= axis->max());
            }
        }
    }

    // On a small screen the chart is short (about 80 px of plot at
    // 1280×720): the duration axis must not ask for more labels than fit,
    // or Qt hides every other one (0, 40, 60, 100 was seen). Each interval
    // must leave at least one and a half lines of the labels' font, before
    // a run and after it.
    void optimiseDialogDurationLabelsHaveRoom()
    {
        const Project project = loadProject(sample("paper-example.json").toStdString());
        ui::OptimiseDialog dialog(project.problem, {});
        dialog.setTimeLimit(0.5);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.resize(dialog.minimumSizeHint());
        QTest::qWait(100);
        auto *chartView = dialog.findChild<QChartView *>();
        QVERIFY(chartView);
        QValueAxis *durations = nullptr;
        for (QAbstractAxis *a : chartView->chart()->axes(Qt::Vertical))
            durations = qobject_cast<QValueAxis *>(a);
        QVERIFY(durations);
        auto checkRoom = [&] {
            const double plot = chartView->chart()->plotArea().height();
            QVERIFY2(plot < 150, qPrintable(QString::number(plot))); // the case this test is about
            const double intervals = (durations->max() - durations->min()) / durations->tickInterval();
            const double line = QFontMetricsF(durations->labelsFont()).height();
            QVERIFY2(plot / intervals >= 1.5 * line,
                qPrintable(QStringLiteral("%1 intervals in %2 px, labels %3 px").arg(intervals).arg(plot).arg(line)));
        };
        checkRoom();
        if (QTest::currentTestFailed())
            return;
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(20000));
        QTest::qWait(100);
        checkRoom();
    }

    // A problem the optimisers cannot take (one patch does not fit the
    // memory) is said in the dialog, and nothing can be added.
    // Not even one kernel fits beside one patch: 18 kernel + 18 input + 1
    // output elements (C_in = 2, 3x3 windows) need 37.
    void optimiseDialogSaysWhyItCannotOptimise()
    {
        Project project = loadProject(sample("paper-example.json").toStdString());
        project.problem.hardware.mem_size = 30;
        ui::OptimiseDialog dialog(project.problem, {});
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(10000));
        QVERIFY(!dialog.report());
        QLabel *status = nullptr;
        for (QLabel *label : dialog.findChildren<QLabel *>())
            if (label->text().startsWith(QLatin1String("Cannot optimise: ")))
                status = label;
        QVERIFY(status);
        QVERIFY2(status->text().contains(QLatin1String("and not even one kernel does: mem_size = 30 cannot hold one kernel, "
                                                       "one patch's input and its output (37 elements)")),
            qPrintable(status->text()));
        QVERIFY(addButton(dialog) && !addButton(dialog)->isEnabled());
    }

    // The paper's Example with mem_size 40: its two kernels (36 elements)
    // and one patch's input (18) do not fit, so no S1 strategy runs and the
    // dialog streams kernels as `optimize` does. Only B = 1, G = 1 fits (two
    // neighbouring windows take 24 input elements: 18 + 24 + 2 > 40). Worked
    // by hand: kernels outer, the second pass walks the zigzag back, so the
    // input loads are 18 + 8·6 (each move keeps 2x3x2 of 18) and 8·6 more,
    // 114; 36 kernel loads, 18 writes and 18 computes: 186.
    void optimiseDialogStreamsKernelsThatDoNotFit()
    {
        Project project = loadProject(sample("paper-example.json").toStdString());
        project.problem.hardware.mem_size = 40;
        ui::OptimiseDialog dialog(project.problem, {});
        dialog.setTimeLimit(2);
        auto *groupSize = dialog.findChild<QSpinBox *>(QStringLiteral("groupSize"));
        QVERIFY(groupSize && !groupSize->isEnabled());
        QCOMPARE(groupSize->text(), QStringLiteral("chosen with each kernel block"));
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        QSignalSpy ready(&dialog, &ui::OptimiseDialog::strategyReady);
        dialog.start();
        QVERIFY(finished.wait(20000));
        QVERIFY(dialog.report() && dialog.report()->result.hasSolution());
        QVERIFY(dialog.report()->kernel_blocked.has_value());
        QCOMPARE(dialog.report()->result.duration, 186.0);
        QVERIFY(!groupSize->isEnabled());
        QPushButton *add = addButton(dialog);
        QVERIFY(add && add->isEnabled());
        add->click();
        QCOMPARE(ready.size(), 1);
        const auto spec = ready[0][0].value<StrategySpec>();
        SimulationOptions options;
        const SimulationResult r = simulate(project.problem, expandStrategy(project.problem, spec), options);
        QVERIFY(r.valid());
        QCOMPARE(r.totalDuration(), 186.0);
        QCOMPARE(r.loadedInput(), std::int64_t(114));
    }

    // Stop ends a long search promptly and keeps a valid strategy.
    void optimiseDialogStops()
    {
        const Project project = loadProject(sample("lenet5-conv1.json").toStdString());
        ui::OptimiseDialog dialog(project.problem, {});
        dialog.setTimeLimit(600);
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        dialog.start();
        QTest::qWait(300);
        QElapsedTimer timer;
        timer.start();
        dialog.cancel();
        QVERIFY(finished.wait(10000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(dialog.report());
        QVERIFY(dialog.report()->result.cancelled);
    }

    // The dialog recommends Exact where it proves the layer's optimum (up to
    // 64 outputs: the paper's Example has 3\u00d73 = 9), and Search over CBC
    // beyond (LeNet-5 conv1: 28\u00d728 = 784 outputs); its link chooses
    // the method, and then the advice goes.
    void optimiseDialogRecommendsAMethod_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("method"); // the Method entry chosen first
        QTest::addColumn<QString>("recommended"); // empty: no advice
        QTest::newRow("paper example, search")
            << QStringLiteral("paper-example.json") << QStringLiteral("Search") << QStringLiteral("exact");
        QTest::newRow("paper example, ilp") << QStringLiteral("paper-example.json") << QStringLiteral("ILP")
                                            << QStringLiteral("exact");
        QTest::newRow("paper example, exact") << QStringLiteral("paper-example.json") << QStringLiteral("Exact") << QString();
        QTest::newRow("lenet5 conv1, ilp") << QStringLiteral("lenet5-conv1.json") << QStringLiteral("ILP")
                                           << QStringLiteral("search");
        QTest::newRow("lenet5 conv1, search") << QStringLiteral("lenet5-conv1.json") << QStringLiteral("Search") << QString();
    }
    void optimiseDialogRecommendsAMethod()
    {
        QFETCH(QString, file);
        QFETCH(QString, method);
        QFETCH(QString, recommended);
        const Project project = loadProject((QStringLiteral(CONVOFFLOAD_SAMPLES "/") + file).toStdString());
        ui::OptimiseDialog dialog(project.problem, {});
        QVERIFY(chooseMethod(dialog, method));
        auto *advice = dialog.findChild<QLabel *>(QStringLiteral("methodAdvice"));
        QVERIFY(advice);
        if (recommended.isEmpty()) {
            QVERIFY2(advice->isHidden(), qPrintable(advice->text()));
            return;
        }
        QVERIFY(!advice->isHidden());
        const QString link = QStringLiteral("<a href=\"%1\">").arg(recommended);
        QVERIFY2(advice->text().contains(link), qPrintable(advice->text()));
        emit advice->linkActivated(recommended);
        QCOMPARE(optimiseMethodName(dialog.request().method), recommended.toStdString());
        QVERIFY2(advice->isHidden(), qPrintable(advice->text()));
    }

    // CBC on a layer whose model takes longer to write than the time limit:
    // the status names the phase and the time from the click, moving while
    // the optimiser reports nothing; the run ends at the limit, counted from
    // the click, and the one final sentence says the time limit ended it and
    // why CBC did not run.
    void optimiseDialogSaysWhatItIsDoing()
    {
        Problem problem; // 24\u00d724, 3\u00d73 kernel, G = 4: 484 patches, a model of about 70 MB
        problem.layer.c_in = problem.layer.n = 1;
        problem.layer.h_in = problem.layer.w_in = 24;
        problem.layer.h_k = problem.layer.w_k = 3;
        problem.hardware.nbop_pe = 9 * 4;
        problem.hardware.mem_size = 1000;
        problem.hardware.t_w = 0;
        problem.options.kernels_preloaded = true;
        ui::OptimiseDialog dialog(problem, {});
        QVERIFY(chooseMethod(dialog, QStringLiteral("ILP")));
        dialog.setTimeLimit(1);
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        QElapsedTimer clock;
        clock.start();
        dialog.start();
        QLabel *status = labelStarting(dialog, QStringLiteral("Starting"));
        QVERIFY(status);
        QStringList seen;
        while (finished.isEmpty() && clock.elapsed() < 30000) {
            if (dialog.isRunning() && (seen.isEmpty() || seen.back() != status->text()))
                seen << status->text();
            QTest::qWait(20);
        }
        QCOMPARE(finished.size(), 1);
        // The limit, the wait for the model's writer to be killed, slack.
        QVERIFY2(clock.elapsed() < 1000 + 1500, qPrintable(QString::number(clock.elapsed())));
        const QString all = seen.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("Writing the model for CBC (since ")), qPrintable(all));
        // The seconds since the click, as the status showed them.
        QSet<QString> seconds;
        static const QRegularExpression elapsed(QStringLiteral(": (\\d+\\.\\d) s of 1 s"));
        // While the model is written the optimiser reports nothing, and the
        // line still moves.
        for (const QString &line : seen)
            if (const QRegularExpressionMatch m = elapsed.match(line); m.hasMatch() && line.startsWith(QStringLiteral("Writing")))
                seconds.insert(m.captured(1));
        QVERIFY2(seconds.size() >= 2, qPrintable(all));
        const QString end = status->text();
        QVERIFY2(end.startsWith(QStringLiteral("Time limit of 1 s reached after ")), qPrintable(end));
        QVERIFY2(end.contains(QStringLiteral("so CBC did not run")), qPrintable(end));
        QVERIFY2(end.contains(QStringLiteral("Building and writing this layer's model (about ")), qPrintable(end));
        QVERIFY2(!end.contains(QStringLiteral("request")) && !end.contains(QStringLiteral("ancel")), qPrintable(end));
        QVERIFY(dialog.report() && dialog.report()->result.hasSolution()); // the start strategy
    }

    // Exact, chosen in the Method box, on the paper's Example (9 patches,
    // G = 2, K_min = 5): the status says optimal, and the duration is the
    // least the simulator gives over all 113 400 ordered partitions. The
    // strategy added is that one.
    void optimiseDialogExactProvesTheOptimum()
    {
        const Project project = loadProject(sample("paper-example.json").toStdString());
        ui::OptimiseDialog dialog(project.problem, {});
        QVERIFY(chooseMethod(dialog, QStringLiteral("Exact")));
        QCOMPARE(dialog.request().method, OptimiseMethod::Exact);
        QCOMPARE(dialog.request().settings.group_size, 2); // nb_patches_max = 72 / (2·3·3·2)
        dialog.setTimeLimit(60);
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(90000));
        const double optimum = simulatedOptimum(project.problem, 2, 5);
        QVERIFY(std::isfinite(optimum));
        QVERIFY(dialog.report() && dialog.report()->result.hasSolution());
        const OptimiseResult &r = dialog.report()->result;
        QCOMPARE(optimiseStatusName(r.status), optimiseStatusName(OptimiseStatus::Optimal));
        QCOMPARE(r.duration, optimum);
        QCOMPARE(dialog.report()->lower_bound, optimum);
        QLabel *status = labelStarting(dialog, QStringLiteral("Finished: "));
        QVERIFY(status);
        QVERIFY2(status->text().startsWith(QStringLiteral("Finished: optimal in ")), qPrintable(status->text()));
        QVERIFY2(status->text().contains(QStringLiteral(" s. Proven optimal: ")), qPrintable(status->text()));
        QVERIFY(labelStarting(dialog, QStringLiteral("<b>Duration %1</b>").arg(optimum)));
        QSignalSpy ready(&dialog, &ui::OptimiseDialog::strategyReady);
        QVERIFY(addButton(dialog) && addButton(dialog)->isEnabled());
        addButton(dialog)->click();
        QCOMPARE(ready.size(), 1);
        bool valid = false;
        QCOMPARE(simulated(project.problem, ready[0][0].value<StrategySpec>().groups, &valid), optimum);
        QVERIFY(valid);
    }

    // Stop during an Exact run (10×10 input, G = 2: 64 patches, not provable
    // in the time given), in its search (the first quarter of the time) or in
    // its proof, ends it promptly, with the search's valid strategy and no
    // claim of optimality.
    void optimiseDialogStopsExact_data()
    {
        QTest::addColumn<double>("timeLimit");
        QTest::addColumn<int>("stopAfterMs");
        QTest::newRow("in the search") << 600.0 << 1000;
        QTest::newRow("in the proof") << 12.0 << 5000;
    }
    void optimiseDialogStopsExact()
    {
        QFETCH(double, timeLimit);
        QFETCH(int, stopAfterMs);
        Problem problem;
        problem.layer.c_in = problem.layer.n = 1;
        problem.layer.h_in = problem.layer.w_in = 10;
        problem.layer.h_k = problem.layer.w_k = 3;
        problem.hardware.nbop_pe = 9 * 2;
        problem.hardware.mem_size = 1 << 20;
        problem.hardware.t_w = 0;
        problem.options.kernels_preloaded = true;
        ui::OptimiseDialog dialog(problem, {});
        QVERIFY(chooseMethod(dialog, QStringLiteral("Exact")));
        dialog.setTimeLimit(timeLimit);
        QSignalSpy finished(&dialog, &ui::OptimiseDialog::finished);
        dialog.start();
        QVERIFY(dialog.isRunning());
        QTest::qWait(stopAfterMs);
        QVERIFY(dialog.isRunning());
        QElapsedTimer timer;
        timer.start();
        dialog.cancel();
        QVERIFY(finished.wait(10000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!dialog.isRunning());
        QVERIFY(dialog.report());
        const OptimiseResult &r = dialog.report()->result;
        QVERIFY(r.cancelled);
        QVERIFY(r.hasSolution());
        QVERIFY(optimiseStatusName(r.status) != optimiseStatusName(OptimiseStatus::Optimal));
        bool valid = false;
        QCOMPARE(simulated(problem, r.groups, &valid), r.duration);
        QVERIFY(valid);
        // One reason the run ended, said once.
        QLabel *status = labelStarting(dialog, QStringLiteral("Stopped at your request after "));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral(" s: feasible. Not proven: ")), qPrintable(status->text()));
        QVERIFY2(!status->text().contains(QStringLiteral("time limit"), Qt::CaseInsensitive), qPrintable(status->text()));
        QVERIFY(addButton(dialog)->isEnabled());
    }

    // Optimise > Optimise Strategy… in the main window: the result becomes the
    // current strategy through one undoable command.
    void mainWindowAddsTheOptimisedStrategy()
    {
        ui::MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        ui::ProjectDocument *doc = window.document();
        const std::size_t before = doc->project().strategies.size();
        auto *action = window.findChild<QAction *>(QStringLiteral("optimiseAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+O")));
        // Both entries of the Optimise menu have a shortcut of their own.
        auto *experiments = window.findChild<QAction *>(QStringLiteral("experimentsAction"));
        QVERIFY(experiments);
        QCOMPARE(experiments->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+E")));
        for (const QKeySequence &keys : {action->shortcut(), experiments->shortcut()}) {
            int holders = 0;
            for (const QAction *a : window.findChildren<QAction *>())
                holders += a->shortcuts().contains(keys) ? 1 : 0;
            QCOMPARE(holders, 1);
        }
        action->trigger();
        auto *dialog = window.findChild<ui::OptimiseDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->setTimeLimit(3);
        QSignalSpy finished(dialog, &ui::OptimiseDialog::finished);
        dialog->start();
        QVERIFY(finished.wait(20000));
        QVERIFY(addButton(*dialog));
        addButton(*dialog)->click();
        QCOMPARE(doc->project().strategies.size(), before + 1);
        const StrategySpec &added = doc->project().strategies.back();
        QVERIFY(added.kind == StrategyKind::Groups);
        QCOMPARE(doc->currentStrategy(), int(before));
        QVERIFY(doc->isModified());
        doc->undoStack()->undo();
        QCOMPARE(doc->project().strategies.size(), before);
        doc->undoStack()->redo();
        QCOMPARE(doc->project().strategies.back(), added);
    }

    // The Optimise dialog opens with the method, time limit and CBC start
    // of the last one closed, in this session and the next (QSettings); a
    // saved value the dialog does not offer is left at its default.
    void optimiseDialogRemembersItsChoices()
    {
        QSettings().remove(QStringLiteral("optimise"));
        ui::MainWindow window;
        QVERIFY(window.openFile(sample("paper-example.json")));
        auto *action = window.findChild<QAction *>(QStringLiteral("optimiseAction"));
        QVERIFY(action);
        action->trigger();
        auto *dialog = window.findChild<ui::OptimiseDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->choices().method, OptimiseMethod::Search); // the defaults
        QCOMPARE(dialog->choices().time_limit_s, 10.0);
        dialog->setChoices({OptimiseMethod::Ilp, 3.5, true});
        dialog->close(); // Close, as the user does
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(!window.findChild<ui::OptimiseDialog *>());
        action->trigger();
        dialog = window.findChild<ui::OptimiseDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->choices().method, OptimiseMethod::Ilp);
        QCOMPARE(dialog->choices().time_limit_s, 3.5);
        QVERIFY(dialog->choices().ilp_start_from_search);
        QCOMPARE(dialog->request().method, OptimiseMethod::Ilp);
        dialog->close(); // Close, as the user does

        QSettings settings;
        settings.setValue(QStringLiteral("optimise/method"), QStringLiteral("annealing"));
        settings.setValue(QStringLiteral("optimise/timeLimit"), QStringLiteral("-4"));
        settings.sync();
        const ui::OptimiseDialog::Choices garbage = ui::OptimiseDialog::savedChoices();
        QCOMPARE(garbage.method, OptimiseMethod::Search);
        QCOMPARE(garbage.time_limit_s, 10.0);
        settings.setValue(QStringLiteral("optimise/timeLimit"), QStringLiteral("1e9")); // past the box's day
        settings.sync();
        const Project project = loadProject(sample("paper-example.json").toStdString());
        ui::OptimiseDialog fresh(project.problem, {});
        fresh.setChoices(ui::OptimiseDialog::savedChoices());
        QCOMPARE(fresh.timeLimit(), 24 * 3600.0);
        QSettings().remove(QStringLiteral("optimise"));
    }

    // Choosing Exact on a layer beyond its proofs says so under the method
    // at once, not at the end of the run; on a small layer nothing is said.
    void optimiseDialogSaysWhatExactCannotProve_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("note"); // empty: none shown
        QTest::newRow("paper example, 9 outputs") << QStringLiteral("paper-example.json") << QString();
        QTest::newRow("LeNet-5 conv1, 784 outputs")
            << QStringLiteral("lenet5-conv1.json") << QStringLiteral("784 outputs and 1024 needed pixels");
    }

    void optimiseDialogSaysWhatExactCannotProve()
    {
        QFETCH(QString, file);
        QFETCH(QString, note);
        const Project project = loadProject(sample(file.toUtf8().constData()).toStdString());
        ui::OptimiseDialog dialog(project.problem, {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *label = dialog.findChild<QLabel *>(QStringLiteral("exactReach"));
        QVERIFY(label);
        QVERIFY(!label->isVisible()); // the search: nothing to say
        dialog.setMethod(OptimiseMethod::Exact);
        QCOMPARE(label->isVisible(), !note.isEmpty());
        if (!note.isEmpty()) {
            QVERIFY2(label->text().contains(note), qPrintable(label->text()));
            QVERIFY2(label->text().contains(QStringLiteral("cannot prove optimality")), qPrintable(label->text()));
        }
        dialog.setMethod(OptimiseMethod::Search);
        QVERIFY(!label->isVisible());
    }

    // Dialogs open at their preferred size where it fits, grow with a large
    // screen, and never pass a small one's available area less the frame
    // (16 × 40 px).
    void dialogsFitTheScreen_data()
    {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QSize>("expected");
        // The Experiments dialog: at least 1100 × 700, 60 % × 70 % of the screen.
        QTest::newRow("1280x720, a 30 px panel") << QRect(0, 0, 1280, 690) << QSize(1100, 650);
        QTest::newRow("2560x1440") << QRect(0, 0, 2560, 1440) << QSize(1536, 1008);
        QTest::newRow("800x600") << QRect(0, 0, 800, 600) << QSize(784, 560);
    }

    void dialogsFitTheScreen()
    {
        QFETCH(QRect, available);
        QFETCH(QSize, expected);
        QCOMPARE(ui::dialogSizeFor(available, QSize(1100, 700), 0.6, 0.7), expected);
    }

    // The Method box reaches the grid, and an exact run reports exact rows:
    // on 4×4 and 5×5 with G = 2 (4 and 9 patches) it proves both, which the
    // Gap column marks.
    void experimentsDialogRunsExact()
    {
        ui::ExperimentsDialog dialog;
        ExperimentGrid grid = smallGrid(5, 2, 10);
        grid.method = OptimiseMethod::Exact;
        dialog.setGrid(grid);
        QCOMPARE(dialog.grid().method, OptimiseMethod::Exact);
        grid.method = OptimiseMethod::Search;
        dialog.setGrid(grid);
        QCOMPARE(dialog.grid().method, OptimiseMethod::Search);
        auto *method = dialog.findChild<QComboBox *>();
        QVERIFY(method);
        method->setCurrentIndex(method->findText(QStringLiteral("Exact (search, then the proof)")));
        QCOMPARE(dialog.grid().method, OptimiseMethod::Exact);
        QSignalSpy finished(&dialog, &ui::ExperimentsDialog::finished);
        dialog.start();
        QVERIFY(!method->isEnabled());
        QVERIFY(finished.wait(60000));
        QCoreApplication::processEvents();
        QCOMPARE(dialog.rows().size(), std::size_t(2));
        auto *table = dialog.findChild<QTableWidget *>();
        // The strategies' column is named after the run's method.
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QStringLiteral("Exact"));
        // The duration chart moved from the paper's G = 4 to the run's only G, 2,
        // and names the run's series after its method.
        QSpinBox *durationsG = nullptr;
        for (QSpinBox *box : dialog.findChildren<QSpinBox *>())
            if (box->toolTip().startsWith(QStringLiteral("Group size G of the duration chart")))
                durationsG = box;
        QVERIFY(durationsG);
        QCOMPARE(durationsG->value(), 2);
        auto *durations = dialog.findChild<QChartView *>();
        QVERIFY(durations && durations->chart());
        QStringList names;
        for (QAbstractSeries *series : durations->chart()->series())
            names << series->name();
        QVERIFY2(names.contains(QStringLiteral("Exact")) && !names.contains(QStringLiteral("Search")),
            qPrintable(names.join(QStringLiteral(", "))));
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(QString::fromStdString(dialog.rows()[std::size_t(r)].search.method), QStringLiteral("exact"));
            QCOMPARE(table->item(r, 8)->text(), QStringLiteral("✓"));
        }
        QVERIFY(method->isEnabled());
        // A search run after it renames the column back.
        method->setCurrentIndex(method->findText(QStringLiteral("Search")));
        dialog.start();
        QVERIFY(finished.wait(60000));
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QStringLiteral("Search"));
    }

    // Both dialogs start from the keyboard by their Run button's mnemonic
    // and by Ctrl+Return (a button shortcut for Ctrl+Return had replaced the
    // mnemonic: Alt+R and Alt+O did nothing).
    void dialogsRunFromTheKeyboard()
    {
        // Shows `dialog`, presses Alt+`letter`, then Ctrl+Return: each must run
        // it to `finished`.
        auto runsFromTheKeyboard = [](auto &dialog, auto finished, Qt::Key letter) {
            dialog.show();
            QSignalSpy ran(&dialog, finished);
            const bool ok = QTest::qWaitForWindowActive(&dialog)
                && (QTest::keyClick(&dialog, letter, Qt::AltModifier), ran.wait(20000))
                && (QTest::keyClick(&dialog, Qt::Key_Return, Qt::ControlModifier), ran.wait(20000)) && ran.size() == 2;
            dialog.hide();
            return ok;
        };
        ui::ExperimentsDialog experiments;
        experiments.setGrid(smallGrid(4, 2, 1)); // one instance
        QVERIFY(runsFromTheKeyboard(experiments, &ui::ExperimentsDialog::finished, Qt::Key_R));

        const Project project = loadProject(sample("paper-example.json").toStdString());
        ui::OptimiseDialog optimise(project.problem, {});
        optimise.setTimeLimit(0.5);
        QVERIFY(runsFromTheKeyboard(optimise, &ui::OptimiseDialog::finished, Qt::Key_O));
    }

    // The ends of a range never cross: moving one past the other takes the
    // other along, so the fields show the range that runs (before, 9 … 5
    // stayed on show and ran as 5..9). Changed settings after a run say the
    // results on show are the last run's.
    void experimentsDialogRangesNeverCross()
    {
        ui::ExperimentsDialog dialog;
        dialog.setGrid(smallGrid(5, 3, 2));
        QSpinBox *sizeFrom = nullptr, *sizeTo = nullptr, *groupFrom = nullptr, *groupTo = nullptr;
        for (QSpinBox *box : dialog.findChildren<QSpinBox *>()) {
            const QString tip = box->toolTip();
            (tip == QStringLiteral("Smallest input H_in = W_in")         ? sizeFrom
                    : tip == QStringLiteral("Largest input H_in = W_in") ? sizeTo
                    : tip == QStringLiteral("Smallest group size G")     ? groupFrom
                    : tip == QStringLiteral("Largest group size G")      ? groupTo
                                                                         : box)
                = box;
        }
        QVERIFY(sizeFrom && sizeTo && groupFrom && groupTo);
        sizeFrom->setValue(9); // past 5: the end follows
        QCOMPARE(sizeTo->value(), 9);
        sizeTo->setValue(6); // below 9: the start follows
        QCOMPARE(sizeFrom->value(), 6);
        QCOMPARE(sizeTo->value(), 6);
        groupTo->setValue(1);
        QCOMPARE(groupFrom->value(), 1);
        groupFrom->setValue(7);
        QCOMPARE(groupTo->value(), 7);
        const ExperimentGrid grid = dialog.grid();
        QCOMPARE(grid.size_from, 6);
        QCOMPARE(grid.size_to, 6);
        QCOMPARE(grid.group_from, 7);
        QCOMPARE(grid.group_to, 7);
        // setGrid reaches any range from any other, whichever end moves first.
        for (const auto &[from, to] : {std::pair{10, 12}, std::pair{3, 4}, std::pair{8, 8}}) {
            ExperimentGrid g = smallGrid(to, 3, 2);
            g.size_from = from;
            dialog.setGrid(g);
            QCOMPARE(sizeFrom->value(), from);
            QCOMPARE(sizeTo->value(), to);
        }

        dialog.setGrid(smallGrid(4, 2, 1));
        QSignalSpy finished(&dialog, &ui::ExperimentsDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(60000));
        QCoreApplication::processEvents();
        QLabel *status = nullptr;
        for (QLabel *label : dialog.findChildren<QLabel *>())
            if (label->text().startsWith(QStringLiteral("Done")))
                status = label;
        QVERIFY(status);
        sizeTo->setValue(5);
        QVERIFY2(status->text().contains(QStringLiteral("the results shown are the last run's (H=W 4…4, G 2…2")),
            qPrintable(status->text()));
    }

    // Stop during an instance, in the dialog: its row is shown greyed with
    // its best so far, the bar does not count it as done, and the status
    // says it stopped before its end.
    void experimentsDialogShowsTheStoppedInstance()
    {
        ui::ExperimentsDialog dialog;
        ExperimentGrid grid = smallGrid(9, 2, 60);
        grid.size_from = 9; // 9×9, G = 2: the exact method takes minutes
        grid.method = OptimiseMethod::Exact;
        dialog.setGrid(grid);
        QSignalSpy finished(&dialog, &ui::ExperimentsDialog::finished);
        dialog.start();
        QTest::qWait(500);
        dialog.cancel();
        QVERIFY(finished.wait(10000));
        QCoreApplication::processEvents();
        QCOMPARE(dialog.rows().size(), std::size_t(1));
        QVERIFY(dialog.rows().front().stopped());
        auto *bar = dialog.findChild<QProgressBar *>();
        QVERIFY(bar);
        QCOMPARE(bar->value(), 0);
        QCOMPARE(bar->maximum(), 1);
        bool said = false;
        for (QLabel *label : dialog.findChildren<QLabel *>())
            said = said || label->text().contains(QStringLiteral("the last one stopped before its end"));
        QVERIFY(said);
        auto *table = dialog.findChild<QTableWidget *>();
        QVERIFY(table && table->rowCount() == 1);
        QVERIFY(table->item(0, 0)->toolTip().startsWith(QStringLiteral("Stopped before the end")));
    }

    void experimentsDialogFillsTheHeatMap()
    {
        ui::ExperimentsDialog dialog;
        dialog.setGrid(smallGrid(5, 3, 2));
        QSignalSpy finished(&dialog, &ui::ExperimentsDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(60000));
        QCoreApplication::processEvents(); // the last queued row
        QCOMPARE(dialog.rows().size(), std::size_t(4));
        auto *table = dialog.findChild<QTableWidget *>();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("4"));
        // 4×4, G = 2: two pairs of rows load the 16 pixels once in 2 groups,
        // 18 = the pixel bound, so the Gap column marks it proven.
        QCOMPARE(table->horizontalHeaderItem(8)->text(), QStringLiteral("Gap"));
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QStringLiteral("Search"));
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("18"));
        QCOMPARE(table->item(0, 8)->text(), QStringLiteral("✓"));
        // The durations tab draws the paper's G = 4 by default: not among
        // these rows (G = 2..3), so the run moved it to the nearest, 3,
        // which has series; G = 2 has one point per input size.
        auto *chartView = dialog.findChild<QChartView *>();
        QVERIFY(chartView);
        QVERIFY(!chartView->chart()->series().isEmpty());
        const auto spins = dialog.findChildren<QSpinBox *>();
        QSpinBox *durationsGroup = nullptr;
        for (QSpinBox *spin : spins)
            if (spin->toolTip().startsWith(QLatin1String("Group size G of the duration chart")))
                durationsGroup = spin;
        QVERIFY(durationsGroup);
        QCOMPARE(durationsGroup->value(), 3);
        durationsGroup->setValue(2);
        QVERIFY(!chartView->chart()->series().isEmpty());
        QCOMPARE(static_cast<QLineSeries *>(chartView->chart()->series()[0])->count(), 2);
        auto *tabs = dialog.findChild<QTabWidget *>();
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(2), QStringLiteral("&Proven"));
        tabs->setCurrentIndex(2);
        saveShot(dialog, "experiments-proven.png");
        tabs->setCurrentIndex(1);
        saveShot(dialog, "experiments-durations.png");
        saveShot(dialog, "experiments-dialog.png");
    }
};

QTEST_MAIN(TestOptimiseGui)
#include "tst_optimise_gui.moc"
