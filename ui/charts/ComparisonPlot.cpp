// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/ComparisonPlot.h"

#include "charts/ChartFactory.h"
#include "render/Palette.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <optional>
#include <cmath>

namespace convoffload::ui {

namespace {

struct Quantity {
    QString heading;
    QColor colour;
    double (*value)(const CompareRow &);
};

/// The panels: duration, loaded input, (loaded kernels,) peak footprint.
const std::vector<Quantity> &quantities(bool withKernels)
{
    static const Quantity duration{
        QStringLiteral("total duration (cycles)"), Palette::kernels(), [](const CompareRow &r) { return r.total_duration; }};
    static const Quantity input{
        QStringLiteral("loaded input (elements)"), Palette::input(), [](const CompareRow &r) { return double(r.loaded_input); }};
    static const Quantity kernels{QStringLiteral("loaded kernels (elements)"), Palette::kernelLoads(),
        [](const CompareRow &r) { return double(r.loaded_kernels); }};
    static const Quantity peak{QStringLiteral("peak footprint (elements)"), Palette::outputs(),
        [](const CompareRow &r) { return double(r.peak_footprint); }};
    static const std::vector<Quantity> three{duration, input, peak}, four{duration, input, kernels, peak};
    return withKernels ? four : three;
}

bool drawable(const CompareRow &r) { return r.failure.empty(); }

/// Whether the strategies load different amounts of kernels (some stream
/// them): then a cheap input load can cost kernel reloads, and the loaded
/// kernels get their own panel.
bool kernelLoadsDiffer(const std::vector<CompareRow> &rows)
{
    std::optional<std::int64_t> first;
    for (const CompareRow &r : rows)
        if (drawable(r)) {
            if (first && *first != r.loaded_kernels)
                return true;
            first = r.loaded_kernels;
        }
    return false;
}

} // namespace

ComparisonPlot::ComparisonPlot(std::vector<CompareRow> rows)
    : m_rows(std::move(rows))
    , m_best(bestRow(m_rows))
    , m_kernelPanel(kernelLoadsDiffer(m_rows))
{
}

QString ComparisonPlot::title() const
{
    if (m_best < 0)
        return QStringLiteral("Strategies compared: no valid strategy");
    const CompareRow &b = m_rows[std::size_t(m_best)];
    return QStringLiteral("Strategies compared: best %1 (%2 cycles)")
        .arg(QString::fromStdString(b.name), plotNumber(b.total_duration));
}

void ComparisonPlot::paint(QPainter &painter, const QRectF &rect, const QFont &font) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect, Qt::white);
    layOut(&painter, rect, font);
    painter.restore();
}

std::vector<PlacedText> ComparisonPlot::texts(const QRectF &rect, const QFont &font) const { return layOut(nullptr, rect, font); }

std::vector<PlacedText> ComparisonPlot::layOut(QPainter *painter, const QRectF &rect, const QFont &font) const
{
    // Measure, then centre what is used in the height (a short list of
    // strategies on a tall canvas would leave the bottom empty).
    const std::vector<PlacedText> measured = layOutFrom(nullptr, rect, font, 0.0);
    double bottom = rect.top();
    for (const PlacedText &t : measured)
        bottom = std::max(bottom, t.rect.bottom());
    const double pad = std::round(QFontMetricsF(font).height() * 0.5);
    const double offset = std::max(0.0, std::floor((rect.bottom() - pad - bottom) / 2));
    return offset > 0 || painter ? layOutFrom(painter, rect, font, offset) : measured;
}

