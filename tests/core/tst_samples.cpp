// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The shipped sample projects: they load, survive a save/load round trip,
// their memory really binds (the layer does not fit on chip), and every
// strategy agrees with the naive reference executor and passes the
// functional check.

#include "NaiveExecutor.h"
#include "TestPrinting.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace convoffload;

class TestSamples : public QObject {
    Q_OBJECT
private slots:
    void sample_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(CONVOFFLOAD_SAMPLES));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 8);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void sample()
    {
        QFETCH(QString, path);
        const Project project = loadProject(path.toStdString());
        const Problem &p = project.problem;
        QVERIFY(!project.strategies.empty());

        QTemporaryDir tmp;
        const std::string copy = tmp.filePath(QStringLiteral("copy.json")).toStdString();
        saveProject(project, copy);
        QVERIFY(loadProject(copy) == project);

        const std::int64_t layerElements
            = p.layer.pixelCount() * p.layer.c_in + p.layer.kernelElements() * p.layer.n + p.layer.outputCount();
        QVERIFY2(layerElements > p.hardware.mem_size, "the on-chip memory should not hold the whole layer");

        for (const StrategySpec &spec : project.strategies) {
            const QByteArray name = QByteArray::fromStdString(spec.name);
            const Groups groups = groupsOf(p, spec);
            const SimulationResult fast = simulate(p, expandS1(p, groups));
            QVERIFY2(fast.valid(), name);
            QVERIFY2(fast.peakFootprint() <= p.hardware.mem_size, name);
            QCOMPARE(fast.functional.status, FunctionalStatus::Pass);

            const naive::NaiveReport slow = naive::naiveExecute(p, naive::naiveExpandS1(p, groups));
            QVERIFY2(slow.valid(), name);
            QCOMPARE(fast.totalDuration(), slow.totalDuration());
            QCOMPARE(fast.loadedInput(), slow.loadedInput());
            QCOMPARE(fast.written(), slow.written());
            QCOMPARE(fast.peakFootprint(), slow.peakFootprint());
        }
    }
};

QTEST_GUILESS_MAIN(TestSamples)
#include "tst_samples.moc"
