// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/ChartRefresh.h"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QValueAxis>
#include <QLineSeries>
#include <QXYSeries>

#include <algorithm>

namespace convoffload::ui {

namespace {

bool sameClass(const QObject *a, const QObject *b) { return a->metaObject() == b->metaObject(); }

bool sameShape(const QChart *shown, const QChart *fresh)
{
    const QList<QAbstractSeries *> a = shown->series(), b = fresh->series();
    const QList<QAbstractAxis *> ax = shown->axes(), bx = fresh->axes();
    if (a.size() != b.size() || ax.size() != bx.size())
        return false;
    for (qsizetype i = 0; i < ax.size(); ++i)
        if (!sameClass(ax[i], bx[i]) || ax[i]->alignment() != bx[i]->alignment())
            return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!sameClass(a[i], b[i]))
            return false;
        if (const auto *area = qobject_cast<const QAreaSeries *>(a[i])) {
            const auto *other = static_cast<QAreaSeries *>(b[i]);
            if (!area->upperSeries() || !other->upperSeries() || bool(area->lowerSeries()) != bool(other->lowerSeries()))
                return false;
        }
        if (const auto *bars = qobject_cast<const QAbstractBarSeries *>(a[i]))
            if (bars->count() != static_cast<QAbstractBarSeries *>(b[i])->count())
                return false;
    }
    return true;
}

void copyPoints(QXYSeries *to, QXYSeries *from)
{
    if (to->points() != from->points())
        to->replace(from->points());
}

void copyBarSet(QBarSet *to, QBarSet *from)
{
    to->setLabel(from->label());
    to->setColor(from->color());
    to->setBorderColor(from->borderColor());
    to->setLabelColor(from->labelColor());
    // A set may change meaning with the same shape (the load's input part
    // becomes the load's data under a transfer model): its short label too.
    for (const QByteArray &name : from->dynamicPropertyNames())
        to->setProperty(name.constData(), from->property(name.constData()));
    // All values at once: on a chart in a view, every append or replace of
    // one value lays the whole series out again (seconds for a few thousand).
    QList<qreal> values;
    values.reserve(from->count());
    bool same = to->count() == from->count();
    for (int i = 0; i < from->count(); ++i) {
        values.append(from->at(i));
        same = same && to->at(i) == values.back();
    }
    if (same)
        return;
    if (to->count() > 0)
        to->remove(0, to->count());
    to->append(values);
}

void copyAxis(QAbstractAxis *to, QAbstractAxis *from)
{
    to->setTitleText(from->titleText());
    to->setVisible(from->isVisible());
    if (auto *category = qobject_cast<QCategoryAxis *>(to)) {
        auto *source = static_cast<QCategoryAxis *>(from);
        if (category->categoriesLabels() != source->categoriesLabels() || category->startValue() != source->startValue()) {
            for (const QString &label : category->categoriesLabels())
                category->remove(label);
            category->setStartValue(source->startValue());
            for (const QString &label : source->categoriesLabels())
                category->append(label, source->endValue(label));
        }
        category->setLabelsPosition(source->labelsPosition());
        category->setRange(source->min(), source->max());
    } else if (auto *value = qobject_cast<QValueAxis *>(to)) {
        auto *source = static_cast<QValueAxis *>(from);
        value->setLabelFormat(source->labelFormat());
        value->setTickCount(source->tickCount());
        value->setRange(source->min(), source->max());
    } else if (auto *bars = qobject_cast<QBarCategoryAxis *>(to)) {
        auto *source = static_cast<QBarCategoryAxis *>(from);
        if (bars->categories() != source->categories())
            bars->setCategories(source->categories());
        bars->setRange(source->min(), source->max());
    }
}

} // namespace

bool refreshChart(QChart *shown, QChart *fresh)
{
    if (!shown || !fresh || !sameShape(shown, fresh))
        return false;
    shown->setTitle(fresh->title());
    // The fresh chart's properties replace the shown one's: one it lacks
    // (a placeholder has no full title for fitChartTitle) must not survive.
    for (const QByteArray &name : shown->dynamicPropertyNames())
        if (!fresh->dynamicPropertyNames().contains(name))
            shown->setProperty(name.constData(), QVariant());
    for (const QByteArray &name : fresh->dynamicPropertyNames())
        shown->setProperty(name.constData(), fresh->property(name.constData()));
    const QList<QAbstractSeries *> to = shown->series(), from = fresh->series();
    for (qsizetype i = 0; i < to.size(); ++i) {
        to[i]->setName(from[i]->name());
        to[i]->setOpacity(from[i]->opacity());
        if (auto *area = qobject_cast<QAreaSeries *>(to[i])) {
            auto *source = static_cast<QAreaSeries *>(from[i]);
            copyPoints(area->upperSeries(), source->upperSeries());
            if (area->lowerSeries())
                copyPoints(area->lowerSeries(), source->lowerSeries());
            area->setPen(source->pen());
            area->setBrush(source->brush());
        } else if (auto *xy = qobject_cast<QXYSeries *>(to[i])) {
            auto *source = static_cast<QXYSeries *>(from[i]);
            copyPoints(xy, source);
            xy->setPen(source->pen());
            xy->setPointsVisible(source->pointsVisible());
        } else if (auto *bars = qobject_cast<QAbstractBarSeries *>(to[i])) {
            auto *source = static_cast<QAbstractBarSeries *>(from[i]);
            bars->setBarWidth(source->barWidth());
            bars->setLabelsVisible(source->isLabelsVisible());
            const QList<QBarSet *> sets = bars->barSets(), sourceSets = source->barSets();
            for (qsizetype s = 0; s < sets.size(); ++s)
                copyBarSet(sets[s], sourceSets[s]);
        }
        // Visibility last: the cursor hides itself (and its legend entry) off the steps.
        to[i]->setVisible(from[i]->isVisible());
    }
    const QList<QAbstractAxis *> axes = shown->axes(), sourceAxes = fresh->axes();
    for (qsizetype i = 0; i < axes.size(); ++i)
        copyAxis(axes[i], sourceAxes[i]);
    return true;
}

} // namespace convoffload::ui
