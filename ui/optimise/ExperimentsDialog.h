// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The gain view: runs the paper's optimisation experiments (square inputs,
// 3x3 kernel, group sizes) on a worker thread and shows the gain heat map of
// the best optimised strategy over the best heuristic, with the table behind
// it and export of both.

#include "convoffload/optimise/PaperExperiments.h"
#include "jobs/BackgroundJob.h"
#include "optimise/GainHeatMapWidget.h"

#include <QDialog>

#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
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

class ExperimentsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExperimentsDialog(QWidget *parent = nullptr);
    ~ExperimentsDialog() override;

    ExperimentGrid grid() const;
    void setGrid(const ExperimentGrid &grid);
    bool isRunning() const { return m_job.isRunning(); }
    /// The status line while an instance runs: how many are done, which one
    /// runs, its best duration and bound so far.
    static QString runningText(int done, int total, int inputSize, int groupSize, const OptimiseProgress &progress);
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
    /// The form no longer shows the settings of the results on show: say so.
    void markStale();
    void exportTable();

    QSpinBox *m_sizeFrom = nullptr, *m_sizeTo = nullptr, *m_groupFrom = nullptr, *m_groupTo = nullptr;
    QDoubleSpinBox *m_searchLimit = nullptr, *m_ilpLimit = nullptr;
    QCheckBox *m_runIlp = nullptr;
    QComboBox *m_method = nullptr; // search, or exact (search, then the proof)
    QPushButton *m_run = nullptr, *m_stop = nullptr, *m_exportFigure = nullptr, *m_exportTable = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    GainHeatMapWidget *m_heatMap = nullptr;
    GainHeatMapWidget *m_gapMap = nullptr; // which instances are proven optimal
    QTabWidget *m_views = nullptr;
    QChartView *m_durations = nullptr;
    QSpinBox *m_durationsGroup = nullptr;
    std::optional<ExperimentGrid> m_ranGrid; // the settings of the results on show

    /// One finished instance, as runPaperExperiments reports it, or (with
    /// `running`) how the instance under way stands.
    struct Running {
        int input_size = 0, group_size = 0;
        OptimiseProgress progress;
    };
    struct Instance {
        ExperimentRow row;
        int done = 0, total = 0;
        std::optional<Running> running;
    };
    /// A run ends with the reason it failed, if it did (the rows came as progress).
    BackgroundJob<QString, Instance> m_job{this, ProgressDelivery::Every};
};

} // namespace convoffload::ui
