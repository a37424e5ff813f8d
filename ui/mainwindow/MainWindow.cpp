// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "mainwindow/MainWindow.h"

#include "mainwindow/ExportDialog.h"
#include "export/TimelineExport.h"
#include "mainwindow/WindowLayout.h"
#include "start/BundledSamples.h"
#include "start/HelpMenu.h"
#include "start/NewProjectDialog.h"
#include "start/StartPage.h"
#include "charts/ChartsPanel.h"
#include "document/AddStrategyCommand.h"
#include "document/ProjectDocument.h"
#include "optimise/ExperimentsDialog.h"
#include "explore/ExploreDialog.h"
#include "document/EditProblemCommand.h"
#include "convoffload/io/TextFile.h"
#include "optimise/OptimiseDialog.h"
#include "grid/GridView.h"
#include "models/GroupListModel.h"
#include "network/NetworkImportDialog.h"
#include "convoffload/io/Report.h"
#include "convoffload/io/ProjectFile.h"
#include "network/NetworkPanel.h"
#include "panels/DiagnosticsPanel.h"
#include "panels/GroupsPanel.h"
#include "panels/ProblemEditor.h"
#include "panels/StepControls.h"
#include "panels/StepTable.h"
#include "panels/StrategyPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QSplitter>
#include <QScrollArea>
#include <QUndoStack>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoView>
#include <QVBoxLayout>

#include <memory>

