// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One piece of long work run off the GUI thread: the simulation, comparison and
// sweep of a ProjectDocument, the Optimise and Experiments dialogs' runs.
//
//     BackgroundJob<Result, Progress> job(parent, ProgressDelivery::Latest);
//     job.setProgressHandler([](const Progress &p) { ... });   // GUI thread
//     job.setFinishedHandler([](Result r) { ... });            // GUI thread, once per run
//     job.start([copies](const JobControl<Progress> &control) { ...; return Result{...}; });
//
// The contract:
// - The work runs on the jobs' own thread pool with copies of what it needs;
//   it polls control.cancelFlag() (or hands it to the core: SimulationOptions::
//   cancel, OptimiseControl::cancel, runPaperExperiments) and reports through
//   control.report(), which never blocks. It reports its own failures in its
//   Result: an exception escaping it ends the program. It catches
//   std::exception and words it with errorMessage (OutOfMemory.h), so that a
//   std::bad_alloc says what ran out of memory and for which file.
// - The job is running from start() until its finished handler is called on
//   the GUI thread, not merely until the worker returns, so isRunning() and
//   start() cannot race with a result on its way. (Inside the handler it is no
//   longer running: the handler may start the next run.)
// - start() while running is refused (returns false): the caller queues the
//   request and starts again from its finished handler. There is no second
//   handler to attach and no stale result to deliver; cancel() first to make
//   the running one end soon.
// - Each accepted start() gets its finished handler called exactly once, after
//   all of that run's progress; no progress of a run arrives after its finish.
// - Handlers are set once (not per run); setting one replaces the previous one.
// - The destructor raises the cancel flag and then waits for the worker, so
//   closing a window never waits for work that nobody will see.

#include <QFuture>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace convoffload::ui {

/// How a job's progress reports reach the GUI thread. Either way at most one
/// delivery event per job waits in the GUI thread's queue.
enum class ProgressDelivery {
    Every, // every report, in order, in batches (table rows, chart points)
    Latest, // only the newest, at most every 50 ms (a percentage)
};

/// The part of a job that is not about its types: the running state, the
/// cancel flag of the current run, the worker's future and the signals.
class BackgroundJobBase : public QObject {
    Q_OBJECT
public:
    /// True from start() until the finished handler of that run is called.
    bool isRunning() const { return m_running; }
    /// Raises the current run's cancel flag; its finished handler still comes.
    void cancel();
    /// Whether the current (or else the last) run was asked to stop.
    bool isCancelled() const { return m_cancel && m_cancel->load(); }
    /// Blocks until the worker has returned. The finished handler is still
    /// called later, from the event loop.
    void waitForWorker();

signals:
    /// A run was accepted (emitted by start(), before it returns).
    void started();
    /// A run's finished handler has returned. A handler that starts the next
    /// run makes started() come before this finished().
    void finished();

protected:
    explicit BackgroundJobBase(QObject *parent);
    /// Runs `task` on the global thread pool as the current run.
    void launch(std::shared_ptr<std::atomic<bool>> cancel, std::function<void()> task);
    /// The current run is over (called before the finished handler).
    void markFinished() { m_running = false; }
    /// Cancel, then wait: what every job's destructor does.
    void cancelAndWait();

private:
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFuture<void> m_future;
    bool m_running = false;
};

namespace detail {

/// What a run shares between its worker and the GUI thread.
template <typename Result, typename Progress> struct JobRun {
    std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    std::mutex mutex;
    std::vector<Progress> pending; // reports not yet delivered
    bool deliveryPosted = false;
    std::chrono::steady_clock::time_point lastPost;
    std::optional<Result> result;
};

} // namespace detail

template <typename Result, typename Progress> class BackgroundJob;

