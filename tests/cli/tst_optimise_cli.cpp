// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The optimiser commands of convoffload-cli run as a program: optimize (its
// methods, --prove, --save and every refused flag), model and
// import-solution (through Debian's cbc), and experiments (its table,
// figures and the line of the instance under way on a terminal).

#include "TestCli.h"
#include "TestImages.h"
#include "TestOptimisers.h"

#include "convoffload/io/ProjectFile.h"
#include "optimise/GainHeatMap.h"

#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPainter>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace convoffload;

namespace {

using Run = ProcessRun;

QString copyTo(const QTemporaryDir &dir, const QString &from, const char *name)
{
    const QString to = dir.filePath(QLatin1String(name));
    QFile::remove(to);
    if (!QFile::copy(from, to))
        qFatal("cannot copy %s", qPrintable(from));
    QFile(to).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return to;
}

} // namespace

class TestOptimiseCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    // The CLI's optimised CSV, simulated by the CLI itself, gives the duration
    // the optimiser printed; --save adds a strategy that compare lists valid.
    void cliOptimizeRoundTrip()
    {
        const QString project = copyTo(m_dir, sample("paper-example.json"), "example.json");
        const QString csv = m_dir.filePath(QStringLiteral("optimised.csv"));
        const Run r = cli({QStringLiteral("optimize"), project, QStringLiteral("--time-limit"), QStringLiteral("1"),
            QStringLiteral("--json"), QStringLiteral("--out"), csv, QStringLiteral("--save"), QStringLiteral("Best")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const double duration = j[QLatin1String("duration")].toDouble();
        QVERIFY(duration > 0 && duration <= 117);
        QVERIFY(j[QLatin1String("lower_bound")].toDouble() <= duration);

        const Run sim
            = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy-csv"), csv, QStringLiteral("--json")});
        QCOMPARE(sim.exitCode, 0);
        const QJsonObject s = QJsonDocument::fromJson(sim.out).object();
        QCOMPARE(s[QLatin1String("total_duration")].toDouble(), duration);
        QCOMPARE(s[QLatin1String("valid")].toBool(), true);

        const Project saved = loadProject(project.toStdString());
        const StrategySpec *best = saved.findStrategy("Best");
        QVERIFY(best);
        QCOMPARE(simulated(saved.problem, best->groups), duration);

        // A second --save under the same name is refused and changes nothing.
        const Run again = cli({QStringLiteral("optimize"), project, QStringLiteral("--save"), QStringLiteral("Best")});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.err.contains("already has a strategy named 'Best'"));
        QCOMPARE(loadProject(project.toStdString()), saved);
    }

    // --moves with --threads 1 is reproducible through the CLI; with two
    // threads the strategy is valid too.
    void cliMovesAndThreads()
    {
        const QString project = copyTo(m_dir, sample("paper-example.json"), "moves.json");
        QList<QByteArray> csvs;
        for (const char *threads : {"1", "1", "2"}) {
            const QString csv = m_dir.filePath(QStringLiteral("moves-%1.csv").arg(csvs.size()));
            const Run r = cli({QStringLiteral("optimize"), project, QStringLiteral("--moves"), QStringLiteral("20000"),
                QStringLiteral("--threads"), QString::fromLatin1(threads), QStringLiteral("--json"), QStringLiteral("--out"),
                csv});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonObject j = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(j[QLatin1String("timed_out")].toBool(), false);
            QFile f(csv);
            QVERIFY(f.open(QIODevice::ReadOnly));
            csvs.push_back(f.readAll());
            const Run sim
                = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy-csv"), csv, QStringLiteral("--json")});
            QCOMPARE(sim.exitCode, 0);
            const QJsonObject s = QJsonDocument::fromJson(sim.out).object();
            QCOMPARE(s[QLatin1String("valid")].toBool(), true);
            QCOMPARE(s[QLatin1String("total_duration")].toDouble(), j[QLatin1String("duration")].toDouble());
        }
        QCOMPARE(csvs[0], csvs[1]);
    }

    // --prove adds the proof to the report (text and JSON); without it the
    // report has none and the strategy is the same (the search is unchanged).
    void cliProve()
    {
        const QString project = sample("paper-example.json");
        const QStringList common{QStringLiteral("optimize"), project, QStringLiteral("--moves"), QStringLiteral("20000"),
            QStringLiteral("--threads"), QStringLiteral("1")};
        const Run plain = cli(common + QStringList{QStringLiteral("--json")});
        QVERIFY2(plain.exitCode == 0, plain.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(plain.out).object();
        QVERIFY(p[QLatin1String("proof")].isNull());
        const Run proved = cli(common + QStringList{QStringLiteral("--prove"), QStringLiteral("--json")});
        QVERIFY2(proved.exitCode == 0, proved.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(proved.out).object();
        QCOMPARE(j[QLatin1String("duration")].toDouble(), p[QLatin1String("duration")].toDouble());
        const QJsonObject proof = j[QLatin1String("proof")].toObject();
        const QString status = proof[QLatin1String("status")].toString();
        QVERIFY2(status == QLatin1String("proven") || status == QLatin1String("bounded") || status == QLatin1String("not tried"),
            qPrintable(status));
        // Proven, or already optimal: the status says optimal; bounded: the bound is below the duration.
        if (status == QLatin1String("bounded"))
            QVERIFY(proof[QLatin1String("bound")].toDouble() < j[QLatin1String("duration")].toDouble());
        else
            QCOMPARE(j[QLatin1String("status")].toString(), QStringLiteral("optimal"));
        const Run text = cli(common + QStringList{QStringLiteral("--prove")});
        QVERIFY2(text.out.contains("Proof:           "), text.out.constData());
    }

    // --method exact on the paper's Example (9 patches): proven optimal,
    // never above the search's strategy, with its proof in the JSON and a
    // strategy the simulator accepts at the duration claimed.
    void cliExact()
    {
        const QString project = sample("paper-example.json");
        const Run search = cli({QStringLiteral("optimize"), project, QStringLiteral("--moves"), QStringLiteral("20000"),
            QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(search.exitCode == 0, search.err.constData());
        const QString csv = m_dir.filePath(QStringLiteral("exact.csv"));
        const Run exact = cli({QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("exact"),
            QStringLiteral("--time-limit"), QStringLiteral("60"), QStringLiteral("--out"), csv, QStringLiteral("--json")});
        QVERIFY2(exact.exitCode == 0, exact.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(exact.out).object();
        QCOMPARE(j[QLatin1String("method")].toString(), QStringLiteral("exact"));
        QCOMPARE(j[QLatin1String("status")].toString(), QStringLiteral("optimal"));
        QCOMPARE(j[QLatin1String("lower_bound")].toDouble(), j[QLatin1String("duration")].toDouble());
        QVERIFY(j[QLatin1String("duration")].toDouble()
            <= QJsonDocument::fromJson(search.out).object()[QLatin1String("duration")].toDouble());
        QVERIFY(j[QLatin1String("proof")].isObject());
        const Run sim
            = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy-csv"), csv, QStringLiteral("--json")});
        QCOMPARE(sim.exitCode, 0);
        const QJsonObject s = QJsonDocument::fromJson(sim.out).object();
        QCOMPARE(s[QLatin1String("valid")].toBool(), true);
        QCOMPARE(s[QLatin1String("total_duration")].toDouble(), j[QLatin1String("duration")].toDouble());
    }

    void cliOptimizeErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("method") << QStringList{QStringLiteral("--method"), QStringLiteral("cplex")}
                                << QStringLiteral("--method: expected search, ilp or exact, got 'cplex'");
        QTest::newRow("time") << QStringList{QStringLiteral("--time-limit"), QStringLiteral("-3")}
                              << QStringLiteral(
                                     "--time-limit: expected a number of seconds above 0 and at most 604800 (a week), got '-3'");
        QTest::newRow("seed") << QStringList{QStringLiteral("--seed"), QStringLiteral("x")}
                              << QStringLiteral("--seed: expected an integer");
        QTest::newRow("groups") << QStringList{QStringLiteral("--groups"), QStringLiteral("some")}
                                << QStringLiteral("--groups: expected kmin");
        QTest::newRow("cap without any") << QStringList{QStringLiteral("--max-groups"), QStringLiteral("7")}
                                         << QStringLiteral("--max-groups needs --groups any");
        QTest::newRow("G too big") << QStringList{QStringLiteral("--group-size"), QStringLiteral("3")}
                                   << QStringLiteral("group size 3 exceeds nb_patches_max = 2");
    }
    void cliOptimizeErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(QStringList{QStringLiteral("optimize"), sample("paper-example.json")} + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    // Every flag of the optimiser commands, broken: one message naming it,
    // exit 1, and a project file that --save would have changed stays as it was
    // (output paths are checked before the run, so no result is thrown away).
    void cliOptimiserCommandsRefuseBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString project = QStringLiteral("PROJECT");
        auto row = [&](const char *name, QStringList args, const char *message) {
            QTest::newRow(name) << args << QString::fromUtf8(message);
        };
        row("ilp start", {QStringLiteral("optimize"), project, QStringLiteral("--ilp-start"), QStringLiteral("maybe")},
            "--ilp-start: expected heuristic or search, got 'maybe'");
        row("moves", {QStringLiteral("optimize"), project, QStringLiteral("--max-moves"), QStringLiteral("0")},
            "--max-moves: expected an integer from 1");
        row("negative moves", {QStringLiteral("optimize"), project, QStringLiteral("--moves"), QStringLiteral("-5")},
            "--moves: expected an integer from 1 to 1000000000000, got '-5'");
        row("absurd moves", {QStringLiteral("optimize"), project, QStringLiteral("--moves"), QStringLiteral("10000000000000")},
            "--moves: expected an integer from 1 to 1000000000000, got '10000000000000'");
        row("moves not a number", {QStringLiteral("optimize"), project, QStringLiteral("--moves"), QStringLiteral("1e6")},
            "--moves: expected an integer from 1");
        row("no threads", {QStringLiteral("optimize"), project, QStringLiteral("--threads"), QStringLiteral("0")},
            "--threads: expected an integer from 1 to 256, got '0'");
        row("negative threads", {QStringLiteral("optimize"), project, QStringLiteral("--threads"), QStringLiteral("-2")},
            "--threads: expected an integer from 1 to 256, got '-2'");
        row("absurd threads", {QStringLiteral("optimize"), project, QStringLiteral("--threads"), QStringLiteral("100000")},
            "--threads: expected an integer from 1 to 256, got '100000'");
        row("negative time", {QStringLiteral("optimize"), project, QStringLiteral("--time-limit"), QStringLiteral("-1")},
            "--time-limit: expected a number of seconds above 0 and at most 604800 (a week), got '-1'");
        row("NaN time", {QStringLiteral("optimize"), project, QStringLiteral("--time-limit"), QStringLiteral("nan")},
            "--time-limit: expected a number of seconds above 0 and at most 604800 (a week), got 'nan'");
        row("infinite time", {QStringLiteral("optimize"), project, QStringLiteral("--time-limit"), QStringLiteral("inf")},
            "--time-limit: expected a number of seconds above 0 and at most 604800 (a week), got 'inf'");
        row("over a week", {QStringLiteral("optimize"), project, QStringLiteral("--time-limit"), QStringLiteral("604801")},
            "--time-limit: expected a number of seconds above 0 and at most 604800 (a week), got '604801'");
        row("prove states",
            {QStringLiteral("optimize"), project, QStringLiteral("--prove"), QStringLiteral("--prove-states"),
                QStringLiteral("0")},
            "--prove-states: expected an integer from 1 to 100000000, got '0'");
        row("prove time",
            {QStringLiteral("optimize"), project, QStringLiteral("--prove"), QStringLiteral("--prove-time-limit"),
                QStringLiteral("-2")},
            "--prove-time-limit: expected a number of seconds above 0 and at most 604800 (a week), got '-2'");
        row("prove states alone", {QStringLiteral("optimize"), project, QStringLiteral("--prove-states"), QStringLiteral("100")},
            "--prove-states needs --prove or --method exact");
        row("exact with prove",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("exact"), QStringLiteral("--prove")},
            "--prove: --method exact proves by itself");
        row("exact with prove time",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("exact"),
                QStringLiteral("--prove-time-limit"), QStringLiteral("5")},
            "--prove-time-limit needs --prove (--method exact spends --time-limit on the search and the proof)");
        row("exact states",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("exact"),
                QStringLiteral("--prove-states"), QStringLiteral("-1")},
            "--prove-states: expected an integer from 1 to 100000000, got '-1'");
        row("exact time",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("exact"),
                QStringLiteral("--time-limit"), QStringLiteral("0")},
            "--time-limit: expected a number of seconds above 0 and at most 604800 (a week), got '0'");
        row("exact threads",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("exact"),
                QStringLiteral("--threads"), QStringLiteral("0")},
            "--threads: expected an integer from 1 to 256, got '0'");
        row("prove with ilp",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("ilp"), QStringLiteral("--prove")},
            "--prove needs --method search");
        row("experiments moves", {QStringLiteral("experiments"), QStringLiteral("--moves"), QStringLiteral("0")},
            "--moves: expected an integer from 1");
        row("csv folder",
            {QStringLiteral("optimize"), project, QStringLiteral("--out"), QStringLiteral("/nonexistent/d/x.csv"),
                QStringLiteral("--save"), QStringLiteral("Lost")},
            "--out: the folder of '/nonexistent/d/x.csv' does not exist");
        // It writes a strategy CSV: a .json name once got CSV text in it.
        row("csv format",
            {QStringLiteral("optimize"), project, QStringLiteral("--out"), QStringLiteral("/tmp/best.json"),
                QStringLiteral("--save"), QStringLiteral("Lost")},
            "--out: '/tmp/best.json' should end in .csv");
        row("empty save", {QStringLiteral("optimize"), project, QStringLiteral("--save"), QString()},
            "--save: the strategy needs a name");
        row("missing worker",
            {QStringLiteral("optimize"), project, QStringLiteral("--method"), QStringLiteral("ilp"),
                QStringLiteral("--cbc-worker"), QStringLiteral("/nonexistent/worker"), QStringLiteral("--save"),
                QStringLiteral("Lost")},
            "failed: cannot start the CBC worker '/nonexistent/worker'");
        row("model without out", {QStringLiteral("model"), project}, "model needs --out FILE.lp or FILE.mps");
        row("model format", {QStringLiteral("model"), project, QStringLiteral("--out"), QStringLiteral("m.txt")},
            "model: expected --format lp or mps");
        row("no solution file", {QStringLiteral("import-solution"), project}, "import-solution needs --solution FILE");
        row("missing solution",
            {QStringLiteral("import-solution"), project, QStringLiteral("--solution"), QStringLiteral("/nonexistent.sol"),
                QStringLiteral("--save"), QStringLiteral("Lost")},
            "/nonexistent.sol:");
        row("sizes below kernel", {QStringLiteral("experiments"), QStringLiteral("--sizes"), QStringLiteral("2..4")},
            "--sizes: inputs smaller than the 3x3 kernel have no output");
        row("sizes too big", {QStringLiteral("experiments"), QStringLiteral("--sizes"), QStringLiteral("4..99")},
            "--sizes: B = 99 exceeds the largest input of the experiments (64)");
        row("group sizes", {QStringLiteral("experiments"), QStringLiteral("--group-sizes"), QStringLiteral("x")},
            "--group-sizes: expected A..B");
        row("figure format", {QStringLiteral("experiments"), QStringLiteral("--out"), QStringLiteral("/tmp/gain.bmp")},
            "--out: '/tmp/gain.bmp' should end in .png, .svg, .pdf");
        row("proven figure format",
            {QStringLiteral("experiments"), QStringLiteral("--proven-out"), QStringLiteral("/tmp/proven.txt")},
            "--proven-out: '/tmp/proven.txt' should end in .png, .svg, .pdf");
        row("proven figure folder",
            {QStringLiteral("experiments"), QStringLiteral("--proven-out"), QStringLiteral("/nonexistent/p.svg")},
            "--proven-out: the folder of '/nonexistent/p.svg' does not exist");
        row("figure folder",
            {QStringLiteral("experiments"), QStringLiteral("--durations-out"), QStringLiteral("/nonexistent/d.png")},
            "--durations-out: the folder of '/nonexistent/d.png' does not exist");
        row("durations G",
            {QStringLiteral("experiments"), QStringLiteral("--group-sizes"), QStringLiteral("2..3"),
                QStringLiteral("--durations-out"), QStringLiteral("/tmp/d.png"), QStringLiteral("--group-size"),
                QStringLiteral("7")},
            "--group-size 7 is outside the experiments' group sizes (2..3)");
        row("ilp limit", {QStringLiteral("experiments"), QStringLiteral("--ilp-time-limit"), QStringLiteral("0")},
            "--ilp-time-limit: expected a number of seconds above 0 and at most 604800 (a week), got '0'");
    }
    void cliOptimiserCommandsRefuseBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString project = copyTo(m_dir, sample("paper-example.json"), "bad-input.json");
        const QByteArray before = [&] {
            QFile f(project);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        args.replaceInStrings(QStringLiteral("PROJECT"), project);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QFile after(project);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
    }

    // The exported model is accepted by Debian's cbc, whose solution file
    // imports back into a strategy of the duration cbc reports.
    void cliModelSolvedByCbcImportsBack_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::newRow("lp") << QStringLiteral("lp");
        QTest::newRow("mps") << QStringLiteral("mps");
    }
    void cliModelSolvedByCbcImportsBack()
    {
        QFETCH(QString, extension);
        const QString cbc = QStringLiteral("/usr/bin/cbc");
        if (!QFile::exists(cbc))
            QSKIP("Debian's coinor-cbc is not installed (./build.sh installs it)");
        const QString project = copyTo(m_dir, sample("paper-example.json"), "cbc-example.json");
        const QString model = m_dir.filePath(QStringLiteral("example.") + extension);
        const Run m = cli({QStringLiteral("model"), project, QStringLiteral("--out"), model});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        const QString solution = m_dir.filePath(QStringLiteral("example-") + extension + QStringLiteral(".sol"));
        const Run solved = runProgram(
            cbc, {model, QStringLiteral("sec"), QStringLiteral("60"), QStringLiteral("solve"), QStringLiteral("solu"), solution});
        QVERIFY2(solved.exitCode == 0, solved.out.constData());
        QFile file(solution);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString firstLine = QString::fromUtf8(file.readLine());
        QVERIFY2(firstLine.startsWith(QLatin1String("Optimal")), qPrintable(firstLine));
        const double objective = firstLine.section(QStringLiteral("objective value"), 1).trimmed().toDouble();

        const Run imported = cli({QStringLiteral("import-solution"), project, QStringLiteral("--solution"), solution,
            QStringLiteral("--save"), QStringLiteral("From CBC")});
        QVERIFY2(imported.exitCode == 0, imported.err.constData());
        const Project saved = loadProject(project.toStdString());
        const StrategySpec *fromCbc = saved.findStrategy("From CBC");
        QVERIFY(fromCbc);
        bool valid = false;
        QCOMPARE(simulated(saved.problem, fromCbc->groups, &valid), objective);
        QVERIFY(valid);
    }

    void cliImportSolutionErrorNamesTheLine()
    {
        const QString bad = m_dir.filePath(QStringLiteral("bad.sol"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Optimal - objective value 110.00000000\n      0 x_p0_g0  1  0\n      1 x_p1_g0  banana  0\n");
        file.close();
        const Run r = cli({QStringLiteral("import-solution"), sample("paper-example.json"), QStringLiteral("--solution"), bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 3"), r.err.constData());
    }

    // On a terminal, `experiments` says which instance runs and how it
    // stands (an exact run can spend its whole time limit on one instance),
    // then each instance's result as it ends; piped, stderr stays free of
    // it. script(1) (util-linux, in every Debian) gives the CLI a terminal.
    void cliExperimentsShowTheInstanceUnderWay()
    {
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty())
            QSKIP("no script(1) to give the CLI a terminal");
        const QString args = QStringLiteral(" experiments --sizes 6..6 --group-sizes 2..3 --method exact --time-limit 20 --csv");
        const Run tty = runProgram(script,
            {QStringLiteral("-qec"), QLatin1Char('\'') + QStringLiteral(CONVOFFLOAD_CLI) + QLatin1Char('\'') + args,
                QStringLiteral("/dev/null")});
        QVERIFY2(tty.exitCode == 0, tty.out.constData());
        const QString text = QString::fromUtf8(tty.out);
        // The table's durations, to match the lines against.
        const QRegularExpression csvRow(QStringLiteral("^6,([23]),(?:[^,]*,){6}(\\d+),"), QRegularExpression::MultilineOption);
        QMap<QString, QString> best;
        for (auto it = csvRow.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            best[m.captured(1)] = m.captured(2);
        }
        QCOMPARE(best.size(), 2);
        const QString erase = QStringLiteral("\x1b[K");
        auto at = [&](const QString &pattern) {
            return text.indexOf(QRegularExpression(QStringLiteral("\r") + pattern + QRegularExpression::escape(erase)));
        };
        const qsizetype running2
            = at(QStringLiteral("0/2 instances done; H=W=6, G=2 running: best \\d+, bound \\d+ \\(\\d+\\.\\d s\\)"));
        const qsizetype done2
            = at(QStringLiteral("1/2 instances done; H=W=6, G=2: ") + best[QStringLiteral("2")] + QStringLiteral(", optimal"));
        const qsizetype running3
            = at(QStringLiteral("1/2 instances done; H=W=6, G=3 running: best \\d+, bound \\d+ \\(\\d+\\.\\d s\\)"));
        const qsizetype done3
            = at(QStringLiteral("2/2 instances done; H=W=6, G=3: ") + best[QStringLiteral("3")] + QStringLiteral(", optimal"));
        QVERIFY2(running2 >= 0 && done2 > running2 && running3 > done2 && done3 > running3, qPrintable(text));

        const Run piped = cli(QStringList{QStringLiteral("experiments"), QStringLiteral("--sizes"), QStringLiteral("6..6"),
            QStringLiteral("--group-sizes"), QStringLiteral("2..2"), QStringLiteral("--method"), QStringLiteral("exact"),
            QStringLiteral("--csv")});
        QCOMPARE(piped.exitCode, 0);
        QVERIFY2(!piped.err.contains("instances"), piped.err.constData());
    }

    void cliExperimentsTableAndFigure()
    {
        const QString figure = m_dir.filePath(QStringLiteral("gain.svg"));
        const QString provenFigure = m_dir.filePath(QStringLiteral("proven.png"));
        const Run r = cli({QStringLiteral("experiments"), QStringLiteral("--sizes"), QStringLiteral("4..5"),
            QStringLiteral("--group-sizes"), QStringLiteral("2..3"), QStringLiteral("--time-limit"), QStringLiteral("2"),
            QStringLiteral("--csv"), QStringLiteral("--out"), figure, QStringLiteral("--proven-out"), provenFigure});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[1].startsWith(QLatin1String("4,2,4,2,")));
        // The SVG renders back into a drawing, not an empty page.
        QSvgRenderer svg(figure);
        QVERIFY(svg.isValid());
        QImage rendered(900, 640, QImage::Format_RGB32);
        rendered.fill(Qt::white);
        QPainter painter(&rendered);
        svg.render(&painter);
        painter.end();
        QVERIFY(distinctColours(rendered) > 10);
        if (!qEnvironmentVariableIsEmpty("CONVOFFLOAD_SHOTS"))
            rendered.save(qEnvironmentVariable("CONVOFFLOAD_SHOTS") + QStringLiteral("/gain-from-svg.png"));
        // The proven map: every instance of 4×4 and 5×5 meets its bound, so
        // no cell has the colour of a gap (only the scale does, in one band).
        const QImage proven(provenFigure);
        QVERIFY(!proven.isNull());
        QVERIFY(distinctColours(proven) > 10);
        QVERIFY(countColour(proven, ui::provenColour()) > proven.width() * proven.height() / 4);
        QVERIFY(countColour(proven, ui::gapColour(1, 1)) < proven.width() * proven.height() / 100);

        const Run project = cli({QStringLiteral("experiments"), sample("paper-example.json")});
        QCOMPARE(project.exitCode, 1);
        QVERIFY(project.err.contains("experiments takes no project file"));
    }
};

QTEST_MAIN(TestOptimiseCli)
#include "tst_optimise_cli.moc"
