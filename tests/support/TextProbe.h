// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A paint device for tests that draws nothing and records every text run a
// painter draws on it: the text, its size in device pixels (font size times
// the painter's scale) and its box in device coordinates. Figures, charts and
// QSvgRenderer all paint through it as they paint on an image or a writer,
// so a test can check text sizes and positions of any drawing.

#include <QFontMetricsF>
#include <QList>
#include "ProbeDevice.h"

#include <QPaintDevice>
#include <QPaintEngine>
#include <QRectF>
#include <QString>
#include <QTextItem>
#include <QTransform>

#include <cmath>

struct ProbedText {
    QString text;
    double pixelSize = 0; // the font's size in device pixels, as Qt draws it
    QRectF box; // device coordinates: advance × (ascent + descent)
};

class TextProbe : public ProbeDevice {
public:
    /// A device of `size` pixels at `dpi` (the resolution fonts in points are
    /// converted at: 96 for the figure writers).
    TextProbe(QSize size, int dpi = 96)
        : ProbeDevice(size, dpi)
        , m_engine(this)
    {
    }
    QPaintEngine *paintEngine() const override { return const_cast<Engine *>(&m_engine); }
    const QList<ProbedText> &texts() const { return m_texts; }

private:
    class Engine : public QPaintEngine {
    public:
        explicit Engine(TextProbe *probe)
            : QPaintEngine(QPaintEngine::AllFeatures)
            , m_probe(probe)
        {
        }
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &) override { }
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override { }
        void drawImage(const QRectF &, const QImage &, const QRectF &, Qt::ImageConversionFlags) override { }
        void drawPath(const QPainterPath &) override { }
        void drawPolygon(const QPointF *, int, PolygonDrawMode) override { }
        void drawTextItem(const QPointF &p, const QTextItem &item) override
        {
            const QTransform t = state->transform();
            const double scale = std::sqrt(std::abs(t.determinant()));
            const QFont font = item.font();
            // Qt draws a font at whole pixels of the device (QFontPrivate
            // rounds a size in points to the nearest pixel).
            const double size = font.pixelSize() > 0 ? font.pixelSize() : std::round(font.pointSizeF() * m_probe->dpi() / 72.0);
            const QRectF local(p.x(), p.y() - item.ascent(), item.width(), item.ascent() + item.descent());
            m_probe->m_texts.append({item.text(), size * scale, t.mapRect(local)});
        }
        Type type() const override { return QPaintEngine::User; }

    private:
        TextProbe *m_probe;
    };

    Engine m_engine;
    QList<ProbedText> m_texts;
};
