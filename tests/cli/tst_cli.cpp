// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-cli as a script sees it: exit codes, JSON fields of docs/reference/cli.md,
// and one precise message on stderr for every kind of bad input.

#include "TestImages.h"

#include <QFile>
#include <QImage>
#include <QSet>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>

#include "TestCli.h"

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace {

using Run = ProcessRun;

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

// Whether a process catches SIGINT yet: its SigCgt mask in /proc (Linux).
bool catchesInterrupt(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("SigCgt:"))
            return ((line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGINT - 1)) & 1) != 0;
    return false;
}

/// A 1x1 input padded 2^20 high (`padLeft` wide): a million one-pixel
/// patches or more, a million steps for S1 (issue 44). The file is 600 bytes.
QByteArray tallProject(int kernels, int padLeft = 0)
{
    return QStringLiteral(R"({"format": "convoffload-project", "version": 1,
  "layer": {"c_in": 1, "h_in": 1, "w_in": 1, "h_k": 1, "w_k": 1, "n": %1, "stride_h": 1, "stride_w": 1,
            "pad_top": 1048576, "pad_bottom": 0, "pad_left": %2, "pad_right": 0},
  "hardware": {"mem_size": 80, "nbop_pe": 72, "t_l": 1, "t_w": 1, "t_acc": 1, "dram_size": 1000000000,
               "max_loads_per_element": 2},
  "strategies": [{"name": "S1-baseline", "kind": "s1-baseline"},
                 {"name": "Row-by-Row", "kind": "row-by-row", "group_size": 2}]})")
        .arg(kernels)
        .arg(padLeft)
        .toUtf8();
}

