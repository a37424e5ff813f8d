// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// What the shipped programs show of themselves: the compiled-in application
// icon (drawn, used by the About box), the version of project() in --version,
// the CLI's usage generated from its command table, and the desktop program's
// screenshot options (--dock, --strategy).

#include "convoffload/Version.h"
#include "mainwindow/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <sys/resource.h>
#include <sys/stat.h>

namespace {

const QString kIcon = QStringLiteral(":/icons/convoffload.svg");

struct Run {
    int exitCode = -1;
    QString out, err;
};

/// `program` with `args`; its address space limited to `memoryLimit` bytes
/// (ulimit -v) when not 0.
Run run(const QString &program, const QStringList &args, rlim_t memoryLimit = 0)
{
    QProcess p;
    if (memoryLimit > 0)
        p.setChildProcessModifier([memoryLimit] {
            const rlimit limit{memoryLimit, memoryLimit};
            ::setrlimit(RLIMIT_AS, &limit);
        });
    p.start(program, args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError())};
}

/// A 1x1 input padded 2^20 high and `padLeft` wide, with `kernels` kernels:
/// millions of one-pixel patches in a 600-byte project (issue 44).
void writeTallProject(const QString &path, int kernels, int padLeft)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(QStringLiteral(R"({"format": "convoffload-project", "version": 1,
  "layer": {"c_in": 1, "h_in": 1, "w_in": 1, "h_k": 1, "w_k": 1, "n": %1, "stride_h": 1, "stride_w": 1,
            "pad_top": 1048576, "pad_bottom": 0, "pad_left": %2, "pad_right": 0},
  "hardware": {"mem_size": 80, "nbop_pe": 72, "t_l": 1, "t_w": 1, "t_acc": 1, "dram_size": 1000000000,
               "max_loads_per_element": 2},
  "strategies": [{"name": "S1-baseline", "kind": "s1-baseline"},
                 {"name": "Row-by-Row", "kind": "row-by-row", "group_size": 2}]})")
                .arg(kernels)
                .arg(padLeft)
                .toUtf8());
}

Run cli(const QStringList &args) { return run(QStringLiteral(CONVOFFLOAD_CLI), args); }

/// The desktop program (offscreen, as CTest runs it).
Run gui(const QStringList &args) { return run(QStringLiteral(CONVOFFLOAD_GUI), args); }

} // namespace

class TestShip : public QObject {
    Q_OBJECT
private slots:
    // The SVG renders (the svg icon engine is there): the dark tile, the
    // light grid and the amber patch at the places the drawing puts them.
    void iconRenders()
    {
        const QIcon icon(kIcon);
        QVERIFY(!icon.isNull());
        const QImage image = icon.pixmap(QSize(128, 128)).toImage();
        QCOMPARE(image.size(), QSize(128, 128));
        QCOMPARE(image.pixelColor(5, 64), QColor(0x1f, 0x3b, 0x5c)); // the tile's edge
        QCOMPARE(image.pixelColor(19, 19), QColor(0x8f, 0xb3, 0xde)); // a grid cell
        QCOMPARE(image.pixelColor(55, 55), QColor(0xf5, 0xa6, 0x23)); // the patch
        QCOMPARE(image.pixelColor(0, 0).alpha(), 0); // round corners
    }

