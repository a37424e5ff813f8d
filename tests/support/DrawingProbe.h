// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A paint device for tests that draws nothing and records the box of every
// primitive a painter draws on it (paths, polygons, lines, rectangles, text
// runs, images) in device coordinates, cut to the painter's clip. A figure
// painted through it shows whether anything falls outside the canvas, as an
// SVG's view box or a PDF's page would cut it (a bar half off the page, a
// panel below it), which its texts alone do not say.

#include <QList>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QTextItem>
#include <QTransform>

struct DrawnItem {
    QString what; // "path", "polygon", "text: …", "image"
    QRectF box; // device coordinates
};

class DrawingProbe : public QPaintDevice {
public:
    explicit DrawingProbe(QSize size, int dpi = 96)
        : m_size(size)
        , m_dpi(dpi)
        , m_engine(this)
    {
    }
    QPaintEngine *paintEngine() const override { return const_cast<Engine *>(&m_engine); }
    const QList<DrawnItem> &items() const { return m_items; }
    QRectF rect() const { return QRectF(QPointF(0, 0), QSizeF(m_size)); }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return qRound(m_size.width() * 25.4 / m_dpi);
        case PdmHeightMM:
            return qRound(m_size.height() * 25.4 / m_dpi);
        case PdmNumColors:
            return INT_MAX;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return m_dpi;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        }
        return 0;
    }

private:
    class Engine : public QPaintEngine {
    public:
        explicit Engine(DrawingProbe *probe)
            : QPaintEngine(QPaintEngine::AllFeatures)
            , m_probe(probe)
        {
        }
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &) override { }
        void drawPixmap(const QRectF &r, const QPixmap &, const QRectF &) override { record(QStringLiteral("image"), r); }
        void drawImage(const QRectF &r, const QImage &, const QRectF &, Qt::ImageConversionFlags) override
        {
            record(QStringLiteral("image"), r);
        }
        void drawPath(const QPainterPath &path) override { record(QStringLiteral("path"), path.boundingRect()); }
        void drawPolygon(const QPointF *points, int count, PolygonDrawMode) override
        {
            record(QStringLiteral("polygon"), QPolygonF(QList<QPointF>(points, points + count)).boundingRect());
        }
        void drawTextItem(const QPointF &p, const QTextItem &item) override
        {
            record(QStringLiteral("text: ") + item.text(),
                QRectF(p.x(), p.y() - item.ascent(), item.width(), item.ascent() + item.descent()));
        }
        Type type() const override { return QPaintEngine::User; }

    private:
        /// `local` in the painter's coordinates; what the clip leaves of it.
        void record(const QString &what, const QRectF &local)
        {
            QRectF shown = local;
            if (painter() && painter()->hasClipping()) {
                const QRectF clip = painter()->clipBoundingRect();
                // A zero-width line or a text's box may be empty: cut by hand.
                shown = QRectF(QPointF(std::max(local.left(), clip.left()), std::max(local.top(), clip.top())),
                    QPointF(std::min(local.right(), clip.right()), std::min(local.bottom(), clip.bottom())));
                if (shown.left() > shown.right() || shown.top() > shown.bottom())
                    return; // clipped away
            }
            m_probe->m_items.append({what, state->transform().mapRect(shown)});
        }
        DrawingProbe *m_probe;
    };

    QSize m_size;
    int m_dpi;
    Engine m_engine;
    QList<DrawnItem> m_items;
};
