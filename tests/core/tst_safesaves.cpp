// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Saves as a hostile local user sees them (issue 43, docs/user/bad-input.md,
// "Saves never damage a file"): a symbolic link planted by another user in a
// sticky folder anyone may write to is not followed, and a saved file keeps
// its owner, group, mode, ACL and extended attributes, or the save is
// refused. Most cases need another user: they run as root, give files to
// uid/gid 65534 ("nobody") and act as that user in a forked child.

#include "convoffload/io/FormatError.h"
#include "convoffload/io/TextFile.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

using namespace convoffload;

namespace {

constexpr uid_t kNobody = 65534;
constexpr gid_t kNogroup = 65534;
constexpr uid_t kAclUser = 1234; // a user named in an ACL only

QString qs(const std::string &s) { return QString::fromStdString(s); }

std::optional<FormatError> formatErrorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const FormatError &e) {
        return e;
    }
    return std::nullopt;
}

std::string slurp(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

struct stat statOf(const std::string &path)
{
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0)
        st.st_ino = 0;
    return st;
}

QStringList entries(const std::string &folder)
{
    return QDir(qs(folder)).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System | QDir::Hidden, QDir::Name);
}

std::optional<std::string> attribute(const std::string &path, const char *name)
{
    char buffer[1024];
    const ssize_t n = ::lgetxattr(path.c_str(), name, buffer, sizeof buffer);
    if (n < 0)
        return std::nullopt;
    return std::string(buffer, std::size_t(n));
}

/// A POSIX ACL as the kernel stores it in system.posix_acl_access (the
/// format of <linux/posix_acl_xattr.h>, written by hand so the suite needs no
/// setfacl): version 2, then entries of tag, permissions and id, sorted by
/// tag and id.
std::string aclBytes(const std::vector<std::tuple<std::uint16_t, std::uint16_t, std::uint32_t>> &entries)
{
    std::string bytes;
    const auto put = [&bytes](std::uint32_t value, int size) {
        for (int i = 0; i < size; ++i)
            bytes += char((value >> (8 * i)) & 0xff);
    };
    put(2, 4);
    for (const auto &[tag, perm, id] : entries) {
        put(tag, 2);
        put(perm, 2);
        put(id, 4);
    }
    return bytes;
}

constexpr std::uint16_t kUserObj = 0x01, kUser = 0x02, kGroupObj = 0x04, kMask = 0x10, kOther = 0x20;
constexpr std::uint32_t kNoId = 0xffffffff;

/// owner rw, user 1234 rw, group rw, mask rw, others nothing: mode 0660 and
/// a named user, as `setfacl -m u:1234:rw` on a 0660 file makes it.
std::string sharedAcl()
{
    return aclBytes({{kUserObj, 6, kNoId}, {kUser, 6, kAclUser}, {kGroupObj, 6, kNoId}, {kMask, 6, kNoId}, {kOther, 0, kNoId}});
}

/// What a child that became nobody (no supplementary groups) said: its exit
/// status (0 saved, 1 FormatError, 2 another exception, 3 could not become
/// nobody) and the error's message.
struct ChildRun {
    int status = -1;
    std::string message;
};

ChildRun asNobody(const std::function<void()> &save)
{
    int channel[2];
    if (::pipe2(channel, O_CLOEXEC) != 0)
        return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(channel[0]);
        int status = 0;
        std::string message;
        // Supplementary groups first: root's group 0 would otherwise stay.
        if (::setgroups(0, nullptr) != 0 || ::setgid(kNogroup) != 0 || ::setuid(kNobody) != 0) {
            status = 3;
            message = "cannot become nobody";
        } else {
            try {
                save();
            } catch (const FormatError &e) {
                status = 1;
                message = e.what();
            } catch (...) {
                status = 2;
            }
        }
        if (::write(channel[1], message.data(), message.size()) < 0)
            status = 4;
        ::_exit(status);
    }
    ::close(channel[1]);
    ChildRun run;
    char buffer[4096];
    for (ssize_t n; (n = ::read(channel[0], buffer, sizeof buffer)) > 0;)
        run.message.append(buffer, std::size_t(n));
    ::close(channel[0]);
    int status = 0;
    if (pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        run.status = WEXITSTATUS(status);
    return run;
}

} // namespace

