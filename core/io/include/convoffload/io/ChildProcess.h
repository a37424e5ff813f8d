// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A child process with its stdout read line by line and its stderr kept as a
// short tail, polled with a timeout so the caller can watch clocks and flags.
// POSIX only (posix_spawn, pipes, poll); no Qt in the core. The ILP runs the
// CBC worker with it, the ONNX import its shape inference worker.
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <vector>

namespace convoffload {

class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;
    /// Kills and reaps a child still running: no zombie, no orphan.
    ~ChildProcess();

    /// Starts `program` (searched on PATH when it has no '/'), stdin from
    /// /dev/null. Returns an error message, empty on success.
    std::string start(const std::string &program, const std::vector<std::string> &arguments);

    /// Waits up to timeout_ms for output or exit; calls onLine for each
    /// complete stdout line. Returns false once the child has exited and
    /// both pipes are drained.
    bool poll(int timeout_ms, const std::function<void(const std::string &)> &onLine);

    void signal(int signalNumber);
    bool running() const { return m_pid > 0 && !m_exited; }

    // After poll() returned false:
    bool exitedNormally() const { return m_exited && WIFEXITED(m_status); }
    int exitCode() const { return WEXITSTATUS(m_status); }
    std::optional<int> terminatingSignal() const
    {
        return m_exited && WIFSIGNALED(m_status) ? std::optional<int>(WTERMSIG(m_status)) : std::nullopt;
    }
    const std::string &stderrTail() const { return m_stderr; }

private:
    void reap(bool block);

    pid_t m_pid = -1;
    int m_out = -1, m_err = -1;
    bool m_exited = false;
    int m_status = 0;
    std::string m_pending; // stdout after the last newline
    std::string m_stderr;
};

} // namespace convoffload
