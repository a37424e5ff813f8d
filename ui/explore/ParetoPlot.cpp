// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "explore/ParetoPlot.h"

#include "charts/NiceScale.h"
#include "convoffload/explore/ParetoFront.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace convoffload::ui {

namespace {

// Okabe & Ito without the yellow (too light on white), as the other views.
const QColor kSeriesColours[] = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73),
    QColor(0xCC, 0x79, 0xA7), QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x44, 0x44, 0x44)};
constexpr int kColourCount = int(std::size(kSeriesColours));
enum class Shape { Circle, Square, Triangle, Diamond };
constexpr int kShapeCount = 4;
const QColor kFrontColour(0x11, 0x11, 0x11);

QColor seriesColour(int series) { return kSeriesColours[series % kColourCount]; }
// Shapes cycle with the colours, offset, so that a print in grey still tells
// the series apart.
Shape seriesShape(int series) { return Shape((series + series / kColourCount) % kShapeCount); }

void drawMarker(QPainter &painter, QPointF at, double r, Shape shape, const QColor &colour, bool filled)
{
    painter.setPen(QPen(colour, std::max(1.0, r * 0.35)));
    painter.setBrush(filled ? QBrush(colour) : QBrush(Qt::white));
    switch (shape) {
    case Shape::Circle:
        painter.drawEllipse(at, r, r);
        break;
    case Shape::Square:
        painter.drawRect(QRectF(at.x() - r * 0.88, at.y() - r * 0.88, r * 1.76, r * 1.76));
        break;
    case Shape::Triangle:
        painter.drawPolygon(QPolygonF(
            {QPointF(at.x(), at.y() - r * 1.1), QPointF(at.x() + r, at.y() + r * 0.75), QPointF(at.x() - r, at.y() + r * 0.75)}));
        break;
    case Shape::Diamond:
        painter.drawPolygon(QPolygonF({QPointF(at.x(), at.y() - r * 1.15), QPointF(at.x() + r, at.y()),
            QPointF(at.x(), at.y() + r * 1.15), QPointF(at.x() - r, at.y())}));
        break;
    }
}

/// A value of the hardware as the series name shows it; empty when absent.
QString hardwareValue(const nlohmann::json &hw, const char *key, const char *transferKey = nullptr)
{
    const nlohmann::json *v = nullptr;
    if (transferKey) {
        if (hw.contains("transfer") && hw["transfer"].is_object() && hw["transfer"].contains(transferKey))
            v = &hw["transfer"][transferKey];
    } else if (hw.contains(key)) {
        v = &hw[key];
    }
    if (!v)
        return {};
    if (v->is_string())
        return QString::fromStdString(v->get<std::string>());
    if (v->is_number())
        return plotNumber(v->get<double>());
    return QString::fromStdString(v->dump());
}

struct Varying {
    const char *label; // in the series name: "nbop_pe 256"; empty: the value alone (a layout)
    const char *shortLabel; // in an annotation
    const char *key;
    const char *transferKey;
};
// The parameters explore varies besides the memory, in its nesting order
// (docs/reference/explore.md#design-points).
const Varying kVarying[] = {
    {"nbop_pe ", "", "nbop_pe", nullptr},
    {"t_l ", "t_l ", "t_l", nullptr},
    {"", "", "layout", "layout"},
    {"burst ", "b", "burst", "burst"},
    {"t_setup ", "s", "t_setup", "t_setup"},
};

} // namespace

QString ParetoPlot::memoryLabel(std::int64_t elements)
{
    constexpr std::int64_t k = 1024, M = 1024 * 1024;
    if (elements >= M && elements % M == 0)
        return QStringLiteral("%1M").arg(elements / M);
    if (elements >= k && elements % k == 0)
        return QStringLiteral("%1k").arg(elements / k);
    return QString::number(elements);
}

