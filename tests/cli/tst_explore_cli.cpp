// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// `explore` and `merge` run as programs (docs/reference/explore.md): any
// sharding merges to the unsharded run byte for byte, every point holds what
// `network` says on that hardware, bad input writes nothing, and Ctrl+C
// leaves a file of whole lines.
#include "TestCli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

const QString kLenet = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
const QStringList kLists{
    QStringLiteral("--mem-size"), QStringLiteral("1k..8k*2"), QStringLiteral("--nbop-pe"), QStringLiteral("256,1024")};

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<QJsonObject> linesOf(const QByteArray &text)
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : text.split('\n'))
        if (!line.isEmpty())
            lines << QJsonDocument::fromJson(line).object();
    return lines;
}

} // namespace

class TestExploreCli : public QObject {
    Q_OBJECT
private slots:
    void shardsMergeToTheUnshardedRun_data()
    {
        QTest::addColumn<int>("shards");
        for (int n = 1; n <= 7; ++n)
            QTest::addRow("%d shards", n) << n;
    }
    void shardsMergeToTheUnshardedRun()
    {
        QFETCH(int, shards);
        QTemporaryDir dir;
        const QString all = dir.filePath(QStringLiteral("all.jsonl"));
        const ProcessRun whole
            = cli(QStringList{QStringLiteral("explore"), kLenet} + kLists + QStringList{QStringLiteral("--out"), all});
        QVERIFY2(whole.exitCode == 0, whole.err.constData());
        QCOMPARE(linesOf(readAll(all)).size(), 8);
        // The shards' files in reverse order: merge sorts by point.
        QStringList mergeArgs{QStringLiteral("merge")};
        for (int i = shards - 1; i >= 0; --i) {
            const QString out = dir.filePath(QStringLiteral("s%1.jsonl").arg(i));
            const ProcessRun shard = cli(QStringList{QStringLiteral("explore"), kLenet} + kLists
                + QStringList{
                    QStringLiteral("--shard"), QStringLiteral("%1/%2").arg(i).arg(shards), QStringLiteral("--out"), out});
            QVERIFY2(shard.exitCode == 0, shard.err.constData());
            mergeArgs << out;
        }
        const QString merged = dir.filePath(QStringLiteral("merged.jsonl"));
        const ProcessRun merge = cli(mergeArgs + QStringList{QStringLiteral("--out"), merged});
        QVERIFY2(merge.exitCode == 0, merge.err.constData());
        QCOMPARE(readAll(merged), readAll(all));
    }

    /// Each point's layers and total are `network --json` on a copy of the
    /// network with that point's hardware, written by hand here.
    void pointsEqualNetworkOnTheirHardware()
    {
        QTemporaryDir dir;
        const QString all = dir.filePath(QStringLiteral("all.jsonl"));
        QCOMPARE(
            cli(QStringList{QStringLiteral("explore"), kLenet} + kLists + QStringList{QStringLiteral("--out"), all}).exitCode, 0);
        const QList<QJsonObject> lines = linesOf(readAll(all));
        QCOMPARE(lines.size(), 8);
        const QJsonObject network = QJsonDocument::fromJson(readAll(kLenet)).object();
        int k = 0;
        for (const int mem : {1024, 2048, 4096, 8192})
            for (const int nbop : {256, 1024}) {
                const QJsonObject &line = lines[k];
                QCOMPARE(line[QLatin1String("point")].toInt(), k);
                QCOMPARE(line[QLatin1String("points")].toInt(), 8);
                QJsonObject copy = network;
                QJsonObject hardware = copy[QLatin1String("hardware")].toObject();
                hardware[QLatin1String("mem_size")] = mem;
                hardware[QLatin1String("nbop_pe")] = nbop;
                copy[QLatin1String("hardware")] = hardware;
                QCOMPARE(line[QLatin1String("hardware")].toObject(), hardware);
                const QString path = dir.filePath(QStringLiteral("point%1.json").arg(k));
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(QJsonDocument(copy).toJson());
                f.close();
                const ProcessRun run = cli({QStringLiteral("network"), path, QStringLiteral("--json")});
                QVERIFY2(run.exitCode == 0, run.err.constData());
                const QJsonObject report = QJsonDocument::fromJson(run.out).object();
                QCOMPARE(line[QLatin1String("total_duration")].toDouble(), report[QLatin1String("total_duration")].toDouble());
                const QJsonArray layers = line[QLatin1String("layers")].toArray();
                const QJsonArray expected = report[QLatin1String("layers")].toArray();
                QCOMPARE(layers.size(), expected.size());
                bool allValid = true;
                for (qsizetype i = 0; i < layers.size(); ++i) {
                    const QJsonObject got = layers[i].toObject(), want = expected[i].toObject();
                    QCOMPARE(got[QLatin1String("name")], want[QLatin1String("name")]);
                    const QJsonValue best = want[QLatin1String("best")];
                    allValid = allValid && best.isObject();
                    if (!best.isObject()) {
                        QVERIFY(got[QLatin1String("best")].isNull());
                        continue;
                    }
                    const QJsonObject gotBest = got[QLatin1String("best")].toObject();
                    QCOMPARE(gotBest[QLatin1String("strategy")], best[QLatin1String("strategy")]);
                    QCOMPARE(
                        gotBest[QLatin1String("total_duration")].toDouble(), best[QLatin1String("total_duration")].toDouble());
                    QCOMPARE(got[QLatin1String("peak_footprint")], best[QLatin1String("peak_footprint")]);
                }
                QCOMPARE(line[QLatin1String("all_valid")].toBool(), allValid);
                ++k;
            }
    }

