// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/IlpSolver.h"

#include "convoffload/io/ChildProcess.h"
#include "convoffload/io/FormatError.h"
#include "convoffload/io/HelperProgram.h"
#include "convoffload/io/TempDir.h"
#include "convoffload/optimise/IlpFiles.h"
#include "convoffload/optimise/IlpModel.h"
#include "convoffload/optimise/IlpModelSize.h"
#include "convoffload/optimise/S1InstanceBound.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace convoffload {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char *kWorkerName = "convoffload-cbc-worker";
constexpr const char *kGreeting = "convoffload-cbc-worker 1";
#ifndef CONVOFFLOAD_WORKER_FROM_BIN // set by the build from its install directories
#define CONVOFFLOAD_WORKER_FROM_BIN "../libexec/convoffload"
#endif
constexpr const char *kWorkerFromBin = CONVOFFLOAD_WORKER_FROM_BIN;

/// The MIP start as CBC's -mipstart reader wants it: a solution file. A
/// scratch file in the run's own 0700 folder (TempDir), read once by the
/// worker and removed with the folder: no user's file is replaced and no
/// other user can plant a link there, so it is written directly, without the
/// atomic save's fsync (docs/user/bad-input.md, "Saves never damage a file").
void writeStartFile(const IlpModel &model, const std::vector<double> &values, const fs::path &path)
{
    std::ofstream out(path);
    out << "Feasible - objective value " << objectiveValue(model, values) << "\n";
    for (std::size_t c = 0; c < values.size(); ++c)
        out << c << ' ' << model.columnName(c) << ' ' << values[c] << " 0\n";
    if (!out.flush())
        throw IlpError(path.string() + ": the MIP start could not be written");
}

std::optional<double> numberOrNone(const std::string &word)
{
    if (word == "-")
        return std::nullopt;
    char *end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0')
        throw std::invalid_argument(word);
    return v;
}

/// The start of an off-protocol line, in quotes, with what cannot be printed
/// escaped (printable): the worker may print binary junk or ESC sequences,
/// which go into a message on the user's terminal. Built by appending: GCC 12
/// warns falsely (-Wrestrict) on "'" + line.substr(...) + "'" once inlined.
std::string quoted(const std::string &line)
{
    constexpr std::size_t kShown = 200;
    std::string text(1, '\'');
    text += printable(std::string_view(line).substr(0, kShown));
    if (line.size() > kShown)
        text += "...";
    text += '\'';
    if (line.ends_with(ChildProcess::kLineCutMarker))
        text += " (a line longer than " + std::to_string(ChildProcess::kDefaultMaxLineBytes) + " bytes, cut)";
    else if (line.size() > kShown)
        text += " (a line of " + std::to_string(line.size()) + " bytes)";
    return text;
}

/// Progress points kept in the result's history at most: beyond, every
/// other one is dropped (the first and the newest stay). A worker prints
/// ten a second at most; one that prints more is not followed faster than
/// kMinProgressInterval either.
constexpr std::size_t kMaxHistory = 10000;
constexpr double kMinProgressInterval = 0.05;

/// What the worker said, line by line; anything off-protocol is garbage,
/// and so are more columns than the model has: what is kept of the worker's
/// output is bounded by the model, whatever it prints.
struct WorkerAnswer {
    explicit WorkerAnswer(std::size_t columnCount)
        : max_columns(columnCount)
    {
    }
    std::size_t max_columns;
    bool greeted = false, complete = false;
    std::string status, error, garbage;
    std::optional<double> objective, bound;
    std::optional<double> last_incumbent;
    std::vector<std::pair<std::string, double>> columns;

