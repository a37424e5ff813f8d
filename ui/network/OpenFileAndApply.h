// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The network views' "Browse…" / "Open…": ask for a file, hand it to
// `apply`, and show the error `apply` returns (if any) in a warning titled
// `errorTitle`. Nothing happens when the user cancels the file dialog.
#include <QString>

#include <functional>

class QWidget;

namespace convoffload::ui {

struct FileChoice {
    QString caption; // of the file dialog
    QString folder; // where it starts; empty: the current folder
    QString filter; // e.g. "ONNX models (*.onnx);;All files (*)"
    QString errorTitle; // of the warning
};

void openFileAndApply(QWidget *parent, const FileChoice &choice, const std::function<QString(const QString &)> &apply);

} // namespace convoffload::ui
