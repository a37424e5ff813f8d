// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The end of the time an optimiser run may use, shared by all its phases
// (setting up the instance, the heuristics, the bounds, the method, the
// re-simulation): each looks at it, so `--time-limit` bounds the whole run
// and not only the method's own loop (docs/reference/cli.md#optimize).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace convoffload {

/// Thrown by a phase that finds the deadline passed before it has anything
/// to return; `phase` says what it was doing ("setting up the instance").
struct TimeLimitReached : std::runtime_error {
    explicit TimeLimitReached(std::string what)
        : std::runtime_error("the time limit ran out while " + what)
        , phase(std::move(what))
    {
    }
    std::string phase;
};

class Deadline {
public:
    using Clock = std::chrono::steady_clock;

    Deadline() = default; // never passes
    /// `seconds` from now; a negative or zero time has already passed.
    explicit Deadline(double seconds);

    bool passed() const { return m_end && Clock::now() >= *m_end; }
    /// Seconds left, 0 once passed (a large number when it never passes).
    double secondsLeft() const;
    /// Throws TimeLimitReached(phase) once passed.
    void check(const char *phase) const
    {
        if (passed())
            throw TimeLimitReached(phase);
    }

private:
    std::optional<Clock::time_point> m_end;
};

/// A cancel flag raised when the deadline passes or the caller's own flag
/// is raised, for work that polls a flag rather than a clock (a simulation:
/// SimulationOptions::cancel). A thread watches both while it lives.
class DeadlineFlag {
public:
    DeadlineFlag(const Deadline &deadline, const std::atomic<bool> *cancel);
    ~DeadlineFlag();
    DeadlineFlag(const DeadlineFlag &) = delete;
    DeadlineFlag &operator=(const DeadlineFlag &) = delete;

    const std::atomic<bool> *flag() const { return &m_raised; }
    /// Raised by the caller's flag, not by the deadline.
    bool cancelled() const { return m_cancel && m_cancel->load(); }

private:
    const Deadline m_deadline;
    const std::atomic<bool> *const m_cancel;
    std::atomic<bool> m_raised{false};
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_ending = false;
    std::thread m_watcher;
};

} // namespace convoffload
