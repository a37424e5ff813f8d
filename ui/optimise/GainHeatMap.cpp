// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "optimise/GainHeatMap.h"

#include "charts/NiceScale.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

namespace convoffload::ui {

QColor gainColour(double gain, double maxGain)
{
    // White to the Okabe-Ito blue (0, 114, 178), darkened at the top end:
    // one hue, so order reads without telling colours apart.
    const double t = maxGain > 0 ? std::clamp(gain / maxGain, 0.0, 1.0) : 0.0;
    auto mix = [t](int from, int to) { return int(from + (to - from) * t + 0.5); };
    return QColor(mix(255, 0), mix(255, 80), mix(255, 140));
}

QColor gapColour(double gap, double maxGap)
{
    // White to the Okabe-Ito vermillion (213, 94, 0), darkened at the top
    // end: a hue apart from the gain map's blue, so the two do not pass for
    // one another side by side.
    const double t = maxGap > 0 ? std::clamp(gap / maxGap, 0.0, 1.0) : 0.0;
    auto mix = [t](int from, int to) { return int(from + (to - from) * t + 0.5); };
    return QColor(mix(255, 170), mix(255, 60), mix(255, 0));
}

QColor provenColour() { return QColor(166, 221, 206); } // (0, 158, 115) at 35 % on white

namespace {

/// A percentage short enough for a cell, never "0" for a value above zero.
QString cellPercent(double fraction)
{
    const double percent = 100 * fraction;
    if (percent > 0 && percent < 0.05)
        return QStringLiteral("<0.1");
    return QString::number(percent, 'f', percent > 0 && percent < 10 ? 1 : 0);
}

/// What one map shows: its title, the value that colours a cell, the
/// cell's text and the colour ramp.
struct HeatMapStyle {
    QString title;
    QString scaleCaption;
    double (*value)(const ExperimentRow &);
    QString (*label)(const ExperimentRow &);
    QColor (*colour)(double value, double top); // the ramp of the scale
    bool marksProven = false; // proven cells in provenColour(), the label bold, and a key under the scale
};

HeatMapStyle styleOf(ExperimentHeatMap map, const std::vector<ExperimentRow> &rows)
{
    if (map == ExperimentHeatMap::Gain)
        return {QStringLiteral("Gain (%) of the best optimised strategy over the best heuristic"), QStringLiteral("gain"),
            [](const ExperimentRow &r) { return r.gain(); },
            [](const ExperimentRow &r) {
                const double gain = r.gain();
                return QString::number(100 * gain, 'f', gain > 0 && gain < 0.1 ? 1 : 0);
            },
            gainColour};
    const auto proven = std::count_if(rows.begin(), rows.end(), [](const ExperimentRow &r) { return r.proven(); });
    const QString count = rows.empty() ? QString() : QStringLiteral(": %1 of %2").arg(proven).arg(rows.size());
    return {QStringLiteral("Proven optimal (✓)%1; elsewhere the gap (%) to the lower bound").arg(count), QStringLiteral("gap"),
        [](const ExperimentRow &r) { return r.proven() ? 0.0 : r.gap(); },
        [](const ExperimentRow &r) { return r.proven() ? QStringLiteral("✓") : cellPercent(r.gap()); }, gapColour, true};
}

/// Where a heat map puts things, worked out once for painting and for
/// finding the cell under the mouse.
struct HeatMapLayout {
    QFont font; // the cells' and axes' font
    double line = 0; // its line height
    QRectF title;
    QRectF plot; // the cells
    int sizeFrom = 0, sizeTo = 0, groupFrom = 0, groupTo = 0;

