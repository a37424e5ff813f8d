// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "start/HelpMenu.h"

#include "start/HelpDialog.h"
#include "start/HelpText.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace convoffload::ui {

namespace {

void showHelp(QMainWindow *window, const QString &name, const QString &title, const QString &html)
{
    auto *dialog = window->findChild<HelpDialog *>(name);
    if (!dialog) {
        dialog = new HelpDialog(title, html, window);
        dialog->setObjectName(name);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

} // namespace

void showGuide(QMainWindow *window)
{
    showHelp(window, QStringLiteral("guideDialog"), QObject::tr("ConvOffload Guide"), guideHtml());
}

void fillHelpMenu(QMenu *menu, QMainWindow *window)
{
    QAction *guide = menu->addAction(QObject::tr("&Guide"), window, [window] { showGuide(window); });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setObjectName(QStringLiteral("guideAction"));
    QAction *keys = menu->addAction(QObject::tr("&Keyboard Shortcuts"), window, [window] {
        // Built when shown: the menus hold every shortcut.
        delete window->findChild<HelpDialog *>(QStringLiteral("shortcutsDialog"));
        showHelp(window, QStringLiteral("shortcutsDialog"), QObject::tr("Keyboard Shortcuts"), shortcutsHtml(window->menuBar()));
    });
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F1));
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    menu->addSeparator();
    menu->addAction(QObject::tr("&About ConvOffload"), window, [window] {
        QMessageBox::about(window, QObject::tr("About ConvOffload"), aboutHtml(QApplication::applicationVersion()));
    });
}

} // namespace convoffload::ui
