#include "network/NetworkChart.h"

#include "charts/ChartFactory.h"
#include "render/Palette.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
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
    if (analysis.layers_without_valid > 0) // the layers without a valid strategy
        detail += QStringLiteral(" · ✖ no valid strategy (incomplete total)");
    QChart *chart = styledChart(QStringLiteral("Network — best duration per layer<br>") + detail);

    QBarSet *input = styledBarSet(QStringLiteral("load input"), Palette::load());
    QBarSet *kernels = styledBarSet(QStringLiteral("load kernels"), Palette::kernels());
    QBarSet *writes = styledBarSet(QStringLiteral("write back"), Palette::write());
    QBarSet *compute = styledBarSet(QStringLiteral("compute"), Palette::compute());
    QStringList labels;
    double top = 0;
    // Qt stacks a horizontal bar chart's categories from the bottom (and
    // ignores a reversed category axis): the last layer goes in first, so
    // that the network reads in graph order from the top.
    const std::size_t count = analysis.layers.size();
    for (std::size_t bar = 0; bar < count; ++bar) {
        const std::size_t i = count - 1 - bar;
        const LayerDurationSplit split = layerDurationSplit(analysis.layers[i]);
        input->append(split.input_loads);
        kernels->append(split.kernel_loads);
        writes->append(split.writes);
        compute->append(split.compute);
        top = std::max(top, split.total());
        labels << networkBarLabel(analysis, i);
    }
    QValueAxis *y = zeroBasedValueAxis(QStringLiteral("cycles"), top);
    auto *bars = new QHorizontalStackedBarSeries;
    bars->setObjectName(QLatin1String(kNetworkBarsName));
    bars->append({input, kernels, writes, compute});
    // A layer without a valid strategy has no duration: a hatched bar the
    // plot's height, so it cannot be mistaken for a short layer.
    const bool anyInvalid
        = std::any_of(analysis.layers.begin(), analysis.layers.end(), [](const LayerAnalysis &l) { return !l.bestCandidate(); });
    if (anyInvalid) {
        const QColor grey(0x99, 0x99, 0x99);
        QBarSet *invalid = styledBarSet(QStringLiteral("no valid strategy"), grey);
        invalid->setBrush(QBrush(grey, Qt::BDiagPattern));
        for (std::size_t bar = 0; bar < count; ++bar)
            invalid->append(analysis.layers[count - 1 - bar].bestCandidate() ? 0.0 : y->max());
        bars->append(invalid);
    }
    bars->setBarWidth(0.7);
    auto *x = new QBarCategoryAxis;
    x->append(labels);
    chart->addAxis(x, Qt::AlignLeft);
    chart->addAxis(y, Qt::AlignBottom);
    chart->addSeries(bars);
    bars->attachAxis(x);
    bars->attachAxis(y);
    return chart;
}

QHorizontalStackedBarSeries *networkBars(const QChart *chart)
{
    if (!chart)
        return nullptr;
    for (QAbstractSeries *series : chart->series())
        if (series->objectName() == QLatin1String(kNetworkBarsName))
            return qobject_cast<QHorizontalStackedBarSeries *>(series);
    return nullptr;
}

int networkBarLayer(const QChart *chart, int bar)
{
    const QHorizontalStackedBarSeries *bars = networkBars(chart);
    const int count = bars && !bars->barSets().isEmpty() ? int(bars->barSets().first()->count()) : 0;
    return bar >= 0 && bar < count ? count - 1 - bar : -1;
}

} // namespace convoffload::ui
