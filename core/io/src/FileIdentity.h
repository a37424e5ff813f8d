// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a replaced file keeps besides its contents: owner, group, permission
// bits, extended attributes and POSIX ACLs (docs/user/bad-input.md, "Saves
// never damage a file").
#include <optional>
#include <string>

#include <sys/stat.h>

namespace convoffload {

/// The file being replaced: its status and where to read its extended
/// attributes (a descriptor open for reading, or when it could not be opened,
/// its real path, read without following a link).
struct FileIdentitySource {
    struct stat status { };
    int fd = -1;
    std::string path;
};

/// Gives the new file `copy` (a descriptor open for writing, owned by this
/// process) the owner and group of `original` (fchown: root may give a file
/// to anyone, a user only to itself and its own groups), the same extended
/// attributes (ACLs are system.posix_acl_* attributes; ones the new file got
/// from the folder's default ACL and the original has not are removed), then
/// its permission bits. Returns nothing when all of it was kept, otherwise
/// what could not be, in words ("its owner, nobody (uid 65534): Operation not
/// permitted"): the caller must then not rename the copy over the original.
std::optional<std::string> copyFileIdentity(const FileIdentitySource &original, int copy);

} // namespace convoffload
