// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "optimise/ExperimentsDialog.h"

#include "export/FigureExport.h"
#include "optimise/DialogSize.h"
#include "optimise/ExperimentCharts.h"
#include "optimise/GainHeatMap.h"

#include "convoffload/io/OutOfMemory.h"

#include <QChart>
#include <QChartView>
#include <QTabWidget>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace convoffload::ui {

namespace {

/// The table's columns, in order (addRow fills them in this order).
enum Column {
    SizeColumn,
    GroupColumn,
    RowByRowColumn,
    ZigZagColumn,
    MethodColumn,
    IlpColumn,
    IlpStatusColumn,
    BoundColumn,
    GapColumn,
    GainColumn,
    ColumnCount
};

QSpinBox *spin(int low, int high, int value, const QString &tip)
{
    auto *box = new QSpinBox;
    box->setRange(low, high);
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

QString cell(double value) { return QString::number(value, 'f', 0); }

} // namespace

ExperimentsDialog::ExperimentsDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Paper experiments — gain of optimised strategies"));
    const ExperimentGrid defaults;
    m_sizeFrom = spin(3, 64, defaults.size_from, tr("Smallest input H_in = W_in"));
    m_sizeTo = spin(3, 64, defaults.size_to, tr("Largest input H_in = W_in"));
    m_groupFrom = spin(1, 64, defaults.group_from, tr("Smallest group size G"));
    m_groupTo = spin(1, 64, defaults.group_to, tr("Largest group size G"));
    m_searchLimit = new QDoubleSpinBox;
    m_searchLimit->setRange(0.1, 3600);
    m_searchLimit->setValue(2);
    m_searchLimit->setSuffix(tr(" s"));
    m_searchLimit->setToolTip(tr("Time limit per instance: the search's, or with Exact the search and the proof together."));
    m_method = new QComboBox;
    m_method->addItem(tr("Search"), int(OptimiseMethod::Search));
    m_method->addItem(tr("Exact (search, then the proof)"), int(OptimiseMethod::Exact));
    m_method->setToolTip(tr("Exact spends the whole time limit on each instance it cannot prove sooner and "
                            "proves more of them (69 of the 81 of the paper's grid with 60 s; see the Proven tab)."));
    m_runIlp = new QCheckBox(tr("also solve the ILP with CBC, limit"));
    m_runIlp->setToolTip(tr("CBC proves optima only on the smallest inputs; it runs in a separate process."));
    m_ilpLimit = new QDoubleSpinBox;
    m_ilpLimit->setRange(0.1, 3600);
    m_ilpLimit->setValue(10);
    m_ilpLimit->setSuffix(tr(" s"));
    m_ilpLimit->setEnabled(false);
    connect(m_runIlp, &QCheckBox::toggled, m_ilpLimit, &QWidget::setEnabled);

    // A range's ends never cross: moving one past the other takes the other
    // along, so the fields always show the range that runs.
    const auto range = [this](QSpinBox *from, QSpinBox *to) {
        connect(from, &QSpinBox::valueChanged, to, [to](int v) { to->setValue(std::max(v, to->value())); });
        connect(to, &QSpinBox::valueChanged, from, [from](int v) { from->setValue(std::min(v, from->value())); });
        auto *row = new QHBoxLayout;
        row->addWidget(from);
        row->addWidget(new QLabel(QStringLiteral("…")));
        row->addWidget(to);
        row->addStretch();
        return row;
    };
    auto *sizes = range(m_sizeFrom, m_sizeTo);
    auto *groups = range(m_groupFrom, m_groupTo);
    auto *ilp = new QHBoxLayout;
    ilp->addWidget(m_runIlp);
    ilp->addWidget(m_ilpLimit);
    ilp->addStretch();
    auto *form = new QFormLayout;
    form->addRow(tr("Input sizes:"), sizes);
    form->addRow(tr("Group sizes G:"), groups);
    form->addRow(tr("Method:"), m_method);
    form->addRow(tr("Time limit:"), m_searchLimit);
    form->addRow(QString(), ilp);

