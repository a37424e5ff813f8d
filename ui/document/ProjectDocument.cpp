#include "document/ProjectDocument.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace convoffload::ui {

namespace {

std::optional<TensorData> tensorsFor(const Project &project, const std::string &projectPath)
{
    const std::string file = resolveDataFile(projectPath, project.data);
    if (file.empty())
        return std::nullopt;
    return loadTensorData(project.problem.layer, file);
}

using Progress = std::function<void(const QString &, int)>;

SimulationOptions workerOptions(const Project &project, const std::optional<TensorData> &tensors, bool trace,
                                const std::shared_ptr<std::atomic<bool>> &cancel)
{
    SimulationOptions options;
    options.trace = trace;
    options.seed = project.data.seed;
    options.data = tensors ? &*tensors : nullptr;
    options.cancel = cancel.get();
    return options;
}

/// Runs on a worker thread: everything it touches is a copy.
std::shared_ptr<const SimulationSnapshot> simulateCopy(Project project, int index, std::string projectPath,
                                                       std::shared_ptr<std::atomic<bool>> cancel, Progress report)
{
    auto snapshot = std::make_shared<SimulationSnapshot>();
    snapshot->problem = project.problem;
    snapshot->spec = project.strategies[std::size_t(index)];
    const QString what = QObject::tr("Simulating %1").arg(QString::fromStdString(snapshot->spec.name));
    try {
        const std::optional<TensorData> tensors = tensorsFor(project, projectPath);
        SimulationOptions options = workerOptions(project, tensors, true, cancel);
        options.progress = [&](std::size_t done, std::size_t total) { report(what, int(100 * done / std::max<std::size_t>(total, 1))); };
        snapshot->result = runStrategy(snapshot->problem, snapshot->spec, options);
    } catch (const Cancelled &) {
        snapshot->failure = "simulation cancelled";
    } catch (const std::bad_alloc &) {
        snapshot->failure = "out of memory while simulating this layer";
    } catch (const std::exception &e) {
        snapshot->failure = e.what();
    }
    report(what, 100);
    return snapshot;
}

ProjectDocument::Overview overviewCopy(Project project, std::string projectPath, bool sweepToo,
                                       std::shared_ptr<std::atomic<bool>> cancel, Progress report)
{
    ProjectDocument::Overview overview;
    const QString what = QObject::tr("Comparing strategies");
    try {
        const std::optional<TensorData> tensors = tensorsFor(project, projectPath);
        const SimulationOptions options = workerOptions(project, tensors, false, cancel);
        overview.comparison = compareStrategies(project, options);
        overview.sweepDone = sweepToo;
        const Problem &p = project.problem;
        const std::int64_t to = std::min<std::int64_t>(p.layer.patchCount(), std::max<std::int64_t>(32, 2 * p.nbPatchesMax()));
        for (std::int64_t g = 1; sweepToo && g <= to; ++g) {
            report(QObject::tr("Sweeping group sizes"), int(100 * g / (to + 1)));
            const std::vector<SweepRow> one = sweepGroupSizes(p, g, g, options);
            overview.sweep.insert(overview.sweep.end(), one.begin(), one.end());
        }
    } catch (const Cancelled &) {
        overview.cancelled = true;
    } catch (const std::exception &e) {
        for (const StrategySpec &s : project.strategies)
            overview.comparison.push_back({s.name, strategyKindName(s.kind), 0, e.what()});
    }
    report(what, 100);
    return overview;
}

bool problemIsSound(const Problem &p) { return p.layer.problems().empty() && p.hardware.problems().empty(); }

} // namespace

ProjectDocument::ProjectDocument(QObject *parent)
    : QObject(parent)
{
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, &ProjectDocument::fileChanged);
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const SimulationSnapshot>>::finished, this,
            &ProjectDocument::onSimulationFinished);
    connect(&m_compareWatcher, &QFutureWatcher<Overview>::finished, this, [this] {
        m_overviewRunning = false;
        const Overview overview = m_compareWatcher.result();
        if (!overview.cancelled) {
            m_comparison = overview.comparison;
            if (overview.sweepDone)
                m_sweep = overview.sweep; // the sweep depends on the problem only
        }
        emit comparisonChanged();
        if (std::exchange(m_pendingCompare, false))
            recompare(std::exchange(m_pendingSweep, false));
    });
}

