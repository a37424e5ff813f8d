#include "network/NetworkPanel.h"

#include "charts/ChartFactory.h"
#include "export/FigureExport.h"
#include "network/NetworkChart.h"

#include "convoffload/io/ProjectFile.h"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalStackedBarSeries>

#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace convoffload::ui {

namespace {

QString shapeText(const Layer &l)
{
    return QStringLiteral("%1×%2×%3 · %4×%5×%6 s%7 p%8%9%10%11")
        .arg(l.c_in)
        .arg(l.h_in)
        .arg(l.w_in)
        .arg(l.n)
        .arg(l.h_k)
        .arg(l.w_k)
        .arg(l.stride_h)
        .arg(l.pad_top)
        .arg(l.pad_bottom)
        .arg(l.pad_left)
        .arg(l.pad_right);
}

} // namespace

NetworkPanel::NetworkPanel(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_chartView(new QChartView(this))
    , m_chartScroll(new QScrollArea(this))
    , m_tabs(new QTabWidget(this))
    , m_saveChart(new QToolButton(this))
    , m_summary(new QLabel(tr("No network: File › Import Network (ONNX)… or Open network…"), this))
    , m_progress(new QProgressBar(this))
    , m_stop(new QToolButton(this))
{
    auto *open = new QToolButton(this);
    open->setText(tr("Open network…"));
    connect(open, &QToolButton::clicked, this, &NetworkPanel::chooseAndOpen);
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop the analysis of the network's layers"));
    m_stop->setVisible(false);
    connect(m_stop, &QToolButton::clicked, this, [this] { m_job.cancel(); });
    m_progress->setVisible(false);
    m_progress->setMaximumWidth(200);
    m_summary->setWordWrap(true);

    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Layer"), tr("Shape (C×H×W · N×K×K)"), tr("Kernels fit"), tr("Best strategy"), tr("Duration"),
        tr("Share"), tr("Valid")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->setToolTip(tr("Double-click a layer to open it in every view"));
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const int index = item ? item->data(NameColumn, Qt::UserRole).toInt() : -1;
        if (m_network && index >= 0 && index < int(m_network->layers.size()))
            emit layerActivated(index);
    });

    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setToolTip(tr("Click a layer's bar to open it in every view"));
    showChart(nullptr);
    m_saveChart->setText(tr("Save chart…"));
    m_saveChart->setToolTip(tr("Export the network chart as PNG, SVG or PDF"));
    m_saveChart->setEnabled(false);
    connect(m_saveChart, &QToolButton::clicked, this, &NetworkPanel::chooseAndSaveChart);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_tree, tr("Layers"));
    // The chart keeps a line per layer however short the dock (Qt Charts
    // elides a label taller than its bar): it scrolls instead.
    m_chartScroll->setWidgetResizable(true);
    m_chartScroll->setFrameShape(QFrame::NoFrame);
    m_chartScroll->setWidget(m_chartView);
    m_tabs->addTab(m_chartScroll, tr("Chart"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(open);
    bar->addWidget(m_saveChart);
    bar->addWidget(m_progress);
    bar->addWidget(m_stop);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_summary);

    m_job.setProgressHandler([this](int layer) { m_progress->setValue(layer); });
    m_job.setFinishedHandler([this](Outcome outcome) {
        m_progress->setVisible(false);
        m_stop->setVisible(false);
        if (outcome.cancelled)
            m_summary->setText(tr("Analysis stopped."));
        else {
            m_analysis = outcome.analysis;
            showAnalysis(outcome.analysis);
        }
        emit analysed();
    });
}

