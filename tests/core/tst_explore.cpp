// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Design-space exploration (docs/reference/explore.md): the lists, the point
// numbering and the shards, the merge of shard files and the Pareto front.
// Expected values come from nested loops and hand-worked examples.
#include "convoffload/explore/DesignSpace.h"
#include "convoffload/explore/ExploreFile.h"
#include "convoffload/explore/Exploration.h"
#include "convoffload/explore/ParetoFront.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/simulate/CandidateCache.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace convoffload;

Q_DECLARE_METATYPE(std::vector<std::int64_t>)

namespace {

/// The message of the DesignSpaceError `f` throws; empty when it throws none.
template <typename F> QString errorOf(F &&f)
{
    try {
        f();
    } catch (const DesignSpaceError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// One line as explore writes it, for the merge tests.
std::string lineOf(const std::string &run, std::int64_t point, std::int64_t points, double duration)
{
    ExploredPoint p;
    p.point = point;
    p.hardware.mem_size = 1000 + point;
    p.total_duration = duration;
    p.all_valid = true;
    p.layers.push_back({"conv", "ZigZag", duration, 10});
    return exploreLine(run, points, p);
}

std::string writeFile(const QTemporaryDir &dir, const char *name, const std::string &text)
{
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    writeTextFileAtomically(path, text);
    return path;
}

/// The FormatError message of merging `files`; empty when it merges.
QString mergeError(const std::vector<std::string> &files)
{
    try {
        std::vector<ExploreRecord> records;
        for (const std::string &f : files)
            for (ExploreRecord &r : readExploreFile(f))
                records.push_back(std::move(r));
        mergeExploreRecords(records);
    } catch (const FormatError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestExplore : public QObject {
    Q_OBJECT
private slots:
    void integerLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<std::int64_t>>("expected");
        QTest::newRow("items") << "3,1,2" << std::vector<std::int64_t>{3, 1, 2};
        QTest::newRow("k and M") << "16k, 1M" << std::vector<std::int64_t>{16384, 1048576};
        QTest::newRow("doublings") << "16k..128k*2" << std::vector<std::int64_t>{16384, 32768, 65536, 131072};
        QTest::newRow("doublings stop below the end") << "3..20*2" << std::vector<std::int64_t>{3, 6, 12};
        QTest::newRow("every integer") << "4..7" << std::vector<std::int64_t>{4, 5, 6, 7};
        QTest::newRow("steps") << "10..40+15" << std::vector<std::int64_t>{10, 25, 40};
        QTest::newRow("mixed") << "1,8..32*4,100" << std::vector<std::int64_t>{1, 8, 32, 100};
        QTest::newRow("one") << "5..5*2" << std::vector<std::int64_t>{5};
        QTest::newRow("near the top") << "4611686018427387904..9223372036854775807*2"
                                      << std::vector<std::int64_t>{4611686018427387904};
    }
    void integerLists()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<std::int64_t>, expected);
        QCOMPARE(parseIntegerList(text.toStdString(), "--mem-size", 1), expected);
    }

    void badLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << ""
                               << "the list is empty";
        QTest::newRow("empty item") << "1,,2"
                                    << "an item of the list is empty";
        QTest::newRow("inverted") << "8k..1k*2"
                                  << "is inverted";
        QTest::newRow("double suffix") << "64kk"
                                       << "is not a number";
        QTest::newRow("suffix alone") << "k"
                                      << "is not a number";
        QTest::newRow("suffix first") << "k64"
                                      << "is not a number";
        QTest::newRow("not whole") << "1.5"
                                   << "is not a whole number";
        QTest::newRow("below the minimum") << "0"
                                           << "below the smallest value, 1";
        QTest::newRow("negative") << "-4"
                                  << "below the smallest value, 1";
        QTest::newRow("23 digits") << "12345678901234567890123"
                                   << "is too large";
        QTest::newRow("factor 1") << "1..8*1"
                                  << "must be at least 2";
        QTest::newRow("duplicate") << "1k,1024"
                                   << "1024 appears twice";
        QTest::newRow("too many") << "1..1000000000000000000"
                                  << "more than 100000 values";
        QTest::newRow("too many doublings") << "1..100000000+1"
                                            << "more than 100000 values";
    }
    void badLists()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        const QString message = errorOf([&] { parseIntegerList(text.toStdString(), "--mem-size", 1); });
        QVERIFY2(message.startsWith(QLatin1String("--mem-size: ")), qPrintable(message));
        QVERIFY2(message.contains(reason), qPrintable(message));
    }