ParetoPlot::ParetoPlot(const std::vector<ExploreRecord> &records)
{
    std::map<std::int64_t, const ExploreRecord *> byPoint;
    for (const ExploreRecord &r : records) {
        if (r.run != records.front().run)
            throw FigureError("lines of two runs (" + records.front().run + " and " + r.run + ", " + r.file + ":"
                + std::to_string(r.line_number) + "): a figure shows one run (merge refuses them too)");
        if (r.points != records.front().points)
            throw FigureError(r.file + ":" + std::to_string(r.line_number) + " says the run has " + std::to_string(r.points)
                + " points, an earlier line " + std::to_string(records.front().points));
        byPoint.emplace(r.point, &r);
    }
    if (records.empty())
        return;
    m_runPoints = records.front().points;
    m_run = QString::fromStdString(records.front().run);

    // Which of the other parameters take more than one value in the run.
    std::vector<bool> varies;
    for (const Varying &v : kVarying) {
        std::set<QString> values;
        for (const auto &[point, r] : byPoint)
            values.insert(hardwareValue(r->hardware, v.key, v.transferKey));
        varies.push_back(values.size() > 1);
    }
    std::map<QString, int> seriesOf;
    for (const auto &[point, r] : byPoint) {
        QStringList name, brief;
        for (std::size_t i = 0; i < std::size(kVarying); ++i)
            if (varies[i]) {
                const QString value = hardwareValue(r->hardware, kVarying[i].key, kVarying[i].transferKey);
                name << QString::fromLatin1(kVarying[i].label) + value;
                brief << QString::fromLatin1(kVarying[i].shortLabel) + value;
            }
        // Nothing varies but the memory: one series, named by its compute size.
        if (name.isEmpty())
            name << QStringLiteral("nbop_pe ") + hardwareValue(r->hardware, "nbop_pe");
        const QString key = name.join(QStringLiteral(", "));
        auto [it, added] = seriesOf.emplace(key, int(m_series.size()));
        if (added) {
            m_series.push_back(key);
            m_seriesShort.push_back(brief.join(QStringLiteral(" \u00B7 ")));
        }
        ParetoPlotPoint p;
        p.point = point;
        p.mem_size = r->hardware["mem_size"].get<std::int64_t>();
        p.duration = r->total_duration;
        p.valid = r->all_valid;
        p.series = it->second;
        p.hardware = r->hardware;
        m_points.push_back(std::move(p));
    }
    std::vector<ParetoCandidate> candidates;
    for (const ParetoPlotPoint &p : m_points)
        candidates.push_back({p.mem_size, p.duration, p.valid});
    m_front = paretoFront(candidates);
    for (const std::size_t i : m_front)
        m_points[i].front = true;
}

QString ParetoPlot::title() const
{
    const QString t = QStringLiteral("Total duration against on-chip memory");
    if (m_points.empty())
        return t + QStringLiteral(" (no points yet)");
    if (!complete())
        return t + QStringLiteral(" (%1 of %2 points)").arg(m_points.size()).arg(m_runPoints);
    return t + QStringLiteral(" (%1 points)").arg(m_points.size());
}

QString ParetoPlot::shortForm(std::size_t index) const
{
    const ParetoPlotPoint &p = m_points.at(index);
    const QString rest = m_seriesShort.at(std::size_t(p.series));
    return rest.isEmpty() ? memoryLabel(p.mem_size) : memoryLabel(p.mem_size) + QStringLiteral(" \u00B7 ") + rest;
}

ParetoPlot::Geometry ParetoPlot::geometry(const QRectF &rect, const QFont &font) const { return layOut(nullptr, rect, font); }

bool ParetoPlot::fitsIn(const QRectF &rect, const QFont &font) const
{
    const Geometry g = layOut(nullptr, rect, font);
    return !g.squeezed && std::all_of(g.items.begin(), g.items.end(), [&](const QRectF &item) { return rect.contains(item); });
}

QSize ParetoPlot::sizeToFit(QSize size, const QFont &font) const
{
    while (!fitsIn(QRectF(QPointF(0, 0), QSizeF(size)), font) && size.width() < 16384 && size.height() < 16384)
        size = QSize(std::min(16384, size.width() + std::max(1, size.width() / 10)),
            std::min(16384, size.height() + std::max(1, size.height() / 10)));
    return size;
}

void ParetoPlot::paint(QPainter &painter, const QRectF &rect, const QFont &font) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect, Qt::white);
    layOut(&painter, rect, font);
    painter.restore();
}

int ParetoPlot::pointAt(const QRectF &rect, const QFont &font, QPointF position, double radius) const
{
    const Geometry g = layOut(nullptr, rect, font);
    int best = -1;
    double bestDistance = radius;
    for (std::size_t i = 0; i < g.positions.size(); ++i) {
        const double d = std::hypot(g.positions[i].x() - position.x(), g.positions[i].y() - position.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(i);
        }
    }
    return best;
}

