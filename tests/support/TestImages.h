#pragma once
// Checks on rendered figures shared by the GUI and export tests.

#include <QImage>

#include <set>

/// Colours seen on a grid of sample points, `stride` pixels apart: a figure
/// that drew something has more than a handful.
inline int distinctColours(const QImage &image, int stride = 3)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += stride)
        for (int x = 0; x < image.width(); x += stride)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}
