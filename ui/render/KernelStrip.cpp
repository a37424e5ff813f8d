// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "render/KernelStrip.h"

#include "render/ChannelGroupText.h"
#include "render/Palette.h"

#include <QPainter>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

namespace {

int rank(PixelState s)
{
    switch (s) {
    case PixelState::Off:
        return 0;
    case PixelState::Kept:
        return 1;
    case PixelState::Freed:
        return 2;
    case PixelState::Loaded:
        return 3;
    }
    return 0;
}

} // namespace

std::optional<int> KernelStripLayout::cellAt(const QPointF &p) const
{
    if (cellWidth <= 0 || !cells.contains(p))
        return std::nullopt;
    const int c = int((p.x() - cells.left()) / cellWidth);
    if (c < 0 || c >= cellCount)
        return std::nullopt;
    return c;
}

double KernelStrip::height(const QFontMetricsF &metrics) { return std::ceil(metrics.height() * 1.3); }

int KernelStrip::kernelsPerCell(int n, int maxCells)
{
    maxCells = std::max(1, maxCells);
    if (n <= maxCells)
        return 1;
    // A power of two, so cells line up with kernel blocks of B = 2^k.
    const int needed = (n + maxCells - 1) / maxCells;
    int perCell = 1;
    while (perCell < needed)
        perCell *= 2;
    return perCell;
}

KernelStripLayout KernelStrip::layout(const QFontMetricsF &metrics, const QRectF &rect, int n, bool labels, int groups)
{
    KernelStripLayout l;
    if (n <= 0 || rect.isEmpty())
        return l;
    const double gap = labels ? std::round(metrics.height() * 0.4) : 0.0;
    // Measured with the longest caption, so the cells do not move when N changes the wording.
    const double captionW = labels ? std::ceil(metrics.horizontalAdvance(QStringLiteral("Kernels (000 per cell)"))) : 0.0;
    const double areaW = std::max(0.0, rect.width() - captionW - gap);
    l.kernelsPerCell = kernelsPerCell(n, int(areaW / kMinCellWidth));
    l.cellCount = (n + l.kernelsPerCell - 1) / l.kernelsPerCell;
    const double side = rect.height();
    l.cellWidth = std::min(side * 1.5, areaW / l.cellCount);
    if (l.cellWidth >= 8)
        l.cellWidth = std::floor(l.cellWidth);
    const double cellsW = l.cellWidth * l.cellCount;
    // Caption and cells as one block, centred in the rectangle.
    const double blockW = (labels ? captionW + gap : 0.0) + cellsW;
    const double x0 = std::round(rect.left() + std::max(0.0, (rect.width() - blockW) / 2));
    if (labels) {
        const double realW = std::ceil(metrics.horizontalAdvance(caption(l, groups)));
        l.caption = QRectF(x0 + captionW - realW, rect.top(), realW, side);
    }
    l.cells = QRectF(x0 + (labels ? captionW + gap : 0.0), rect.top(), cellsW, side);
    return l;
}

PixelState KernelStrip::cellState(const StepCursor &cursor, int first, int count)
{
    PixelState best = PixelState::Off;
    for (int k = first; k < first + count; ++k) {
        const PixelState s = cursor.kernel(KernelId(k));
        if (rank(s) > rank(best))
            best = s;
    }
    return best;
}

QString KernelStrip::caption(const KernelStripLayout &layout, int groups)
{
    if (layout.kernelsPerCell > 1)
        return QStringLiteral("Kernels (%1 per cell)").arg(layout.kernelsPerCell);
    return groups > 1 ? QStringLiteral("Kernels (g = %1)").arg(groups) : QStringLiteral("Kernels");
}

// Neutral greys, apart from every state colour, differing in lightness.
QColor KernelStrip::groupTint(int group) { return group % 2 == 0 ? QColor(0x44, 0x44, 0x44) : QColor(0xB8, 0xB8, 0xB8); }

double KernelStrip::groupBandHeight(double cellHeight) { return std::max(3.0, std::round(cellHeight * 0.22)); }