void NetworkPanel::chooseAndOpen()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open network"), QFileInfo(m_path).path(), tr("ConvOffload projects (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString error = openNetwork(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot open network"), error);
}

QString NetworkPanel::openNetwork(const QString &path)
{
    try {
        setNetwork(loadNetwork(path.toStdString()), path);
        return {};
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

void NetworkPanel::setNetwork(const Network &network, const QString &path)
{
    m_job.cancel();
    m_network = network;
    m_analysis.reset();
    m_path = path;
    fillLayers();
    showChart(nullptr);
    m_summary->setText(tr("Analysing %n layers…", nullptr, int(network.layers.size())));
    m_progress->setRange(0, int(network.layers.size()));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_stop->setVisible(true);
    const auto start = [this, network] {
        return m_job.start([network](const JobControl<int> &control) {
            NetworkAnalysisOptions options;
            options.cancel = control.cancelFlag();
            options.progress = [&control](std::size_t layer, std::size_t) { control.report(int(layer)); };
            try {
                return Outcome{analyseNetwork(network, options), false};
            } catch (const Cancelled &) {
                return Outcome{{}, true};
            }
        });
    };
    if (!start()) // a previous run is ending: start once it has
        connect(
            &m_job, &BackgroundJobBase::finished, this, [start] { start(); }, Qt::SingleShotConnection);
}

Project NetworkPanel::layerProject(int index, int &best) const
{
    Project project = m_network->projectOf(std::size_t(index));
    best = -1;
    if (!m_analysis || index >= int(m_analysis->layers.size()))
        return project;
    const LayerCandidate *candidate = m_analysis->layers[std::size_t(index)].bestCandidate();
    if (!candidate)
        return project;
    for (std::size_t i = 0; i < project.strategies.size(); ++i)
        if (project.strategies[i].name == candidate->spec.name) {
            best = int(i);
            return project;
        }
    project.strategies.push_back(candidate->spec);
    best = int(project.strategies.size() - 1);
    return project;
}

void NetworkPanel::fillLayers()
{
    m_tree->clear();
    for (std::size_t i = 0; i < m_network->layers.size(); ++i) {
        const NetworkLayer &l = m_network->layers[i];
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(NameColumn, QString::fromStdString(l.name));
        item->setData(NameColumn, Qt::UserRole, int(i));
        item->setText(ShapeColumn, shapeText(l.layer));
        const bool fit = kernelsFitOnChip(m_network->problemOf(i));
        item->setText(FitColumn, fit ? tr("yes") : tr("no: streamed"));
        for (const int c : {DurationColumn, ShareColumn})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
}

void NetworkPanel::showAnalysis(const NetworkAnalysis &analysis)
{
    for (std::size_t i = 0; i < analysis.layers.size() && int(i) < m_tree->topLevelItemCount(); ++i) {
        const LayerAnalysis &l = analysis.layers[i];
        QTreeWidgetItem *item = m_tree->topLevelItem(int(i));
        const LayerCandidate *best = l.bestCandidate();
        item->setText(BestColumn, best ? QString::fromStdString(best->row.name) : tr("(none valid)"));
        item->setText(DurationColumn, best ? QString::number(best->row.total_duration, 'g', 12) : QStringLiteral("–"));
        item->setText(ShareColumn,
            analysis.total_duration > 0 ? QStringLiteral("%1 %").arg(100.0 * l.duration() / analysis.total_duration, 0, 'f', 1)
                                        : QStringLiteral("–"));
        // The badge: ✔ meets the paper's assumptions, ◥ runs correctly but
        // breaks the reload assumption, ⚠ other warnings, ✖ none valid.
        const std::optional<Verdict> verdict = best ? std::optional(verdictOf(best->row)) : std::nullopt;
        const QString badge = !verdict                             ? QStringLiteral("✖")
            : verdict->status == StrategyStatus::BreaksAssumptions ? QStringLiteral("◥")
            : verdict->plain_warnings > 0                          ? QStringLiteral("⚠")
                                                                   : QStringLiteral("✔");
        item->setText(ValidColumn, badge);
        QString tip;
        if (verdict) {
            tip = QString::fromStdString(verdictSummary(*verdict)) + QLatin1Char('\n');
            for (const std::string &broken : best->broken)
                tip += tr("first %1").arg(QString::fromStdString(broken)) + QLatin1Char('\n');
        }
        item->setToolTip(ValidColumn, tip.trimmed());
    }
    QString text = tr("Total duration %1 over %n layers", nullptr, int(analysis.layers.size()))
                       .arg(QString::number(analysis.total_duration, 'g', 12));
    if (analysis.layers_without_valid > 0)
        text += tr(" (incomplete: %1 without a valid strategy)").arg(analysis.layers_without_valid);
    if (!analysis.dominating.empty()) {
        QStringList names;
        for (const std::size_t i : analysis.dominating)
            names << QString::fromStdString(analysis.layers[i].name);
        text += tr("; dominated by %1").arg(names.join(QStringLiteral(", ")));
    }
    if (!analysis.skipped.empty())
        text += tr("; %n convolutions skipped by the import", nullptr, int(analysis.skipped.size()));
    m_summary->setText(text + QLatin1Char('.'));
    showChart(networkChart(analysis));
}

QChart *NetworkPanel::chart() const { return networkBars(m_chartView->chart()) ? m_chartView->chart() : nullptr; }

int NetworkPanel::chartHeight() const
{
    // The title's two lines, the value axis, the legend and the margins take
    // about fourteen lines (measured); every layer a line and a gap.
    const QFontMetrics fm(font());
    const int layers = m_network ? int(m_network->layers.size()) : 0;
    return 14 * fm.height() + std::max(4, layers) * (fm.height() + 8);
}

void NetworkPanel::showChart(QChart *chart)
{
    if (!chart) { // before an analysis: an empty chart in the same style
        chart = styledChart(QString());
        chart->legend()->setVisible(false);
    }
    QChart *old = m_chartView->chart();
    m_chartView->setChart(chart); // the view owns the new chart, not the old one
    delete old;
    m_saveChart->setEnabled(networkBars(chart) != nullptr);
    m_chartView->setMinimumHeight(chartHeight());
    // The dock as tall as the chart up to 18 lines: it scrolls past that.
    m_chartScroll->setMinimumHeight(std::min(chartHeight(), 18 * QFontMetrics(font()).height()));
    if (QHorizontalStackedBarSeries *bars = networkBars(chart)) {
        connect(bars, &QHorizontalStackedBarSeries::clicked, this, [this](int bar, QBarSet *) {
            const int index = networkBarLayer(this->chart(), bar);
            if (!m_network || index < 0 || index >= int(m_network->layers.size()))
                return;
            m_tree->setCurrentItem(m_tree->topLevelItem(index));
            emit layerActivated(index);
        });
    }
}

QString NetworkPanel::saveChart(const QString &path, QSize size) const
{
    QChart *c = chart();
    if (!c)
        return tr("No network chart yet: the analysis has not finished.");
    if (const ExportResult check = checkExportTarget(path, size); !check)
        return check.error;
    return exportFigure(chartPainter(c), size, path, plainChartTitle(c)).error;
}

void NetworkPanel::chooseAndSaveChart()
{
    const QString base = m_path.isEmpty() ? QStringLiteral("network") : QFileInfo(m_path).completeBaseName();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save network chart"),
        QFileInfo(m_path).dir().filePath(base + QStringLiteral("-chart.png")), tr("Figures (*.png *.svg *.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = saveChart(path, QSize(1000, std::max(500, chartHeight())));
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save the chart"), error);
}

} // namespace convoffload::ui
