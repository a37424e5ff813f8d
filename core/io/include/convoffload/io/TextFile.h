// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whole-file helpers shared by the file formats. Errors are FormatError with
// `where` = the path and a reason in words.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace convoffload {

/// Size caps, checked before a byte is read, so a hostile or mistaken input
/// (a 2 GB file, /dev/zero) costs nothing. Each is far above what the layer
/// limits allow a real file of that kind to need (docs/user/bad-input.md).
constexpr std::int64_t kMaxProjectFileBytes = std::int64_t(512) << 20;
constexpr std::int64_t kMaxTensorFileBytes = std::int64_t(1) << 30;
constexpr std::int64_t kMaxStrategyCsvBytes = std::int64_t(512) << 20;
constexpr std::int64_t kMaxSolutionFileBytes = std::int64_t(1) << 30;

/// Whether `path` may be read, decided without reading a byte or waiting:
/// it opens, it is a regular file (not a directory, a device, a FIFO or a
/// socket: opening a FIFO without a writer does not block) and it holds at
/// most `maxBytes`. Throws FormatError naming the path and the reason. Every
/// reader of a user's file goes through it: readFileInChunks and
/// readTextFile call it, and a reader that must look at a file some other
/// way (a first line sniffed, a path handed to a library) calls it first.
void checkReadableFile(const std::string &path, std::int64_t maxBytes);

/// The whole file. Only regular files are read: a directory, a device or a
/// FIFO is refused by name (a FIFO without a writer never blocks); so is a
/// file over `maxBytes`.
std::string readTextFile(const std::string &path, std::int64_t maxBytes = kMaxProjectFileBytes);

/// The same checks, then the file in chunks of at most 64 KiB handed to
/// `consume` in order, so a reader that parses as it goes holds only what it
/// keeps (a 10 M-line CSV is not read whole before its line 11 is checked).
/// `consume` may throw to stop reading.
void readFileInChunks(const std::string &path, std::int64_t maxBytes, const std::function<void(std::string_view)> &consume);

/// Writes "<target>.tmp-XXXXXXXX", flushes it to disk, then renames it over
/// the target, so a failed or interrupted save never leaves a half-written
/// file, and a failed one leaves no temporary file. The target is `path`, or
/// the file at the end of its symbolic links (the links stay), each link
/// followed only where the kernel's protected_symlinks rule would follow it:
/// another user's link in a sticky folder anyone may write to (/tmp) is
/// refused. The replaced file's owner, group, permission bits, ACL and
/// extended attributes are kept; when the new file cannot take them (a user
/// saving another user's file), the new contents are written into the file
/// itself after a verified backup, or the save is refused when that is not
/// possible either (docs/user/bad-input.md, "Saves never damage a file").
/// Temporary files of this name that an earlier save, killed, left beside
/// the target are removed first: only this process's user's, unused and
/// older than this process ("Temporary files of a killed save").
void writeTextFileAtomically(const std::string &path, const std::string &text);

struct FileIdentitySource;

/// The same save for a file written in pieces (an exploration writes a line
/// per design point): the pieces go to the temporary file as they come, and
/// commit() puts it in place. Destroyed without a commit (an error, an
/// exception), it removes the temporary file and leaves the target as it
/// was. Errors are FormatError naming `path`.
class AtomicFileWriter {
public:
    explicit AtomicFileWriter(const std::string &path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    void append(const std::string &text);
    /// Flushes to disk and renames over the target; at most once.
    void commit();

private:
    [[noreturn]] void fail(const std::string &reason);
    void keepIdentity(const FileIdentitySource &original);

    std::string m_path; // as given, for messages
    std::string m_target; // its real path, every link resolved
    std::string m_folderPath, m_name, m_temporary; // the target's folder, its name and the temporary file's in it
    int m_folder = -1; // the target's folder, held open: every name above is relative to it
    int m_fd = -1; // the temporary file
    int m_original = -1; // the target, read-write, when it is written in place
    std::int64_t m_written = 0; // bytes appended to the temporary file so far
    bool m_committed = false;
};

} // namespace convoffload
