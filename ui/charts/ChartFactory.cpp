// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/ChartFactory.h"

#include "charts/StepBins.h"
#include "render/Palette.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QBarLegendMarker>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTextDocumentFragment>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

namespace convoffload::ui {

namespace {

// Dynamic properties that tell moveCursor and stepAt how a step chart maps
// steps to x (the chart is a QObject; no subclass needed).
constexpr char kStepCountProperty[] = "convoffloadStepCount";
constexpr char kPerActionProperty[] = "convoffloadPerAction";
constexpr char kCursorSpanProperty[] = "convoffloadCursorSpan"; // x offsets of the cursor's sides from the step
constexpr char kCursorObjectName[] = "convoffload-cursor";
constexpr char kStepAxisProperty[] = "convoffloadStepAxis"; // steps 1..n and "drain" (thinStepLabels)

QString number(double v)
{
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return QString::number(static_cast<qint64>(v));
    return QString::number(v, 'g', 6);
}

/// The title as made, before fitChartTitle() shortened it for a width.
constexpr char kFullTitleProperty[] = "convoffloadFullTitle";

/// Two short lines, so that a chart in a narrow dock shows its title whole:
/// the strategy and what is drawn, then the figure that sums it up.
QString titled(const QString &strategy, const QString &what, const QString &detail)
{
    const QString first = strategy.isEmpty() ? what : strategy.toHtmlEscaped() + QStringLiteral(" — ") + what;
    return detail.isEmpty() ? first : first + QStringLiteral("<br>") + detail;
}

/// A chart that reads well on screen and on paper: plain white background, no
/// rounded frame, bold title, legend below.
QChart *newChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTheme(QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setDropShadowEnabled(false);
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(Qt::white);
    chart->setMargins(QMargins(8, 8, 8, 8));
    // Axis numbers as the tables write them (QLocale: "3,041,600", not 3041600).
    chart->setLocalizeNumbers(true);
    QFont font = chart->titleFont();
    font.setPointSizeF(font.pointSizeF() * 1.1);
    font.setBold(true);
    chart->setTitleFont(font);
    chart->setTitle(title);
    chart->setProperty(kFullTitleProperty, title);
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QValueAxis *valueAxis(const QString &title, const QString &format = QStringLiteral("%.0f"))
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setMinorTickCount(0);
    return axis;
}

/// A value axis from 0 to a little above `top`, with round ticks.
QValueAxis *zeroBasedAxis(const QString &title, double top)
{
    QValueAxis *axis = valueAxis(title);
    axis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    axis->applyNiceNumbers();
    if (axis->max() <= top) // nice numbers may land exactly on the top value: keep headroom for the cursor
        axis->setMax(axis->max() + (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1));
    return axis;
}

/// Label every `stride`-th step so that about 8 labels at most show: Qt
/// Charts gives each label of an axis the same width (the axis over the
/// label count), so more would cut "drain" in a chart a dock wide.
int labelStride(int computeSteps)
{
    int stride = 1;
    for (int magnitude = 1;; magnitude *= 10)
        for (int m : {1, 2, 5}) {
            stride = m * magnitude;
            if (computeSteps / stride <= 8)
                return stride;
        }
}

/// The 1, 2, 5 × 10^k after `stride`.
int nextStride(int stride)
{
    int magnitude = 1;
    while (magnitude * 10 <= stride)
        magnitude *= 10;
    const int m = stride / magnitude;
    return m < 2 ? 2 * magnitude : m < 5 ? 5 * magnitude : 10 * magnitude;
}

/// The step axis: steps 1..n and "drain". A step is a point at x = k, or,
/// with `spans`, the interval (k-1, k] of its actions: with few steps each
/// interval is a category labelled at its middle, with many the labels sit
/// at the middles of every stride-th step.
QCategoryAxis *stepAxis(const std::vector<StepStats> &steps, double min, double max, bool spans, const QString &title)
{
    auto *axis = new QCategoryAxis;
    axis->setProperty(kStepAxisProperty, true);
    axis->setTitleText(title);
    axis->setStartValue(min);
    axis->setRange(min, max);
    const int count = int(steps.size());
    const bool drain = count > 0 && steps.back().drain;
    const int computeSteps = drain ? count - 1 : count;
    const auto label = [&](int k) { return drain && k == count - 1 ? QStringLiteral("drain") : QString::number(k + 1); };
    if (spans && count <= 30) {
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
        for (int k = 0; k < count; ++k)
            axis->append(label(k), k);
        return axis;
    }
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double offset = spans ? -0.5 : 0.0;
    const int stride = labelStride(computeSteps);
    for (int k = 0; k < computeSteps; ++k) {
        const int number = k + 1;
        if (stride > 1 && number != 1 && number % stride != 0)
            continue;
        if (stride > 1 && drain && computeSteps - k < stride) // would crowd "drain"
            continue;
        axis->append(label(k), k + offset);
    }
    if (drain) {
        axis->append(label(count - 1), count - 1 + offset);
        // "drain" is centred on the last step: a little room past it, inside
        // the plot, or its end falls outside the chart ("drai").
        axis->setMax(axis->max() + (axis->max() - axis->min()) * 0.06);
    }
    return axis;
}

/// Records how the chart maps steps to x: the cursor spans [k + left, k + right]
/// (a line when both are 0, a box around the step otherwise).
void markStepChart(QChart *chart, int stepCount, bool perAction, double left, double right)
{
    chart->setProperty(kStepCountProperty, stepCount);
    chart->setProperty(kPerActionProperty, perAction);
    chart->setProperty(kCursorSpanProperty, QPointF(left, right));
}

/// The vertical line at the cursor step; its points are set by moveCursor.
void addCursor(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, int cursorStep)
{
    auto *cursor = new QLineSeries;
    cursor->setObjectName(QLatin1String(kCursorObjectName));
    cursor->setName(cursorSeriesName());
    QPen pen(Palette::cursor());
    pen.setWidthF(2.0);
    pen.setStyle(Qt::DashLine);
    pen.setCapStyle(Qt::FlatCap);
    cursor->setPen(pen);
    chart->addSeries(cursor);
    cursor->attachAxis(x);
    cursor->attachAxis(y);
    moveCursor(chart, cursorStep);
}

QLineSeries *lineSeries(const QString &name, const QColor &colour, qreal width = 2.0, Qt::PenStyle style = Qt::SolidLine)
{
    auto *series = new QLineSeries;
    series->setName(name);
    QPen pen(colour);
    pen.setWidthF(width);
    pen.setStyle(style);
    series->setPen(pen);
    return series;
}

QAreaSeries *areaSeries(const QString &name, QLineSeries *upper, QLineSeries *lower, const QColor &colour)
{
    auto *area = new QAreaSeries(upper, lower);
    area->setName(name);
    QColor fill = colour;
    fill.setAlpha(215);
    area->setBrush(fill);
    QPen border(colour.darker(125));
    border.setWidthF(1.0);
    area->setPen(border);
    return area;
}

QBarSet *barSet(const QString &name, const QColor &colour)
{
    auto *set = new QBarSet(name);
    set->setColor(colour);
    set->setBorderColor(colour.darker(130));
    return set;
}

/// Lines show as lines in the legend (dashes and all), areas and bars as
/// squares: call once the chart holds all its series.
void lineMarkersFromSeries(QChart *chart)
{
    for (QLegendMarker *marker : chart->legend()->markers())
        if (qobject_cast<QLineSeries *>(marker->series()))
            marker->setShape(QLegend::MarkerShapeFromSeries);
}

constexpr char kNoLegendProperty[] = "convoffloadNoLegend";
/// A legend entry's shorter label, for a figure too narrow for the long one
/// on one row (the title or an axis gives what it leaves out).
constexpr char kShortLabelProperty[] = "convoffloadShortLabel";
/// Set where fitChartLegend shortened a label: the long label, and the one shown.
constexpr char kFullLabelProperty[] = "convoffloadFullLabel";
constexpr char kShownLabelProperty[] = "convoffloadShownLabel";
/// The legend's font before fitChartLegend made it smaller.
constexpr char kLegendFontProperty[] = "convoffloadLegendFont";

template <typename T> T *withShortLabel(T *object, const QString &label)
{
    object->setProperty(kShortLabelProperty, label);
    return object;
}

/// The object that names a legend entry: its bar set or its series.
QObject *legendSource(QLegendMarker *marker)
{
    if (auto *bar = qobject_cast<QBarLegendMarker *>(marker))
        return bar->barset();
    return marker->series();
}

void hideLegendMarkers(QChart *chart, QAbstractSeries *series)
{
    series->setProperty(kNoLegendProperty, true); // markers are visible only in a scene: remember it here
    for (QLegendMarker *marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

/// Qt Charts cut a legend entry it had no room for ("..." at its end).
bool legendCutByQt(const QLegend *legend)
{
    QList<const QGraphicsItem *> pending;
    for (const QGraphicsItem *item : legend->childItems())
        pending << item;
    while (!pending.isEmpty()) {
        const QGraphicsItem *item = pending.takeLast();
        for (const QGraphicsItem *child : item->childItems())
            pending << child;
        if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
            text && text->isVisible() && text->toPlainText().endsWith(QStringLiteral("...")))
            return true;
    }
    return false;
}

} // namespace

QString cursorSeriesName() { return QStringLiteral("current step"); }

void thinStepLabels(QChart *chart, qreal width)
{
    if (!chart || width <= 0)
        return;
    for (QAbstractAxis *axis : chart->axes(Qt::Horizontal))
        if (auto *steps = qobject_cast<QCategoryAxis *>(axis); steps && steps->property(kStepAxisProperty).toBool()
            && steps->labelsPosition() == QCategoryAxis::AxisLabelsPositionOnValue) {
            // Qt gives every label of an axis the same width (axis over
            // count): fewer step labels so that "drain" fits. Every other
            // one removed gave uneven ticks ("1, 100, 300, 500, drain"):
            // the labels are laid out again at a larger stride of 1, 2 or
            // 5 × 10^k, keeping the first and "drain", as stepAxis does.
            const QFontMetricsF fm(steps->labelsFont());
            const int maxLabels = std::max(3, int(width * 0.8 / (fm.horizontalAdvance(QStringLiteral("drain")) * 1.8)));
            if (steps->count() <= maxLabels)
                continue;
            // Step n sits at x = n - 1 + offset (-0.5 on a span axis).
            const QStringList labels = steps->categoriesLabels();
            double offset = 0;
            int last = 0;
            std::optional<double> drainAt;
            for (const QString &label : labels) {
                bool number = false;
                const int n = label.toInt(&number);
                if (number) {
                    offset = steps->endValue(label) - (n - 1);
                    last = std::max(last, n);
                } else {
                    drainAt = steps->endValue(label);
                }
            }
            const int computeSteps = drainAt ? int(std::lround(*drainAt - offset)) : last;
            QList<QPair<QString, double>> kept;
            for (int stride = labelStride(computeSteps);; stride = nextStride(stride)) {
                kept.clear();
                kept.append({QStringLiteral("1"), offset});
                for (int n = stride; n <= computeSteps; n += stride)
                    if (n != 1 && !(drainAt && computeSteps + 1 - n < stride)) // would crowd "drain" (as stepAxis)
                        kept.append({QString::number(n), n - 1 + offset});
                if (drainAt)
                    kept.append({QStringLiteral("drain"), *drainAt});
                if (kept.size() <= maxLabels || stride > computeSteps)
                    break;
            }
            const double min = steps->min(), max = steps->max();
            for (const QString &label : labels)
                steps->remove(label);
            for (const auto &[label, x] : kept)
                steps->append(label, x);
            steps->setRange(min, max);
        }
}

void setChartFont(QChart *chart, const QFont &font, qreal width)
{
    QFont title = font;
    title.setBold(true);
    title.setPointSizeF(font.pointSizeF() * 1.1);
    chart->setTitleFont(title);
    chart->legend()->setFont(font);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
    const QFontMetricsF fm(font);
    // Tight margins (the canvas is the printed size), room on the right for
    // half of the last step label ("drain") centred on the plot's edge.
    chart->setMargins(QMargins(2, 2, int(std::ceil(fm.horizontalAdvance(QStringLiteral("drain")) / 2)) + 2, 2));
    thinStepLabels(chart, width);
    // Scatter marks in proportion to the text (a 10 px mark is large on a column).
    for (QAbstractSeries *series : chart->series())
        if (auto *scatter = qobject_cast<QScatterSeries *>(series))
            scatter->setMarkerSize(std::min(scatter->markerSize(), std::round(fm.height() * 0.6)));
    chart->setProperty(kLegendFontProperty, font);
    // An export keeps the preset's text size: the legend does not shrink.
    fitChartLegend(chart, width, font.pointSizeF());
}

void fitChartLegend(QChart *chart, qreal width, qreal minPointSize)
{
    if (!chart || width <= 0)
        return;
    QLegend *legend = chart->legend();
    QList<QLegendMarker *> entries;
    for (QLegendMarker *marker : legend->markers())
        if (marker->series() && !marker->series()->property(kNoLegendProperty).toBool())
            entries << marker;
    // Start again from the long labels and the legend's own font, so that a
    // wider chart gets them back. A label differs from the one put here when
    // a refresh (ChartRefresh) renamed the series: that one is the long one.
    const auto setLabel = [](QObject *source, const QString &label) {
        if (auto *set = qobject_cast<QBarSet *>(source))
            set->setLabel(label);
        else if (auto *series = qobject_cast<QAbstractSeries *>(source))
            series->setName(label);
    };
    const auto labelOf = [](QObject *source) {
        if (auto *set = qobject_cast<QBarSet *>(source))
            return set->label();
        return static_cast<QAbstractSeries *>(source)->name();
    };
    for (QLegendMarker *marker : entries) {
        QObject *source = legendSource(marker);
        const QVariant shown = source->property(kShownLabelProperty);
        if (shown.isValid() && labelOf(source) == shown.toString())
            setLabel(source, source->property(kFullLabelProperty).toString());
        source->setProperty(kShownLabelProperty, QVariant());
        source->setProperty(kFullLabelProperty, QVariant());
    }
    QVariant baseFont = chart->property(kLegendFontProperty);
    if (!baseFont.isValid()) {
        baseFont = legend->font();
        chart->setProperty(kLegendFontProperty, baseFont);
    }
    const QFont base = baseFont.value<QFont>();
    if (legend->font() != base)
        legend->setFont(base);
    if (legend->alignment() != Qt::AlignBottom)
        legend->setAlignment(Qt::AlignBottom);
    if (entries.isEmpty() || !legend->isVisible())
        return;
    const auto rowWidth = [&](const QFont &font, bool shortLabels) {
        const QFontMetricsF fm(font);
        qreal row = 0;
        for (QLegendMarker *marker : entries) {
            const QVariant shorter = legendSource(marker)->property(kShortLabelProperty);
            const QString label = shortLabels && shorter.isValid() ? shorter.toString() : marker->label();
            // The marker and the gaps, as Qt Charts lays them out: a bar's
            // square is narrower than a line's sample.
            row += fm.horizontalAdvance(label) + fm.height() * (marker->type() == QLegendMarker::LegendMarkerTypeBar ? 1.8 : 3.0);
        }
        return row;
    };
    const qreal room = width * 0.9;
    // The estimate, and where the chart is laid out at this width (on
    // screen) what Qt draws too: Qt cuts some entries the estimate lets by,
    // and cuts others only once the scene has been updated (a check alone
    // passed the sweep's legend at 320 px, cut a moment later).
    const bool laidOut = chart->layout() && qAbs(chart->size().width() - width) < 1;
    const auto fits = [&](const QFont &font, bool shortLabels) {
        if (rowWidth(font, shortLabels) > room)
            return false;
        if (!laidOut)
            return true;
        chart->layout()->activate();
        return !legendCutByQt(legend);
    };
    if (fits(base, false))
        return;
    // Under the plot (the plot keeps the width, and with it the step
    // labels): with the short labels, then in smaller type down to
    // `minPointSize` (Qt cuts a row that is too long: at 1024×600 the
    // footprint's last entry lost its text); else on the right of the plot,
    // one entry a line.
    for (QLegendMarker *marker : entries) {
        QObject *source = legendSource(marker);
        const QVariant shorter = source->property(kShortLabelProperty);
        if (!shorter.isValid())
            continue;
        source->setProperty(kFullLabelProperty, labelOf(source));
        source->setProperty(kShownLabelProperty, shorter.toString());
        setLabel(source, shorter.toString());
    }
    QFont smaller = base;
    const qreal basePoints = base.pointSizeF() > 0 ? base.pointSizeF() : 9.0;
    for (qreal points = basePoints; points >= minPointSize - 1e-9; points -= 0.5) {
        smaller.setPointSizeF(points);
        if (legend->font() != smaller)
            legend->setFont(smaller);
        if (fits(smaller, true))
            return;
    }
    // Short labels in the smallest type, one a line: the plot gives way.
    legend->setAlignment(Qt::AlignRight);
}

namespace {

/// The title with its lines fitted to `room` pixels of `fm`.
/// `plain` as two lines, broken after the last ", " where both fit in
/// `room` (HTML); nullopt when none does.
std::optional<QString> brokenAtComma(const QString &plain, const QFontMetricsF &fm, qreal room)
{
    for (qsizetype at = plain.lastIndexOf(QStringLiteral(", ")); at > 0; at = plain.lastIndexOf(QStringLiteral(", "), at - 1)) {
        const QString head = plain.left(at + 1), tail = plain.mid(at + 2);
        if (fm.horizontalAdvance(head) > room)
            continue; // an earlier comma makes a shorter head
        if (fm.horizontalAdvance(tail) > room)
            return std::nullopt; // every earlier break makes the tail longer
        return head.toHtmlEscaped() + QStringLiteral("<br>") + tail.toHtmlEscaped();
    }
    return std::nullopt;
}

/// `plain` on as many lines as it takes, broken at spaces, each in `room`
/// (HTML); nullopt when a word alone is wider.
std::optional<QString> wrappedAtSpaces(const QString &plain, const QFontMetricsF &fm, qreal room)
{
    QStringList lines;
    QString current;
    for (const QString &word : plain.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (fm.horizontalAdvance(word) > room)
            return std::nullopt;
        const QString longer = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
        if (fm.horizontalAdvance(longer) <= room) {
            current = longer;
        } else {
            lines << current.toHtmlEscaped();
            current = word;
        }
    }
    lines << current.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

QString titleFittedTo(const QString &full, const QFontMetricsF &fm, qreal room)
{
    QStringList lines = full.split(QStringLiteral("<br>"));
    for (QString &line : lines) {
        const QString plain = QTextDocumentFragment::fromHtml(line).toPlainText();
        if (fm.horizontalAdvance(plain) <= room)
            continue;
        const qsizetype dash = plain.lastIndexOf(QStringLiteral(" — "));
        if (dash > 0) { // "strategy — what": the strategy's name gives way
            const QString what = plain.mid(dash);
            const qreal nameRoom = std::max(room - fm.horizontalAdvance(what), fm.horizontalAdvance(QStringLiteral("MM…")));
            line = (fm.elidedText(plain.left(dash), Qt::ElideRight, nameRoom) + what).toHtmlEscaped();
        } else if (const std::optional<QString> two = brokenAtComma(plain, fm, room)) {
            line = *two; // "Row-by-Row vs ZigZag,<br>crossover at G ≈ 16.6": the figure's point kept
        } else if (const std::optional<QString> wrapped = wrappedAtSpaces(plain, fm, room)) {
            line = *wrapped; // a sentence (a placeholder's message) on more lines
        } else {
            line = fm.elidedText(plain, Qt::ElideRight, room).toHtmlEscaped();
        }
    }
    return lines.join(QStringLiteral("<br>"));
}

/// Qt Charts cut the title it drew ("..." at a line's end; it then drops
/// the lines after it).
bool titleCutByQt(const QChart *chart)
{
    for (const QGraphicsItem *item : chart->childItems())
        if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
            text && text->isVisible() && text->toPlainText().endsWith(QStringLiteral("...")))
            return true;
    return false;
}

} // namespace

namespace {

/// An axis's title as made, before fitAxisTitles broke it.
constexpr const char *kFullAxisTitleProperty = "convoffloadFullAxisTitle";

/// `title` broken after its first colon.
QString brokenAxisTitle(const QString &title)
{
    const qsizetype colon = title.indexOf(QLatin1String(": "));
    return colon < 0 ? title : title.left(colon + 1) + QStringLiteral("<br>") + title.mid(colon + 2);
}

/// An axis title wider than its side of the laid-out plot breaks after its
/// first colon ("785 steps, 5 per bar:<br>mean, line: longest") instead of
/// being cut by Qt with an ellipsis.
void fitAxisTitles(QChart *chart)
{
    if (chart->plotArea().width() <= 0)
        return; // not laid out yet
    for (QAbstractAxis *axis : chart->axes()) {
        QString full = axis->property(kFullAxisTitleProperty).toString();
        if (full.isEmpty() || (axis->titleText() != full && axis->titleText() != brokenAxisTitle(full))) {
            full = axis->titleText(); // new, or set again since (a chart refreshed with other steps)
            axis->setProperty(kFullAxisTitleProperty, full);
        }
        if (!full.contains(QLatin1String(": ")))
            continue;
        const QFontMetricsF fm(axis->titleFont());
        const qreal side = axis->orientation() == Qt::Horizontal ? chart->plotArea().width() : chart->plotArea().height();
        const QString wanted = fm.horizontalAdvance(full) <= side - fm.averageCharWidth() ? full : brokenAxisTitle(full);
        if (axis->titleText() != wanted)
            axis->setTitleText(wanted);
    }
}

} // namespace

void fitChartTitle(QChart *chart, qreal width)
{
    if (!chart || width <= 0)
        return;
    QString full = chart->property(kFullTitleProperty).toString();
    if (full.isEmpty()) {
        full = chart->title();
        chart->setProperty(kFullTitleProperty, full);
    }
    const QFontMetricsF fm(chart->titleFont());
    // Qt Charts lays the title out within the margins, less the text item's
    // own margins and some; where the chart is laid out, what Qt drew is
    // checked and the room narrowed until it draws the line whole.
    qreal room = width - chart->margins().left() - chart->margins().right() - 2 * fm.averageCharWidth();
    const bool laidOut = chart->layout() && qAbs(chart->size().width() - width) < 1; // shown at this width
    for (int attempt = 0; attempt < 8; ++attempt) {
        const QString fitted = titleFittedTo(full, fm, room);
        if (chart->title() != fitted)
            chart->setTitle(fitted);
        if (!laidOut)
            break;
        chart->layout()->activate();
        if (!titleCutByQt(chart))
            break;
        room -= fm.averageCharWidth();
    }
    if (laidOut)
        fitAxisTitles(chart);
}

QString plainChartTitle(const QChart *chart)
{
    if (!chart)
        return {};
    const QString full = chart->property(kFullTitleProperty).toString();
    QString html = full.isEmpty() ? chart->title() : full; // the whole name, even where the figure shortened it
    html.replace(QStringLiteral("<br>"), QStringLiteral(": "));
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

QLineSeries *cursorSeries(const QChart *chart)
{
    if (!chart)
        return nullptr;
    for (QAbstractSeries *series : chart->series())
        if (series->objectName() == QLatin1String(kCursorObjectName))
            return qobject_cast<QLineSeries *>(series);
    return nullptr;
}

void moveCursor(QChart *chart, int cursorStep)
{
    QLineSeries *cursor = cursorSeries(chart);
    if (!cursor)
        return;
    const int count = chart->property(kStepCountProperty).toInt();
    const bool visible = cursorStep >= 0 && cursorStep < count;
    cursor->setVisible(visible);
    // The line explains itself (and is not in exported figures): no legend entry.
    hideLegendMarkers(chart, cursor);
    if (!visible) {
        cursor->clear();
        return;
    }
    double top = 1.0;
    if (const auto *y = qobject_cast<const QValueAxis *>(chart->axes(Qt::Vertical, cursor).value(0)))
        top = y->max();
    const QPointF span = chart->property(kCursorSpanProperty).toPointF();
    const double left = cursorStep + span.x(), right = cursorStep + span.y();
    if (left == right) // a vertical line through the step
        cursor->replace(QList<QPointF>{{left, 0.0}, {left, top}});
    else // a box open at the bottom around the step's bar or actions
        cursor->replace(QList<QPointF>{{left, 0.0}, {left, top}, {right, top}, {right, 0.0}});
}

int stepAt(const QChart *chart, double x)
{
    if (!chart)
        return -1;
    const QVariant countProperty = chart->property(kStepCountProperty);
    if (!countProperty.isValid())
        return -1;
    const int count = countProperty.toInt();
    // Per action, step k spans (k-1, k]; per step and for bars, k is centred on x = k.
    const double position = chart->property(kPerActionProperty).toBool() ? std::ceil(x - 1e-9) : std::round(x);
    if (!std::isfinite(position) || position < 0 || position >= count)
        return -1;
    return int(position);
}

QChart *footprintChart(
    const Problem &problem, const SimulationResult &result, int cursorStep, bool perAction, const QString &strategy, int maxBins)
{
    const std::vector<StepStats> &steps = result.steps;
    const int count = int(steps.size());
    perAction = perAction && result.trace.actions.size() == std::size_t(count) * kActionCount && count > 0;

    const double capacity = double(problem.hardware.mem_size);
    // The title gives the true peak (over every action) even per step.
    const std::int64_t peak = result.peakFootprint();

    QChart *chart = newChart(titled(strategy, QStringLiteral("on-chip footprint"),
        QStringLiteral("peak %1 of %2 elements, %3")
            .arg(peak)
            .arg(problem.hardware.mem_size)
            .arg(perAction ? QStringLiteral("per action") : QStringLiteral("per step"))));

    // Stacked areas: each upper line is the running sum, the lower line of an
    // area is the upper line of the one below.
    // The area series do not own their boundary lines: the chart does.
    QLineSeries *input = lineSeries(QString(), Palette::input());
    QLineSeries *kernels = lineSeries(QString(), Palette::kernels());
    QLineSeries *outputs = lineSeries(QString(), Palette::outputs());
    for (QLineSeries *boundary : {input, kernels, outputs})
        boundary->setParent(chart);
    QList<QPointF> in, ker, out;
    const auto add = [&](double x, const Footprint &f) {
        in.append({x, double(f.input)});
        ker.append({x, double(f.input + f.kernels)});
        out.append({x, double(f.total())});
    };
    // More steps (or actions) than `maxBins`: each bin is drawn at its
    // highest footprint, with that step's (or action's) input / kernels /
    // output, so a peak is never hidden nor a stack made up
    // (docs/user/visualiser.md, "Charts").
    const StepBins bins(perAction ? qint64(count) * kActionCount : count, maxBins);
    const auto highest = [](qint64 first, qint64 end, const auto &footprintOf) {
        qint64 best = first;
        for (qint64 i = first + 1; i < end; ++i)
            if (footprintOf(i).total() > footprintOf(best).total())
                best = i;
        return best;
    };
    in.reserve(bins.binCount() * 2);
    ker.reserve(bins.binCount() * 2);
    out.reserve(bins.binCount() * 2);
    double xMin = 0;
    if (perAction) {
        // Action a of step k is the slot [k-1 + a/6, k-1 + (a+1)/6], level at
        // the footprint after it: a staircase, not a slope between actions.
        // A bin of slots is one stair at the highest of its actions.
        xMin = -1;
        const auto after = [&](qint64 slot) -> const Footprint & { return result.trace.actions[std::size_t(slot)].after; };
        const auto slotX = [](qint64 slot) { return double(slot) / kActionCount - 1; };
        for (qint64 b = 0; b < bins.binCount(); ++b) {
            const Footprint &level = after(highest(bins.first(b), bins.end(b), after));
            add(slotX(bins.first(b)), level);
            add(slotX(bins.end(b)), level);
        }
    } else {
        const auto after = [&](qint64 k) -> const Footprint & { return steps[std::size_t(k)].after; };
        for (qint64 b = 0; b < bins.binCount(); ++b) {
            const qint64 k = highest(bins.first(b), bins.end(b), after);
            add(double(k), after(k));
        }
    }
    input->replace(in);
    kernels->replace(ker);
    outputs->replace(out);
    const double xMax = std::max(xMin + 1, double(count - 1));

    QAreaSeries *areas[] = {areaSeries(QStringLiteral("input"), input, nullptr, Palette::input()),
        areaSeries(QStringLiteral("kernels"), kernels, input, Palette::kernels()),
        areaSeries(QStringLiteral("output"), outputs, kernels, Palette::outputs())};
    if (in.size() > 400) // dense: outlines would paint over the fills
        for (QAreaSeries *area : areas)
            area->setPen(Qt::NoPen);

    // Per step, a quarter step of room at each end for the first and the
    // "drain" labels, as on the cumulative chart.
    const double margin = perAction ? 0.0 : 0.25;
    // Binned, the axis says how, in few words: a narrow figure cuts its title.
    QString xTitle = perAction ? QStringLiteral("step (actions a1–a6)") : QStringLiteral("step");
    if (bins.aggregated())
        xTitle = perAction ? QStringLiteral("%1 actions (a1–a6), highest of each %2").arg(bins.itemCount()).arg(bins.perBin())
                           : QStringLiteral("%1 steps, highest of each %2").arg(bins.itemCount()).arg(bins.perBin());
    QCategoryAxis *x = stepAxis(steps, xMin - margin, xMax + margin, perAction, xTitle);
    QValueAxis *y = zeroBasedAxis(QStringLiteral("elements on chip"), std::max(capacity, double(peak)));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAreaSeries *area : areas) {
        chart->addSeries(area);
        area->attachAxis(x);
        area->attachAxis(y);
    }

    // Short: "mem_size", the title gives the number.
    QLineSeries *capacityLine
        = withShortLabel(lineSeries(QStringLiteral("mem_size = %1").arg(problem.hardware.mem_size), Palette::capacity()),
            QStringLiteral("mem_size"));
    // Dash-dot short enough for the legend's swatch to show it (Qt's
    // DashDotLine at 2.5 px drew one dash there, a solid line).
    QPen capacityPen(Palette::capacity());
    capacityPen.setWidthF(2.0);
    capacityPen.setCapStyle(Qt::FlatCap);
    capacityPen.setDashPattern({2.0, 1.25, 0.75, 1.25});
    capacityLine->setPen(capacityPen);
    capacityLine->append(xMin, capacity);
    capacityLine->append(xMax, capacity);
    chart->addSeries(capacityLine);
    capacityLine->attachAxis(x);
    capacityLine->attachAxis(y);

    markStepChart(chart, count, perAction, perAction ? -1.0 : 0.0, 0.0);
    addCursor(chart, x, y, cursorStep);
    lineMarkersFromSeries(chart);
    return chart;
}

namespace {

// Bars of every step; with a problem, the load is split into input and kernels.
// With a transfer model the load and the write are split instead into their
// data and their DMA set-up (docs/reference/model.md#transfer-cost): the step
// stats give the set-up of both together and the runs of each, every run
// paying the same t_setup, so the load's share is set-up · load runs / runs.
// The kernels' share of that set-up is not known, hence no kernel split then.
/// One part of the stacked duration: its legend, colour and cycles per step.
struct DurationPart {
    QString name, shortLabel;
    QColor colour;
    QList<qreal> cycles;
};

/// One bar per step, stacked: the steps of a small layer, each bar its own
/// graphics item (Qt Charts), filled in one append per set.
QAbstractSeries *stepBars(const std::vector<DurationPart> &parts, int count)
{
    auto *bars = new QStackedBarSeries;
    for (const DurationPart &part : parts) {
        QBarSet *set = barSet(part.name, part.colour);
        if (!part.shortLabel.isEmpty())
            withShortLabel(set, part.shortLabel);
        set->append(part.cycles);
        bars->append(set);
    }
    bars->setBarWidth(count > 40 ? 0.9 : 0.7);
    return bars;
}

/// The bars of many steps as stacked areas, a flat stair over the steps of
/// each bin [first - 0.5, end - 0.5] (a bar's span): one path per part
/// however many steps. A bin of several steps stands at their mean (the
/// stack then sums to the mean step), and a line marks its longest step, so
/// that averaging hides no spike (docs/user/visualiser.md, "Charts").
std::vector<QAbstractSeries *> binnedBars(QChart *chart, const std::vector<DurationPart> &parts, const StepBins &bins)
{
    std::vector<QAbstractSeries *> series;
    QList<QPointF> below, longest;
    for (const DurationPart &part : parts) {
        QList<QPointF> upper;
        upper.reserve(bins.binCount() * 2);
        for (qint64 b = 0; b < bins.binCount(); ++b) {
            double sum = 0;
            for (qint64 k = bins.first(b); k < bins.end(b); ++k)
                sum += part.cycles[k];
            const double base = below.isEmpty() ? 0.0 : below[b * 2].y();
            const double top = base + sum / double(bins.end(b) - bins.first(b));
            upper.append({double(bins.first(b)) - 0.5, top});
            upper.append({double(bins.end(b)) - 0.5, top});
        }
        QLineSeries *upperLine = lineSeries(QString(), part.colour);
        upperLine->setParent(chart);
        upperLine->replace(upper);
        QLineSeries *lowerLine = nullptr;
        if (!below.isEmpty()) {
            lowerLine = lineSeries(QString(), part.colour);
            lowerLine->setParent(chart);
            lowerLine->replace(below);
        }
        QAreaSeries *area = areaSeries(part.name, upperLine, lowerLine, part.colour);
        if (!part.shortLabel.isEmpty())
            withShortLabel(area, part.shortLabel);
        if (upper.size() > 400) // dense: outlines would paint over the fills
            area->setPen(Qt::NoPen);
        series.push_back(area);
        below = std::move(upper);
    }
    if (bins.aggregated()) {
        longest.reserve(bins.binCount() * 2);
        for (qint64 b = 0; b < bins.binCount(); ++b) {
            double top = 0;
            for (qint64 k = bins.first(b); k < bins.end(b); ++k) {
                double step = 0;
                for (const DurationPart &part : parts)
                    step += part.cycles[k];
                top = std::max(top, step);
            }
            longest.append({double(bins.first(b)) - 0.5, top});
            longest.append({double(bins.end(b)) - 0.5, top});
        }
        // No legend entry: the step axis says what it is ("line: longest"),
        // and a fifth entry would not fit a dock's legend row.
        QLineSeries *line = lineSeries(QStringLiteral("longest"), QColor(0, 0, 0, 130), 1.0);
        line->setProperty(kNoLegendProperty, true);
        line->replace(longest);
        series.push_back(line);
    }
    return series;
}

/// Steps drawn as bars, one graphics item per bar and part, up to this many;
/// more are drawn as stacked areas (binnedBars), which cost one path per part.
constexpr int kMostStepBars = 150;

// Bars of every step; with a problem, the load is split into input and kernels.
// With a transfer model the load and the write are split instead into their
// data and their DMA set-up (docs/reference/model.md#transfer-cost): the step
// stats give the set-up of both together and the runs of each, every run
// paying the same t_setup, so the load's share is set-up · load runs / runs.
// The kernels' share of that set-up is not known, hence no kernel split then.
QChart *durationBars(const Problem *problem, const SimulationResult &result, int cursorStep, const QString &strategy, int maxBins)
{
    const std::vector<StepStats> &steps = result.steps;
    const int count = int(steps.size());
    const bool transfer = result.transfer_model;
    QString summary = QStringLiteral("total %1 cycles").arg(number(result.totalDuration()));
    if (transfer)
        summary += QStringLiteral(", DMA set-up %1").arg(number(result.setupDuration()));
    QChart *chart = newChart(titled(strategy, QStringLiteral("duration per step"), summary));

    // Short labels for a narrow figure: the title says these are durations.
    const bool kernelSplit = problem && !transfer;
    DurationPart load = transfer ? DurationPart{QStringLiteral("load data"), QStringLiteral("load"), Palette::load(), {}}
        : problem                ? DurationPart{QStringLiteral("load input"), QStringLiteral("input"), Palette::load(), {}}
                  : DurationPart{QStringLiteral("load (input + kernels)"), QStringLiteral("load"), Palette::load(), {}};
    DurationPart loadKernels{QStringLiteral("load kernels"), QStringLiteral("kernels"), Palette::kernels(), {}};
    DurationPart write{
        transfer ? QStringLiteral("write data") : QStringLiteral("write back"), QStringLiteral("write"), Palette::write(), {}};
    DurationPart setup{QStringLiteral("DMA set-up"), QStringLiteral("set-up"), Palette::setup(), {}};
    DurationPart compute{QStringLiteral("compute"), QString(), Palette::compute(), {}};
    for (DurationPart *part : {&load, &loadKernels, &write, &setup, &compute})
        part->cycles.reserve(count);
    double top = 0;
    for (const StepStats &s : steps) {
        if (transfer) {
            const std::int64_t runs = s.load_runs + s.write_runs;
            const double loadSetup = runs > 0 ? s.setup_duration * double(s.load_runs) / double(runs) : 0.0;
            load.cycles.append(s.load_duration - loadSetup);
            write.cycles.append(s.write_duration - (s.setup_duration - loadSetup));
            setup.cycles.append(s.setup_duration);
        } else {
            if (kernelSplit) {
                const LoadSplit split = loadSplit(*problem, s);
                load.cycles.append(split.input);
                loadKernels.cycles.append(split.kernels);
            } else {
                load.cycles.append(s.load_duration);
            }
            write.cycles.append(s.write_duration);
        }
        compute.cycles.append(s.compute_duration);
        top = std::max(top, s.duration());
    }
    std::vector<DurationPart> parts;
    parts.push_back(std::move(load));
    if (kernelSplit)
        parts.push_back(std::move(loadKernels));
    parts.push_back(std::move(write));
    if (transfer)
        parts.push_back(std::move(setup));
    parts.push_back(std::move(compute));

    const StepBins bins(count, maxBins);
    QString xTitle = QStringLiteral("step");
    if (bins.aggregated())
        xTitle = QStringLiteral("%1 steps, %2 per bar: mean, line: longest").arg(count).arg(bins.perBin());
    QCategoryAxis *x = stepAxis(steps, -0.5, std::max(0.5, count - 0.5), false, xTitle);
    QValueAxis *y = zeroBasedAxis(bins.aggregated() ? QStringLiteral("cycles per step") : QStringLiteral("cycles"), top);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const std::vector<QAbstractSeries *> series = !bins.aggregated() && count <= kMostStepBars
        ? std::vector<QAbstractSeries *>{stepBars(parts, count)}
        : binnedBars(chart, parts, bins);
    for (QAbstractSeries *s : series) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        if (s->property(kNoLegendProperty).toBool())
            hideLegendMarkers(chart, s);
    }

