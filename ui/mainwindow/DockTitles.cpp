// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "mainwindow/DockTitles.h"

#include <QDockWidget>
#include <QMainWindow>

namespace convoffload::ui {

namespace {

QString plainTitle(const QDockWidget &dock) { return dock.windowTitle().remove(QLatin1Char('&')); }

} // namespace

QStringList dockTitles(const QMainWindow &window)
{
    QStringList titles;
    for (const QDockWidget *d : window.findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
        titles << plainTitle(*d);
    titles.sort(Qt::CaseInsensitive);
    return titles;
}

QDockWidget *dockTitled(const QMainWindow &window, const QString &title)
{
    for (QDockWidget *d : window.findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
        if (plainTitle(*d).compare(title.trimmed(), Qt::CaseInsensitive) == 0)
            return d;
    return nullptr;
}

} // namespace convoffload::ui
