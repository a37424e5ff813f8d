// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "optimise/ExperimentCharts.h"

#include "charts/NiceScale.h"

#include "render/Palette.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <functional>
#include <optional>

namespace convoffload::ui {

namespace {

struct SeriesSpec {
    QString name;
    QColor colour;
    Qt::PenStyle style;
    std::function<std::optional<double>(const ExperimentRow &)> value;
};

/// `optimised` names the run's method's series ("Search", or "Exact").
std::vector<SeriesSpec> seriesSpecs(const QString &optimised)
{
    auto solved = [](const OptimiseResult &r) { return r.hasSolution() ? std::optional(r.duration) : std::nullopt; };
    return {
        {QStringLiteral("S1-baseline"), QColor(0x99, 0x99, 0x99), Qt::SolidLine,
            [](const ExperimentRow &r) { return std::optional(r.s1_baseline); }},
        {QStringLiteral("Row-by-Row"), Palette::kernels(), Qt::SolidLine,
            [](const ExperimentRow &r) { return std::optional(r.row_by_row); }},
        {QStringLiteral("ZigZag"), Palette::capacity(), Qt::SolidLine,
            [](const ExperimentRow &r) { return std::optional(r.zigzag); }},
        {optimised, Palette::outputs(), Qt::SolidLine, [solved](const ExperimentRow &r) { return solved(r.search); }},
        {QStringLiteral("CBC"), QColor(0, 0, 0), Qt::DashLine,
            [solved](const ExperimentRow &r) { return r.ilp ? solved(*r.ilp) : std::nullopt; }},
        {QStringLiteral("Lower bound"), QColor(0x66, 0x66, 0x66), Qt::DotLine,
            [](const ExperimentRow &r) { return std::optional(r.lower_bound); }},
    };
}

} // namespace

QChart *durationsBySizeChart(const std::vector<ExperimentRow> &rows, int groupSize)
{
    std::vector<const ExperimentRow *> chosen;
    for (const ExperimentRow &r : rows)
        if (r.group_size == groupSize)
            chosen.push_back(&r);
    std::sort(chosen.begin(), chosen.end(), [](auto *a, auto *b) { return a->input_size < b->input_size; });

    // The optimised series is named after the method that made it.
    const bool exact = std::any_of(chosen.begin(), chosen.end(), [](auto *r) { return r->search.method == "exact"; });
    const QString optimised = exact ? QStringLiteral("Exact") : QStringLiteral("Search");

    auto *chart = new QChart;
    chart->setTitle(QStringLiteral("Duration against input size, G = %1 (Σ|I_slice| + n)").arg(groupSize));
    auto *x = new QValueAxis;
    x->setTitleText(QStringLiteral("input size H_in = W_in"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto *y = new QValueAxis;
    y->setTitleText(QStringLiteral("duration"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double top = 1;
    for (const SeriesSpec &spec : seriesSpecs(optimised)) {
        auto *series = new QLineSeries;
        series->setName(spec.name);
        QPen pen(spec.colour);
        pen.setWidthF(spec.name == optimised ? 3.0 : 2.0);
        pen.setStyle(spec.style);
        series->setPen(pen);
        series->setPointsVisible(true);
        for (const ExperimentRow *r : chosen)
            if (const std::optional<double> v = spec.value(*r)) {
                series->append(r->input_size, *v);
                top = std::max(top, *v);
            }
        if (series->count() == 0) { // e.g. CBC not run: no empty legend entry
            delete series;
            continue;
        }
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    if (!chosen.empty()) {
        x->setRange(chosen.front()->input_size, chosen.back()->input_size);
        x->setTickCount(std::min(12, chosen.back()->input_size - chosen.front()->input_size + 1));
    }
    applyNiceScale(y, niceScale(0, top * 1.05, 5, 1)); // whole cycles: integer labels ("100", not "100.0")
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

} // namespace convoffload::ui
