// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The UI-side owner of a project: the core Project value, its file, the undo
// stack and modified state, the selected strategy, its simulation (run off the
// GUI thread, unless it is small: setSynchronousLimit) and the moment being shown. Views read from it and listen to its
// signals; every edit goes through an undo command that calls its setters.

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/simulate/StepCursor.h"
#include "convoffload/simulate/WorkEstimate.h"
#include "jobs/BackgroundJob.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>
#include <optional>
#include <string_view>

namespace convoffload::ui {

/// How the failure of a strategy the worker refused for the work budget
/// begins: such a strategy is not wrong, only not simulated.
inline constexpr std::string_view kNotSimulatedPrefix = "not simulated: ";

/// A finished simulation of one strategy, shared read-only with the views.
struct SimulationSnapshot {
    Problem problem;
    StrategySpec spec;
    std::string failure; // the strategy could not be expanded (then result is empty)
    SimulationResult result;
};

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject *parent = nullptr);
    ~ProjectDocument() override;

    // ---- file ---------------------------------------------------------------
    /// Replaces the document; returns an error message (empty on success).
    QString load(const QString &path);
    /// Atomic save; returns an error message naming the path and reason.
    QString save(const QString &path);
    /// `untitledName` names a project with no file yet (a layer opened from a
    /// network: "resnet8 › conv1") in the title and prompts; "Untitled" when empty.
    void resetToProject(const Project &project, const QString &path = {}, const QString &untitledName = {});
    QString filePath() const { return m_filePath; }
    QString displayName() const;
    bool isModified() const { return !m_undoStack.isClean(); }
    QUndoStack *undoStack() { return &m_undoStack; }

    // ---- the project (setters are for undo commands; views push commands) ---
    const Project &project() const { return m_project; }
    const Problem &problem() const { return m_project.problem; }
    void setProblem(const Problem &problem);
    void insertStrategy(int index, const StrategySpec &spec);
    void removeStrategy(int index);
    void replaceStrategy(int index, const StrategySpec &spec);
    /// A name not used by any strategy yet, based on `base`.
    QString uniqueStrategyName(const QString &base) const;

    // ---- what is shown ------------------------------------------------------
    int currentStrategy() const { return m_current; }
    void setCurrentStrategy(int index);
    /// The selected strategy's simulation, null while none is ready.
    std::shared_ptr<const SimulationSnapshot> simulation() const { return m_simulation; }
    /// Cursor over the current simulation's trace, null without one.
    const StepCursor *cursor() const { return m_cursor.get(); }
    Moment moment() const { return m_moment; }
    void seek(Moment moment);
    /// True from the start of a job until its result has been taken in.
    bool busy() const { return m_simulationJob.isRunning() || m_comparisonJob.isRunning() || m_sweepJob.isRunning(); }
    /// Stops the running simulation, comparison and sweep; they report "cancelled".
    void cancel();
    /// Simulations whose work is estimated (estimateSimulation) at most this
    /// many seconds run on the GUI thread, the snapshot taken in before the
    /// call that asked for it returns; larger ones on a worker. 0: always on
    /// a worker (tests of the worker's hand-over use it).
    void setSynchronousLimit(double seconds) { m_synchronousLimit = seconds; }
    static constexpr double kSynchronousSeconds = 0.003;
    /// Above this estimate of one simulation's memory (estimateSimulation),
    /// the simulation, the comparison and the sweep run one after the other
    /// instead of side by side, so that their peaks do not add up (a 4096²
    /// layer: several hundred MB each). Tests lower it to see a small layer
    /// take that route.
    void setConcurrentJobBytes(double bytes) { m_concurrentJobBytes = bytes; }
    static constexpr double kConcurrentJobBytes = 256e6;
    /// Work over this budget is refused with what it would need (default: 10
    /// minutes, 3/4 of the memory); for the jobs started after the call.
    void setWorkBudget(const WorkBudget &budget) { m_budget = budget; }

    /// One row per strategy (valid, duration, ...), refreshed with the project.
    const std::vector<CompareRow> &comparison() const { return m_comparison; }
    /// Row-by-Row and ZigZag over group sizes 1..min(patches, max(32, 2·G)).
    const std::vector<SweepRow> &sweep() const { return m_sweep; }
    /// Why there is no group-size sweep for this layer (empty when there is
    /// one): Row-by-Row and ZigZag keep every kernel on chip, so a layer
    /// whose kernels do not fit has none to sweep.
    QString sweepUnavailable() const;

    /// What a worker reports: which job and how far (0–100).
    struct JobProgress {
        QString what;
        int percent = 0;
    };
    /// What the comparison and sweep workers hand back; nothing when cancelled.
    struct Comparison {
        std::vector<CompareRow> rows;
        bool cancelled = false;
    };
    struct Sweep {
        std::vector<SweepRow> rows;
        bool cancelled = false;
    };

