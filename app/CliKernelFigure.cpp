// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// sweep --kernel-blocks --out: duration against the kernel block size B,
// one line per loop, drawn with Qt Charts and exported like every figure.
#include "CliFigures.h"

#include "export/FigureExport.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>

namespace convoffload::cli {

void writeKernelBlocksFigure(const std::vector<KernelBlockSweepRow> &rows, const QString &path)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(QStringLiteral("Duration against the kernel block size B (best G and order per B)"));
    auto *x = new QLogValueAxis;
    x->setBase(2);
    x->setTitleText(QStringLiteral("kernel block size B (kernels on chip at once)"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto *y = new QLogValueAxis; // the loops differ by orders of magnitude
    y->setBase(10);
    y->setMinorTickCount(8);
    y->setLabelFormat(QStringLiteral("%.0e"));
    y->setTitleText(QStringLiteral("duration (log scale)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double top = 1, bottom = 0;
    const struct {
        const char *name;
        QColor colour;
        Qt::PenStyle style;
        std::optional<FamilyMember> KernelBlockSweepRow::*member;
    } lines[]
        = {{"kernels-outer (weight stationary)", QColor(0x1f, 0x77, 0xb4), Qt::SolidLine, &KernelBlockSweepRow::kernels_outer},
            {"patches-outer (input stationary)", QColor(0xd6, 0x27, 0x28), Qt::DashLine, &KernelBlockSweepRow::patches_outer}};
    for (const auto &line : lines) {
        auto *series = new QLineSeries;
        series->setName(QString::fromLatin1(line.name));
        QPen pen(line.colour);
        pen.setWidthF(2.0);
        pen.setStyle(line.style);
        series->setPen(pen);
        series->setPointsVisible(true);
        for (const KernelBlockSweepRow &r : rows)
            if (const std::optional<FamilyMember> &m = r.*line.member; m && m->row.valid) {
                series->append(double(r.kernel_block), m->row.total_duration);
                top = std::max(top, m->row.total_duration);
                bottom = bottom > 0 ? std::min(bottom, m->row.total_duration) : m->row.total_duration;
            }
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    if (!rows.empty())
        x->setRange(double(rows.front().kernel_block), double(std::max(rows.back().kernel_block, rows.front().kernel_block + 1)));
    y->setRange(std::pow(10.0, std::floor(std::log10(std::max(bottom, 1.0)))), std::pow(10.0, std::ceil(std::log10(top))));
    chart->legend()->setAlignment(Qt::AlignBottom);
    const ui::ExportResult result = ui::exportFigure(ui::chartPainter(chart.get()), QSize(900, 560), path,
        QStringLiteral("Duration against the kernel block size"),
        QStringLiteral("The best kernels-outer and patches-outer kernel-blocked strategy for every block size B"));
    if (!result)
        throw std::runtime_error(str(result.error));
}

} // namespace convoffload::cli
