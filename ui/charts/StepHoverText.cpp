// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "charts/StepHoverText.h"

#include "render/StepName.h"

#include "convoffload/io/Report.h"
#include "convoffload/simulate/SimulationResult.h"

#include <QCoreApplication>

namespace convoffload::ui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("StepHoverText", text); }
QString number(double v) { return QString::fromStdString(formatNumber(v)); } // 1668052, not 1.66805e+06

} // namespace

QString stepHoverText(const SimulationResult &result, int step, StepChartKind kind)
{
    if (step < 0 || step >= int(result.steps.size()))
        return {};
    const StepStats &s = result.steps[std::size_t(step)];
    QString text = QStringLiteral("<b>%1</b><br>").arg(stepName(step, result).toHtmlEscaped());
    switch (kind) {
    case StepChartKind::Footprint:
        text += tr("after it: %1 elements (input %2, kernels %3, output %4)<br>peak during it: %5 elements")
                    .arg(number(double(s.after.total())), number(double(s.after.input)), number(double(s.after.kernels)),
                        number(double(s.after.output)), number(double(s.peak_footprint)));
        break;
    case StepChartKind::Durations:
        text += tr("%1 cycles: load %2, compute %3, write back %4")
                    .arg(number(s.duration()), number(s.load_duration), number(s.compute_duration), number(s.write_duration));
        if (result.transfer_model) // docs/reference/model.md#transfer-cost
            text += tr("<br>DMA set-up %1 of it: %2 load runs, %3 write runs")
                        .arg(number(s.setup_duration), number(double(s.load_runs)), number(double(s.write_runs)));
        break;
    case StepChartKind::Cumulative: {
        double upTo = 0;
        for (int k = 0; k <= step; ++k)
            upTo += result.steps[std::size_t(k)].duration();
        text += tr("%1 cycles up to its end (this step: %2)").arg(number(upTo), number(s.duration()));
        break;
    }
    }
    return text + tr("<br><i>Click to show this step</i>");
}

} // namespace convoffload::ui
