// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Help menu: the guide (F1), the keyboard shortcuts (made from the menu
// bar when shown) and the About box naming the paper and the version.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QMainWindow;
class QMenu;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Adds Guide, Keyboard Shortcuts and About to `menu`; the dialogs belong to `window`.
void fillHelpMenu(QMenu *menu, QMainWindow *window);

/// Shows the guide (non-modal, one at a time per window).
void showGuide(QMainWindow *window);

} // namespace convoffload::ui
