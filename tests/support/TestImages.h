// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks on rendered figures shared by the GUI and export tests.

#include <QColor>
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

/// Pixels of exactly `colour`: how much of a figure a fill covers.
inline int countColour(const QImage &image, const QColor &colour)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += image.pixelColor(x, y) == colour;
    return count;
}
