// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/GridLegend.h"

#include "render/CellMarks.h"
#include "render/GridRenderer.h"
#include "render/Palette.h"

#include <QLinearGradient>
#include <QPainter>
#include <QPen>

#include <algorithm>
#include <cmath>
#include <deque>

namespace convoffload::ui {

namespace {

struct LegendMetrics {
    double h, swatch, gapIn, spacing, lineHeight, bar;
    explicit LegendMetrics(const QFontMetricsF &fm)
        : h(fm.height())
        , swatch(std::round(fm.height() * 0.8))
        , gapIn(std::round(fm.height() * 0.3))
        , spacing(std::round(fm.height() * 1.1))
        , lineHeight(std::round(fm.height() * 1.4))
        , bar(std::round(fm.height() * 6))
    {
    }
};

double itemWidth(const QFontMetricsF &fm, const LegendMetrics &m, const LegendItem &item)
{
    switch (item.kind) {
    case LegendItem::Kind::Swatch:
    case LegendItem::Kind::Hatch:
    case LegendItem::Kind::Outline:
    case LegendItem::Kind::DashedOutline:
    case LegendItem::Kind::Marker:
    case LegendItem::Kind::Flag:
    case LegendItem::Kind::PartialFill:
    case LegendItem::Kind::Corner:
        return m.swatch + m.gapIn + fm.horizontalAdvance(item.label);
    case LegendItem::Kind::Gradient:
        return fm.horizontalAdvance(item.low) + m.gapIn + m.bar + m.gapIn + fm.horizontalAdvance(item.high)
            + (item.label.isEmpty() ? 0.0 : m.gapIn + fm.horizontalAdvance(item.label));
    case LegendItem::Kind::Text:
        return fm.horizontalAdvance(item.label);
    }
    return 0;
}

void paintItem(QPainter &p, const QFontMetricsF &fm, const LegendMetrics &m, const LegendItem &item, double x, const QRectF &line)
{
    const QRectF box(x, line.center().y() - m.swatch / 2, m.swatch, m.swatch);
    auto text = [&](double tx, const QString &s) {
        p.setPen(textColour());
        p.drawText(QRectF(tx, line.top(), fm.horizontalAdvance(s) + 2, line.height()), Qt::AlignLeft | Qt::AlignVCenter, s);
    };
    switch (item.kind) {
    case LegendItem::Kind::Swatch:
        p.fillRect(box, item.color);
        p.setPen(QPen(frameColour(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::Hatch:
        p.fillRect(box, item.color);
        p.fillRect(box, hatchBrush());
        p.setPen(QPen(frameColour(), 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::Outline:
        p.fillRect(box, Qt::white);
        p.setPen(QPen(item.color, 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box.adjusted(1, 1, -1, -1));
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::DashedOutline: { // as GridRenderer::paintDmaRuns draws it, in a loaded pixel
        p.fillRect(box, Palette::pixel(PixelState::Loaded));
        QPen pen(item.color, 2, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
        pen.setDashPattern({2.0, 1.0});
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(box.adjusted(1, 1, -1, -1));
        text(box.right() + m.gapIn, item.label);
        break;
    }
    case LegendItem::Kind::Marker:
        p.fillRect(box, Qt::white);
        p.setPen(QPen(frameColour(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        p.fillRect(GridRenderer::markerRect(box), item.color);
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::Flag:
        p.fillRect(box, Qt::white);
        paintFlag(p, box, item.color);
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::Corner:
        p.fillRect(box, Palette::output(OutputState::Done));
        p.setPen(QPen(frameColour(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        paintCorners(p, {box}, item.color);
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::PartialFill:
        // A cell half computed: the state colour from the bottom, pending above.
        p.fillRect(box, item.color);
        p.fillRect(QRectF(box.left(), box.top(), box.width(), box.height() / 2), Palette::output(OutputState::Pending));
        p.setPen(QPen(frameColour(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        text(box.right() + m.gapIn, item.label);
        break;
    case LegendItem::Kind::Gradient: {
        text(x, item.low);
        const double bx = x + fm.horizontalAdvance(item.low) + m.gapIn;
        const QRectF bar(bx, box.top(), m.bar, m.swatch);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        for (double t : {0.0, 0.5, 1.0})
            g.setColorAt(t, Palette::heat(t));
        p.fillRect(bar, g);
        p.setPen(QPen(frameColour(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(bar);
        text(bar.right() + m.gapIn, item.high);
        if (!item.label.isEmpty())
            text(bar.right() + m.gapIn + fm.horizontalAdvance(item.high) + m.gapIn, item.label);
        break;
    }
    case LegendItem::Kind::Text:
        text(x, item.label);
        break;
    }
}

// Lays the legend out in `rect` (only its width matters for measuring);
// paints when `painter` is set. Returns the height used.
double legendPass(QPainter *painter, const QFontMetricsF &fm, const QRectF &rect, const std::vector<LegendRow> &rows)
{
    const LegendMetrics m(fm);
    struct Line {
        const LegendRow *row;
        bool first;
        std::vector<std::pair<const LegendItem *, double>> items; // item, width
        double width;
        double indent = 0; // the rest of a wrapped entry starts under its text
    };
    std::vector<Line> lines;
    double captionWidth = 0; // captions share a column so items line up
    for (const LegendRow &row : rows)
        if (!row.caption.isEmpty())
            captionWidth = std::max(captionWidth, fm.horizontalAdvance(row.caption) + m.gapIn);
    // An entry wider than the legend wraps at its spaces: its swatch and the
    // first words, then the rest in text-only pieces on the next lines.
    std::deque<LegendItem> pieces;
    const double room = rect.width() - captionWidth;
    const auto split = [&](const LegendItem &item) {
        std::vector<const LegendItem *> parts{&item};
        if (item.kind == LegendItem::Kind::Gradient || itemWidth(fm, m, item) <= room)
            return parts;
        const QStringList words = item.label.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        parts.clear();
        LegendItem piece = item;
        piece.label.clear();
        for (const QString &word : words) {
            LegendItem longer = piece;
            longer.label += (longer.label.isEmpty() ? QString() : QStringLiteral(" ")) + word;
            if (!piece.label.isEmpty() && itemWidth(fm, m, longer) > room) {
                parts.push_back(&pieces.emplace_back(piece));
                piece = LegendItem{LegendItem::Kind::Text, {}, word, {}, {}};
            } else {
                piece = longer;
            }
        }
        parts.push_back(&pieces.emplace_back(piece));
        return parts;
    };
    for (const LegendRow &row : rows) {
        Line line{&row, true, {}, captionWidth};
        std::vector<const LegendItem *> items;
        for (const LegendItem &entry : row.items)
            for (const LegendItem *part : split(entry))
                items.push_back(part);
        for (const LegendItem *part : items) {
            const LegendItem &item = *part;
            const bool continuation = item.kind == LegendItem::Kind::Text
                && std::none_of(row.items.begin(), row.items.end(), [part](const LegendItem &i) { return &i == part; });
            const double w = itemWidth(fm, m, item);
            if (continuation) {
                // A wrapped entry goes on under its words, past the swatch,
                // on a line of its own.
                if (!line.items.empty())
                    lines.push_back(std::move(line));
                line = Line{&row, false, {}, captionWidth + m.swatch + m.gapIn, m.swatch + m.gapIn};
                line.width += w;
                line.items.emplace_back(&item, w);
                lines.push_back(std::move(line));
                line = Line{&row, false, {}, captionWidth};
                continue;
            }
            if (!line.items.empty() && line.width + m.spacing + w > rect.width()) {
                lines.push_back(std::move(line));
                line = Line{&row, false, {}, captionWidth};
            }
            line.width += (line.items.empty() ? 0.0 : m.spacing) + w;
            line.items.emplace_back(&item, w);
        }
        if (!line.items.empty() || line.first)
            lines.push_back(std::move(line));
    }
    double widest = 0;
    for (const Line &line : lines)
        widest = std::max(widest, line.width);
    if (painter) {
        const double left = rect.left() + std::max(0.0, (rect.width() - widest) / 2);
        double y = rect.top();
        for (const Line &line : lines) {
            const QRectF lineRect(left, y, widest, m.lineHeight);
            if (line.first && !line.row->caption.isEmpty()) {
                painter->setPen(textColour());
                painter->drawText(
                    QRectF(left, y, captionWidth, m.lineHeight), Qt::AlignLeft | Qt::AlignVCenter, line.row->caption);
            }
            double x = left + captionWidth + line.indent;
            for (const auto &[item, w] : line.items) {
                paintItem(*painter, fm, m, *item, x, lineRect);
                x += w + m.spacing;
            }
            y += m.lineHeight;
        }
    }
    return double(lines.size()) * m.lineHeight;
}

} // namespace

double GridLegend::height(const QFontMetricsF &metrics, double width, const std::vector<LegendRow> &rows)
{
    return legendPass(nullptr, metrics, QRectF(0, 0, width, 0), rows);
}

void GridLegend::paint(QPainter &painter, const QRectF &rect, const std::vector<LegendRow> &rows)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    legendPass(&painter, QFontMetricsF(painter.font(), painter.device()), rect, rows);
    painter.restore();
}

} // namespace convoffload::ui
