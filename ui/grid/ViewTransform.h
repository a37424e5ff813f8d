// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Zoom and pan of a 2-D scene shown in a widget, as plain arithmetic (no Qt
// widgets): widget = scene · scale + offset, with scale = baseScale · zoom.
// baseScale is the "fit" scale (the whole scene fits the viewport at zoom 1);
// zoom is what the user changes, clamped to [kMinZoom, kMaxZoom].

#include <QPointF>
#include <QRectF>
#include <QSizeF>

namespace convoffload::ui {

struct ViewTransform {
    static constexpr double kMinZoom = 0.25;
    static constexpr double kMaxZoom = 64.0;

    double baseScale = 1.0; // widget pixels per scene unit at zoom 1
    double zoom = 1.0; // user zoom, relative to baseScale
    QPointF offset; // widget position of the scene origin

    double scale() const { return baseScale * zoom; }
    static double clampZoom(double z);

    QPointF toWidget(const QPointF &scene) const { return scene * scale() + offset; }
    QPointF toScene(const QPointF &widget) const { return (widget - offset) / scale(); }
    QRectF toWidget(const QRectF &scene) const;
    QRectF toScene(const QRectF &widget) const;

    /// Sets zoom (clamped) keeping the scene point under `widgetPoint` where it is.
    void setZoomAbout(const QPointF &widgetPoint, double newZoom);
    /// Multiplies the zoom by `factor` (clamped) about `widgetPoint`.
    void zoomAbout(const QPointF &widgetPoint, double factor) { setZoomAbout(widgetPoint, zoom * factor); }
    /// Moves the scene by `widgetDelta` pixels.
    void pan(const QPointF &widgetDelta) { offset += widgetDelta; }

    /// zoom = 1 and the largest scale at which `sceneSize` fits `viewport`,
    /// centred. A degenerate scene or viewport leaves scale 1 and centres it.
    void fit(const QSizeF &sceneSize, const QRectF &viewport);
    /// The viewport changed size: recompute baseScale for it and keep the
    /// scene point that was at the old viewport's centre at the new centre.
    void refit(const QSizeF &sceneSize, const QRectF &oldViewport, const QRectF &newViewport);
    /// Pans back just enough that at least `minVisible` widget pixels of the
    /// scene (or all of it, when smaller) stay inside the viewport.
    void constrain(const QSizeF &sceneSize, const QRectF &viewport, double minVisible = 32.0);

    bool operator==(const ViewTransform &) const = default;
};

} // namespace convoffload::ui
