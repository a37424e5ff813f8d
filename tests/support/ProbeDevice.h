// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the test paint devices (TextProbe, DrawingProbe) share: a device of
// `size` pixels at `dpi` (the resolution fonts in points are converted at:
// 96 for the figure writers) that a painter measures as it measures an image.

#include <QPaintDevice>
#include <QRectF>
#include <QSize>

#include <climits>

class ProbeDevice : public QPaintDevice {
public:
    QRectF rect() const { return QRectF(QPointF(0, 0), QSizeF(m_size)); }
    int dpi() const { return m_dpi; }

protected:
    ProbeDevice(QSize size, int dpi)
        : m_size(size)
        , m_dpi(dpi)
    {
    }

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
    QSize m_size;
    int m_dpi;
};
