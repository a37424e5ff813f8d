// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Axis ranges and ticks a reader takes in at a glance: both ends and every
// tick a multiple of a step of 1, 2 or 5 × 10^k ("0, 5, 10, 15", never
// "0.0, 2.6, 5.3, 7.9, 10.5"), labels with just the decimals the step needs.

#include <QString>

QT_BEGIN_NAMESPACE
class QValueAxis;
QT_END_NAMESPACE

namespace convoffload::ui {

struct NiceScale {
    double min = 0, max = 1, step = 1;
    int decimals = 0; // digits after the point that the step needs
};

/// The smallest 1, 2 or 5 × 10^k that is at least `needed`; 1 when `needed`
/// is not above 0. The painted plots (network, Pareto) step their axes by it.
double niceStepAtLeast(double needed);

/// The smallest scale covering [low, high] with at most `maxIntervals`
/// steps of 1, 2 or 5 × 10^k, the step at least `minStep` (1 for counts:
/// integer ticks). An empty range gets one step around its value.
NiceScale niceScale(double low, double high, int maxIntervals = 5, double minStep = 0);

/// Sets the axis to the scale: range, a tick every step from a multiple of
/// it, and labels with the scale's decimals.
void applyNiceScale(QValueAxis *axis, const NiceScale &scale);

} // namespace convoffload::ui
