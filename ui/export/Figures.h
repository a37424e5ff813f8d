// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The catalogue of exportable figures: grids at a moment, memory and duration
// charts, comparison, sweep and the two-strategy storyboard. One definition
// serves the export dialog, `convoffload-cli export` and the headless report,
// so all three draw the same picture.

#include "export/FigureExport.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/Report.h"
#include "convoffload/simulate/StepCursor.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <QSize>
#include <QFont>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

namespace convoffload::ui {

enum class FigureKind { Grid, InputGrid, OutputGrid, Memory, MemoryPerAction, Durations, Cumulative, Compare, Sweep, Storyboard };

QString figureName(FigureKind kind); // "grid", "memory", ... as the CLI spells them
std::optional<FigureKind> figureKindFromName(const QString &name);
QStringList figureNames();
/// Figures drawn for one strategy at one step (the others describe the project).
bool figureNeedsStrategy(FigureKind kind);

struct FigureError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A project and the simulations figures are drawn from, computed on demand
/// and kept (with their traces) until released or the source goes.
///
/// Work is estimated before it runs (WorkEstimate.h): a simulation, the
/// comparison or a sweep that the estimate puts over the work budget is
/// refused with a FigureError saying what it would need (the memory of the
/// simulations kept counted in), as the CLI refuses a command. A figure of
/// many steps is aggregated when drawn (StepBins), so drawing adds little.
class FigureSource {
public:
    /// `projectPath` resolves data.file; throws FormatError for a bad data file.
    FigureSource(Project project, const std::string &projectPath);
    const Project &project() const { return m_project; }
    /// Throws FigureError naming the strategy (unknown, cannot be expanded,
    /// over the work budget, out of memory).
    const SimulationResult &simulation(const std::string &strategy);
    /// Throws FigureError over the work budget or out of memory.
    std::vector<CompareRow> comparison() const;
    std::vector<SweepRow> sweep(std::int64_t from, std::int64_t to) const;

    /// The budget work is checked against (default: WorkBudget{}, 10 minutes
    /// and 3/4 of the memory); nullopt: none (convoffload-cli --no-work-limit).
    /// `remedy` ends the refusal ("make the layer smaller, or pass ...").
    void setWorkBudget(std::optional<WorkBudget> budget, std::string remedy);
    /// The estimate of `strategy`'s traced simulation (zeros for an unknown name).
    WorkEstimate simulationWork(const std::string &strategy) const;
    /// The estimates of comparison() and sweep(from, to).
    WorkEstimate comparisonWork() const;
    WorkEstimate sweepWork(std::int64_t from, std::int64_t to) const;
    /// Frees a kept simulation no figure needs any more.
    void release(const std::string &strategy);

    /// Results already computed elsewhere (the GUI's workers), used instead of
    /// simulating again on the caller's thread.
    void provideSimulation(const std::string &strategy, SimulationResult result);
    void provideComparison(std::vector<CompareRow> rows) { m_comparison = std::move(rows); }
    void provideSweep(std::vector<SweepRow> rows) { m_sweep = std::move(rows); }

private:
    SimulationOptions options(bool trace) const;
    /// Throws FigureError "<subject> would take about ..." over budget.
    void requireWithinBudget(const WorkEstimate &work, const std::string &subject) const;
    Project m_project;
    std::string m_path;
    std::optional<TensorData> m_tensors;
    std::optional<WorkBudget> m_budget = WorkBudget{};
    std::string m_remedy = "make the layer smaller";
    std::map<std::string, SimulationResult> m_simulations;
    std::map<std::string, double> m_keptBytes; // the estimate of each simulation kept
    std::vector<CompareRow> m_comparison;
    std::vector<SweepRow> m_sweep;
};

struct FigureRequest {
    FigureKind kind = FigureKind::Grid;
    std::string strategy; // figures of one strategy; the storyboard's left column
    std::string versus; // the storyboard's right column (default: another strategy)
    Moment moment{1, Action::Compute}; // 0-based step
    int storyboardSteps = 4;
    bool heatMap = false;
    bool cursor = false; // step charts: mark `moment` with the interactive cursor (off for reports)
    bool title = true; // false: no built-in title, a paper's caption gives it (--no-title); file metadata keep it
    std::optional<QFont> font; // charts and the comparison: every text from this font (export presets)
    QSize size; // the export size when known: a chart's legend is laid out for it
    std::int64_t sweepFrom = 1, sweepTo = 0; // 0: up to min(patches, max(32, 2·nb_patches_max))
};

/// A figure ready to paint at any size; it keeps alive what it draws from,
/// except the FigureSource, which must outlive it.
struct Figure {
    PaintFunction paint;
    QString title, description;
    QSize preferredSize;
    std::shared_ptr<void> keepAlive;
};

/// Throws FigureError with a message a user can act on (unknown strategy,
/// step out of range, nothing to compare).
Figure makeFigure(FigureSource &source, const FigureRequest &request);

} // namespace convoffload::ui
