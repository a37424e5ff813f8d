// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a step chart draws more steps (or actions) than its plot has pixel
// columns: consecutive items grouped into bins of equal size, the last one
// shorter, one bar or point per bin, as profilers aggregate a timeline
// (docs/user/visualiser.md, "Charts"). Drawing every step instead cost Qt
// Charts one graphics item per bar and value, and seconds per layout on a
// layer of thousands of steps.

#include <QtGlobal>

#include <algorithm>

namespace convoffload::ui {

class StepBins {
public:
    /// `count` items into at most `columns` bins (`columns` <= 0: one per item).
    StepBins(qint64 count, qint64 columns);

    qint64 itemCount() const { return m_count; }
    /// Items per bin (the last bin may hold fewer).
    qint64 perBin() const { return m_per; }
    qint64 binCount() const { return m_bins; }
    /// More than one item per bin.
    bool aggregated() const { return m_per > 1; }
    /// The items of bin `bin`: [first, end).
    qint64 first(qint64 bin) const { return bin * m_per; }
    qint64 end(qint64 bin) const { return std::min(m_count, (bin + 1) * m_per); }

private:
    qint64 m_count = 0;
    qint64 m_per = 1;
    qint64 m_bins = 0;
};

/// How many bins a step chart `width` pixels wide draws at most: one per
/// kPixelsPerBin columns of its plot (the width less the value axis, its
/// title and the margins, about 90 px in the house style), at least 160:
/// a layer of tens of steps keeps a bar per step in any figure.
/// Not one per pixel: Qt's path filler walks every edge on every row it
/// spans, so a stacked area of a bin per pixel whose heights alternate took
/// 70 ms to paint 900 px wide (3 px: under 30 ms at worst, 5 ms typically).
int stepChartBins(qreal width);
inline constexpr int kPixelsPerBin = 3;

} // namespace convoffload::ui