ProjectDocument::~ProjectDocument()
{
    // The undo stack's destructor emits cleanChanged; a document going away
    // must not call back into views that are being destroyed with it.
    blockSignals(true);
    m_watcher.waitForFinished();
    m_compareWatcher.waitForFinished();
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

void ProjectDocument::resetToProject(const Project &project, const QString &path)
{
    m_project = project;
    m_filePath = path;
    m_undoStack.clear();
    m_current = m_project.strategies.empty() ? -1 : 0;
    emit fileChanged();
    emit problemChanged();
    emit strategiesChanged();
    emit currentStrategyChanged(m_current);
    resimulate();
    recompare(true);
}

QString ProjectDocument::displayName() const
{
    return m_filePath.isEmpty() ? tr("Untitled") : QFileInfo(m_filePath).fileName();
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
    m_project.strategies.insert(m_project.strategies.begin() + index, spec);
    emit strategiesChanged();
    m_current = -1; // the index may be the same, the strategy is not
    setCurrentStrategy(index);
    recompare(false);
}

void ProjectDocument::removeStrategy(int index)
{
    if (index < 0 || index >= int(m_project.strategies.size()))
        return;
    m_project.strategies.erase(m_project.strategies.begin() + index);
    emit strategiesChanged();
    const int count = int(m_project.strategies.size());
    m_current = -1; // force the change signal and a new simulation
    setCurrentStrategy(std::min(index, count - 1));
    recompare(false);
}

void ProjectDocument::replaceStrategy(int index, const StrategySpec &spec)
{
    if (index < 0 || index >= int(m_project.strategies.size()))
        return;
    m_project.strategies[std::size_t(index)] = spec;
    emit strategiesChanged();
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
    if (m_simulationRunning) {
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
    m_simulationCancel = std::make_shared<std::atomic<bool>>(false);
    m_simulationRunning = true;
    m_watcher.setFuture(
        QtConcurrent::run(simulateCopy, m_project, m_current, m_filePath.toStdString(), m_simulationCancel, progressReporter()));
}

void ProjectDocument::onSimulationFinished()
{
    m_simulationRunning = false;
    if (std::exchange(m_pendingResimulation, false)) {
        resimulate();
        return;
    }
    m_cursor.reset(); // it points into the old snapshot
    m_simulation = m_watcher.result();
    if (m_simulation->failure.empty() && !m_simulation->result.steps.empty()) {
        m_cursor = std::make_unique<StepCursor>(m_simulation->problem, m_simulation->result);
        const int last = int(m_simulation->result.steps.size()) - 1;
        m_cursor->seek({std::min(m_moment.step, last), m_moment.action});
        m_moment = m_cursor->moment();
    }
    emit simulationChanged();
    emit momentChanged(m_moment);
}

void ProjectDocument::cancel()
{
    for (const auto &flag : {m_simulationCancel, m_overviewCancel})
        if (flag)
            flag->store(true);
    m_pendingResimulation = m_pendingCompare = false;
}

// Workers report from their thread; the signal is emitted on the GUI thread.
std::function<void(const QString &, int)> ProjectDocument::progressReporter()
{
    QPointer<ProjectDocument> self(this);
    return [self](const QString &what, int percent) {
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, what, percent] {
                    if (self)
                        emit self->progress(what, percent);
                },
                Qt::QueuedConnection);
    };
}

void ProjectDocument::recompare(bool sweepToo)
{
    if (m_overviewRunning) {
        m_pendingCompare = true;
        m_pendingSweep = m_pendingSweep || sweepToo;
        return;
    }
    if (!problemIsSound(m_project.problem)) {
        m_comparison.clear();
        emit comparisonChanged();
        return;
    }
    m_overviewCancel = std::make_shared<std::atomic<bool>>(false);
    m_overviewRunning = true;
    m_compareWatcher.setFuture(QtConcurrent::run(overviewCopy, m_project, m_filePath.toStdString(), sweepToo, m_overviewCancel, progressReporter()));
}

} // namespace convoffload::ui
