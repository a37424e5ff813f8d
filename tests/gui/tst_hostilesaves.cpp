// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Issue 43 end to end: every save of the window and of the programs, against
// links another user planted in a sticky folder anyone may write to (/tmp),
// and a shared file's owner, group, mode and ACL through saves by root and by
// a second user (docs/user/bad-input.md, "Saves never damage a file").
//
// Run as root (skipped otherwise): the suite makes two users and a group of
// its own (useradd, groupadd) and removes them at the end. The planter owns
// the links (lchown), one to a root-only file and one to a missing path, and
// root saves through them: the window's Save, Save As, Export Figure and
// Export Timeline, driven through their menu actions with their dialogs
// answered as a user would (ModalDriver), and every save of convoffload-cli
// and of convoffload (--report, --screenshot) that tst_safesaves and tst_cli
// do not run (tst_cli: export of an SVG figure). The file the link points to
// stays as it was, nothing is created through the dangling link, and the
// message names the link. The shared file's ACL entry is made with setfacl
// (Debian's acl package) and read back with getfacl.

#include "document/EditProblemCommand.h"
#include "document/ProjectDocument.h"
#include "mainwindow/ExportDialog.h"
#include "mainwindow/MainWindow.h"

#include "TestCli.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QString sample(const QString &name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + name; }

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList entries(const QString &folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System | QDir::Hidden, QDir::Name);
}

struct stat statOf(const QString &path)
{
    struct stat st { };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        st.st_ino = 0;
    return st;
}

/// Runs a system tool (useradd, setfacl...): its output, or an empty
/// optional when it failed.
std::optional<QByteArray> tool(const QString &program, const QStringList &args)
{
    const ProcessRun r = runProgram(program, args, 60000);
    if (r.exitCode != 0) {
        qWarning("%s %s: %s", qPrintable(program), qPrintable(args.join(QLatin1Char(' '))), r.err.constData());
        return std::nullopt;
    }
    return r.out;
}

/// Answers the modal dialogs a menu action opens, as a user would, so that no
/// case waits for one: a file dialog gets `file` and is accepted; the
/// question whether to replace a file is answered Yes; the Export dialog gets
/// `file` and its Export button is clicked, its result line is kept and it is
/// closed; any other message box is kept and closed with OK. Each answer is
/// queued, not given from the timer: a dialog opened by the answer (the
/// question after a file dialog) runs its own event loop, in which the timer
/// must fire again. A dialog still open after 20 s is closed and noted.
class ModalDriver : public QObject {
public:
    explicit ModalDriver(QString file)
        : m_file(std::move(file))
    {
        connect(&m_timer, &QTimer::timeout, this, &ModalDriver::poll);
        m_timer.start(10);
    }

    QStringList messages; ///< every message box's text, and the Export dialog's result line

private:
    void poll()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal)
            return;
        if (modal != m_current) {
            m_current = modal;
            m_since.start();
            m_stable = 0;
        } else if (m_since.elapsed() > 20000) {
            messages << QStringLiteral("(a dialog was left open: %1, %2)")
                            .arg(QString::fromLatin1(modal->metaObject()->className()),
                                qobject_cast<QFileDialog *>(modal)
                                    ? qobject_cast<QFileDialog *>(modal)->selectedFiles().join(QLatin1Char(','))
                                    : modal->windowTitle());
            modal->close();
            return;
        }
        if (modal == m_answered)
            return;
        if (auto *dialog = qobject_cast<QFileDialog *>(modal)) {
            // The dialog selects its proposed name once it has read the
            // folder, which may come after ours: accepted only once the file
            // has stayed the one selected for 100 ms.
            if (dialog->selectedFiles() != QStringList{m_file}) {
                // As typed into the file name field: a file the view has
                // selected (the proposed name) would come first.
                for (QAbstractItemView *view : dialog->findChildren<QAbstractItemView *>())
                    if (view->selectionModel())
                        view->selectionModel()->clearSelection();
                if (auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit")))
                    name->setText(m_file);
                else
                    dialog->selectFile(m_file);
                m_stable = 0;
                return;
            }
            if (++m_stable < 10)
                return;
            m_answered = modal;
            // QDialog's slot, QFileDialog's override (which asks about an
            // existing file).
            QMetaObject::invokeMethod(static_cast<QDialog *>(dialog), &QDialog::accept, Qt::QueuedConnection);
            return;
        }
        m_answered = modal;
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            messages << box->text();
            QAbstractButton *answer
                = box->button(QMessageBox::Yes) ? box->button(QMessageBox::Yes) : box->button(QMessageBox::Ok);
            if (answer)
                QMetaObject::invokeMethod(answer, &QAbstractButton::click, Qt::QueuedConnection);
            else
                QMetaObject::invokeMethod(box, &QDialog::reject, Qt::QueuedConnection);
        } else if (auto *exporting = qobject_cast<ExportDialog *>(modal)) {
            for (QLineEdit *field : exporting->findChildren<QLineEdit *>())
                if (field->placeholderText().startsWith(QStringLiteral("figure.png")))
                    field->setText(m_file);
            QHash<QLabel *, QString> before;
            for (QLabel *label : exporting->findChildren<QLabel *>())
                before.insert(label, label->text());
            for (QPushButton *button : exporting->findChildren<QPushButton *>())
                if (button->text() == QStringLiteral("&Export"))
                    button->click();
            for (QLabel *label : exporting->findChildren<QLabel *>())
                if (label->text() != before.value(label))
                    messages << label->text();
            QMetaObject::invokeMethod(exporting, &QDialog::reject, Qt::QueuedConnection);
        }
    }

    QString m_file;
    QTimer m_timer;
    QPointer<QWidget> m_current, m_answered; // the dialog shown, the last one answered
    QElapsedTimer m_since; // since m_current was shown
    int m_stable = 0; // polls the file dialog has shown the file selected
};

