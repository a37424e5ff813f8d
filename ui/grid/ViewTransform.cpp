// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "grid/ViewTransform.h"

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

double ViewTransform::clampZoom(double z)
{
    if (!std::isfinite(z))
        return 1.0;
    return std::clamp(z, kMinZoom, kMaxZoom);
}

QRectF ViewTransform::toWidget(const QRectF &scene) const { return QRectF(toWidget(scene.topLeft()), scene.size() * scale()); }

QRectF ViewTransform::toScene(const QRectF &widget) const { return QRectF(toScene(widget.topLeft()), widget.size() / scale()); }

void ViewTransform::setZoomAbout(const QPointF &widgetPoint, double newZoom)
{
    const QPointF anchor = toScene(widgetPoint);
    zoom = clampZoom(newZoom);
    // widgetPoint = anchor · scale + offset, solved for the offset.
    offset = widgetPoint - anchor * scale();
}

static double fitScale(const QSizeF &sceneSize, const QSizeF &viewport)
{
    if (sceneSize.width() <= 0 || sceneSize.height() <= 0 || viewport.width() <= 0 || viewport.height() <= 0)
        return 1.0;
    return std::min(viewport.width() / sceneSize.width(), viewport.height() / sceneSize.height());
}

void ViewTransform::fit(const QSizeF &sceneSize, const QRectF &viewport)
{
    baseScale = fitScale(sceneSize, viewport.size());
    zoom = 1.0;
    const QSizeF shown = sceneSize * scale();
    offset = viewport.center() - QPointF(shown.width() / 2, shown.height() / 2);
}

void ViewTransform::refit(const QSizeF &sceneSize, const QRectF &oldViewport, const QRectF &newViewport)
{
    const QPointF centre = toScene(oldViewport.center());
    baseScale = fitScale(sceneSize, newViewport.size());
    offset = newViewport.center() - centre * scale();
}

void ViewTransform::constrain(const QSizeF &sceneSize, const QRectF &viewport, double minVisible)
{
    const QRectF shown = toWidget(QRectF(QPointF(0, 0), sceneSize));
    const double needX = std::min({minVisible, shown.width(), viewport.width()});
    const double needY = std::min({minVisible, shown.height(), viewport.height()});
    // Keep shown.right() >= viewport.left() + needX and shown.left() <= viewport.right() - needX.
    if (shown.right() < viewport.left() + needX)
        offset.rx() += viewport.left() + needX - shown.right();
    else if (shown.left() > viewport.right() - needX)
        offset.rx() -= shown.left() - (viewport.right() - needX);
    if (shown.bottom() < viewport.top() + needY)
        offset.ry() += viewport.top() + needY - shown.bottom();
    else if (shown.top() > viewport.bottom() - needY)
        offset.ry() -= shown.top() - (viewport.bottom() - needY);
}

} // namespace convoffload::ui
