// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// `export --figure trace` (docs/reference/trace.md): the file read back as
// Perfetto would — the Steps track adds up to the simulated duration, each
// action track to its part, nothing overlaps on a track, every action span
// lies inside its step, the footprint counter ends at an empty memory.

#include "TestCli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

struct Span {
    double ts = 0, dur = 0;
};

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestTraceCli : public QObject {
    Q_OBJECT
private slots:
    // The paper's example, ZigZag (G = 2, t = 1): 121 in all (docs/user/samples.md);
    // 5 compute steps, both kernels (2 × 18 elements) loaded once, 18 outputs written.
    void paperExampleAddsUp()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("zigzag.json"));
        const ProcessRun r = cli({QStringLiteral("export"), sample("paper-example.json"), QStringLiteral("--figure"),
            QStringLiteral("trace"), QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject trace = readJson(out);
        QCOMPARE(trace[QStringLiteral("otherData")][QStringLiteral("strategy")][QStringLiteral("name")].toString(),
            QStringLiteral("ZigZag"));
        std::map<int, std::vector<Span>> tracks;
        std::map<int, QString> names;
        std::vector<QJsonObject> footprints;
        for (const QJsonValue &v : trace[QStringLiteral("traceEvents")].toArray()) {
            const QJsonObject e = v.toObject();
            const QString ph = e[QStringLiteral("ph")].toString();
            const int tid = e[QStringLiteral("tid")].toInt();
            if (ph == QLatin1String("M") && e[QStringLiteral("name")].toString() == QLatin1String("thread_name"))
                names[tid] = e[QStringLiteral("args")][QStringLiteral("name")].toString();
            if (ph == QLatin1String("X"))
                tracks[tid].push_back({e[QStringLiteral("ts")].toDouble(), e[QStringLiteral("dur")].toDouble()});
            if (ph == QLatin1String("C") && e[QStringLiteral("name")].toString() == QLatin1String("footprint"))
                footprints.push_back(e[QStringLiteral("args")].toObject());
        }
        std::map<QString, double> sums;
        for (const auto &[tid, spans] : tracks) {
            double sum = 0, end = 0;
            for (const Span &s : spans) {
                QVERIFY2(s.ts >= end, qPrintable(names[tid] + QStringLiteral(" overlaps")));
                end = s.ts + s.dur;
                sum += s.dur;
            }
            sums[names[tid]] = sum;
        }
        QCOMPARE(sums[QStringLiteral("Steps")], 121.0);
        QCOMPARE(sums[QStringLiteral("Load kernels")], 36.0);
        QCOMPARE(sums[QStringLiteral("Write")], 18.0);
        QCOMPARE(sums[QStringLiteral("Compute")], 5.0);
        QCOMPARE(sums[QStringLiteral("Load input")], 121.0 - 36 - 18 - 5);
        // Steps follow one another, and each action span lies inside one.
        const std::vector<Span> &steps = tracks[1];
        QCOMPARE(steps.size(), std::size_t(6)); // five groups and the drain
        for (std::size_t i = 1; i < steps.size(); ++i)
            QCOMPARE(steps[i].ts, steps[i - 1].ts + steps[i - 1].dur);
        for (int tid = 2; tid <= 5; ++tid)
            for (const Span &a : tracks[tid])
                QVERIFY(std::any_of(
                    steps.begin(), steps.end(), [&](const Span &s) { return a.ts >= s.ts && a.ts + a.dur <= s.ts + s.dur; }));
        QCOMPARE(footprints.size(), steps.size());
        for (const char *part : {"input", "kernels", "output"})
            QCOMPARE(footprints.back()[QLatin1String(part)].toInt(), 0);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString project = sample("paper-example.json");
        QTest::newRow("no strategy") << QStringList{QStringLiteral("--out"), QStringLiteral("t.json")}
                                     << QStringLiteral("--figure trace needs --strategy NAME");
        QTest::newRow("not json") << QStringList{QStringLiteral("--strategy"), QStringLiteral("ZigZag"), QStringLiteral("--out"),
            QStringLiteral("t.png")}
                                  << QStringLiteral("--out FILE.json, got 't.png'");
        QTest::newRow("unknown strategy") << QStringList{QStringLiteral("--strategy"), QStringLiteral("Nope"),
            QStringLiteral("--out"), QStringLiteral("t.json")}
                                          << QStringLiteral("no strategy named 'Nope'");
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QDir::setCurrent(dir.path());
        const ProcessRun r = cli(QStringList{QStringLiteral("export"), sample("paper-example.json"), QStringLiteral("--figure"),
                                     QStringLiteral("trace")}
            + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty()); // nothing half-written
    }
};

QTEST_GUILESS_MAIN(TestTraceCli)
#include "tst_trace_cli.moc"
