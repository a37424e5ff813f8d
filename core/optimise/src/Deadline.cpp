// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/Deadline.h"

#include <algorithm>

namespace convoffload {

namespace {

// Longer than any run: "never" without the overflow of time_point::max().
constexpr double kNeverSeconds = 1e9;

} // namespace

Deadline::Deadline(double seconds)
    : m_end(Clock::now()
        + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::clamp(seconds, -1.0, kNeverSeconds))))
{
}

double Deadline::secondsLeft() const
{
    if (!m_end)
        return kNeverSeconds;
    return std::max(0.0, std::chrono::duration<double>(*m_end - Clock::now()).count());
}

DeadlineFlag::DeadlineFlag(const Deadline &deadline, const std::atomic<bool> *cancel)
    : m_deadline(deadline)
    , m_cancel(cancel)
{
    m_watcher = std::thread([this] {
        std::unique_lock lock(m_mutex);
        while (!m_ending) {
            if (m_deadline.passed() || cancelled()) {
                m_raised.store(true);
                return;
            }
            m_wake.wait_for(lock, std::chrono::milliseconds(20)); // the caller's flag has no signal to wait for
        }
    });
}

DeadlineFlag::~DeadlineFlag()
{
    {
        std::lock_guard lock(m_mutex);
        m_ending = true;
    }
    m_wake.notify_one();
    m_watcher.join();
}

} // namespace convoffload
