#pragma once
// The gain view: runs the paper's optimisation experiments (square inputs,
// 3x3 kernel, group sizes) on a worker thread and shows the gain heat map of
// the best optimised strategy over the best heuristic, with the table behind
// it and export of both.

#include "convoffload/optimise/PaperExperiments.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QChartView;
QT_END_NAMESPACE

namespace convoffload::ui {

/// Paints the gain heat map of the rows it is given.
class GainHeatMapWidget : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    void setRows(std::vector<ExperimentRow> rows);
    const std::vector<ExperimentRow> &rows() const { return m_rows; }
    QSize sizeHint() const override { return {640, 460}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<ExperimentRow> m_rows;
};

class ExperimentsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExperimentsDialog(QWidget *parent = nullptr);
    ~ExperimentsDialog() override;

    ExperimentGrid grid() const;
    void setGrid(const ExperimentGrid &grid);
    bool isRunning() const { return m_watcher.isRunning(); }
    const std::vector<ExperimentRow> &rows() const { return m_heatMap->rows(); }

public slots:
    void start();
    void cancel();

signals:
    void finished();

protected:
    void reject() override;

private:
    void addRow(const ExperimentRow &row, int done, int total);
    void setRunning(bool running);
    void exportFigure();
    void updateDurationChart();
    void exportTable();

    QSpinBox *m_sizeFrom = nullptr, *m_sizeTo = nullptr, *m_groupFrom = nullptr, *m_groupTo = nullptr;
    QDoubleSpinBox *m_searchLimit = nullptr, *m_ilpLimit = nullptr;
    QCheckBox *m_runIlp = nullptr;
    QPushButton *m_run = nullptr, *m_stop = nullptr, *m_exportFigure = nullptr, *m_exportTable = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    GainHeatMapWidget *m_heatMap = nullptr;
    QTabWidget *m_views = nullptr;
    QChartView *m_durations = nullptr;
    QSpinBox *m_durationsGroup = nullptr;

    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QFutureWatcher<void> m_watcher;
};

} // namespace convoffload::ui
