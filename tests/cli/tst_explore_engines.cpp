// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The engines that run an exploration's shards, for real
// (docs/user/explore.md): GNU Parallel through tools/explore/explore-parallel.sh,
// and a Slurm job array through tools/explore/explore.sbatch on a single-node
// Slurm started for the test (tools/explore/local-slurm.sh) and stopped
// after. Each sharded run, merged, must equal the unsharded run byte for
// byte. A machine without the engine (or without root, for Slurm) skips.
#include "TestCli.h"

#include <QDir>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace {

const QString kTools = QStringLiteral(CONVOFFLOAD_SOURCE_DIR "/tools/explore");
const QString kTarget = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
const QStringList kLists{QStringLiteral("--mem-size"), QStringLiteral("1k..8k*2"), QStringLiteral("--nbop-pe"),
    QStringLiteral("256,1024"), QStringLiteral("--layout"), QStringLiteral("nchw,nhwc"), QStringLiteral("--burst"),
    QStringLiteral("8")};

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

ProcessRun runWithCli(
    const QString &program, const QStringList &args, const QProcessEnvironment &extra = {}, int timeoutMs = 180000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("CONVOFFLOAD_CLI"), QStringLiteral(CONVOFFLOAD_CLI));
    for (const QString &key : extra.keys())
        env.insert(key, extra.value(key));
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

/// The unsharded run, the reference of every engine.
QByteArray unshardedRun(const QTemporaryDir &dir)
{
    const QString out = dir.filePath(QStringLiteral("unsharded.jsonl"));
    const ProcessRun run
        = cli(QStringList{QStringLiteral("explore"), kTarget} + kLists + QStringList{QStringLiteral("--out"), out});
    if (run.exitCode != 0)
        qWarning("%s", run.err.constData());
    return readAll(out);
}

} // namespace

class TestExploreEngines : public QObject {
    Q_OBJECT
private slots:
    void gnuParallelShardsMergeToTheSingleRun()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("parallel")).isEmpty())
            QSKIP("GNU Parallel is not installed (apt install parallel)");
        QTemporaryDir dir;
        const QByteArray expected = unshardedRun(dir);
        QVERIFY(!expected.isEmpty());
        const QString prefix = dir.filePath(QStringLiteral("par"));
        const ProcessRun run = runWithCli(
            kTools + QStringLiteral("/explore-parallel.sh"), QStringList{QStringLiteral("4"), prefix, kTarget} + kLists);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(readAll(prefix + QStringLiteral(".jsonl")), expected);
        // The job log lists the four shards, each exit 0: what --resume-failed reads.
        const QList<QByteArray> log = readAll(prefix + QStringLiteral(".joblog")).trimmed().split('\n');
        QCOMPARE(log.size(), 5);
        // Run again: every shard is done, none runs, the merge is the same.
        const ProcessRun again = runWithCli(
            kTools + QStringLiteral("/explore-parallel.sh"), QStringList{QStringLiteral("4"), prefix, kTarget} + kLists);
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(readAll(prefix + QStringLiteral(".joblog")).trimmed().split('\n').size(), 5);
        QCOMPARE(readAll(prefix + QStringLiteral(".jsonl")), expected);
    }

    void slurmArrayMergesToTheSingleRun()
    {
        if (::geteuid() != 0)
            QSKIP("a local Slurm needs root (slurmd starts jobs as their user)");
        for (const char *tool : {"munged", "slurmctld", "slurmd", "sbatch"})
            if (QStandardPaths::findExecutable(QLatin1String(tool), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")})
                    .isEmpty())
                QSKIP("Slurm is not installed (apt install slurm-wlm munge)");
        QTemporaryDir dir;
        const QByteArray expected = unshardedRun(dir);
        QVERIFY(!expected.isEmpty());
        const QString cluster = dir.filePath(QStringLiteral("cluster"));
        const QString script = kTools + QStringLiteral("/local-slurm.sh");
        const ProcessRun started = runProgram(script, {QStringLiteral("start"), cluster});
        // Stopped whatever happens below.
        struct Stop {
            QString script, cluster;
            ~Stop() { runProgram(script, {QStringLiteral("stop"), cluster}); }
        } stop{script, cluster};
        QVERIFY2(started.exitCode == 0, started.err.constData());

        QProcessEnvironment slurm;
        slurm.insert(QStringLiteral("SLURM_CONF"), cluster + QStringLiteral("/slurm.conf"));
        const QString prefix = dir.filePath(QStringLiteral("task"));
        const ProcessRun batch = runWithCli(QStringLiteral("sbatch"),
            QStringList{QStringLiteral("--wait"), QStringLiteral("--array=0-3"), QStringLiteral("--chdir"), dir.path(),
                QStringLiteral("--output"), dir.filePath(QStringLiteral("task-%a.log")),
                kTools + QStringLiteral("/explore.sbatch"), prefix, kTarget}
                + kLists,
            slurm);
        QVERIFY2(batch.exitCode == 0,
            (batch.err + readAll(dir.filePath(QStringLiteral("task-0.log"))) + readAll(cluster + QStringLiteral("/slurmd.log")))
                .constData());
        QStringList merge{QStringLiteral("merge")};
        for (int i = 0; i < 4; ++i) {
            QVERIFY2(
                readAll(dir.filePath(QStringLiteral("task-%1.log").arg(i))).contains("(shard " + QByteArray::number(i) + "/4)"),
                readAll(dir.filePath(QStringLiteral("task-%1.log").arg(i))).constData());
            merge << prefix + QStringLiteral("-%1.jsonl").arg(i);
        }
        const QString all = dir.filePath(QStringLiteral("all.jsonl"));
        const ProcessRun merged = cli(merge + QStringList{QStringLiteral("--out"), all});
        QVERIFY2(merged.exitCode == 0, merged.err.constData());
        QCOMPARE(readAll(all), expected);
    }
};

QTEST_GUILESS_MAIN(TestExploreEngines)
#include "tst_explore_engines.moc"
