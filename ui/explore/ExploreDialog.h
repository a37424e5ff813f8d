// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Optimise › Explore Hardware…: `convoffload-cli explore` in a window
// (docs/user/explore.md#in-the-window). The lists are typed as on the
// command line and checked as they are typed (each error beside its field,
// the point count live); Run evaluates the points off the GUI thread, in
// point order, with progress and Stop (the finished points are kept); the
// Pareto chart fills in as they finish. Save results… writes the JSON Lines
// the CLI writes for the same target and lists, byte for byte; Open
// results… shows an existing file. Clicking a point applies its hardware to
// the open project through its undo stack.
#include "explore/ParetoPlot.h"
#include "jobs/BackgroundJob.h"

#include "convoffload/explore/DesignSpace.h"
#include "convoffload/model/Network.h"

#include <QDialog>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace convoffload::ui {

class ParetoPlotView;

/// What the dialog explores and where a point's hardware goes.
struct ExploreTarget {
    Network network;
    /// The bytes the run id hashes: the target file's, as the CLI reads them
    /// (docs/reference/explore.md#run-id).
    std::string bytes;
    QString name; // in the window title
    /// Applies a point's hardware to the open project (an undo command);
    /// returns the status message. Unset: nothing is open to apply it to.
    std::function<QString(const Hardware &)> apply;
};

/// The open project's hardware with a point's mem_size, nbop_pe, t_l and
/// transfer model: what clicking a point changes (the rest stays).
Hardware withPointHardware(Hardware current, const Hardware &point);

class ExploreDialog : public QDialog {
    Q_OBJECT
public:
    enum Field { MemSize, NbopPe, TL, Layout, Burst, TSetup, FieldCount };

    explicit ExploreDialog(ExploreTarget target, QWidget *parent = nullptr);
    ~ExploreDialog() override;

    QLineEdit *field(Field f) const { return m_fields[f]; }
    /// The error beside a field, empty when its list is good.
    QString fieldError(Field f) const;
    /// "14 design points", or why there are none.
    QString pointCountText() const;

    /// Starts the run of the lists; false (with the reason shown) when they
    /// cannot be explored or a run is under way.
    bool run();
    /// Stops after the point being analysed; the finished ones stay.
    void stop();
    bool isRunning() const;

    /// The lines so far, each with its newline: what Save results… writes.
    std::string resultsText() const;
    /// Writes resultsText() atomically; the error, else empty.
    QString saveResults(const QString &path) const;
    /// Exports the chart (PNG, SVG or PDF by extension) as
    /// `convoffload-cli export --figure pareto` draws it at `size`; the
    /// error, else empty.
    QString saveChart(const QString &path, QSize size = QSize(900, 600)) const;
    /// Shows an explore file; the error, else empty.
    QString openResults(const QString &path);
    /// Applies point `index` of the chart (an index of plot()->points());
    /// the status message.
    QString applyPoint(int index);

    std::shared_ptr<const ParetoPlot> plot() const { return m_plot; }
    ParetoPlotView *plotView() const { return m_view; }
    QLabel *status() const { return m_status; }
    QProgressBar *progress() const { return m_progress; }

signals:
    /// A run finished or was stopped.
    void runFinished();

private:
    struct Step {
        std::int64_t done = 0; // points finished
        std::string line;
    };
    struct Outcome {
        std::int64_t done = 0;
        bool cancelled = false;
        QString error;
    };
    /// The space of the fields, or nullopt with the errors shown.
    std::optional<DesignSpace> readSpace();
    void updateCount();
    void setRunning(bool running);
    void takeLine(const Step &step);
    void finish(Outcome outcome);
    void rebuildPlot();
    void chooseAndSave();
    void chooseAndOpen();
    void chooseAndSaveChart();

    ExploreTarget m_target;
    std::array<QLineEdit *, FieldCount> m_fields{};
    std::array<QLabel *, FieldCount> m_errors{};
    QLabel *m_count;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPushButton *m_run, *m_stop, *m_save, *m_open, *m_saveChart;
    ParetoPlotView *m_view;
    std::vector<std::string> m_lines;
    std::vector<ExploreRecord> m_records;
    std::shared_ptr<const ParetoPlot> m_plot;
    std::int64_t m_points = 0;
    bool m_rebuildPending = false; // lines arrived that the chart does not show yet
    BackgroundJob<Outcome, Step> m_job{this, ProgressDelivery::Every};
};

} // namespace convoffload::ui
