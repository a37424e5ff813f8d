// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sample projects compiled into the application (resources/samples.qrc),
// so the start page offers them after installation as well as in the build
// tree. A sample opens from a copy in the user's data folder: the project
// loader reads files, and the user may edit and save it like any project.

#include <QString>
#include <QStringList>

namespace convoffload::ui {

struct BundledSample {
    QString file; // "lenet5-conv1.json"
    QString label; // "lenet5-conv1\ninput 1×32×32, 6 kernels 5×5" (two lines)
};

/// Every bundled sample, by file name.
QList<BundledSample> bundledSamples();

/// Copies the bundled sample `file` into `folder` (created if needed; an
/// existing copy is replaced) and returns the copy's path; on failure an empty
/// path and `error` names the file and the reason.
QString extractBundledSample(const QString &file, const QString &folder, QString *error);

/// Where samples are copied to open them: the user's data folder.
QString bundledSampleFolder();

} // namespace convoffload::ui
