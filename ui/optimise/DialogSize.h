// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The size a dialog opens at: at least what its layout asks for (or a
// preferred size), a share of the screen on large screens so its charts
// grow with it, and never past the screen's available geometry.

#include <QRect>
#include <QSize>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace convoffload::ui {

/// `least` grown to `widthShare` × `heightShare` of `available`, then cut
/// to `available` less a margin for the window frame.
QSize dialogSizeFor(const QRect &available, const QSize &least, double widthShare, double heightShare);

/// Resizes `dialog` with dialogSizeFor on the screen of its parent (or the
/// primary screen): `least` is enlarged to the dialog's size hint.
void fitDialogToScreen(QWidget *dialog, const QSize &least, double widthShare, double heightShare);

} // namespace convoffload::ui
