// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "optimise/OptimiseDialog.h"

#include "charts/NiceScale.h"
#include "optimise/DialogSize.h"
#include "convoffload/io/OutOfMemory.h"
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/optimise/ExactOptimiser.h"
#include "convoffload/optimise/IlpModelSize.h"
#include "render/Palette.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace convoffload::ui {

namespace {

/// Lines of the summary after a run: duration, lower bound, Row-by-Row,
/// ZigZag, gain over the best of them.
constexpr int kSummaryLines = 5;

QString percent(const std::optional<double> &fraction)
{
    return fraction ? QString::number(100.0 * *fraction, 'f', 1) + QStringLiteral(" %") : QStringLiteral("–");
}

QString number(double value) { return QString::number(value, 'g', 10); }

/// A count as people read it: 2.3 M, 45 k, 812.
QString roughCount(double count)
{
    if (count >= 1e6)
        return QString::number(count / 1e6, 'f', 1) + QStringLiteral(" M");
    if (count >= 1e4)
        return QString::number(std::round(count / 1e3)) + QStringLiteral(" k");
    return QString::number(std::round(count));
}

QString phaseText(OptimisePhase phase)
{
    switch (phase) {
    case OptimisePhase::Preparing:
        return OptimiseDialog::tr("Preparing (heuristics and bounds)");
    case OptimisePhase::Searching:
        return OptimiseDialog::tr("Searching");
    case OptimisePhase::Exact:
        return OptimiseDialog::tr("Exact: searching, then proving");
    case OptimisePhase::BuildingModel:
        return OptimiseDialog::tr("Building the ILP model");
    case OptimisePhase::WritingModel:
        return OptimiseDialog::tr("Writing the model for CBC");
    case OptimisePhase::Solving:
        return OptimiseDialog::tr("CBC running");
    case OptimisePhase::Simulating:
        return OptimiseDialog::tr("Re-simulating the result");
    }
    return {};
}

} // namespace

OptimiseDialog::OptimiseDialog(const Problem &problem, QStringList takenNames, QWidget *parent)
    : QDialog(parent)
    , m_problem(problem)
    , m_takenNames(std::move(takenNames))
{
    setWindowTitle(tr("Optimise strategy"));
    buildForm();
    setRunning(false);
    fitDialogToScreen(this, contentSize(), 0.35, 0.6); // a larger chart on a large screen
    m_job.setObjectName(QStringLiteral("optimise"));
    m_job.setProgressHandler([this](const Live &live) {
        if (live.phase)
            onPhase(*live.phase, live.seconds);
        if (live.point)
            onProgress(*live.point);
    });
    m_tick = new QTimer(this);
    m_tick->setInterval(200);
    connect(m_tick, &QTimer::timeout, this, [this] { m_status->setText(liveStatus(double(m_clock.elapsed()) / 1000)); });
    m_job.setFinishedHandler([this](Outcome outcome) {
        m_report = std::move(outcome.report);
        m_error = outcome.error;
        onFinished();
    });
}

// The job's destructor stops the run and waits, so a CBC worker process does
// not outlive the window.
OptimiseDialog::~OptimiseDialog() = default;

