// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "network/NetworkPanel.h"

#include "export/FigureExport.h"
#include "network/LayerShapeText.h"
#include "network/NetworkPlot.h"
#include "network/NetworkPlotView.h"
#include "network/OpenFileAndApply.h"

#include "convoffload/io/OutOfMemory.h"
#include "convoffload/io/ProjectFile.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace convoffload::ui {

namespace {

QString cycles(double v) { return QString::number(v, 'g', 12); }

} // namespace

NetworkPanel::NetworkPanel(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_plotView(new NetworkPlotView(this))
    , m_chartScroll(new QScrollArea(this))
    , m_tabs(new QTabWidget(this))
    , m_open(new QToolButton(this))
    , m_optimise(new QToolButton(this))
    , m_saveNetwork(new QToolButton(this))
    , m_saveChart(new QToolButton(this))
    , m_summary(new QLabel(tr("No network: File › Import Network (ONNX)… or Open network…"), this))
    , m_progress(new QProgressBar(this))
    , m_stop(new QToolButton(this))
    , m_updateLayer(new QToolButton(this))
{
    m_open->setText(tr("Open network…"));
    connect(m_open, &QToolButton::clicked, this, &NetworkPanel::chooseAndOpen);
    m_optimise->setText(tr("Optimise network…"));
    m_optimise->setToolTip(
        tr("Run the search optimiser on every layer whose kernels fit: a time budget shared among the layers, or "
           "(reproducible) a number of moves per layer with a seed"));
    m_optimise->setEnabled(false);
    connect(m_optimise, &QToolButton::clicked, this, &NetworkPanel::chooseAndOptimise);
    m_saveNetwork->setText(tr("Save network…"));
    m_saveNetwork->setToolTip(tr("Save the network project with the strategies the optimiser added"));
    m_saveNetwork->setEnabled(false);
    connect(m_saveNetwork, &QToolButton::clicked, this, &NetworkPanel::chooseAndSaveNetwork);
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop the analysis, or the optimisation (what it found so far is kept)"));
    m_stop->setVisible(false);
    connect(m_stop, &QToolButton::clicked, this, &NetworkPanel::stop);
    m_updateLayer->setText(tr("Update layer in network"));
    m_updateLayer->setObjectName(QStringLiteral("updateLayerInNetwork"));
    m_updateLayer->setToolTip(tr("Put the layer shown, as edited (shape, strategies; hardware if you choose), back into "
                                 "the network and analyse it again (Save network keeps it)"));
    m_updateLayer->setEnabled(false);
    connect(m_updateLayer, &QToolButton::clicked, this, &NetworkPanel::updateLayerRequested);
    m_progress->setVisible(false);
    m_progress->setMaximumWidth(200);
    // It takes the room the buttons leave: with its own minimum beside them,
    // an analysis (a layer put back at 1024×600) widened the dock for good
    // (QMainWindow does not give a dock's room back) and cut the side docks.
    m_progress->setMinimumWidth(40);
    m_progress->setSizePolicy(QSizePolicy::Ignored, m_progress->sizePolicy().verticalPolicy());
    m_summary->setWordWrap(true);

    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Layer"), tr("Best strategy"), tr("Duration"), tr("Share"), tr("Valid"), tr("Kernels fit"),
        tr("Shape (C×H×W · N×K×K)")});
    // The Valid column's glyphs, explained where a user looks for them.
    QStringList legend;
    for (const QString &badge :
        {QStringLiteral("\u2714"), QStringLiteral("\u25e5"), QStringLiteral("\u26a0"), QStringLiteral("\u2716")})
        legend << badge + QLatin1Char(' ') + badgeMeaning(badge);
    m_tree->headerItem()->setToolTip(ValidColumn, legend.join(QLatin1Char('\n')));
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The best strategy's long names ("Kernel-blocked row-by-row
    // kernels-outer B=8") pushed the duration and the share out of a narrow
    // dock (1024×600): the column is capped (fitBestColumn), the name
    // elided in its middle and whole in the cell's tooltip.
    m_tree->header()->setSectionResizeMode(BestColumn, QHeaderView::Interactive);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setToolTip(tr("Double-click a layer to open it in every view"));
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const int index = item ? item->data(NameColumn, Qt::UserRole).toInt() : -1;
        if (m_network && index >= 0 && index < int(m_network->layers.size()))
            emit layerActivated(index);
    });

    m_plotView->setPlot(std::nullopt, tr("The chart appears once the analysis has finished."));
    connect(m_plotView, &NetworkPlotView::layerClicked, this, [this](int index) {
        if (!m_network || index < 0 || index >= int(m_network->layers.size()))
            return;
        m_tree->setCurrentItem(m_tree->topLevelItem(index));
        emit layerActivated(index);
    });
    m_saveChart->setText(tr("Save chart…"));
    m_saveChart->setToolTip(tr("Export the network chart as PNG, SVG or PDF"));
    m_saveChart->setEnabled(false);
    connect(m_saveChart, &QToolButton::clicked, this, &NetworkPanel::chooseAndSaveChart);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_tree, tr("Layers"));
    // The chart keeps every row whole however short the dock: it scrolls.
    m_chartScroll->setWidgetResizable(true);
    m_chartScroll->setFrameShape(QFrame::NoFrame);
    m_chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chartScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // a steady width: the height follows it
    m_chartScroll->setWidget(m_plotView);
    m_tabs->addTab(m_chartScroll, tr("Chart"));

    // The saves sit beside the tabs, the rest above them: one row of four
    // buttons made the dock so wide that, raised at 1280×720, it squeezed
    // the side docks until their tab titles were cut.
    auto *saves = new QWidget(this);
    auto *savesLayout = new QHBoxLayout(saves);
    savesLayout->setContentsMargins(0, 0, 0, 0);
    savesLayout->addWidget(m_saveNetwork);
    savesLayout->addWidget(m_saveChart);
    m_tabs->setCornerWidget(saves, Qt::TopRightCorner);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_open);
    bar->addWidget(m_optimise);
    bar->addWidget(m_progress);
    bar->addWidget(m_stop);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    // A row of its own, shown while a layer of this network is open: in the
    // row above it made the dock wider than a 1024×600 window has room for.
    layout->addWidget(m_updateLayer, 0, Qt::AlignLeft);
    m_updateLayer->setVisible(false);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_summary);

    m_job.setProgressHandler([this](int layer) { m_progress->setValue(layer); });
    m_job.setFinishedHandler([this](Outcome outcome) {
        if (!outcome.cancelled && outcome.error.isEmpty())
            m_analysis = outcome.analysis;
        setRunning(false);
        if (outcome.cancelled)
            m_summary->setText(tr("Analysis stopped."));
        else if (!outcome.error.isEmpty())
            m_summary->setText(tr("The analysis failed: %1").arg(outcome.error));
        else
            showAnalysis(*m_analysis);
        emit analysed();
    });
    m_optimiseJob.setProgressHandler([this](const NetworkOptimiseProgress &p) { showOptimiseProgress(p); });
    m_optimiseJob.setFinishedHandler([this](OptimiseOutcome outcome) { finishOptimisation(std::move(outcome)); });
}

