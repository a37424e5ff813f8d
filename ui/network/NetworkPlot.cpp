// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/NetworkPlot.h"

#include "charts/NiceScale.h"
#include "render/Palette.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

namespace {

struct Part {
    QString label;
    QColor colour;
    double LayerDurationSplit::*value;
};
const Part kParts[] = {
    {QStringLiteral("load input"), Palette::load(), &LayerDurationSplit::input_loads},
    {QStringLiteral("load kernels"), Palette::kernels(), &LayerDurationSplit::kernel_loads},
    {QStringLiteral("write back"), Palette::write(), &LayerDurationSplit::writes},
    {QStringLiteral("compute"), Palette::compute(), &LayerDurationSplit::compute},
};

const QColor kInvalidGrey(0x99, 0x99, 0x99);

/// "heuristic: ZigZag"; a name that starts with its family's says it once
/// ("kernel-blocked row-by-row kernels-outer B=2", "optimised (search)").
QString rowLabel(const NetworkPlotRow &row)
{
    if (!row.family)
        return QStringLiteral("no valid strategy");
    const QString family = QString::fromStdString(strategyFamilyName(*row.family));
    if (row.strategy.startsWith(family + QLatin1Char(' '), Qt::CaseInsensitive))
        return family + row.strategy.mid(family.size());
    return family + QStringLiteral(": ") + row.strategy;
}

} // namespace

LayerDurationSplit durationSplit(const LayerAnalysis &layer, const LayerCandidate *candidate)
{
    if (!candidate)
        return {};
    const Hardware &hw = layer.problem.hardware;
    LayerDurationSplit split;
    split.input_loads = double(candidate->row.loaded_input) * hw.t_l;
    split.kernel_loads = layer.problem.options.kernels_preloaded ? 0.0 : double(candidate->row.loaded_kernels) * hw.t_l;
    split.writes = double(candidate->row.written) * hw.t_w;
    split.compute = std::max(0.0, candidate->row.total_duration - split.input_loads - split.kernel_loads - split.writes);
    return split;
}

NetworkPlot::NetworkPlot(const NetworkAnalysis &analysis)
    : m_dominating(analysis.layers.size(), false)
    , m_total(analysis.total_duration)
    , m_withoutValid(analysis.layers_without_valid)
    , m_convolutions(analysis.convolutions())
{
    for (const std::size_t i : analysis.dominating)
        if (i < m_dominating.size())
            m_dominating[i] = true;
    for (std::size_t i = 0; i < analysis.layers.size(); ++i) {
        const LayerAnalysis &l = analysis.layers[i];
        m_names.push_back(QString::fromStdString(l.name));
        const LayerCandidate *best = l.bestCandidate();
        if (!best) {
            m_rows.push_back({i, std::nullopt, QString(), {}, false});
            continue;
        }
        for (const StrategyFamily family : kStrategyFamilies)
            if (const LayerCandidate *c = l.bestOf(family))
                m_rows.push_back({i, family, QString::fromStdString(c->spec.name), durationSplit(l, c),
                    c->row.total_duration == best->row.total_duration && strategyFamilyOf(best->spec.kind) == family});
    }
}

QString NetworkPlot::layerLabel(std::size_t layer) const
{
    const bool valid
        = std::any_of(m_rows.begin(), m_rows.end(), [&](const NetworkPlotRow &r) { return r.layer == layer && r.family; });
    if (!valid)
        return QStringLiteral("✖ ") + m_names[layer];
    return m_dominating[layer] ? QStringLiteral("★ ") + m_names[layer] : m_names[layer];
}

QString NetworkPlot::title() const
{
    QString t = QStringLiteral("Network: total %1 cycles over %2 layers").arg(plotNumber(m_total)).arg(m_names.size());
    // Skipped convolutions are not in the total: say how many the model has.
    if (m_convolutions > std::int64_t(m_names.size()))
        t += QStringLiteral(" (%1 of %2 convolutions)").arg(m_names.size()).arg(m_convolutions);
    return t;
}

