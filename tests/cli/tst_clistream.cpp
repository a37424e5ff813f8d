// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-cli and the strategies that stream kernels (docs/reference/strategies.md#steps-strategies): compare
// adds the kernel-blocked family's best only when the kernels do not fit,
// optimize regroups it (a chosen loop and B, refusals),
// `sweep --kernel-blocks`, and import-solution of a step,patch,kernel CSV
// with its located refusals.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "TestCli.h"

namespace {

using Run = ProcessRun;

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }
const char *kResnet = "streaming/resnet18-layer3-conv.json";

QJsonObject json(const Run &r) { return QJsonDocument::fromJson(r.out).object(); }

void write(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestCliStream : public QObject {
    Q_OBJECT
private slots:
    // Kernels that fit: compare prints exactly what it printed before (auto
    // adds nothing; `never` is today's compare).
    void fittingSampleUnchanged()
    {
        const Run automatic = cli({QStringLiteral("compare"), sample("paper-example.json"), QStringLiteral("--json")});
        const Run never = cli({QStringLiteral("compare"), sample("paper-example.json"), QStringLiteral("--json"),
            QStringLiteral("--kernel-blocked"), QStringLiteral("never")});
        QCOMPARE(automatic.exitCode, 0);
        QCOMPARE(automatic.out, never.out);
        QVERIFY(!json(automatic).contains(QStringLiteral("kernel_blocked")));
        // Asked for: the family is searched and its best is no worse than
        // the project's S1 heuristics (B = N members are those heuristics).
        const Run always = cli({QStringLiteral("compare"), sample("paper-example.json"), QStringLiteral("--json"),
            QStringLiteral("--kernel-blocked"), QStringLiteral("always")});
        QCOMPARE(always.exitCode, 0);
        const QJsonArray rows = json(always)[QStringLiteral("strategies")].toArray();
        const double family = rows.last()[QStringLiteral("total_duration")].toDouble();
        QVERIFY(rows.last()[QStringLiteral("strategy")].toString().startsWith(QStringLiteral("best kernel-blocked (")));
        for (const auto &row : rows)
            if (row[QStringLiteral("kind")].toString() == QStringLiteral("row-by-row")
                || row[QStringLiteral("kind")].toString() == QStringLiteral("zigzag"))
                QVERIFY(family <= row[QStringLiteral("total_duration")].toDouble());
    }

    // A depthwise layer (c_in = n = g = 4, 6×6 padded to 8×8, 3×3) whose
    // kernels fit: compare's auto still searches the family, as walking the
    // groups one after another is a kernel-blocked strategy. The project's
    // B = 1 kernels-outer strategy with G = 36 (every patch in one step)
    // loads each of the 4·64 slices once: 256 elements.
    void groupedLayerSearchesTheFamily()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dw.json"));
        write(path,
            "{\"format\": \"convoffload-project\", \"version\": 1, \"layer\": {\"c_in\": 4, \"h_in\": 6, \"w_in\": 6, "
            "\"h_k\": 3, \"w_k\": 3, \"n\": 4, \"group\": 4, \"pad_top\": 1, \"pad_bottom\": 1, \"pad_left\": 1, "
            "\"pad_right\": 1}, \"hardware\": {\"mem_size\": 200, \"nbop_pe\": 324}, \"strategies\": [{\"name\": \"Z\", "
            "\"kind\": \"zigzag\"}, {\"name\": \"Per group\", \"kind\": \"kernel-blocked\", \"kernel_block\": 1, "
            "\"loop\": \"kernels-outer\"}]}");
        const Run r = cli({QStringLiteral("compare"), path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = json(r);
        QVERIFY(j.contains(QStringLiteral("kernel_blocked")));
        const QJsonArray rows = j[QStringLiteral("strategies")].toArray();
        QCOMPARE(rows[1][QStringLiteral("strategy")].toString(), QStringLiteral("Per group"));
        QCOMPARE(rows[1][QStringLiteral("loaded_input")].toInt(), 256);
        QCOMPARE(rows[1][QStringLiteral("valid")].toBool(), true);
    }

    void streamingSampleCompare()
    {
        const Run r
            = cli({QStringLiteral("compare"), sample(kResnet), QStringLiteral("--json"), QStringLiteral("--no-functional")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = json(r);
        const QJsonObject family = j[QStringLiteral("kernel_blocked")].toObject();
        QVERIFY(family[QStringLiteral("tried")].toInt() > 0);
        const QJsonObject best = family[QStringLiteral("best")].toObject();
        // B at most 27 kernels: (65536 - 2304) / 2305 (kernels, one patch and its outputs).
        QVERIFY(best[QStringLiteral("kernel_block")].toInt() <= 27);
        const QJsonArray rows = j[QStringLiteral("strategies")].toArray();
        QCOMPARE(j[QStringLiteral("best")].toString(), rows.last()[QStringLiteral("strategy")].toString());
        // The project's two strategies (B = 16, G = 1) are family members.
        for (int i = 0; i + 1 < rows.size(); ++i)
            QVERIFY(best[QStringLiteral("total_duration")].toDouble() <= rows[i][QStringLiteral("total_duration")].toDouble());
    }

    void optimizeStreams()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.json"));
        QVERIFY(QFile::copy(sample(kResnet), project));
        const Run r = cli({QStringLiteral("optimize"), project, QStringLiteral("--json"), QStringLiteral("--save"),
            QStringLiteral("Streamed"), QStringLiteral("--moves"), QStringLiteral("20000"), QStringLiteral("--threads"),
            QStringLiteral("1"), QStringLiteral("--time-limit"), QStringLiteral("120")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = json(r);
        QCOMPARE(j[QStringLiteral("method")].toString(), QStringLiteral("search")); // the best member, regrouped
        const QJsonObject kb = j[QStringLiteral("kernel_blocked")].toObject();
        const QJsonObject regrouped = j[QStringLiteral("regrouped")].toObject();
        QVERIFY(regrouped[QStringLiteral("start")].toString().contains(
            QStringLiteral("B = %1").arg(kb[QStringLiteral("kernel_block")].toInt())));
        QVERIFY(j[QStringLiteral("duration")].toDouble() <= regrouped[QStringLiteral("start_duration")].toDouble());
        const Run sim = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy"), QStringLiteral("Streamed"),
            QStringLiteral("--json")});
        QCOMPARE(sim.exitCode, 0);
        QCOMPARE(json(sim)[QStringLiteral("total_duration")].toDouble(), j[QStringLiteral("duration")].toDouble());
        QCOMPARE(json(sim)[QStringLiteral("steps")].toInt(), kb[QStringLiteral("steps")].toInt()); // K_min groups · blocks
        QCOMPARE(json(sim)[QStringLiteral("functional_check")].toString(), QStringLiteral("pass"));
    }

    // A chosen loop and B: the member regrouped is of that loop and B, the
    // same flags give the same strategy (seed, moves, one thread), and
    // --out writes it as step,patch,kernel rows.
    void optimizeChosenMember()
    {
        QTemporaryDir dir;
        const QStringList args{QStringLiteral("optimize"), sample(kResnet), QStringLiteral("--json"),
            QStringLiteral("--loop-order"), QStringLiteral("patches-outer"), QStringLiteral("--kernel-block"),
            QStringLiteral("16"), QStringLiteral("--moves"), QStringLiteral("5000"), QStringLiteral("--threads"),
            QStringLiteral("1"), QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--time-limit"),
            QStringLiteral("120")};
        const Run a = cli(args + QStringList{QStringLiteral("--out"), dir.filePath(QStringLiteral("a.csv"))});
        const Run b = cli(args + QStringList{QStringLiteral("--out"), dir.filePath(QStringLiteral("b.csv"))});
        QCOMPARE(a.exitCode, 0);
        const QJsonObject kb = json(a)[QStringLiteral("kernel_blocked")].toObject();
        QCOMPARE(kb[QStringLiteral("loop")].toString(), QStringLiteral("patches-outer"));
        QCOMPARE(kb[QStringLiteral("kernel_block")].toInt(), 16);
        QVERIFY(
            json(a)[QStringLiteral("regrouped")][QStringLiteral("start")].toString().startsWith(QStringLiteral("patches-outer")));
        QCOMPARE(json(a)[QStringLiteral("duration")], json(b)[QStringLiteral("duration")]);
        QFile fa(dir.filePath(QStringLiteral("a.csv"))), fb(dir.filePath(QStringLiteral("b.csv")));
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        const QByteArray csv = fa.readAll();
        QVERIFY(csv.startsWith("step,patch,kernel\n"));
        QCOMPARE(csv, fb.readAll());
    }

    void optimizeChoiceRefusals_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("loop") << sample(kResnet) << QStringList{QStringLiteral("--loop-order"), QStringLiteral("inner")}
                              << QStringLiteral("--loop-order: expected kernels-outer or patches-outer, got 'inner'");
        QTest::newRow("B = 0") << sample(kResnet) << QStringList{QStringLiteral("--kernel-block"), QStringLiteral("0")}
                               << QStringLiteral("--kernel-block: expected an integer from 1 to 256, got '0'");
        QTest::newRow("B > N") << sample(kResnet) << QStringList{QStringLiteral("--kernel-block"), QStringLiteral("257")}
                               << QStringLiteral("--kernel-block: expected an integer from 1 to 256, got '257'");
        QTest::newRow("B not a number") << sample(kResnet) << QStringList{QStringLiteral("--kernel-block"), QStringLiteral("4x")}
                                        << QStringLiteral("--kernel-block: expected an integer from 1 to 256, got '4x'");
        QTest::newRow("kernels fit") << sample("paper-example.json")
                                     << QStringList{QStringLiteral("--loop-order"), QStringLiteral("kernels-outer")}
                                     << QStringLiteral("--loop-order: this layer's kernels fit on chip");
        // B = 256 with G = 1: the kernels alone overflow the memory.
        QTest::newRow("no member") << sample(kResnet)
                                   << QStringList{QStringLiteral("--kernel-block"), QStringLiteral("256"),
                                          QStringLiteral("--group-size"), QStringLiteral("1")}
                                   << QStringLiteral("none of the 4 kernel-blocked strategies with B = 256, G = 1 tried");
    }
    void optimizeChoiceRefusals()
    {
        QFETCH(QString, project);
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(QStringList{QStringLiteral("optimize"), project} + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    void sweepKernelBlocks()
    {
        const Run r = cli({QStringLiteral("sweep"), sample(kResnet), QStringLiteral("--kernel-blocks"), QStringLiteral("14..17"),
            QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = json(r)[QStringLiteral("kernel_blocks")].toArray();
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[2][QStringLiteral("kernel_block")].toInt(), 16);
        // The best of B = 16 is no worse than the project's B = 16, G = 1 members.
        const Run project = cli({QStringLiteral("compare"), sample(kResnet), QStringLiteral("--json"),
            QStringLiteral("--kernel-blocked"), QStringLiteral("never"), QStringLiteral("--no-functional")});
        const QJsonArray strategies = json(project)[QStringLiteral("strategies")].toArray();
        QVERIFY(rows[2][QStringLiteral("kernels_outer")][QStringLiteral("total_duration")].toDouble()
            <= strategies[0][QStringLiteral("total_duration")].toDouble());
        QVERIFY(rows[2][QStringLiteral("patches_outer")][QStringLiteral("total_duration")].toDouble()
            <= strategies[1][QStringLiteral("total_duration")].toDouble());
    }

    void sweepRefusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("B = 0") << QStringList{QStringLiteral("--kernel-blocks"), QStringLiteral("0..4")}
                               << QStringLiteral("--kernel-blocks: expected 1 <= A <= B");
        QTest::newRow("B > N") << QStringList{QStringLiteral("--kernel-blocks"), QStringLiteral("1..300")}
                               << QStringLiteral("exceeds the layer's kernels (n = 256)");
        QTest::newRow("order") << QStringList{QStringLiteral("--kernel-blocks"), QStringLiteral("1..2"),
            QStringLiteral("--order"), QStringLiteral("spiral")}
                               << QStringLiteral("--order: expected row-by-row or zigzag");
        QTest::newRow("mode") << QStringList{} << QString();
    }
    void sweepRefusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        if (args.isEmpty()) {
            const Run r = cli(
                {QStringLiteral("compare"), sample(kResnet), QStringLiteral("--kernel-blocked"), QStringLiteral("sometimes")});
            QCOMPARE(r.exitCode, 1);
            QVERIFY(r.err.contains("--kernel-blocked: expected auto, always or never"));
            return;
        }
        const Run r = cli(QStringList{QStringLiteral("sweep"), sample(kResnet)} + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    void importSteps()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.json"));
        QVERIFY(QFile::copy(QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/kernelstream-two-blocks.json"), project));
        QFile::setPermissions(project, QFile::ReadOwner | QFile::WriteOwner);
        const Run r = cli({QStringLiteral("import-solution"), project, QStringLiteral("--solution"),
            QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/kernelstream-two-blocks.csv"), QStringLiteral("--save"),
            QStringLiteral("Imported")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("4 steps") && r.out.contains("functional check pass"), r.out.constData());
        // Saved as kind steps: it simulates like the project's own "Two blocks".
        const Run a = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy"), QStringLiteral("Imported"),
            QStringLiteral("--json")});
        const Run b = cli({QStringLiteral("simulate"), project, QStringLiteral("--strategy"), QStringLiteral("Two blocks"),
            QStringLiteral("--json")});
        QCOMPARE(json(a)[QStringLiteral("total_duration")], json(b)[QStringLiteral("total_duration")]);
        QCOMPARE(json(a)[QStringLiteral("valid")].toBool(), true);

        // A headerless file needs --kernel-steps (row,col,group has 3 columns too).
        const QString headerless = dir.filePath(QStringLiteral("plain.csv"));
        write(headerless, "0,0,0\n0,1,0\n0,2,0\n0,3,0\n1,0,1\n1,1,1\n1,2,1\n1,3,1\n");
        const Run plain = cli({QStringLiteral("import-solution"), project, QStringLiteral("--solution"), headerless,
            QStringLiteral("--kernel-steps")});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(plain.out.contains("2 steps")); // 4 patches x 1 kernel = 16 MACs > nbop_pe 8: a finding, not a refusal
        QVERIFY(plain.out.contains("more than nbop_pe 8"));
    }

    void importStepsRefusals_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("kernel out of range")
            << QByteArray("step,patch,kernel\n0,0,0\n0,1,0\n1,2,7\n") << 1 << QStringLiteral("line 4: kernel 7 is out of range");
        QTest::newRow("patch out of range") << QByteArray("step,patch,kernel\n0,9,0\n") << 1 << QStringLiteral("line 2");
        QTest::newRow("not a product") << QByteArray("step,patch,kernel\n0,0,0\n0,1,1\n") << 1 << QStringLiteral("line 2");
        QTest::newRow("computed twice") << QByteArray("step,patch,kernel\n0,0,0\n0,1,0\n1,0,0\n1,1,0\n") << 0
                                        << QStringLiteral(
                                               "step 2, a6 compute, output O[0](0,0): computed again (first computed at step 1)");
        QTest::newRow("never computed") << QByteArray("step,patch,kernel\n0,0,0\n") << 0
                                        << QStringLiteral("output O[1](0,0): never computed");
        QTest::newRow("no rows") << QByteArray("step,patch,kernel\n") << 1 << QStringLiteral("no data after the header");
    }
    void importStepsRefusals()
    {
        QFETCH(QByteArray, csv);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plan.csv"));
        write(file, csv);
        const Run r = cli({QStringLiteral("import-solution"),
            QStringLiteral(CONVOFFLOAD_SHARED_TEST_DATA "/kernelstream-two-blocks.json"), QStringLiteral("--solution"), file});
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2((exitCode ? r.err : r.out).contains(message.toUtf8()), (r.out + r.err).constData());
    }
};

QTEST_GUILESS_MAIN(TestCliStream)
#include "tst_clistream.moc"