/// The CLI with its address space limited (ulimit -v) to `bytes`.
ProcessRun cliWithMemory(const QStringList &args, rlim_t bytes)
{
    QProcess p;
    p.setChildProcessModifier([bytes] {
        const rlimit limit{bytes, bytes};
        ::setrlimit(RLIMIT_AS, &limit);
    });
    p.start(QStringLiteral(CONVOFFLOAD_CLI), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString write(const char *name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(QLatin1String(name));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        f.write(content);
        return path;
    }

private slots:
    // COMMAND --help: the command's usage and the options it names, not the
    // whole help (export --help printed every command). Every command, with
    // a time limit: a first version looped on optimize's options.
    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("named"); // an option of its usage, listed
        QTest::addColumn<QString>("other"); // another command's option, not listed
        QTest::newRow("export") << "export"
                                << "--preset"
                                << "--method";
        QTest::newRow("optimize") << "optimize"
                                  << "--method"
                                  << "--figure";
        QTest::newRow("simulate") << "simulate"
                                  << "--strategy-csv"
                                  << "--preset";
        QTest::newRow("experiments") << "experiments"
                                     << "--proven-out"
                                     << "--strategy-csv";
    }
    void commandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QString, named);
        QFETCH(QString, other);
        const ProcessRun r = runProgram(QStringLiteral(CONVOFFLOAD_CLI), {command, QStringLiteral("--help")}, 20000);
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith(QStringLiteral("Usage: convoffload-cli ") + command + QLatin1Char(' ')), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("\n  ") + named), qPrintable(out)); // its line among the options
        QVERIFY2(!out.contains(QStringLiteral("\n  ") + other + QLatin1Char(' ')), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("Commands:")), qPrintable(out));
    }

    // Paper Example, ZigZag G=2, worked by hand: 31 pixels = 62 elements
    // loaded, 36 kernel elements, 18 writes, 5 computes -> 121.
    void simulateJson()
    {
        const Run r = cli({QStringLiteral("simulate"), sample("paper-example.json"), QStringLiteral("--strategy"),
            QStringLiteral("ZigZag"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j[QLatin1String("strategy")].toString(), QStringLiteral("ZigZag"));
        QCOMPARE(j[QLatin1String("valid")].toBool(), true);
        QCOMPARE(j[QLatin1String("steps")].toInt(), 5);
        QCOMPARE(j[QLatin1String("total_duration")].toInt(), 121);
        QCOMPARE(j[QLatin1String("loaded_input")].toInt(), 62);
        QCOMPARE(j[QLatin1String("loaded_kernels")].toInt(), 36);
        QCOMPARE(j[QLatin1String("written")].toInt(), 18);
        QCOMPARE(j[QLatin1String("peak_footprint")].toInt(), 64);
        QCOMPARE(j[QLatin1String("functional_check")].toString(), QStringLiteral("pass"));
        QVERIFY(j[QLatin1String("errors")].toArray().isEmpty());
        QVERIFY(j[QLatin1String("warnings")].isArray());
        const QJsonArray perStep = j[QLatin1String("per_step")].toArray();
        QCOMPARE(perStep.size(), 6); // 5 steps + drain
        const QJsonObject s2 = perStep[1].toObject();
        QCOMPARE(s2[QLatin1String("loaded_input")].toInt(), 12);
        QCOMPARE(s2[QLatin1String("freed_input")].toInt(), 12);
        QCOMPARE(s2[QLatin1String("written")].toInt(), 4);
        QCOMPARE(s2[QLatin1String("computed")].toInt(), 4);
        QCOMPARE(s2[QLatin1String("footprint")].toInt(), 64);
        QCOMPARE(s2[QLatin1String("duration")].toInt(), 17);
        QCOMPARE(perStep[5].toObject()[QLatin1String("drain")].toBool(), true);
    }

    // The reload assumption in the CLI's words. Input 1×2×7, one 2×3
    // kernel: patch j reads columns j..j+2. Groups {0},{3},{1},{4},{2} load
    // column 2 at steps 1, 3 and 5 (worked out in tst_reload): with bound 2,
    // pixels (0,2) and (1,2) break it, at step 5, which computes patch 2.
    // S1-baseline (patches in order) keeps the shared columns: every pixel once.
    void reloadAssumptionWording()
    {
        const QString project = write("strip.json", R"({
  "format": "convoffload-project", "version": 1,
  "layer": {"c_in": 1, "h_in": 2, "w_in": 7, "h_k": 2, "w_k": 3, "n": 1},
  "hardware": {"mem_size": 1000, "nbop_pe": 1000, "max_loads_per_element": 2},
  "strategies": [
    {"name": "Hopping", "kind": "groups", "groups": [[0], [3], [1], [4], [2]]},
    {"name": "S1-baseline", "kind": "s1-baseline"}
  ]
})");
        const Run text = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy"), QStringLiteral("Hopping")});
        QCOMPARE(text.exitCode, 0);
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QLatin1String("verdict         runs correctly, breaks the reload assumption on 2 pixels\n")),
            qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("assumption: step 5, a4 load input, pixel (0,2): loaded 3 times")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("assumption: step 5, a4 load input, pixel (1,2): loaded 3 times")), qPrintable(out));
        QVERIFY(!out.contains(QLatin1String("warning: ")));

        const Run json = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy"), QStringLiteral("Hopping"),
            QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(j[QLatin1String("valid")].toBool(), true);
        QCOMPARE(j[QLatin1String("warnings")].toArray().size(), 2); // docs/reference/cli.md: still listed as warnings
        QCOMPARE(j[QLatin1String("warning_count")].toInt(), 2);
        QCOMPARE(j[QLatin1String("plain_warning_count")].toInt(), 0);
        QCOMPARE(j[QLatin1String("status")].toString(), QStringLiteral("breaks-assumptions"));
        QCOMPARE(
            j[QLatin1String("verdict")].toString(), QStringLiteral("runs correctly, breaks the reload assumption on 2 pixels"));
        const QJsonObject reload = j[QLatin1String("reload_assumption")].toObject();
        QCOMPARE(reload[QLatin1String("max_loads_per_element")].toInt(), 2);
        QCOMPARE(reload[QLatin1String("met")].toBool(), false);
        QCOMPARE(reload[QLatin1String("pixels")].toInt(), 2);
        QCOMPARE(reload[QLatin1String("kernels")].toInt(), 0);
        QCOMPARE(reload[QLatin1String("patches")].toInt(), 1);
        QCOMPARE(reload[QLatin1String("patch_ids")].toArray(), QJsonArray{2});

        const Run compare = cli({QStringLiteral("compare"), project});
        QCOMPARE(compare.exitCode, 0);
        const QList<QByteArray> lines = compare.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[1].startsWith("Hopping") && lines[1].endsWith("runs correctly, breaks the reload assumption on 2 pixels"),
            lines[1].constData());
        QVERIFY2(lines[2].startsWith("S1-baseline") && lines[2].endsWith("runs correctly, meets the paper's assumptions"),
            lines[2].constData());
        const Run csv = cli({QStringLiteral("compare"), project, QStringLiteral("--csv")});
        QVERIFY(csv.out.contains("\nHopping,groups,,yes,5,"));
        QVERIFY(csv.out.contains(",2,pass,breaks-assumptions,2,0\n"));
    }

    void simulateStrategyCsv()
    {
        // ZigZag's groups as a solver would write them (patch,group).
        const QString csv = write("zz.csv", "patch,group\n0,0\n1,0\n2,1\n5,1\n4,2\n3,2\n6,3\n7,3\n8,4\n");
        const Run r = cli({QStringLiteral("simulate"), sample("paper-example.json"), QStringLiteral("--strategy-csv"), csv,
            QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object()[QLatin1String("total_duration")].toInt(), 121);
    }

    void compareJsonMarksBest()
    {
        const Run r = cli({QStringLiteral("compare"), sample("paper-example.json"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j[QLatin1String("strategies")].toArray().size(), 4);
        QCOMPARE(j[QLatin1String("best")].toString(), QStringLiteral("Row-by-Row")); // 117 < 121 < 145
        QCOMPARE(j[QLatin1String("layer")].toObject()[QLatin1String("k_min")].toInt(), 5);
    }

    void compareCsv()
    {
        const Run r = cli({QStringLiteral("compare"), sample("paper-example.json"), QStringLiteral("--csv")});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[0].startsWith("strategy,kind,group_size,valid"));
        QVERIFY(lines[2].startsWith("Row-by-Row,row-by-row,2,yes,5,117,"));
    }

    // G = 2 gives the hand-worked totals of the paper Example (117 and 121,
    // peaks 72 and 64); G = 3 needs 3·36 = 108 MACs > nbop_pe 72: invalid.
    void sweepCsv()
    {
        const Run r = cli({QStringLiteral("sweep"), sample("paper-example.json"), QStringLiteral("--group-sizes"),
            QStringLiteral("1..3"), QStringLiteral("--csv")});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith("group_size,row_by_row_duration"));
        QVERIFY2(lines[2].startsWith("2,117,yes,72,121,yes,64"), lines[2].constData());
        QVERIFY2(lines[3].contains(",no,"), lines[3].constData()); // G = 3 exceeds nbop_pe
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString example = sample("paper-example.json");
        QTest::newRow("no arguments") << QStringList{} << QStringLiteral("expected a command");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate"), example}
                                         << QStringLiteral("unknown command 'frobnicate'");
        QTest::newRow("missing file") << QStringList{QStringLiteral("compare"), QStringLiteral("/nonexistent/p.json")}
                                      << QStringLiteral("/nonexistent/p.json");
        QTest::newRow("unknown strategy") << QStringList{QStringLiteral("simulate"), example, QStringLiteral("--strategy"),
            QStringLiteral("Nope")} << QStringLiteral("no strategy named 'Nope'");
        QTest::newRow("no strategy") << QStringList{QStringLiteral("simulate"), example} << QStringLiteral("--strategy");
        QTest::newRow("bad range") << QStringList{QStringLiteral("sweep"), example, QStringLiteral("--group-sizes"),
            QStringLiteral("5-1")} << QStringLiteral("--group-sizes");
        QTest::newRow("reversed range") << QStringList{QStringLiteral("sweep"), example, QStringLiteral("--group-sizes"),
            QStringLiteral("5..1")} << QStringLiteral("A <= B");
        QTest::newRow("range beyond patches") << QStringList{QStringLiteral("sweep"), example, QStringLiteral("--group-sizes"),
            QStringLiteral("1..99")} << QStringLiteral("exceeds the number of patches");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("compare"), example, QStringLiteral("--frob")}
                                        << QStringLiteral("frob");
        QTest::newRow("json and csv") << QStringList{QStringLiteral("compare"), example, QStringLiteral("--json"),
            QStringLiteral("--csv")} << QStringLiteral("exclude");
        // A 483-byte project of days of work (4096² input, 2048² kernel):
        // refused at once, for every command that would simulate or optimise it.
        const QString days = QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/hostile/project-days-of-work.json");
        for (const char *command : {"simulate", "compare", "optimize", "model"})
            QTest::addRow("days of work: %s", command)
                << QStringList{QString::fromLatin1(command), days, QStringLiteral("--strategy"), QStringLiteral("Row-by-Row"),
                       QStringLiteral("--out"), m_dir.filePath(QStringLiteral("never.lp"))}
                << QStringLiteral("days and need about");
        QTest::newRow("days of work: sweep") << QStringList{QStringLiteral("sweep"), days, QStringLiteral("--group-sizes"),
            QStringLiteral("1..2")} << QStringLiteral("--no-work-limit");
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("project");
        QTest::addColumn<QString>("message");
        QTest::newRow("malformed json") << QByteArray("{\n  \"format\": \"convoffload-project\",\n  oops\n}")
                                        << QStringLiteral("line 3");
        QTest::newRow("impossible layer") << QByteArray(R"({"format":"convoffload-project","version":1,
                "layer":{"c_in":1,"h_in":3,"w_in":3,"h_k":5,"w_k":3,"n":1},
                "hardware":{"mem_size":100,"nbop_pe":100}})")
                                          << QStringLiteral("layer.h_k");
    }
    void badFiles()
    {
        QFETCH(QByteArray, project);
        QFETCH(QString, message);
        const Run r = cli({QStringLiteral("compare"), write("bad.json", project)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    // data.file is resolved against the project's folder; a bad tensor file
    // is bad input, named with its path.
    void tensorDataFile()
    {
        QFile example(sample("paper-example.json"));
        QVERIFY(example.open(QIODevice::ReadOnly));
        QByteArray project = example.readAll();
        project.replace("\"data\": {\"seed\": 1}", "\"data\": {\"seed\": 1, \"file\": \"tensors.json\"}");
        QVERIFY(project.contains("tensors.json"));
        const QString path = write("with-data.json", project);

        QFile good(QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/tensors-paper.json"));
        QVERIFY(good.open(QIODevice::ReadOnly));
        write("tensors.json", good.readAll());
        Run r = cli(
            {QStringLiteral("simulate"), path, QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object()[QLatin1String("functional_check")].toString(), QStringLiteral("pass"));

        write("tensors.json", "{\"input\": [[1, 2]], \"kernels\": []}");
        r = cli({QStringLiteral("simulate"), path, QStringLiteral("--strategy"), QStringLiteral("ZigZag")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("tensors.json"), r.err.constData());
        QVERIFY2(r.err.contains("input"), r.err.constData());
    }

    // Every figure in every format, headless, through the same catalogue as the GUI.
    void exportFigures_data()
    {
        QTest::addColumn<QString>("figure");
        QTest::addColumn<QString>("extension");
        for (const char *figure : {"grid", "input-grid", "output-grid", "memory", "memory-actions", "durations", "cumulative",
                 "compare", "sweep", "storyboard"})
            for (const char *extension : {"png", "svg", "pdf"})
                QTest::addRow("%s.%s", figure, extension) << QString::fromLatin1(figure) << QString::fromLatin1(extension);
    }
    void exportFigures()
    {
        QFETCH(QString, figure);
        QFETCH(QString, extension);
        const QString out = m_dir.filePath(figure + QLatin1Char('.') + extension);
        const Run r = cli({QStringLiteral("export"), sample("paper-example.json"), QStringLiteral("--figure"), figure,
            QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--versus"), QStringLiteral("Row-by-Row"),
            QStringLiteral("--step"), QStringLiteral("2"), QStringLiteral("--size"), QStringLiteral("800x600"),
            QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        if (extension == QLatin1String("png")) {
            const QImage image = QImage::fromData(data);
            QCOMPARE(image.size(), QSize(800, 600));
            QVERIFY2(distinctColours(image, 7) > 4, "the figure is blank");
        } else if (extension == QLatin1String("svg")) {
            QVERIFY(data.contains("<svg"));
            QVERIFY(data.contains("<path") || data.contains("<rect") || data.contains("<polyline"));
        } else {
            QVERIFY(data.startsWith("%PDF"));
            QVERIFY(data.contains("/Type /Page"));
        }
    }

    // --preset reaches the grid figures and the storyboard: the printed
    // size, and every text at the preset's 7.5 pt (10 px at 96 px an inch).
    void exportPresetGrids_data()
    {
        QTest::addColumn<QString>("figure");
        for (const char *figure : {"grid", "input-grid", "output-grid", "storyboard"})
            QTest::newRow(figure) << QString::fromLatin1(figure);
    }
    void exportPresetGrids()
    {
        QFETCH(QString, figure);
        const QString out = m_dir.filePath(figure + QStringLiteral("-column.svg"));
        const Run r = cli({QStringLiteral("export"), sample("lenet5-conv1.json"), QStringLiteral("--figure"), figure,
            QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--versus"), QStringLiteral("Row-by-Row"),
            QStringLiteral("--preset"), QStringLiteral("paper-column"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(file.readAll());
        QVERIFY(svg.contains(QStringLiteral("viewBox=\"0 0 321 246\""))); // 85 × 65 mm at 96 px an inch
        static const QRegularExpression size(QStringLiteral("<text [^>]*font-size=\"([0-9.]+)\""));
        int texts = 0;
        for (QRegularExpressionMatchIterator it = size.globalMatch(svg); it.hasNext(); ++texts)
            QCOMPARE(it.next().captured(1), QStringLiteral("10"));
        QVERIFY(texts >= 5);
    }

    void exportErrors_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown figure") << QStringList{QStringLiteral("--figure"), QStringLiteral("pie"),
            QStringLiteral("--strategy"), QStringLiteral("ZigZag")}
                                        << QStringLiteral("--figure: expected one of");
        QTest::newRow("no strategy") << QStringList{QStringLiteral("--figure"), QStringLiteral("grid")}
                                     << QStringLiteral("needs --strategy");
        QTest::newRow("step beyond") << QStringList{QStringLiteral("--figure"), QStringLiteral("grid"),
            QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--step"), QStringLiteral("99")}
                                     << QStringLiteral("step 99 is out of range");
        QTest::newRow("bad size") << QStringList{QStringLiteral("--figure"), QStringLiteral("compare"), QStringLiteral("--size"),
            QStringLiteral("big")} << QStringLiteral("--size");
        QTest::newRow("huge size") << QStringList{QStringLiteral("--figure"), QStringLiteral("compare"), QStringLiteral("--size"),
            QStringLiteral("900000x900000")}
                                   << QStringLiteral("too large");
        QTest::newRow("bad action") << QStringList{QStringLiteral("--figure"), QStringLiteral("grid"),
            QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--action"), QStringLiteral("a9")}
                                    << QStringLiteral("--action");
        QTest::newRow("unknown strategy") << QStringList{QStringLiteral("--figure"), QStringLiteral("memory"),
            QStringLiteral("--strategy"), QStringLiteral("Nope")}
                                          << QStringLiteral("no strategy named 'Nope'");
    }
    void exportErrors()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const QString out = m_dir.filePath(QStringLiteral("error.png"));
        const Run r
            = cli(QStringList{QStringLiteral("export"), sample("paper-example.json"), QStringLiteral("--out"), out} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    // The output is checked before the figure is computed: with the work
    // limit lifted, a days-long figure still fails at once on a bad --out.
    void exportChecksOutputFirst_data()
    {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("message");
        QTest::newRow("no folder") << QStringLiteral("/nonexistent-dir/figure.png") << QStringLiteral("does not exist");
        QTest::newRow("extension") << m_dir.filePath(QStringLiteral("figure.gif")) << QStringLiteral("unknown extension");
        QTest::newRow("a folder") << m_dir.path() + QStringLiteral("/.png") << QStringLiteral("");
    }
    void exportChecksOutputFirst()
    {
        QFETCH(QString, out);
        QFETCH(QString, message);
        if (out.endsWith(QLatin1String("/.png")))
            QVERIFY(QDir().mkpath(out)); // a folder named like a figure
        QElapsedTimer timer;
        timer.start();
        const Run r
            = cli({QStringLiteral("export"), QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/hostile/project-days-of-work.json"),
                QStringLiteral("--figure"), QStringLiteral("memory"), QStringLiteral("--strategy"), QStringLiteral("Row-by-Row"),
                QStringLiteral("--no-work-limit"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(timer.elapsed() < 20000);
    }

    // Ctrl+C during a simulation of a few seconds: stops with one message,
    // exit 1, nothing on stdout.
    void interruptStopsSimulation()
    {
        QProcess p;
        p.start(QStringLiteral(CONVOFFLOAD_CLI),
            {QStringLiteral("simulate"), QStringLiteral(CONVOFFLOAD_TEST_DATA "/project-seconds-of-work.json"),
                QStringLiteral("--strategy"), QStringLiteral("ZigZag")});
        QVERIFY(p.waitForStarted());
        // Sent before the CLI catches it, Ctrl+C kills it outright (a loaded
        // machine took over 200 ms to get there): wait until it does. The
        // simulation takes about 0.5 s (2048², 16 kernels).
        QElapsedTimer waited;
        waited.start();
        while (p.state() == QProcess::Running && !catchesInterrupt(p.processId()) && waited.elapsed() < 20000)
            QTest::qWait(5);
        // Once the process has ended, processId() is 0, and kill(0, …)
        // would interrupt this test's whole process group (ctest and every
        // test running beside it: a CI run lost tst_ilp that way).
        if (p.state() != QProcess::Running || p.processId() <= 0)
            QSKIP("the simulation ended before Ctrl+C could be sent (a fast machine)");
        QCOMPARE(::kill(pid_t(p.processId()), SIGINT), 0);
        QVERIFY(p.waitForFinished(20000));
        if (p.exitCode() == 0)
            QSKIP("the simulation ended before Ctrl+C reached it (a very fast machine)");
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(p.readAllStandardError().contains("cancelled (Ctrl+C)"), "no cancel message");
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }

    void exportToUnwritablePlace()
    {
        const Run r = cli({QStringLiteral("export"), sample("paper-example.json"), QStringLiteral("--figure"),
            QStringLiteral("compare"), QStringLiteral("--out"), QStringLiteral("/nonexistent-dir/figure.png")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent-dir/figure.png"), r.err.constData());
    }

    // Issue 43: root exporting to a link that another user planted in a
    // sticky folder anyone may write to (/tmp) replaced the file it pointed
    // to. The link is refused as the kernel's fs.protected_symlinks refuses
    // it (docs/user/bad-input.md, "Saves never damage a file").
    void exportThroughPlantedLinkIsRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: the planted link belongs to uid 65534 (nobody)");
        const QString sticky = m_dir.filePath(QStringLiteral("sticky")), safe = m_dir.filePath(QStringLiteral("safe"));
        QVERIFY(QDir().mkpath(sticky) && QDir().mkpath(safe));
        QCOMPARE(::chmod(QFile::encodeName(sticky).constData(), 01777), 0);
        const QString target = write("safe/conf", "root's secret\n");
        const QString link = sticky + QStringLiteral("/fig.svg");
        QCOMPARE(::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData()), 0);
        QCOMPARE(::lchown(QFile::encodeName(link).constData(), 65534, 65534), 0);

        const Run r = cli({QStringLiteral("export"), sample("paper-example.json"), QStringLiteral("--figure"),
            QStringLiteral("grid"), QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--out"), link});
        QCOMPARE(r.exitCode, 1);
        const QString expected = link + QStringLiteral(" is a symbolic link to ") + target
            + QStringLiteral(" owned by nobody (uid 65534), in ") + sticky;
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("fs.protected_symlinks"), r.err.constData());
        QFile file(target);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("root's secret\n"));
        QCOMPARE(
            QDir(safe).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{QStringLiteral("conf")});
        QCOMPARE(QDir(sticky).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
            QStringList{QStringLiteral("fig.svg")});
    }

    void badStrategyCsvNamesLine()
    {
        const QString csv = write("bad.csv", "patch,group\n0,0\n1,0\n42,1\n");
        const Run r = cli({QStringLiteral("simulate"), sample("paper-example.json"), QStringLiteral("--strategy-csv"), csv});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 4"), r.err.constData());
    }

    // Issue 44: a figure's work is estimated before it is drawn, the
    // simulations it needs counted (a sweep's every group size), and refused
    // over the budget with the estimate, exit 1, at once. Before, a 600-byte
    // project passed the command's check (three strategies) and the sweep
    // figure ran for about an hour.
    void figureWorkIsEstimated()
    {
        const QString project = write("tall-wide.json", tallProject(1, 62)); // 66 M patches
        QElapsedTimer timer;
        timer.start();
        const Run r = cli({QStringLiteral("export"), project, QStringLiteral("--figure"), QStringLiteral("sweep"),
            QStringLiteral("--out"), m_dir.filePath(QStringLiteral("tall-sweep.svg"))});
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        // nb_patches_max = 72: the sweep's default range is 1..2·72. (Qt
        // may warn first, as of XDG_RUNTIME_DIR: the last line is ours.)
        // Where the machine's memory is below what one simulation of the
        // layer may need (the estimate is an upper bound on the peak), the
        // layer's own check refuses it before the sweep's is reached.
        const bool sweep = err.contains(QStringLiteral("convoffload-cli: the group-size sweep's 288 simulations (Row-by-Row and "
                                                       "ZigZag at 1..144) would take about "));
        const bool layer
            = err.contains(QStringLiteral("convoffload-cli: the layer (1x1x1 input, 1 kernels 1x1): this simulation would "
                                          "take about "));
        QVERIFY2(sweep || layer, r.err.constData());
        QVERIFY2(err.contains(QStringLiteral("; make the layer smaller, or pass --no-work-limit to run it anyway")),
            r.err.constData());
        QVERIFY2(timer.elapsed() < 20000, "not refused at once");
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("tall-sweep.svg"))));
    }

    // A million steps are drawn as bins, not a million bars: the durations
    // figure of the tall layer is written in seconds and small.
    void millionStepFigureIsAggregated()
    {
        const QString project = write("tall.json", tallProject(1));
        const QString out = m_dir.filePath(QStringLiteral("tall-durations.svg"));
        const Run r = cli({QStringLiteral("export"), project, QStringLiteral("--figure"), QStringLiteral("durations"),
            QStringLiteral("--strategy"), QStringLiteral("S1-baseline"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile(out).size() < 2'000'000);
        QFile svg(out);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY2(svg.readAll().contains(" per bar: mean, line: longest"), "the step axis does not say the steps are binned");
    }

    // std::bad_alloc is one line saying what was being done and for which
    // file, exit 1, never a signal; here under ulimit -v 1 GB, the work limit
    // lifted, on a layer of 4 M patches and 126 M outputs (1x1 input padded
    // 2^20 high and 3 wide, 30 kernels), whose simulation needs more.
    void outOfMemoryIsAMessage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("doing");
        QTest::newRow("simulate") << QStringList{QStringLiteral("simulate"), QStringLiteral("--strategy"),
            QStringLiteral("S1-baseline")}
                                  << QStringLiteral("simulating strategy 'S1-baseline'");
        QTest::newRow("export") << QStringList{QStringLiteral("export"), QStringLiteral("--figure"), QStringLiteral("durations"),
            QStringLiteral("--strategy"), QStringLiteral("S1-baseline"), QStringLiteral("--out"),
            m_dir.filePath(QStringLiteral("oom.svg"))}
                                << QStringLiteral("simulating strategy 'S1-baseline'");
    }
    void outOfMemoryIsAMessage()
    {
#ifdef __SANITIZE_ADDRESS__
        QSKIP("AddressSanitizer needs terabytes of address space: RLIMIT_AS cannot be set in the sanitize build");
#endif
        QFETCH(QStringList, args);
        QFETCH(QString, doing);
        const QString project = write("tall-30-kernels.json", tallProject(30, 3));
        args.insert(1, project);
        args << QStringLiteral("--no-work-limit");
        const Run r = cliWithMemory(args, rlim_t(1) << 30);
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        const QString line = QStringLiteral("convoffload-cli: out of memory while %1 for %2 (this process may use 1.1 GB)\n")
                                 .arg(doing, project);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err == line || err.endsWith(QLatin1Char('\n') + line), r.err.constData()); // after any warning of Qt's
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