    void badInputWritesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reason");
        const auto lists = [](const char *mem, const char *nbop) {
            return QStringList{
                QStringLiteral("--mem-size"), QLatin1String(mem), QStringLiteral("--nbop-pe"), QLatin1String(nbop)};
        };
        QTest::newRow("empty list") << lists("", "1") << "--mem-size: the list is empty";
        QTest::newRow("inverted") << lists("8k..1k*2", "1") << "is inverted";
        QTest::newRow("k suffix twice") << lists("64kk", "1") << "'64kk' is not a number";
        QTest::newRow("a million points") << lists("1..1000", "1..1000")
                                          << "1000000 design points, more than the limit of 100000";
        QTest::newRow("shard 4/4") << lists("1k", "1") + QStringList{QStringLiteral("--shard"), QStringLiteral("4/4")}
                                   << "--shard: the shard index must be between 0 and 3";
        QTest::newRow("no nbop list") << QStringList{QStringLiteral("--mem-size"), QStringLiteral("1k")}
                                      << "at least --mem-size LIST and --nbop-pe LIST";
        QTest::newRow("moves without optimize") << lists("1k", "1") + QStringList{QStringLiteral("--moves"), QStringLiteral("5")}
                                                << "--moves bounds the search of --optimize";
    }
    void badInputWritesNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.jsonl"));
        const ProcessRun run
            = cli(QStringList{QStringLiteral("explore"), kLenet} + args + QStringList{QStringLiteral("--out"), out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(QString::fromUtf8(run.err).contains(reason), run.err.constData());
        QVERIFY(!QFile::exists(out));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0); // no temporary file left either
    }

    void mergeNamesMissingPoints()
    {
        QTemporaryDir dir;
        const QString s0 = dir.filePath(QStringLiteral("s0.jsonl"));
        QCOMPARE(cli(QStringList{QStringLiteral("explore"), kLenet} + kLists
                     + QStringList{QStringLiteral("--shard"), QStringLiteral("0/3"), QStringLiteral("--out"), s0})
                     .exitCode,
            0);
        const QString out = dir.filePath(QStringLiteral("all.jsonl"));
        const ProcessRun run = cli({QStringLiteral("merge"), s0, QStringLiteral("--out"), out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("5 of 8 points are missing: 1-2, 4-5, 7"), run.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    /// Ctrl+C in the middle: exit 1, a message, and a file of whole lines
    /// (the points done) that merge reads and names as incomplete.
    void interruptKeepsWholeLines()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("stopped.jsonl"));
        QProcess p;
        p.start(QStringLiteral(CONVOFFLOAD_CLI),
            {QStringLiteral("explore"), QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/resnet8.json"),
                // A t_l per point: no two points share a run (CandidateCache), so the
                // 1000 points take a minute or more, far past the interrupt.
                QStringLiteral("--mem-size"), QStringLiteral("20000"), QStringLiteral("--nbop-pe"), QStringLiteral("73728"),
                QStringLiteral("--t-l"), QStringLiteral("1..1000+1"), QStringLiteral("--out"), out});
        QVERIFY(p.waitForStarted());
        QTest::qWait(1500);
        QCOMPARE(p.state(), QProcess::Running);
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("stopped (Ctrl+C) after"), err.constData());
        const QByteArray text = readAll(out);
        QVERIFY(text.endsWith('\n'));
        const QList<QJsonObject> lines = linesOf(text);
        QVERIFY(!lines.isEmpty());
        for (qsizetype i = 0; i < lines.size(); ++i)
            QCOMPARE(lines[i][QLatin1String("point")].toInt(), int(i));
        const ProcessRun merge
            = cli({QStringLiteral("merge"), out, QStringLiteral("--out"), dir.filePath(QStringLiteral("m.jsonl"))});
        QCOMPARE(merge.exitCode, 1);
        QVERIFY2(merge.err.contains("points are missing"), merge.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestExploreCli)
#include "tst_explore_cli.moc"
