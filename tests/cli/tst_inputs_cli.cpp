// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Every command of convoffload-cli against two hostile inputs
// (docs/user/bad-input.md): a layer whose work the estimate puts over the
// budget is refused before any work, naming the layer, whichever command
// reads it; and every option that reads a file, fed a FIFO without a
// writer, /dev/zero, a directory or a missing file, ends at once with a
// message naming the path and the reason. Each run has a timeout, so a hang
// fails the test instead of blocking it.

#include "TestCli.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

constexpr int kTimeoutMs = 20000; // a hang is killed and fails; a refusal takes well under a second

/// A project of one layer and no data file.
QByteArray projectJson(const QByteArray &layer, const QByteArray &data = "{\"seed\": 1}")
{
    return "{\"format\": \"convoffload-project\", \"version\": 1, \"layer\": " + layer
        + ", \"hardware\": {\"mem_size\": 100000, \"nbop_pe\": 100000, \"t_l\": 1, \"t_w\": 1, \"t_acc\": 1,"
          " \"dram_size\": 1000000000000, \"max_loads_per_element\": 2},"
          " \"options\": {\"kernels_preloaded\": false, \"write_policy\": \"next-step\", \"padding_in_dram\": true},"
          " \"data\": "
        + data + ", \"strategies\": [{\"name\": \"S1-baseline\", \"kind\": \"s1-baseline\"}]}";
}

/// A network project of one named layer.
QByteArray networkJson(const QByteArray &name, const QByteArray &layer)
{
    return "{\"format\": \"convoffload-project\", \"version\": 2, \"name\": \"n\", \"source\": \"\","
           " \"hardware\": {\"mem_size\": 100000, \"nbop_pe\": 100000, \"t_l\": 1, \"t_w\": 1, \"t_acc\": 1,"
           " \"dram_size\": 1000000000000, \"max_loads_per_element\": 2},"
           " \"options\": {\"kernels_preloaded\": false, \"write_policy\": \"next-step\", \"padding_in_dram\": true},"
           " \"layers\": [{\"name\": \""
        + name + "\", \"layer\": " + layer
        + ", \"data\": {\"seed\": 1}, \"strategies\": [{\"name\": \"S1-baseline\", \"kind\": \"s1-baseline\"}]}],"
          " \"skipped\": []}";
}

// The 1048576 x 64 input with 33 x 33 kernels: 33.5 M patches of
// 1089 pixels, 3.6e10 pixel visits, about 36 minutes by the estimate
// (60 ns a visit) on any machine: over the 10 minutes whatever the memory.
const QByteArray kHugeLayer = "{\"c_in\": 1, \"h_in\": 1048576, \"w_in\": 64, \"h_k\": 33, \"w_k\": 33, \"n\": 1,"
                              " \"stride_h\": 1, \"stride_w\": 1, \"pad_top\": 0, \"pad_bottom\": 0, \"pad_left\": 0,"
                              " \"pad_right\": 0}";
const QByteArray kSmallLayer = "{\"c_in\": 1, \"h_in\": 5, \"w_in\": 5, \"h_k\": 3, \"w_k\": 3, \"n\": 1, \"stride_h\": 1,"
                               " \"stride_w\": 1, \"pad_top\": 0, \"pad_bottom\": 0, \"pad_left\": 0, \"pad_right\": 0}";

void write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace

class TestInputsCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        write(path("huge.json"), projectJson(kHugeLayer));
        write(path("huge-network.json"), networkJson("huge_conv", kHugeLayer));
        write(path("small.json"), projectJson(kSmallLayer));
        write(path("solution.txt"), "x_0_0 1\n");
        QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("folder")));
        QCOMPARE(::mkfifo(path("fifo").toLocal8Bit().constData(), 0600), 0);
        QCOMPARE(::mkfifo(path("fifo.csv").toLocal8Bit().constData(), 0600), 0);
        QCOMPARE(::mkfifo(path("fifo.jsonl").toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("folder.jsonl")));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path("zero.jsonl")));
    }

    // A layer over the budget: refused before any work by every command
    // that simulates or optimises it, in the words of `simulate`, naming
    // the layer (a project's by its size, a network's by name too).
    void hugeLayerIsRefusedFirst_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("layer");
        const QString project = path("huge.json"), network = path("huge-network.json");
        const QString ofProject = QStringLiteral("the layer (1x1048576x64 input, 1 kernels 33x33)");
        const QString ofNetwork = QStringLiteral("layer 'huge_conv' (1x1048576x64 input, 1 kernels 33x33)");
        const auto row
            = [](const char *name, const QStringList &args, const QString &layer) { QTest::newRow(name) << args << layer; };
        row("simulate", {QStringLiteral("simulate"), project, QStringLiteral("--strategy"), QStringLiteral("S1-baseline")},
            ofProject);
        row("compare", {QStringLiteral("compare"), project}, ofProject);
        row("sweep", {QStringLiteral("sweep"), project, QStringLiteral("--group-sizes"), QStringLiteral("1..2")}, ofProject);
        row("export",
            {QStringLiteral("export"), project, QStringLiteral("--figure"), QStringLiteral("grid"), QStringLiteral("--strategy"),
                QStringLiteral("S1-baseline"), QStringLiteral("--out"), path("g.png")},
            ofProject);
        row("optimize", {QStringLiteral("optimize"), project, QStringLiteral("--time-limit"), QStringLiteral("1")}, ofProject);
        row("model", {QStringLiteral("model"), project, QStringLiteral("--out"), path("m.lp")}, ofProject);
        row("import-solution", {QStringLiteral("import-solution"), project, QStringLiteral("--solution"), path("solution.txt")},
            ofProject);
        row("network", {QStringLiteral("network"), network}, ofNetwork);
        row("network --own-only", {QStringLiteral("network"), network, QStringLiteral("--own-only")}, ofNetwork);
        row("network --optimize", {QStringLiteral("network"), network, QStringLiteral("--optimize")}, ofNetwork);
        row("export --figure network",
            {QStringLiteral("export"), network, QStringLiteral("--figure"), QStringLiteral("network"), QStringLiteral("--out"),
                path("n.png")},
            ofNetwork);
        row("explore",
            {QStringLiteral("explore"), network, QStringLiteral("--mem-size"), QStringLiteral("100000"),
                QStringLiteral("--nbop-pe"), QStringLiteral("100000"), QStringLiteral("--out"), path("e.jsonl")},
            ofNetwork);
    }
    void hugeLayerIsRefusedFirst()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, layer);
        QElapsedTimer timer;
        timer.start();
        const ProcessRun run = runProgram(QStringLiteral(CONVOFFLOAD_CLI), args, kTimeoutMs);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(run.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(err)));
        QVERIFY2(err.contains(layer), qPrintable(err));
        QVERIFY2(err.contains(QLatin1String("would take about")), qPrintable(err));
        QVERIFY2(err.contains(QLatin1String("--no-work-limit")), qPrintable(err));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
    }

    // Every option that reads a file, against what is not a readable file.
    void unreadablePathsAreNamed_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("bad");
        QTest::addColumn<QString>("reason");

        const QString small = path("small.json");
        const QString onnx = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.onnx");
        const QString samplesHardware = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5-hardware.json");
        // Where the bad path goes: %1 in the arguments.
        struct Reader {
            const char *name;
            QStringList args;
            bool jsonl = false; // reads FILE.jsonl only: the bad paths by that name
        };
        const QString b = QStringLiteral("%1");
        const QList<Reader> readers{
            {"simulate PROJECT", {QStringLiteral("simulate"), b, QStringLiteral("--strategy"), QStringLiteral("S1-baseline")}},
            {"compare PROJECT", {QStringLiteral("compare"), b}},
            {"sweep PROJECT", {QStringLiteral("sweep"), b, QStringLiteral("--group-sizes"), QStringLiteral("1..2")}},
            {"export PROJECT",
                {QStringLiteral("export"), b, QStringLiteral("--figure"), QStringLiteral("grid"), QStringLiteral("--strategy"),
                    QStringLiteral("S1-baseline"), QStringLiteral("--out"), path("g.png")}},
            {"optimize PROJECT", {QStringLiteral("optimize"), b, QStringLiteral("--time-limit"), QStringLiteral("1")}},
            {"model PROJECT", {QStringLiteral("model"), b, QStringLiteral("--out"), path("m.lp")}},
            {"import-solution PROJECT",
                {QStringLiteral("import-solution"), b, QStringLiteral("--solution"), path("solution.txt")}},
            {"network PROJECT", {QStringLiteral("network"), b}},
            {"explore TARGET",
                {QStringLiteral("explore"), b, QStringLiteral("--mem-size"), QStringLiteral("1000"), QStringLiteral("--nbop-pe"),
                    QStringLiteral("100"), QStringLiteral("--out"), path("e.jsonl")}},
            {"export NETWORK --figure network",
                {QStringLiteral("export"), b, QStringLiteral("--figure"), QStringLiteral("network"), QStringLiteral("--out"),
                    path("n.png")}},
            {"export EXPLORE --figure pareto",
                {QStringLiteral("export"), b, QStringLiteral("--figure"), QStringLiteral("pareto"), QStringLiteral("--out"),
                    path("p.png")},
                true},
            {"merge FILE", {QStringLiteral("merge"), b, QStringLiteral("--out"), path("all.jsonl")}, true},
            {"import-onnx MODEL",
                {QStringLiteral("import-onnx"), b, QStringLiteral("--hardware"), samplesHardware, QStringLiteral("--out"),
                    path("o.json")}},
            {"import-onnx --hardware",
                {QStringLiteral("import-onnx"), onnx, QStringLiteral("--hardware"), b, QStringLiteral("--out"), path("o.json")}},
            {"simulate --strategy-csv", {QStringLiteral("simulate"), small, QStringLiteral("--strategy-csv"), b}},
            {"import-solution --solution", {QStringLiteral("import-solution"), small, QStringLiteral("--solution"), b}},
            {"import-solution --solution --kernel-steps",
                {QStringLiteral("import-solution"), small, QStringLiteral("--solution"), b, QStringLiteral("--kernel-steps")}},
            {"project data.file",
                {QStringLiteral("simulate"), QStringLiteral("DATA"), QStringLiteral("--strategy"),
                    QStringLiteral("S1-baseline")}},
        };
        struct Bad {
            const char *name;
            QString path;
            QString jsonl; // the same under a .jsonl name (a link to /dev/zero)
            const char *reason;
        };
        const QList<Bad> bads{
            {"FIFO", path("fifo"), path("fifo.jsonl"), "FIFO"},
            {"/dev/zero", QStringLiteral("/dev/zero"), path("zero.jsonl"), "character device"},
            {"directory", path("folder"), path("folder.jsonl"), "directory"},
            {"missing", path("missing.json"), path("missing.jsonl"), "No such file"},
        };
        int data = 0;
        for (const Reader &reader : readers)
            for (Bad bad : bads) {
                if (reader.jsonl)
                    bad.path = bad.jsonl;
                QStringList args;
                for (const QString &a : reader.args)
                    args << (a == b ? bad.path : a);
                if (args.contains(QLatin1String("DATA"))) {
                    // A project whose tensor data file is the bad path.
                    const QString project = m_dir.filePath(QStringLiteral("data-%1.json").arg(data++));
                    write(project, projectJson(kSmallLayer, "{\"file\": \"" + bad.path.toUtf8() + "\"}"));
                    args.replace(args.indexOf(QLatin1String("DATA")), project);
                }
                QTest::addRow("%s, %s", reader.name, bad.name) << args << bad.path << QString::fromLatin1(bad.reason);
            }
        // A strategy CSV by its extension: the sniffing of a steps header
        // blocked on a FIFO before the reader's checks.
        QTest::newRow("import-solution --solution FILE.csv, FIFO")
            << QStringList{QStringLiteral("import-solution"), small, QStringLiteral("--solution"), path("fifo.csv")}
            << path("fifo.csv") << QStringLiteral("FIFO");
    }
    void unreadablePathsAreNamed()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, bad);
        QFETCH(QString, reason);
        QElapsedTimer timer;
        timer.start();
        const ProcessRun run = runProgram(QStringLiteral(CONVOFFLOAD_CLI), args, kTimeoutMs);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(run.exitCode == 1,
            qPrintable(QStringLiteral("exit %1 after %2 ms: %3").arg(run.exitCode).arg(timer.elapsed()).arg(err)));
        QVERIFY2(err.contains(bad), qPrintable(err));
        QVERIFY2(err.contains(reason), qPrintable(err));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestInputsCli)
#include "tst_inputs_cli.moc"
