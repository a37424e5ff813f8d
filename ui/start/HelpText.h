// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The texts of the Help menu: the short guide, the keyboard shortcuts (made
// from the menus themselves, so they never disagree) and the About box.

#include <QtGlobal>

#include <QString>

QT_BEGIN_NAMESPACE
class QMenuBar;
QT_END_NAMESPACE

namespace convoffload::ui {

/// The paper the model comes from, as cited in About and the guide.
QString paperCitation();

/// The About box: name, version, what it does, the paper.
QString aboutHtml(const QString &version);

/// The guide: the model in two paragraphs, the colours, what to do first.
QString guideHtml();

/// Every menu action with a shortcut, menu by menu, and the keys of the grids.
QString shortcutsHtml(const QMenuBar *menuBar);

} // namespace convoffload::ui
