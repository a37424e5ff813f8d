#include "network/NetworkChart.h"

#include "charts/ChartFactory.h"
#include "render/Palette.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace convoffload::ui {

namespace {

constexpr char kNetworkBarsName[] = "convoffload-network-bars";

QString cycles(double v) { return QString::number(v, 'g', 12); }

} // namespace

LayerDurationSplit layerDurationSplit(const LayerAnalysis &layer)
{
    const LayerCandidate *best = layer.bestCandidate();
    if (!best)
        return {};
    const Hardware &hw = layer.problem.hardware;
    LayerDurationSplit split;
    split.valid = true;
    split.input_loads = double(best->row.loaded_input) * hw.t_l;
    split.kernel_loads = layer.problem.options.kernels_preloaded ? 0.0 : double(best->row.loaded_kernels) * hw.t_l;
    split.writes = double(best->row.written) * hw.t_w;
    split.compute = std::max(0.0, best->row.total_duration - split.input_loads - split.kernel_loads - split.writes);
    return split;
}

QString networkBarLabel(const NetworkAnalysis &analysis, std::size_t layer)
{
    const LayerAnalysis &l = analysis.layers[layer];
    const QString name = QString::fromStdString(l.name);
    if (!l.bestCandidate())
        return QStringLiteral("✖ ") + name;
    const bool dominating = std::find(analysis.dominating.begin(), analysis.dominating.end(), layer) != analysis.dominating.end();
    return dominating ? QStringLiteral("★ ") + name : name;
}

QChart *networkChart(const NetworkAnalysis &analysis)
{
    QString detail = QStringLiteral("total %1 cycles").arg(cycles(analysis.total_duration));
    if (!analysis.dominating.empty())
        detail += QStringLiteral(" · ★ dominating");
    if (analysis.layers_without_valid > 0)
        detail += QStringLiteral(" · ✖ no valid strategy (incomplete total)");
    QChart *chart = styledChart(QStringLiteral("Network — best duration per layer<br>") + detail);

    QBarSet *input = styledBarSet(QStringLiteral("load input"), Palette::load());
    QBarSet *kernels = styledBarSet(QStringLiteral("load kernels"), Palette::kernels());
    QBarSet *writes = styledBarSet(QStringLiteral("write back"), Palette::write());
    QBarSet *compute = styledBarSet(QStringLiteral("compute"), Palette::compute());
    QBarSet *invalid = styledBarSet(QStringLiteral("no valid strategy"), QColor(0x99, 0x99, 0x99));
    invalid->setBrush(QBrush(QColor(0x99, 0x99, 0x99), Qt::BDiagPattern));
    QStringList labels;
    double top = 0;
    for (std::size_t i = 0; i < analysis.layers.size(); ++i) {
        const LayerDurationSplit split = layerDurationSplit(analysis.layers[i]);
        input->append(split.input_loads);
        kernels->append(split.kernel_loads);
        writes->append(split.writes);
        compute->append(split.compute);
        top = std::max(top, split.total());
        labels << networkBarLabel(analysis, i);
    }
    QValueAxis *y = zeroBasedValueAxis(QStringLiteral("cycles"), top);
    y->setLabelFormat(QStringLiteral("%.3g"));
    // A layer without a valid strategy has no duration: a hatched bar the
    // plot's height, so it cannot be mistaken for a short layer.
    for (const LayerAnalysis &l : analysis.layers)
        invalid->append(l.bestCandidate() ? 0.0 : y->max());

    auto *bars = new QStackedBarSeries;
    bars->setObjectName(QLatin1String(kNetworkBarsName));
    bars->append({input, kernels, writes, compute});
    if (analysis.layers_without_valid > 0)
        bars->append(invalid);
    else
        delete invalid;
    bars->setBarWidth(0.7);
    auto *x = new QBarCategoryAxis;
    x->setTitleText(QStringLiteral("layer (graph order)"));
    x->append(labels);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addSeries(bars);
    bars->attachAxis(x);
    bars->attachAxis(y);
    return chart;
}

QStackedBarSeries *networkBars(const QChart *chart)
{
    if (!chart)
        return nullptr;
    for (QAbstractSeries *series : chart->series())
        if (series->objectName() == QLatin1String(kNetworkBarsName))
            return qobject_cast<QStackedBarSeries *>(series);
    return nullptr;
}

void fitNetworkLabels(QChart *chart, qreal width)
{
    for (QAbstractAxis *axis : chart->axes(Qt::Horizontal))
        if (auto *layers = qobject_cast<QBarCategoryAxis *>(axis); layers && layers->count() > 0) {
            const QFontMetricsF fm(layers->labelsFont());
            qreal widest = 0;
            for (const QString &label : layers->categories())
                widest = std::max(widest, fm.horizontalAdvance(label));
            // The plot is the width less the value axis and margins.
            const qreal slot = std::max(1.0, width - 6 * fm.height()) / layers->count();
            layers->setLabelsAngle(widest + fm.height() > slot ? -90 : 0);
        }
}

} // namespace convoffload::ui
