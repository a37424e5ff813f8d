// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Network dock: the layers of a network project with their shape,
// whether the kernels fit, the best strategy, its duration, its share of the
// network's total and a validity badge. The analysis (every layer's
// heuristics) runs off the GUI thread with progress per layer and Stop.
// Activating a layer asks to open it as a single-layer project. Beside the
// table (a second tab), the network chart (NetworkPlot.h): clicking a
// layer's bar selects its row and opens it like activating the row; Save
// chart… exports it.
//
// Optimise network… runs the search optimiser on every layer (core's
// optimiseNetwork, as `network --optimize`) off the GUI thread, with the
// layer being optimised and its incumbent shown, and Stop (the layers done
// and the current one's incumbent are kept). The strategies found join
// their layers' strategies in the dock's network; Save network… writes it.
#include "export/ExportPreset.h"
#include "jobs/BackgroundJob.h"
#include "network/NetworkOptimiseDialog.h"

#include "convoffload/model/Network.h"
#include "convoffload/optimise/NetworkOptimisation.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QScrollArea;
class QTabWidget;
class QToolButton;
class QTreeWidget;

namespace convoffload::ui {

class NetworkPlotView;

class NetworkPanel : public QWidget {
    Q_OBJECT
public:
    explicit NetworkPanel(QWidget *parent = nullptr);

    /// Loads a network project (or a single-layer one) and analyses it; the
    /// error message when it cannot be read, else empty.
    QString openNetwork(const QString &path);
    void setNetwork(const Network &network, const QString &path);
    const std::optional<Network> &network() const { return m_network; }
    const std::optional<NetworkAnalysis> &analysis() const { return m_analysis; }
    QString networkPath() const { return m_path; }
    QTreeWidget *tree() const { return m_tree; }
    /// Layer `index` as a single-layer project, its best strategy added when
    /// the project does not hold it; `best` receives that strategy's index
    /// (-1 before the analysis or when no strategy is valid).
    Project layerProject(int index, int &best) const;
    /// The analysis or the optimisation is running.
    bool busy() const { return m_job.isRunning() || m_optimiseJob.isRunning(); }
    NetworkPlotView *plotView() const { return m_plotView; }
    /// The Layers and Chart tabs.
    QTabWidget *tabs() const { return m_tabs; }
    QLabel *summary() const { return m_summary; }
    /// Exports the chart (PNG, SVG or PDF by extension) `width` wide and as
    /// tall as its rows need; the error message, else empty.
    QString saveChart(const QString &path, int width = 1000) const;
    /// The same at an export preset's width and font (as `convoffload-cli
    /// export --figure network --preset`), at least the preset's height,
    /// PNGs at its dpi; without the heading when `title` is false.
    QString saveChart(const QString &path, const ExportPreset &preset, bool title = true) const;
    /// Save chart…: asks for a size (on-screen or a preset, remembered) and a
    /// file, then saveChart; a message box on error.
    void chooseAndSaveChart();
    /// The chart can be saved: an analysis has finished and nothing runs.
    bool canSaveChart() const { return !busy() && m_analysis.has_value(); }

    /// Optimises every layer within `seconds` for the whole network (what
    /// Optimise network… starts after asking); false when it cannot start
    /// (no finished analysis, already running).
    bool startOptimisation(double seconds);
    /// The same by time or, reproducibly, by moves per layer and a seed.
    bool startOptimisation(const NetworkOptimiseChoice &choice);
    /// Stop: the analysis or the optimisation (which keeps what it found).
    void stop();
    /// What the last optimisation did, once finished.
    const std::optional<NetworkOptimisation> &lastOptimisation() const { return m_lastOptimisation; }
    /// The network was changed (strategies added) since it was opened or saved.
    bool isModified() const { return m_modified; }
    /// When the optimiser added strategies that are not saved: asks whether
    /// to save them (to the network's file, or where the user chooses), and
    /// says whether the caller may go on (false: cancelled, or the save
    /// failed). Before the window closes or another network replaces it.
    bool maybeSaveNetwork();
    /// Saves network() to `path`; the error, or empty.
    QString saveNetworkTo(const QString &path);
    /// Gives the network `hardware` (an explored point) and analyses it
    /// again; the network is then modified (Save network keeps it). What
    /// happened, in words, or why not.
    QString applyHardware(const Hardware &hardware);

