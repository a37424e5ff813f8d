// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The save that keeps the file itself, for when a new file could not take
// the old one's owner, group or attributes (docs/user/bad-input.md, "Saves
// never damage a file").
#include <string>

namespace convoffload {

/// Replaces the contents of `original` (open for reading and writing) by
/// those of `staged`, as editors do, so the file keeps its inode and with it
/// its owner, group, permissions, ACL and extended attributes:
///   1. the old contents are copied to "<name>.backup-XXXXXXXX" beside it
///      (mode 0600), flushed with the folder, and compared with the original;
///   2. the original is truncated, written, flushed and read back against
///      `staged`;
///   3. the backup is removed.
/// On a failure in 2 the old contents are written back from the backup and
/// the backup removed; if even that fails the backup stays and the message
/// names it. `folder` is the folder's descriptor (O_PATH is enough),
/// `folderPath` its path for messages. Throws FormatError(where, ...).
void writeInPlace(
    const std::string &where, int folder, const std::string &folderPath, const std::string &name, int original, int staged);

} // namespace convoffload
