// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A child process with its stdout read line by line and its stderr kept as a
// short tail, polled with a timeout so the caller can watch clocks and flags.
// POSIX only (posix_spawn, pipes, poll); no Qt in the core. The ILP runs the
// CBC worker with it, the ONNX import its shape inference worker.
//
// What the parent keeps of the child's output is bounded whatever the child
// prints: a line longer than maxLineBytes() is handed over cut, ending with
// kLineCutMarker, and the rest of it is read and dropped; stderr keeps its
// last 4000 bytes. A child printing one endless line (or binary junk without
// newlines) costs a buffer of maxLineBytes(), not the memory of the machine.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <sys/wait.h>
#include <vector>

namespace convoffload {

class ChildProcess {
public:
    /// Ends a line cut at maxLineBytes() (after its first maxLineBytes() bytes).
    static constexpr std::string_view kLineCutMarker = "[line cut]";
    static constexpr std::size_t kDefaultMaxLineBytes = 64 << 10;

    ChildProcess() = default;
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;
    /// Kills and reaps a child still running: no zombie, no orphan.
    ~ChildProcess();

    /// Starts `program` (searched on PATH when it has no '/'), stdin from
    /// /dev/null. Returns an error message, empty on success.
    std::string start(const std::string &program, const std::vector<std::string> &arguments);

    /// Waits up to timeout_ms for output or exit; calls onLine for each
    /// complete stdout line (without its newline), and for the first
    /// maxLineBytes() bytes of a longer line followed by kLineCutMarker, as
    /// soon as they have arrived. Returns false once the child has exited
    /// and both pipes are drained.
    bool poll(int timeout_ms, const std::function<void(const std::string &)> &onLine);

    /// The longest line handed over whole (kDefaultMaxLineBytes unless set).
    std::size_t maxLineBytes() const { return m_maxLineBytes; }
    void setMaxLineBytes(std::size_t bytes) { m_maxLineBytes = bytes > 0 ? bytes : 1; }

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
    void takeOutput(std::string_view chunk, const std::function<void(const std::string &)> &onLine);

    pid_t m_pid = -1;
    int m_out = -1, m_err = -1;
    bool m_exited = false;
    int m_status = 0;
    std::string m_pending; // stdout after the last newline, at most m_maxLineBytes
    bool m_dropping = false; // the rest of a cut line is being dropped
    std::size_t m_maxLineBytes = kDefaultMaxLineBytes;
    std::string m_stderr;
};

} // namespace convoffload
