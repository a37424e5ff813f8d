// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main window's docks by title, as the command line names them
// (`convoffload --dock TITLE`): the titles the user sees, without the
// mnemonic '&', compared regardless of case.

#include <QStringList>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMainWindow;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Every dock's title, alphabetically.
QStringList dockTitles(const QMainWindow &window);

/// The dock titled `title` (case and '&' ignored), or nullptr.
QDockWidget *dockTitled(const QMainWindow &window, const QString &title);

} // namespace convoffload::ui
