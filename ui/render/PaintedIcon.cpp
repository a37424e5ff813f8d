#include "render/PaintedIcon.h"

#include <QPainter>

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

} // namespace convoffload::ui