    void numberLists()
    {
        QCOMPARE(parseNumberList("0.1..0.3+0.1", "--t-l"), (std::vector<double>{0.1, 0.2, 0.3}));
        QCOMPARE(parseNumberList("0.25..4*2", "--t-l"), (std::vector<double>{0.25, 0.5, 1, 2, 4}));
        QCOMPARE(parseNumberList("0,1.5,1k", "--t-l"), (std::vector<double>{0, 1.5, 1024}));
        QVERIFY(errorOf([] { parseNumberList("1..2", "--t-l"); }).contains(QLatin1String("needs a step")));
        QVERIFY(errorOf([] { parseNumberList("0..2*2", "--t-l"); }).contains(QLatin1String("starts at 0")));
        QVERIFY(errorOf([] { parseNumberList("-1", "--t-l"); }).contains(QLatin1String("negative")));
        QVERIFY(errorOf([] { parseNumberList("1..2*0.5", "--t-l"); }).contains(QLatin1String("greater than 1")));
        QCOMPARE(parseLayoutList("nhwc, nchw", "--layout"), (std::vector<Layout>{Layout::Nhwc, Layout::Nchw}));
        QVERIFY(errorOf([] { parseLayoutList("nhcw", "--layout"); }).contains(QLatin1String("not a layout")));
    }

    /// Point k is the k-th of the nested loops, the first list outermost.
    void pointsNestTheListsLastFastest()
    {
        DesignSpace space;
        space.mem_sizes = {100, 200};
        space.nbop_pes = {10, 20, 30};
        space.layouts = {Layout::Nchw, Layout::Nhwc};
        space.t_setups = {0, 5};
        QCOMPARE(space.pointCount(), std::int64_t(24));
        Hardware base;
        base.t_l = 3;
        std::int64_t k = 0;
        for (const std::int64_t mem : {100, 200})
            for (const std::int64_t nbop : {10, 20, 30})
                for (const Layout layout : {Layout::Nchw, Layout::Nhwc})
                    for (const double setup : {0.0, 5.0}) {
                        const Hardware h = space.hardwareAt(base, k);
                        QCOMPARE(h.mem_size, mem);
                        QCOMPARE(h.nbop_pe, nbop);
                        QCOMPARE(h.t_l, 3.0); // not a list: the target's own
                        QVERIFY(h.transfer.has_value());
                        QCOMPARE(h.transfer->layout, layout);
                        QCOMPARE(h.transfer->t_setup, setup);
                        QCOMPARE(h.transfer->burst, std::int64_t(1)); // the linear model's default
                        ++k;
                    }
        // No transfer list: the target's model is kept as it is (none).
        DesignSpace plain;
        plain.mem_sizes = {5};
        QVERIFY(!plain.hardwareAt(base, 0).transfer.has_value());
    }

    void pointLimit()
    {
        DesignSpace space;
        space.mem_sizes = std::vector<std::int64_t>(1000, 1);
        space.nbop_pes = std::vector<std::int64_t>(1000, 1);
        const QString message = errorOf([&] { space.pointCount(); });
        QVERIFY2(message.contains(QLatin1String("1000000 design points")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("limit of 100000")), qPrintable(message));
        QCOMPARE(space.pointCount(1000000), std::int64_t(1000000));
        // A product beyond 64 bits is refused, not wrapped.
        DesignSpace huge;
        huge.mem_sizes = huge.nbop_pes = huge.bursts = std::vector<std::int64_t>(100000, 1);
        huge.t_ls = huge.t_setups = std::vector<double>(100000, 1);
        QVERIFY(errorOf([&] { huge.pointCount(std::numeric_limits<std::int64_t>::max()); }).contains(QLatin1String("limit")));
    }