    markStepChart(chart, count, false, -0.5, 0.5);
    addCursor(chart, x, y, cursorStep);
    lineMarkersFromSeries(chart);
    return chart;
}

} // namespace

LoadSplit loadSplit(const Problem &problem, const StepStats &step)
{
    // A transfer model's cost is not elements·t_l: the simulator's own split.
    if (problem.hardware.transfer)
        return {step.load_duration - step.kernel_load_duration, step.kernel_load_duration};
    const double tl = problem.hardware.t_l;
    return {double(step.loaded_input) * tl, problem.options.kernels_preloaded ? 0.0 : double(step.loaded_kernels) * tl};
}

QChart *durationChart(const SimulationResult &result, int cursorStep, const QString &strategy, int maxBins)
{
    return durationBars(nullptr, result, cursorStep, strategy, maxBins);
}

QChart *durationChart(
    const Problem &problem, const SimulationResult &result, int cursorStep, const QString &strategy, int maxBins)
{
    return durationBars(&problem, result, cursorStep, strategy, maxBins);
}

QChart *cumulativeDurationChart(const SimulationResult &result, int cursorStep, const QString &strategy, int maxBins)
{
    const std::vector<StepStats> &steps = result.steps;
    const int count = int(steps.size());
    QChart *chart = newChart(titled(
        strategy, QStringLiteral("cumulative duration"), QStringLiteral("total %1 cycles").arg(number(result.totalDuration()))));

    QLineSeries *total = lineSeries(QStringLiteral("duration so far"), Palette::kernels(), 2.5);
    // More steps than `maxBins`: the total at the first step and at the
    // last step of every bin, exact there; the curve never falls, so it stays
    // between the points around it (docs/user/visualiser.md, "Charts").
    const StepBins bins(count, maxBins);
    QList<QPointF> points;
    points.reserve(bins.binCount() + 1);
    double sum = 0;
    for (int k = 0; k < count; ++k) {
        sum += steps[std::size_t(k)].duration();
        if (k == 0 || (k + 1) % bins.perBin() == 0 || k == count - 1)
            points.append({double(k), sum});
    }
    total->replace(points);
    total->setPointsVisible(count <= 60);

    QString xTitle = QStringLiteral("step");
    if (bins.aggregated())
        xTitle = QStringLiteral("%1 steps, a point every %2").arg(count).arg(bins.perBin());
    QCategoryAxis *x = stepAxis(steps, -0.25, std::max(0.25, count - 0.75), false, xTitle);
    QValueAxis *y = zeroBasedAxis(QStringLiteral("cycles"), sum);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addSeries(total);
    total->attachAxis(x);
    total->attachAxis(y);

    markStepChart(chart, count, false, 0.0, 0.0);
    addCursor(chart, x, y, cursorStep);
    lineMarkersFromSeries(chart);
    return chart;
}

int bestRow(const std::vector<CompareRow> &rows)
{
    int best = -1;
    for (int i = 0; i < int(rows.size()); ++i) {
        const CompareRow &r = rows[std::size_t(i)];
        if (r.failure.empty() && r.valid && (best < 0 || r.total_duration < rows[std::size_t(best)].total_duration))
            best = i;
    }
    return best;
}

std::vector<double> sweepCrossovers(const std::vector<SweepRow> &rows)
{
    std::vector<double> crossings;
    int last = -1; // last row with a strict winner
    for (int i = 0; i < int(rows.size()); ++i) {
        const SweepRow &r = rows[std::size_t(i)];
        const double d = r.row_by_row.total_duration - r.zigzag.total_duration;
        if (d == 0 || !r.row_by_row.failure.empty() || !r.zigzag.failure.empty())
            continue;
        if (last >= 0) {
            const SweepRow &p = rows[std::size_t(last)];
            const double dp = p.row_by_row.total_duration - p.zigzag.total_duration;
            if ((dp < 0) != (d < 0)) {
                if (last == i - 1) // the two curves cross between the two sizes
                    crossings.push_back(double(p.group_size) + (double(r.group_size - p.group_size) * dp / (dp - d)));
                else // they meet (a tie) at the sizes in between
                    crossings.push_back(double(rows[std::size_t(last + 1)].group_size));
            }
        }
        last = i;
    }
    return crossings;
}

namespace {

/// The extent of the drawable points of a sweep: durations and group sizes.
struct SweepExtent {
    double lo = 0, hi = 1; // total duration
    double gMin = 0, gMax = 1; // group size
};

SweepExtent sweepExtent(const std::vector<SweepRow> &rows)
{
    SweepExtent e;
    bool first = true;
    for (const SweepRow &r : rows)
        for (const CompareRow *c : {&r.row_by_row, &r.zigzag}) {
            if (!c->failure.empty())
                continue;
            e.lo = first ? c->total_duration : std::min(e.lo, c->total_duration);
            e.hi = first ? c->total_duration : std::max(e.hi, c->total_duration);
            e.gMin = first ? double(r.group_size) : std::min(e.gMin, double(r.group_size));
            e.gMax = first ? double(r.group_size) : std::max(e.gMax, double(r.group_size));
            first = false;
        }
    return e;
}

/// The sweep chart's axes: group sizes along x (one tick per size, or fewer),
/// durations along y with a margin around the points.
struct SweepAxes {
    QCategoryAxis *x;
    QValueAxis *y;
};

SweepAxes addSweepAxes(QChart *chart, const std::vector<SweepRow> &rows)
{
    QValueAxis *y = valueAxis(QStringLiteral("cycles"));
    SweepExtent e = sweepExtent(rows);
    const double pad = std::max(1.0, (e.hi - e.lo) * 0.06);
    y->setRange(std::max(0.0, e.lo - pad), e.hi + pad);
    y->applyNiceNumbers();
    if (e.gMax <= e.gMin)
        e.gMax = e.gMin + 1;
    // A label at every multiple of a round stride, placed where it belongs.
    // Dynamic ticks of a QValueAxis (anchor 0, interval 5) drew the grid
    // lines but not one label in Qt 6.4, at any size.
    auto *x = new QCategoryAxis;
    x->setTitleText(QStringLiteral("group size G"));
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setStartValue(e.gMin - 0.5);
    x->setRange(e.gMin - 0.5, e.gMax + 0.5);
    const int from = int(e.gMin), to = int(e.gMax);
    const int stride = labelStride(to - from + 1);
    for (int g = (from + stride - 1) / stride * stride; g <= to; g += stride)
        x->append(QString::number(g), g);
    if (x->count() < 2) { // a short range between two multiples: its ends
        for (const QString &label : x->categoriesLabels())
            x->remove(label);
        x->append(QString::number(from), from);
        if (to > from)
            x->append(QString::number(to), to);
        x->setRange(e.gMin - 0.5, e.gMax + 0.5);
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    return {x, y};
}

void attachSweepSeries(QChart *chart, const SweepAxes &axes, QAbstractSeries *series)
{
    chart->addSeries(series);
    series->attachAxis(axes.x);
    series->attachAxis(axes.y);
}

/// The dashes of an invalid run and of its legend entry: short enough that
/// the legend's swatch (about a line of text long) shows a gap, where Qt's
/// DashLine (4 + 2 pen widths) drew one dash there, a solid line.
QPen invalidRunPen(const QColor &colour)
{
    QPen pen(colour);
    pen.setWidthF(2.0);
    pen.setCapStyle(Qt::FlatCap); // dashes as long as the pattern says
    pen.setDashPattern({2.0, 1.5});
    return pen;
}

/// One strategy's curve of a sweep.
struct SweepCurve {
    QString name;
    QColor colour;
    const CompareRow SweepRow::*row;
    QScatterSeries::MarkerShape shape;
};

/// The line runs of `curve`: cut into runs of valid and invalid sizes, solid
/// where valid and dashed where not. Each run starts at the last point of the
/// previous one so the curve stays continuous; one legend entry per curve
/// (the dashes have one entry for both curves). Returns whether a run is
/// invalid.
bool addSweepRuns(QChart *chart, const SweepAxes &axes, const std::vector<SweepRow> &rows, const SweepCurve &curve)
{
    QLineSeries *run = nullptr;
    bool runValid = false, named = false, anyInvalid = false;
    std::optional<QPointF> previous;
    for (const SweepRow &r : rows) {
        const CompareRow &c = r.*curve.row;
        if (!c.failure.empty()) { // nothing to draw: break the curve
            run = nullptr;
            previous.reset();
            continue;
        }
        const QPointF p(double(r.group_size), c.total_duration);
        if (!run || runValid != c.valid) {
            run = c.valid ? lineSeries(curve.name, curve.colour, 2.5)
                          : lineSeries(curve.name + QStringLiteral(", invalid"), curve.colour);
            if (!c.valid)
                run->setPen(invalidRunPen(curve.colour));
            runValid = c.valid;
            if (previous)
                run->append(*previous);
            run->append(p);
            attachSweepSeries(chart, axes, run);
            // The curve's first run names it in the legend (solid unless
            // no size is valid).
            if (named)
                hideLegendMarkers(chart, run);
            named = true;
            anyInvalid = anyInvalid || !c.valid;
        } else {
            run->append(p);
        }
        previous = p;
    }
    return anyInvalid;
}

/// The markers of `curve`: filled where valid, hollow where not; no legend entry.
void addSweepMarkers(QChart *chart, const SweepAxes &axes, const std::vector<SweepRow> &rows, const SweepCurve &curve)
{
    auto *validMarks = new QScatterSeries;
    auto *invalidMarks = new QScatterSeries;
    for (QScatterSeries *marks : {validMarks, invalidMarks}) {
        marks->setMarkerShape(curve.shape);
        marks->setMarkerSize(rows.size() > 40 ? 7 : 10);
        marks->setPen(QPen(curve.colour, 2.0));
    }
    validMarks->setBrush(curve.colour);
    invalidMarks->setBrush(Qt::white);
    for (const SweepRow &r : rows) {
        const CompareRow &c = r.*curve.row;
        if (c.failure.empty())
            (c.valid ? validMarks : invalidMarks)->append(QPointF(double(r.group_size), c.total_duration));
    }
    attachSweepSeries(chart, axes, validMarks);
    attachSweepSeries(chart, axes, invalidMarks);
    hideLegendMarkers(chart, validMarks);
    hideLegendMarkers(chart, invalidMarks);
}

/// A dotted vertical line where the faster strategy changes; one legend entry
/// for them all (the title gives the sizes).
void addCrossoverMarks(QChart *chart, const SweepAxes &axes, const std::vector<double> &crossings)
{
    for (std::size_t i = 0; i < crossings.size(); ++i) {
        QLineSeries *mark = lineSeries(QStringLiteral("crossover"), QColor(0x44, 0x44, 0x44), 1.5, Qt::DotLine);
        mark->append(crossings[i], axes.y->min());
        mark->append(crossings[i], axes.y->max());
        attachSweepSeries(chart, axes, mark);
        if (i > 0)
            hideLegendMarkers(chart, mark);
    }
}

/// One legend entry for the dashed runs (and hollow markers) of both curves.
void addInvalidLegend(QChart *chart, const SweepAxes &axes)
{
    QLineSeries *entry
        = withShortLabel(lineSeries(QStringLiteral("invalid (dashed)"), QColor(0x55, 0x55, 0x55)), QStringLiteral("invalid"));
    entry->setPen(invalidRunPen(QColor(0x55, 0x55, 0x55)));
    attachSweepSeries(chart, axes, entry);
}

} // namespace

QChart *sweepChart(const std::vector<SweepRow> &rows)
{
    const std::vector<double> crossings = sweepCrossovers(rows);
    QStringList where;
    for (double g : crossings)
        where << QString::number(g, 'f', 1);
    QChart *chart = newChart(titled(QString(), QStringLiteral("Total duration against group size G"),
        crossings.empty() ? QStringLiteral("Row-by-Row vs ZigZag, no crossover")
                          : QStringLiteral("Row-by-Row vs ZigZag, crossover at G ≈ %1").arg(where.join(QStringLiteral(", ")))));
    const SweepAxes axes = addSweepAxes(chart, rows);
    const SweepCurve curves[] = {
        {QStringLiteral("Row-by-Row"), Palette::kernels(), &SweepRow::row_by_row, QScatterSeries::MarkerShapeRectangle},
        {QStringLiteral("ZigZag"), Palette::capacity(), &SweepRow::zigzag, QScatterSeries::MarkerShapeCircle},
    };
    bool anyInvalid = false;
    for (const SweepCurve &curve : curves) {
        anyInvalid = addSweepRuns(chart, axes, rows, curve) || anyInvalid;
        addSweepMarkers(chart, axes, rows, curve);
    }
    addCrossoverMarks(chart, axes, crossings);
    if (anyInvalid)
        addInvalidLegend(chart, axes);
    lineMarkersFromSeries(chart);
    return chart;
}

QChart *styledChart(const QString &title) { return newChart(title); }

QBarSet *styledBarSet(const QString &name, const QColor &colour) { return barSet(name, colour); }

QValueAxis *zeroBasedValueAxis(const QString &title, double top) { return zeroBasedAxis(title, top); }

} // namespace convoffload::ui
