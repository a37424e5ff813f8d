// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The temporary files of saves: their names, the lock a live save holds on
// its own, and the removal of those a killed save left behind
// (docs/user/bad-input.md, "Temporary files of a killed save").
#include <string>
#include <string_view>

namespace convoffload {

/// "<name>.tmp-XXXXXXXX", XXXXXXXX eight lowercase hexadecimal digits: the
/// temporary file of a save to `name`.
std::string temporaryNameOf(const std::string &name, unsigned random);

/// Whether `candidate` is exactly a name temporaryNameOf(`name`, ...) makes.
bool isTemporaryOf(std::string_view candidate, std::string_view name);

/// Marks the temporary file open at `fd` as in use for as long as this
/// process holds it open (an exclusive flock, released by the kernel however
/// the process ends): removeStaleTemporaries leaves it alone. A file system
/// without flock leaves it unmarked; such files are never removed.
void markTemporaryInUse(int fd);

/// Removes, in the folder open at `folder` (O_PATH is enough), the temporary
/// files of saves to `name` that a killed save left, and nothing else: a
/// name of that exact pattern, a regular file (not a link, not a device), of
/// this process's effective user, with one link, last modified before this
/// process started, and not marked in use by a live save (its flock is free).
/// Best effort: what cannot be checked is kept, and nothing is reported.
void removeStaleTemporaries(int folder, const std::string &name);

} // namespace convoffload
