// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/ChildProcess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <unistd.h>

extern char **environ;

namespace convoffload {

namespace {

constexpr std::size_t kStderrTail = 4000;

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

} // namespace

ChildProcess::~ChildProcess()
{
    if (running()) {
        ::kill(-m_pid, SIGKILL);
        reap(true);
    }
    closeFd(m_out);
    closeFd(m_err);
}

std::string ChildProcess::start(const std::string &program, const std::vector<std::string> &arguments)
{
    // O_CLOEXEC: other threads spawning at the same time must not inherit our
    // pipe ends, or our reads would never see end of file.
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        return std::string("cannot create a pipe: ") + std::strerror(errno);
    if (pipe2(err, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        return std::string("cannot create a pipe: ") + std::strerror(errno);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);

    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(program.c_str()));
    for (const std::string &a : arguments)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    // Its own process group, so a signal reaches whatever it started too:
    // a grandchild holding our pipes open would otherwise keep us waiting.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    const bool searchPath = program.find('/') == std::string::npos;
    const int rc = searchPath ? posix_spawnp(&m_pid, program.c_str(), &actions, &attributes, argv.data(), environ)
                              : posix_spawn(&m_pid, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        m_pid = -1;
        return std::strerror(rc);
    }
    m_out = out[0];
    m_err = err[0];
    return {};
}

bool ChildProcess::poll(int timeout_ms, const std::function<void(const std::string &)> &onLine)
{
    if (m_pid <= 0)
        return false;
    pollfd fds[2];
    nfds_t count = 0;
    if (m_out >= 0)
        fds[count++] = {m_out, POLLIN, 0};
    if (m_err >= 0)
        fds[count++] = {m_err, POLLIN, 0};
    if (count == 0) {
        // Both pipes closed: the child is gone or going; don't block on it
        // forever (it may have closed its output and kept running).
        // A child that closed both pipes is usually exiting: look again
        // within a millisecond, not a whole timeout (an ONNX import spawns
        // its worker once a model, and would wait that long every time).
        reap(false);
        if (!m_exited)
            ::poll(nullptr, 0, std::min(timeout_ms, 1));
        return !m_exited;
    }
    if (::poll(fds, count, timeout_ms) < 0 && errno != EINTR)
        return false;
    char buffer[65536];
    for (nfds_t i = 0; i < count; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
        if (n <= 0) {
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            closeFd(fds[i].fd == m_out ? m_out : m_err);
            continue;
        }
        if (fds[i].fd == m_err) {
            m_stderr.append(buffer, std::size_t(n));
            if (m_stderr.size() > kStderrTail)
                m_stderr.erase(0, m_stderr.size() - kStderrTail);
            continue;
        }
        takeOutput(std::string_view(buffer, std::size_t(n)), onLine);
    }
    if (m_out < 0 && !m_pending.empty()) {
        onLine(m_pending); // a last line without its newline
        m_pending.clear();
    }
    return true;
}

void ChildProcess::takeOutput(std::string_view chunk, const std::function<void(const std::string &)> &onLine)
{
    while (!chunk.empty()) {
        const std::size_t nl = chunk.find('\n');
        const std::string_view part = chunk.substr(0, nl); // to the newline, or all
        chunk.remove_prefix(nl == std::string_view::npos ? chunk.size() : nl + 1);
        if (m_dropping) { // the rest of a cut line: read, not kept
            m_dropping = nl == std::string_view::npos;
            continue;
        }
        const std::size_t room = m_maxLineBytes > m_pending.size() ? m_maxLineBytes - m_pending.size() : 0;
        m_pending.append(part.substr(0, room));
        if (part.size() > room) { // too long: its start, marked, and the rest dropped
            m_pending += kLineCutMarker;
            onLine(m_pending);
            m_pending.clear();
            m_dropping = nl == std::string_view::npos;
            continue;
        }
        if (nl != std::string_view::npos) {
            onLine(m_pending);
            m_pending.clear();
        }
    }
}

void ChildProcess::signal(int signalNumber)
{
    if (running())
        ::kill(-m_pid, signalNumber); // the whole group: see start()
}

void ChildProcess::reap(bool block)
{
    if (m_pid <= 0 || m_exited)
        return;
    int status = 0;
    pid_t r;
    do
        r = ::waitpid(m_pid, &status, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == m_pid || r < 0) {
        m_exited = true;
        m_status = r == m_pid ? status : 0;
    }
}

} // namespace convoffload
