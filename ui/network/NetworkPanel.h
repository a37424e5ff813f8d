#pragma once
// The Network dock: the layers of a network project with their shape,
// whether the kernels fit, the best strategy, its duration, its share of the
// network's total and a validity badge. The analysis (every layer's
// heuristics) runs off the GUI thread with progress per layer and Stop.
// Activating a layer asks to open it as a single-layer project. Beside the
// table (a second tab), the network chart (NetworkChart.h): clicking a layer's bar selects
// its row and opens it like activating the row; Save chart… exports it.
#include "jobs/BackgroundJob.h"

#include "convoffload/model/Network.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <QWidget>

#include <optional>

class QChart;
class QChartView;
class QLabel;
class QProgressBar;
class QScrollArea;
class QTabWidget;
class QToolButton;
class QTreeWidget;

namespace convoffload::ui {

class NetworkPanel : public QWidget {
    Q_OBJECT
public:
    explicit NetworkPanel(QWidget *parent = nullptr);

    /// Loads a network project (or a single-layer one) and analyses it; the
    /// error message when it cannot be read, else empty.
    QString openNetwork(const QString &path);
    void setNetwork(const Network &network, const QString &path);
    const std::optional<Network> &network() const { return m_network; }
    QString networkPath() const { return m_path; }
    QTreeWidget *tree() const { return m_tree; }
    /// Layer `index` as a single-layer project, its best strategy added when
    /// the project does not hold it; `best` receives that strategy's index
    /// (-1 before the analysis or when no strategy is valid).
    Project layerProject(int index, int &best) const;
    bool busy() const { return m_job.isRunning(); }
    /// The network chart of the finished analysis, nullptr before it.
    QChart *chart() const;
    QChartView *chartView() const { return m_chartView; }
    /// The Layers and Chart tabs.
    QTabWidget *tabs() const { return m_tabs; }
    /// Exports the chart (PNG, SVG or PDF by extension) at `size`; the error
    /// message, else empty.
    QString saveChart(const QString &path, QSize size) const;

    enum Column { NameColumn, ShapeColumn, FitColumn, BestColumn, DurationColumn, ShareColumn, ValidColumn, ColumnCount };

signals:
    /// The user activated layer `index` of network(): open it.
    void layerActivated(int index);
    /// The analysis of the current network finished (or was stopped).
    void analysed();

private:
    struct Outcome {
        NetworkAnalysis analysis;
        bool cancelled = false;
    };
    void chooseAndOpen();
    void fillLayers();
    void showAnalysis(const NetworkAnalysis &analysis);
    void showChart(QChart *chart);
    /// The chart's height in pixels that leaves every layer's label whole.
    int chartHeight() const;
    void chooseAndSaveChart();

    QTreeWidget *m_tree;
    QChartView *m_chartView;
    QScrollArea *m_chartScroll;
    QTabWidget *m_tabs;
    QToolButton *m_saveChart;
    QLabel *m_summary;
    QProgressBar *m_progress;
    QToolButton *m_stop;
    std::optional<Network> m_network;
    std::optional<NetworkAnalysis> m_analysis; // of m_network, once finished
    QString m_path;
    BackgroundJob<Outcome, int> m_job{this, ProgressDelivery::Latest};
};

} // namespace convoffload::ui