bool NetworkPanel::maybeSaveNetwork()
{
    if (!m_modified || !m_network)
        return true;
    const QString name = m_network->name.empty() ? QFileInfo(m_path).fileName() : QString::fromStdString(m_network->name);
    const auto answer = QMessageBox::warning(this, tr("Unsaved network"),
        tr("The network %1 has strategies the optimiser added that are not saved. Save them?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Discard)
        return true;
    return answer == QMessageBox::Save && saveNetworkOrAsk(m_path);
}

bool NetworkPanel::saveNetworkOrAsk(QString path)
{
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save network project"),
            m_path.isEmpty() ? QStringLiteral("network.json") : m_path, tr("ConvOffload projects (*.json)"));
    if (path.isEmpty())
        return false;
    const QString error = saveNetworkTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save the network"), error);
    return error.isEmpty();
}

void NetworkPanel::chooseAndOpen()
{
    if (!maybeSaveNetwork())
        return;
    openFileAndApply(this,
        {tr("Open network"), QFileInfo(m_path).path(), tr("ConvOffload projects (*.json);;All files (*)"),
            tr("Cannot open network")},
        [this](const QString &path) { return openNetwork(path); });
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

void NetworkPanel::setRunning(bool running)
{
    m_progress->setVisible(running);
    m_stop->setVisible(running);
    m_open->setEnabled(!running);
    m_optimise->setEnabled(!running && m_analysis.has_value());
    m_saveNetwork->setEnabled(!running && m_network.has_value());
    m_saveChart->setEnabled(!running && m_analysis.has_value());
}

void NetworkPanel::stop()
{
    m_job.cancel();
    m_optimiseJob.cancel();
}

QString NetworkPanel::applyHardware(const Hardware &hardware)
{
    if (!m_network)
        return tr("No network is open.");
    if (const std::vector<std::string> problems = hardware.problems(); !problems.empty())
        return tr("This hardware does not suit the network: %1").arg(QString::fromStdString(problems.front()));
    if (hardware == m_network->hardware)
        return tr("The network already has this hardware.");
    Network changed = *m_network;
    changed.hardware = hardware;
    setNetwork(changed, m_path);
    m_modified = true; // setNetwork took it for a network as opened
    return tr("Applied mem_size %1, nbop_pe %2, t_l %3 to the network; analysing it again (Save network keeps it)")
        .arg(hardware.mem_size)
        .arg(hardware.nbop_pe)
        .arg(hardware.t_l);
}

void NetworkPanel::setNetwork(const Network &network, const QString &path)
{
    stop();
    ++m_generation;
    m_updateLayer->setVisible(false); // no layer of this network is open yet
    m_updateLayer->setEnabled(false);
    m_network = network;
    m_analysis.reset();
    m_lastOptimisation.reset();
    m_modified = false;
    m_path = path;
    fillLayers();
    m_plotView->setPlot(std::nullopt, tr("The chart appears once the analysis has finished."));
    m_summary->setText(tr("Analysing %n layers…", nullptr, int(network.layers.size())));
    m_progress->setRange(0, int(network.layers.size()));
    m_progress->setValue(0);
    setRunning(true);
    const auto start = [this, network, file = path.toStdString()] {
        return m_job.start([network, file](const JobControl<int> &control) {
            NetworkAnalysisOptions options;
            options.cancel = control.cancelFlag();
            options.progress = [&control](std::size_t layer, std::size_t) { control.report(int(layer)); };
            try {
                return Outcome{analyseNetwork(network, options), false, {}};
            } catch (const Cancelled &) {
                return Outcome{{}, true, {}};
            } catch (const std::exception &e) { // an exception must not leave the job (BackgroundJob.h)
                return Outcome{{}, false, QString::fromStdString(errorMessage(e, "analysing the network", file))};
            }
        });
    };
    // A previous run (analysis or optimisation) is ending: start once it has.
    if (m_optimiseJob.isRunning())
        connect(
            &m_optimiseJob, &BackgroundJobBase::finished, this,
            [this, start] {
                setRunning(true);
                start();
            },
            Qt::SingleShotConnection);
    else if (!start())
        connect(
            &m_job, &BackgroundJobBase::finished, this,
            [this, start] {
                setRunning(true);
                start();
            },
            Qt::SingleShotConnection);
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

void NetworkPanel::setOpenLayer(int index, const Project &asOpened)
{
    m_openAddedBest.reset();
    if (!m_network || index < 0 || index >= int(m_network->layers.size())) {
        m_openLayer = -1;
        m_updateLayer->setEnabled(false);
        m_updateLayer->setVisible(false);
        return;
    }
    m_openLayer = index;
    m_openGeneration = m_generation;
    m_openInNetwork = asOpened;
    // layerProject adds the analysis's best when the layer does not hold it.
    const std::vector<StrategySpec> &own = m_network->layers[std::size_t(index)].strategies;
    if (asOpened.strategies.size() == own.size() + 1)
        m_openAddedBest = asOpened.strategies.back();
    m_updateLayer->setEnabled(false);
    m_updateLayer->setVisible(true);
}

int NetworkPanel::openLayer() const { return m_openGeneration == m_generation ? m_openLayer : -1; }

void NetworkPanel::showOpenLayerProject(const Project &shown)
{
    m_updateLayer->setVisible(openLayer() >= 0);
    m_updateLayer->setEnabled(openLayer() >= 0 && shown != m_openInNetwork && !m_optimiseJob.isRunning());
}

bool NetworkPanel::hardwareDiffers(const Project &project) const
{
    return m_network && (project.problem.hardware != m_network->hardware || project.problem.options != m_network->options);
}

QString NetworkPanel::updateOpenLayer(const Project &project, bool hardwareToo, bool *ok)
{
    if (ok)
        *ok = false;
    const int index = openLayer();
    if (index < 0)
        return tr("The layer shown was not opened from the open network.");
    if (m_optimiseJob.isRunning())
        return tr("The network is being optimised: stop it or wait before updating a layer.");
    if (const std::vector<std::string> problems = project.problem.layer.problems(); !problems.empty())
        return tr("The layer cannot go back into the network: %1").arg(QString::fromStdString(problems.front()));
    if (hardwareToo)
        if (const std::vector<std::string> problems = project.problem.hardware.problems(); !problems.empty())
            return tr("This hardware does not suit the network: %1").arg(QString::fromStdString(problems.front()));
    Network changed = *m_network;
    NetworkLayer &layer = changed.layers[std::size_t(index)];
    layer.layer = project.problem.layer;
    layer.data = project.data;
    layer.strategies.clear();
    for (const StrategySpec &spec : project.strategies)
        if (!(m_openAddedBest && spec == *m_openAddedBest)) // the analysis finds it again
            layer.strategies.push_back(spec);
    if (hardwareToo) {
        changed.hardware = project.problem.hardware;
        changed.options = project.problem.options;
    }
    const QString name = QString::fromStdString(layer.name);
    const bool sharedChanged = hardwareToo && hardwareDiffers(project);
    setNetwork(changed, m_path);
    m_modified = true; // setNetwork took it for a network as opened
    m_saveNetwork->setEnabled(true);
    // Still the layer shown, now as the network holds it.
    m_openLayer = index;
    m_openGeneration = m_generation;
    m_openInNetwork = project;
    m_updateLayer->setEnabled(false);
    m_updateLayer->setVisible(true);
    if (ok)
        *ok = true;
    return sharedChanged ? tr("Layer %1 and its hardware put back into the network; every layer is analysed again (Save "
                              "network keeps it)")
                               .arg(name)
                         : tr("Layer %1 put back into the network and analysed again (Save network keeps it)").arg(name);
}

void NetworkPanel::fillLayers()
{
    m_tree->clear();
    for (std::size_t i = 0; i < m_network->layers.size(); ++i) {
        const NetworkLayer &l = m_network->layers[i];
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(NameColumn, QString::fromStdString(l.name));
        item->setData(NameColumn, Qt::UserRole, int(i));
        item->setText(ShapeColumn, layerShapeText(l.layer));
        const bool fit = kernelsFitOnChip(m_network->problemOf(i));
        item->setText(FitColumn, fit ? tr("yes") : tr("no: streamed"));
        for (const int c : {DurationColumn, ShareColumn})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
}

QString NetworkPanel::badgeMeaning(const QString &badge)
{
    if (badge == QStringLiteral("\u2714"))
        return tr("valid, and meets the paper's assumptions");
    if (badge == QStringLiteral("\u25e5"))
        return tr("runs correctly, but breaks the reload assumption (max_loads_per_element)");
    if (badge == QStringLiteral("\u26a0"))
        return tr("valid, with warnings");
    if (badge == QStringLiteral("\u2716"))
        return tr("no valid strategy");
    return {};
}

void NetworkPanel::fitBestColumn()
{
    m_tree->resizeColumnToContents(BestColumn);
    const int cap = std::max(120, m_tree->viewport()->width() * 2 / 5);
    if (m_tree->columnWidth(BestColumn) > cap)
        m_tree->setColumnWidth(BestColumn, cap);
}

void NetworkPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitBestColumn();
}

void NetworkPanel::showAnalysis(const NetworkAnalysis &analysis)
{
    for (std::size_t i = 0; i < analysis.layers.size() && int(i) < m_tree->topLevelItemCount(); ++i) {
        const LayerAnalysis &l = analysis.layers[i];
        QTreeWidgetItem *item = m_tree->topLevelItem(int(i));
        const LayerCandidate *best = l.bestCandidate();
        item->setText(BestColumn, best ? QString::fromStdString(best->row.name) : tr("(none valid)"));
        item->setToolTip(BestColumn, item->text(BestColumn));
        item->setText(DurationColumn, best ? cycles(best->row.total_duration) : QStringLiteral("–"));
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
        QString tip = badge + QLatin1Char(' ') + badgeMeaning(badge) + QLatin1Char('\n'); // the glyph alone meant nothing
        if (verdict) {
            tip += QString::fromStdString(verdictSummary(*verdict)) + QLatin1Char('\n');
            for (const std::string &broken : best->broken)
                tip += tr("first %1").arg(QString::fromStdString(broken)) + QLatin1Char('\n');
        }
        item->setToolTip(ValidColumn, tip.trimmed());
    }
    QString text
        = tr("Total duration %1 over %n layers", nullptr, int(analysis.layers.size())).arg(cycles(analysis.total_duration));
    if (analysis.layers_without_valid > 0)
        text += tr(" (incomplete: %1 without a valid strategy)").arg(analysis.layers_without_valid);
    // What the total leaves out comes before which layers dominate it; the
    // dominating names are capped (the tooltip has them all) so that the
    // summary stays two or three lines and the table above keeps its rows
    // (PP-OCR's classifier has nine dominating layers).
    if (!analysis.skipped.empty())
        text += tr("; %1 of %2 convolutions: %n skipped by the import, not in the total", nullptr, int(analysis.skipped.size()))
                    .arg(analysis.layers.size())
                    .arg(analysis.convolutions());
    QStringList names;
    for (const std::size_t i : analysis.dominating)
        names << QString::fromStdString(analysis.layers[i].name);
    constexpr qsizetype kShownNames = 3;
    if (names.size() > kShownNames)
        text += tr("; dominated by %1 and %n more", nullptr, int(names.size() - kShownNames))
                    .arg(names.mid(0, kShownNames).join(QStringLiteral(", ")));
    else if (!names.isEmpty())
        text += tr("; dominated by %1").arg(names.join(QStringLiteral(", ")));
    m_summary->setToolTip(
        names.isEmpty() ? QString() : tr("Dominated by (at least half of the total): %1").arg(names.join(QStringLiteral(", "))));
    m_summary->setText(text + QLatin1Char('.'));
    m_plotView->setPlot(NetworkPlot(analysis));
    // The chart scrolls; its minimum is a few rows, not the whole chart: the
    // dock shares the height under the grids with Steps and Findings, and a
    // minimum of 18 lines squeezed the grids to a sliver at 1280×720 (View ›
    // Reset Layout could not undo it). The user drags the dock taller.
    const int width = std::max(400, m_chartScroll->viewport()->width());
    m_chartScroll->setMinimumHeight(std::min(m_plotView->heightForWidth(width), 6 * fontMetrics().height()));
    fitBestColumn();
}

bool NetworkPanel::startOptimisation(double seconds)
{
    NetworkOptimiseChoice choice;
    choice.time_limit_s = seconds;
    return startOptimisation(choice);
}

bool NetworkPanel::startOptimisation(const NetworkOptimiseChoice &choice)
{
    const double seconds = choice.time_limit_s;
    if (!m_analysis || busy() || (!choice.reproducible && !(seconds > 0)) || (choice.reproducible && choice.moves < 1))
        return false;
    m_lastChoice = choice;
    const NetworkAnalysis analysis = *m_analysis;
    const std::size_t count = std::size_t(std::count_if(analysis.layers.begin(), analysis.layers.end(), layerOptimisable));
    if (count == 0) {
        m_summary->setText(tr("No layer to optimise: the optimiser needs a layer whose kernels fit on chip."));
        return false;
    }
    const bool started = m_optimiseJob.start(
        [analysis, choice, file = m_path.toStdString()](const JobControl<NetworkOptimiseProgress> &control) {
            OptimiseOutcome outcome{analysis, {}, {}};
            NetworkOptimiseOptions options;
            options.time_limit_s = choice.time_limit_s;
            if (choice.reproducible) {
                // The moves end each search, on one thread, as `network
                // --optimize --seed S --moves N --threads 1`: no time limit that
                // a slow machine would reach first (Stop still ends it).
                options.time_limit_s = 1e9;
                options.request.max_moves = choice.moves;
                options.request.seed = choice.seed;
                options.request.threads = 1;
            }
            options.cancel = control.cancelFlag();
            options.progress = [&control](const NetworkOptimiseProgress &p) { control.report(p); };
            try {
                outcome.optimisation = optimiseNetwork(outcome.analysis, options);
            } catch (const std::exception &e) {
                outcome.error = QString::fromStdString(errorMessage(e, "optimising the network", file));
            }
            return outcome;
        });
    if (!started)
        return false;
    m_optimisedGeneration = m_generation;
    m_progress->setRange(0, int(count));
    m_progress->setValue(0);
    m_summary->setText(choice.reproducible
            ? tr("Optimising %n layers, %1 moves each (seed %2)…", nullptr, int(count)).arg(choice.moves).arg(choice.seed)
            : tr("Optimising %n layers within %1 s…", nullptr, int(count)).arg(seconds));
    setRunning(true);
    return true;
}

void NetworkPanel::showOptimiseProgress(const NetworkOptimiseProgress &p)
{
    if (m_optimisedGeneration != m_generation)
        return;
    if (!m_analysis || p.layer >= m_analysis->layers.size())
        return;
    const LayerAnalysis &l = m_analysis->layers[p.layer];
    m_progress->setValue(int(p.position - 1));
    QString text = m_lastChoice.reproducible ? tr("Optimising layer %1 of %2: %3 (%4 s, %5 moves)")
                                                   .arg(p.position)
                                                   .arg(p.count)
                                                   .arg(QString::fromStdString(l.name))
                                                   .arg(p.progress.seconds, 0, 'f', 1)
                                                   .arg(m_lastChoice.moves)
                                             : tr("Optimising layer %1 of %2: %3 (%4 s of %5 s)")
                                                   .arg(p.position)
                                                   .arg(p.count)
                                                   .arg(QString::fromStdString(l.name))
                                                   .arg(p.progress.seconds, 0, 'f', 1)
                                                   .arg(p.time_limit_s, 0, 'f', 1);
    text += p.progress.incumbent ? tr(" — incumbent %1").arg(cycles(*p.progress.incumbent)) : tr(" — no incumbent yet");
    if (const LayerCandidate *best = l.bestCandidate())
        text += tr(", best before %1 (%2)").arg(cycles(best->row.total_duration), QString::fromStdString(best->spec.name));
    m_summary->setText(text);
}

void NetworkPanel::finishOptimisation(OptimiseOutcome outcome)
{
    if (m_optimisedGeneration != m_generation)
        return; // another network was opened meanwhile: its analysis follows
    if (!outcome.error.isEmpty()) {
        setRunning(false);
        m_summary->setText(tr("Optimisation failed: %1").arg(outcome.error));
        emit optimised();
        return;
    }
    // The strategies found join their layers in the dock's network, so that
    // opening a layer brings them and Save network… keeps them.
    int added = 0, improved = 0;
    for (const LayerOptimisation &o : outcome.optimisation.layers) {
        if (!o.strategy || !o.duration || !m_network || o.layer >= m_network->layers.size())
            continue;
        m_network->layers[o.layer].strategies.push_back(*o.strategy);
        ++added;
        improved += o.improved ? 1 : 0;
    }
    // Every layer's best, as the table and the chart show it, joins the
    // network too (a generated heuristic or kernel-blocked strategy is not
    // in its file): Save network… then writes the best shown, and the
    // network file reproduces the total.
    int bestsAdded = 0;
    if (m_network)
        for (std::size_t i = 0; i < outcome.analysis.layers.size() && i < m_network->layers.size(); ++i) {
            const LayerCandidate *best = outcome.analysis.layers[i].bestCandidate();
            std::vector<StrategySpec> &own = m_network->layers[i].strategies;
            if (!best || std::find(own.begin(), own.end(), best->spec) != own.end())
                continue;
            own.push_back(best->spec);
            ++bestsAdded;
        }
    m_modified = m_modified || added > 0 || bestsAdded > 0;
    m_lastOptimisation = outcome.optimisation;
    m_analysis = std::move(outcome.analysis);
    setRunning(false);
    showAnalysis(*m_analysis);
    const NetworkOptimisation &o = outcome.optimisation;
    QString text = o.cancelled
        ? tr("Optimisation stopped in layer %1 of %2, what it found kept").arg(o.layers.size()).arg(o.planned)
        : tr("Optimised %1 of %2 layers").arg(o.layers.size()).arg(m_analysis->layers.size());
    text += tr(": %n strategies added, ", nullptr, added) + tr("%n shorter than the heuristics", nullptr, improved);
    if (bestsAdded > 0)
        text += tr("; %n layers' best added to the network, for Save network\u2026", nullptr, bestsAdded);
    text += QStringLiteral(". ") + skippedText(o) + reproducibilityText(m_lastChoice, m_path);
    m_summary->setText(text + m_summary->text());
    emit optimised();
}

void NetworkPanel::chooseAndOptimise()
{
    NetworkOptimiseDialog dialog(m_lastChoice, this);
    if (dialog.exec() == QDialog::Accepted)
        startOptimisation(dialog.choice());
}

QString NetworkPanel::skippedText(const NetworkOptimisation &optimisation) const
{
    QStringList parts;
    for (const SkippedLayer &s : optimisation.skipped) {
        const QString name = m_analysis && s.layer < m_analysis->layers.size()
            ? QString::fromStdString(m_analysis->layers[s.layer].name)
            : QString::number(s.layer + 1);
        parts << tr("%1 (%2)").arg(name, QString::fromStdString(s.reason));
    }
    for (const LayerOptimisation &l : optimisation.layers)
        if (!l.note.empty() && m_analysis && l.layer < m_analysis->layers.size())
            parts << tr("%1 (%2)").arg(QString::fromStdString(m_analysis->layers[l.layer].name), QString::fromStdString(l.note));
    if (parts.isEmpty())
        return {};
    return tr("Not optimised: %1. ").arg(parts.join(QStringLiteral("; ")));
}

QString NetworkPanel::reproducibilityText(const NetworkOptimiseChoice &choice, const QString &path)
{
    if (choice.reproducible)
        return tr("Reproducible on any machine: %1. ").arg(NetworkOptimiseDialog::cliCommand(choice, QFileInfo(path).fileName()));
    return tr("Not reproducible: a time limit (moves with a seed are). ");
}

QString NetworkPanel::saveNetworkTo(const QString &path)
{
    if (!m_network)
        return tr("No network.");
    try {
        saveNetwork(*m_network, path.toStdString());
        m_path = path;
        m_modified = false;
        return {};
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

void NetworkPanel::chooseAndSaveNetwork() { saveNetworkOrAsk({}); }

QString NetworkPanel::saveChart(const QString &path, int width) const
{
    if (!m_analysis)
        return tr("No network chart yet: the analysis has not finished.");
    const Figure figure = networkFigure(*m_analysis, font(), width);
    if (const ExportResult check = checkExportTarget(path, figure.preferredSize); !check)
        return check.error;
    return exportFigure(figure.paint, figure.preferredSize, path, figure.title, figure.description).error;
}

QString NetworkPanel::saveChart(const QString &path, const ExportPreset &preset, bool title) const
{
    if (!m_analysis)
        return tr("No network chart yet: the analysis has not finished.");
    const QSize least = presetLayoutSize(preset);
    const Figure figure = networkFigure(*m_analysis, presetFont(preset), least.width(), title);
    const QSize size(least.width(), std::max(least.height(), figure.preferredSize.height()));
    if (const ExportResult check = checkExportTarget(path, size); !check)
        return check.error;
    return exportFigure(figure.paint, size, path, figure.title, figure.description, presetPngScale(preset)).error;
}

void NetworkPanel::chooseAndSaveChart()
{
    // A size first: the chart at the window's font is 26.5 cm wide, its text
    // 6 pt once scaled to a paper's column; a preset lays it out at the
    // printed size (the Export dialog's and the CLI's presets).
    QStringList sizes{tr("On-screen size (1000 px wide, the window's font)")};
    for (const ExportPreset &p : exportPresets())
        sizes << p.label;
    QSettings settings;
    const QString remembered = settings.value(QStringLiteral("network/chartPreset")).toString();
    int current = 0;
    for (int i = 0; i < exportPresets().size(); ++i)
        if (exportPresets()[i].name == remembered)
            current = i + 1;
    bool ok = false;
    const QString size = QInputDialog::getItem(this, tr("Save network chart"), tr("Size:"), sizes, current, false, &ok);
    if (!ok)
        return;
    const int chosen = int(sizes.indexOf(size));
    const std::optional<ExportPreset> preset
        = chosen > 0 ? std::optional<ExportPreset>(exportPresets()[chosen - 1]) : std::nullopt;
    settings.setValue(QStringLiteral("network/chartPreset"), preset ? preset->name : QString());
    const QString base = m_path.isEmpty() ? QStringLiteral("network") : QFileInfo(m_path).completeBaseName();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save network chart"),
        QFileInfo(m_path).dir().filePath(base + QStringLiteral("-chart.png")), tr("Figures (*.png *.svg *.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = preset ? saveChart(path, *preset) : saveChart(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save the chart"), error);
}

} // namespace convoffload::ui
