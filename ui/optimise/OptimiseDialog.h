// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Optimise dialog: choose a method (search or CBC), its limits and the
// problem options, watch the incumbent and the bound over time, cancel, and
// hand the result to the project as a `groups` strategy.

#include "convoffload/optimise/Optimiser.h"
#include "jobs/BackgroundJob.h"

#include <QDialog>
#include <QElapsedTimer>

#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QScrollArea;
class QPushButton;
class QSpinBox;
class QTimer;
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace convoffload::ui {

class OptimiseDialog : public QDialog {
    Q_OBJECT
public:
    OptimiseDialog(const Problem &problem, QStringList takenNames, QWidget *parent = nullptr);
    ~OptimiseDialog() override;

    bool isRunning() const;
    /// The last finished run, if any.
    const std::optional<OptimiseReport> &report() const { return m_report; }
    /// What the form asks for (also used by tests).
    OptimiseRequest request() const;
    double timeLimit() const;
    void setMethod(OptimiseMethod method);
    void setTimeLimit(double seconds);

    /// What the dialog remembers from one opening to the next, and across
    /// sessions (QSettings group "optimise"): the method, its time limit,
    /// and where CBC starts.
    struct Choices {
        OptimiseMethod method = OptimiseMethod::Search;
        double time_limit_s = 10;
        bool ilp_start_from_search = false;
    };
    Choices choices() const;
    void setChoices(const Choices &choices);
    /// The saved choices; a value that is missing or not one the dialog
    /// offers (an edited settings file) is left at its default.
    static Choices savedChoices();
    static void saveChoices(const Choices &choices);

    /// What the run was doing at `seconds` since the click, as the status
    /// line says it while the run goes on (also used by tests).
    QString liveStatus(double seconds) const;
    /// The one sentence that ends a run: why it ended (finished, the time
    /// limit, Stop: exactly one), what it found, and what the optimiser said.
    QString finalStatus() const;

public slots:
    void start();
    void cancel();

signals:
    /// The user chose to add the result to the project.
    void strategyReady(const convoffload::StrategySpec &spec);
    void finished(); // a run ended (result, failure or cancel)

protected:
    void reject() override;

private:
    /// The dialog's size with nothing scrolled.
    QSize contentSize() const;
    void buildForm();
    void onProgress(const OptimiseProgress &point);
    void onPhase(OptimisePhase phase, double seconds);
    /// The link of the advice: use the recommended method.
    void onAdviceLink(const QString &link);
    /// The duration axis over the points drawn (0..100 before any), with as
    /// many ticks as the plot's height gives room for labels: at 1280×720
    /// the plot is about 80 px tall, and Qt hid every other label of five
    /// intervals, leaving 0, 40, 60, 100.
    void rescaleDurationAxis();
    void onFinished();
    void showReport();
    /// Shows, under the method, what Exact cannot settle on this layer, and
    /// recommends Exact or Search where they are known to do better for the
    /// layer's size (docs/design/optimisers.md).
    void updateExactReach();
    /// The layer's kernels do not fit beside one patch: the optimiser streams
    /// them (the kernel-blocked family), and G is not the user's to choose.
    bool streamsKernels() const;
    void setRunning(bool running);
    QString uniqueName(const QString &base) const;

    Problem m_problem;
    QStringList m_takenNames;
    std::optional<OptimiseReport> m_report;
    QString m_error;

    QComboBox *m_method = nullptr;
    QDoubleSpinBox *m_timeLimit = nullptr;
    QSpinBox *m_seed = nullptr;
    QSpinBox *m_groupSize = nullptr;
    QComboBox *m_groupCount = nullptr;
    QCheckBox *m_startFromSearch = nullptr;
    QSpinBox *m_maxGroups = nullptr;
    QLineEdit *m_name = nullptr;
    QLabel *m_exactReach = nullptr;
    QLabel *m_advice = nullptr; // the recommended method, with a link to choose it
    QLabel *m_status = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_add = nullptr;

    QChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QScrollArea *m_scroll = nullptr; // all but the buttons: they stay on a short screen
    QLineSeries *m_incumbent = nullptr;
    QLineSeries *m_bound = nullptr;
    QValueAxis *m_timeAxis = nullptr;
    QValueAxis *m_durationAxis = nullptr;

    // The live status: the clock runs from the click, so the line moves
    // even while the optimiser reports nothing (CBC's root LP, a model
    // being written).
    QElapsedTimer m_clock;
    QTimer *m_tick = nullptr;
    std::optional<OptimisePhase> m_phase;
    double m_phaseSeconds = 0;
    bool m_cbcRan = false; // the run entered OptimisePhase::Solving
    std::optional<double> m_best, m_bestBound;
    std::optional<OptimiseProgress> m_cbcPoint; // CBC's last report
    bool m_stopping = false;
    double m_runLimit = 0; // the time limit of the run shown
    OptimiseMethod m_runMethod = OptimiseMethod::Search;

    /// What the run's thread hands over: a progress point or a new phase.
    struct Live {
        std::optional<OptimiseProgress> point;
        std::optional<OptimisePhase> phase;
        double seconds = 0;
    };

    /// What a run hands back: a report, or why there is none.
    struct Outcome {
        std::optional<OptimiseReport> report;
        QString error;
    };
    BackgroundJob<Outcome, Live> m_job{this, ProgressDelivery::Every};
};

} // namespace convoffload::ui