    // QMessageBox::about shows the window icon it inherits from the application.
    void aboutBoxShowsIconAndVersion()
    {
        QApplication::setWindowIcon(QIcon(kIcon));
        QApplication::setApplicationVersion(QStringLiteral(CONVOFFLOAD_VERSION));
        convoffload::ui::MainWindow window;
        window.show();
        QAction *about = nullptr;
        for (QAction *a : window.menuBar()->findChildren<QAction *>())
            if (a->text() == QLatin1String("&About ConvOffload"))
                about = a;
        QVERIFY(about);
        // The box is modal: look at it from a timer, close it, check after.
        QImage shown;
        QString text;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                shown = box->iconPixmap().toImage();
                text = box->text();
                box->accept();
            }
        });
        poll.start(10);
        about->trigger();
        poll.stop();
        QVERIFY(!shown.isNull());
        QCOMPARE(shown.pixelColor(shown.width() * 55 / 128, shown.height() * 55 / 128), QColor(0xf5, 0xa6, 0x23));
        QVERIFY(text.contains(QStringLiteral(CONVOFFLOAD_VERSION)));
    }

    void cliVersion()
    {
        const Run r = cli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QStringLiteral("convoffload-cli " CONVOFFLOAD_VERSION "\n"));
    }

    // convoffload-cli starts on QtCore and the core alone (app/CliForward.h):
    // none of the GUI's or ONNX's libraries is loaded for a command that
    // draws nothing; the commands that need them run in convoffload-cli-full.
    void cliLoadsNoGuiOrOnnx()
    {
        const Run ldd = run(QStringLiteral("ldd"), {QStringLiteral(CONVOFFLOAD_CLI)});
        QCOMPARE(ldd.exitCode, 0);
        QVERIFY2(ldd.out.contains(QLatin1String("libQt6Core")), qPrintable(ldd.out));
        for (const char *library : {"libQt6Gui", "libQt6Widgets", "libQt6Charts", "libQt6Svg", "libonnx", "libprotobuf"})
            QVERIFY2(!ldd.out.contains(QLatin1String(library)), library);
        // A command of each kind, through the front.
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("compare.svg"));
        const Run exported = cli({QStringLiteral("export"), QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json"),
            QStringLiteral("--figure"), QStringLiteral("compare"), QStringLiteral("--out"), svg});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QVERIFY(QFileInfo(svg).size() > 0);
        const Run refused = cli({QStringLiteral("export"), QStringLiteral("/nonexistent/x.json"), QStringLiteral("--figure"),
            QStringLiteral("compare"), QStringLiteral("--out"), svg});
        QCOMPARE(refused.exitCode, 1); // the full program's exit status, as it is
        QVERIFY2(refused.err.contains(QLatin1String("convoffload-cli: ")), qPrintable(refused.err));
    }

    // The usage, the positional argument's help and the unknown-command
    // message all come from one table: every command is in each.
    void cliCommandsFromOneTable()
    {
        const Run help = cli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        const Run unknown = cli({QStringLiteral("frobnicate"), QStringLiteral("x.json")});
        QCOMPARE(unknown.exitCode, 1);
        const QStringList commands{QStringLiteral("simulate"), QStringLiteral("compare"), QStringLiteral("sweep"),
            QStringLiteral("export"), QStringLiteral("optimize"), QStringLiteral("model"), QStringLiteral("import-solution"),
            QStringLiteral("import-onnx"), QStringLiteral("network"), QStringLiteral("explore"), QStringLiteral("merge"),
            QStringLiteral("experiments")};
        for (const QString &c : commands) {
            QVERIFY2(help.out.contains(QStringLiteral("\n  ") + c + QLatin1Char(' ')), qPrintable(c));
            QVERIFY2(unknown.err.contains(c), qPrintable(c));
        }
        QVERIFY(unknown.err.contains(QStringLiteral(
            "(expected simulate, compare, sweep, export, optimize, model, import-solution, import-onnx, network, explore, "
            "merge or experiments)")));
        QVERIFY(help.out.contains(QStringLiteral("Commands:\n  simulate PROJECT")));
        QVERIFY(!help.out.contains(QStringLiteral("built without the GUI")));
        // Option texts are read as Latin-1, so a character outside ASCII in
        // one comes out garbled (a check mark did): the help is plain ASCII.
        for (qsizetype i = 0; i < help.out.size(); ++i)
            QVERIFY2(help.out[i].unicode() < 128, qPrintable(help.out.mid(std::max<qsizetype>(0, i - 60), 80)));
    }

    // The screenshot options name what they show: a dock or strategy that is
    // not there is said (with the ones that are) and nothing is saved.
    void screenshotRefusesUnknownDockOrStrategy_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("dock") << QStringList{QStringLiteral("--dock"), QStringLiteral("Findings")}
                              << QStringLiteral("convoffload: --dock: no dock is titled 'Findings'; the docks are: "
                                                "Charts, Errors and warnings, Groups, History, Layer and hardware, "
                                                "Network, Steps, Strategies\n");
        QTest::newRow("strategy") << QStringList{QStringLiteral("--strategy"), QStringLiteral("zigzag")}
                                  << QStringLiteral("convoffload: --strategy: %1 has no strategy named 'zigzag'; its "
                                                    "strategies are: S1-baseline, Row-by-Row, ZigZag, Mine\n")
                                         .arg(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json"));
    }
    void screenshotRefusesUnknownDockOrStrategy()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        const Run r = gui(
            QStringList{QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json"), QStringLiteral("--screenshot"), shot} + args);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.section(QLatin1Char('\n'), -2), message); // the last line (Qt may warn before it)
        QVERIFY(!QFileInfo::exists(shot));
    }

    // A model given to --screenshot would open the Import Network dialog and
    // wait for a user nobody is there to be: it is refused, as a report of
    // it is (the file is not a project).
    void screenshotAndReportRefuseAModel()
    {
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        const QString model = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.onnx");
        const Run r = gui({model, QStringLiteral("--screenshot"), shot});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("is an ONNX model, not a project")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(shot));
        const Run report = gui({model, QStringLiteral("--report"), dir.filePath(QStringLiteral("report"))});
        QCOMPARE(report.exitCode, 1);
        QVERIFY2(report.err.contains(QStringLiteral("a binary file, not JSON text")), qPrintable(report.err));
    }

    // An unreadable project given to --screenshot is refused on stderr, as
    // --report refuses it, never in a dialog that waits for nobody.
    void screenshotRefusesAnUnreadableProject_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("a FIFO (named pipe), not a file");
        QTest::newRow("device") << QStringLiteral("/dev/zero") << QStringLiteral("a character device, not a file");
        QTest::newRow("directory") << QStringLiteral("dir") << QStringLiteral("a directory, not a file");
        QTest::newRow("duplicate key") << QStringLiteral("dup") << QStringLiteral("duplicate key");
        QTest::newRow("deep nesting") << QStringLiteral("deep") << QStringLiteral("nested more than 64 deep");
    }
    void screenshotRefusesAnUnreadableProject()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString path = kind;
        if (kind == QLatin1String("fifo")) {
            path = dir.filePath(QStringLiteral("p.json"));
            QVERIFY(::mkfifo(path.toLocal8Bit().constData(), 0600) == 0);
        } else if (kind == QLatin1String("dir")) {
            path = dir.filePath(QStringLiteral("d.json"));
            QVERIFY(QDir().mkdir(path));
        } else if (kind == QLatin1String("dup") || kind == QLatin1String("deep")) {
            path = dir.filePath(QStringLiteral("bad.json"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kind == QLatin1String("dup")
                    ? QByteArray("{\"format\": \"convoffload-project\", \"version\": 1, \"version\": 1}")
                    : QByteArray(100000, '[') + QByteArray(100000, ']'));
        }
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        const Run r = gui({path, QStringLiteral("--screenshot"), shot});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(shot));
    }

    // A dock named in any case, without its mnemonic, is found and the
    // screenshot saved.
    void screenshotRaisesADockNamedInAnyCase()
    {
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        const Run r = gui({QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json"), QStringLiteral("--screenshot"), shot,
            QStringLiteral("--dock"), QStringLiteral("errors AND warnings"), QStringLiteral("--strategy"),
            QStringLiteral("ZigZag")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("Saved %1\n").arg(shot));
        QVERIFY(!QImage(shot).isNull());
    }

    // Issue 44: --report had no work bound; a 600-byte project of 66 M
    // one-pixel patches ran out of memory ("convoffload: std::bad_alloc")
    // or for minutes. The whole report is estimated before its first
    // figure and refused at once, nothing written.
    void reportIsEstimatedFirst()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("tall.json")), folder = dir.filePath(QStringLiteral("report"));
        writeTallProject(project, 1, 62);
        const Run r = gui({project, QStringLiteral("--report"), folder});
        QCOMPARE(r.exitCode, 1);
        // (Qt may warn first, as of XDG_RUNTIME_DIR: the last line is ours.)
        QVERIFY2(r.err.contains(QStringLiteral("convoffload: %1: its figures (2 traced simulations, the comparison and a sweep "
                                               "of group sizes 1..144) would take about ")
                                    .arg(project)),
            qPrintable(r.err));
        QVERIFY2(r.err.endsWith(QStringLiteral("; make the layer smaller, or pass --no-work-limit to write the report anyway\n")),
            qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(folder));
    }

    // Out of memory all the same (--no-work-limit, ulimit -v 1 GB): one line
    // saying what and for which file, exit 1, never a signal.
    void reportOutOfMemoryIsAMessage()
    {
#ifdef __SANITIZE_ADDRESS__
        QSKIP("AddressSanitizer needs terabytes of address space: RLIMIT_AS cannot be set in the sanitize build");
#endif
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("tall.json"));
        writeTallProject(project, 30, 3); // 4 M patches, 126 M outputs
        const Run r = run(QStringLiteral(CONVOFFLOAD_GUI),
            {project, QStringLiteral("--report"), dir.filePath(QStringLiteral("report")), QStringLiteral("--no-work-limit")},
            rlim_t(1) << 30);
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        const QString line = QStringLiteral(
            "convoffload: out of memory while simulating strategy 'S1-baseline' for %1 (this process may use 1.1 GB)\n")
                                 .arg(project);
        QVERIFY2(r.err == line || r.err.endsWith(QLatin1Char('\n') + line), qPrintable(r.err)); // after any warning of Qt's
    }
};

QTEST_MAIN(TestShip)
#include "tst_ship.moc"
