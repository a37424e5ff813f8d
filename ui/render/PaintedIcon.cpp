// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/PaintedIcon.h"

#include "render/Palette.h"

#include <QPainter>
#include <QPainterPath>

namespace convoffload::ui {

QPixmap paintedPixmap(int side, const IconDrawing &draw)
{
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    draw(painter, qreal(side));
    painter.end();
    return pixmap;
}

QIcon paintedIcon(const IconDrawing &draw)
{
    QIcon icon;
    for (int side : {16, 32, 64})
        icon.addPixmap(paintedPixmap(side, draw));
    return icon;
}

void drawWarningTriangle(QPainter &painter, qreal side, qreal top)
{
    QPainterPath triangle;
    triangle.moveTo(side * 0.5, side * top);
    triangle.lineTo(side * 0.97, side * 0.92);
    triangle.lineTo(side * 0.03, side * 0.92);
    triangle.closeSubpath();
    painter.setPen(Qt::NoPen);
    painter.setBrush(Palette::load()); // orange
    painter.drawPath(triangle);
}

} // namespace convoffload::ui
