// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "document/ProjectDocument.h"

#include "convoffload/io/OutOfMemory.h"
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <QFileInfo>
#include <QScopedValueRollback>

#include <functional>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace convoffload::ui {

namespace {

std::optional<TensorData> tensorsFor(const Project &project, const std::string &projectPath)
{
    const std::string file = resolveDataFile(projectPath, project.data);
    if (file.empty())
        return std::nullopt;
    return loadTensorData(project.problem.layer, file);
}

using Control = JobControl<ProjectDocument::JobProgress>;

/// A worker's run frees millions of small blocks (a big layer's step lists)
/// that glibc keeps in the worker thread's arena; give them back, so that the
/// next job's peak does not come on top of them.
void releaseFreedMemory()
{
#ifdef __GLIBC__
    ::malloc_trim(0);
#endif
}

SimulationOptions workerOptions(
    const Project &project, const std::optional<TensorData> &tensors, bool trace, const std::atomic<bool> *cancel)
{
    SimulationOptions options;
    options.trace = trace;
    options.seed = project.data.seed;
    options.data = tensors ? &*tensors : nullptr;
    options.cancel = cancel;
    return options;
}

// The workers: each gets its own copy of the project (bound by the job).

/// Work the estimate puts over the budget (10 minutes, 3/4 of the memory) is
/// refused with what it would need, rather than run for days or be killed.
void requireWithinBudget(const WorkEstimate &estimate, std::int64_t runs, const WorkBudget &budget)
{
    WorkEstimate work = estimate;
    work.seconds *= double(std::max<std::int64_t>(1, runs));
    if (const std::optional<std::string> why = exceedsBudget(work, budget))
        throw std::runtime_error(std::string(kNotSimulatedPrefix) + *why);
}

/// The simulation of strategy `index`, on the worker (with its cancel flag and
/// progress reports) or, for small work, on the GUI thread (neither).
std::shared_ptr<const SimulationSnapshot> simulateCopy(const Project &project, int index, const std::string &projectPath,
    const WorkBudget &budget, const std::atomic<bool> *cancel, const std::function<void(ProjectDocument::JobProgress)> &report)
{
    auto snapshot = std::make_shared<SimulationSnapshot>();
    snapshot->problem = project.problem;
    snapshot->spec = project.strategies[std::size_t(index)];
    const QString what = QObject::tr("Simulating %1").arg(QString::fromStdString(snapshot->spec.name));
    try {
        const std::optional<TensorData> tensors = tensorsFor(project, projectPath);
        SimulationOptions options = workerOptions(project, tensors, true, cancel);
        requireWithinBudget(estimateStrategy(snapshot->problem, snapshot->spec, options.functional, options.trace), 1, budget);
        if (report)
            options.progress = [&](std::size_t done, std::size_t total) {
                report({what, int(100 * done / std::max<std::size_t>(total, 1))});
            };
        snapshot->result = simulateStrategy(snapshot->problem, snapshot->spec, options);
        releaseFreedMemory();
    } catch (const Cancelled &) {
        snapshot->failure = "simulation cancelled";
    } catch (const std::exception &e) {
        snapshot->failure = errorMessage(e, "simulating strategy '" + snapshot->spec.name + "'", projectPath);
    }
    if (report)
        report({what, 100});
    return snapshot;
}

ProjectDocument::Comparison compareCopy(
    const Project &project, const std::string &projectPath, const WorkBudget &budget, const Control &control)
{
    ProjectDocument::Comparison comparison;
    const QString what = QObject::tr("Comparing strategies");
    try {
        const std::optional<TensorData> tensors = tensorsFor(project, projectPath);
        const SimulationOptions options = workerOptions(project, tensors, false, control.cancelFlag());
        requireWithinBudget(estimateSimulation(project.problem, options.functional, options.trace),
            std::int64_t(project.strategies.size()), budget);
        comparison.rows = compareStrategies(project, options);
        releaseFreedMemory();
    } catch (const Cancelled &) {
        comparison.cancelled = true;
    } catch (const std::exception &e) {
        comparison.rows.clear();
        const std::string why = errorMessage(e, "comparing the strategies", projectPath);
        for (const StrategySpec &s : project.strategies)
            comparison.rows.push_back({s.name, strategyKindName(s.kind), 0, why});
    }
    control.report({what, 100});
    return comparison;
}

ProjectDocument::Sweep sweepCopy(
    const Project &project, const std::string &projectPath, const WorkBudget &budget, const Control &control)
{
    ProjectDocument::Sweep sweep;
    const QString what = QObject::tr("Sweeping group sizes");
    try {
        const std::optional<TensorData> tensors = tensorsFor(project, projectPath);
        const SimulationOptions options = workerOptions(project, tensors, false, control.cancelFlag());
        const Problem &p = project.problem;
        if (!kernelsFit(p))
            return sweep; // no S1 strategy to sweep (sweepUnavailable says so)
        requireWithinBudget(
            estimateSimulation(p, options.functional, options.trace), 2, budget); // per group size: Row-by-Row and ZigZag
        const std::int64_t to = std::min<std::int64_t>(p.layer.patchCount(), std::max<std::int64_t>(32, 2 * p.nbPatchesMax()));
        for (std::int64_t g = 1; g <= to; ++g) {
            if (control.isCancelled())
                throw Cancelled();
            control.report({what, int(100 * g / (to + 1))});
            const std::vector<SweepRow> one = sweepGroupSizes(p, g, g, options);
            sweep.rows.insert(sweep.rows.end(), one.begin(), one.end());
        }
    } catch (const Cancelled &) {
        sweep.cancelled = true;
    } catch (const std::exception &) {
        // The group sizes done so far are drawn.
    }
    control.report({what, 100});
    return sweep;
}

bool problemIsSound(const Problem &p) { return p.layer.problems().empty() && p.hardware.problems().empty(); }

} // namespace