namespace convoffload::ui {

namespace {
constexpr int kMaxRecentFiles = 8;
const QString kRecentKey = QStringLiteral("recentFiles");
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_document(new ProjectDocument(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    createViews();
    createMenus();
    connect(m_document, &ProjectDocument::fileChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ProjectDocument::simulationChanged, this, &MainWindow::onSimulationChanged);
    connect(m_document, &ProjectDocument::simulationStarted, this, [this] { m_status->setText(tr("Simulating…")); });
    connect(m_document, &ProjectDocument::momentChanged, this, &MainWindow::onMomentChanged);
    connect(m_document, &ProjectDocument::comparisonChanged, this, [this] {
        m_charts->setComparison(m_document->comparison());
        m_charts->setSweep(m_document->sweep(), m_document->sweepUnavailable());
    });
    connect(m_document, &ProjectDocument::progress, this, [this](const QString &what, int percent) {
        m_progress->setFormat(what + QStringLiteral(" %p%"));
        m_progress->setValue(percent);
        updateBusy();
    });
    connect(m_document, &ProjectDocument::simulationChanged, this, &MainWindow::updateBusy);
    connect(m_document, &ProjectDocument::comparisonChanged, this, &MainWindow::updateBusy);

    m_layout->restore();
    showStartPage(true);
    updateTitle();
    updateRecentFiles();
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews()
{
    m_inputGrid = new GridView(GridKind::Input, this);
    m_outputGrid = new GridView(GridKind::Output, this);
    auto *grids = new QSplitter(Qt::Horizontal, this);
    grids->addWidget(m_inputGrid);
    grids->addWidget(m_outputGrid);
    grids->setStretchFactor(0, 3);
    grids->setStretchFactor(1, 2);

    m_stepControls = new StepControls(m_document, this);
    auto *centre = new QWidget(this);
    auto *layout = new QVBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(grids, 1);
    layout->addWidget(m_stepControls);
    // With no file the centre shows the start page instead of empty grids.
    m_startPage = new StartPage(this);
    connect(m_startPage, &StartPage::newProjectRequested, this, &MainWindow::newProject);
    connect(m_startPage, &StartPage::openRequested, this, &MainWindow::open);
    connect(m_startPage, &StartPage::fileRequested, this, [this](const QString &path) {
        if (maybeSave())
            openFile(path);
    });
    connect(m_startPage, &StartPage::sampleRequested, this, &MainWindow::openSample);
    connect(m_startPage, &StartPage::guideRequested, this, [this] { showGuide(this); });
    m_centre = new QStackedWidget(this);
    // The start page scrolls rather than holding the centre's height: at
    // 1024×600 it kept an opened network's dock to 200 px (3 rows of the
    // table, a 60 px chart).
    auto *startScroll = new QScrollArea(this);
    startScroll->setWidgetResizable(true);
    startScroll->setFrameShape(QFrame::NoFrame);
    startScroll->setWidget(m_startPage);
    m_centre->addWidget(startScroll);
    m_centre->addWidget(centre);
    setCentralWidget(m_centre);

    const auto dock = [this](QWidget *widget, const QString &title, const QString &name) {
        auto *d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        return d;
    };
    m_strategies = new StrategyPanel(m_document, this);
    m_problemEditor = new ProblemEditor(m_document, this);
    m_diagnostics = new DiagnosticsPanel(m_document, this);
    m_stepTable = new StepTable(m_document, this);
    m_charts = new ChartsPanel(this);
    m_groups = new GroupsPanel(m_document, this);
    auto *undoView = new QUndoView(m_document->undoStack(), this);
    undoView->setEmptyLabel(tr("<opened project>"));

    MainDocks docks;
    docks.strategies = dock(m_strategies, tr("Strategies"), QStringLiteral("strategiesDock"));
    docks.problem = dock(m_problemEditor, tr("Layer and hardware"), QStringLiteral("problemDock"));
    docks.diagnostics = dock(m_diagnostics, tr("Errors and warnings"), QStringLiteral("diagnosticsDock"));
    docks.history = dock(undoView, tr("History"), QStringLiteral("historyDock"));
    docks.groups = dock(m_groups, tr("Groups"), QStringLiteral("groupsDock"));
    docks.steps = dock(m_stepTable, tr("Steps"), QStringLiteral("stepsDock"));
    docks.charts = dock(m_charts, tr("Charts"), QStringLiteral("chartsDock"));
    // The Network dock: activating a layer opens it as a single-layer project.
    auto *networkPanel = new NetworkPanel(this);
    docks.network = dock(networkPanel, tr("Network"), QStringLiteral("networkDock"));
    connect(networkPanel, &NetworkPanel::layerActivated, this, [this, networkPanel](int index) {
        if (!maybeSave())
            return;
        int best = -1;
        const Network &network = *networkPanel->network();
        const QString name = QString::fromStdString(network.layers.at(std::size_t(index)).name);
        const Project project = networkPanel->layerProject(index, best);
        m_openingNetworkLayer = true;
        m_document->resetToProject(
            project, {}, network.name.empty() ? name : QStringLiteral("%1 › %2").arg(QString::fromStdString(network.name), name));
        m_openingNetworkLayer = false;
        networkPanel->setOpenLayer(index, project);
        if (best >= 0)
            m_document->setCurrentStrategy(best);
        showStartPage(false);
        m_inputGrid->fitToView();
        m_outputGrid->fitToView();
    });
    m_layout = new WindowLayout(this, docks);
    // An edited layer of the network is offered back to it (Update layer in
    // network); another project opened ends that.
    connect(m_document, &ProjectDocument::projectReset, this, [this, networkPanel] {
        if (!m_openingNetworkLayer)
            networkPanel->setOpenLayer(-1, {});
    });
    connect(m_document->undoStack(), &QUndoStack::indexChanged, this,
        [this, networkPanel] { networkPanel->showOpenLayerProject(m_document->project()); });
    connect(networkPanel, &NetworkPanel::updateLayerRequested, this, [this] { updateLayerInNetwork(); });

    connect(m_charts, &ChartsPanel::stepClicked, this, [this](int step) { m_document->seek({step, Action::Compute}); });
    connect(m_inputGrid, &GridView::cellClicked, this,
        [this](int row, int col) { m_status->setText(tr("pixel (%1,%2)").arg(row).arg(col)); });

    // The output grid edits the current strategy's groups: select patches,
    // drag them onto another group's patch, or press 1-9 / N.
    m_outputGrid->setEditable(m_groups->model());
    // The patches selected on the grid are selected, and scrolled to, in the Groups dock.
    connect(m_outputGrid, &GridView::selectionChanged, this, [this] { m_groups->showPatches(m_outputGrid->selectedPatches()); });
    // While a drag hovers over a group (on the grid or in the dock), the
    // input grid shows the receptive field that group would have.
    m_inputGrid->setDropPreview(m_groups->model()->dropPreview());
    // An empty reason withdraws the refusal shown (the drag moved on to a
    // target that takes the patches), and only that one.
    connect(m_outputGrid, &GridView::dropRefused, this, [this, shown = std::make_shared<QString>()](const QString &reason) {
        if (!reason.isEmpty()) {
            statusBar()->showMessage(reason, 4000);
            *shown = reason;
        } else if (statusBar()->currentMessage() == *shown) {
            statusBar()->clearMessage();
        }
    });
    // A refusal shown while dragging is stale once an edit went through.
    connect(m_document, &ProjectDocument::groupsChanged, statusBar(), &QStatusBar::clearMessage);
    connect(m_groups->model(), &GroupListModel::editRefused, this,
        [this](const QString &reason) { statusBar()->showMessage(reason, 4000); });

    const auto pointAtFinding = [this](QTreeWidgetItem *item) {
        const auto snapshot = m_document->simulation();
        const int index = item ? item->data(0, DiagnosticsPanel::DiagnosticIndexRole).toInt() : -1;
        if (!snapshot || index < 0 || index >= int(snapshot->result.diagnostics.size()))
            return;
        highlightElement(snapshot->result.diagnostics[std::size_t(index)]);
    };
    connect(m_diagnostics->tree(), &QTreeWidget::itemActivated, this, pointAtFinding);
    connect(m_diagnostics->tree(), &QTreeWidget::itemClicked, this, pointAtFinding);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(260);
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    statusBar()->addPermanentWidget(m_progress);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the running simulation, comparison or sweep (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setVisible(false);
    connect(m_cancel, &QToolButton::clicked, m_document, &ProjectDocument::cancel);
    statusBar()->addPermanentWidget(m_cancel);
    m_busyDelay = new QTimer(this);
    m_busyDelay->setSingleShot(true);
    m_busyDelay->setInterval(kBusyDelayMs);
    connect(m_busyDelay, &QTimer::timeout, this, [this] {
        const bool busy = m_document->busy();
        m_progress->setVisible(busy);
        m_cancel->setVisible(busy);
    });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Project…"), QKeySequence::New, this, &MainWindow::newProject);
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Import &Network (ONNX)…"), QKeySequence(tr("Ctrl+I")), this, [this] { importNetwork({}); });
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    // Not every platform theme has a Save As key (Qt's generic X11 one has none).
    file->addAction(tr("Save &As…"), QKeySequence::keyBindings(QKeySequence::SaveAs).value(0, QKeySequence(tr("Ctrl+Shift+S"))),
        this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("&Export Figure…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportFigure);
    // The network chart is the Network dock's (it needs the network's
    // analysis); listed here too, where users look for every figure.
    QAction *networkChart = file->addAction(tr("Export Network &Chart…"), this, [this] {
        if (auto *panel = findChild<NetworkPanel *>(); panel && panel->canSaveChart())
            panel->chooseAndSaveChart();
    });
    networkChart->setObjectName(QStringLiteral("exportNetworkChart"));
    networkChart->setStatusTip(tr("Save the Network dock's chart as PNG, SVG or PDF, once its analysis has finished"));
    connect(file, &QMenu::aboutToShow, this, [this, networkChart] {
        const auto *panel = findChild<NetworkPanel *>();
        networkChart->setEnabled(panel && panel->canSaveChart());
    });
    networkChart->setEnabled(false);
    QAction *timeline = file->addAction(tr("Export &Timeline…"), this, &MainWindow::chooseTimelineFile);
    timeline->setObjectName(QStringLiteral("exportTimeline"));
    const QString timelineTip = tr("Save the schedule as a Chrome Trace Event file for Perfetto (ui.perfetto.dev)");
    timeline->setToolTip(timelineTip);
    timeline->setStatusTip(timelineTip);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    // Ctrl+Y as well as the platform's key (Ctrl+Shift+Z here): users of
    // other desktop tools reach for either.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(tr("Ctrl+Y"))))
        redoKeys.append(QKeySequence(tr("Ctrl+Y")));
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *strategy = menuBar()->addMenu(tr("&Strategy"));
    for (QAction *a : {m_strategies->addHeuristicAction(), m_strategies->duplicateAction(), m_strategies->renameAction(),
             m_strategies->deleteAction(), m_strategies->importCsvAction(), m_strategies->exportCsvAction()})
        strategy->addAction(a);
    // Add (Ins) and Duplicate (Ctrl+D) work wherever the focus is, the grids
    // and charts included; Rename (F2) and Delete stay with the list, where
    // those keys cannot mean something else.
    for (QAction *a : {m_strategies->addHeuristicAction(), m_strategies->duplicateAction()})
        a->setShortcutContext(Qt::WindowShortcut);

    QMenu *groups = menuBar()->addMenu(tr("&Groups"));
    groups->setToolTipsVisible(true);
    groups->addActions(m_groups->editActions());
    // A `steps` strategy's own edits (each set shows only while it applies,
    // so the menu holds the current strategy's; the shortcuts list has both).
    groups->addActions(m_groups->stepActions());

    QMenu *optimiseMenu = menuBar()->addMenu(tr("&Optimise"));
    optimiseMenu->setToolTipsVisible(true);
    QAction *optimiseAction = optimiseMenu->addAction(
        tr("&Optimise Strategy…"), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::optimiseStrategy);
    optimiseAction->setObjectName(QStringLiteral("optimiseAction"));
    optimiseAction->setToolTip(tr("Find a shorter strategy for this layer with the search optimiser or the ILP (CBC)"));
    QAction *experimentsAction = optimiseMenu->addAction(
        tr("&Paper Experiments and Gain…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::showExperiments);
    experimentsAction->setObjectName(QStringLiteral("experimentsAction"));
    experimentsAction->setToolTip(tr("The paper's grid of small layers: gain of optimised strategies over the heuristics"));
    QAction *exploreAction
        = optimiseMenu->addAction(tr("E&xplore Hardware…"), QKeySequence(tr("Ctrl+Shift+X")), this, &MainWindow::exploreHardware);
    exploreAction->setObjectName(QStringLiteral("exploreAction"));
    exploreAction->setToolTip(tr("The open network (or project) at every point of a grid of memory sizes, MACs per step and "
                                 "transfer costs: the Pareto front of memory against duration"));

    QMenu *step = menuBar()->addMenu(tr("S&tep"));
    for (QAction *a : {m_stepControls->firstAction(), m_stepControls->previousAction(), m_stepControls->playAction(),
             m_stepControls->nextAction(), m_stepControls->lastAction()}) {
        step->addAction(a);
        addAction(a); // shortcuts work wherever the focus is
    }

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *heat = m_viewMenu->addAction(tr("Reload &Heat Map"));
    heat->setCheckable(true);
    heat->setShortcut(QKeySequence(tr("Ctrl+H")));
    heat->setToolTip(tr("Colour input pixels by how many times they have been loaded so far"));
    connect(heat, &QAction::toggled, m_inputGrid, &GridView::setHeatMap);
    QAction *dmaRuns = m_viewMenu->addAction(tr("Outline &DMA Runs"));
    dmaRuns->setObjectName(QStringLiteral("dmaRunsAction"));
    dmaRuns->setCheckable(true);
    dmaRuns->setChecked(m_inputGrid->style().dmaRuns);
    dmaRuns->setToolTip(tr("Under a transfer model (hardware.transfer), outline each DMA run (descriptor) of the step's input "
                           "load on the input grid"));
    connect(dmaRuns, &QAction::toggled, m_inputGrid, &GridView::setDmaRuns);
    m_viewMenu->addAction(tr("&Fit Grids"), QKeySequence(tr("Ctrl+0")), this, [this] {
        m_inputGrid->fitToView();
        m_outputGrid->fitToView();
    });
    m_viewMenu->addSeparator();
    for (QDockWidget *d : findChildren<QDockWidget *>())
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reset Layout"), m_layout, &WindowLayout::reset);

    fillHelpMenu(menuBar()->addMenu(tr("&Help")), this);
}

bool MainWindow::openFile(const QString &path)
{
    // A model is not a project: it becomes one through the import (docs/reference/cli.md#import-onnx).
    if (path.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive))
        return importNetwork(path);
    const QString error = m_document->load(path);
    if (!error.isEmpty() && isNetworkProjectFile(path.toStdString()))
        return openNetworkFile(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot open project"), error);
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    showStartPage(false);
    m_inputGrid->fitToView();
    m_outputGrid->fitToView();
    return true;
}

bool MainWindow::importNetwork(const QString &modelPath)
{
    NetworkImportDialog dialog(this);
    if (!modelPath.isEmpty())
        dialog.setModel(modelPath); // an error shows in the dialog, beside the model
    auto *panel = findChild<NetworkPanel *>();
    if (!panel || !panel->maybeSaveNetwork() || dialog.exec() != QDialog::Accepted)
        return false;
    panel->openNetwork(dialog.savedPath());
    showNetworkDock(panel);
    return true;
}

// A network project opens in the Network dock; its layers open from there.
bool MainWindow::openNetworkFile(const QString &path)
{
    auto *panel = findChild<NetworkPanel *>();
    if (panel && !panel->maybeSaveNetwork())
        return false;
    const QString error = panel ? panel->openNetwork(path) : tr("no network view");
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot open network"), error);
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    showNetworkDock(panel);
    return true;
}

void MainWindow::showNetworkDock(NetworkPanel *panel)
{
    panel->parentWidget()->show(); // the dock
    panel->parentWidget()->raise();
    // The network's table and chart get half the height until a layer opens
    // from it (showStartPage gives the grids their room back), whether the
    // start page or a layer was shown: over a layer, at 1280×720, the dock
    // kept a quarter of the height, about 3 rows of the table and a 60 px
    // chart (issue 41).
    m_layout->setBottomTall(true);
    m_bottomTall = true;
}

void MainWindow::showStartPage(bool show)
{
    if (show)
        m_startPage->refresh();
    m_centre->setCurrentIndex(show ? 0 : 1);
    if (!show && std::exchange(m_bottomTall, false))
        m_layout->setBottomTall(false); // the grids need the room again
}

bool MainWindow::startPageShown() const { return m_centre->currentIndex() == 0; }

void MainWindow::newProject()
{
    if (!maybeSave())
        return;
    NewProjectDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_document->resetToProject(dialog.project());
    showStartPage(false);
    m_inputGrid->fitToView();
    m_outputGrid->fitToView();
}

void MainWindow::openSample(const QString &file)
{
    if (!maybeSave())
        return;
    QString error;
    const QString path = extractBundledSample(file, bundledSampleFolder(), &error);
    if (path.isEmpty())
        QMessageBox::warning(this, tr("Cannot open sample"), error);
    else
        openFile(path);
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QFileInfo(m_document->filePath()).path(),
        tr("ConvOffload projects (*.json);;ONNX models, to import (*.onnx);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    const QString error = m_document->save(m_document->filePath());
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot save project"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_document->filePath())), 3000);
    return true;
}

bool MainWindow::saveAs()
{
    QString path
        = QFileDialog::getSaveFileName(this, tr("Save project as"), m_document->filePath(), tr("ConvOffload projects (*.json)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    const QString error = m_document->save(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot save project"), error);
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    auto *network = findChild<NetworkPanel *>();
    if (!maybeSave() || (network && !network->maybeSaveNetwork())) {
        event->ignore();
        return;
    }
    m_layout->save();
    event->accept();
}

void MainWindow::exportFigure()
{
    ExportDialog dialog(m_document, this);
    dialog.exec();
}

// docs/reference/trace.md: the CLI's `export --figure trace` from the menu.
void MainWindow::chooseTimelineFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export timeline"), defaultTimelineFileName(*m_document), tr("Chrome Trace Event (*.json)"));
    if (!path.isEmpty())
        exportTimelineTo(path);
}

bool MainWindow::exportTimelineTo(const QString &path)
{
    const TimelineExportResult result = exportTimeline(*m_document, path);
    if (!result) {
        QMessageBox::warning(this, tr("Cannot export timeline"), result.error);
        return false;
    }
    statusBar()->showMessage(tr("Wrote %1 (%2 steps)").arg(QDir::toNativeSeparators(path)).arg(result.steps), 5000);
    return true;
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — ConvOffload").arg(m_document->displayName()));
    setWindowModified(m_document->isModified());
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentKey, files);
    updateRecentFiles();
}

void MainWindow::updateRecentFiles()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString &f : files)
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] {
            if (maybeSave())
                openFile(f);
        });
    m_recentMenu->setEnabled(!files.isEmpty());
    if (m_startPage)
        m_startPage->refresh();
}

void MainWindow::onSimulationChanged()
{
    const auto snapshot = m_document->simulation();
    const StepCursor *cursor = m_document->cursor();
    const Problem *problem = snapshot ? &snapshot->problem : nullptr;
    m_inputGrid->setSource(cursor ? problem : nullptr, cursor);
    m_outputGrid->setSource(cursor ? problem : nullptr, cursor);
    m_inputGrid->setHighlight(std::nullopt);
    m_outputGrid->setHighlight(std::nullopt);
    m_charts->setSimulation(cursor ? problem : nullptr, cursor ? &snapshot->result : nullptr,
        snapshot ? QString::fromStdString(snapshot->spec.name) : QString());
    if (!snapshot)
        m_status->setText(tr("No simulation: fix the layer or select a strategy"));
    else if (!snapshot->failure.empty())
        m_status->setText(tr("Cannot simulate %1: %2")
                              .arg(QString::fromStdString(snapshot->spec.name), QString::fromStdString(snapshot->failure)));
    else
        m_status->setText(tr("%1: %2, duration %3, peak footprint %4 / %5 elements")
                              .arg(QString::fromStdString(snapshot->spec.name),
                                  QString::fromStdString(verdictText(verdictOf(snapshot->result))))
                              .arg(QString::fromStdString(formatNumber(snapshot->result.totalDuration())))
                              .arg(snapshot->result.peakFootprint())
                              .arg(snapshot->problem.hardware.mem_size));
}

void MainWindow::highlightElement(const Diagnostic &d)
{
    const auto snapshot = m_document->simulation();
    if (!snapshot)
        return;
    const Layer &layer = snapshot->problem.layer;
    std::optional<GridCell> input, output;
    switch (d.element_kind) {
    case ElementKind::Pixel: {
        const Grid g = pixelPosition(layer, d.element_id);
        input = GridCell{g.row, g.col};
        break;
    }
    case ElementKind::Patch:
    case ElementKind::Output: {
        const PatchId patch = d.element_kind == ElementKind::Patch ? d.element_id : patchOfOutput(layer, d.element_id);
        const Grid g = patchPosition(layer, patch);
        output = GridCell{g.row, g.col};
        break;
    }
    case ElementKind::Kernel:
    case ElementKind::None:
        break;
    }
    m_inputGrid->setHighlight(input);
    m_outputGrid->setHighlight(output);
    if (!d.element.empty())
        m_status->setText(QString::fromStdString(d.message));
}

// Work that ends within a moment (the comparison after an edit) does not
// show the progress bar: it would appear and vanish, laying the status bar
// out twice per edit.
void MainWindow::updateBusy()
{
    if (!m_document->busy()) {
        m_busyDelay->stop();
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
    } else if (!m_progress->isVisible() && !m_busyDelay->isActive()) {
        m_busyDelay->start();
    }
}

void MainWindow::onMomentChanged()
{
    m_inputGrid->refresh();
    m_outputGrid->refresh();
    m_charts->setCurrentStep(m_document->moment().step);
}

bool MainWindow::updateLayerInNetwork(std::optional<bool> hardwareToo)
{
    auto *panel = findChild<NetworkPanel *>();
    if (!panel)
        return false;
    const bool ask = !hardwareToo.has_value();
    const Project project = m_document->project();
    if (!hardwareToo) {
        hardwareToo = false;
        if (panel->openLayer() >= 0 && panel->hardwareDiffers(project)) {
            QMessageBox box(QMessageBox::Question, tr("Update layer in network"),
                tr("The layer's hardware or options differ from the network's, which all its layers share."), QMessageBox::Cancel,
                this);
            QPushButton *withHardware = box.addButton(tr("Layer and hardware"), QMessageBox::AcceptRole);
            QPushButton *layerOnly = box.addButton(tr("Layer only"), QMessageBox::AcceptRole);
            box.setInformativeText(tr("Layer and hardware: every layer of the network gets this hardware and is analysed "
                                      "again. Layer only: the shape and the strategies go back, the network keeps its "
                                      "hardware."));
            box.setDefaultButton(layerOnly);
            box.exec();
            if (box.clickedButton() != withHardware && box.clickedButton() != layerOnly)
                return false;
            hardwareToo = box.clickedButton() == withHardware;
        }
    }
    bool ok = false;
    const QString what = panel->updateOpenLayer(project, *hardwareToo, &ok);
    if (!ok) {
        if (ask)
            QMessageBox::warning(this, tr("Update layer in network"), what);
        else
            statusBar()->showMessage(what, 6000);
        return false;
    }
    // What the layer holds is now in the network (which has its own unsaved
    // prompt): the layer is not asked to be saved as a file of its own.
    m_document->undoStack()->setClean();
    statusBar()->showMessage(what, 6000);
    return true;
}

void MainWindow::optimiseStrategy()
{
    QStringList names;
    for (const StrategySpec &spec : m_document->project().strategies)
        names << QString::fromStdString(spec.name);
    auto *dialog = new OptimiseDialog(m_document->problem(), names, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setChoices(OptimiseDialog::savedChoices());
    connect(dialog, &QDialog::finished, dialog, [dialog] { OptimiseDialog::saveChoices(dialog->choices()); });
    connect(dialog, &OptimiseDialog::strategyReady, this, [this](const StrategySpec &spec) {
        const int at = int(m_document->project().strategies.size());
        m_document->undoStack()->push(new AddStrategyCommand(m_document, at, spec));
        m_document->setCurrentStrategy(at);
        statusBar()->showMessage(tr("Added the optimised strategy '%1'").arg(QString::fromStdString(spec.name)), 5000);
    });
    dialog->open();
}

void MainWindow::showExperiments()
{
    // One gain view per window: it keeps its results while hidden.
    if (!m_experiments)
        m_experiments = new ExperimentsDialog(this);
    m_experiments->show();
    m_experiments->raise();
    m_experiments->activateWindow();
}

void MainWindow::exploreHardware()
{
    if (m_explore) {
        m_explore->show();
        m_explore->raise();
        m_explore->activateWindow();
        return;
    }
    ExploreTarget target;
    try {
        // The network when one is open (the question is the network's), else
        // the layer project, as a network of one layer (as the CLI takes it).
        // The bytes name the run as the CLI's would: the file's when what is
        // explored is what the file holds.
        auto *panel = findChild<NetworkPanel *>();
        if (panel && panel->network()) {
            target.network = *panel->network();
            const QString path = panel->networkPath();
            target.bytes
                = !path.isEmpty() && !panel->isModified() ? readTextFile(path.toStdString()) : networkToJson(target.network);
            target.name = target.network.name.empty() ? QFileInfo(path).fileName() : QString::fromStdString(target.network.name);
        } else if (!startPageShown()) {
            const QString path = m_document->filePath();
            if (!path.isEmpty() && !m_document->isModified()) {
                // As the CLI reads it: the layer named after the file.
                target.bytes = readTextFile(path.toStdString());
                target.network = loadNetwork(path.toStdString());
            } else {
                target.bytes = projectToJson(m_document->project());
                target.network = networkFromJson(target.bytes);
            }
            target.name = m_document->displayName();
        } else {
            QMessageBox::information(this, tr("Explore hardware"), tr("Open a network or a project to explore first."));
            return;
        }
    } catch (const std::exception &e) {
        QMessageBox::warning(this, tr("Explore hardware"), QString::fromStdString(e.what()));
        return;
    }
    // A point's hardware goes to what was explored: the open network (its
    // dock analyses it again; Save network keeps it), or the open project
    // through its undo stack (Edit › Undo takes it back).
    if (auto *panel = findChild<NetworkPanel *>(); panel && panel->network()) {
        target.apply = [panel](const Hardware &point) -> QString {
            if (!panel->network())
                return tr("The network explored is no longer open.");
            return panel->applyHardware(withPointHardware(panel->network()->hardware, point));
        };
    } else {
        target.apply = [this](const Hardware &point) { return applyExploredHardware(point); };
    }
    m_explore = new ExploreDialog(std::move(target), this);
    m_explore->setAttribute(Qt::WA_DeleteOnClose);
    m_explore->show();
}

QString MainWindow::applyExploredHardware(const Hardware &point)
{
    if (startPageShown())
        return tr("Open a project (or a layer of the network) to apply this hardware to it.");
    Problem problem = m_document->problem();
    problem.hardware = withPointHardware(problem.hardware, point);
    if (const std::vector<std::string> problems = problem.hardware.problems(); !problems.empty())
        return tr("This hardware does not suit the open project: %1").arg(QString::fromStdString(problems.front()));
    if (problem == m_document->problem())
        return tr("The open project already has this hardware.");
    // Named by the point's values: two clicks are two undo steps (the
    // same name would merge them as keystrokes in one field are).
    m_document->undoStack()->push(new EditProblemCommand(
        m_document, problem, tr("hardware (explored mem_size %1, nbop_pe %2)").arg(point.mem_size).arg(point.nbop_pe)));
    const QString message = tr("Applied mem_size %1, nbop_pe %2, t_l %3 to %4 (Edit › Undo takes it back)")
                                .arg(point.mem_size)
                                .arg(point.nbop_pe)
                                .arg(point.t_l)
                                .arg(m_document->displayName());
    statusBar()->showMessage(message, 6000);
    return message;
}

} // namespace convoffload::ui