    void read(const std::string &line, const std::function<void(std::optional<double>, std::optional<double>)> &onProgress)
    {
        if (!garbage.empty())
            return;
        if (!greeted) {
            if (line != kGreeting)
                garbage = quoted(line) + " where its greeting was expected";
            greeted = true;
            return;
        }
        std::istringstream in(line);
        std::string word;
        in >> word;
        std::vector<std::string> rest;
        for (std::string w; in >> w;)
            rest.push_back(w);
        try {
            if (word == "progress" && rest.size() == 3) {
                numberOrNone(rest[0]);
                const std::optional<double> incumbent = numberOrNone(rest[1]);
                if (incumbent)
                    last_incumbent = incumbent;
                onProgress(incumbent, numberOrNone(rest[2]));
            } else if (word == "status" && rest.size() == 1) {
                status = rest[0];
            } else if (word == "objective" && rest.size() == 1) {
                objective = numberOrNone(rest[0]);
            } else if (word == "bound" && rest.size() == 1) {
                bound = numberOrNone(rest[0]);
            } else if (word == "seconds" && rest.size() == 1) {
                numberOrNone(rest[0]);
            } else if (word == "col" && rest.size() == 2) {
                if (columns.size() >= max_columns) {
                    garbage = "more than the model's " + std::to_string(max_columns) + " columns";
                    return;
                }
                columns.emplace_back(rest[0], numberOrNone(rest[1]).value_or(0));
            } else if (word == "end" && rest.empty()) {
                complete = true;
            } else if (word == "error") {
                error = line.size() > 6 ? printable(std::string_view(line).substr(6, 2000)) : "unknown error";
            } else {
                garbage = quoted(line);
            }
        } catch (const std::invalid_argument &) {
            garbage = quoted(line) + " (not a number)";
        }
    }
};

/// The end of the worker's stderr, escaped (printable).
std::string lastLines(const std::string &text)
{
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r'))
        t.pop_back();
    const std::size_t keep = 400;
    return printable(t.size() > keep ? "..." + t.substr(t.size() - keep) : t);
}

/// x values of the worker's columns: every other column is implied by them.
std::vector<double> columnValues(const IlpModel &model, const std::vector<std::pair<std::string, double>> &columns)
{
    std::vector<double> values(model.columnCount(), 0.0);
    for (const auto &[name, value] : columns) {
        unsigned long long patch = 0, group = 0;
        char tail = 0;
        if (std::sscanf(name.c_str(), "x_p%llu_g%llu%c", &patch, &group, &tail) != 2)
            continue;
        if (std::int64_t(patch) >= model.patches || std::int64_t(group) >= model.groups)
            throw IlpError("the worker names a column the model does not have: " + printable(name.substr(0, 200)));
        values[model.x(PatchId(patch), std::int64_t(group))] = value;
    }
    return values;
}

/// Reaps the killed child `pid` on a thread of its own: a child holding a
/// large model takes 50-100 ms to die (its memory is unmapped), which the
/// run waited for after its time limit. Its partial file may be removed
/// meanwhile: the file is unlinked, and nothing is written once it is killed.
void reapInBackground(pid_t pid)
{
    std::thread([pid] {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    }).detach();
}