/// What the work function receives: the cancel flag and the progress reporter.
/// Safe to use from the worker thread only while the work runs.
template <typename Progress> class JobControl {
public:
    const std::atomic<bool> *cancelFlag() const { return m_cancel; }
    bool isCancelled() const { return m_cancel->load(std::memory_order_relaxed); }
    void report(Progress progress) const { m_report(std::move(progress)); }

private:
    template <typename, typename> friend class BackgroundJob;
    JobControl(const std::atomic<bool> *cancel, std::function<void(Progress)> report)
        : m_cancel(cancel)
        , m_report(std::move(report))
    {
    }
    const std::atomic<bool> *m_cancel;
    std::function<void(Progress)> m_report;
};

template <typename Result, typename Progress = int> class BackgroundJob final : public BackgroundJobBase {
public:
    using Control = JobControl<Progress>;
    using Work = std::function<Result(const Control &)>;

    explicit BackgroundJob(QObject *parent = nullptr, ProgressDelivery delivery = ProgressDelivery::Every)
        : BackgroundJobBase(parent)
        , m_delivery(delivery)
    {
    }
    ~BackgroundJob() override { cancelAndWait(); }

    void setProgressHandler(std::function<void(const Progress &)> handler) { m_onProgress = std::move(handler); }
    void setFinishedHandler(std::function<void(Result)> handler) { m_onFinished = std::move(handler); }

    /// Starts `work` on a worker; refused (false) while a run is under way.
    bool start(Work work)
    {
        if (isRunning())
            return false;
        auto run = std::make_shared<Run>();
        m_run = run;
        launch(run->cancel, [this, run, work = std::move(work)]() noexcept {
            const Control control(run->cancel.get(), [this, run](Progress progress) { post(run, std::move(progress)); });
            Result result = work(control);
            {
                std::lock_guard lock(run->mutex);
                run->result.emplace(std::move(result));
            }
            QMetaObject::invokeMethod(
                this, [this, run] { deliverResult(run); }, Qt::QueuedConnection);
        });
        return true;
    }

private:
    using Run = detail::JobRun<Result, Progress>;
    static constexpr std::chrono::milliseconds kLatestInterval{50};

    // Worker thread: keep the report and post one delivery unless one is waiting.
    void post(const std::shared_ptr<Run> &run, Progress progress)
    {
        const auto now = std::chrono::steady_clock::now();
        {
            std::lock_guard lock(run->mutex);
            if (m_delivery == ProgressDelivery::Latest)
                run->pending.clear();
            run->pending.push_back(std::move(progress));
            if (run->deliveryPosted || (m_delivery == ProgressDelivery::Latest && now - run->lastPost < kLatestInterval))
                return; // a waiting delivery, or the result, takes this one along
            run->deliveryPosted = true;
            run->lastPost = now;
        }
        QMetaObject::invokeMethod(
            this, [this, run] { deliverProgress(run); }, Qt::QueuedConnection);
    }

    // GUI thread.
    void deliverProgress(const std::shared_ptr<Run> &run)
    {
        if (run != m_run)
            return; // a finished run's late delivery
        std::vector<Progress> batch;
        {
            std::lock_guard lock(run->mutex);
            batch.swap(run->pending);
            run->deliveryPosted = false;
        }
        for (const Progress &progress : batch)
            if (m_onProgress && run == m_run)
                m_onProgress(progress);
    }

    void deliverResult(const std::shared_ptr<Run> &run)
    {
        if (run != m_run)
            return;
        deliverProgress(run); // what the worker reported last comes before the result
        std::optional<Result> result;
        {
            std::lock_guard lock(run->mutex);
            result.swap(run->result);
        }
        m_run.reset();
        markFinished();
        const QPointer<BackgroundJobBase> alive(this);
        if (m_onFinished)
            m_onFinished(std::move(*result));
        if (alive)
            emit finished();
    }

    const ProgressDelivery m_delivery;
    std::function<void(const Progress &)> m_onProgress;
    std::function<void(Result)> m_onFinished;
    std::shared_ptr<Run> m_run; // the current run, null between runs
};

} // namespace convoffload::ui
