// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/NiceScale.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace convoffload::ui {

double niceStepAtLeast(double needed)
{
    if (!(needed > 0))
        return 1;
    double decade = std::pow(10.0, std::floor(std::log10(needed)));
    for (;;) {
        for (const double m : {1.0, 2.0, 5.0})
            if (m * decade >= needed * (1 - 1e-12))
                return m * decade;
        decade *= 10;
    }
}

NiceScale niceScale(double low, double high, int maxIntervals, double minStep)
{
    if (!std::isfinite(low) || !std::isfinite(high))
        return {};
    if (low > high)
        std::swap(low, high);
    maxIntervals = std::max(1, maxIntervals);
    double span = high - low;
    if (span <= 0) // one value: a step around it
        span = std::max(std::abs(high) * 0.1, minStep > 0 ? minStep : 1.0);
    double step = niceStepAtLeast(std::max(span / maxIntervals, minStep > 0 ? minStep : 0.0));
    NiceScale s;
    for (;;) {
        s.min = std::floor(low / step + 1e-9) * step;
        s.max = std::ceil(high / step - 1e-9) * step;
        if (s.max <= s.min)
            s.max = s.min + step;
        if (std::round((s.max - s.min) / step) <= maxIntervals)
            break;
        step = niceStepAtLeast(step * 1.5); // rounding out added a step: the next nice one
    }
    s.step = step;
    s.decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    return s;
}

void applyNiceScale(QValueAxis *axis, const NiceScale &scale)
{
    axis->setRange(scale.min, scale.max);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(scale.min);
    axis->setTickInterval(scale.step);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(scale.decimals));
}

} // namespace convoffload::ui