    m_table = new QTableWidget(0, ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("H=W"), tr("G"), tr("Row-by-Row"), tr("ZigZag"), tr("Search"), tr("CBC"),
        tr("CBC status"), tr("Lower bound"), tr("Gap"), tr("Gain")});
    m_table->horizontalHeaderItem(MethodColumn)
        ->setToolTip(tr("The best strategy of the run's method: the search's, or with Exact the search's and the proof's"));
    m_table->horizontalHeaderItem(GapColumn)->setToolTip(
        tr("How far the best strategy found is above the lower bound; ✓ when it meets it (proven optimal)"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_heatMap = new GainHeatMapWidget(ExperimentHeatMap::Gain);
    m_gapMap = new GainHeatMapWidget(ExperimentHeatMap::Gap);
    m_gapMap->setToolTip(tr("✓ where the best strategy found meets its lower bound (proven optimal); elsewhere the "
                            "gap to the bound, in percent"));
    m_durations = new QChartView;
    m_durations->setRenderHint(QPainter::Antialiasing);
    m_durationsGroup = spin(1, 64, 4, tr("Group size G of the duration chart (the paper shows G = 4)"));
    connect(m_durationsGroup, &QSpinBox::valueChanged, this, &ExperimentsDialog::updateDurationChart);
    auto *durationsPage = new QWidget;
    auto *durationsLayout = new QVBoxLayout(durationsPage);
    auto *durationsBar = new QHBoxLayout;
    durationsBar->addWidget(new QLabel(tr("Group size G:")));
    durationsBar->addWidget(m_durationsGroup);
    durationsBar->addStretch();
    durationsLayout->addLayout(durationsBar);
    durationsLayout->addWidget(m_durations, 1);
    m_views = new QTabWidget;
    m_views->addTab(m_heatMap, tr("&Gain"));
    m_views->addTab(durationsPage, tr("&Durations"));
    m_views->addTab(m_gapMap, tr("&Proven"));
    auto *split = new QSplitter;
    split->addWidget(m_views);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({620, 460}); // the table's first columns readable at 1100 px (it opened at 225)

    m_progress = new QProgressBar;
    m_status = new QLabel(tr("Durations Σ|I_slice| + n, exactly K_min groups, 3×3 kernel, stride 1 (the paper's setup)."));
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox;
    m_run = buttons->addButton(tr("&Run"), QDialogButtonBox::ActionRole);
    m_run->setToolTip(tr("Run every instance of the grid (Ctrl+Return or Alt+R)."));
    // A shortcut of its own: QAbstractButton::setShortcut would replace the
    // Alt+R of the label's mnemonic. click() does nothing while disabled.
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, m_run, &QPushButton::click);
    m_stop = buttons->addButton(tr("&Stop"), QDialogButtonBox::ActionRole);
    m_stop->setToolTip(tr("Stop after the current instance; the finished ones stay."));
    m_exportFigure = buttons->addButton(tr("Export &figure…"), QDialogButtonBox::ActionRole);
    m_exportFigure->setToolTip(tr("Save the figure of the tab on show (gain, durations or proven) as PNG, SVG or PDF."));
    m_exportTable = buttons->addButton(tr("Export &table…"), QDialogButtonBox::ActionRole);
    m_exportTable->setToolTip(tr("Save every instance's figures as CSV."));
    buttons->addButton(QDialogButtonBox::Close);
    connect(m_run, &QPushButton::clicked, this, &ExperimentsDialog::start);
    connect(m_stop, &QPushButton::clicked, this, &ExperimentsDialog::cancel);
    connect(m_exportFigure, &QPushButton::clicked, this, &ExperimentsDialog::exportFigure);
    connect(m_exportTable, &QPushButton::clicked, this, &ExperimentsDialog::exportTable);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExperimentsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    // 1100 × 700 where it fits (its figures and table side by side), more of
    // a large screen, and never past a small one (720 px less a panel).
    fitDialogToScreen(this, QSize(1100, 700), 0.6, 0.7);
    setRunning(false);
    for (QSpinBox *box : {m_sizeFrom, m_sizeTo, m_groupFrom, m_groupTo})
        connect(box, &QSpinBox::valueChanged, this, &ExperimentsDialog::markStale);
    for (QDoubleSpinBox *box : {m_searchLimit, m_ilpLimit})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ExperimentsDialog::markStale);
    connect(m_method, &QComboBox::currentIndexChanged, this, &ExperimentsDialog::markStale);
    connect(m_runIlp, &QCheckBox::toggled, this, &ExperimentsDialog::markStale);

    m_job.setObjectName(QStringLiteral("experiments"));
    m_job.setProgressHandler([this](const Instance &i) {
        if (i.running)
            m_status->setText(runningText(i.done, i.total, i.running->input_size, i.running->group_size, i.running->progress));
        else
            addRow(i.row, i.done, i.total);
    });
    m_job.setFinishedHandler([this](const QString &error) {
        setRunning(false);
        if (!error.isEmpty())
            m_status->setText(tr("Failed: %1").arg(error));
        else if (m_job.isCancelled() && !rows().empty() && rows().back().stopped()) {
            m_progress->setValue(int(rows().size()) - 1); // it is on show, but not done
            m_status->setText(
                tr("Stopped: %1 instances, the last one stopped before its end (hatched: its best so far).").arg(rows().size()));
        } else if (m_job.isCancelled())
            m_status->setText(tr("Stopped: %1 instances done.").arg(rows().size()));
        else
            m_status->setText(tr("Done: %1 instances.").arg(rows().size()));
        emit finished();
    });
}

