// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Reading and atomically replacing whole files, with POSIX calls: the checks a
// user's file deserves (regular files only, sizes bounded before reading,
// owner, mode, ACL and symbolic links kept on save, links followed only where
// the kernel would, data on disk before the rename) need the file descriptors
// that the C and C++ streams hide (docs/user/bad-input.md).
#include "convoffload/io/TextFile.h"
#include "convoffload/io/FormatError.h"

#include "Descriptor.h"
#include "FileIdentity.h"
#include "InPlaceWrite.h"
#include "SaveLocation.h"
#include "StaleTemporaries.h"
#include "WriteAt.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <functional>
#include <random>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace convoffload {

namespace {

std::string systemReason(int error) { return std::generic_category().message(error); }

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

std::string sizeText(std::int64_t bytes)
{
    if (bytes >= (std::int64_t(1) << 20))
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

/// The file open for reading, after the checks checkReadableFile documents.
Descriptor openReadable(const std::string &path, std::int64_t maxBytes)
{
    // O_NONBLOCK: opening a FIFO with no writer must not wait for one; the
    // file is refused right after as not regular.
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid())
        throw FormatError(path, "cannot open: " + systemReason(errno));
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0)
        throw FormatError(path, "cannot read: " + systemReason(errno));
    if (!S_ISREG(st.st_mode))
        throw FormatError(path, "cannot read it: it is " + kindOf(st.st_mode) + ", not a file");
    if (st.st_size > maxBytes)
        throw FormatError(path,
            "not read: it is " + sizeText(st.st_size) + ", larger than the " + sizeText(maxBytes)
                + " this kind of file may have");
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags >= 0)
        ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

} // namespace

void checkReadableFile(const std::string &path, std::int64_t maxBytes) { openReadable(path, maxBytes); }

void readFileInChunks(const std::string &path, std::int64_t maxBytes, const std::function<void(std::string_view)> &consume)
{
    const Descriptor fd = openReadable(path, maxBytes);

    // The size may change while reading (a file being written): the limit is
    // checked again on what is actually read.
    std::vector<char> buffer(std::size_t(1) << 16);
    std::int64_t total = 0;
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw FormatError(path, "cannot read: " + systemReason(errno));
        }
        if (n == 0)
            return;
        total += n;
        if (total > maxBytes)
            throw FormatError(path, "grew past the " + sizeText(maxBytes) + " this kind of file may have while being read");
        consume(std::string_view(buffer.data(), std::size_t(n)));
    }
}

std::string readTextFile(const std::string &path, std::int64_t maxBytes)
{
    std::string text;
    readFileInChunks(path, maxBytes, [&text](std::string_view chunk) { text.append(chunk); });
    return text;
}