#define VERIFY_FORMAT_ERROR(call, expectedWhere, expectedReason)                                                                 \
    do {                                                                                                                         \
        const auto error_ = formatErrorOf([&] { (void)(call); });                                                                \
        QVERIFY2(error_.has_value(), "no FormatError was thrown");                                                               \
        QCOMPARE(qs(error_->where), qs(expectedWhere));                                                                          \
        QVERIFY2(error_->reason.find(expectedReason) != std::string::npos, error_->what());                                      \
    } while (false)

// A save that must succeed: its error, if any, fails the case (and only it).
#define SAVE(call)                                                                                                               \
    do {                                                                                                                         \
        if (const auto error_ = formatErrorOf([&] { call; }))                                                                    \
            QFAIL(error_->what());                                                                                               \
    } while (false)

#define REQUIRE_ROOT()                                                                                                           \
    do {                                                                                                                         \
        if (::geteuid() != 0)                                                                                                    \
            QSKIP("needs root: it gives files and links to uid 65534 (nobody) and saves as that user");                          \
    } while (false)

class TestSafeSaves : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_root;

    /// A folder of this case with the given owner and mode (chmod after
    /// mkdir: the umask would drop the sticky and write bits).
    std::string folder(const char *name, mode_t mode, uid_t owner = 0)
    {
        const std::string path = m_root + "/" + name;
        if (::mkdir(path.c_str(), 0700) != 0 || ::chown(path.c_str(), owner, owner == 0 ? 0 : kNogroup) != 0
            || ::chmod(path.c_str(), mode) != 0)
            qFatal("cannot make the folder %s", path.c_str());
        return path;
    }

    /// A symbolic link at `at` to `to`, owned by `owner` (lchown: the link
    /// itself, as a user who planted it would own it).
    static void plant(const std::string &at, const std::string &to, uid_t owner)
    {
        if (::symlink(to.c_str(), at.c_str()) != 0 || ::lchown(at.c_str(), owner, owner == 0 ? 0 : kNogroup) != 0)
            qFatal("cannot plant the link %s", at.c_str());
    }

    /// A root-only file, as the victim of a planted link.
    static void secret(const std::string &path)
    {
        writeFile(path, "root's secret\n");
        ::chmod(path.c_str(), 0600);
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        // Each case in a fresh folder the child acting as nobody can reach.
        m_root = (m_dir.path() + QLatin1Char('/') + QString::fromLatin1(QTest::currentTestFunction())
            + QString::fromLatin1(QTest::currentDataTag() ? QTest::currentDataTag() : ""))
                     .toStdString();
        for (std::size_t i = m_dir.path().size() + 1; i < m_root.size(); ++i)
            if (!std::isalnum(static_cast<unsigned char>(m_root[i])))
                m_root[i] = '-';
        QVERIFY(QDir().mkpath(qs(m_root)));
        QCOMPARE(::chmod(m_dir.path().toLocal8Bit().constData(), 0755), 0);
        QCOMPARE(::chmod(m_root.c_str(), 0755), 0);
    }

    // ------------------------------------------------------------ protected links

    // The attack: nobody plants /tmp/sticky/fig.svg -> a root-only
    // file, root saves a figure to /tmp/sticky/fig.svg.
    void foreignLinkInStickyFolderIsRefused()
    {
        REQUIRE_ROOT();
        const std::string sticky = folder("sticky", 01777), safe = folder("safe", 0700);
        secret(safe + "/conf");
        plant(sticky + "/fig.svg", safe + "/conf", kNobody);

        VERIFY_FORMAT_ERROR(writeTextFileAtomically(sticky + "/fig.svg", "<svg/>"), sticky + "/fig.svg",
            "not saved: " + sticky + "/fig.svg is a symbolic link to " + safe + "/conf owned by nobody (uid 65534), in "
                + sticky);
        // Why, and what to do instead.
        VERIFY_FORMAT_ERROR(writeTextFileAtomically(sticky + "/fig.svg", "<svg/>"), sticky + "/fig.svg", "fs.protected_symlinks");
        VERIFY_FORMAT_ERROR(
            writeTextFileAtomically(sticky + "/fig.svg", "<svg/>"), sticky + "/fig.svg", "save to it by that name");
        // The streaming writer refuses before its first piece.
        VERIFY_FORMAT_ERROR(AtomicFileWriter(sticky + "/fig.svg"), sticky + "/fig.svg", "fs.protected_symlinks");

        QCOMPARE(slurp(safe + "/conf"), std::string("root's secret\n"));
        QCOMPARE(int(statOf(safe + "/conf").st_mode & 07777), 0600);
        QCOMPARE(entries(safe), QStringList{QStringLiteral("conf")});
        QCOMPARE(entries(sticky), QStringList{QStringLiteral("fig.svg")});
        QVERIFY(QFileInfo(qs(sticky + "/fig.svg")).isSymLink());
    }

    // The kernel's rule follows a link in a sticky shared folder when it
    // belongs to the folder's owner or to the user saving.
    void ownLinksInStickyFolderAreFollowed_data()
    {
        QTest::addColumn<uint>("folderOwner");
        QTest::addColumn<uint>("linkOwner");
        QTest::newRow("link of the folder's owner") << uint(kNobody) << uint(kNobody);
        QTest::newRow("link of the user saving") << uint(kNobody) << 0u;
        QTest::newRow("root's link in root's folder") << 0u << 0u;
    }
    void ownLinksInStickyFolderAreFollowed()
    {
        REQUIRE_ROOT();
        QFETCH(uint, folderOwner);
        QFETCH(uint, linkOwner);
        const std::string sticky = folder("sticky", 01777, folderOwner), real = folder("real", 0755);
        writeFile(real + "/fig.svg", "old");
        plant(sticky + "/fig.svg", real + "/fig.svg", linkOwner);

        SAVE(writeTextFileAtomically(sticky + "/fig.svg", "<svg/>"));
        QCOMPARE(slurp(real + "/fig.svg"), std::string("<svg/>"));
        QVERIFY(QFileInfo(qs(sticky + "/fig.svg")).isSymLink());
        QCOMPARE(entries(real), QStringList{QStringLiteral("fig.svg")});
        QCOMPARE(entries(sticky), QStringList{QStringLiteral("fig.svg")});
    }

    // `optimize --out /tmp/sticky/out.csv` through a dangling link created a
    // file wherever the link pointed.
    void danglingForeignLinkInStickyFolderCreatesNothing()
    {
        REQUIRE_ROOT();
        const std::string sticky = folder("sticky", 01777), safe = folder("safe", 0700);
        plant(sticky + "/out.csv", safe + "/new.csv", kNobody);

        VERIFY_FORMAT_ERROR(writeTextFileAtomically(sticky + "/out.csv", "patch,group\n"), sticky + "/out.csv",
            "is a symbolic link to " + safe + "/new.csv owned by nobody (uid 65534)");
        QCOMPARE(entries(safe), QStringList{});
        QCOMPARE(entries(sticky), QStringList{QStringLiteral("out.csv")});
    }

    // Elsewhere a link is followed as before, whoever owns it: the rule is
    // about folders that are both sticky and writable by anyone.
    void foreignLinkElsewhereIsFollowed_data()
    {
        QTest::addColumn<uint>("folderMode");
        QTest::newRow("0777, not sticky") << 0777u;
        QTest::newRow("1755, not writable by others") << 01755u;
        QTest::newRow("1775, writable by the group only") << 01775u;
        QTest::newRow("0755") << 0755u;
    }
    void foreignLinkElsewhereIsFollowed()
    {
        REQUIRE_ROOT();
        QFETCH(uint, folderMode);
        const std::string links = folder("links", mode_t(folderMode)), real = folder("real", 0755);
        writeFile(real + "/p.json", "old");
        plant(links + "/p.json", "../real/p.json", kNobody);

        SAVE(writeTextFileAtomically(links + "/p.json", "new"));
        QCOMPARE(slurp(real + "/p.json"), std::string("new"));
        QVERIFY(QFileInfo(qs(links + "/p.json")).isSymLink());
        QCOMPARE(entries(real), QStringList{QStringLiteral("p.json")});

        // A dangling link there creates its target, as an editor would.
        plant(links + "/new.json", "../real/new.json", kNobody);
        SAVE(writeTextFileAtomically(links + "/new.json", "created"));
        QCOMPARE(slurp(real + "/new.json"), std::string("created"));
    }

    // Each link of a chain is judged in its own folder, relative links
    // resolved against it; so is a link to a folder on the way.
    void chainsOfLinks_data()
    {
        QTest::addColumn<uint>("firstOwner"); // the link in plain/, a 0777 folder
        QTest::addColumn<uint>("secondOwner"); // the link in sticky/, 1777 and root's
        QTest::addColumn<bool>("followed");
        QTest::newRow("foreign, then foreign in the sticky folder") << uint(kNobody) << uint(kNobody) << false;
        QTest::newRow("own, then foreign in the sticky folder") << 0u << uint(kNobody) << false;
        QTest::newRow("foreign, then own in the sticky folder") << uint(kNobody) << 0u << true;
    }
    void chainsOfLinks()
    {
        REQUIRE_ROOT();
        QFETCH(uint, firstOwner);
        QFETCH(uint, secondOwner);
        QFETCH(bool, followed);
        const std::string plain = folder("plain", 0777), sticky = folder("sticky", 01777), safe = folder("safe", 0700);
        secret(safe + "/conf");
        plant(plain + "/p.json", "../sticky/hop", firstOwner);
        plant(sticky + "/hop", "../safe/conf", secondOwner);

        if (followed) {
            SAVE(writeTextFileAtomically(plain + "/p.json", "new"));
            QCOMPARE(slurp(safe + "/conf"), std::string("new"));
        } else {
            VERIFY_FORMAT_ERROR(writeTextFileAtomically(plain + "/p.json", "new"), plain + "/p.json",
                "not saved: " + sticky + "/hop is a symbolic link to " + safe + "/conf owned by nobody");
            QCOMPARE(slurp(safe + "/conf"), std::string("root's secret\n"));
        }
        QCOMPARE(entries(safe), QStringList{QStringLiteral("conf")});
        QCOMPARE(entries(sticky), QStringList{QStringLiteral("hop")});
        QVERIFY(QFileInfo(qs(plain + "/p.json")).isSymLink());
        QVERIFY(QFileInfo(qs(sticky + "/hop")).isSymLink());
    }
    void foreignFolderLinkInStickyFolderIsRefused()
    {
        REQUIRE_ROOT();
        const std::string sticky = folder("sticky", 01777), safe = folder("safe", 0700);
        secret(safe + "/conf");
        plant(sticky + "/figures", safe, kNobody);

        VERIFY_FORMAT_ERROR(writeTextFileAtomically(sticky + "/figures/conf", "new"), sticky + "/figures/conf",
            "not saved: " + sticky + "/figures is a symbolic link to " + safe + " owned by nobody");
        QCOMPARE(slurp(safe + "/conf"), std::string("root's secret\n"));
        QCOMPARE(entries(safe), QStringList{QStringLiteral("conf")});
    }

    // ------------------------------------------------------------ what a save keeps

    // Root (sudo) saving alice's project: alice keeps it.
    void rootKeepsOwnerGroupAndMode_data()
    {
        QTest::addColumn<uint>("mode");
        QTest::newRow("0660") << 0660u;
        QTest::newRow("0640") << 0640u;
        QTest::newRow("0400") << 0400u;
    }
    void rootKeepsOwnerGroupAndMode()
    {
        REQUIRE_ROOT();
        QFETCH(uint, mode);
        const std::string shared = folder("shared", 0777), path = shared + "/p.json";
        writeFile(path, "alice's project");
        QCOMPARE(::chown(path.c_str(), kNobody, kNogroup), 0);
        QCOMPARE(::chmod(path.c_str(), mode_t(mode)), 0);

        SAVE(writeTextFileAtomically(path, "saved by root"));
        QCOMPARE(slurp(path), std::string("saved by root"));
        const struct stat st = statOf(path);
        QCOMPARE(uint(st.st_uid), uint(kNobody));
        QCOMPARE(uint(st.st_gid), uint(kNogroup));
        QCOMPARE(uint(st.st_mode & 07777), mode);
        QCOMPARE(entries(shared), QStringList{QStringLiteral("p.json")});
    }

    // The ACL and a user.* attribute go to the new file.
    void rootKeepsAclAndAttributes()
    {
        REQUIRE_ROOT();
        const std::string shared = folder("shared", 0777), path = shared + "/p.json";
        writeFile(path, "alice's project");
        QCOMPARE(::chown(path.c_str(), kNobody, kNogroup), 0);
        QCOMPARE(::lsetxattr(path.c_str(), "system.posix_acl_access", sharedAcl().data(), sharedAcl().size(), 0), 0);
        QCOMPARE(::lsetxattr(path.c_str(), "user.note", "hello", 5, 0), 0);
        QCOMPARE(uint(statOf(path).st_mode & 07777), 0660u); // the ACL sets the mode too

        SAVE({
            AtomicFileWriter file(path);
            file.append("saved ");
            file.append("by root");
            file.commit();
        });
        QCOMPARE(slurp(path), std::string("saved by root"));
        QCOMPARE(attribute(path, "system.posix_acl_access"), std::optional<std::string>(sharedAcl()));
        QCOMPARE(attribute(path, "user.note"), std::optional<std::string>("hello"));
        const struct stat st = statOf(path);
        QCOMPARE(uint(st.st_uid), uint(kNobody));
        QCOMPARE(uint(st.st_gid), uint(kNogroup));
        QCOMPARE(uint(st.st_mode & 07777), 0660u);
        QCOMPARE(entries(shared), QStringList{QStringLiteral("p.json")});
    }

    // A file without an ACL in a folder with a default ACL stays without:
    // the new file's inherited ACL is removed.
    void noAclIsAddedByTheFolder()
    {
        REQUIRE_ROOT();
        const std::string shared = folder("shared", 0777), path = shared + "/p.json";
        writeFile(path, "old");
        QCOMPARE(::chmod(path.c_str(), 0640), 0);
        const std::string defaults = sharedAcl();
        QCOMPARE(::lsetxattr(shared.c_str(), "system.posix_acl_default", defaults.data(), defaults.size(), 0), 0);

        SAVE(writeTextFileAtomically(path, "new"));
        QCOMPARE(slurp(path), std::string("new"));
        QCOMPARE(attribute(path, "system.posix_acl_access"), std::nullopt);
        QCOMPARE(uint(statOf(path).st_mode & 07777), 0640u);
        QCOMPARE(entries(shared), QStringList{QStringLiteral("p.json")});
    }

    // A user with write access to a file it does not own (a shared project
    // in a shared folder): a new file would be the user's, so the contents go
    // into the file itself after a backup, and owner, group, mode, ACL and
    // attributes stay.
    void userSavingAnotherUsersFileWritesInPlace_data()
    {
        QTest::addColumn<bool>("streamed");
        QTest::newRow("whole") << false;
        QTest::newRow("in pieces") << true;
    }
    void userSavingAnotherUsersFileWritesInPlace()
    {
        REQUIRE_ROOT();
        QFETCH(bool, streamed);
        const std::string shared = folder("shared", 0777), path = shared + "/p.json";
        // Longer than the new contents: the old tail must go.
        writeFile(path, "root's shared project, a long first version");
        QCOMPARE(::chown(path.c_str(), 0, kNogroup), 0);
        QCOMPARE(::lsetxattr(path.c_str(), "system.posix_acl_access", sharedAcl().data(), sharedAcl().size(), 0), 0);
        QCOMPARE(::lsetxattr(path.c_str(), "user.note", "hello", 5, 0), 0);
        const ino_t inode = statOf(path).st_ino;

        const ChildRun run = asNobody([&] {
            if (!streamed) {
                writeTextFileAtomically(path, "saved by nobody");
                return;
            }
            AtomicFileWriter file(path);
            file.append("saved ");
            file.append("by nobody");
            file.commit();
        });
        QVERIFY2(run.status == 0, run.message.c_str());
        QCOMPARE(slurp(path), std::string("saved by nobody"));
        const struct stat st = statOf(path);
        QCOMPARE(st.st_ino, inode); // the same file, written in place
        QCOMPARE(uint(st.st_uid), 0u);
        QCOMPARE(uint(st.st_gid), uint(kNogroup));
        QCOMPARE(uint(st.st_mode & 07777), 0660u);
        QCOMPARE(attribute(path, "system.posix_acl_access"), std::optional<std::string>(sharedAcl()));
        QCOMPARE(attribute(path, "user.note"), std::optional<std::string>("hello"));
        QCOMPARE(entries(shared), QStringList{QStringLiteral("p.json")}); // no temporary file, no backup
    }

    // A user's own file, in a group of its own, is still replaced by rename.
    void userSavingOwnFileReplacesIt()
    {
        REQUIRE_ROOT();
        const std::string shared = folder("shared", 0777), path = shared + "/p.json";
        writeFile(path, "old");
        QCOMPARE(::chown(path.c_str(), kNobody, kNogroup), 0);
        QCOMPARE(::chmod(path.c_str(), 0444), 0);
        const ino_t inode = statOf(path).st_ino;

        const ChildRun run = asNobody([&] { writeTextFileAtomically(path, "new"); });
        QVERIFY2(run.status == 0, run.message.c_str());
        QCOMPARE(slurp(path), std::string("new"));
        const struct stat st = statOf(path);
        QVERIFY(st.st_ino != inode); // a new file, renamed over the old one
        QCOMPARE(uint(st.st_uid), uint(kNobody));
        QCOMPARE(uint(st.st_gid), uint(kNogroup));
        QCOMPARE(uint(st.st_mode & 07777), 0444u);
        QCOMPARE(entries(shared), QStringList{QStringLiteral("p.json")});
    }

    // Write access to the folder only: replacing the file would hand it to
    // the user saving it, and writing it in place is not allowed. Refused.
    void fileThatCannotBeKeptIsRefused()
    {
        REQUIRE_ROOT();
        const std::string shared = folder("shared", 0777), path = shared + "/p.json";
        writeFile(path, "root's project");
        QCOMPARE(::chmod(path.c_str(), 0644), 0);

        const ChildRun run = asNobody([&] { writeTextFileAtomically(path, "new"); });
        QCOMPARE(run.status, 1);
        QVERIFY2(run.message.find("not saved: a new file could not keep its owner, root (uid 0)") != std::string::npos,
            run.message.c_str());
        QVERIFY2(run.message.find("cannot be written in place (Permission denied)") != std::string::npos, run.message.c_str());
        QCOMPARE(slurp(path), std::string("root's project"));
        const struct stat st = statOf(path);
        QCOMPARE(uint(st.st_uid), 0u);
        QCOMPARE(uint(st.st_mode & 07777), 0644u);
        QCOMPARE(entries(shared), QStringList{QStringLiteral("p.json")});
    }
};

QTEST_GUILESS_MAIN(TestSafeSaves)
#include "tst_safesaves.moc"