    int columns() const { return sizeTo - sizeFrom + 1; }
    int rows() const { return groupTo - groupFrom + 1; }
    /// Column c (input size sizeFrom + c), row r (G = groupTo - r: G grows upwards).
    QRectF cell(int c, int r) const
    {
        const double w = plot.width() / columns(), h = plot.height() / rows();
        return QRectF(plot.left() + c * w, plot.top() + r * h, w, h);
    }
    /// The (input size, G) of the cell under `point`; nullopt off the cells.
    std::optional<std::pair<int, int>> instanceAt(const QPointF &point) const
    {
        if (!plot.contains(point))
            return std::nullopt;
        const int c = std::clamp(int((point.x() - plot.left()) / (plot.width() / columns())), 0, columns() - 1);
        const int r = std::clamp(int((point.y() - plot.top()) / (plot.height() / rows())), 0, rows() - 1);
        return std::pair{sizeFrom + c, groupTo - r};
    }
};

HeatMapLayout layoutOf(const QFont &painterFont, const QRectF &target, const std::vector<ExperimentRow> &rows)
{
    HeatMapLayout layout;
    layout.font = painterFont;
    layout.font.setPointSizeF(std::max(7.0, std::min(target.height() / 45, target.width() / 70)));
    layout.line = QFontMetricsF(layout.font).height();
    const double line = layout.line;
    layout.title = QRectF(target.left(), target.top() + line * 0.3, target.width(), line * 1.6);
    // Plot area: room on the left for the G axis, below for the size axis,
    // on the right for the colour scale.
    layout.plot = QRectF(target.left() + line * 4, layout.title.bottom() + line * 1.6, target.width() - line * 11,
        target.height() - layout.title.height() - line * 6.2);
    if (!rows.empty()) {
        layout.sizeFrom = layout.sizeTo = rows.front().input_size;
        layout.groupFrom = layout.groupTo = rows.front().group_size;
    }
    for (const ExperimentRow &r : rows) {
        layout.sizeFrom = std::min(layout.sizeFrom, r.input_size);
        layout.sizeTo = std::max(layout.sizeTo, r.input_size);
        layout.groupFrom = std::min(layout.groupFrom, r.group_size);
        layout.groupTo = std::max(layout.groupTo, r.group_size);
    }
    return layout;
}

} // namespace

const ExperimentRow *experimentRowAt(
    const std::vector<ExperimentRow> &rows, const QRectF &target, const QFont &font, const QPointF &point)
{
    if (rows.empty())
        return nullptr;
    const std::optional<std::pair<int, int>> instance = layoutOf(font, target, rows).instanceAt(point);
    for (const ExperimentRow &row : rows)
        if (instance && row.input_size == instance->first && row.group_size == instance->second)
            return &row;
    return nullptr;
}

QString experimentCellTip(const ExperimentRow &row, ExperimentHeatMap map)
{
    const QString instance = QStringLiteral("H_in = W_in = %1, G = %2%3")
                                 .arg(row.input_size)
                                 .arg(row.group_size)
                                 .arg(row.stopped() ? QStringLiteral(" (stopped before its end)") : QString());
    const QString best = QString::number(row.bestOptimised(), 'f', 0);
    if (map == ExperimentHeatMap::Gain)
        return QStringLiteral("%1: best heuristic %2, optimised %3, gain %4 %")
            .arg(instance, QString::number(row.bestHeuristic(), 'f', 0), best, QString::number(100 * row.gain(), 'f', 1));
    if (row.proven())
        return QStringLiteral("%1: %2, proven optimal").arg(instance, best);
    return QStringLiteral("%1: best found %2, lower bound %3, gap %4 %")
        .arg(instance, best, QString::number(row.lower_bound, 'f', 0), QString::number(100 * row.gap(), 'f', 1));
}

void paintExperimentHeatMap(
    QPainter &painter, const QRectF &target, const std::vector<ExperimentRow> &rows, ExperimentHeatMap map)
{
    const HeatMapStyle style = styleOf(map, rows);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(target, Qt::white);
    const HeatMapLayout layout = layoutOf(painter.font(), target, rows);
    const QFont font = layout.font;
    painter.setFont(font);
    const double line = layout.line;

    QFont titleFont = font;
    titleFont.setBold(true);
    titleFont.setPointSizeF(font.pointSizeF() * 1.2);
    painter.setFont(titleFont);
    painter.drawText(layout.title, Qt::AlignCenter, style.title);
    painter.setFont(font);

    if (rows.empty()) {
        painter.drawText(target, Qt::AlignCenter, QStringLiteral("No experiment results yet"));
        painter.restore();
        return;
    }
    double top = 0.0;
    std::map<std::pair<int, int>, const ExperimentRow *> cells;
    for (const ExperimentRow &r : rows) {
        top = std::max(top, style.value(r));
        cells[{r.input_size, r.group_size}] = &r;
    }
    // The scale ends on a round percentage, its ticks every 1, 2 or 5 × 10^k
    // (quarters of the largest value read 0, 1, 3, 4, 5 %).
    const NiceScale ticks = niceScale(0, std::max(100 * top, 5.0), 5);
    const double scaleTop = ticks.max / 100;
    const int sizeFrom = layout.sizeFrom, groupTo = layout.groupTo, columns = layout.columns(), rowsCount = layout.rows();
    const QRectF plot = layout.plot;
    for (int c = 0; c < columns; ++c)
        for (int r = 0; r < rowsCount; ++r) {
            const int size = sizeFrom + c, group = groupTo - r; // G grows upwards
            const QRectF cell = layout.cell(c, r);
            const auto found = cells.find({size, group});
            if (found == cells.end()) {
                painter.fillRect(cell, QColor(0xEE, 0xEE, 0xEE));
                continue;
            }
            const bool proven = style.marksProven && found->second->proven();
            const QColor colour = proven ? provenColour() : style.colour(style.value(*found->second), scaleTop);
            painter.fillRect(cell, colour);
            if (found->second->stopped()) // its best so far, not its result: hatched
                painter.fillRect(cell, QBrush(QColor(0, 0, 0, 110), Qt::BDiagPattern));
            painter.setPen(colour.lightnessF() < 0.55 ? Qt::white : Qt::black);
            if (proven) {
                QFont mark = font;
                mark.setBold(true);
                mark.setPointSizeF(font.pointSizeF() * 1.3);
                painter.setFont(mark);
            }
            painter.drawText(cell, Qt::AlignCenter, style.label(*found->second));
            painter.setFont(font);
            if (style.marksProven) { // white seams, so that neighbouring proven cells read as cells
                painter.setPen(QPen(Qt::white, 1.0));
                painter.drawRect(cell);
            }
        }
    painter.setPen(QPen(QColor(0x66, 0x66, 0x66), 0.8));
    painter.drawRect(plot);

    painter.setPen(Qt::black);
    for (int c = 0; c < columns; ++c) {
        const QRectF cell = layout.cell(c, rowsCount - 1);
        painter.drawText(
            QRectF(cell.left(), plot.bottom() + line * 0.2, cell.width(), line), Qt::AlignCenter, QString::number(sizeFrom + c));
    }
    for (int r = 0; r < rowsCount; ++r) {
        const QRectF cell = layout.cell(0, r);
        painter.drawText(QRectF(plot.left() - line * 2.2, cell.top(), line * 2, cell.height()), Qt::AlignRight | Qt::AlignVCenter,
            QString::number(groupTo - r));
    }
    painter.drawText(QRectF(plot.left(), plot.bottom() + line * 1.4, plot.width(), line * 1.2), Qt::AlignCenter,
        QStringLiteral("input size H_in = W_in (3×3 kernel, stride 1)"));
    painter.save();
    painter.translate(plot.left() - line * 3, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, -line * 0.8, plot.height(), line * 1.2), Qt::AlignCenter,
        QStringLiteral("group size G (nb_patches_max)"));
    painter.restore();