// The job's destructor stops the run and waits for the instance under way.
ExperimentsDialog::~ExperimentsDialog() = default;

ExperimentGrid ExperimentsDialog::grid() const
{
    ExperimentGrid grid;
    grid.size_from = std::min(m_sizeFrom->value(), m_sizeTo->value());
    grid.size_to = std::max(m_sizeFrom->value(), m_sizeTo->value());
    grid.group_from = std::min(m_groupFrom->value(), m_groupTo->value());
    grid.group_to = std::max(m_groupFrom->value(), m_groupTo->value());
    grid.search_time_limit_s = m_searchLimit->value();
    grid.method = OptimiseMethod(m_method->currentData().toInt());
    grid.ilp_time_limit_s = m_runIlp->isChecked() ? m_ilpLimit->value() : 0;
    return grid;
}

void ExperimentsDialog::setGrid(const ExperimentGrid &grid)
{
    m_sizeFrom->setValue(grid.size_from);
    m_sizeTo->setValue(grid.size_to);
    m_groupFrom->setValue(grid.group_from);
    m_groupTo->setValue(grid.group_to);
    m_searchLimit->setValue(grid.search_time_limit_s);
    m_method->setCurrentIndex(std::max(0, m_method->findData(int(grid.method))));
    m_runIlp->setChecked(grid.ilp_time_limit_s > 0);
    if (grid.ilp_time_limit_s > 0)
        m_ilpLimit->setValue(grid.ilp_time_limit_s);
}

void ExperimentsDialog::start()
{
    if (isRunning())
        return;
    m_table->setRowCount(0);
    m_heatMap->setRows({});
    m_gapMap->setRows({});
    const ExperimentGrid g = grid();
    m_ranGrid = g;
    // The duration chart shows a group size of the run (the paper's 4 when it is one).
    if (m_durationsGroup->value() < g.group_from || m_durationsGroup->value() > g.group_to) {
        const QSignalBlocker quiet(m_durationsGroup); // drawn once, below
        m_durationsGroup->setValue(std::clamp(4, g.group_from, g.group_to));
    }
    updateDurationChart();
    // The column holds the run's method's strategy, named after it.
    m_table->horizontalHeaderItem(MethodColumn)->setText(g.method == OptimiseMethod::Exact ? tr("Exact") : tr("Search"));
    const int total = (g.size_to - g.size_from + 1) * (g.group_to - g.group_from + 1);
    m_progress->setRange(0, total);
    m_progress->setValue(0);
    m_job.start([g, total](const JobControl<Instance> &control) {
        try {
            int done = 0;
            double lastShown = -1; // seconds into the instance of the last report shown
            runPaperExperiments(
                g, control.cancelFlag(),
                [&](const ExperimentRow &row, int doneSoFar, int totalCount) {
                    done = doneSoFar;
                    lastShown = -1;
                    control.report({row, doneSoFar, totalCount, std::nullopt});
                },
                [&](int size, int group, const OptimiseProgress &p) {
                    // A few times a second is enough for a status line (the
                    // clock restarts when CBC follows the search).
                    if (lastShown >= 0 && p.seconds >= lastShown && p.seconds - lastShown < 0.25)
                        return;
                    lastShown = p.seconds;
                    control.report({ExperimentRow{}, done, total, Running{size, group, p}});
                });
        } catch (const std::exception &e) {
            return QString::fromStdString(errorMessage(e, "running the paper's experiments"));
        }
        return QString();
    });
    m_status->setText(tr("Running…"));
    setRunning(true);
}