std::vector<PlacedText> ComparisonPlot::layOutFrom(QPainter *painter, const QRectF &rect, const QFont &font, double offset) const
{
    TextPlacer text(painter);
    const std::vector<Quantity> &panels = quantities(m_kernelPanel);
    const int quantityCount = int(panels.size());
    const PlotFonts fonts(font);
    const QFont &bold = fonts.bold, &titleFont = fonts.title;
    const QFontMetricsF &fm = fonts.fm, &fmBold = fonts.fmBold;
    const double line = fonts.line, pad = fonts.pad;
    const QRectF area = rect.adjusted(pad, pad, -pad, -pad);
    double y = area.top() + offset;

    // Title: what, then the best strategy.
    const QString titleLines[] = {QStringLiteral("Strategies compared"),
        m_best < 0 ? QStringLiteral("no valid strategy")
                   : QStringLiteral("best: %1 (%2 cycles)")
                         .arg(QString::fromStdString(m_rows[std::size_t(m_best)].name),
                             plotNumber(m_rows[std::size_t(m_best)].total_duration))};
    if (m_titleShown) {
        for (const QString &t : titleLines) {
            const double h = wrappedTextHeight(titleFont, area.width(), t);
            text(t, QRectF(area.left(), y, area.width(), h), titleFont, Qt::AlignHCenter | Qt::TextWordWrap);
            y += h;
        }
        y += pad;
    }

    // The strategies' labels, marks included.
    const int count = int(m_rows.size());
    QStringList labels;
    double nameWidth = 0;
    for (int i = 0; i < count; ++i) {
        const CompareRow &r = m_rows[std::size_t(i)];
        QString label = QString::fromStdString(r.name);
        if (i == m_best)
            label = QStringLiteral("★ ") + label;
        if (!drawable(r))
            label += QStringLiteral(" ✗ failed");
        else if (!r.valid)
            label += QStringLiteral(" ✗ invalid");
        labels << label;
        nameWidth = std::max(nameWidth, fmBold.horizontalAdvance(label));
    }
    double valueWidth = fmBold.horizontalAdvance(QStringLiteral("0"));
    for (const CompareRow &r : m_rows)
        for (const Quantity &q : panels)
            valueWidth = std::max(valueWidth, fmBold.horizontalAdvance(plotNumber(q.value(r))));
    const double gap = pad;
    // A bar at least as long as half a value: a column-wide figure keeps the
    // three panels side by side.
    const double minBar = std::max(valueWidth * 0.6, line * 1.5);
    // Names take what they need up to 40 % of the width (they wrap past it).
    double wordLimit = 0;
    for (const QString &l : labels)
        wordLimit = std::max(wordLimit, widestWord(bold, l));
    const double preferredNameWidth = std::max(std::min(nameWidth, area.width() * 0.4), wordLimit);

    bool anyFaded = false;
    for (const CompareRow &r : m_rows)
        anyFaded = anyFaded || !r.valid || !drawable(r);
    const QString note = QStringLiteral("Lower is better. Bold: the best value of each quantity.")
        + (anyFaded ? QStringLiteral(" Faded: invalid on this hardware.") : QString());
    const double noteHeight = wrappedTextHeight(font, area.width(), note);

    // An arrangement of the panels: side by side or one above the other,
    // with names in `names` pixels; the height it needs with the shortest rows.
    struct Arrangement {
        double nameWidth = 0, panelWidth = 0, headingHeight = 0, height = 0;
        bool sideBySide = false;
        bool fitsAcross = false; // each panel has room for a value and a bar
        double rowPad = 0.3, minRow = 1.15; // in lines: a tight arrangement has less air between rows
    };
    const auto arrange = [&](double names, bool side, bool tight = false) {
        Arrangement a;
        a.nameWidth = names;
        a.sideBySide = side;
        if (tight) {
            a.rowPad = 0.1;
            a.minRow = 1.0;
        }
        const double across = (area.width() - names - gap) / quantityCount - gap;
        a.panelWidth = side ? across : area.width() - names - 2 * gap;
        a.fitsAcross = a.panelWidth >= valueWidth + gap + minBar;
        for (const Quantity &q : panels)
            a.headingHeight = std::max(a.headingHeight, wrappedTextHeight(bold, a.panelWidth, q.heading));
        double rows = 0;
        for (const QString &l : labels)
            rows += std::max(line * a.minRow, wrappedTextHeight(bold, names, l) + line * a.rowPad);
        const int bandCount = side ? 1 : quantityCount;
        a.height = bandCount * (a.headingHeight + line * 0.3 + rows + pad) + noteHeight;
        return a;
    };
    // Side by side when they fit and the figure is wider than tall; one above
    // the other in a tall dock. Whatever does not fit the height gives way:
    // stacked panels taller than a column-wide figure fell off its page
    // (the last panel outside the view box), so then the names wrap to their
    // widest word and the panels go side by side, with less air between the
    // rows if need be, or the shortest is taken.
    const double room = area.bottom() - y;
    const Arrangement across = arrange(preferredNameWidth, true);
    const Arrangement stacked = arrange(preferredNameWidth, false);
    const Arrangement narrow = arrange(wordLimit, true);
    const Arrangement tight = arrange(wordLimit, true, true);
    std::vector<Arrangement> choices;
    if (across.fitsAcross && area.width() > room)
        choices = {across, stacked, narrow, tight};
    else
        choices = {stacked, across, narrow, tight};
    std::optional<Arrangement> chosen;
    for (const Arrangement &a : choices)
        if ((a.fitsAcross || !a.sideBySide) && a.height <= room) {
            chosen = a;
            break;
        }
    if (!chosen) // nothing fits: the shortest
        for (const Arrangement &a : choices)
            if ((a.fitsAcross || !a.sideBySide) && (!chosen || a.height < chosen->height))
                chosen = a;
    nameWidth = chosen->nameWidth;
    const bool sideBySide = chosen->sideBySide;
    const int columns = sideBySide ? quantityCount : 1;
    const double panelWidth = chosen->panelWidth;
    const int bands = quantityCount / columns; // panels stacked
    const double headingHeight = chosen->headingHeight;
    // Rows grow (up to 3.2 lines) to fill the height the figure is given
    const double spare = room - noteHeight - bands * (headingHeight + line * 0.3 + pad);
    // (down to a line and a bit when the figure is short).
    // Rows whose names wrap need more than an even share: the others give
    // it up, or the rows ran past the figure's bottom.
    std::vector<double> needs;
    for (const QString &l : labels)
        needs.push_back(wrappedTextHeight(bold, nameWidth, l) + line * chosen->rowPad);
    const double least = line * chosen->minRow;
    double rowHeight = std::clamp(spare / std::max(1, count * bands), least, line * 3.2);
    for (int round = 0; round < 8 && rowHeight > least; ++round) {
        double used = 0;
        int even = 0; // rows at rowHeight
        for (double n : needs) {
            used += std::max(rowHeight, n) * bands;
            even += n <= rowHeight ? bands : 0;
        }
        if (used <= spare + 1e-9 || even == 0)
            break;
        rowHeight = std::max(least, rowHeight - (used - spare) / even);
    }
    std::vector<double> rowHeights;
    for (double n : needs)
        rowHeights.push_back(std::max(rowHeight, n));
    double rowsHeight = 0;
    for (double h : rowHeights)
        rowsHeight += h;

    for (int band = 0; band < bands; ++band) {
        const double top = y;
        const double rowsTop = top + headingHeight + line * 0.3;
        // Names, once per band.
        double rowY = rowsTop;
        for (int i = 0; i < count; ++i) {
            const QRectF cell(area.left(), rowY, nameWidth, rowHeights[std::size_t(i)]);
            const bool faded = !m_rows[std::size_t(i)].valid || !drawable(m_rows[std::size_t(i)]);
            text(labels[i], cell, i == m_best ? bold : font, Qt::AlignRight | Qt::AlignVCenter | Qt::TextWordWrap,
                faded ? QColor(0x70, 0x70, 0x70) : QColor(Qt::black));
            rowY += rowHeights[std::size_t(i)];
        }
        for (int column = 0; column < columns; ++column) {
            const Quantity &q = panels[std::size_t(band * columns + column)];
            const double left = area.left() + nameWidth + gap + column * (panelWidth + gap);
            text(q.heading, QRectF(left, top, panelWidth, headingHeight), bold,
                Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, q.colour.darker(150));
            double top_value = 0;
            double lowest = -1;
            for (const CompareRow &r : m_rows)
                if (drawable(r)) {
                    top_value = std::max(top_value, q.value(r));
                    if (r.valid && (lowest < 0 || q.value(r) < lowest))
                        lowest = q.value(r);
                }
            const double barSpace = panelWidth - valueWidth - gap * 0.5;
            if (painter) {
                painter->setPen(QPen(QColor(0x88, 0x88, 0x88), 1.0));
                painter->drawLine(QPointF(left, rowsTop), QPointF(left, rowsTop + rowsHeight));
            }
            rowY = rowsTop;
            for (int i = 0; i < count; ++i) {
                const CompareRow &r = m_rows[std::size_t(i)];
                const double h = rowHeights[std::size_t(i)];
                if (drawable(r)) {
                    const double v = q.value(r);
                    const double length = top_value > 0 ? barSpace * v / top_value : 0;
                    const QRectF bar(left, rowY + h * 0.2, length, h * 0.6);
                    if (painter) {
                        QColor fill = q.colour;
                        if (!r.valid)
                            fill.setAlpha(70);
                        painter->fillRect(bar, fill);
                    }
                    const bool best = r.valid && v == lowest;
                    const QString value = plotNumber(v);
                    const QFont &f = best ? bold : font;
                    text(value, QRectF(bar.right() + gap * 0.3, rowY, QFontMetricsF(f).horizontalAdvance(value) + 1, h), f,
                        Qt::AlignLeft | Qt::AlignVCenter);
                } else {
                    text(QStringLiteral("—"), QRectF(left + gap * 0.3, rowY, fm.horizontalAdvance(QStringLiteral("—")) + 1, h),
                        font, Qt::AlignLeft | Qt::AlignVCenter, QColor(0x70, 0x70, 0x70));
                }
                rowY += h;
            }
        }
        y = rowsTop + rowsHeight + pad;
    }
    text(
        note, QRectF(area.left(), y, area.width(), noteHeight), font, Qt::AlignLeft | Qt::TextWordWrap, QColor(0x44, 0x44, 0x44));
    return text.texts();
}

} // namespace convoffload::ui