ParetoPlot::Geometry ParetoPlot::layOut(QPainter *painter, const QRectF &rect, const QFont &font) const
{
    Geometry g;
    TextPlacer text(painter);
    const PlotFonts fonts(font);
    const QFontMetricsF &fm = fonts.fm;
    const double line = fonts.line, pad = fonts.pad;
    const QRectF area = rect.adjusted(pad, pad, -pad, -pad);
    const double r = std::max(2.5, std::round(line * 0.3)); // marker radius
    const auto placeText = [&](const QString &t, const QRectF &where, const QFont &f, int flags, const QColor &c = Qt::black) {
        text(t, where, f, flags, c);
        g.items.push_back(where);
    };
    double y = area.top();

    // A title too wide for one line breaks before its count, not inside it.
    QString heading = title();
    if (QFontMetricsF(fonts.title).horizontalAdvance(heading) > area.width())
        heading.replace(heading.lastIndexOf(QStringLiteral(" (")), 1, QLatin1Char('\n'));
    // Without its title, an incomplete run still says so: never drawn as
    // if it were the whole run (docs/user/explore.md#the-pareto-figure).
    if (!m_titleShown)
        heading = complete() || m_points.empty()
            ? QString()
            : QStringLiteral("%1 of %2 points (an incomplete run)").arg(m_points.size()).arg(m_runPoints);
    if (!heading.isEmpty()) {
        const double titleHeight = wrappedTextHeight(fonts.title, area.width(), heading);
        placeText(heading, QRectF(area.left(), y, area.width(), titleHeight), fonts.title, Qt::AlignHCenter | Qt::TextWordWrap);
        y += titleHeight + pad * 0.4;
    }

    // The legend, flowing over lines under the plot: measured first, so the
    // plot takes what is left.
    struct Entry {
        QString label;
        int series; // -1: the front, -2: the hollow points, -3: a note (no front)
    };
    std::vector<Entry> entries;
    for (std::size_t s = 0; s < m_series.size(); ++s)
        entries.push_back({m_series[s], int(s)});
    if (!m_front.empty())
        entries.push_back({QStringLiteral("Pareto front"), -1});
    if (std::any_of(m_points.begin(), m_points.end(), [](const ParetoPlotPoint &p) { return !p.valid; }))
        entries.push_back({QStringLiteral("hollow: not every layer valid"), -2});
    if (m_front.empty() && !m_points.empty())
        entries.push_back({QStringLiteral("no valid point: no Pareto front"), -3});
    const double swatch = std::round(line * 1.6), gap = pad * 0.5;
    struct Placed {
        QRectF swatch, label;
        const Entry *entry;
    };
    std::vector<Placed> legend;
    double legendHeight = 0;
    {
        double x = area.left(), ly = 0;
        for (const Entry &e : entries) {
            double labelWidth = fm.horizontalAdvance(e.label) + 1;
            // A label longer than the line wraps (the hollow points' note).
            const double maxLabel = area.width() - swatch - gap;
            double h = line;
            if (labelWidth > maxLabel) {
                labelWidth = maxLabel;
                h = wrappedTextHeight(font, maxLabel, e.label);
            }
            const double w = swatch + gap + labelWidth;
            if (x > area.left() && x + w > area.right()) {
                x = area.left();
                ly = legendHeight;
            }
            legend.push_back({QRectF(x, ly, swatch, line), QRectF(x + swatch + gap, ly, labelWidth, h), &e});
            legendHeight = std::max(legendHeight, ly + h + line * 0.2);
            x += w + pad * 1.5;
        }
    }

    // The axes' texts: the y title above the plot, the x tick labels and
    // title under it.
    const QString xTitle = QStringLiteral("on-chip memory mem_size (elements, log\u2082 scale)");
    const double yTitleTop = y; // its text waits for the scale's unit
    y += line + r;
    const double xTitleHeight = wrappedTextHeight(font, area.width(), xTitle);
    const double plotBottom = area.bottom() - legendHeight - pad * 0.6 - xTitleHeight - line * 1.4;

    // The y scale: linear, or log10 when the durations span more than a
    // decade (a doubling of memory can divide the reloads many times).
    double lo = 0, hi = 0;
    bool any = false;
    for (const ParetoPlotPoint &p : m_points)
        if (p.duration > 0) {
            lo = any ? std::min(lo, p.duration) : p.duration;
            hi = any ? std::max(hi, p.duration) : p.duration;
            any = true;
        }
    if (!any) {
        lo = 0;
        hi = 1;
    }
    const bool logY = any && hi / lo > 10;
    std::vector<double> yTicks;
    double yMin = 0, yMax = 1;
    if (logY) {
        yMin = std::log10(lo) - 0.06 * (std::log10(hi) - std::log10(lo));
        yMax = std::log10(hi) + 0.06 * (std::log10(hi) - std::log10(lo));
        const int first = int(std::floor(yMin)), last = int(std::ceil(yMax));
        for (int e = first; e <= last; ++e)
            for (const double m : last - first <= 3 ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
                const double v = m * std::pow(10.0, e);
                if (std::log10(v) >= yMin && std::log10(v) <= yMax)
                    yTicks.push_back(v);
            }
    } else {
        const double span = hi > lo ? hi - lo : std::max(1.0, hi * 0.1);
        yMin = std::max(0.0, lo - span * 0.1);
        yMax = hi + span * 0.1;
        const int wanted = std::max(2, int((plotBottom - y) / (line * 2.2)));
        const double step = niceStepAtLeast((yMax - yMin) / wanted);
        for (double v = std::ceil(yMin / step) * step; v <= yMax + step * 1e-9; v += step)
            yTicks.push_back(v);
    }
    // Tick labels in thousands, millions or billions of cycles, so that they
    // stay short at a column's width.
    double unit = 1;
    QString unitName = QStringLiteral("cycles");
    const double topTick = yTicks.empty() ? 0 : yTicks.back();
    for (const auto &[factor, name] :
        {std::pair{1e9, "billion cycles"}, std::pair{1e6, "million cycles"}, std::pair{1e3, "thousand cycles"}})
        if (topTick >= factor) {
            unit = factor;
            unitName = QString::fromLatin1(name);
            break;
        }
    const auto tickText = [&](double v) { return QString::number(v / unit, 'g', 6); };
    placeText(QStringLiteral("total duration (%1)").arg(unitName), QRectF(area.left(), yTitleTop, area.width(), line), font,
        Qt::AlignLeft | Qt::AlignVCenter);
    const auto yValue = [&](double duration) { return logY ? std::log10(std::max(duration, std::pow(10.0, yMin))) : duration; };
    double yLabelWidth = 0;
    for (const double v : yTicks)
        yLabelWidth = std::max(yLabelWidth, fm.horizontalAdvance(tickText(v)) + 1);
    const QRectF plot(area.left() + yLabelWidth + gap, y, std::max(line * 4, area.right() - area.left() - yLabelWidth - gap),
        std::max(line * 3, plotBottom - y));
    g.plot = plot;
    g.squeezed = plotBottom - y < line * 3 || area.right() - area.left() - yLabelWidth - gap < line * 4;
    const auto yOf = [&](double duration) {
        const double v = std::clamp(yValue(duration), yMin, yMax);
        return plot.bottom() - (v - yMin) / (yMax - yMin) * plot.height();
    };

    // The x scale: log2 of the memory, half a doubling of room each side.
    std::set<std::int64_t> sizes;
    for (const ParetoPlotPoint &p : m_points)
        sizes.insert(p.mem_size);
    double xMin = 0, xMax = 1;
    if (!sizes.empty()) {
        xMin = std::log2(double(*sizes.begin())) - 0.5;
        xMax = std::log2(double(*sizes.rbegin())) + 0.5;
    }
    const auto xOf
        = [&](std::int64_t mem) { return plot.left() + (std::log2(double(mem)) - xMin) / (xMax - xMin) * plot.width(); };
    for (const ParetoPlotPoint &p : m_points)
        g.positions.emplace_back(xOf(p.mem_size), yOf(p.duration));

    // Grid, frame and ticks.
    if (painter) {
        painter->setPen(QPen(QColor(0xE2, 0xE2, 0xE2), 1.0));
        for (const double v : yTicks)
            painter->drawLine(QPointF(plot.left(), yOf(v)), QPointF(plot.right(), yOf(v)));
        for (const std::int64_t s : sizes)
            painter->drawLine(QPointF(xOf(s), plot.top()), QPointF(xOf(s), plot.bottom()));
        painter->setPen(QPen(QColor(0x66, 0x66, 0x66), 1.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(plot);
    }
    g.items.push_back(plot);
    for (const double v : yTicks) {
        const QString t = tickText(v);
        const double ty = std::clamp(yOf(v) - line / 2, area.top(), area.bottom() - line);
        placeText(t, QRectF(area.left(), ty, yLabelWidth, line), font, Qt::AlignRight | Qt::AlignVCenter);
    }
    {
        // A label at every size present, unless it would overlap the one
        // before (the smallest and the largest are kept first).
        double lastRight = -1e9;
        std::vector<std::int64_t> order(sizes.begin(), sizes.end());
        for (const std::int64_t s : order) {
            const QString t = memoryLabel(s);
            const double w = fm.horizontalAdvance(t) + 1;
            const double left = std::clamp(xOf(s) - w / 2, area.left(), area.right() - w);
            if (painter) {
                painter->setPen(QPen(QColor(0x66, 0x66, 0x66), 1.0));
                painter->drawLine(QPointF(xOf(s), plot.bottom()), QPointF(xOf(s), plot.bottom() + line * 0.25));
            }
            const bool lastOne = s == order.back();
            if (left < lastRight + fm.horizontalAdvance(QStringLiteral(" ")) && !lastOne)
                continue;
            placeText(t, QRectF(left, plot.bottom() + line * 0.3, w, line), font, Qt::AlignCenter);
            lastRight = left + w;
        }
    }
    placeText(xTitle, QRectF(area.left(), plot.bottom() + line * 1.4, area.width(), xTitleHeight), font,
        Qt::AlignHCenter | Qt::TextWordWrap);

    // The series: lines through their valid points by memory, then markers.
    if (painter) {
        painter->save();
        painter->setClipRect(plot.adjusted(-r * 2, -r * 2, r * 2, r * 2));
        for (std::size_t s = 0; s < m_series.size(); ++s) {
            std::vector<std::size_t> members;
            for (std::size_t i = 0; i < m_points.size(); ++i)
                if (m_points[i].series == int(s) && m_points[i].valid)
                    members.push_back(i);
            std::sort(members.begin(), members.end(),
                [&](std::size_t a, std::size_t b) { return m_points[a].mem_size < m_points[b].mem_size; });
            QColor c = seriesColour(int(s));
            c.setAlpha(170);
            painter->setPen(QPen(c, std::max(1.0, line * 0.1)));
            for (std::size_t k = 1; k < members.size(); ++k)
                painter->drawLine(g.positions[members[k - 1]], g.positions[members[k]]);
        }
        // The front: a step line (with memory ≥ a point's, its duration is
        // reachable), over the series lines.
        if (m_front.size() > 1) {
            QPainterPath path(g.positions[m_front.front()]);
            for (std::size_t k = 1; k < m_front.size(); ++k) {
                const QPointF &a = g.positions[m_front[k - 1]], &b = g.positions[m_front[k]];
                path.lineTo(QPointF(b.x(), a.y()));
                path.lineTo(b);
            }
            QPen pen(kFrontColour, std::max(1.5, line * 0.16), Qt::DashLine);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawPath(path);
        }
        for (std::size_t i = 0; i < m_points.size(); ++i) {
            const ParetoPlotPoint &p = m_points[i];
            if (p.front) {
                painter->setPen(QPen(kFrontColour, std::max(1.0, line * 0.1)));
                painter->setBrush(Qt::NoBrush);
                painter->drawEllipse(g.positions[i], r * 1.9, r * 1.9);
            }
            drawMarker(*painter, g.positions[i], r, seriesShape(p.series), seriesColour(p.series), p.valid);
        }
        painter->restore();
    }
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const double extent = m_points[i].front ? r * 1.9 + 1 : r * 1.2 + 1;
        g.items.push_back(QRectF(g.positions[i].x() - extent, g.positions[i].y() - extent, extent * 2, extent * 2));
    }

    // Each front point's annotation, by increasing memory. First below and
    // left of it: no valid point can be there (it would beat the front
    // point). When that overlaps an earlier annotation, a marker or leaves
    // the plot, lower down the same side, then above and right; a label
    // moved away from its point gets a thin leader line to it.
    {
        std::vector<QRectF> taken;
        for (const std::size_t i : m_front) {
            const QPointF at = g.positions[i];
            const double off = r * 2.0, h = line;
            const auto candidatesFor = [&](double w) {
                std::vector<QRectF> c{QRectF(at.x() - off - w, at.y() + off * 0.3, w, h),
                    QRectF(at.x() + off, at.y() - off * 0.3 - h, w, h), QRectF(at.x() - off - w, at.y() - off * 0.3 - h, w, h),
                    QRectF(at.x() + off, at.y() + off * 0.3, w, h)};
                for (int k = 1; k <= 12; ++k) {
                    c.push_back(QRectF(at.x() - off - w, at.y() + off * 0.3 + k * h, w, h));
                    c.push_back(QRectF(at.x() - w * 0.5, at.y() + off * 0.3 + k * h, w, h));
                    c.push_back(QRectF(at.x() + off, at.y() - off * 0.3 - h - k * h, w, h));
                }
                return c;
            };
            const auto fits = [&](const QRectF &c) {
                if (!plot.adjusted(1, 1, -1, -1).contains(c))
                    return false;
                for (const QRectF &o : taken)
                    if (o.intersects(c))
                        return false;
                for (std::size_t j = 0; j < g.positions.size(); ++j)
                    if (c.adjusted(-r, -r, r, r).contains(g.positions[j]))
                        return false;
                return true;
            };
            // The short form, else (a crowded front in a small figure) the
            // memory alone: the marker tells the series.
            QString t;
            std::vector<QRectF> candidates;
            std::size_t chosenIndex = 0;
            for (const QString &option : {shortForm(i), memoryLabel(m_points[i].mem_size)}) {
                t = option;
                candidates = candidatesFor(fm.horizontalAdvance(t) + 2);
                chosenIndex = 0;
                while (chosenIndex < candidates.size() && !fits(candidates[chosenIndex]))
                    ++chosenIndex;
                if (chosenIndex < candidates.size())
                    break;
            }
            QRectF chosen = chosenIndex < candidates.size() ? candidates[chosenIndex] : candidates.front();
            if (chosenIndex == candidates.size()) { // inside the plot at least
                chosen.moveLeft(std::clamp(chosen.left(), plot.left() + 1, plot.right() - chosen.width() - 1));
                chosen.moveTop(std::clamp(chosen.top(), plot.top() + 1, plot.bottom() - h - 1));
            }
            if (painter) {
                if (chosenIndex >= 4) {
                    const QPointF end(std::clamp(at.x(), chosen.left(), chosen.right()),
                        chosen.center().y() > at.y() ? chosen.top() : chosen.bottom());
                    painter->setPen(QPen(QColor(0x88, 0x88, 0x88), 0.8));
                    painter->drawLine(at, end);
                }
                painter->fillRect(chosen, QColor(255, 255, 255, 210)); // readable over grid lines
            }
            placeText(t, chosen, font, Qt::AlignCenter, kFrontColour);
            taken.push_back(chosen);
        }
    }

    // The legend under the axis title.
    const double legendTop = area.bottom() - legendHeight;
    for (const Placed &l : legend) {
        const QRectF sw = l.swatch.translated(0, legendTop);
        const QPointF mid = sw.center();
        if (painter) {
            painter->save();
            if (l.entry->series >= 0) {
                QColor c = seriesColour(l.entry->series);
                painter->setPen(QPen(c, std::max(1.0, line * 0.1)));
                painter->drawLine(QPointF(sw.left(), mid.y()), QPointF(sw.right(), mid.y()));
                drawMarker(*painter, mid, r, seriesShape(l.entry->series), c, true);
            } else if (l.entry->series == -1) {
                painter->setPen(QPen(kFrontColour, std::max(1.5, line * 0.16), Qt::DashLine));
                painter->drawLine(QPointF(sw.left(), mid.y()), QPointF(sw.right(), mid.y()));
                painter->setPen(QPen(kFrontColour, std::max(1.0, line * 0.1)));
                painter->setBrush(Qt::NoBrush);
                painter->drawEllipse(mid, r * 1.9, r * 1.9);
            } else if (l.entry->series == -2) {
                drawMarker(*painter, mid, r, Shape::Circle, QColor(0x66, 0x66, 0x66), false);
            }
            painter->restore();
        }
        g.items.push_back(sw);
        placeText(l.entry->label, l.label.translated(0, legendTop), font, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap);
    }
    g.texts = text.texts();
    return g;
}

Figure paretoFigure(std::shared_ptr<const ParetoPlot> plot, const std::optional<QFont> &font, QSize size)
{
    const QFont f = font.value_or(QFont());
    Figure figure;
    figure.paint = [plot, f](QPainter &painter, const QRectF &target) { plot->paint(painter, target, f); };
    figure.title = plot->title();
    figure.description = QStringLiteral(
        "ConvOffload exploration: total duration against on-chip memory per design point, one series per combination of the "
        "other hardware values, the Pareto front as a dashed step line (docs/reference/explore.md#pareto).");
    figure.preferredSize = size;
    figure.keepAlive = std::const_pointer_cast<ParetoPlot>(plot);
    return figure;
}

} // namespace convoffload::ui
