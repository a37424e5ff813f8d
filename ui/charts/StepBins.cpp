// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/StepBins.h"

#include <cmath>

namespace convoffload::ui {

StepBins::StepBins(qint64 count, qint64 columns)
    : m_count(std::max<qint64>(0, count))
{
    if (columns > 0 && m_count > columns)
        m_per = (m_count + columns - 1) / columns;
    m_bins = (m_count + m_per - 1) / m_per;
}

int stepChartBins(qreal width)
{
    constexpr qreal kAxesAndMargins = 90;
    constexpr int kFewest = 160;
    if (!(width > 0) || !std::isfinite(width))
        return kFewest;
    return std::max(kFewest, int(std::min(width - kAxesAndMargins, qreal(1 << 16)) / kPixelsPerBin));
}

} // namespace convoffload::ui
