// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Icons and badges drawn in code (the findings list, the strategy list), so
// they scale with the screen and need no image files: a transparent square
// pixmap, antialiased, handed to a drawing function with its side in pixels.

#include <QIcon>
#include <QPixmap>

#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace convoffload::ui {

using IconDrawing = std::function<void(QPainter &painter, qreal side)>;

/// A `side` × `side` transparent pixmap drawn by `draw`.
QPixmap paintedPixmap(int side, const IconDrawing &draw);
/// The same drawing at 16, 32 and 64 px.
QIcon paintedIcon(const IconDrawing &draw);

/// The warning shape both lists use: an orange triangle, apex at `top` (a
/// fraction of the side), base near the bottom; the pen is left unset.
void drawWarningTriangle(QPainter &painter, qreal side, qreal top);

} // namespace convoffload::ui