    // ---- the layer the window shows, when it was opened from this network
    /// The window shows layer `index` of this network, opened as `asOpened`
    /// (layerProject's project); -1 forgets it (another project opened).
    /// Update layer in network then offers the window's edits back.
    void setOpenLayer(int index, const Project &asOpened);
    /// The layer of this network the window shows, -1 for none (or the
    /// network was replaced since).
    int openLayer() const;
    /// The window's project now: Update layer in network is enabled when it
    /// differs from what the network holds for the open layer.
    void showOpenLayerProject(const Project &shown);
    QToolButton *updateLayerButton() const { return m_updateLayer; }
    /// `project`'s hardware or options are not the network's (which all its
    /// layers share).
    bool hardwareDiffers(const Project &project) const;
    /// Puts `project` back as the open layer: its shape, data and strategies
    /// (the analysis's best, which opening added, is left out unless
    /// edited); with `hardwareToo`, its hardware and options become the
    /// network's, else the network keeps its own. Analyses the network
    /// again; it is then modified (Save network keeps it; it has no undo:
    /// undo the layer's edits and update again). What happened, in words;
    /// `ok` false when it was refused, with why.
    QString updateOpenLayer(const Project &project, bool hardwareToo, bool *ok = nullptr);

    /// What a user looks at first comes first (the dock is narrow at
    /// 1280×720): the best, its duration, share and badge; then the shape.
    /// What a glyph of the Valid column means ("\u2714", "\u25e5", "\u26a0", "\u2716").
    static QString badgeMeaning(const QString &badge);

    enum Column { NameColumn, BestColumn, DurationColumn, ShareColumn, ValidColumn, FitColumn, ShapeColumn, ColumnCount };

signals:
    /// The user activated layer `index` of network(): open it.
    void layerActivated(int index);
    /// The analysis of the current network finished (or was stopped).
    void analysed();
    /// An optimisation finished (or was stopped) and its strategies were added.
    void optimised();
    /// Update layer in network was pressed: the window puts its layer back
    /// (MainWindow::updateLayerInNetwork).
    void updateLayerRequested();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    /// The Best strategy column as wide as its names, at most 2/5 of the table.
    void fitBestColumn();
    /// Saves the network to `path`, or where the user chooses when it is
    /// empty, and says why a save failed. False when cancelled or failed.
    bool saveNetworkOrAsk(QString path);
    struct Outcome {
        NetworkAnalysis analysis;
        bool cancelled = false;
        QString error; // the analysis failed (out of memory): why
    };
    struct OptimiseOutcome {
        NetworkAnalysis analysis;
        NetworkOptimisation optimisation;
        QString error;
    };
    void chooseAndOpen();
    void chooseAndOptimise();
    void chooseAndSaveNetwork();
    void fillLayers();
    void showAnalysis(const NetworkAnalysis &analysis);
    void showOptimiseProgress(const NetworkOptimiseProgress &progress);
    void finishOptimisation(OptimiseOutcome outcome);
    /// The layers the optimiser did not take, each with why; empty when none.
    QString skippedText(const NetworkOptimisation &optimisation) const;
    /// What of a run with `choice` is reproducible, and how (the CLI command).
    static QString reproducibilityText(const NetworkOptimiseChoice &choice, const QString &path);
    void setRunning(bool running);

    QTreeWidget *m_tree;
    NetworkPlotView *m_plotView;
    QScrollArea *m_chartScroll;
    QTabWidget *m_tabs;
    QToolButton *m_open;
    QToolButton *m_optimise;
    QToolButton *m_saveNetwork;
    QToolButton *m_saveChart;
    QLabel *m_summary;
    QProgressBar *m_progress;
    QToolButton *m_stop;
    QToolButton *m_updateLayer;
    // The layer the window shows, opened from this network (setOpenLayer).
    int m_openLayer = -1;
    int m_openGeneration = -1; // the network it was opened from
    Project m_openInNetwork; // what the network holds for it, as the window would show it
    std::optional<StrategySpec> m_openAddedBest; // the analysis's best, added on opening
    std::optional<Network> m_network;
    std::optional<NetworkAnalysis> m_analysis; // of m_network, once finished
    std::optional<NetworkOptimisation> m_lastOptimisation;
    QString m_path;
    bool m_modified = false;
    NetworkOptimiseChoice m_lastChoice; // what the last run was asked, offered again
    int m_generation = 0; // counts the networks set: an optimisation of an earlier one is dropped
    int m_optimisedGeneration = 0; // the network the running optimisation works on
    BackgroundJob<Outcome, int> m_job{this, ProgressDelivery::Latest};
    BackgroundJob<OptimiseOutcome, NetworkOptimiseProgress> m_optimiseJob{this, ProgressDelivery::Latest};
};

} // namespace convoffload::ui
