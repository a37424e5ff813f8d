// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/OpenFileAndApply.h"

#include <QFileDialog>
#include <QMessageBox>

namespace convoffload::ui {

void openFileAndApply(QWidget *parent, const FileChoice &choice, const std::function<QString(const QString &)> &apply)
{
    const QString path = QFileDialog::getOpenFileName(parent, choice.caption, choice.folder, choice.filter);
    if (path.isEmpty())
        return;
    const QString error = apply(path);
    if (!error.isEmpty())
        QMessageBox::warning(parent, choice.errorTitle, error);
}

} // namespace convoffload::ui