AtomicFileWriter::AtomicFileWriter(const std::string &path)
    : m_path(path)
{
    SaveLocation location = locateSave(path);
    m_target = location.realPath();
    m_name = location.name;

    struct stat st { };
    bool replacing = ::fstatat(location.folder.get(), m_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (!replacing && errno != ENOENT)
        throw FormatError(path, "cannot replace it: " + systemReason(errno));
    if (replacing && !S_ISREG(st.st_mode))
        throw FormatError(path, "cannot replace it: it is " + kindOf(st.st_mode) + ", not a file");

    // The file being replaced, open to read its attributes (its path when it
    // cannot be read), and checked to be the one just looked at.
    FileIdentitySource original;
    Descriptor originalFd;
    if (replacing) {
        originalFd.reset(
            ::openat(location.folder.get(), m_name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
        if (originalFd.valid() && (::fstat(originalFd.get(), &st) != 0 || !S_ISREG(st.st_mode)))
            throw FormatError(path, "cannot replace it: it changed while being saved");
        original.status = st;
        original.fd = originalFd.get();
        original.path = m_target;
    }

    // What a save to this file killed earlier (kill -9, a power cut) left
    // beside it goes first: only its own temporary files, unused and older
    // than this process (StaleTemporaries.h).
    removeStaleTemporaries(location.folder.get(), m_name);

    // A random suffix and exclusive creation: two saves never share a
    // temporary file, and an existing file is never clobbered by it. A new
    // file gets the usual 0666 less the umask, as any editor would create it.
    std::random_device random;
    int error = 0;
    for (int attempt = 0; attempt < 16 && m_fd < 0; ++attempt) {
        m_temporary = temporaryNameOf(m_name, unsigned(random()));
        m_fd = ::openat(location.folder.get(), m_temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
            replacing ? 0600 : 0666);
        error = m_fd < 0 ? errno : 0;
        if (m_fd < 0 && error != EEXIST)
            break;
    }
    if (m_fd < 0)
        throw FormatError(path, "cannot create a temporary file next to it: " + systemReason(error));
    // Until it is renamed, a save in another process does not take it for
    // one left by a killed save.
    markTemporaryInUse(m_fd);
    m_folder = location.folder.release();
    m_folderPath = location.folderPath;

    if (!replacing)
        return;
    // A constructor that throws runs no destructor: clean up here.
    try {
        keepIdentity(original);
    } catch (...) {
        ::close(m_fd);
        m_fd = -1;
        ::unlinkat(m_folder, m_temporary.c_str(), 0);
        ::close(m_folder);
        if (m_original >= 0)
            ::close(m_original);
        throw;
    }
}

void AtomicFileWriter::keepIdentity(const FileIdentitySource &original)
{
    // The new file takes the old one's owner, group, attributes and mode, or
    // the save goes into the old file itself: never is the file silently
    // handed to the user saving it, or stripped of its ACL.
    const std::optional<std::string> lost = copyFileIdentity(original, m_fd);
    if (!lost)
        return;
    m_original = ::openat(m_folder, m_name.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    const int error = m_original < 0 ? errno : 0;
    struct stat st { };
    if (m_original >= 0
        && (::fstat(m_original, &st) != 0 || st.st_dev != original.status.st_dev || st.st_ino != original.status.st_ino))
        throw FormatError(m_path, "cannot replace it: it changed while being saved");
    if (m_original < 0)
        throw FormatError(m_path,
            "not saved: a new file could not keep " + *lost + ", and the file cannot be written in place (" + systemReason(error)
                + "). Replacing it would give it to you or strip it; ask its owner for write access, or save a copy "
                  "under another name");
    // The temporary file only holds the new contents until commit() copies
    // them in: back to this process's user only.
    ::fchmod(m_fd, 0600);
}

AtomicFileWriter::~AtomicFileWriter()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_original >= 0)
        ::close(m_original);
    if (m_folder >= 0) {
        if (!m_committed)
            ::unlinkat(m_folder, m_temporary.c_str(), 0);
        ::close(m_folder);
    }
}

void AtomicFileWriter::fail(const std::string &reason)
{
    // Every failure removes the temporary file (the destructor does).
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    throw FormatError(m_path, reason);
}

void AtomicFileWriter::append(const std::string &text)
{
    if (m_fd < 0 || m_committed)
        throw FormatError(m_path, "written after it was saved or failed");
    // At the offset written so far: the file position is not relied on.
    if (const int error = writeAt(m_fd, text.data(), text.size(), off_t(m_written)); error != 0)
        fail("cannot write: " + systemReason(error));
    m_written += std::int64_t(text.size());
}

void AtomicFileWriter::commit()
{
    if (m_fd < 0 || m_committed)
        throw FormatError(m_path, "saved twice, or after a failure");
    if (::fsync(m_fd) != 0)
        fail("cannot write to disk: " + systemReason(errno));
    if (m_original >= 0) {
        // The temporary file is removed whatever happens (the destructor).
        writeInPlace(m_path, m_folder, m_folderPath, m_name, m_original, m_fd);
        ::close(m_fd);
        m_fd = -1;
        ::unlinkat(m_folder, m_temporary.c_str(), 0);
        m_committed = true;
        return;
    }
    const int fd = m_fd;
    m_fd = -1;
    // A duplicate keeps the lock of markTemporaryInUse (it belongs to the
    // open file, not to a descriptor) until the rename is done, while
    // close() still reports the write errors NFS reports there.
    const Descriptor held(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
    if (::close(fd) != 0)
        fail("cannot write: " + systemReason(errno));
    if (::renameat(m_folder, m_temporary.c_str(), m_folder, m_name.c_str()) != 0)
        fail("cannot replace the file: " + systemReason(errno));
    m_committed = true;

    // The rename is durable only once the folder is on disk too. The file is
    // already saved when this fails, so a failure here is not reported.
    Descriptor dir(::openat(m_folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.valid())
        ::fsync(dir.get());
}

void writeTextFileAtomically(const std::string &path, const std::string &text)
{
    AtomicFileWriter file(path);
    file.append(text);
    file.commit();
}

} // namespace convoffload