    void shardsCoverEveryPointOnce()
    {
        for (std::int64_t points : {1, 5, 24}) {
            for (std::int64_t n = 1; n <= 7; ++n) {
                std::map<std::int64_t, int> seen;
                std::int64_t held = 0;
                for (std::int64_t i = 0; i < n; ++i) {
                    const Shard shard = parseShard(std::to_string(i) + "/" + std::to_string(n));
                    std::int64_t mine = 0;
                    for (std::int64_t k = 0; k < points; ++k)
                        if (shard.holds(k)) {
                            ++seen[k];
                            ++mine;
                        }
                    QCOMPARE(shard.pointsOf(points), mine);
                    held += mine;
                }
                QCOMPARE(held, points);
                QCOMPARE(std::int64_t(seen.size()), points);
                for (const auto &[k, count] : seen)
                    QCOMPARE(count, 1);
            }
        }
        for (const char *bad : {"4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""})
            QVERIFY2(errorOf([&] { parseShard(bad); }).startsWith(QLatin1String("--shard: ")), bad);
    }

    /// A layer project is a network of one layer; each point's line holds
    /// what analyseNetwork finds on that point's hardware.
    void pointsHoldTheNetworksBest()
    {
        const Network target = loadNetwork(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
        DesignSpace space;
        space.mem_sizes = {2048, 8192};
        space.nbop_pes = {512};
        for (std::int64_t k = 0; k < space.pointCount(); ++k) {
            const ExploredPoint p = explorePoint(target, space, k, {});
            Network network = target;
            network.hardware.mem_size = k == 0 ? 2048 : 8192;
            network.hardware.nbop_pe = 512;
            const NetworkAnalysis analysis = analyseNetwork(network);
            QCOMPARE(p.hardware, network.hardware);
            QCOMPARE(p.total_duration, analysis.total_duration);
            QCOMPARE(p.layers.size(), analysis.layers.size());
            for (std::size_t i = 0; i < p.layers.size(); ++i) {
                QCOMPARE(p.layers[i].name, analysis.layers[i].name);
                QCOMPARE(p.layers[i].duration, analysis.layers[i].duration());
            }
        }
    }

    /// Shared runs (CandidateCache) change nothing: at every point every
    /// candidate tried, its validity, duration and peak, and the best are
    /// those of a fresh analysis, including points where the memory makes
    /// candidates invalid, and the networks' repeated layers.
    void sharedRunsChangeNothing_data()
    {
        QTest::addColumn<QString>("network");
        QTest::newRow("lenet5") << QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
        QTest::newRow("resnet8") << QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/resnet8.json");
        QTest::newRow("mobilenet-tiny") << QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/mobilenet-tiny.json");
    }
    void sharedRunsChangeNothing()
    {
        QFETCH(QString, network);
        const Network target = loadNetwork(network.toStdString());
        DesignSpace space;
        space.mem_sizes = {300, 1024, 4096, 20000, 1 << 20};
        space.nbop_pes = {256, 73728};
        CandidateCache cache;
        NetworkAnalysisOptions shared;
        shared.cache = &cache;
        for (std::int64_t k = 0; k < space.pointCount(); ++k) {
            Network n = target;
            n.hardware = space.hardwareAt(target.hardware, k);
            const NetworkAnalysis fresh = analyseNetwork(n);
            const NetworkAnalysis reused = analyseNetwork(n, shared);
            QCOMPARE(reused.total_duration, fresh.total_duration);
            QCOMPARE(reused.layers_without_valid, fresh.layers_without_valid);
            for (std::size_t i = 0; i < fresh.layers.size(); ++i) {
                const LayerAnalysis &f = fresh.layers[i], &r = reused.layers[i];
                QCOMPARE(r.best, f.best);
                QCOMPARE(r.candidates.size(), f.candidates.size());
                for (std::size_t c = 0; c < f.candidates.size(); ++c) {
                    const CompareRow &fr = f.candidates[c].row, &rr = r.candidates[c].row;
                    QCOMPARE(rr.name, fr.name);
                    QCOMPARE(rr.valid, fr.valid);
                    QCOMPARE(rr.failure, fr.failure);
                    QCOMPARE(rr.total_duration, fr.total_duration);
                    QCOMPARE(rr.peak_footprint, fr.peak_footprint);
                    QCOMPARE(rr.errors > 0, fr.errors > 0);
                }
            }
        }
        // The points did share runs (fewer since the grid is bounded by a
        // walk of each order: most candidates are no longer simulated).
        QVERIFY2(cache.hits() > 0, qPrintable(QStringLiteral("%1 hits, %2 misses").arg(cache.hits()).arg(cache.misses())));
    }

    void runIdsDependOnEverythingButTheShard()
    {
        DesignSpace space;
        space.mem_sizes = {1, 2};
        const std::string id = exploreRunId("target", space, 100, {}, "1.0");
        QCOMPARE(id.size(), std::size_t(16));
        QCOMPARE(exploreRunId("target", space, 100, {}, "1.0"), id);
        QVERIFY(exploreRunId("target ", space, 100, {}, "1.0") != id);
        QVERIFY(exploreRunId("target", space, 100, {}, "1.1") != id);
        QVERIFY(exploreRunId("target", space, 101, {}, "1.0") != id);
        ExploreOptions optimised;
        optimised.optimise_s = 1;
        QVERIFY(exploreRunId("target", space, 100, optimised, "1.0") != id);
        DesignSpace other = space;
        other.mem_sizes = {2, 1};
        QVERIFY(exploreRunId("target", other, 100, {}, "1.0") != id);
    }

    void mergeOrdersAndDropsExactDuplicates()
    {
        QTemporaryDir dir;
        const std::string a = writeFile(dir, "a.jsonl", lineOf("r", 2, 4, 5) + "\n" + lineOf("r", 0, 4, 7) + "\n");
        const std::string b = writeFile(dir, "b.jsonl", lineOf("r", 3, 4, 6) + "\n" + lineOf("r", 1, 4, 9) + "\n");
        const std::string c = writeFile(dir, "c.jsonl", lineOf("r", 1, 4, 9) + "\n");
        std::vector<ExploreRecord> records;
        for (const std::string &f : {a, b, c})
            for (ExploreRecord &r : readExploreFile(f))
                records.push_back(std::move(r));
        QCOMPARE(records.size(), std::size_t(5));
        const std::string expected = lineOf("r", 0, 4, 7) + "\n" + lineOf("r", 1, 4, 9) + "\n" + lineOf("r", 2, 4, 5) + "\n"
            + lineOf("r", 3, 4, 6) + "\n";
        QCOMPARE(mergeExploreRecords(records), expected);
    }

    void mergeRefusals_data()
    {
        QTest::addColumn<QString>("second"); // the lines of the second file, after 0 and 1 of run r in the first
        QTest::addColumn<QString>("reason");
        const auto q = [](const std::string &s) { return QString::fromStdString(s); };
        QTest::newRow("missing") << q(lineOf("r", 3, 5, 1) + "\n") << "2 of 5 points are missing: 2, 4";
        QTest::newRow("conflicting duplicate") << q(lineOf("r", 1, 5, 2) + "\n") << "point 1 differs from the same point at";
        QTest::newRow("foreign run") << q(lineOf("s", 2, 5, 1) + "\n") << "belongs to run s, not to run r";
        QTest::newRow("other point count") << q(lineOf("r", 2, 6, 1) + "\n") << "says the run has 6 points";
        QTest::newRow("truncated last line") << q(lineOf("r", 2, 5, 1).substr(0, 40)) << "ends without a newline";
        QTest::newRow("not ours") << QStringLiteral("{\"a\": 1}\n") << "no \"run\"";
        QTest::newRow("not JSON") << QStringLiteral("point 2\n") << "not JSON";
        QTest::newRow("point out of range") << q(lineOf("r", 7, 5, 1) + "\n") << "point 7 is outside 0..4";
        QTest::newRow("empty line") << QStringLiteral("\n") << "an empty line";
        QTest::newRow("deep nesting") << QString(QStringLiteral("[")).repeated(100000) + QStringLiteral("\n") << "nested deeper";
    }
    void mergeRefusals()
    {
        QFETCH(QString, second);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const std::string first = writeFile(dir, "first.jsonl", lineOf("r", 0, 5, 1) + "\n" + lineOf("r", 1, 5, 1) + "\n");
        const std::string other = writeFile(dir, "second.jsonl", second.toStdString());
        const QString message = mergeError({first, other});
        QVERIFY2(message.contains(reason), qPrintable(message));
    }

    void emptyFileIsNotAnExploration()
    {
        QTemporaryDir dir;
        const std::string empty = writeFile(dir, "empty.jsonl", "");
        QVERIFY(mergeError({empty}).contains(QLatin1String("empty")));
    }

    /// One line read alone gives what reading it from a file gives, and is
    /// refused for the same reasons, naming the place it was given.
    void oneLineAsAFileReadsIt()
    {
        QTemporaryDir dir;
        const std::string line = lineOf("r", 2, 5, 123.5);
        const std::string path = writeFile(dir, "one.jsonl", line + "\n");
        const ExploreRecord fromFile = readExploreFile(path).front();
        const ExploreRecord alone = parseExploreLine("run", 3, line);
        QCOMPARE(alone.line, line);
        QCOMPARE(alone.run, std::string("r"));
        QCOMPARE(alone.point, std::int64_t(2));
        QCOMPARE(alone.points, std::int64_t(5));
        QCOMPARE(alone.total_duration, 123.5);
        QCOMPARE(alone.hardware["mem_size"].get<std::int64_t>(), std::int64_t(1002));
        QCOMPARE(alone.hardware, fromFile.hardware);
        QCOMPARE(alone.all_valid, true);
        QCOMPARE(alone.layers, std::int64_t(1));
        QCOMPARE(alone.line_number, std::int64_t(3));
        try {
            parseExploreLine("run", 7, "{\"a\": 1}");
            QFAIL("a line that is not ours was read");
        } catch (const FormatError &e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QLatin1String("run:7")), e.what());
        }
    }

    void missingPointsAsRanges()
    {
        QCOMPARE(pointRangesText({0, 1, 2, 5, 9, 10, 11}), std::string("0-2, 5, 9-11"));
        QCOMPARE(pointRangesText({1, 3, 5, 7}, 2), std::string("1, 3, … (4 in all)"));
    }

    /// Six points worked by hand (memory, duration):
    /// a (1, 50) b (2, 40) c (2, 45) d (3, 40) e (4, 10) f (5, 30), with b
    /// invalid. Without b, a is best at 1; c beats a; d beats c; e beats d;
    /// f is beaten by e. So the front is a, c, d, e.
    void paretoFrontByHand()
    {
        const std::vector<ParetoCandidate> points{
            {1, 50, true}, {2, 40, false}, {2, 45, true}, {3, 40, true}, {4, 10, true}, {5, 30, true}};
        QCOMPARE(paretoFront(points), (std::vector<std::size_t>{0, 2, 3, 4}));
        // With b valid, b dominates c and d (equal duration, less memory).
        std::vector<ParetoCandidate> allValid = points;
        allValid[1].valid = true;
        QCOMPARE(paretoFront(allValid), (std::vector<std::size_t>{0, 1, 4}));
        // Equal points: the first is kept.
        QCOMPARE(paretoFront({{1, 5, true}, {1, 5, true}}), (std::vector<std::size_t>{0}));
        QCOMPARE(paretoFront({}), std::vector<std::size_t>{});
    }
};

QTEST_GUILESS_MAIN(TestExplore)
#include "tst_explore.moc"
