// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the painted plots (ComparisonPlot, NetworkPlot) share: the texts they
// place, kept with their rectangles (so tests can check that each fits) and
// drawn when there is a painter; numbers as the plots print them; the height
// of wrapped text and its widest word; the text a view shows without a plot.
#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
class QPalette;
QT_END_NAMESPACE

namespace convoffload::ui {

/// A text of a painted figure and where it is drawn.
struct PlacedText {
    QString text;
    QRectF rect;
    QFont font;
    int flags = 0; // Qt::AlignmentFlag | Qt::TextFlag, as given to drawText
};

class TextPlacer {
public:
    /// nullptr: lay out only (what texts() is for).
    explicit TextPlacer(QPainter *painter)
        : m_painter(painter)
    {
    }
    void place(const QString &text, const QRectF &rect, const QFont &font, int flags, const QColor &colour = Qt::black);
    void operator()(const QString &text, const QRectF &rect, const QFont &font, int flags, const QColor &colour = Qt::black)
    {
        place(text, rect, font, flags, colour);
    }
    const std::vector<PlacedText> &texts() const { return m_texts; }
    QPainter *painter() const { return m_painter; }

private:
    QPainter *m_painter;
    std::vector<PlacedText> m_texts;
};

/// The fonts and spacing of a painted plot, all from its base font.
struct PlotFonts {
    explicit PlotFonts(const QFont &base);
    QFont font, bold, title; // title: bold, 10 % larger
    QFontMetricsF fm, fmBold;
    double line; // the base font's line height
    double pad; // half a line, rounded
};

/// An integer without decimals, anything else to 6 significant digits.
QString plotNumber(double v);
/// The height `text` takes wrapped at `width`.
double wrappedTextHeight(const QFont &font, double width, const QString &text);
/// The widest word of `text`: a wrapped text needs at least that.
double widestWord(const QFont &font, const QString &text);
/// A view's message in place of its plot, on white.
void paintPlotPlaceholder(QPainter &painter, const QRect &rect, const QPalette &palette, const QString &text);

} // namespace convoffload::ui
