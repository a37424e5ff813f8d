// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "InPlaceWrite.h"

#include "Descriptor.h"
#include "WriteAt.h"
#include "convoffload/io/FormatError.h"

#include <cstdio>
#include <cstring>
#include <random>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace convoffload {

namespace {

constexpr std::size_t kChunk = std::size_t(1) << 16;

/// compareContents' answer when the bytes differ (not an errno).
constexpr int kDiffers = -1;

std::string systemReason(int error)
{
    return error == kDiffers ? "what was read back differs from what was written" : std::generic_category().message(error);
}

/// Reads up to `size` bytes at `offset`; the count or -1 (errno set).
ssize_t readAt(int fd, char *buffer, std::size_t size, off_t offset)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, buffer + done, size - done, offset + off_t(done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        done += std::size_t(n);
    }
    return ssize_t(done);
}

/// `to` (empty) gets the whole of `from`, flushed to disk: 0 or the error.
int copyContents(int from, int to)
{
    std::vector<char> buffer(kChunk);
    for (off_t offset = 0;;) {
        const ssize_t n = readAt(from, buffer.data(), buffer.size(), offset);
        if (n < 0)
            return errno;
        if (n == 0)
            break;
        if (const int error = writeAt(to, buffer.data(), std::size_t(n), offset); error != 0)
            return error;
        offset += n;
    }
    return ::fsync(to) == 0 ? 0 : errno;
}

/// Whether both hold the same bytes: 0, kDiffers or the error.
int compareContents(int a, int b)
{
    struct stat sa {
    }, sb{};
    if (::fstat(a, &sa) != 0 || ::fstat(b, &sb) != 0)
        return errno;
    if (sa.st_size != sb.st_size)
        return kDiffers;
    std::vector<char> x(kChunk), y(kChunk);
    for (off_t offset = 0; offset < sa.st_size;) {
        const ssize_t n = readAt(a, x.data(), x.size(), offset);
        const ssize_t m = n < 0 ? -1 : readAt(b, y.data(), y.size(), offset);
        if (n < 0 || m < 0)
            return errno;
        if (n != m || n == 0 || std::memcmp(x.data(), y.data(), std::size_t(n)) != 0)
            return kDiffers;
        offset += n;
    }
    return 0;
}

/// Truncates `to` and gives it the contents of `from`, read back: 0 or the
/// error.
int replaceContents(int from, int to)
{
    if (::ftruncate(to, 0) != 0)
        return errno;
    if (const int error = copyContents(from, to); error != 0)
        return error;
    return compareContents(from, to);
}

void syncFolder(int folder)
{
    Descriptor dir(::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.valid())
        ::fsync(dir.get());
}

} // namespace

void writeInPlace(
    const std::string &where, int folder, const std::string &folderPath, const std::string &name, int original, int staged)
{
    // 1. The backup, made exclusively under a name nobody else holds.
    std::random_device random;
    std::string backupName;
    Descriptor backup;
    int error = 0;
    for (int attempt = 0; attempt < 16 && !backup.valid(); ++attempt) {
        char suffix[24];
        std::snprintf(suffix, sizeof suffix, ".backup-%08x", unsigned(random()));
        backupName = name + suffix;
        backup.reset(::openat(folder, backupName.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        error = backup.valid() ? 0 : errno;
        if (!backup.valid() && error != EEXIST)
            break;
    }
    if (!backup.valid())
        throw FormatError(where, "cannot make a backup beside it before writing it in place: " + systemReason(error));
    const std::string backupPath = (folderPath == "/" ? "/" : folderPath + "/") + backupName;
    const auto dropBackup = [&] { ::unlinkat(folder, backupName.c_str(), 0); };

    error = copyContents(original, backup.get());
    if (error == 0)
        error = compareContents(original, backup.get());
    if (error != 0) {
        dropBackup();
        throw FormatError(where, "not saved: its backup could not be made and checked: " + systemReason(error));
    }
    // The backup's name must be on disk before the original is truncated.
    syncFolder(folder);

    // 2. The new contents, into the original file itself.
    error = replaceContents(staged, original);
    if (error != 0) {
        if (replaceContents(backup.get(), original) == 0) {
            dropBackup();
            throw FormatError(where, "cannot write it in place: " + systemReason(error) + "; its old contents were put back");
        }
        throw FormatError(where,
            "cannot write it in place: " + systemReason(error) + "; its old contents could not be put back and are kept in "
                + backupPath);
    }

    // 3. Saved: the backup goes.
    dropBackup();
    syncFolder(folder);
}

} // namespace convoffload
