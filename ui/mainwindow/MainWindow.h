// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main window: the document's views laid out, its menus and shortcuts,
// open/save/recent files, the unsaved-changes prompt and kept window state.

#include "convoffload/model/Diagnostic.h"

#include <QMainWindow>

#include <optional>
#include <QPointer>

class QLabel;
class QProgressBar;
class QToolButton;
class QMenu;
class QStackedWidget;
class QTimer;

namespace convoffload::ui {

class ChartsPanel;
class ExperimentsDialog;
class ExploreDialog;
class DiagnosticsPanel;
class GridView;
class GroupsPanel;
class NetworkPanel;
class ProblemEditor;
class ProjectDocument;
class StepControls;
class StepTable;
class StartPage;
class StrategyPanel;
class WindowLayout;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    ProjectDocument *document() const { return m_document; }
    bool openFile(const QString &path);
    bool openNetworkFile(const QString &path);
    /// File › Import Network: the dialog (on `modelPath` if given), then the
    /// saved network in the Network dock. False when cancelled.
    bool importNetwork(const QString &modelPath);
    /// File › New: the New Project dialog, then its project (untitled).
    void newProject();
    /// Opens a copy of a bundled sample (BundledSamples), by file name.
    void openSample(const QString &file);
    /// The start page in the centre instead of the grids (at start, no file).
    void showStartPage(bool show);
    bool startPageShown() const;
    StartPage *startPage() const { return m_startPage; }

    // Views, for tests and screenshots.
    GridView *inputGrid() const { return m_inputGrid; }
    GridView *outputGrid() const { return m_outputGrid; }
    ChartsPanel *charts() const { return m_charts; }
    StepControls *stepControls() const { return m_stepControls; }
    DiagnosticsPanel *diagnostics() const { return m_diagnostics; }
    /// File › Export Timeline once the file is chosen: writes it, then says
    /// so in the status bar, or shows why not in a message box; true when written.
    bool exportTimelineTo(const QString &path);
    GroupsPanel *groups() const { return m_groups; }
    /// Update layer in network (the Network dock): puts the layer shown,
    /// opened from the network and edited, back into it. When its hardware
    /// or options are not the network's, `hardwareToo` says whether they go
    /// too; unset, the user is asked. False when refused or cancelled (the
    /// reason in a message box when asked, else in the status bar).
    bool updateLayerInNetwork(std::optional<bool> hardwareToo = std::nullopt);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createViews();
    void createMenus();
    void open();
    bool save();
    bool saveAs();
    bool maybeSave();
    void exportFigure();
    void chooseTimelineFile();
    void optimiseStrategy();
    void showExperiments();
    /// Optimise › Explore Hardware…: the Explore dialog on the open network,
    /// else on the open project (docs/user/explore.md#in-the-window).
    void exploreHardware();
    /// An explored point's hardware applied to the open project, through its
    /// undo stack; what happened, for the Explore dialog to show.
    QString applyExploredHardware(const Hardware &point);
    void updateTitle();
    void updateRecentFiles();
    void addRecentFile(const QString &path);
    void onSimulationChanged();
    void onMomentChanged();
    void updateBusy();
    /// Shows and raises the Network dock, tall while the start page is shown.
    void showNetworkDock(NetworkPanel *panel);
    void highlightElement(const convoffload::Diagnostic &d);

    ProjectDocument *m_document;
    bool m_openingNetworkLayer = false; // a layer of the Network dock is being opened
    GridView *m_inputGrid = nullptr;
    GridView *m_outputGrid = nullptr;
    ChartsPanel *m_charts = nullptr;
    StepControls *m_stepControls = nullptr;
    StepTable *m_stepTable = nullptr;
    ProblemEditor *m_problemEditor = nullptr;
    StrategyPanel *m_strategies = nullptr;
    DiagnosticsPanel *m_diagnostics = nullptr;
    GroupsPanel *m_groups = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QToolButton *m_cancel = nullptr;
    QTimer *m_busyDelay = nullptr; // shows m_progress and m_cancel once work has lasted kBusyDelayMs
    static constexpr int kBusyDelayMs = 300;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    ExperimentsDialog *m_experiments = nullptr;
    QPointer<ExploreDialog> m_explore; // deleted when closed: a new one explores what is open then
    WindowLayout *m_layout = nullptr;
    bool m_bottomTall = false; // the bottom docks made tall for a network (showNetworkDock)
    StartPage *m_startPage = nullptr;
    QStackedWidget *m_centre = nullptr;
};

} // namespace convoffload::ui
