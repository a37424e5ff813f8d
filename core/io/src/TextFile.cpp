// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Reading and atomically replacing whole files, with POSIX calls: the checks a
// user's file deserves (regular files only, sizes bounded before reading,
// mode and symbolic links kept on save, data on disk before the rename) need
// the file descriptor that the C and C++ streams hide.
#include "convoffload/io/TextFile.h"
#include "convoffload/io/FormatError.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

/// Closes a descriptor when it goes out of scope.
class Descriptor {
public:
    explicit Descriptor(int fd)
        : m_fd(fd)
    {
    }
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    int get() const { return m_fd; }
    /// Closes now and reports the error close() gives (NFS reports write
    /// errors there).
    int close()
    {
        const int fd = m_fd;
        m_fd = -1;
        return ::close(fd) == 0 ? 0 : errno;
    }

private:
    int m_fd;
};

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

/// Writes all of `text`; 0 or the error.
int writeAll(int fd, const std::string &text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO;
        done += std::size_t(n);
    }
    return 0;
}

/// The file a save must replace: the final target of a chain of symbolic
/// links (relative links resolve against their own folder), so saving through
/// a link updates the file it points to and keeps the link.
std::string saveTarget(const std::string &path)
{
    std::filesystem::path target(path);
    for (int depth = 0; depth < 40; ++depth) {
        std::error_code ec;
        if (!std::filesystem::is_symlink(std::filesystem::symlink_status(target, ec)))
            return target.string();
        const std::filesystem::path link = std::filesystem::read_symlink(target, ec);
        if (ec)
            throw FormatError(path, "cannot follow the symbolic link: " + ec.message());
        target = link.is_absolute() ? link : target.parent_path() / link;
    }
    throw FormatError(path, "too many levels of symbolic links");
}

} // namespace

void readFileInChunks(const std::string &path, std::int64_t maxBytes, const std::function<void(std::string_view)> &consume)
{
    // O_NONBLOCK: opening a FIFO with no writer must not wait for one; the
    // file is refused right after as not regular.
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0)
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
    , m_target(saveTarget(path))
{
    // The replaced file's permissions are kept; a new file gets the usual
    // 0666 less the umask, as any editor would create it.
    mode_t mode = 0666;
    bool keepMode = false;
    struct stat st { };
    if (::stat(m_target.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            throw FormatError(path, "cannot replace it: it is " + kindOf(st.st_mode) + ", not a file");
        mode = st.st_mode & 07777;
        keepMode = true;
    }

    // A random suffix and exclusive creation: two saves never share a
    // temporary file, and an existing file is never clobbered by it.
    std::random_device random;
    int error = 0;
    for (int attempt = 0; attempt < 16 && m_fd < 0; ++attempt) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, ".tmp-%08x", unsigned(random()));
        m_temporary = m_target + suffix;
        m_fd = ::open(m_temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, keepMode ? 0600 : mode);
        error = m_fd < 0 ? errno : 0;
        if (m_fd < 0 && error != EEXIST)
            break;
    }
    if (m_fd < 0)
        throw FormatError(path, "cannot create a temporary file next to it: " + systemReason(error));
    if (keepMode && ::fchmod(m_fd, mode) != 0) {
        // A constructor that throws runs no destructor: clean up here.
        const int chmodError = errno;
        ::close(m_fd);
        std::error_code ignored;
        std::filesystem::remove(m_temporary, ignored);
        throw FormatError(path, "cannot give the new file the old one's permissions: " + systemReason(chmodError));
    }
}

AtomicFileWriter::~AtomicFileWriter()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (!m_committed) {
        std::error_code ignored;
        std::filesystem::remove(m_temporary, ignored);
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
    if (const int error = writeAll(m_fd, text); error != 0)
        fail("cannot write: " + systemReason(error));
}

void AtomicFileWriter::commit()
{
    if (m_fd < 0 || m_committed)
        throw FormatError(m_path, "saved twice, or after a failure");
    if (::fsync(m_fd) != 0)
        fail("cannot write to disk: " + systemReason(errno));
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0)
        fail("cannot write: " + systemReason(errno));
    if (::rename(m_temporary.c_str(), m_target.c_str()) != 0)
        fail("cannot replace the file: " + systemReason(errno));
    m_committed = true;

    // The rename is durable only once the folder is on disk too. The file is
    // already saved when this fails, so a failure here is not reported.
    const std::filesystem::path folder = std::filesystem::path(m_target).parent_path();
    Descriptor dir(::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0)
        ::fsync(dir.get());
}

void writeTextFileAtomically(const std::string &path, const std::string &text)
{
    AtomicFileWriter file(path);
    file.append(text);
    file.commit();
}

} // namespace convoffload
