// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "FileIdentity.h"

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

#include <pwd.h>
#include <grp.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace convoffload {

namespace {

std::string systemReason(int error) { return std::generic_category().message(error); }

std::string userName(uid_t uid)
{
    struct passwd entry {
    }, *found = nullptr;
    std::vector<char> buffer(4096);
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found)
        return std::string(found->pw_name) + " (uid " + std::to_string(uid) + ")";
    return "uid " + std::to_string(uid);
}

std::string groupName(gid_t gid)
{
    struct group entry {
    }, *found = nullptr;
    std::vector<char> buffer(4096);
    if (::getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) == 0 && found)
        return std::string(found->gr_name) + " (gid " + std::to_string(gid) + ")";
    return "gid " + std::to_string(gid);
}

/// One way to read a file's extended attributes: by descriptor, or by path
/// without following a link.
struct Attributes {
    int fd = -1;
    const std::string *path = nullptr;

    ssize_t list(char *buffer, std::size_t size) const
    {
        return fd >= 0 ? ::flistxattr(fd, buffer, size) : ::llistxattr(path->c_str(), buffer, size);
    }
    ssize_t get(const std::string &name, void *buffer, std::size_t size) const
    {
        return fd >= 0 ? ::fgetxattr(fd, name.c_str(), buffer, size) : ::lgetxattr(path->c_str(), name.c_str(), buffer, size);
    }
};

/// The attributes' names, or the error. A file system without extended
/// attributes has none.
std::vector<std::string> namesOf(const Attributes &file, int &error)
{
    error = 0;
    for (;;) {
        const ssize_t size = file.list(nullptr, 0);
        if (size < 0) {
            if (errno == ENOTSUP)
                return {};
            error = errno;
            return {};
        }
        std::vector<char> buffer(std::size_t(size) + 1);
        const ssize_t n = file.list(buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == ERANGE) // grew meanwhile
                continue;
            error = errno;
            return {};
        }
        std::vector<std::string> names;
        for (std::size_t start = 0; start < std::size_t(n);) {
            const std::string name(buffer.data() + start);
            start += name.size() + 1;
            if (!name.empty())
                names.push_back(name);
        }
        return names;
    }
}

/// The attribute's value, or the error.
std::optional<std::string> valueOf(const Attributes &file, const std::string &name, int &error)
{
    error = 0;
    for (;;) {
        const ssize_t size = file.get(name, nullptr, 0);
        if (size < 0) {
            error = errno;
            return std::nullopt;
        }
        std::string value(std::size_t(size), '\0');
        const ssize_t n = file.get(name, value.data(), value.size());
        if (n < 0) {
            if (errno == ERANGE)
                continue;
            error = errno;
            return std::nullopt;
        }
        value.resize(std::size_t(n));
        return value;
    }
}

} // namespace

std::optional<std::string> copyFileIdentity(const FileIdentitySource &original, int copy)
{
    const struct stat &want = original.status;
    struct stat have { };
    if (::fstat(copy, &have) != 0)
        return "its owner and group: " + systemReason(errno);

    // Owner first: a change of owner clears the set-user-ID and set-group-ID
    // bits that fchmod sets last.
    if (have.st_uid != want.st_uid || have.st_gid != want.st_gid) {
        if (::fchown(copy, want.st_uid, want.st_gid) != 0) {
            const int error = errno;
            if (have.st_uid != want.st_uid)
                return "its owner, " + userName(want.st_uid) + ": " + systemReason(error);
            return "its group, " + groupName(want.st_gid) + ": " + systemReason(error);
        }
    }

    int error = 0;
    const Attributes from{original.fd, &original.path};
    const Attributes to{copy, nullptr};
    const std::vector<std::string> wanted = namesOf(from, error);
    if (error != 0)
        return "its extended attributes (they cannot be read: " + systemReason(error) + ")";
    const std::vector<std::string> present = namesOf(to, error);
    if (error != 0)
        return "its extended attributes: " + systemReason(error);

    // The new file may have an ACL from the folder's default ACL, or a
    // security label, that the original has not.
    for (const std::string &name : present) {
        if (std::find(wanted.begin(), wanted.end(), name) == wanted.end() && ::fremovexattr(copy, name.c_str()) != 0)
            return "no extended attribute " + name + " (the new file got one: " + systemReason(errno) + ")";
    }
    for (const std::string &name : wanted) {
        const std::optional<std::string> value = valueOf(from, name, error);
        if (!value)
            return "its extended attribute " + name + " (it cannot be read: " + systemReason(error) + ")";
        // A security label the kernel already gave the new file needs no
        // permission to set.
        if (std::find(present.begin(), present.end(), name) != present.end()) {
            const std::optional<std::string> current = valueOf(to, name, error);
            if (current && *current == *value)
                continue;
        }
        if (::fsetxattr(copy, name.c_str(), value->data(), value->size(), 0) != 0)
            return "its extended attribute " + name + ": " + systemReason(errno);
    }

    // With an ACL, the group bits are its mask: setting them again keeps it.
    if (::fchmod(copy, want.st_mode & 07777) != 0)
        return "its permissions: " + systemReason(errno);
    return std::nullopt;
}

} // namespace convoffload