ProjectDocument::ProjectDocument(QObject *parent)
    : QObject(parent)
    , m_simulationJob(this, ProgressDelivery::Latest)
    , m_comparisonJob(this, ProgressDelivery::Latest)
    , m_sweepJob(this, ProgressDelivery::Latest)
{
    m_simulationJob.setObjectName(QStringLiteral("simulation"));
    m_comparisonJob.setObjectName(QStringLiteral("comparison"));
    m_sweepJob.setObjectName(QStringLiteral("sweep"));
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, &ProjectDocument::fileChanged);
    // Workers report from their thread; the jobs hand the reports over on the GUI thread.
    const auto relay = [this](const JobProgress &p) { emit progress(p.what, p.percent); };
    m_simulationJob.setProgressHandler(relay);
    m_comparisonJob.setProgressHandler(relay);
    m_sweepJob.setProgressHandler(relay);
    m_simulationJob.setFinishedHandler(
        [this](std::shared_ptr<const SimulationSnapshot> s) { onSimulationFinished(std::move(s)); });
    m_comparisonJob.setFinishedHandler([this](Comparison c) { onComparisonFinished(std::move(c)); });
    m_sweepJob.setFinishedHandler([this](Sweep s) { onSweepFinished(std::move(s)); });
}

ProjectDocument::~ProjectDocument()
{
    // The undo stack's destructor emits cleanChanged; a document going away
    // must not call back into views that are being destroyed with it.
    blockSignals(true);
    // Nobody will see the results: raise every flag at once, then the jobs'
    // destructors wait for workers that are already stopping.
    m_simulationJob.cancel();
    m_comparisonJob.cancel();
    m_sweepJob.cancel();
}