QAction *menuAction(MainWindow &window, const QString &text)
{
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text() == text)
            return action;
    return nullptr;
}

} // namespace

class TestHostileSaves : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    // The users and the group of this run, named after its process.
    QString m_planter, m_saver, m_group;
    uid_t m_planterUid = 0, m_saverUid = 0;
    gid_t m_saverGid = 0, m_groupGid = 0;
    bool m_usersMade = false;
    // This case's folders: a sticky one anyone may write to, and a root-only
    // one with a root-only file.
    QString m_case, m_sticky, m_safe, m_secret;
    QStringList m_planted; // what the planter put in m_sticky
    QString m_reportFirst; // the name of the first file `--report` writes
    QString m_explore; // an exploration, for the Pareto figure and merge
    QString m_solution; // a groups CSV for paper-example, for import-solution

    /// A symbolic link `name` in the sticky folder to `to`, owned by the
    /// planter, as if the planter had made it.
    QString plant(const QString &name, const QString &to)
    {
        const QString link = m_sticky + QLatin1Char('/') + name;
        if (::symlink(QFile::encodeName(to).constData(), QFile::encodeName(link).constData()) != 0
            || ::lchown(QFile::encodeName(link).constData(), m_planterUid, m_groupGid) != 0)
            qFatal("cannot plant %s", qPrintable(link));
        m_planted << name;
        m_planted.sort();
        return link;
    }

    /// What the refusal says of a planted link: the link, where it points,
    /// who owns it, and the folder.
    QString refusal(const QString &link, const QString &to) const
    {
        return link + QStringLiteral(" is a symbolic link to ") + to + QStringLiteral(" owned by ") + m_planter
            + QStringLiteral(" (uid %1), in ").arg(m_planterUid) + m_sticky;
    }

    /// The root-only folder holds its file as it was and nothing more, the
    /// sticky folder only the planted links.
    void verifyUntouched(const QStringList &safeEntries = {QStringLiteral("conf")})
    {
        QCOMPARE(contents(m_secret), QByteArray("root's secret\n"));
        const struct stat st = statOf(m_secret);
        QCOMPARE(int(st.st_mode & 07777), 0600);
        QCOMPARE(uint(st.st_uid), 0u);
        QCOMPARE(entries(m_safe), safeEntries);
        QCOMPARE(entries(m_sticky), m_planted);
        for (const QString &name : m_planted)
            QVERIFY(QFileInfo(m_sticky + QLatin1Char('/') + name).isSymLink());
    }

    /// A copy of a sample in the root-only folder, that a planted link
    /// points to: a project root has open through the link.
    QString projectInSafe(const QString &name = QStringLiteral("project.json"))
    {
        const QString path = m_safe + QLatin1Char('/') + name;
        if (!QFile::copy(sample(QStringLiteral("paper-example.json")), path)
            || ::chmod(QFile::encodeName(path).constData(), 0600) != 0)
            qFatal("cannot copy the sample");
        return path;
    }

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: it makes users and a group, plants links as one of them and saves as root and as the other");
        QVERIFY(m_dir.isValid());
        QCOMPARE(::chmod(QFile::encodeName(m_dir.path()).constData(), 0755), 0);
        const QString id = QString::number(::getpid());
        m_planter = QStringLiteral("co43p") + id;
        m_saver = QStringLiteral("co43s") + id;
        m_group = QStringLiteral("co43g") + id;
        QVERIFY(tool(QStringLiteral("groupadd"), {m_group}));
        m_usersMade = true;
        QVERIFY(tool(QStringLiteral("useradd"),
            {QStringLiteral("-M"), QStringLiteral("-N"), QStringLiteral("-s"), QStringLiteral("/usr/sbin/nologin"), m_planter}));
        QVERIFY(tool(QStringLiteral("useradd"),
            {QStringLiteral("-M"), QStringLiteral("-N"), QStringLiteral("-s"), QStringLiteral("/usr/sbin/nologin"),
                QStringLiteral("-G"), m_group, m_saver}));
        const struct passwd *planter = ::getpwnam(qPrintable(m_planter));
        QVERIFY(planter);
        m_planterUid = planter->pw_uid;
        const struct passwd *saver = ::getpwnam(qPrintable(m_saver));
        QVERIFY(saver);
        m_saverUid = saver->pw_uid;
        m_saverGid = saver->pw_gid;
        const struct group *group = ::getgrnam(qPrintable(m_group));
        QVERIFY(group);
        m_groupGid = group->gr_gid;

        // What some saves read: an exploration, a solution, and the name of
        // the first figure of a report.
        m_explore = m_dir.filePath(QStringLiteral("explore.jsonl"));
        const ProcessRun explore = cli({QStringLiteral("explore"), sample(QStringLiteral("networks/lenet5.json")),
            QStringLiteral("--mem-size"), QStringLiteral("1k..8k*2"), QStringLiteral("--nbop-pe"), QStringLiteral("256"),
            QStringLiteral("--quiet"), QStringLiteral("--out"), m_explore});
        QVERIFY2(explore.exitCode == 0, explore.err.constData());
        m_solution = m_dir.filePath(QStringLiteral("solution.csv"));
        const ProcessRun optimised = cli({QStringLiteral("optimize"), sample(QStringLiteral("paper-example.json")),
            QStringLiteral("--method"), QStringLiteral("exact"), QStringLiteral("--out"), m_solution});
        QVERIFY2(optimised.exitCode == 0, optimised.err.constData());
        const QString report = m_dir.filePath(QStringLiteral("report"));
        const ProcessRun reported = runProgram(
            QStringLiteral(CONVOFFLOAD_GUI), {sample(QStringLiteral("paper-example.json")), QStringLiteral("--report"), report});
        QVERIFY2(reported.exitCode == 0, reported.err.constData());
        const QStringList lines = QString::fromUtf8(reported.out).split(QLatin1Char('\n'));
        QVERIFY(lines.size() > 1);
        m_reportFirst = QFileInfo(lines[1].trimmed()).fileName();
        QVERIFY2(m_reportFirst.endsWith(QLatin1String(".png")), qPrintable(lines[1]));
    }

    void cleanupTestCase()
    {
        if (!m_usersMade)
            return;
        tool(QStringLiteral("userdel"), {m_planter});
        tool(QStringLiteral("userdel"), {m_saver});
        tool(QStringLiteral("groupdel"), {m_group});
        QVERIFY(!::getpwnam(qPrintable(m_planter)) && !::getpwnam(qPrintable(m_saver)) && !::getgrnam(qPrintable(m_group)));
    }

    void init()
    {
        QString tag = QString::fromLatin1(QTest::currentTestFunction()) + QLatin1Char('-')
            + QString::fromLatin1(QTest::currentDataTag() ? QTest::currentDataTag() : "");
        tag.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]")), QStringLiteral("-"));
        m_case = m_dir.filePath(tag);
        m_sticky = m_case + QStringLiteral("/sticky");
        m_safe = m_case + QStringLiteral("/safe");
        m_secret = m_safe + QStringLiteral("/conf");
        m_planted.clear();
        QVERIFY(QDir().mkpath(m_sticky) && QDir().mkpath(m_safe));
        QCOMPARE(::chmod(QFile::encodeName(m_case).constData(), 0755), 0);
        QCOMPARE(::chmod(QFile::encodeName(m_sticky).constData(), 01777), 0);
        QCOMPARE(::chmod(QFile::encodeName(m_safe).constData(), 0700), 0);
        QFile secret(m_secret);
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("root's secret\n");
        secret.close();
        QCOMPARE(::chmod(QFile::encodeName(m_secret).constData(), 0600), 0);
    }

    // ------------------------------------------------------------ the window

    // File > Save of a project root opened through a planted link: refused in
    // the message box, the file it points to as it was, the changes kept.
    void saveThroughPlantedLink()
    {
        const QString real = projectInSafe();
        const QByteArray before = contents(real);
        const QString link = plant(QStringLiteral("p.json"), real);
        MainWindow window;
        QVERIFY(window.openFile(link));
        ProjectDocument *doc = window.document();
        Problem changed = doc->problem();
        changed.hardware.mem_size += 1;
        doc->undoStack()->push(new EditProblemCommand(doc, changed, QStringLiteral("hardware.mem_size")));
        QVERIFY(doc->isModified());
        QAction *save = menuAction(window, QStringLiteral("&Save"));
        QVERIFY(save);

        ModalDriver driver(link);
        save->trigger();
        QVERIFY2(driver.messages.size() == 1, qPrintable(driver.messages.join(QLatin1Char('\n'))));
        QVERIFY2(driver.messages[0].contains(refusal(link, real)), qPrintable(driver.messages[0]));
        QVERIFY2(driver.messages[0].contains(QStringLiteral("fs.protected_symlinks")), qPrintable(driver.messages[0]));
        QCOMPARE(contents(real), before);
        QVERIFY(doc->isModified());
        verifyUntouched({QStringLiteral("conf"), QStringLiteral("project.json")});
    }

    // File > Save As... to a planted link (the file dialog asks whether to
    // replace the file the link points to; yes) and to a dangling one.
    void saveAsThroughPlantedLink_data()
    {
        QTest::addColumn<bool>("dangling");
        QTest::newRow("to a root-only file") << false;
        QTest::newRow("dangling") << true;
    }
    void saveAsThroughPlantedLink()
    {
        QFETCH(bool, dangling);
        const QString to = dangling ? m_safe + QStringLiteral("/new.json") : m_secret;
        const QString link = plant(QStringLiteral("p.json"), to);
        MainWindow window;
        QVERIFY(window.openFile(sample(QStringLiteral("paper-example.json"))));
        QAction *saveAs = menuAction(window, QStringLiteral("Save &As\u2026"));
        QVERIFY(saveAs);

        ModalDriver driver(link);
        saveAs->trigger();
        QVERIFY(!driver.messages.isEmpty());
        // An existing file is asked about first; the error comes last.
        QVERIFY2(driver.messages.size() == (dangling ? 1 : 2), qPrintable(driver.messages.join(QLatin1Char('\n'))));
        QVERIFY2(driver.messages.last().contains(refusal(link, to)), qPrintable(driver.messages.join(QLatin1Char('\n'))));
        QCOMPARE(window.document()->filePath(), sample(QStringLiteral("paper-example.json")));
        verifyUntouched();
    }

    // File > Export Figure... (the dialog's Export button) and File > Export
    // Timeline..., to planted links: the dialog's result line and the message
    // box name the link.
    void exportThroughPlantedLink_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("extension");
        QTest::addColumn<bool>("dangling");
        for (const bool dangling : {false, true}) {
            const char *how = dangling ? "dangling" : "to a root-only file";
            for (const char *extension : {"png", "svg", "pdf"})
                QTest::addRow("figure, %s, %s", extension, how)
                    << QStringLiteral("&Export Figure\u2026") << QString::fromLatin1(extension) << dangling;
            QTest::addRow("timeline, %s", how) << QStringLiteral("Export &Timeline\u2026") << QStringLiteral("json") << dangling;
        }
    }
    void exportThroughPlantedLink()
    {
        QFETCH(QString, action);
        QFETCH(QString, extension);
        QFETCH(bool, dangling);
        const QString to = dangling ? m_safe + QStringLiteral("/new.") + extension : m_secret;
        const QString link = plant(QStringLiteral("figure.") + extension, to);
        MainWindow window;
        QVERIFY(window.openFile(sample(QStringLiteral("paper-example.json"))));
        QTRY_VERIFY(window.document()->cursor() != nullptr);
        QAction *exporting = menuAction(window, action);
        QVERIFY(exporting);

        ModalDriver driver(link);
        exporting->trigger();
        QVERIFY2(driver.messages.size() == (extension == QLatin1String("json") && !dangling ? 2 : 1),
            qPrintable(driver.messages.join(QLatin1Char('\n'))));
        QVERIFY2(driver.messages.last().contains(refusal(link, to)), qPrintable(driver.messages.join(QLatin1Char('\n'))));
        verifyUntouched();
    }

    // ------------------------------------------------------------ the programs

    // Every save of convoffload-cli and convoffload to a planted link, to a
    // root-only file and dangling. @OUT is the link. Rows marked "project"
    // save the project they read, opened through a link to a copy in the
    // root-only folder (no dangling form: there is nothing to read).
    void programsRefusePlantedLinks_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("linkName");
        QTest::addColumn<QString>("linkTo"); // "file", "project" or "folder"
        const QString paper = sample(QStringLiteral("paper-example.json"));
        const QString lenet = sample(QStringLiteral("networks/lenet5.json"));
        const auto both = [](const char *tag, const QString &program, const QStringList &args, const QString &linkName) {
            QTest::addRow("%s, to a root-only file", tag) << program << args << linkName << QStringLiteral("file");
            QTest::addRow("%s, dangling", tag) << program << args << linkName << QStringLiteral("dangling");
        };
        const QString cli = QStringLiteral("cli"), gui = QStringLiteral("gui");
        const QString out = QStringLiteral("@OUT");
        both("optimize --out", cli,
            {QStringLiteral("optimize"), paper, QStringLiteral("--method"), QStringLiteral("exact"), QStringLiteral("--out"),
                out},
            QStringLiteral("groups.csv"));
        QTest::newRow("optimize --save") << cli
                                         << QStringList{QStringLiteral("optimize"), out, QStringLiteral("--method"),
                                                QStringLiteral("exact"), QStringLiteral("--save"), QStringLiteral("Best")}
                                         << QStringLiteral("p.json") << QStringLiteral("project");
        QTest::newRow("import-solution --save")
            << cli
            << QStringList{QStringLiteral("import-solution"), out, QStringLiteral("--solution"), QStringLiteral("@SOLUTION"),
                   QStringLiteral("--save"), QStringLiteral("Imported")}
            << QStringLiteral("p.json") << QStringLiteral("project");
        both("model, LP", cli, {QStringLiteral("model"), paper, QStringLiteral("--out"), out}, QStringLiteral("model.lp"));
        both("model, MPS", cli, {QStringLiteral("model"), paper, QStringLiteral("--out"), out}, QStringLiteral("model.mps"));
        both("import-onnx", cli,
            {QStringLiteral("import-onnx"), sample(QStringLiteral("networks/lenet5.onnx")), QStringLiteral("--hardware"),
                sample(QStringLiteral("networks/lenet5-hardware.json")), QStringLiteral("--out"), out},
            QStringLiteral("network.json"));
        for (const char *extension : {"png", "pdf"}) // SVG: tst_cli
            both(qPrintable(QStringLiteral("export grid, %1").arg(QLatin1String(extension))), cli,
                {QStringLiteral("export"), paper, QStringLiteral("--figure"), QStringLiteral("grid"),
                    QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--out"), out},
                QStringLiteral("fig.") + QLatin1String(extension));
        both("export trace", cli,
            {QStringLiteral("export"), paper, QStringLiteral("--figure"), QStringLiteral("trace"), QStringLiteral("--strategy"),
                QStringLiteral("ZigZag"), QStringLiteral("--out"), out},
            QStringLiteral("trace.json"));
        both("export network", cli,
            {QStringLiteral("export"), lenet, QStringLiteral("--figure"), QStringLiteral("network"), QStringLiteral("--out"),
                out},
            QStringLiteral("network.svg"));
        both("export pareto", cli,
            {QStringLiteral("export"), QStringLiteral("@EXPLORE"), QStringLiteral("--figure"), QStringLiteral("pareto"),
                QStringLiteral("--out"), out},
            QStringLiteral("pareto.svg"));
        both("sweep --kernel-blocks --out", cli,
            {QStringLiteral("sweep"), sample(QStringLiteral("streaming/resnet18-layer3-conv.json")),
                QStringLiteral("--kernel-blocks"), QStringLiteral("14..15"), QStringLiteral("--out"), out},
            QStringLiteral("sweep.svg"));
        const QStringList experiments{QStringLiteral("experiments"), QStringLiteral("--sizes"), QStringLiteral("4..5"),
            QStringLiteral("--group-sizes"), QStringLiteral("2..3"), QStringLiteral("--time-limit"), QStringLiteral("0.2")};
        both("experiments --out", cli, experiments + QStringList{QStringLiteral("--out"), out}, QStringLiteral("gain.svg"));
        both("experiments --durations-out", cli,
            experiments
                + QStringList{QStringLiteral("--durations-out"), out, QStringLiteral("--group-size"), QStringLiteral("2")},
            QStringLiteral("durations.svg"));
        both("experiments --proven-out", cli, experiments + QStringList{QStringLiteral("--proven-out"), out},
            QStringLiteral("proven.svg"));
        both("explore", cli,
            {QStringLiteral("explore"), lenet, QStringLiteral("--mem-size"), QStringLiteral("1k"), QStringLiteral("--nbop-pe"),
                QStringLiteral("256"), QStringLiteral("--quiet"), QStringLiteral("--out"), out},
            QStringLiteral("explore.jsonl"));
        both("merge", cli, {QStringLiteral("merge"), QStringLiteral("@EXPLORE"), QStringLiteral("--out"), out},
            QStringLiteral("all.jsonl"));
        both("convoffload --report, a figure's name", gui, {paper, QStringLiteral("--report"), QStringLiteral("@STICKY")},
            QStringLiteral("@REPORT"));
        QTest::newRow("convoffload --report, the folder")
            << gui << QStringList{paper, QStringLiteral("--report"), out} << QStringLiteral("report") << QStringLiteral("folder");
        QTest::newRow("convoffload --report, the folder, dangling")
            << gui << QStringList{paper, QStringLiteral("--report"), out} << QStringLiteral("report")
            << QStringLiteral("dangling folder");
        both("convoffload --screenshot", gui, {paper, QStringLiteral("--screenshot"), out}, QStringLiteral("shot.png"));
    }
    void programsRefusePlantedLinks()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        QFETCH(QString, linkName);
        QFETCH(QString, linkTo);
        if (linkName == QLatin1String("@REPORT"))
            linkName = m_reportFirst;
        QStringList safeEntries{QStringLiteral("conf")};
        QString to;
        if (linkTo == QLatin1String("file")) {
            to = m_secret;
        } else if (linkTo == QLatin1String("project")) {
            to = projectInSafe();
            safeEntries << QStringLiteral("project.json");
        } else if (linkTo == QLatin1String("folder")) {
            to = m_safe;
        } else {
            to = m_safe + QStringLiteral("/new-") + linkName;
        }
        const QByteArray before = contents(to);
        const QString link = plant(linkName, to);
        for (QString &arg : args) {
            arg.replace(QStringLiteral("@OUT"), link);
            arg.replace(QStringLiteral("@STICKY"), m_sticky);
            arg.replace(QStringLiteral("@EXPLORE"), m_explore);
            arg.replace(QStringLiteral("@SOLUTION"), m_solution);
        }

        const ProcessRun r = runProgram(
            program == QLatin1String("cli") ? QStringLiteral(CONVOFFLOAD_CLI) : QStringLiteral(CONVOFFLOAD_GUI), args);
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        if (linkTo == QLatin1String("dangling folder")) {
            // A folder is made with mkdir, which never follows a link.
            QVERIFY2(err.contains(link + QStringLiteral(": cannot create the folder: it is a symbolic link to ") + to),
                qPrintable(err));
        } else {
            QVERIFY2(err.contains(refusal(link, to)), qPrintable(err));
            QVERIFY2(err.contains(QStringLiteral("fs.protected_symlinks")), qPrintable(err));
        }
        if (linkTo == QLatin1String("project"))
            QCOMPARE(contents(to), before);
        verifyUntouched(safeEntries);
    }

    // ------------------------------------------------------------ what a save keeps

    // A file of the planter, in a group the second user belongs to, 0660, with
    // an ACL entry made by setfacl, saved (`model --out`) by root and by the
    // second user: owner, group, mode and ACL as they were (getfacl), the
    // contents new. Root replaces the file with one given the same identity;
    // the second user, who may not give a file to the planter, writes it in
    // place.
    void ownerGroupModeAndAclSurviveSaves_data()
    {
        QTest::addColumn<bool>("asSecondUser");
        QTest::addColumn<bool>("aclNamesTheSaver");
        QTest::newRow("root, the ACL naming the second user") << false << true;
        QTest::newRow("root, the ACL naming nobody") << false << false;
        QTest::newRow("second user by the group, the ACL naming nobody") << true << false;
        QTest::newRow("second user by the group and the ACL") << true << true;
    }
    void ownerGroupModeAndAclSurviveSaves()
    {
        QFETCH(bool, asSecondUser);
        QFETCH(bool, aclNamesTheSaver);
        const QString setfacl = QStringLiteral("/usr/bin/setfacl"), getfacl = QStringLiteral("/usr/bin/getfacl");
        if (!QFile::exists(setfacl) || !QFile::exists(getfacl))
            QSKIP("setfacl and getfacl are missing: Debian's acl package (./build.sh installs it)");
        // The project, readable by the second user.
        const QString project = m_case + QStringLiteral("/project.json");
        QVERIFY(QFile::copy(sample(QStringLiteral("paper-example.json")), project));
        QCOMPARE(::chmod(QFile::encodeName(project).constData(), 0644), 0);
        // The planter's shared folder and file.
        const QString shared = m_case + QStringLiteral("/shared"), path = shared + QStringLiteral("/model.lp");
        QVERIFY(QDir().mkpath(shared));
        QCOMPARE(::chown(QFile::encodeName(shared).constData(), m_planterUid, m_groupGid), 0);
        QCOMPARE(::chmod(QFile::encodeName(shared).constData(), 02770), 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("the planter's old model\n");
        file.close();
        QCOMPARE(::chown(QFile::encodeName(path).constData(), m_planterUid, m_groupGid), 0);
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0660), 0);
        const QString named = aclNamesTheSaver ? m_saver : QStringLiteral("nobody");
        QVERIFY(tool(setfacl, {QStringLiteral("-m"), QStringLiteral("u:%1:rw").arg(named), path}));
        const auto acl = [&] { return tool(getfacl, {QStringLiteral("--omit-header"), QStringLiteral("--numeric"), path}); };
        const std::optional<QByteArray> aclBefore = acl();
        QVERIFY(aclBefore);
        const uint namedUid = aclNamesTheSaver ? uint(m_saverUid) : uint(::getpwnam("nobody")->pw_uid);
        QVERIFY2(aclBefore->contains(QStringLiteral("user:%1:rw-").arg(namedUid).toUtf8()), aclBefore->constData());
        const struct stat st = statOf(path);

        QStringList command{QStringLiteral(CONVOFFLOAD_CLI), QStringLiteral("model"), project, QStringLiteral("--out"), path};
        if (asSecondUser)
            command = QStringList{QStringLiteral("--reuid=%1").arg(m_saverUid), QStringLiteral("--regid=%1").arg(m_saverGid),
                          QStringLiteral("--init-groups")}
                + command;
        const ProcessRun r = runProgram(asSecondUser ? QStringLiteral("/usr/bin/setpriv") : command.takeFirst(), command);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray saved = contents(path);
        QVERIFY2(saved.contains("Minimize") || saved.contains("MINIMIZE"), saved.left(200).constData());
        const struct stat now = statOf(path);
        QCOMPARE(uint(now.st_uid), uint(m_planterUid));
        QCOMPARE(uint(now.st_gid), uint(m_groupGid));
        QCOMPARE(int(now.st_mode & 07777), int(st.st_mode & 07777));
        QCOMPARE(int(now.st_mode & 07777), 0660);
        QCOMPARE(acl(), aclBefore);
        // In place as the second user (the same file); a new file as root.
        QCOMPARE(now.st_ino == st.st_ino, asSecondUser);
        QCOMPARE(entries(shared), QStringList{QStringLiteral("model.lp")});
    }
};

QTEST_MAIN(TestHostileSaves)
#include "tst_hostilesaves.moc"