void OptimiseDialog::buildForm()
{
    const std::int64_t patchesMax = std::max<std::int64_t>(1, m_problem.nbPatchesMax());
    auto *form = new QFormLayout;

    m_method = new QComboBox;
    m_method->addItem(tr("Search (fast, no solver)"), int(OptimiseMethod::Search));
    m_method->addItem(tr("ILP solved by CBC (proves optimality on small layers)"), int(OptimiseMethod::Ilp));
    m_method->addItem(tr("Exact (search, beam, proof: up to 64 outputs; load-once proof up to 128)"), int(OptimiseMethod::Exact));
    m_method->setToolTip(tr("The search improves the heuristics and compact tilings by local moves; the ILP is the "
                            "paper's section 5 model, solved by CBC in a separate process from the best heuristic; "
                            "exact searches for 15 % of the time and runs a beam of its dynamic programming for 15 %, "
                            "then proves its strategy optimal or finds the optimum by dynamic programming; on layers "
                            "of 65 to 128 outputs it searches for half the time, then looks for a strategy loading "
                            "every pixel once (optimal) or proves there is none (the bound rises by one). Time left "
                            "after a proof goes to a second search."));
    form->addRow(tr("&Method:"), m_method);

    m_startFromSearch = new QCheckBox(tr("Start CBC from a short search instead of the best heuristic"));
    m_startFromSearch->setToolTip(tr("The paper starts from the best heuristic; a better start leaves CBC's time to the bound."));
    m_startFromSearch->setEnabled(false);
    form->addRow(QString(), m_startFromSearch);
    connect(m_method, &QComboBox::currentIndexChanged, this,
        [this] { m_startFromSearch->setEnabled(m_method->currentData().toInt() == int(OptimiseMethod::Ilp)); });

    // Said when the method is chosen, not at the end of the run: on a large
    // layer Exact can search and bound, but not prove.
    m_exactReach = new QLabel;
    m_exactReach->setWordWrap(true);
    m_exactReach->setObjectName(QStringLiteral("exactReach"));
    m_advice = new QLabel;
    m_advice->setWordWrap(true);
    m_advice->setObjectName(QStringLiteral("methodAdvice"));
    m_advice->setTextFormat(Qt::RichText);
    connect(m_advice, &QLabel::linkActivated, this, &OptimiseDialog::onAdviceLink);

    m_timeLimit = new QDoubleSpinBox;
    m_timeLimit->setRange(0.1, 24 * 3600);
    m_timeLimit->setDecimals(1);
    m_timeLimit->setValue(10);
    m_timeLimit->setSuffix(tr(" s"));
    m_timeLimit->setToolTip(tr("The optimiser stops at this time and keeps its best strategy."));
    form->addRow(tr("&Time limit:"), m_timeLimit);

    m_seed = new QSpinBox;
    m_seed->setRange(0, 1'000'000'000);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The search is deterministic for a given seed and move budget."));
    form->addRow(tr("&Seed:"), m_seed);

    m_groupSize = new QSpinBox;
    m_groupSize->setObjectName(QStringLiteral("groupSize"));
    if (streamsKernels()) {
        // Each kernel-blocked strategy has its own G (docs/reference/strategies.md#kernel-blocked): the
        // optimiser tries them all, so there is nothing to choose here.
        m_groupSize->setRange(0, 0);
        m_groupSize->setSpecialValueText(tr("chosen with each kernel block"));
        m_groupSize->setEnabled(false);
        m_groupSize->setToolTip(tr("The kernels do not fit beside one patch, so each step holds a block of B kernels "
                                   "and G patches: every (B, G) of the kernel-blocked family is tried."));
    } else {
        m_groupSize->setRange(1, int(std::min<std::int64_t>(patchesMax, 1'000'000)));
        m_groupSize->setValue(m_groupSize->maximum());
        m_groupSize->setToolTip(tr("G, the most patches per group; at most nb_patches_max = %1.").arg(patchesMax));
    }
    form->addRow(tr("&Group size G:"), m_groupSize);

    m_groupCount = new QComboBox;
    m_groupCount->addItem(tr("Exactly K_min groups (the paper's choice)"), int(GroupCount::ExactlyKMin));
    m_groupCount->addItem(tr("Any number of groups up to a cap"), int(GroupCount::AtMostCap));
    m_groupCount->setToolTip(tr("More groups cost one compute each but may load fewer pixels."));
    form->addRow(tr("Group &count:"), m_groupCount);

    m_maxGroups = new QSpinBox;
    m_maxGroups->setRange(0, int(std::min<std::int64_t>(m_problem.layer.patchCount(), 1'000'000'000)));
    m_maxGroups->setSpecialValueText(tr("one per patch"));
    m_maxGroups->setToolTip(tr("Cap on the number of groups when any number is allowed."));
    form->addRow(tr("&Cap on groups:"), m_maxGroups);
    connect(m_groupCount, &QComboBox::currentIndexChanged, this,
        [this] { m_maxGroups->setEnabled(m_groupCount->currentData().toInt() == int(GroupCount::AtMostCap)); });
    m_maxGroups->setEnabled(false);

    for (QComboBox *box : {m_method, m_groupCount})
        connect(box, &QComboBox::currentIndexChanged, this, &OptimiseDialog::updateExactReach);
    connect(m_groupSize, &QSpinBox::valueChanged, this, &OptimiseDialog::updateExactReach);
    connect(m_maxGroups, &QSpinBox::valueChanged, this, &OptimiseDialog::updateExactReach);
    updateExactReach();

    m_name = new QLineEdit(uniqueName(tr("Optimised")));
    m_name->setToolTip(tr("Name of the strategy added to the project."));
    form->addRow(tr("Strategy &name:"), m_name);

    m_incumbent = new QLineSeries;
    m_incumbent->setName(tr("best duration found"));
    m_incumbent->setColor(Palette::input());
    m_bound = new QLineSeries;
    m_bound->setName(tr("lower bound"));
    m_bound->setColor(Palette::kernels());
    m_chart = new QChart;
    m_chart->addSeries(m_incumbent);
    m_chart->addSeries(m_bound);
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("seconds"));
    applyNiceScale(m_timeAxis, niceScale(0, 1));
    m_durationAxis = new QValueAxis;
    m_durationAxis->setTitleText(tr("duration"));
    applyNiceScale(m_durationAxis, niceScale(0, 100, 5, 1));
    // Fewer ticks when the plot is short (rescaleDurationAxis).
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { rescaleDurationAxis(); });
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_durationAxis, Qt::AlignLeft);
    for (QLineSeries *s : {m_incumbent, m_bound}) {
        s->attachAxis(m_timeAxis);
        s->attachAxis(m_durationAxis);
    }
    m_chart->setTitle(tr("Progress"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chartView = new QChartView(m_chart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(420, 240);

    m_status = new QLabel(tr("Ready."));
    m_status->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Room for the status (two lines) and the summary (duration, bound, the
    // heuristics, the gain) from the start: the dialog keeps its size when a
    // run ends and fills them.
    const int lineHeight = fontMetrics().lineSpacing();
    m_status->setMinimumHeight(2 * lineHeight);
    m_summary->setMinimumHeight(kSummaryLines * lineHeight);
    for (QLabel *label : {m_status, m_summary})
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    auto *buttons = new QDialogButtonBox;
    m_run = buttons->addButton(tr("&Optimise"), QDialogButtonBox::ActionRole);
    m_run->setToolTip(tr("Start the optimiser (Ctrl+Return or Alt+O)."));
    // Not QAbstractButton::setShortcut, which would replace the mnemonic's Alt+O.
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, m_run, &QPushButton::click);
    m_cancel = buttons->addButton(tr("&Stop"), QDialogButtonBox::ActionRole);
    m_cancel->setToolTip(tr("Stop and keep the best strategy found so far."));
    m_add = buttons->addButton(tr("&Add to project"), QDialogButtonBox::AcceptRole);
    m_add->setToolTip(tr("Add the optimised groups to the project as a new strategy (undoable)."));
    buttons->addButton(QDialogButtonBox::Close);
    connect(m_run, &QPushButton::clicked, this, &OptimiseDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &OptimiseDialog::cancel);
    connect(m_add, &QPushButton::clicked, this, [this] {
        if (!m_report || !m_report->result.hasSolution())
            return;
        const QString name
            = m_name->text().trimmed().isEmpty() ? uniqueName(tr("Optimised")) : uniqueName(m_name->text().trimmed());
        emit strategyReady(toStrategy(*m_report, name.toStdString()));
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &OptimiseDialog::reject);

    // Everything but the buttons scrolls: the form, chart and summary ask
    // for about 630 px, more than a 1024×600 screen has, and a dialog that
    // cannot shrink hid its buttons below the screen. The buttons stay in
    // view at any height.
    auto *content = new QWidget;
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(form);
    contentLayout->addWidget(m_exactReach); // not in the form, where a wrapped label is cut to two lines
    contentLayout->addWidget(m_advice);
    contentLayout->addWidget(m_chartView, 1);
    contentLayout->addWidget(m_status);
    contentLayout->addWidget(m_summary);
    m_scroll = new QScrollArea;
    m_scroll->setObjectName(QStringLiteral("optimiseScroll"));
    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(buttons);
}

QSize OptimiseDialog::contentSize() const
{
    // What the dialog needs to show everything without scrolling: QScrollArea's
    // own size hint is capped at 24 lines, which would open it scrolled.
    const QMargins margins = layout()->contentsMargins();
    const QSize content = m_scroll->widget()->sizeHint();
    const QSize buttons = layout()->itemAt(1)->sizeHint();
    return {std::max(content.width() + m_scroll->verticalScrollBar()->sizeHint().width(), buttons.width()) + margins.left()
            + margins.right(),
        content.height() + layout()->spacing() + buttons.height() + margins.top() + margins.bottom()};
}

bool OptimiseDialog::streamsKernels() const
{
    return m_problem.layer.problems().empty() && m_problem.hardware.problems().empty() && !kernelsFit(m_problem);
}

void OptimiseDialog::updateExactReach()
{
    QString note, advice;
    const int method = m_method->currentData().toInt();
    if (streamsKernels()) {
        note = m_method->currentData().toInt() == int(OptimiseMethod::Search)
            ? tr("The kernels do not fit beside one patch, so no S1 strategy can run: every kernel-blocked strategy "
                 "(block size B, group size G, both loops and orders) is simulated, and the search regroups the "
                 "best one's patches for the rest of the time.")
            : tr("The kernels do not fit beside one patch, so no S1 strategy can run: this method returns the best "
                 "kernel-blocked strategy as it is; the search also regroups its patches.");
    } else if (m_method->currentData().toInt() == int(OptimiseMethod::Exact)) {
        try {
            const S1Instance in = makeS1Instance(m_problem, request().settings);
            const ExactReach reach = exactReach(in);
            const QString size = tr("%1 outputs and %2 needed pixels").arg(in.patches).arg(in.needed_pixels.size());
            if (reach == ExactReach::LoadOnceOnly)
                note = tr("Exact on this layer (%1, over the full proof's 64 and 256): it proves optimality only "
                          "if a strategy loads every pixel once; otherwise the bound rises by one.")
                           .arg(size);
            else if (reach == ExactReach::SearchOnly)
                note = tr("Exact on this layer (%1, over the proofs' 128 outputs and 256 pixels): it searches and "
                          "reports the bound, but cannot prove optimality.")
                           .arg(size);
        } catch (const std::exception &) {
            // The run says what is wrong with the problem, in context.
        }
    }
    // The advice, from the measurements of docs/design/optimisers.md: up to
    // 64 outputs Exact proves the optimum, mostly within a second (the
    // paper's 2x5x5 layer: 111 in 0.01 s, where CBC ended at 113 after
    // 10 s); beyond, CBC never found a better strategy than the search on
    // the paper's grid, and its model takes seconds to build and write.
    if (!streamsKernels() && method != int(OptimiseMethod::Exact)) {
        try {
            const S1Instance in = makeS1Instance(m_problem, request().settings);
            const QString size = tr("%1 outputs and %2 needed pixels").arg(in.patches).arg(in.needed_pixels.size());
            if (exactReach(in) == ExactReach::Proof)
                advice = tr("Recommended for this layer (%1): <b>Exact</b>, which proves the optimum of most layers "
                            "this small (the paper's 5\u00d75 example in a hundredth of a second, 69 of the paper's "
                            "81 instances within a minute), where CBC can end short of a proof after minutes. "
                            "<a href=\"exact\">Use Exact</a>")
                             .arg(size);
            else if (method == int(OptimiseMethod::Ilp)) {
                const IlpModelSize model = estimateIlpModelSize(in);
                advice = tr("Recommended for this layer (%1): <b>Search</b>. CBC never found a better strategy than "
                            "the search on the paper's grid, and beyond the smallest layers it rarely improves on its "
                            "start. Its model (about %2 rows) is built and written before CBC starts, within the "
                            "time limit: on a large layer that takes seconds (LeNet-5 conv1, 2.3 M rows: about "
                            "10 s), and a shorter limit runs no CBC at all. <a href=\"search\">Use Search</a>")
                             .arg(size, roughCount(model.rows));
            }
        } catch (const std::exception &) {
            // The run says what is wrong with the problem, in context.
        }
    }
    m_exactReach->setText(note);
    m_exactReach->setVisible(!note.isEmpty());
    m_advice->setText(advice);
    m_advice->setVisible(!advice.isEmpty());
}

void OptimiseDialog::onAdviceLink(const QString &link)
{
    if (isRunning())
        return;
    if (const std::optional<OptimiseMethod> method = optimiseMethodFromName(link.toStdString()))
        setMethod(*method);
}

QString OptimiseDialog::uniqueName(const QString &base) const
{
    QString name = base;
    for (int i = 2; m_takenNames.contains(name); ++i)
        name = base + QStringLiteral(" %1").arg(i);
    return name;
}

OptimiseRequest OptimiseDialog::request() const
{
    OptimiseRequest request;
    request.method = OptimiseMethod(m_method->currentData().toInt());
    request.seed = std::uint64_t(m_seed->value());
    // A layer whose kernels do not fit streams them, as `optimize` does.
    request.stream_kernels = true;
    if (!streamsKernels())
        request.settings.group_size = m_groupSize->value();
    request.settings.group_count = GroupCount(m_groupCount->currentData().toInt());
    request.settings.max_groups = m_maxGroups->value();
    request.ilp_start_from_search = request.method == OptimiseMethod::Ilp && m_startFromSearch->isChecked();
    return request;
}

double OptimiseDialog::timeLimit() const { return m_timeLimit->value(); }

void OptimiseDialog::setMethod(OptimiseMethod method) { m_method->setCurrentIndex(m_method->findData(int(method))); }

void OptimiseDialog::setTimeLimit(double seconds) { m_timeLimit->setValue(seconds); }

OptimiseDialog::Choices OptimiseDialog::choices() const
{
    return {OptimiseMethod(m_method->currentData().toInt()), timeLimit(), m_startFromSearch->isChecked()};
}

void OptimiseDialog::setChoices(const Choices &choices)
{
    setMethod(choices.method);
    setTimeLimit(choices.time_limit_s);
    m_startFromSearch->setChecked(choices.ilp_start_from_search);
}

namespace {
const QString kMethodKey = QStringLiteral("optimise/method");
const QString kTimeLimitKey = QStringLiteral("optimise/timeLimit");
const QString kStartKey = QStringLiteral("optimise/ilpStartFromSearch");
} // namespace

OptimiseDialog::Choices OptimiseDialog::savedChoices()
{
    const QSettings settings;
    Choices choices;
    if (const std::optional<OptimiseMethod> method = optimiseMethodFromName(settings.value(kMethodKey).toString().toStdString()))
        choices.method = *method;
    bool ok = false;
    const double seconds = settings.value(kTimeLimitKey).toDouble(&ok);
    if (ok && std::isfinite(seconds) && seconds > 0)
        choices.time_limit_s = seconds; // the spin box clamps it to its range
    choices.ilp_start_from_search = settings.value(kStartKey, false).toBool();
    return choices;
}

void OptimiseDialog::saveChoices(const Choices &choices)
{
    QSettings settings;
    settings.setValue(kMethodKey, QString::fromStdString(optimiseMethodName(choices.method)));
    settings.setValue(kTimeLimitKey, choices.time_limit_s);
    settings.setValue(kStartKey, choices.ilp_start_from_search);
}

bool OptimiseDialog::isRunning() const { return m_job.isRunning(); }

void OptimiseDialog::start()
{
    if (isRunning())
        return;
    m_report.reset();
    m_error.clear();
    m_incumbent->clear();
    m_bound->clear();
    m_summary->clear();
    applyNiceScale(m_timeAxis, niceScale(0, std::max(1.0, timeLimit())));
    const Problem problem = m_problem;
    const OptimiseRequest req = request();
    const double limit = timeLimit();
    m_phase.reset();
    m_cbcRan = false;
    m_best.reset();
    m_bestBound.reset();
    m_cbcPoint.reset();
    m_stopping = false;
    m_runLimit = limit;
    m_runMethod = req.method;
    m_clock.start();
    m_job.start([problem, req, limit](const JobControl<Live> &job) {
        OptimiseControl control;
        control.time_limit_s = limit;
        control.cancel = job.cancelFlag();
        control.progress = [&job](const OptimiseProgress &point) { job.report(Live{point, std::nullopt, point.seconds}); };
        control.phase = [&job](OptimisePhase phase, double seconds) { job.report(Live{std::nullopt, phase, seconds}); };
        Outcome outcome;
        try {
            outcome.report = optimise(problem, req, control);
        } catch (const std::exception &e) {
            outcome.error = QString::fromStdString(errorMessage(e, "optimising the layer"));
        }
        return outcome;
    });
    m_status->setText(liveStatus(0));
    m_tick->start();
    setRunning(true);
}

void OptimiseDialog::cancel()
{
    m_job.cancel();
    if (isRunning()) {
        m_stopping = true;
        m_status->setText(liveStatus(double(m_clock.elapsed()) / 1000));
    }
}

void OptimiseDialog::reject()
{
    if (isRunning()) {
        cancel();
        m_job.waitForWorker();
    }
    QDialog::reject();
}

void OptimiseDialog::onProgress(const OptimiseProgress &point)
{
    if (point.incumbent)
        m_incumbent->append(point.seconds, *point.incumbent);
    if (point.bound)
        m_bound->append(point.seconds, *point.bound);
    rescaleDurationAxis();
    if (point.seconds > m_timeAxis->max())
        applyNiceScale(m_timeAxis, niceScale(0, point.seconds * 1.2));
    if (point.incumbent)
        m_best = std::min(m_best.value_or(*point.incumbent), *point.incumbent);
    if (point.bound)
        m_bestBound = std::max(m_bestBound.value_or(*point.bound), *point.bound);
    if (m_phase == OptimisePhase::Solving)
        m_cbcPoint = point;
    if (isRunning())
        m_status->setText(liveStatus(double(m_clock.elapsed()) / 1000));
}

void OptimiseDialog::onPhase(OptimisePhase phase, double seconds)
{
    m_phase = phase;
    m_phaseSeconds = seconds;
    if (phase == OptimisePhase::Solving)
        m_cbcRan = true;
    if (isRunning())
        m_status->setText(liveStatus(double(m_clock.elapsed()) / 1000));
}

QString OptimiseDialog::liveStatus(double seconds) const
{
    QString text = tr("%1 (since %2 s): %3 s of %4 s")
                       .arg(m_phase ? phaseText(*m_phase) : tr("Starting"))
                       .arg(m_phaseSeconds, 0, 'f', 1)
                       .arg(seconds, 0, 'f', 1)
                       .arg(number(m_runLimit));
    if (m_phase == OptimisePhase::Solving) {
        if (m_cbcPoint)
            text += tr("; CBC at %1 s: its best %2, bound %3")
                        .arg(m_cbcPoint->seconds, 0, 'f', 1)
                        .arg(m_cbcPoint->incumbent ? number(*m_cbcPoint->incumbent) : tr("none yet"))
                        .arg(m_cbcPoint->bound ? number(*m_cbcPoint->bound) : tr("\u2013"));
        else
            text += tr("; CBC has not reported yet (its first LP can take long on a large layer)");
    }
    text += tr(". Best so far %1, bound %2.")
                .arg(m_best ? number(*m_best) : tr("none yet"))
                .arg(m_bestBound ? number(*m_bestBound) : tr("\u2013"));
    if (m_stopping)
        text = tr("Stopping\u2026 ") + text;
    return text;
}

void OptimiseDialog::rescaleDurationAxis()
{
    // The axis spans the points drawn so far (a few hundred at most).
    double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
    for (const QLineSeries *series : {m_incumbent, m_bound})
        for (const QPointF &p : series->points()) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
    if (low > high) { // nothing drawn yet
        low = 0;
        high = 100;
    } else { // a little air around the lines
        const double margin = (high - low) * 0.05;
        low -= margin;
        high += margin;
    }
    // A label needs about two lines of height to stay apart from the next.
    const double labelRoom = 2.2 * QFontMetricsF(m_durationAxis->labelsFont()).height();
    const int intervals = std::clamp(int(m_chart->plotArea().height() / labelRoom), 2, 5);
    const NiceScale scale = niceScale(low, high, intervals, 1); // durations are whole cycles: integer ticks
    if (scale.min != m_durationAxis->min() || scale.max != m_durationAxis->max() || scale.step != m_durationAxis->tickInterval())
        applyNiceScale(m_durationAxis, scale);
}

void OptimiseDialog::onFinished()
{
    m_tick->stop();
    setRunning(false);
    if (!m_error.isEmpty()) {
        m_status->setText(tr("Cannot optimise: %1").arg(m_error));
    } else if (m_report) {
        // The final point, so the chart ends where the result is.
        if (m_report->result.hasSolution())
            onProgress({m_report->result.seconds, m_report->result.duration, m_report->lower_bound});
        // Zoom on the run: a search that ends early should not be a dot at
        // the left. A run that used its whole time limit (and a few
        // milliseconds more, to stop) spans the limit, not the next nice
        // number past it (15 s for a 10 s run).
        const double seconds = m_report->result.seconds;
        const bool wholeLimit = seconds >= timeLimit() && seconds <= timeLimit() * 1.02;
        applyNiceScale(m_timeAxis, niceScale(0, wholeLimit ? timeLimit() : std::max(0.1, seconds * 1.05)));
        showReport();
    }
    emit finished();
}

QString OptimiseDialog::finalStatus() const
{
    if (!m_report)
        return {};
    const OptimiseResult &r = m_report->result;
    const QString status = QString::fromStdString(optimiseStatusName(r.status));
    // One reason the run ended, never two: the core sets one flag (a Stop
    // after the time limit stopped CBC is the time limit's), and a Stop
    // wins here should both ever be set.
    QString text;
    if (r.cancelled)
        text = tr("Stopped at your request after %1 s: %2.").arg(r.seconds, 0, 'f', 2).arg(status);
    else if (r.timed_out)
        text = tr("Time limit of %1 s reached after %2 s: %3.").arg(number(m_runLimit)).arg(r.seconds, 0, 'f', 2).arg(status);
    else
        text = tr("Finished: %1 in %2 s.").arg(status).arg(r.seconds, 0, 'f', 2);
    // The optimiser's message is a clause ("proven optimal: …"): a sentence here.
    const QString message = QString::fromStdString(r.message);
    if (!message.isEmpty())
        text += QStringLiteral(" ") + message.front().toUpper() + message.mid(1);
    // The ILP's model is built and written within the limit: say why CBC
    // did not run, and what would let it.
    if (m_runMethod == OptimiseMethod::Ilp && !m_cbcRan && r.timed_out && !r.cancelled) {
        const IlpModelSize model = estimateIlpModelSize(m_report->instance);
        text += tr("%1 Building and writing this layer's model (about %2 rows) took the whole %3 s limit: give CBC a "
                   "longer limit, or use Search, which uses the whole time.")
                    .arg(text.endsWith(QLatin1Char('.')) ? QString() : QStringLiteral("."), roughCount(model.rows),
                        number(m_runLimit));
    }
    return text;
}

void OptimiseDialog::showReport()
{
    const OptimiseResult &r = m_report->result;
    m_status->setText(finalStatus());
    QStringList lines;
    if (r.hasSolution())
        lines << tr("<b>Duration %1</b> in %2 groups").arg(number(r.duration)).arg(r.groups.size());
    lines << tr("Lower bound %1 — gap to optimal at most %2").arg(number(m_report->lower_bound), percent(r.gap()));
    for (const NamedGroups &h : m_report->heuristics)
        lines << tr("%1: %2%3")
                     .arg(QString::fromStdString(h.name), number(h.evaluation.duration),
                         h.evaluation.feasible ? QString()
                                               : QStringLiteral(" (%1)").arg(
                                                   QString::fromStdString(evaluationVerdict(h.evaluation)).toHtmlEscaped()));
    if (m_report->best_heuristic)
        lines << tr("Gain over %1: <b>%2</b>")
                     .arg(QString::fromStdString(m_report->best_heuristic->name), percent(m_report->gainOverHeuristic()));
    m_summary->setText(lines.join(QStringLiteral("<br>")));
}

void OptimiseDialog::setRunning(bool running)
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_method, m_timeLimit, m_seed, m_groupCount})
        w->setEnabled(!running);
    m_groupSize->setEnabled(!running && !streamsKernels());
    m_maxGroups->setEnabled(!running && m_groupCount->currentData().toInt() == int(GroupCount::AtMostCap));
    m_startFromSearch->setEnabled(!running && m_method->currentData().toInt() == int(OptimiseMethod::Ilp));
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_add->setEnabled(!running && m_report && m_report->result.hasSolution());
}

} // namespace convoffload::ui
