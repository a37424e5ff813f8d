// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "StaleTemporaries.h"

#include "Descriptor.h"

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <sstream>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace convoffload {

namespace {

constexpr std::string_view kInfix = ".tmp-";
constexpr std::size_t kDigits = 8;

/// A file modified within this long before this process started is kept:
/// the start is known to a clock tick, and a file's time comes from the
/// kernel's coarse clock, a tick or so behind.
constexpr std::int64_t kMarginNanoseconds = 1'000'000'000;

std::int64_t nanoseconds(const timespec &t) { return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

/// When this process started, on the wall clock, in nanoseconds since the
/// epoch: /proc/self/stat gives it in clock ticks since boot, which
/// CLOCK_BOOTTIME measures too (the tick is rounded down: never later than
/// the true start). Read on every call, not kept: a forked child is a process
/// of its own.
std::optional<std::int64_t> processStart()
{
    std::FILE *file = std::fopen("/proc/self/stat", "re");
    if (!file)
        return std::nullopt;
    char buffer[1024];
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, file);
    std::fclose(file);
    const std::string text(buffer, n);
    // The command name (field 2) is in parentheses and may hold anything:
    // the fields after its last ')' start at field 3, the state; the start
    // is field 22.
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream fields(text.substr(close + 1));
    std::string field;
    for (int i = 3; i < 22 && fields >> field;)
        ++i;
    unsigned long long startTicks = 0;
    if (!(fields >> startTicks))
        return std::nullopt;
    const long ticksPerSecond = ::sysconf(_SC_CLK_TCK);
    timespec boot{}, wall{};
    if (ticksPerSecond <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &boot) != 0 || ::clock_gettime(CLOCK_REALTIME, &wall) != 0)
        return std::nullopt;
    const std::int64_t sinceBoot = std::int64_t(startTicks / ticksPerSecond) * 1'000'000'000
        + std::int64_t(startTicks % ticksPerSecond) * 1'000'000'000 / ticksPerSecond;
    return nanoseconds(wall) - (nanoseconds(boot) - sinceBoot);
}

bool isHexDigit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

/// The names in the folder that are temporary files of `name`.
std::vector<std::string> temporariesOf(int folder, const std::string &name)
{
    std::vector<std::string> found;
    Descriptor listing(::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!listing.valid())
        return found;
    DIR *dir = ::fdopendir(listing.get());
    if (!dir)
        return found;
    (void)listing.release(); // closedir closes it
    while (const dirent *entry = ::readdir(dir))
        if (isTemporaryOf(entry->d_name, name))
            found.emplace_back(entry->d_name);
    ::closedir(dir);
    return found;
}

void removeIfStale(int folder, const std::string &candidate, std::int64_t before)
{
    // Looked at before it is opened: opening a device or a FIFO is not
    // harmless, and a link is never followed.
    struct stat seen { };
    if (::fstatat(folder, candidate.c_str(), &seen, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(seen.st_mode)
        || seen.st_uid != ::geteuid() || seen.st_nlink != 1 || nanoseconds(seen.st_mtim) >= before)
        return;
    Descriptor fd(::openat(folder, candidate.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat opened { };
    if (!fd.valid() || ::fstat(fd.get(), &opened) != 0 || opened.st_dev != seen.st_dev || opened.st_ino != seen.st_ino)
        return;
    // A live save holds its lock: taking it means its writer is gone. Held
    // until the name is removed, so no save can start on it meanwhile.
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0)
        return;
    struct stat now { };
    if (::fstatat(folder, candidate.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 || now.st_dev != seen.st_dev
        || now.st_ino != seen.st_ino)
        return;
    ::unlinkat(folder, candidate.c_str(), 0);
}

} // namespace

std::string temporaryNameOf(const std::string &name, unsigned random)
{
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, ".tmp-%08x", random & 0xffffffffu);
    return name + suffix;
}

bool isTemporaryOf(std::string_view candidate, std::string_view name)
{
    if (candidate.size() != name.size() + kInfix.size() + kDigits || !candidate.starts_with(name)
        || candidate.substr(name.size(), kInfix.size()) != kInfix)
        return false;
    for (const char c : candidate.substr(name.size() + kInfix.size()))
        if (!isHexDigit(c))
            return false;
    return true;
}

void markTemporaryInUse(int fd) { (void)::flock(fd, LOCK_EX | LOCK_NB); }

void removeStaleTemporaries(int folder, const std::string &name)
{
    const std::optional<std::int64_t> started = processStart();
    if (!started)
        return;
    for (const std::string &candidate : temporariesOf(folder, name))
        removeIfStale(folder, candidate, *started - kMarginNanoseconds);
}

} // namespace convoffload
