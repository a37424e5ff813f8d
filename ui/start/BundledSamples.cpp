// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "start/BundledSamples.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/TextFile.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <string>

// Resources of a static library must be registered by name, outside any namespace.
static void initSampleResources() { Q_INIT_RESOURCE(samples); }

namespace convoffload::ui {

namespace {

const QString kPrefix = QStringLiteral(":/samples");

QString describe(const QString &file)
{
    QFile f(kPrefix + QLatin1Char('/') + file);
    const QString name = QFileInfo(file).completeBaseName();
    if (!f.open(QIODevice::ReadOnly))
        return name;
    const QJsonObject layer = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("layer")).toObject();
    const auto v = [&](const char *key) { return layer.value(QLatin1String(key)).toInt(); };
    return QStringLiteral("%1\ninput %2×%3×%4, %5 kernels %6×%7")
        .arg(name)
        .arg(v("c_in"))
        .arg(v("h_in"))
        .arg(v("w_in"))
        .arg(v("n"))
        .arg(v("h_k"))
        .arg(v("w_k"));
}

} // namespace

QList<BundledSample> bundledSamples()
{
    initSampleResources();
    QList<BundledSample> samples;
    for (const QString &file : QDir(kPrefix).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        samples.append({file, describe(file)});
    return samples;
}

QString bundledSampleFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("samples"));
}

QString extractBundledSample(const QString &file, const QString &folder, QString *error)
{
    initSampleResources();
    const QString source = kPrefix + QLatin1Char('/') + file;
    const QString target = QDir(folder).filePath(file);
    const auto fail = [&](const QString &reason) {
        if (error)
            *error = QStringLiteral("Cannot open the sample %1: %2").arg(file, reason);
        return QString();
    };
    if (!QFile::exists(source))
        return fail(QStringLiteral("no such sample"));
    if (!QDir().mkpath(folder))
        return fail(QStringLiteral("cannot create the folder %1").arg(QDir::toNativeSeparators(folder)));
    QFile resource(source);
    if (!resource.open(QIODevice::ReadOnly))
        return fail(resource.errorString());
    const QByteArray bytes = resource.readAll();
    // Written as every save is (docs/user/bad-input.md, "Saves never damage a
    // file"): a link in the folder is followed only where the kernel would,
    // and an earlier copy is replaced whole or not at all.
    try {
        writeTextFileAtomically(
            QFile::encodeName(target).toStdString(), std::string(bytes.constData(), std::size_t(bytes.size())));
    } catch (const FormatError &e) {
        return fail(
            QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(target), QString::fromStdString(e.reason)));
    }
    // An earlier copy made read-only keeps its mode: the copy must be
    // writable to be saved.
    QFile::setPermissions(target, QFile::permissions(target) | QFileDevice::WriteOwner | QFileDevice::ReadOwner);
    return target;
}

} // namespace convoffload::ui
