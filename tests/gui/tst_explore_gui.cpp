// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The Pareto figure and the Explore dialog (docs/user/explore.md#the-pareto-figure,
// #in-the-window): a six-point file written here, whose front is worked by
// hand; `convoffload-cli export --figure pareto` in every format; the dialog's
// sweep saved byte for byte as the CLI's `explore` writes it; a click on a
// point applying its hardware through the undo stack; Stop keeping the
// finished points.
#include "document/ProjectDocument.h"
#include "explore/ExploreDialog.h"
#include "network/NetworkPanel.h"
#include "explore/ParetoPlot.h"
#include "explore/ParetoPlotView.h"
#include "export/ExportPreset.h"
#include "mainwindow/MainWindow.h"

#include "convoffload/Version.h"
#include "convoffload/explore/ExploreFile.h"
#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace convoffload;
using namespace convoffload::ui;

namespace {

QString sample(const char *name) { return QStringLiteral(CONVOFFLOAD_SAMPLES "/") + QLatin1String(name); }

/// A line as explore writes it, by hand: only what the figure reads matters.
std::string handLine(int point, int mem, int nbop, double duration, bool valid)
{
    return "{\"run\":\"feedc0de00000000\",\"point\":" + std::to_string(point)
        + ",\"points\":6,\"hardware\":{\"mem_size\":" + std::to_string(mem) + ",\"nbop_pe\":" + std::to_string(nbop)
        + ",\"t_l\":3.0,\"t_w\":1.0,\"t_acc\":1.0,\"dram_size\":100000000,\"max_loads_per_element\":2},\"layers\":[],"
        + "\"skipped\":0,\"total_duration\":" + std::to_string(duration) + ",\"all_valid\":" + (valid ? "true" : "false") + "}";
}

/// Six points, memory slowest (1k, 2k, 4k), nbop_pe fastest (256, 1024):
///   0: 1k 256  900         1: 1k 1024 500 invalid
///   2: 2k 256  700         3: 2k 1024 800
///   4: 4k 256  700         5: 4k 1024 300
/// By hand: 1 is invalid (never on the front, though nothing beats it). At
/// 1k only 0 is valid: on the front. 2 beats 3 (same memory, shorter) and is
/// shorter than 0: on it. 4 has 2's duration with more memory: beaten. 5 is
/// the shortest: on it. The front is 0, 2, 5.
std::string handFile(bool withPoint3 = true)
{
    std::string text;
    const struct {
        int mem, nbop;
        double duration;
        bool valid;
    } rows[] = {{1024, 256, 900, true}, {1024, 1024, 500, false}, {2048, 256, 700, true}, {2048, 1024, 800, true},
        {4096, 256, 700, true}, {4096, 1024, 300, true}};
    for (int i = 0; i < 6; ++i)
        if (withPoint3 || i != 3)
            text += handLine(i, rows[i].mem, rows[i].nbop, rows[i].duration, rows[i].valid) + "\n";
    return text;
}

struct Run {
    int code = -1;
    QString out, err;
};

Run cli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(CONVOFFLOAD_CLI), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError())};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

ExploreTarget fileTarget(const QString &path)
{
    ExploreTarget target;
    target.bytes = readTextFile(path.toStdString());
    target.network = loadNetwork(path.toStdString());
    target.name = path;
    return target;
}

} // namespace

class TestExploreGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ConvOffloadTests"));
        QSettings().clear();
        // The run id hashes the version, as the GUI's main sets it.
        QCoreApplication::setApplicationVersion(QStringLiteral(CONVOFFLOAD_VERSION));
    }

    void frontOfTheHandMadeFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("six.jsonl")).toStdString();
        writeTextFileAtomically(path, handFile());
        const ParetoPlot plot(readExploreFile(path));
        QCOMPARE(plot.points().size(), std::size_t(6));
        QCOMPARE(plot.front(), (std::vector<std::size_t>{0, 2, 5}));
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(plot.points()[i].front, i == 0 || i == 2 || i == 5);
        QCOMPARE(plot.series(), (std::vector<QString>{QStringLiteral("nbop_pe 256"), QStringLiteral("nbop_pe 1024")}));
        QVERIFY(plot.complete());
        QVERIFY(plot.title().contains(QLatin1String("(6 points)")));

        // Where they are drawn: memory on a log2 axis (each doubling the
        // same distance), a longer duration higher, equal durations level.
        const QRectF rect(0, 0, 640, 420);
        const ParetoPlot::Geometry g = plot.geometry(rect, QFont());
        const auto x = [&](int i) { return g.positions[std::size_t(i)].x(); };
        const auto y = [&](int i) { return g.positions[std::size_t(i)].y(); };
        QCOMPARE(x(0), x(1));
        QVERIFY(qAbs((x(2) - x(0)) - (x(4) - x(2))) < 1e-6);
        QVERIFY(x(2) > x(0));
        QCOMPARE(y(2), y(4));
        QVERIFY(y(0) < y(3) && y(3) < y(2) && y(2) < y(5)); // 900, 800, 700, 300 from the top
        for (const QPointF &p : g.positions)
            QVERIFY(g.plot.contains(p));
        // Every drawn item inside the figure.
        for (const QRectF &item : g.items)
            QVERIFY2(rect.contains(item),
                qPrintable(QStringLiteral("%1,%2 %3x%4").arg(item.x()).arg(item.y()).arg(item.width()).arg(item.height())));
        // The front's points annotated, no other; the series, the front, the
        // hollow points and the memory ticks named.
        QStringList texts;
        for (const PlacedText &t : g.texts)
            texts << t.text;
        for (const char *expected :
            {"1k \u00B7 256", "2k \u00B7 256", "4k \u00B7 1024", "nbop_pe 256", "nbop_pe 1024", "Pareto front", "1k", "2k", "4k"})
            QVERIFY2(texts.contains(QString::fromUtf8(expected)), expected);
        QVERIFY(!texts.contains(QString::fromUtf8("2k \u00B7 1024")));
        QVERIFY(!texts.contains(QString::fromUtf8("4k \u00B7 256")));
        QVERIFY(std::any_of(texts.begin(), texts.end(), [](const QString &t) { return t.startsWith(QLatin1String("hollow")); }));
        QVERIFY(texts.contains(plot.title()));
        // --no-title: a complete run draws no heading at all.
        ParetoPlot untitled = plot;
        untitled.setTitleShown(false);
        for (const PlacedText &t : untitled.geometry(rect, QFont()).texts)
            QVERIFY2(!t.text.contains(QLatin1String("points")), qPrintable(t.text));
        // A click near a marker finds its point.
        QCOMPARE(plot.pointAt(rect, QFont(), g.positions[5] + QPointF(2, 1), 6), 5);
        QCOMPARE(plot.pointAt(rect, QFont(), g.plot.topLeft() + QPointF(1, 1), 6), -1);
    }

    void anIncompleteFileSaysSo()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("five.jsonl")).toStdString();
        writeTextFileAtomically(path, handFile(false));
        const ParetoPlot plot(readExploreFile(path));
        QVERIFY2(plot.title().contains(QLatin1String("5 of 6 points")), qPrintable(plot.title()));
        QVERIFY(!plot.complete());
        // Without its title (--no-title) it still says so, on a line of its own.
        ParetoPlot untitled = plot;
        untitled.setTitleShown(false);
        QStringList texts;
        for (const PlacedText &t : untitled.geometry(QRectF(0, 0, 640, 420), QFont()).texts)
            texts << t.text;
        QVERIFY2(texts.contains(QStringLiteral("5 of 6 points (an incomplete run)")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(!texts.contains(plot.title()));
        // Without 3, the front is still 0, 2, 5 (3 was beaten): indices shift.
        QCOMPARE(plot.front(), (std::vector<std::size_t>{0, 2, 4}));
    }

    void presetsKeepTextAndItemsInside()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("six.jsonl")).toStdString();
        writeTextFileAtomically(path, handFile());
        const ParetoPlot plot(readExploreFile(path));
        for (const ExportPreset &preset : exportPresets()) {
            const QRectF rect(QPointF(0, 0), QSizeF(presetLayoutSize(preset)));
            const ParetoPlot::Geometry g = plot.geometry(rect, presetFont(preset));
            for (const PlacedText &t : g.texts)
                QVERIFY2(t.font.pointSizeF() >= kMinFigureTextPt, qPrintable(preset.name + QLatin1Char(' ') + t.text));
            for (const QRectF &item : g.items)
                QVERIFY2(rect.contains(item), qPrintable(preset.name));
            QVERIFY(!g.squeezed);
            QVERIFY(plot.fitsIn(rect, presetFont(preset)));
        }
        // A stamp-sized figure cannot hold it.
        QVERIFY(!plot.fitsIn(QRectF(0, 0, 200, 100), QFont()));
        const QSize grown = plot.sizeToFit(QSize(200, 100), QFont());
        QVERIFY(grown.width() > 200 && grown.height() > 100);
        QVERIFY(plot.fitsIn(QRectF(QPointF(0, 0), QSizeF(grown)), QFont()));
    }

    void cliExportsEveryFormat()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("six.jsonl"));
        writeTextFileAtomically(input.toStdString(), handFile());
        for (const char *ext : {"png", "svg", "pdf"}) {
            const QString out = dir.filePath(QStringLiteral("pareto.") + QLatin1String(ext));
            const Run r = cli({QStringLiteral("export"), input, QStringLiteral("--figure"), QStringLiteral("pareto"),
                QStringLiteral("--preset"), QStringLiteral("paper-column"), QStringLiteral("--out"), out});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QByteArray bytes = readAll(out);
            QVERIFY(bytes.size() > 100);
            if (QLatin1String(ext) == QLatin1String("png"))
                QVERIFY(bytes.startsWith("\x89PNG"));
            else if (QLatin1String(ext) == QLatin1String("pdf"))
                QVERIFY(bytes.startsWith("%PDF"));
            else
                for (const char *text : {"nbop_pe 256", "nbop_pe 1024", "Pareto front", ">1k<", ">2k<", ">4k<", "6 points"})
                    QVERIFY2(bytes.contains(text), text);
        }
        // Too small for what it draws: refused, with a size that fits, and nothing written.
        const Run small = cli({QStringLiteral("export"), input, QStringLiteral("--figure"), QStringLiteral("pareto"),
            QStringLiteral("--size"), QStringLiteral("200x100"), QStringLiteral("--out"), dir.filePath(QStringLiteral("s.png"))});
        QCOMPARE(small.code, 1);
        QVERIFY2(small.err.contains(QLatin1String("does not fit in 200x100")), qPrintable(small.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("s.png"))));
        // The wrong figure for an explore file, and the figure for a project.
        const Run wrong = cli({QStringLiteral("export"), input, QStringLiteral("--figure"), QStringLiteral("memory"),
            QStringLiteral("--out"), dir.filePath(QStringLiteral("x.png"))});
        QCOMPARE(wrong.code, 1);
        QVERIFY2(wrong.err.contains(QLatin1String("--figure pareto")), qPrintable(wrong.err));
        const Run project = cli({QStringLiteral("export"), sample("lenet5-conv1.json"), QStringLiteral("--figure"),
            QStringLiteral("pareto"), QStringLiteral("--out"), dir.filePath(QStringLiteral("y.png"))});
        QCOMPARE(project.code, 1);
        QVERIFY2(project.err.contains(QLatin1String("explore file")), qPrintable(project.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))) && !QFile::exists(dir.filePath(QStringLiteral("y.png"))));
    }

    void dialogSavesWhatTheCliWrites()
    {
        const QString net = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
        ExploreDialog dialog(fileTarget(net));
        dialog.field(ExploreDialog::MemSize)->setText(QStringLiteral("256..1k*2"));
        dialog.field(ExploreDialog::NbopPe)->setText(QStringLiteral("25,150"));
        dialog.field(ExploreDialog::TL)->setText(QStringLiteral("1,2"));
        QVERIFY2(dialog.pointCountText().startsWith(QLatin1String("12 design points")), qPrintable(dialog.pointCountText()));
        QSignalSpy finished(&dialog, &ExploreDialog::runFinished);
        QVERIFY(dialog.run());
        QVERIFY(finished.wait(120000));
        QCOMPARE(dialog.progress()->value(), 12);
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_EXPLORE")) { // a look at it, at 1280×720 or WxH
            const QStringList size
                = qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_SIZE", QStringLiteral("1280x720")).split(QLatin1Char('x'));
            dialog.resize(size.value(0).toInt(), size.value(1).toInt());
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_EXPLORE"));
        }
        QVERIFY(dialog.plot() && dialog.plot()->complete());
        {
            QTemporaryDir charts;
            const QString svg = charts.filePath(QStringLiteral("chart.svg"));
            QCOMPARE(dialog.saveChart(svg), QString());
            const QByteArray text = readAll(svg);
            for (const char *expected : {"Pareto front", "nbop_pe 150, t_l 2", "12 points", ">512<"})
                QVERIFY2(text.contains(expected), expected);
        }

        QTemporaryDir dir;
        const QString mine = dir.filePath(QStringLiteral("dialog.jsonl")), theirs = dir.filePath(QStringLiteral("cli.jsonl"));
        QCOMPARE(dialog.saveResults(mine), QString());
        const Run r = cli({QStringLiteral("explore"), net, QStringLiteral("--mem-size"), QStringLiteral("256..1k*2"),
            QStringLiteral("--nbop-pe"), QStringLiteral("25,150"), QStringLiteral("--t-l"), QStringLiteral("1,2"),
            QStringLiteral("--quiet"), QStringLiteral("--out"), theirs});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray cliBytes = readAll(theirs);
        QCOMPARE(cliBytes.count('\n'), 12);
        QCOMPARE(readAll(mine), cliBytes);
    }

    void fieldErrorsAndLiveCount()
    {
        ExploreDialog dialog(fileTarget(QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.json")));
        dialog.field(ExploreDialog::MemSize)->setText(QStringLiteral("1k,2k,4k"));
        dialog.field(ExploreDialog::NbopPe)->setText(QStringLiteral("256"));
        dialog.field(ExploreDialog::Layout)->setText(QStringLiteral("nchw,nhwc"));
        QVERIFY2(dialog.pointCountText().startsWith(QLatin1String("6 design points")), qPrintable(dialog.pointCountText()));
        dialog.field(ExploreDialog::Burst)->setText(QStringLiteral("0"));
        QVERIFY(dialog.fieldError(ExploreDialog::Burst).contains(QLatin1String("--burst")));
        QVERIFY(dialog.fieldError(ExploreDialog::MemSize).isEmpty());
        QVERIFY(!dialog.run());
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_EXPLORE_ERRORS")) {
            dialog.resize(1280, 720);
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            dialog.grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_EXPLORE_ERRORS"));
        }
        dialog.field(ExploreDialog::Burst)->setText(QStringLiteral("1,8"));
        QVERIFY(dialog.fieldError(ExploreDialog::Burst).isEmpty());
        QVERIFY2(dialog.pointCountText().startsWith(QLatin1String("12 design points")), qPrintable(dialog.pointCountText()));
    }

    void clickingAPointAppliesItsHardwareUndoably()
    {
        QTemporaryDir dir;
        const QString results = dir.filePath(QStringLiteral("six.jsonl"));
        writeTextFileAtomically(results.toStdString(), handFile());
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(sample("lenet5-conv1.json")));
        ProjectDocument *doc = window.document();
        const Hardware before = doc->problem().hardware;
        QCOMPARE(before.mem_size, std::int64_t(300)); // the sample's, as its file says
        QAction *explore = window.findChild<QAction *>(QStringLiteral("exploreAction"));
        QVERIFY(explore);
        QVERIFY(!explore->shortcut().isEmpty() && !explore->toolTip().isEmpty());
        explore->trigger();
        auto *dialog = window.findChild<ExploreDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->openResults(results), QString());
        dialog->resize(1100, 640);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        if (qEnvironmentVariableIsSet("CONVOFFLOAD_SCREENSHOT_EXPLORE_FILE")) {
            dialog->resize(1280, 720);
            QTest::qWait(50);
            dialog->grab().save(qEnvironmentVariable("CONVOFFLOAD_SCREENSHOT_EXPLORE_FILE"));
            dialog->resize(1100, 640);
            QTest::qWait(50);
        }
        ParetoPlotView *view = dialog->plotView();
        QCOMPARE(view->pointAt(view->positionOf(5)), 5);
        QTest::mouseClick(view, Qt::LeftButton, {}, view->positionOf(5).toPoint());
        QCOMPARE(doc->problem().hardware.mem_size, std::int64_t(4096));
        QCOMPARE(doc->problem().hardware.nbop_pe, std::int64_t(1024));
        QCOMPARE(doc->problem().hardware.t_l, 3.0);
        QCOMPARE(doc->problem().layer, loadProject(sample("lenet5-conv1.json").toStdString()).problem.layer);
        QVERIFY2(dialog->status()->text().contains(QLatin1String("4096")), qPrintable(dialog->status()->text()));
        // A second point is a second undo step.
        QTest::mouseClick(view, Qt::LeftButton, {}, view->positionOf(2).toPoint());
        QCOMPARE(doc->problem().hardware.mem_size, std::int64_t(2048));
        doc->undoStack()->undo();
        QCOMPARE(doc->problem().hardware.mem_size, std::int64_t(4096));
        doc->undoStack()->undo();
        QCOMPARE(doc->problem().hardware, before);
    }

    void exploringTheOpenNetwork()
    {
        // A network open in its dock, no layer open: the network is the
        // target, with the same run id as the CLI's on its file.
        const QString net = QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(net));
        window.findChild<QAction *>(QStringLiteral("exploreAction"))->trigger();
        auto *dialog = window.findChild<ExploreDialog *>();
        QVERIFY(dialog);
        QVERIFY2(dialog->windowTitle().contains(QLatin1String("lenet5")), qPrintable(dialog->windowTitle()));
        dialog->field(ExploreDialog::MemSize)->setText(QStringLiteral("1k,2k"));
        dialog->field(ExploreDialog::NbopPe)->setText(QStringLiteral("150"));
        QSignalSpy finished(dialog, &ExploreDialog::runFinished);
        QVERIFY(dialog->run());
        QVERIFY(finished.wait(120000));
        QTemporaryDir dir;
        const QString theirs = dir.filePath(QStringLiteral("cli.jsonl"));
        const Run r = cli({QStringLiteral("explore"), net, QStringLiteral("--mem-size"), QStringLiteral("1k,2k"),
            QStringLiteral("--nbop-pe"), QStringLiteral("150"), QStringLiteral("--quiet"), QStringLiteral("--out"), theirs});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(QByteArray::fromStdString(dialog->resultsText()), readAll(theirs));
        // A point goes to the network: the dock analyses it again with the
        // point's memory, and the network is modified (Save network keeps it).
        auto *panel = window.findChild<NetworkPanel *>();
        QVERIFY(panel && panel->network());
        const std::int64_t before = panel->network()->hardware.mem_size;
        const QString message = dialog->applyPoint(0);
        QVERIFY2(message.startsWith(QLatin1String("Applied mem_size 1024")), qPrintable(message)); // 1k
        QCOMPARE(panel->network()->hardware.mem_size, std::int64_t(1024));
        QVERIFY(before != 1024);
        QVERIFY(panel->isModified());
        QCOMPARE(panel->network()->hardware.nbop_pe, std::int64_t(150));
        QVERIFY2(dialog->applyPoint(0).startsWith(QLatin1String("The network already has")), qPrintable(dialog->applyPoint(0)));
        // Hardware the network cannot take is refused with the reason; the network keeps its own.
        Hardware broken = panel->network()->hardware;
        broken.mem_size = 0;
        const QString refused = panel->applyHardware(broken);
        QVERIFY2(refused.startsWith(QLatin1String("This hardware does not suit the network: "))
                && refused.contains(QLatin1String("mem_size")),
            qPrintable(refused));
        QCOMPARE(panel->network()->hardware.mem_size, std::int64_t(1024));
    }

    void exploringTheOpenLayerProject()
    {
        // No network open: the layer project is the target, a network of one
        // layer as the CLI reads the same file (named after it).
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(sample("lenet5-conv1.json")));
        window.findChild<QAction *>(QStringLiteral("exploreAction"))->trigger();
        auto *dialog = window.findChild<ExploreDialog *>();
        QVERIFY(dialog);
        dialog->field(ExploreDialog::MemSize)->setText(QStringLiteral("512,1k"));
        dialog->field(ExploreDialog::NbopPe)->setText(QStringLiteral("25,1200"));
        QSignalSpy finished(dialog, &ExploreDialog::runFinished);
        QVERIFY(dialog->run());
        QVERIFY(finished.wait(120000));
        QTemporaryDir dir;
        const QString theirs = dir.filePath(QStringLiteral("cli.jsonl"));
        const Run r = cli({QStringLiteral("explore"), sample("lenet5-conv1.json"), QStringLiteral("--mem-size"),
            QStringLiteral("512,1k"), QStringLiteral("--nbop-pe"), QStringLiteral("25,1200"), QStringLiteral("--quiet"),
            QStringLiteral("--out"), theirs});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readAll(theirs).count('\n'), 4);
        QCOMPARE(QByteArray::fromStdString(dialog->resultsText()), readAll(theirs));
    }

    void stopKeepsTheFinishedPoints()
    {
        // 64 points of ResNet-8, a tenth of a second or more each: Stop lands mid-run.
        ExploreDialog dialog(fileTarget(QStringLiteral(CONVOFFLOAD_SAMPLES "/networks/resnet8.json")));
        dialog.field(ExploreDialog::MemSize)->setText(QStringLiteral("4k..256k+4k"));
        dialog.field(ExploreDialog::NbopPe)->setText(QStringLiteral("1024"));
        QSignalSpy finished(&dialog, &ExploreDialog::runFinished);
        QVERIFY(dialog.run());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.progress()->value() >= 1, 120000);
        dialog.stop();
        QVERIFY(finished.wait(120000));
        const std::int64_t kept = std::int64_t(dialog.plot()->points().size());
        QVERIFY2(kept >= 1 && kept < 64, qPrintable(QString::number(kept)));
        QVERIFY2(dialog.status()->text().contains(QLatin1String("Stopped")), qPrintable(dialog.status()->text()));
        QVERIFY(dialog.plot()->title().contains(QStringLiteral("%1 of 64 points").arg(kept)));
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("stopped.jsonl"));
        QCOMPARE(dialog.saveResults(saved), QString());
        const std::vector<ExploreRecord> records = readExploreFile(saved.toStdString());
        QCOMPARE(std::int64_t(records.size()), kept);
        for (std::size_t i = 0; i < records.size(); ++i) {
            QCOMPARE(records[i].point, std::int64_t(i)); // in point order, none skipped
            QCOMPARE(records[i].points, std::int64_t(64));
        }
    }
};

QTEST_MAIN(TestExploreGui)
#include "tst_explore_gui.moc"
