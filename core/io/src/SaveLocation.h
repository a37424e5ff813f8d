// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a save writes, found the way the kernel would open the path, with the
// rule of protected symbolic links applied to every link on the way
// (docs/user/bad-input.md, "Saves never damage a file").
#include "Descriptor.h"

#include <string>

namespace convoffload {

struct SaveLocation {
    /// The folder that holds the file, open (O_PATH): the temporary file, the
    /// backup and the rename are made relative to it, so a folder of the path
    /// swapped for a link after the checks cannot redirect the save.
    Descriptor folder;
    std::string folderPath; ///< its real path, absolute, for messages
    std::string name; ///< the file's name in it (no link: every link resolved)

    std::string realPath() const;
};

/// Resolves `path` one name at a time: "." and ".." as the kernel does, and
/// each symbolic link (of a folder or of the file, relative ones against
/// their own folder) followed only where fs.protected_symlinks lets the
/// kernel follow it: not in a sticky folder anyone may write to (/tmp) when
/// the link's owner is neither that folder's owner nor this process's user.
/// The rule holds whatever the sysctl says. Throws FormatError(path, ...):
/// a refused link (naming it, where it points and what to do), a missing
/// folder or one that is not a folder ("cannot create a temporary file next
/// to it"), a path that names a folder, a loop of links.
SaveLocation locateSave(const std::string &path);

} // namespace convoffload
