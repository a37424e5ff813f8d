// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a chart on screen shows cut: the GUI suites' check that titles,
// axes and legends read whole at a window's size.

#include <QChart>
#include <QLegend>
#include <QGraphicsTextItem>
#include <QString>
#include <QStringList>

/// Texts of a chart shown cut ("\u2026", "...") or outside the chart. A long
/// strategy name `mayShorten` may give way in the title, with "\u2026" (Qt's
/// own cut is "...", at the line's end).
/// Those of `root` and its descendants only (the legend: cutLegendTexts).
inline QStringList cutChartTexts(const QChart *chart, const QString &mayShorten = {}, const QGraphicsItem *root = nullptr)
{
    QStringList cut;
    const QRectF bounds = chart->sceneBoundingRect().adjusted(-1, -1, 1, 1);
    for (const QGraphicsItem *item : (root ? root : chart)->childItems()) {
        QList<const QGraphicsItem *> pending{item};
        while (!pending.isEmpty()) {
            const QGraphicsItem *i = pending.takeLast();
            for (const QGraphicsItem *child : i->childItems())
                pending << child;
            const auto *text = dynamic_cast<const QGraphicsTextItem *>(i);
            if (!text || !text->isVisible() || text->toPlainText().isEmpty())
                continue;
            const QString plain = text->toPlainText();
            const qsizetype ellipsis = plain.indexOf(QStringLiteral("\u2026"));
            const bool nameShortened = !mayShorten.isEmpty() && ellipsis > 0
                && plain.indexOf(QStringLiteral("\u2026"), ellipsis + 1) < 0 && mayShorten.startsWith(plain.left(ellipsis));
            if ((ellipsis >= 0 && !nameShortened) || plain.contains(QStringLiteral("...")))
                cut << QStringLiteral("cut: ") + plain
                        + QStringLiteral(" at %1,%2 w %3 chart w %4")
                              .arg(text->sceneBoundingRect().x())
                              .arg(text->sceneBoundingRect().y())
                              .arg(text->sceneBoundingRect().width())
                              .arg(bounds.width());
            else if (!bounds.contains(text->sceneBoundingRect()))
                cut << QStringLiteral("outside: ") + plain;
        }
    }
    return cut;
}

/// The legend's entries shown cut or outside the chart.
inline QStringList cutLegendTexts(const QChart *chart) { return cutChartTexts(chart, {}, chart->legend()); }