void KernelStrip::paint(QPainter &painter, const QRectF &rect, const Problem &problem, const StepCursor &cursor, bool labels)
{
    const int n = problem.layer.n;
    const KernelStripLayout l = layout(QFontMetricsF(painter.font(), painter.device()), rect, n, labels, problem.layer.group);
    if (l.cellCount == 0)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (labels) {
        painter.setPen(QColor(0x22, 0x22, 0x22));
        painter.drawText(l.caption, Qt::AlignRight | Qt::AlignVCenter, caption(l, problem.layer.group));
    }
    for (int c = 0; c < l.cellCount; ++c) {
        const int first = l.firstKernel(c);
        painter.fillRect(l.cellRect(c), Palette::pixel(cellState(cursor, first, std::min(l.kernelsPerCell, n - first))));
    }
    if (problem.layer.isGrouped()) {
        // The band under each kernel, in its group's tint: a cell of several
        // kernels shows each run of one group in its share of the width.
        const double band = groupBandHeight(l.cells.height());
        const double perKernel = l.cellWidth / l.kernelsPerCell;
        for (int k = 0; k < n;) {
            const int group = problem.layer.groupOfKernel(k);
            int end = k + 1;
            while (end < n && problem.layer.groupOfKernel(end) == group)
                ++end;
            painter.fillRect(
                QRectF(l.cells.left() + k * perKernel, l.cells.bottom() - band, (end - k) * perKernel, band), groupTint(group));
            k = end;
        }
    }
    if (l.cellWidth >= 4) {
        painter.setPen(QPen(QColor(0, 0, 0, 40), 0));
        for (int c = 1; c < l.cellCount; ++c) {
            const double x = l.cells.left() + c * l.cellWidth;
            painter.drawLine(QLineF(x, l.cells.top(), x, l.cells.bottom()));
        }
    }
    painter.setPen(QPen(QColor(0x66, 0x66, 0x66), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(l.cells);
    // The kernels of the moment's step, outlined like the current group: one
    // frame per run of consecutive cells.
    std::vector<bool> current(std::size_t(l.cellCount), false);
    for (KernelId k : cursor.currentKernels())
        current[std::size_t(int(k) / l.kernelsPerCell)] = true;
    painter.setPen(QPen(Palette::cursor(), 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    for (int c = 0; c < l.cellCount;) {
        if (!current[std::size_t(c)]) {
            ++c;
            continue;
        }
        const int start = c;
        while (c < l.cellCount && current[std::size_t(c)])
            ++c;
        const QRectF run(l.cellRect(start).topLeft(), l.cellRect(c - 1).bottomRight());
        painter.drawRect(run.adjusted(-1, -1, 1, 1));
    }
    painter.restore();
}

QString KernelStrip::toolTipAt(const QFontMetricsF &metrics, const QRectF &rect, const Problem &problem, const StepCursor &cursor,
    bool labels, const QPointF &pos)
{
    const int n = problem.layer.n;
    const KernelStripLayout l = layout(metrics, rect, n, labels, problem.layer.group);
    const std::optional<int> cell = l.cellAt(pos);
    if (!cell)
        return {};
    const int first = l.firstKernel(*cell), last = std::min(first + l.kernelsPerCell, n) - 1;
    const Layer &layer = problem.layer;
    QString groups;
    if (layer.isGrouped()) {
        std::vector<int> of;
        for (int k = first; k <= last; ++k)
            if (of.empty() || of.back() != layer.groupOfKernel(k))
                of.push_back(layer.groupOfKernel(k));
        groups = QStringLiteral(" (%1 %2)")
                     .arg(of.size() == 1 ? QStringLiteral("channel group") : QStringLiteral("channel groups"), groupRuns(of));
    }
    if (first == last)
        return QStringLiteral("kernel %1%2: %3").arg(first).arg(groups, Palette::pixelLabel(cursor.kernel(KernelId(first))));
    int counts[4] = {};
    for (int k = first; k <= last; ++k)
        ++counts[int(cursor.kernel(KernelId(k)))];
    QStringList parts;
    for (PixelState s : {PixelState::Loaded, PixelState::Kept, PixelState::Freed, PixelState::Off})
        if (counts[int(s)])
            parts << QStringLiteral("%1 %2").arg(counts[int(s)]).arg(Palette::pixelLabel(s));
    return QStringLiteral("kernels %1–%2%3: %4").arg(first).arg(last).arg(groups, parts.join(QStringLiteral(", ")));
}

} // namespace convoffload::ui
