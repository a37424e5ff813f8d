// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// An event-loop stall monitor for GUI tests: the GUI thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID, so that a loaded machine does not count) of
// every event dispatch, measured around the outermost QApplication::notify,
// and of every piece of work a test does on the GUI thread outside the
// event loop (measure()). Anything over the limit is kept as a Stall that
// names the event, its receiver and what the test was doing.
//
//     int main(int argc, char **argv) {
//         MonitoredApplication app(argc, argv);   // instead of QTEST_MAIN
//         ...
//     }

#include <QApplication>
#include <QEvent>
#include <QString>
#include <QStringList>

#include <time.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace convoffload::test {

/// CPU time of the calling thread, in milliseconds.
inline double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

struct Stall {
    double ms = 0; // GUI-thread CPU time
    QString what; // the event and its receiver, or the measured work
    QString during; // the test's step (MonitoredApplication::setActivity)
};

class MonitoredApplication : public QApplication {
public:
    MonitoredApplication(int &argc, char **argv)
        : QApplication(argc, argv)
    {
    }

    static MonitoredApplication *instance() { return static_cast<MonitoredApplication *>(QCoreApplication::instance()); }

    double limitMs = 50;
    /// What the test is doing, named in the stalls it causes.
    void setActivity(const QString &activity)
    {
        m_activity = activity;
        m_activityLongest = 0;
    }
    /// The longest dispatch or measured work since setActivity.
    double activityLongestMs() const { return m_activityLongest; }
    const std::vector<Stall> &stalls() const { return m_stalls; }
    void clearStalls() { m_stalls.clear(); }
    /// The longest dispatch or measured work seen, stall or not.
    double longestMs() const { return m_longest; }

    /// Runs `work` (GUI-thread work the test does directly, as a user's
    /// action would) and times it as one task.
    template <typename Work> void measure(const QString &what, Work &&work)
    {
        ++m_depth; // the events it sends are part of it
        const double start = threadCpuMs();
        std::forward<Work>(work)();
        --m_depth;
        record(threadCpuMs() - start, what);
    }

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0)
            return QApplication::notify(receiver, event);
        // Read now: the receiver may be gone afterwards (a deferred delete).
        const char *className = receiver ? receiver->metaObject()->className() : "null";
        const QString name = receiver ? receiver->objectName() : QString();
        const int type = int(event->type());
        ++m_depth;
        const double start = threadCpuMs();
        const bool result = QApplication::notify(receiver, event);
        const double ms = threadCpuMs() - start;
        --m_depth;
        m_longest = std::max(m_longest, ms);
        m_activityLongest = std::max(m_activityLongest, ms);
        if (ms > limitMs) // described only then: most events take microseconds
            m_stalls.push_back({ms,
                QStringLiteral("event %1 to %2%3")
                    .arg(type)
                    .arg(QLatin1String(className))
                    .arg(name.isEmpty() ? QString() : QStringLiteral(" '%1'").arg(name)),
                m_activity});
        return result;
    }

    QStringList describe() const
    {
        QStringList lines;
        for (const Stall &s : m_stalls)
            lines << QStringLiteral("%1 ms: %2 (during %3)").arg(s.ms, 0, 'f', 1).arg(s.what, s.during);
        return lines;
    }

private:
    void record(double ms, const QString &what)
    {
        m_longest = std::max(m_longest, ms);
        m_activityLongest = std::max(m_activityLongest, ms);
        if (ms > limitMs)
            m_stalls.push_back({ms, what, m_activity});
    }

    int m_depth = 0;
    double m_longest = 0;
    double m_activityLongest = 0;
    QString m_activity;
    std::vector<Stall> m_stalls;
};

} // namespace convoffload::test
