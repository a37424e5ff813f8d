// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Figures and reports are saved like projects (reliability issue, finding
// 12): a replaced file keeps its permission bits, a symbolic link is followed
// to its target and stays a link, and a failed save leaves the folder as it
// was. Every format the export writes (PNG, SVG, PDF, and text through
// exportText) is checked. Run as a user (not root), the 0444 rows are what
// QSaveFile failed: it refused to replace a read-only file.

#include "export/FigureExport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace convoffload::ui;

namespace {

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int modeOf(const QString &path)
{
    struct stat st { };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

QStringList entries(const QString &folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System | QDir::Hidden, QDir::Name);
}

/// Exports a figure filled with `colour` (or, for .csv, a line of text
/// naming it), so two saves give different bytes.
ExportResult save(const QString &path, const QColor &colour)
{
    if (path.endsWith(QLatin1String(".csv")))
        return exportText(QStringLiteral("colour\n%1\n").arg(colour.name()), path);
    const PaintFunction paint = [colour](QPainter &painter, const QRectF &r) { painter.fillRect(r, colour); };
    return exportFigure(paint, QSize(40, 30), path, QStringLiteral("t"));
}

/// The bytes each format starts with.
QByteArray signature(const QString &extension)
{
    if (extension == QLatin1String("png"))
        return QByteArray("\x89PNG");
    if (extension == QLatin1String("pdf"))
        return QByteArray("%PDF");
    if (extension == QLatin1String("svg"))
        return QByteArray("<?xml");
    return QByteArray("colour");
}

} // namespace

class TestFigureSaves : public QObject {
    Q_OBJECT

private slots:
    void keepPermissions_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::addColumn<int>("mode");
        for (const char *ext : {"png", "svg", "pdf", "csv"})
            for (const int mode : {0600, 0444, 0640}) {
                const QString name = QStringLiteral("%1 %2").arg(QLatin1String(ext)).arg(mode, 4, 8, QLatin1Char('0'));
                QTest::newRow(qPrintable(name)) << QString::fromLatin1(ext) << mode;
            }
    }
    void keepPermissions()
    {
        QFETCH(QString, extension);
        QFETCH(int, mode);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("figure.") + extension);
        QVERIFY(save(path, Qt::red).ok);
        const QByteArray first = contents(path);
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode_t(mode)), 0);

        const ExportResult result = save(path, Qt::blue);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(modeOf(path), mode);
        const QByteArray second = contents(path);
        QVERIFY(second.startsWith(signature(extension)));
        QVERIFY(second != first); // replaced, not left as it was
        QCOMPARE(entries(dir.path()), QStringList{QFileInfo(path).fileName()});
    }

    void followSymbolicLinks_data()
    {
        QTest::addColumn<QString>("extension");
        for (const char *ext : {"png", "svg", "pdf", "csv"})
            QTest::newRow(ext) << QString::fromLatin1(ext);
    }
    void followSymbolicLinks()
    {
        QFETCH(QString, extension);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
        const QString target = dir.filePath(QStringLiteral("real/figure.") + extension);
        const QString link = dir.filePath(QStringLiteral("link.") + extension);
        QVERIFY(save(target, Qt::red).ok);
        QCOMPARE(::chmod(QFile::encodeName(target).constData(), 0640), 0);
        // Relative: resolved against the link's own folder.
        QCOMPARE(::symlink(qPrintable(QStringLiteral("real/figure.") + extension), QFile::encodeName(link).constData()), 0);

        const ExportResult result = save(link, Qt::blue);
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(modeOf(target), 0640);
        QCOMPARE(contents(target), contents(link));
        QVERIFY(contents(target).startsWith(signature(extension)));
        // The blue save differs from a red one: the target was rewritten.
        const QString red = dir.filePath(QStringLiteral("red.") + extension);
        QVERIFY(save(red, Qt::red).ok);
        QVERIFY(contents(target) != contents(red));
        QVERIFY(QFile::remove(red));
        QCOMPARE(entries(dir.path()), (QStringList{QFileInfo(link).fileName(), QStringLiteral("real")}));
        QCOMPARE(entries(dir.filePath(QStringLiteral("real"))), QStringList{QFileInfo(target).fileName()});
    }

    // A link to a device: refused by name before anything is written, and
    // nothing is left beside the link or the file it should have replaced.
    void failedSaveLeavesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString link = dir.filePath(QStringLiteral("full.png"));
        QCOMPARE(::symlink("/dev/full", QFile::encodeName(link).constData()), 0);
        const ExportResult result = save(link, Qt::red);
        QVERIFY(!result.ok);
        QVERIFY2(result.error.contains(QDir::toNativeSeparators(link)), qPrintable(result.error));
        // As root the device itself is refused; as a user, already its folder.
        QVERIFY2(
            result.error.contains(QStringLiteral("not a file")) || result.error.contains(QStringLiteral("/dev” is not writable")),
            qPrintable(result.error));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("full.png")});
    }
};

QTEST_MAIN(TestFigureSaves)
#include "tst_figuresaves.moc"