double NetworkPlot::heightFor(double width, const QFont &font) const
{
    return std::ceil(layOut(nullptr, QRectF(0, 0, width, 1e6), font).bottom);
}

void NetworkPlot::paint(QPainter &painter, const QRectF &rect, const QFont &font) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect, Qt::white);
    layOut(&painter, rect, font);
    painter.restore();
}

std::vector<PlacedText> NetworkPlot::texts(const QRectF &rect, const QFont &font) const
{
    return layOut(nullptr, rect, font).texts;
}

int NetworkPlot::rowAt(const QRectF &rect, const QFont &font, QPointF point) const
{
    const Layout layout = layOut(nullptr, rect, font);
    for (std::size_t i = 0; i < layout.rows.size(); ++i)
        if (layout.rows[i].contains(point))
            return int(i);
    return -1;
}

NetworkPlot::Layout NetworkPlot::layOut(QPainter *painter, const QRectF &rect, const QFont &font) const
{
    Layout layout;
    TextPlacer text(painter);
    const PlotFonts fonts(font);
    const QFont &bold = fonts.bold, &titleFont = fonts.title;
    const QFontMetricsF &fm = fonts.fm, &fmBold = fonts.fmBold;
    const double line = fonts.line, pad = fonts.pad;
    const double gap = pad;
    const QRectF area = rect.adjusted(pad, pad, -pad, -pad);
    double y = area.top();

    // Title: what is drawn, then the total and the marks used.
    QString detail = QStringLiteral("total %1 cycles (each layer's best, in bold)").arg(plotNumber(m_total));
    if (std::find(m_dominating.begin(), m_dominating.end(), true) != m_dominating.end())
        detail += QStringLiteral(" · ★ dominating");
    if (m_convolutions > std::int64_t(m_names.size()))
        detail += QStringLiteral(" · %1 of %2 convolutions: %3 skipped by the import, not in the total")
                      .arg(m_names.size())
                      .arg(m_convolutions)
                      .arg(m_convolutions - std::int64_t(m_names.size()));
    if (m_withoutValid > 0)
        detail += QStringLiteral(" · ✖ no valid strategy: the total is incomplete");
    for (const QString &t : {QStringLiteral("Network — duration per layer, best strategy of each family"), detail}) {
        if (t != detail && !m_titleShown)
            continue;
        const QFont &f = t == detail ? font : titleFont;
        const double h = wrappedTextHeight(f, area.width(), t);
        text(t, QRectF(area.left(), y, area.width(), h), f, Qt::AlignHCenter | Qt::TextWordWrap);
        y += h;
    }
    y += pad * 0.6;

    // Legend: the four parts (and the hatched bar), flowing over lines.
    {
        const double swatch = std::round(line * 0.75);
        double x = area.left();
        const auto item = [&](const QString &label, const QBrush &brush) {
            const double w = swatch + gap * 0.4 + fm.horizontalAdvance(label) + 1;
            if (x > area.left() && x + w > area.right()) {
                x = area.left();
                y += line * 1.2;
            }
            if (painter)
                painter->fillRect(QRectF(x, y + (line - swatch) / 2, swatch, swatch), brush);
            text(label, QRectF(x + swatch + gap * 0.4, y, w - swatch - gap * 0.4, line), font, Qt::AlignLeft | Qt::AlignVCenter);
            x += w + gap * 1.5;
        };
        for (const Part &p : kParts)
            item(p.label, p.colour);
        if (m_withoutValid > 0)
            item(QStringLiteral("no valid strategy"), QBrush(kInvalidGrey, Qt::BDiagPattern));
        y += line + pad;
    }

    // Columns: layer names, family labels, bars, values.
    const std::size_t layers = m_names.size();
    double nameWidth = 0, nameWords = 0;
    for (std::size_t i = 0; i < layers; ++i) {
        nameWidth = std::max(nameWidth, fmBold.horizontalAdvance(layerLabel(i)) + 1);
        nameWords = std::max(nameWords, widestWord(bold, layerLabel(i)) + 1);
    }
    nameWidth = std::max(std::min(nameWidth, area.width() * 0.22), nameWords);
    double familyWidth = 0, familyWords = 0, valueWidth = fmBold.horizontalAdvance(QStringLiteral("0")), top = 0;
    for (const NetworkPlotRow &r : m_rows) {
        familyWidth = std::max(familyWidth, fmBold.horizontalAdvance(rowLabel(r)) + 1);
        familyWords = std::max(familyWords, widestWord(bold, rowLabel(r)) + 1);
        valueWidth
            = std::max(valueWidth, fmBold.horizontalAdvance(r.family ? plotNumber(r.split.total()) : QStringLiteral("—")) + 1);
        top = std::max(top, r.split.total());
    }
    familyWidth = std::max(std::min(familyWidth, area.width() * 0.3), familyWords);
    const double barLeft = area.left() + nameWidth + gap + familyWidth + gap;
    const double barSpace = std::max(line * 2, area.right() - barLeft - gap * 0.4 - valueWidth);

    // The value axis: about one tick per two label widths.
    const double labelWidth = fm.horizontalAdvance(plotNumber(top > 0 ? top : 1)) + gap;
    const int ticks = std::max(1, int(barSpace / (labelWidth * 1.6)));
    const double step = niceStepAtLeast((top > 0 ? top : 1) / ticks);
    const double axisMax = std::max(step, std::ceil((top > 0 ? top : 1) / step) * step);
    const double scale = barSpace / axisMax;

    // Row heights: a line and a half, more when a label wraps; a layer's
    // rows together at least as tall as its wrapped name.
    std::vector<double> heights;
    for (const NetworkPlotRow &r : m_rows)
        heights.push_back(std::max(line * 1.45, wrappedTextHeight(r.best ? bold : font, familyWidth, rowLabel(r)) + line * 0.35));
    for (std::size_t layer = 0, first = 0; layer < layers; ++layer) {
        std::size_t last = first;
        double sum = 0;
        while (last < m_rows.size() && m_rows[last].layer == layer)
            sum += heights[last++];
        const double need = wrappedTextHeight(bold, nameWidth, layerLabel(layer)) + line * 0.35;
        if (last > first && sum < need)
            heights[last - 1] += need - sum;
        first = last;
    }
    double rowsHeight = 0;
    for (const double h : heights)
        rowsHeight += h;
    const double rowsTop = y;

    // Behind the rows: a band every other layer, the ticks' grid lines.
    if (painter) {
        double by = rowsTop;
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            if (m_rows[i].layer % 2 == 1)
                painter->fillRect(QRectF(area.left(), by, area.width(), heights[i]), QColor(0xF2, 0xF2, 0xF2));
            by += heights[i];
        }
        painter->setPen(QPen(QColor(0xDD, 0xDD, 0xDD), 1.0));
        for (double v = step; v <= axisMax + step * 1e-9; v += step)
            painter->drawLine(QPointF(barLeft + v * scale, rowsTop), QPointF(barLeft + v * scale, rowsTop + rowsHeight));
    }

    double rowY = rowsTop;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const NetworkPlotRow &r = m_rows[i];
        const double h = heights[i];
        layout.rows.push_back(QRectF(area.left(), rowY, area.width(), h));
        if (i == 0 || m_rows[i - 1].layer != r.layer) {
            double groupHeight = 0;
            for (std::size_t j = i; j < m_rows.size() && m_rows[j].layer == r.layer; ++j)
                groupHeight += heights[j];
            text(layerLabel(r.layer), QRectF(area.left(), rowY, nameWidth, groupHeight), bold,
                Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap);
            if (painter && i > 0) {
                painter->setPen(QPen(QColor(0xBB, 0xBB, 0xBB), 1.0));
                painter->drawLine(QPointF(area.left(), rowY), QPointF(area.right(), rowY));
            }
        }
        const QColor labelColour = r.family ? QColor(Qt::black) : QColor(0x55, 0x55, 0x55);
        text(rowLabel(r), QRectF(area.left() + nameWidth + gap, rowY, familyWidth, h), r.best ? bold : font,
            Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, labelColour);
        const QRectF barBand(barLeft, rowY + h * 0.2, 0, h * 0.6);
        if (!r.family) {
            if (painter)
                painter->fillRect(
                    QRectF(barLeft, barBand.top(), barSpace, barBand.height()), QBrush(kInvalidGrey, Qt::BDiagPattern));
            text(QStringLiteral("—"), QRectF(barLeft + barSpace + gap * 0.4, rowY, valueWidth, h), font,
                Qt::AlignLeft | Qt::AlignVCenter, labelColour);
        } else {
            double x = barLeft;
            for (const Part &p : kParts) {
                const double w = (r.split.*p.value) * scale;
                if (painter && w > 0) {
                    QColor c = p.colour;
                    if (!r.best)
                        c.setAlpha(120); // the other families, lighter
                    painter->fillRect(QRectF(x, barBand.top(), w, barBand.height()), c);
                }
                x += w;
            }
            const QString value = plotNumber(r.split.total());
            text(value, QRectF(x + gap * 0.4, rowY, (r.best ? fmBold : fm).horizontalAdvance(value) + 1, h), r.best ? bold : font,
                Qt::AlignLeft | Qt::AlignVCenter);
        }
        rowY += h;
    }

    // The axis under the rows.
    y = rowsTop + rowsHeight;
    if (painter) {
        painter->setPen(QPen(QColor(0x66, 0x66, 0x66), 1.0));
        painter->drawLine(QPointF(barLeft, rowsTop), QPointF(barLeft, y));
        painter->drawLine(QPointF(barLeft, y), QPointF(barLeft + axisMax * scale, y));
    }
    for (double v = 0; v <= axisMax + step * 1e-9; v += step) {
        const QString t = plotNumber(v);
        const double w = fm.horizontalAdvance(t) + 1;
        const double x = barLeft + v * scale;
        if (painter)
            painter->drawLine(QPointF(x, y), QPointF(x, y + line * 0.25));
        text(t, QRectF(std::min(x - w / 2, area.right() - w), y + line * 0.3, w, line), font, Qt::AlignCenter);
    }
    y += line * 1.4;
    text(QStringLiteral("cycles"), QRectF(barLeft, y, barSpace, line), font, Qt::AlignHCenter | Qt::AlignTop);
    y += line + pad * 0.6;

    const QString note = QStringLiteral(
        "Families: heuristic = S1-baseline, Row-by-Row, ZigZag (every kernel on chip); kernel-blocked = kernels streamed "
        "in blocks of B; optimised = explicit groups or steps (the optimiser's, a solver's). Lighter bars: a family that is "
        "not the layer's best.");
    const double noteHeight = wrappedTextHeight(font, area.width(), note);
    text(
        note, QRectF(area.left(), y, area.width(), noteHeight), font, Qt::AlignLeft | Qt::TextWordWrap, QColor(0x44, 0x44, 0x44));
    layout.bottom = y + noteHeight + pad * 2;
    layout.texts = text.texts();
    return layout;
}

Figure networkFigure(const NetworkAnalysis &analysis, const std::optional<QFont> &font, int width, bool title)
{
    auto plot = std::make_shared<NetworkPlot>(analysis);
    plot->setTitleShown(title);
    const QFont f = font.value_or(QFont());
    Figure figure;
    figure.paint = [plot, f](QPainter &painter, const QRectF &target) { plot->paint(painter, target, f); };
    figure.title = plot->title();
    figure.description = QStringLiteral(
        "ConvOffload network chart: per layer, the best strategy of each family, its duration split into input loads, "
        "kernel loads, writes and compute.");
    figure.preferredSize = QSize(width, int(plot->heightFor(width, f)));
    figure.keepAlive = plot;
    return figure;
}

} // namespace convoffload::ui