void ExperimentsDialog::addRow(const ExperimentRow &row, int done, int total)
{
    std::vector<ExperimentRow> rows = m_heatMap->rows();
    rows.push_back(row);
    m_gapMap->setRows(rows);
    m_heatMap->setRows(std::move(rows));
    updateDurationChart();
    const int r = m_table->rowCount();
    m_table->insertRow(r);
    const QStringList values{QString::number(row.input_size), QString::number(row.group_size), cell(row.row_by_row),
        cell(row.zigzag), row.search.hasSolution() ? cell(row.search.duration) : QStringLiteral("–"),
        row.ilp && row.ilp->hasSolution() ? cell(row.ilp->duration) : QStringLiteral("–"),
        row.ilp ? QString::fromStdString(optimiseStatusName(row.ilp->status)) : tr("not run"), cell(row.lower_bound),
        row.proven() ? QStringLiteral("✓") : QString::number(100 * row.gap(), 'f', 1) + QStringLiteral(" %"),
        QString::number(100 * row.gain(), 'f', 1) + QStringLiteral(" %")};
    Q_ASSERT(values.size() == ColumnCount);
    for (int c = 0; c < values.size(); ++c) {
        auto *item = new QTableWidgetItem(values[c]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (row.stopped()) {
            item->setToolTip(tr("Stopped before the end of its time limit: its best strategy and bound so far"));
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        }
        m_table->setItem(r, c, item);
    }
    m_progress->setValue(done);
    m_status->setText(tr("%1 of %2 instances (H=W=%3, G=%4)").arg(done).arg(total).arg(row.input_size).arg(row.group_size));
}

QString ExperimentsDialog::runningText(int done, int total, int inputSize, int groupSize, const OptimiseProgress &progress)
{
    const QString best = progress.incumbent ? cell(*progress.incumbent) : tr("none yet");
    const QString bound = progress.bound ? cell(*progress.bound) : QStringLiteral("–");
    return tr("%1 of %2 instances done; H=W=%3, G=%4 running: best %5, bound %6 (%7 s)")
        .arg(done)
        .arg(total)
        .arg(inputSize)
        .arg(groupSize)
        .arg(best, bound)
        .arg(progress.seconds, 0, 'f', 1);
}

void ExperimentsDialog::updateDurationChart()
{
    QChart *old = m_durations->chart();
    m_durations->setChart(durationsBySizeChart(rows(), m_durationsGroup->value()));
    delete old;
}

void ExperimentsDialog::markStale()
{
    if (isRunning() || rows().empty() || !m_ranGrid)
        return;
    const ExperimentGrid &g = *m_ranGrid;
    m_status->setText(tr("The settings changed: the results shown are the last run's (H=W %1…%2, G %3…%4, %5 s). "
                         "Run to see the new ones.")
                          .arg(g.size_from)
                          .arg(g.size_to)
                          .arg(g.group_from)
                          .arg(g.group_to)
                          .arg(g.search_time_limit_s));
}

void ExperimentsDialog::cancel() { m_job.cancel(); }

void ExperimentsDialog::reject()
{
    if (isRunning()) {
        cancel();
        m_job.waitForWorker();
    }
    QDialog::reject();
}

void ExperimentsDialog::setRunning(bool running)
{
    for (QWidget *w :
        std::initializer_list<QWidget *>{m_sizeFrom, m_sizeTo, m_groupFrom, m_groupTo, m_method, m_searchLimit, m_runIlp})
        w->setEnabled(!running);
    m_ilpLimit->setEnabled(!running && m_runIlp->isChecked());
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    m_exportFigure->setEnabled(!running && !rows().empty());
    m_exportTable->setEnabled(!running && !rows().empty());
}

void ExperimentsDialog::exportFigure()
{
    // The figure of the tab on show: a heat map or the durations.
    auto *heatMap = qobject_cast<GainHeatMapWidget *>(m_views->currentWidget());
    const bool gap = heatMap && heatMap->map() == ExperimentHeatMap::Gap;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export figure"),
        !heatMap ? QStringLiteral("durations-g%1.svg").arg(m_durationsGroup->value())
                 : (gap ? QStringLiteral("proven.svg") : QStringLiteral("gain.svg")),
        tr("Figures (*.svg *.png *.pdf)"));
    if (path.isEmpty())
        return;
    const std::vector<ExperimentRow> data = rows();
    const ExperimentHeatMap map = gap ? ExperimentHeatMap::Gap : ExperimentHeatMap::Gain;
    const ExportResult result = !heatMap
        ? ui::exportFigure(chartPainter(m_durations->chart()), QSize(900, 560), path, m_durations->chart()->title())
        : ui::exportFigure(
            [data, map](QPainter &painter, const QRectF &target) { paintExperimentHeatMap(painter, target, data, map); },
            QSize(900, 640), path, gap ? tr("Proven optimal and gap to the lower bound") : tr("Gain over the best heuristic"));
    if (!result)
        QMessageBox::warning(this, tr("Export failed"), result.error);
}

void ExperimentsDialog::exportTable()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Export table"), QStringLiteral("experiments.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const ExportResult result = exportText(QString::fromStdString(experimentsToCsv(rows())), path);
    if (!result)
        QMessageBox::warning(this, tr("Export failed"), result.error);
}

} // namespace convoffload::ui