/// Writes the model's MPS file in a child process, so that `stopNow`
/// (polled every 5 ms) can end the write at once: on a large layer it takes
/// seconds in CoinMpsIO, which cannot be interrupted (LeNet-5 conv1: 262 MB).
/// `path` lies in a private directory: the child writes it in place (no
/// temporary file of its own that a kill would leave behind), and returns
/// false when stopped (the child is killed; the directory takes the partial
/// file away). When the child cannot be made or fails, the model is written
/// here, so that an error is thrown with its message. The child of a
/// threaded process may only rely on what fork keeps consistent: glibc's
/// malloc and stdio are (CoinMpsIO needs nothing else), but the allocator of
/// GCC 12's AddressSanitizer is not, so its tests must not allocate while
/// the fork may happen (tst_ilp). A child that hangs all the same is killed
/// by Stop or the time limit.
bool writeMpsStoppably(const IlpModel &model, const std::string &path, const std::function<bool()> &stopNow)
{
    const pid_t pid = ::fork();
    if (pid == 0) { // the child: the model, then out without the parent's exit handlers
        int code = 0;
        try {
            writeMpsInPlace(model, path);
        } catch (...) {
            code = 1;
        }
        ::_exit(code);
    }
    if (pid > 0) {
        for (;;) {
            int status = 0;
            const pid_t ended = ::waitpid(pid, &status, WNOHANG);
            if (ended == pid) {
                if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                    return true;
                break; // failed: again here, for the message
            }
            if (ended < 0 && errno != EINTR)
                break;
            if (stopNow()) {
                ::kill(pid, SIGKILL);
                reapInBackground(pid); // the run ends now, not once the child is gone
                return false;
            }
            // Often enough that a stop lands within a few milliseconds
            // (a time limit ended the run 0.1 to 0.6 s late; tst_timelimits).
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    writeMpsInPlace(model, path);
    return true;
}

class IlpRun {
public:
    IlpRun(const S1Instance &instance, const IlpSolveOptions &options, const OptimiseControl &control)
        : m_in(instance)
        , m_options(options)
        , m_control(control)
        , m_begin(Clock::now())
    {
        m_result.method = "ilp";
        m_result.lower_bound = lowerBound(instance);
    }

    OptimiseResult run()
    {
        try {
            solve();
        } catch (const std::exception &e) {
            fail(e.what());
        }
        m_result.seconds = elapsed();
        return std::move(m_result);
    }

private:
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_begin).count(); }

    void enter(OptimisePhase phase) const
    {
        if (m_control.phase)
            m_control.phase(phase, elapsed());
    }

    void fail(const std::string &message)
    {
        m_result.status = OptimiseStatus::Failed;
        m_result.message = message;
        m_result.groups.clear();
        m_result.duration = 0;
    }

    /// The strategy the result falls back on when CBC tells nothing better.
    void takeStart(const std::string &why)
    {
        if (!m_start) {
            m_result.status = OptimiseStatus::NoSolution;
            m_result.message = why + "; no start strategy to fall back on";
            return;
        }
        m_result.groups = *m_start;
        m_result.duration = m_startEvaluation->duration;
        m_result.status = meetsBound(m_result.duration) ? OptimiseStatus::Optimal : OptimiseStatus::Feasible;
        m_result.message = why + "; the start strategy is kept";
    }

    bool meetsBound(double duration) const { return duration <= m_result.lower_bound + 1e-6 * std::max(1.0, duration); }

    void solve()
    {
        // CoinUtils does not check its allocations (IlpModelSize.h).
        if (const std::optional<std::string> why = ilpModelExceedsMemory(estimateIlpModelSize(m_in)))
            return fail(*why + "; use a larger group size or the search optimiser");
        const double limit = m_control.time_limit_s;
        if (m_options.start)
            m_start = m_options.start;
        else if (std::optional<NamedGroups> best = bestFeasibleHeuristic(m_in))
            m_start = best->groups;
        if (m_start) {
            m_startEvaluation = evaluate(m_in, *m_start); // once: the fallback, the first point, the pruning
            if (!m_startEvaluation->feasible) { // CBC would refuse it anyway; the result must stay valid
                m_start.reset();
                m_startEvaluation.reset();
            }
        }
        raiseBoundByPartitions(limit);
        if (m_start) { // the best so far while the model is made (seconds on a large layer)
            m_result.history.push_back(OptimiseProgress{elapsed(), m_startEvaluation->duration, m_result.lower_bound});
            if (m_control.progress)
                m_control.progress(m_result.history.back());
            if (meetsBound(*m_result.history.back().incumbent)) { // nothing left for CBC to find or prove
                takeStart("");
                m_result.message = "the start strategy meets the lower bound, so CBC was not run";
                return;
            }
        }
        // On a large layer, building and writing the model take seconds
        // before CBC starts (LeNet-5 conv1: 2.3 M rows, 262 MB of MPS): Stop
        // and the time limit are looked at between the phases, and the write
        // runs in a child process that they end at once.
        if (stoppedBeforeCbc(limit, "while the model was made"))
            return;
        enter(OptimisePhase::BuildingModel);
        const IlpModel model = buildIlpModel(m_in);
        if (stoppedBeforeCbc(limit, "while the model was made"))
            return;

        const TempDir dir(m_options.temp_dir, "convoffload-ilp-");
        if (dir.path().empty())
            return fail("cannot create a temporary directory for the model: " + dir.error());
        const fs::path mps = dir.path() / "model.mps", startFile = dir.path() / "start.sol";
        enter(OptimisePhase::WritingModel);
        if (!writeMpsStoppably(model, mps.string(), [&] { return stopAsked(limit); })) { // asked, so it is seen as stopped
            stoppedBeforeCbc(limit, "while the model was written for CBC");
            return;
        }
        std::vector<std::string> args{mps.string()};
        if (m_start) {
            writeStartFile(model, mipStart(model, m_in, *m_start), startFile);
            args.insert(args.end(), {"--start", startFile.string()});
        }
        if (stoppedBeforeCbc(limit, "while the model was written for CBC"))
            return;
        enter(OptimisePhase::Solving);
        // CBC gets what is left of the limit, which counts from the call:
        // given the whole limit, it ran that long after a model written in
        // seconds, and the run ended well past the limit.
        if (limit > 0)
            args.insert(args.end(), {"--time-limit", std::to_string(std::max(0.01, limit - elapsed()))});

        const std::string worker = m_options.worker_path.empty() ? defaultCbcWorkerPath() : m_options.worker_path;
        ChildProcess child;
        if (const std::string error = child.start(worker, args); !error.empty())
            return fail("cannot start the CBC worker '" + worker + "': " + error);

        WorkerAnswer answer(model.columnCount());
        // At most one point each kMinProgressInterval; the newest one held
        // back is recorded at the end.
        std::optional<OptimiseProgress> heldBack;
        const auto record = [&](const OptimiseProgress &point) {
            if (m_result.history.size() >= kMaxHistory) {
                std::size_t kept = 1;
                for (std::size_t k = 2; k + 1 < m_result.history.size(); k += 2)
                    m_result.history[kept++] = m_result.history[k];
                m_result.history[kept++] = m_result.history.back();
                m_result.history.resize(kept);
            }
            m_result.history.push_back(point);
            if (m_control.progress)
                m_control.progress(point);
        };
        const auto onProgress = [&](std::optional<double> incumbent, std::optional<double> bound) {
            OptimiseProgress point;
            point.seconds = elapsed();
            point.incumbent = incumbent;
            if (bound)
                point.bound = std::max(*bound, m_result.lower_bound);
            heldBack.reset();
            if (!m_result.history.empty() && point.seconds - m_result.history.back().seconds < kMinProgressInterval)
                heldBack = point;
            else
                record(point);
        };
        // Asked to stop (time or cancel) at stopAsked, killed kill_after_s later.
        std::optional<double> stopAsked;
        bool killed = false;
        while (child.poll(50, [&](const std::string &line) { answer.read(line, onProgress); })) {
            const double now = elapsed();
            if (!answer.garbage.empty() && child.running()) {
                child.signal(SIGKILL);
                killed = true;
            }
            if (!stopAsked) {
                const bool cancel = m_control.cancel && m_control.cancel->load();
                const bool late = limit > 0 && now > limit + m_options.grace_s;
                if (cancel || late) {
                    m_result.cancelled = cancel;
                    m_result.timed_out = !cancel;
                    stopAsked = now;
                    child.signal(SIGTERM);
                }
            } else if (!killed && now > *stopAsked + m_options.kill_after_s && child.running()) {
                child.signal(SIGKILL);
                killed = true;
            }
        }
        if (heldBack)
            record(*heldBack);
        // One reason to stop: a Stop pressed after the time limit had stopped
        // CBC made both flags true, and the dialog said "stopped, time limit
        // reached ... cancelled".
        if (m_control.cancel && m_control.cancel->load() && !m_result.timed_out)
            m_result.cancelled = true;
        enter(OptimisePhase::Simulating);
        conclude(model, worker, child, answer, stopAsked.has_value(), killed);
    }

    /// On small layers (up to 64 patches) the relaxed optimum of
    /// S1InstanceBound.h, a tenth of a second at most, is often the optimum
    /// itself, where CBC's bound can stay below it for minutes (the paper's
    /// 5×5 example: 109 after 10 s, the optimum being 111). The search and
    /// the exact method report it; the ILP must not report less.
    void raiseBoundByPartitions(double limit)
    {
        PartitionBoundLimits limits;
        limits.cancel = m_control.cancel;
        if (limit > 0)
            limits.deadline = m_begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
        if (m_start && m_in.group_count == GroupCount::ExactlyKMin)
            limits.known_loads = m_startEvaluation->loaded_pixels;
        if (const std::optional<double> bound = partitionLowerBound(m_in, limits))
            m_result.lower_bound = std::max(m_result.lower_bound, *bound);
    }

    /// Cancel, or the time limit is past (before CBC runs: no grace).
    bool stopAsked(double limit) const
    {
        return (m_control.cancel && m_control.cancel->load()) || (limit > 0 && elapsed() > limit);
    }

    /// Cancel or the time limit before CBC started: the start strategy.
    bool stoppedBeforeCbc(double limit, const std::string &when)
    {
        if (!stopAsked(limit))
            return false;
        const bool cancel = m_control.cancel && m_control.cancel->load();
        m_result.cancelled = cancel;
        m_result.timed_out = !cancel;
        takeStart(std::string(cancel ? "cancelled " : "the time limit was reached ") + when
            + ", before CBC started, so CBC did not run");
        return true;
    }

    void conclude(const IlpModel &model, const std::string &worker, const ChildProcess &child, const WorkerAnswer &answer,
        bool stopAsked, bool killed)
    {
        const std::string stderrTail = lastLines(child.stderrTail());
        const std::string details = stderrTail.empty() ? "" : " (stderr: " + stderrTail + ")";
        if (!answer.garbage.empty())
            return fail("the CBC worker '" + worker + "' printed " + answer.garbage + "; is it the right program?");
        if (!answer.complete) {
            if (stopAsked) {
                const std::string lost
                    = answer.last_incumbent && m_start && *answer.last_incumbent < m_startEvaluation->duration - 1e-9
                    ? " (its incumbent of " + std::to_string(*answer.last_incumbent) + " was lost)"
                    : "";
                return takeStart(std::string(m_result.cancelled ? "cancelled" : "the time limit was reached")
                    + (killed ? ", CBC did not stop in time and was killed" : ", CBC stopped before reporting") + lost);
            }
            if (const std::optional<int> sig = child.terminatingSignal())
                return fail("the CBC worker crashed (signal " + std::to_string(*sig) + ", " + strsignal(*sig) + ")" + details);
            if (child.exitedNormally() && child.exitCode() != 0)
                return fail("the CBC worker failed (exit code " + std::to_string(child.exitCode())
                    + (answer.error.empty() ? "" : "): " + answer.error) + (answer.error.empty() ? ")" : "") + details);
            if (!answer.greeted)
                return fail("the CBC worker '" + worker + "' printed nothing" + details);
            return fail("the CBC worker ended without a complete answer" + details);
        }

        if (answer.bound)
            m_result.lower_bound = std::max(m_result.lower_bound, *answer.bound);
        // CBC stops short of a proof, unasked, only at the time limit it was
        // given (no node or gap limit is set): the run used its time.
        if (!m_result.cancelled && (answer.status == "feasible" || answer.status == "no-solution"))
            m_result.timed_out = true;
        if (answer.status == "infeasible") {
            m_result.status = OptimiseStatus::NoSolution;
            m_result.message = "CBC proved that no ordered partition into " + std::to_string(model.groups)
                + " groups meets the group size, memory and reload limits";
            return;
        }
        if (answer.status == "no-solution" || answer.objective == std::nullopt)
            return takeStart("CBC found no solution");
        if (answer.status != "optimal" && answer.status != "feasible")
            return fail("the CBC worker reported the unknown status " + quoted(answer.status));

        const Groups groups = groupsFromColumnValues(model, columnValues(model, answer.columns));
        const S1Evaluation ev = evaluate(m_in, groups);
        if (!ev.feasible)
            return fail("CBC's solution breaks a constraint: " + ev.violation);
        m_result.groups = groups;
        m_result.duration = ev.duration;
        const double tolerance = 1e-6 * std::max(1.0, ev.duration);
        const bool provenByCbc = answer.status == "optimal" && !m_result.cancelled;
        const bool provenByBound = !provenByCbc && meetsBound(ev.duration);
        m_result.status = provenByCbc || provenByBound ? OptimiseStatus::Optimal : OptimiseStatus::Feasible;
        if (provenByCbc)
            m_result.lower_bound = std::max(m_result.lower_bound, ev.duration - tolerance);
        m_result.lower_bound = std::min(m_result.lower_bound, ev.duration);
        // v and z are only bounded from below (IlpModel.cpp), so a point CBC
        // has not finished with may overstate the loads of its own groups.
        // A stop or the time limit is not repeated here: the result's flags say it.
        if (std::abs(*answer.objective - ev.duration) > tolerance)
            m_result.message = "CBC's objective " + std::to_string(*answer.objective)
                + " overstates the duration of its strategy, which is the result's";
        if (provenByBound)
            m_result.message += std::string(m_result.message.empty() ? "" : "; ")
                + "proven optimal by the partition bound, which CBC's bound had not reached";
    }

    const S1Instance &m_in;
    const IlpSolveOptions &m_options;
    const OptimiseControl &m_control;
    const Clock::time_point m_begin;
    std::optional<Groups> m_start;
    std::optional<S1Evaluation> m_startEvaluation; // set with m_start
    OptimiseResult m_result;
};

} // namespace

std::string defaultCbcWorkerPath()
{
    // Next to the running program (the build tree), then where an installed
    // bin/ program finds the installed worker (CMake passes the relative path
    // from bin/ to libexec/convoffload/).
    return helperProgramPath(kWorkerName, nullptr, kWorkerFromBin);
}

OptimiseResult solveIlp(const S1Instance &instance, const IlpSolveOptions &options, const OptimiseControl &control)
{
    return IlpRun(instance, options, control).run();
}

} // namespace convoffload
