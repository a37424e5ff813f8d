// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "SaveLocation.h"

#include "convoffload/io/FormatError.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace convoffload {

namespace {

// As the kernel's MAXSYMLINKS: a loop of links ends here.
constexpr int kMaxLinks = 40;

std::string systemReason(int error) { return std::generic_category().message(error); }

std::deque<std::string> namesOf(const std::string &path)
{
    std::deque<std::string> names;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        if (end > start)
            names.emplace_back(path, start, end - start);
        start = end + 1;
    }
    return names;
}

std::string joined(const std::vector<std::string> &names)
{
    std::string path;
    for (const std::string &name : names)
        path += '/' + name;
    return path.empty() ? "/" : path;
}

std::string inFolder(const std::string &folder, const std::string &name)
{
    return folder == "/" ? "/" + name : folder + "/" + name;
}

std::string userName(uid_t uid)
{
    struct passwd entry {
    }, *found = nullptr;
    std::vector<char> buffer(4096);
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found)
        return std::string(found->pw_name) + " (uid " + std::to_string(uid) + ")";
    return "uid " + std::to_string(uid);
}

Descriptor openFolder(int at, const char *name)
{
    return Descriptor(::openat(at, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

/// The rule of fs.protected_symlinks (Debian's default, 1): in a folder with
/// the sticky bit that anyone may write to, a link is followed only when it
/// belongs to the folder's owner or to the user following it. Anyone could
/// have planted any other link there, to make a privileged save overwrite
/// or create a file where the planter may not write.
bool kernelWouldFollow(const struct stat &folder, const struct stat &link)
{
    const bool sharedSticky = (folder.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
    return !sharedSticky || link.st_uid == ::geteuid() || link.st_uid == folder.st_uid;
}

} // namespace

std::string SaveLocation::realPath() const { return inFolder(folderPath, name); }

SaveLocation locateSave(const std::string &path)
{
    if (path.empty())
        throw FormatError(path, "no file name given");
    const auto unreachable = [&path](const std::string &where, int error) {
        return FormatError(path, "cannot create a temporary file next to it: " + where + ": " + systemReason(error));
    };

    // The real path so far, as names from the root; a relative path starts
    // at the current folder.
    std::vector<std::string> folderNames;
    Descriptor folder;
    if (path.front() == '/') {
        folder = openFolder(AT_FDCWD, "/");
    } else {
        std::error_code ec;
        const std::string current = std::filesystem::current_path(ec).string();
        for (std::string &name : namesOf(ec ? "." : current))
            folderNames.push_back(std::move(name));
        folder = openFolder(AT_FDCWD, ".");
    }
    if (!folder.valid())
        throw unreachable(path.front() == '/' ? "/" : ".", errno);

    std::deque<std::string> rest = namesOf(path);
    // "dir/" names a folder, as "." and ".." at the end do.
    bool namesAFolder = path.back() == '/';
    std::string name;
    int links = 0;
    while (!rest.empty()) {
        std::string next = std::move(rest.front());
        rest.pop_front();
        const bool last = rest.empty();
        if (next == "." || next == "..") {
            if (next == "..") {
                Descriptor parent = openFolder(folder.get(), "..");
                if (!parent.valid())
                    throw unreachable(joined(folderNames) + "/..", errno);
                folder = std::move(parent);
                if (!folderNames.empty())
                    folderNames.pop_back();
            }
            namesAFolder = namesAFolder || last;
            continue;
        }
        const std::string here = inFolder(joined(folderNames), next);
        struct stat st { };
        if (::fstatat(folder.get(), next.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT && last) { // a new file
                name = std::move(next);
                break;
            }
            throw unreachable(here, errno);
        }
        if (S_ISLNK(st.st_mode)) {
            struct stat folderStat { };
            if (::fstat(folder.get(), &folderStat) != 0)
                throw unreachable(joined(folderNames), errno);
            std::vector<char> buffer(std::size_t(st.st_size > 0 ? st.st_size : 255) + 1);
            const ssize_t n = ::readlinkat(folder.get(), next.c_str(), buffer.data(), buffer.size());
            if (n < 0)
                throw FormatError(path, "cannot follow the symbolic link " + here + ": " + systemReason(errno));
            if (std::size_t(n) >= buffer.size()) // replaced by a longer one since fstatat
                throw FormatError(path, "cannot replace it: " + here + " changed while being saved");
            const std::string target(buffer.data(), std::size_t(n));
            if (!kernelWouldFollow(folderStat, st)) {
                // Lexically: the rest of the chain is not followed to tell.
                const std::string pointsTo
                    = std::filesystem::path(target.starts_with('/') ? target : inFolder(joined(folderNames), target))
                          .lexically_normal()
                          .string();
                throw FormatError(path,
                    "not saved: " + here + " is a symbolic link to " + pointsTo + " owned by " + userName(st.st_uid) + ", in "
                        + joined(folderNames) + ", a sticky folder anyone may write to and that belongs to "
                        + userName(folderStat.st_uid)
                        + "; the system refuses to follow such a link (fs.protected_symlinks), since anyone could "
                          "have planted it to have your save replace or create another file. If "
                        + pointsTo
                        + " is the file you mean, save to it by that name; otherwise remove the link or choose "
                          "another name");
            }
            if (++links > kMaxLinks)
                throw FormatError(path, "too many levels of symbolic links");
            if (target.empty())
                throw unreachable(here, ENOENT);
            std::deque<std::string> targetNames = namesOf(target);
            if (target.back() == '/' && last)
                namesAFolder = true;
            rest.insert(rest.begin(), targetNames.begin(), targetNames.end());
            if (target.front() == '/') {
                folder = openFolder(AT_FDCWD, "/");
                if (!folder.valid())
                    throw unreachable("/", errno);
                folderNames.clear();
            }
            continue;
        }
        if (last) {
            name = std::move(next);
            break;
        }
        if (!S_ISDIR(st.st_mode))
            throw unreachable(here, ENOTDIR);
        Descriptor child = openFolder(folder.get(), next.c_str());
        if (!child.valid())
            throw unreachable(here, errno);
        folder = std::move(child);
        folderNames.push_back(std::move(next));
    }
    if (name.empty())
        throw FormatError(path, "cannot replace it: it is a directory, not a file");
    SaveLocation location;
    location.folder = std::move(folder);
    location.folderPath = joined(folderNames);
    location.name = std::move(name);
    if (namesAFolder) {
        // "p.json/" asks for a folder: a file is neither replaced nor made.
        struct stat st { };
        if (::fstatat(location.folder.get(), location.name.c_str(), &st, 0) != 0 || !S_ISDIR(st.st_mode))
            throw FormatError(path, "cannot save to a path ending in '/': it names a folder");
        throw FormatError(path, "cannot replace it: it is a directory, not a file");
    }
    return location;
}

} // namespace convoffload