QString ProjectDocument::load(const QString &path)
{
    try {
        const Project project = loadProject(path.toStdString());
        resetToProject(project, path);
        return {};
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

QString ProjectDocument::save(const QString &path)
{
    try {
        saveProject(m_project, path.toStdString());
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    m_filePath = path;
    m_undoStack.setClean();
    emit fileChanged();
    return {};
}

void ProjectDocument::resetToProject(const Project &project, const QString &path, const QString &untitledName)
{
    emit projectAboutToBeReset();
    m_project = project;
    m_filePath = path;
    m_untitledName = untitledName;
    m_current = m_project.strategies.empty() ? -1 : 0;
    m_moment = Moment{}; // another project starts at its first step, not at the last one's
    emit projectReset();
    m_undoStack.clear();
    emit fileChanged();
    emit problemChanged();
    emit currentStrategyChanged(m_current);
    resimulate();
    recompare(true);
}

QString ProjectDocument::displayName() const
{
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    return m_untitledName.isEmpty() ? tr("Untitled") : m_untitledName;
}

void ProjectDocument::setProblem(const Problem &problem)
{
    if (problem == m_project.problem)
        return;
    m_project.problem = problem;
    emit problemChanged();
    resimulate();
    recompare(true);
}

void ProjectDocument::insertStrategy(int index, const StrategySpec &spec)
{
    index = std::clamp(index, 0, int(m_project.strategies.size()));
    {
        // Views reacting to the rows moving may ask for another current
        // strategy; the document chooses it below.
        const QScopedValueRollback guard(m_changingStrategies, true);
        emit strategyAboutToBeInserted(index);
        m_project.strategies.insert(m_project.strategies.begin() + index, spec);
        if (m_current >= index)
            ++m_current; // still the same strategy while the signal is out
        emit strategyInserted(index);
    }
    m_current = -1; // the index may be the same, the strategy is not
    setCurrentStrategy(index);
    recompare(false);
}

void ProjectDocument::removeStrategy(int index)
{
    if (index < 0 || index >= int(m_project.strategies.size()))
        return;
    {
        const QScopedValueRollback guard(m_changingStrategies, true);
        emit strategyAboutToBeRemoved(index);
        m_project.strategies.erase(m_project.strategies.begin() + index);
        if (m_current > index)
            --m_current;
        else if (m_current == index)
            m_current = -1;
        emit strategyRemoved(index);
    }
    const int count = int(m_project.strategies.size());
    m_current = -1; // force the change signal and a new simulation
    setCurrentStrategy(std::min(index, count - 1));
    recompare(false);
}

void ProjectDocument::replaceStrategy(int index, const StrategySpec &spec)
{
    if (index < 0 || index >= int(m_project.strategies.size()))
        return;
    StrategySpec &strategy = m_project.strategies[std::size_t(index)];
    const bool groups = strategy.kind != spec.kind || strategy.group_size != spec.group_size || strategy.groups != spec.groups;
    strategy = spec;
    emit strategyChanged(index);
    if (groups)
        emit groupsChanged(index);
    if (index == m_current)
        resimulate();
    recompare(false);
}

QString ProjectDocument::uniqueStrategyName(const QString &base) const
{
    QString name = base;
    for (int i = 2; m_project.findStrategy(name.toStdString()); ++i)
        name = base + QStringLiteral(" (%1)").arg(i);
    return name;
}

void ProjectDocument::setCurrentStrategy(int index)
{
    if (m_changingStrategies)
        return;
    if (index >= int(m_project.strategies.size()))
        index = int(m_project.strategies.size()) - 1;
    if (index == m_current)
        return;
    m_current = index;
    emit currentStrategyChanged(index);
    resimulate();
}

void ProjectDocument::seek(Moment moment)
{
    if (!m_cursor)
        return;
    m_cursor->seek(moment);
    if (m_cursor->moment() == m_moment)
        return;
    m_moment = m_cursor->moment();
    emit momentChanged(m_moment);
}

// Long work runs on a worker with a copy of the project; a request made while
// one runs is queued and only the latest state is simulated next.
void ProjectDocument::resimulate()
{
    if (m_simulationJob.isRunning()) {
        m_pendingResimulation = true;
        return;
    }
    if (m_current < 0 || !problemIsSound(m_project.problem)) {
        m_cursor.reset();
        m_simulation.reset();
        emit simulationChanged();
        return;
    }
    emit simulationStarted();
    // Small work is done here: handing it to a worker and taking the result
    // back in a later pass of the event loop costs more than the work (and
    // the views would repaint once in between).
    const WorkEstimate work = estimateSimulation(m_project.problem, true, true);
    if (work.seconds <= m_synchronousLimit) {
        onSimulationFinished(simulateCopy(m_project, m_current, m_filePath.toStdString(), m_budget, nullptr, {}));
        return;
    }
    m_simulationJob.start(
        [project = m_project, index = m_current, path = m_filePath.toStdString(), budget = m_budget](const Control &control) {
            return simulateCopy(
                project, index, path, budget, control.cancelFlag(), [&control](JobProgress p) { control.report(std::move(p)); });
        });
}

void ProjectDocument::onSimulationFinished(std::shared_ptr<const SimulationSnapshot> snapshot)
{
    if (std::exchange(m_pendingResimulation, false)) {
        resimulate();
        return;
    }
    m_cursor.reset(); // it points into the old snapshot
    m_simulation = std::move(snapshot);
    if (m_simulation->failure.empty() && !m_simulation->result.steps.empty()) {
        m_cursor = std::make_unique<StepCursor>(m_simulation->problem, m_simulation->result);
        const int last = int(m_simulation->result.steps.size()) - 1;
        m_cursor->seek({std::min(m_moment.step, last), m_moment.action});
        m_moment = m_cursor->moment();
    }
    emit simulationChanged();
    emit momentChanged(m_moment);
    startDeferredJobs();
}

bool ProjectDocument::oneJobAtATime() const
{
    return problemIsSound(m_project.problem) && estimateSimulation(m_project.problem, true).bytes > m_concurrentJobBytes;
}

void ProjectDocument::startDeferredJobs()
{
    if (!m_comparisonJob.isRunning() && std::exchange(m_pendingCompare, false))
        recompare(false);
    if (!m_sweepJob.isRunning() && std::exchange(m_pendingSweep, false) && problemIsSound(m_project.problem))
        startSweep();
}

void ProjectDocument::cancel()
{
    m_simulationJob.cancel();
    m_comparisonJob.cancel();
    m_sweepJob.cancel();
    m_pendingResimulation = m_pendingCompare = m_pendingSweep = false;
}

void ProjectDocument::recompare(bool sweepToo)
{
    if (!problemIsSound(m_project.problem)) {
        // Nothing to compare; a job under way finds the problem unsound when it ends.
        if (!m_comparisonJob.isRunning()) {
            m_comparison.clear();
            emit comparisonChanged();
        } else {
            m_pendingCompare = true;
        }
        return;
    }
    startComparison();
    if (sweepToo)
        startSweep();
}

void ProjectDocument::startComparison()
{
    if (m_comparisonJob.isRunning()) {
        m_pendingCompare = true;
        return;
    }
    if (oneJobAtATime() && m_simulationJob.isRunning()) {
        m_pendingCompare = true; // started when the simulation is in
        return;
    }
    m_comparisonJob.start(std::bind_front(compareCopy, m_project, m_filePath.toStdString(), m_budget));
}

void ProjectDocument::startSweep()
{
    if (m_sweepJob.isRunning() || (oneJobAtATime() && (m_simulationJob.isRunning() || m_comparisonJob.isRunning()))) {
        m_pendingSweep = true;
        return;
    }
    m_sweepJob.start(std::bind_front(sweepCopy, m_project, m_filePath.toStdString(), m_budget));
}

void ProjectDocument::onComparisonFinished(Comparison comparison)
{
    if (!comparison.cancelled)
        m_comparison = std::move(comparison.rows);
    emit comparisonChanged();
    if (std::exchange(m_pendingCompare, false))
        recompare(false);
    startDeferredJobs(); // a sweep waiting for this comparison
}

QString ProjectDocument::sweepUnavailable() const
{
    const Problem &p = m_project.problem;
    if (!problemIsSound(p) || kernelsFit(p))
        return {};
    // A line per sentence; a narrow chart wraps them further (fitChartTitle).
    return tr("No group-size sweep for this layer:<br>"
              "Row-by-Row and ZigZag keep all %1 kernels on chip, which its memory and nbop_pe do not allow.<br>"
              "Its strategies stream kernels: Optimise › Optimise Strategy finds the best kernel block and grouping.")
        .arg(p.layer.n);
}

void ProjectDocument::onSweepFinished(Sweep sweep)
{
    if (!sweep.cancelled)
        m_sweep = std::move(sweep.rows); // the sweep depends on the problem only
    emit comparisonChanged();
    if (std::exchange(m_pendingSweep, false) && problemIsSound(m_project.problem))
        startSweep();
}

} // namespace convoffload::ui