    // Colour scale in percent, bottom 0 to top the largest value.
    const QRectF scale(plot.right() + line * 2, plot.top(), line * 1.2, plot.height());
    const int bands = 50;
    for (int i = 0; i < bands; ++i) {
        const double t = double(i) / (bands - 1);
        painter.fillRect(
            QRectF(scale.left(), scale.bottom() - (i + 1) * scale.height() / bands, scale.width(), scale.height() / bands + 0.5),
            style.colour(t * scaleTop, scaleTop));
    }
    painter.setPen(QPen(QColor(0x66, 0x66, 0x66), 0.8));
    painter.drawRect(scale);
    painter.setPen(Qt::black);
    const int tickCount = int(std::lround((ticks.max - ticks.min) / ticks.step));
    for (int i = 0; i <= tickCount; ++i) {
        const double percent = ticks.min + i * ticks.step;
        const double y = scale.bottom() - percent / ticks.max * scale.height();
        painter.drawText(QRectF(scale.right() + line * 0.3, y - line / 2, line * 4, line), Qt::AlignLeft | Qt::AlignVCenter,
            QString::number(percent, 'f', ticks.decimals) + QStringLiteral(" %"));
    }
    painter.drawText(QRectF(scale.left() - line, scale.top() - line * 1.3, line * 6, line), Qt::AlignLeft, style.scaleCaption);
    double keyTop = scale.bottom() + line * 0.8; // the keys under the scale, one under the other
    if (style.marksProven) { // the key of the proven fill
        const QRectF key(scale.left(), keyTop, scale.width(), line * 1.2);
        keyTop += line * 1.6;
        painter.fillRect(key, provenColour());
        painter.setPen(QPen(QColor(0x66, 0x66, 0x66), 0.8));
        painter.drawRect(key);
        painter.setPen(Qt::black);
        painter.drawText(key, Qt::AlignCenter, QStringLiteral("✓"));
        painter.drawText(QRectF(key.right() + line * 0.3, key.top(), line * 4, key.height()), Qt::AlignLeft | Qt::AlignVCenter,
            QStringLiteral("proven"));
    }
    if (std::any_of(rows.begin(), rows.end(), [](const ExperimentRow &r) { return r.stopped(); })) {
        // The key of the hatch, only when a cell has it (a figure with it must say what it means).
        const QRectF key(scale.left(), keyTop, scale.width(), line * 1.2);
        painter.fillRect(key, Qt::white);
        painter.fillRect(key, QBrush(QColor(0, 0, 0, 110), Qt::BDiagPattern));
        painter.setPen(QPen(QColor(0x66, 0x66, 0x66), 0.8));
        painter.drawRect(key);
        painter.setPen(Qt::black);
        painter.drawText(QRectF(key.right() + line * 0.3, key.top(), line * 5, key.height()), Qt::AlignLeft | Qt::AlignVCenter,
            QStringLiteral("stopped"));
    }
    painter.restore();
}

} // namespace convoffload::ui
