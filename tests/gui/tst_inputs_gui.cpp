// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The GUI's open paths that a test can call without a file dialog
// (docs/user/bad-input.md): each, fed a FIFO without a writer, /dev/zero, a
// directory or a missing file, returns at once a message naming the path and
// the reason, through the one check every reader uses (checkReadableFile).
// A hang would block the suite: each call is timed and the FIFO has no writer.

#include "document/ProjectDocument.h"
#include "explore/ExploreDialog.h"
#include "network/NetworkImportDialog.h"
#include "network/NetworkPanel.h"
#include "panels/StrategyPanel.h"

#include "convoffload/io/ProjectFile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

#include <sys/stat.h>

using namespace convoffload;
using namespace convoffload::ui;

class TestInputsGui : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(::mkfifo(m_dir.filePath(QStringLiteral("fifo")).toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("folder")));
    }

    void openPathsNameThePath_data()
    {
        QTest::addColumn<QString>("opener");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        const QStringList openers{QStringLiteral("File > Open (project)"), QStringLiteral("Open network"),
            QStringLiteral("Import Network: model"), QStringLiteral("Import Network: hardware"),
            QStringLiteral("Import Strategy CSV"), QStringLiteral("Open exploration results")};
        const QList<QPair<QString, QString>> bads{{m_dir.filePath(QStringLiteral("fifo")), QStringLiteral("FIFO")},
            {QStringLiteral("/dev/zero"), QStringLiteral("character device")},
            {m_dir.filePath(QStringLiteral("folder")), QStringLiteral("directory")},
            {m_dir.filePath(QStringLiteral("missing")), QStringLiteral("No such file")}};
        for (const QString &opener : openers)
            for (const auto &[path, reason] : bads)
                QTest::addRow("%s, %s", qPrintable(opener), qPrintable(reason)) << opener << path << reason;
    }
    void openPathsNameThePath()
    {
        QFETCH(QString, opener);
        QFETCH(QString, path);
        QFETCH(QString, reason);
        ProjectDocument document;
        QVERIFY(document.load(QStringLiteral(CONVOFFLOAD_SAMPLES "/paper-example.json")).isEmpty());
        const QMap<QString, std::function<QString()>> open{
            {QStringLiteral("File > Open (project)"), [&] { return document.load(path); }},
            {QStringLiteral("Open network"), [&] { return NetworkPanel().openNetwork(path); }},
            {QStringLiteral("Import Network: model"),
                [&] {
                    NetworkImportDialog dialog;
                    dialog.setModel(path);
                    return dialog.waitForImport();
                }},
            {QStringLiteral("Import Network: hardware"), [&] { return NetworkImportDialog().setHardwareFile(path); }},
            {QStringLiteral("Import Strategy CSV"), [&] { return StrategyPanel(&document).importCsv(path); }},
            {QStringLiteral("Open exploration results"),
                [&] {
                    ExploreTarget target;
                    target.network = loadNetwork(CONVOFFLOAD_SAMPLES "/networks/lenet5.json");
                    return ExploreDialog(target).openResults(path);
                }},
        };
        QVERIFY(open.contains(opener));
        QElapsedTimer timer;
        timer.start();
        const QString error = open[opener]();
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
    }
};

QTEST_MAIN(TestInputsGui)
#include "tst_inputs_gui.moc"
