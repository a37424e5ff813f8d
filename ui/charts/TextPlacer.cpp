// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/TextPlacer.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

void TextPlacer::place(const QString &text, const QRectF &rect, const QFont &font, int flags, const QColor &colour)
{
    m_texts.push_back({text, rect, font, flags});
    if (m_painter) {
        m_painter->setFont(font);
        m_painter->setPen(colour);
        m_painter->drawText(rect, flags, text);
    }
}

namespace {

QFont boldOf(const QFont &font)
{
    QFont bold = font;
    bold.setBold(true);
    return bold;
}

QFont titleOf(const QFont &font)
{
    QFont title = boldOf(font);
    title.setPointSizeF(font.pointSizeF() * 1.1);
    return title;
}

} // namespace

PlotFonts::PlotFonts(const QFont &base)
    : font(base)
    , bold(boldOf(base))
    , title(titleOf(base))
    , fm(font)
    , fmBold(bold)
    , line(fm.height())
    , pad(std::round(line * 0.5))
{
}

QString plotNumber(double v)
{
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return QString::number(static_cast<qint64>(v));
    return QString::number(v, 'g', 6);
}

double wrappedTextHeight(const QFont &font, double width, const QString &text)
{
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
}

double widestWord(const QFont &font, const QString &text)
{
    const QFontMetricsF fm(font);
    double widest = 0;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        widest = std::max(widest, fm.horizontalAdvance(word));
    return widest;
}

void paintPlotPlaceholder(QPainter &painter, const QRect &rect, const QPalette &palette, const QString &text)
{
    painter.fillRect(rect, Qt::white);
    painter.setPen(palette.color(QPalette::PlaceholderText));
    painter.drawText(rect.adjusted(12, 12, -12, -12), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, text);
}

} // namespace convoffload::ui