signals:
    void fileChanged(); // path or modified state
    void problemChanged(); // layer, hardware or options
    /// The whole project is being / was replaced (load, new): every strategy
    /// view starts over (models reset between the two). The other signals of
    /// the new project (file, problem, current strategy) come after the pair.
    void projectAboutToBeReset();
    void projectReset();
    // One strategy inserted at / removed from `index`, in about-to/done pairs
    // around the change of the list (models wrap them in begin/end pairs).
    // The current strategy follows its strategy through the change;
    // currentStrategyChanged comes after the pair.
    void strategyAboutToBeInserted(int index);
    void strategyInserted(int index);
    void strategyAboutToBeRemoved(int index);
    void strategyRemoved(int index);
    /// The strategy at `index` was redefined (name, kind, group size or groups).
    void strategyChanged(int index);
    /// The groups of strategy `strategy` may have changed (explicit groups, kind
    /// or group size); emitted after strategyChanged.
    void groupsChanged(int strategy);
    void currentStrategyChanged(int index);
    void simulationStarted();
    void simulationChanged(); // a new snapshot (or none) is available
    void momentChanged(convoffload::Moment moment);
    void comparisonChanged(); // comparison and sweep
    /// Long work under way: what it is and how far (0–100); done when 100.
    void progress(const QString &what, int percent);

private:
    void resimulate();
    /// The comparison, and the sweep too when the problem changed (strategy
    /// edits leave the sweep as it was).
    void recompare(bool sweepToo);
    void startComparison();
    void startSweep();
    /// A big layer's jobs run one at a time (their memory would add up).
    bool oneJobAtATime() const;
    /// Starts the comparison or sweep that waited for another job to end.
    void startDeferredJobs();
    void onSimulationFinished(std::shared_ptr<const SimulationSnapshot> snapshot);
    void onComparisonFinished(Comparison comparison);
    void onSweepFinished(Sweep sweep);

    Project m_project;
    QString m_filePath;
    QString m_untitledName; // displayName() while m_filePath is empty
    QUndoStack m_undoStack;
    int m_current = -1;
    // Inside an insertion or removal, setCurrentStrategy is ignored: a view
    // whose current row moves asks for it, the document chooses after the change.
    bool m_changingStrategies = false;
    Moment m_moment;
    std::shared_ptr<const SimulationSnapshot> m_simulation;
    std::unique_ptr<StepCursor> m_cursor;
    std::vector<CompareRow> m_comparison;
    std::vector<SweepRow> m_sweep;
    // One job each, busy until its result is taken in. A request made while
    // one runs is remembered and started from its finished handler, so only
    // the latest state is computed next.
    BackgroundJob<std::shared_ptr<const SimulationSnapshot>, JobProgress> m_simulationJob;
    BackgroundJob<Comparison, JobProgress> m_comparisonJob;
    BackgroundJob<Sweep, JobProgress> m_sweepJob;
    bool m_pendingResimulation = false, m_pendingCompare = false, m_pendingSweep = false;
    double m_synchronousLimit = kSynchronousSeconds;
    double m_concurrentJobBytes = kConcurrentJobBytes;
    WorkBudget m_budget;
};

} // namespace convoffload::ui
