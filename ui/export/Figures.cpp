// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "export/Figures.h"

#include "charts/ChartFactory.h"
#include "charts/ComparisonPlot.h"
#include "charts/StepBins.h"
#include "render/GridRenderer.h"
#include "render/StoryboardRenderer.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/OutOfMemory.h"
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QChart>
#include <QPainter>

namespace convoffload::ui {

namespace {

struct KindName {
    FigureKind kind;
    const char *name;
};
constexpr KindName kKindNames[] = {
    {FigureKind::Grid, "grid"},
    {FigureKind::InputGrid, "input-grid"},
    {FigureKind::OutputGrid, "output-grid"},
    {FigureKind::Memory, "memory"},
    {FigureKind::MemoryPerAction, "memory-actions"},
    {FigureKind::Durations, "durations"},
    {FigureKind::Cumulative, "cumulative"},
    {FigureKind::Compare, "compare"},
    {FigureKind::Sweep, "sweep"},
    {FigureKind::Storyboard, "storyboard"},
};

QString qstr(const std::string &s) { return QString::fromStdString(s); }

/// A chart figure: the chart is owned by the figure.
/// The step marked by a chart's cursor: none unless asked (`--cursor`), so
/// figures for a report carry no interactive marks.
int cursorStep(const FigureRequest &request) { return request.cursor ? request.moment.step : -1; }

Figure chartFigure(QChart *chart, const QString &title, const QString &description, QSize size, const FigureRequest &request)
{
    if (!request.title)
        chart->setTitle(QString()); // before the fonts: the legend's room is worked out without it
    if (request.font)
        setChartFont(chart, *request.font, request.size.isValid() ? request.size.width() : size.width());
    if (request.title)
        fitChartTitle(chart, request.size.isValid() ? request.size.width() : size.width());
    std::shared_ptr<QChart> owned(chart);
    return {chartPainter(owned.get()), title, description, size, owned};
}

struct CursorFigureState {
    std::unique_ptr<StepCursor> cursor;
    GridRenderer renderer;
};

/// The bins of a step chart at the export size (the preferred 1400 pixels
/// wide when not known): more steps than that are binned.
int exportBins(const FigureRequest &request) { return stepChartBins(request.size.isValid() ? request.size.width() : 1400); }

/// Steps are 0-based inside, 1-based in every message.
void checkStep(const SimulationResult &r, const std::string &strategy, int step)
{
    const int count = int(r.steps.size());
    if (step < 0 || step >= count)
        throw FigureError("step " + std::to_string(step + 1) + " is out of range: strategy '" + strategy + "' has steps 1.."
            + std::to_string(count) + " (the last is the drain)");
}

Figure gridFigure(FigureSource &source, const FigureRequest &request)
{
    const Problem &problem = source.project().problem;
    const SimulationResult &result = source.simulation(request.strategy);
    checkStep(result, request.strategy, request.moment.step);
    auto state = std::make_shared<CursorFigureState>();
    state->cursor = std::make_unique<StepCursor>(problem, result);
    state->cursor->seek(request.moment);
    GridStyle style;
    style.heatMap = request.heatMap;
    style.font = request.font;
    style.strategy = qstr(request.strategy);
    style.title = request.title;
    const FigureKind kind = request.kind;
    const QString what = kind == FigureKind::InputGrid ? QStringLiteral("Input")
        : kind == FigureKind::OutputGrid               ? QStringLiteral("Output")
                                                       : QStringLiteral("Input and output");
    Figure f;
    f.title = QStringLiteral("%1 — %2, %3").arg(what, qstr(request.strategy), GridRenderer::momentText(*state->cursor));
    f.description
        = QStringLiteral("ConvOffload grid figure: pixel and output states of strategy %1.").arg(qstr(request.strategy));
    f.preferredSize = kind == FigureKind::Grid ? QSize(1600, 900) : QSize(1000, 1000);
    f.paint = [state, style, kind, &problem](QPainter &painter, const QRectF &target) {
        if (kind == FigureKind::InputGrid)
            state->renderer.paintInputGrid(painter, target, problem, *state->cursor, style);
        else if (kind == FigureKind::OutputGrid)
            state->renderer.paintOutputGrid(painter, target, problem, *state->cursor, style);
        else
            state->renderer.paintGrids(painter, target, problem, *state->cursor, style);
    };
    f.keepAlive = state;
    return f;
}

/// The first K steps of two strategies as small multiples (StoryboardRenderer).
Figure storyboardFigure(FigureSource &source, const FigureRequest &request)
{
    const Project &project = source.project();
    std::string versus = request.versus;
    if (versus.empty())
        for (const StrategySpec &s : project.strategies)
            if (s.name != request.strategy) {
                versus = s.name;
                break;
            }
    if (versus.empty())
        throw FigureError(
            "the storyboard compares two strategies: give --versus NAME (the project has only '" + request.strategy + "')");
    if (request.storyboardSteps < 1 || request.storyboardSteps > 32)
        throw FigureError("storyboard steps must be between 1 and 32, got " + std::to_string(request.storyboardSteps));

    struct State {
        std::unique_ptr<StepCursor> left, right;
        StoryboardRenderer renderer;
    };
    auto state = std::make_shared<State>();
    const SimulationResult &a = source.simulation(request.strategy);
    const SimulationResult &b = source.simulation(versus);
    state->left = std::make_unique<StepCursor>(project.problem, a);
    state->right = std::make_unique<StepCursor>(project.problem, b);
    // Compute steps only (the drain shows nothing new).
    const int steps = std::min({request.storyboardSteps, a.computeSteps(), b.computeSteps()});
    const std::array<QString, 2> names = {qstr(request.strategy), qstr(versus)};
    const Problem &problem = project.problem;
    GridStyle style;
    style.font = request.font;

    Figure f;
    f.title = QStringLiteral("%1 vs %2 — first %3 steps").arg(names[0], names[1]).arg(steps);
    f.description = QStringLiteral("ConvOffload storyboard: input pixels loaded, kept and freed at each step of two strategies.");
    f.preferredSize = QSize(1600, 900);
    f.paint = [state, steps, names, style, &problem](QPainter &painter, const QRectF &target) {
        state->renderer.paint(painter, target, problem, {state->left.get(), state->right.get()}, names, steps, style);
    };
    f.keepAlive = state;
    return f;
}

} // namespace

QString figureName(FigureKind kind)
{
    for (const KindName &k : kKindNames)
        if (k.kind == kind)
            return QLatin1String(k.name);
    return {};
}

std::optional<FigureKind> figureKindFromName(const QString &name)
{
    for (const KindName &k : kKindNames)
        if (name == QLatin1String(k.name))
            return k.kind;
    return std::nullopt;
}

QStringList figureNames()
{
    QStringList names;
    for (const KindName &k : kKindNames)
        names << QLatin1String(k.name);
    return names;
}

bool figureNeedsStrategy(FigureKind kind) { return kind != FigureKind::Compare && kind != FigureKind::Sweep; }

FigureSource::FigureSource(Project project, const std::string &projectPath)
    : m_project(std::move(project))
    , m_path(projectPath)
{
    const std::string file = resolveDataFile(projectPath, m_project.data);
    if (!file.empty())
        m_tensors = loadTensorData(m_project.problem.layer, file);
}

SimulationOptions FigureSource::options(bool trace) const
{
    SimulationOptions o;
    o.trace = trace;
    o.seed = m_project.data.seed;
    o.data = m_tensors ? &*m_tensors : nullptr;
    return o;
}

void FigureSource::setWorkBudget(std::optional<WorkBudget> budget, std::string remedy)
{
    m_budget = budget;
    m_remedy = std::move(remedy);
}

void FigureSource::requireWithinBudget(const WorkEstimate &work, const std::string &subject) const
{
    if (!m_budget)
        return;
    WorkEstimate total = work;
    for (const auto &[name, bytes] : m_keptBytes)
        total.bytes += bytes; // kept while this one runs
    if (const std::optional<std::string> why = exceedsBudget(total, *m_budget, printable(subject)))
        throw FigureError(*why + "; " + m_remedy);
}

WorkEstimate FigureSource::simulationWork(const std::string &strategy) const
{
    const StrategySpec *spec = m_project.findStrategy(strategy);
    return spec ? estimateStrategy(m_project.problem, *spec, options(true).functional, true) : WorkEstimate{};
}

namespace {

/// Untraced runs one after the other (the comparison, the sweep): their
/// times add up, each from its strategy's steps (estimateStrategy); their
/// memory is one run's, as the commands count it (estimateSimulation: the
/// fused pass keeps no step list).
WorkEstimate untracedRuns(const Problem &problem, const std::vector<StrategySpec> &specs, bool functional)
{
    WorkEstimate total = estimateSimulation(problem, functional, false);
    total.seconds = 0;
    for (const StrategySpec &spec : specs)
        total.seconds += estimateStrategy(problem, spec, functional, false).seconds;
    return total;
}

} // namespace

WorkEstimate FigureSource::comparisonWork() const
{
    return untracedRuns(m_project.problem, m_project.strategies, options(false).functional);
}

WorkEstimate FigureSource::sweepWork(std::int64_t from, std::int64_t to) const
{
    std::vector<StrategySpec> specs;
    for (std::int64_t g = from; g <= to; ++g)
        for (const StrategyKind kind : {StrategyKind::RowByRow, StrategyKind::ZigZag}) {
            StrategySpec spec;
            spec.kind = kind;
            spec.group_size = g;
            specs.push_back(spec);
        }
    return untracedRuns(m_project.problem, specs, options(false).functional);
}

const SimulationResult &FigureSource::simulation(const std::string &strategy)
{
    if (const auto it = m_simulations.find(strategy); it != m_simulations.end())
        return it->second;
    const StrategySpec *spec = m_project.findStrategy(strategy);
    if (!spec) {
        std::string names;
        for (const StrategySpec &s : m_project.strategies)
            names += (names.empty() ? "'" : ", '") + s.name + "'";
        throw FigureError(
            "no strategy named '" + strategy + "' in the project (it has " + (names.empty() ? "none" : names) + ")");
    }
    const std::string what = "simulating strategy '" + strategy + "'";
    const WorkEstimate work = simulationWork(strategy);
    requireWithinBudget(work, "the simulation of strategy '" + strategy + "' for its figures");
    try {
        const SimulationResult &result
            = m_simulations.emplace(strategy, simulateStrategy(m_project.problem, *spec, options(true))).first->second;
        m_keptBytes[strategy] = work.bytes;
        return result;
    } catch (const std::exception &e) {
        throw FigureError(errorMessage(e, what, m_path));
    }
}

std::vector<CompareRow> FigureSource::comparison() const
{
    if (!m_comparison.empty())
        return m_comparison;
    const std::string what = "comparing the strategies";
    requireWithinBudget(
        comparisonWork(), "the comparison of the project's " + std::to_string(m_project.strategies.size()) + " strategies");
    try {
        return compareStrategies(m_project, options(false));
    } catch (const std::bad_alloc &e) {
        throw FigureError(errorMessage(e, what, m_path));
    }
}

std::vector<SweepRow> FigureSource::sweep(std::int64_t from, std::int64_t to) const
{
    if (!m_sweep.empty() && m_sweep.front().group_size == from && m_sweep.back().group_size == to)
        return m_sweep;
    const std::string what
        = "sweeping group sizes " + std::to_string(from) + ".." + std::to_string(to) + " (Row-by-Row and ZigZag at each)";
    requireWithinBudget(sweepWork(from, to),
        "the group-size sweep's " + std::to_string(2 * (to - from + 1)) + " simulations (Row-by-Row and ZigZag at "
            + std::to_string(from) + ".." + std::to_string(to) + ")");
    try {
        return sweepGroupSizes(m_project.problem, from, to, options(false));
    } catch (const std::bad_alloc &e) {
        throw FigureError(errorMessage(e, what, m_path));
    }
}

void FigureSource::provideSimulation(const std::string &strategy, SimulationResult result)
{
    m_simulations.insert_or_assign(strategy, std::move(result));
    m_keptBytes[strategy] = simulationWork(strategy).bytes;
}

void FigureSource::release(const std::string &strategy)
{
    m_simulations.erase(strategy);
    m_keptBytes.erase(strategy);
}

Figure makeFigure(FigureSource &source, const FigureRequest &request)
{
    const Problem &problem = source.project().problem;
    const QString strategy = qstr(request.strategy);
    switch (request.kind) {
    case FigureKind::Grid:
    case FigureKind::InputGrid:
    case FigureKind::OutputGrid:
        return gridFigure(source, request);
    case FigureKind::Storyboard:
        return storyboardFigure(source, request);
    case FigureKind::Memory:
    case FigureKind::MemoryPerAction: {
        const SimulationResult &r = source.simulation(request.strategy);
        checkStep(r, request.strategy, request.moment.step);
        return chartFigure(footprintChart(problem, r, cursorStep(request), request.kind == FigureKind::MemoryPerAction, strategy,
                               exportBins(request)),
            QStringLiteral("On-chip footprint — %1").arg(strategy),
            QStringLiteral("Input, kernel and output elements on chip per step, with the capacity line."), QSize(1400, 700),
            request);
    }
    case FigureKind::Durations: {
        const SimulationResult &r = source.simulation(request.strategy);
        checkStep(r, request.strategy, request.moment.step);
        return chartFigure(durationChart(problem, r, cursorStep(request), strategy, exportBins(request)),
            QStringLiteral("Step durations — %1").arg(strategy),
            QStringLiteral("Input load, kernel load, write and compute cycles of every step."), QSize(1400, 700), request);
    }
    case FigureKind::Cumulative: {
        const SimulationResult &r = source.simulation(request.strategy);
        checkStep(r, request.strategy, request.moment.step);
        return chartFigure(cumulativeDurationChart(r, cursorStep(request), strategy, exportBins(request)),
            QStringLiteral("Cumulative duration — %1").arg(strategy), QStringLiteral("Running total of the step durations."),
            QSize(1400, 700), request);
    }
    case FigureKind::Compare: {
        const std::vector<CompareRow> rows = source.comparison();
        if (rows.empty())
            throw FigureError("the project has no strategy to compare");
        auto plot = std::make_shared<ComparisonPlot>(rows);
        plot->setTitleShown(request.title);
        const QFont font = request.font.value_or(QFont());
        return {[plot, font](QPainter &painter, const QRectF &target) { plot->paint(painter, target, font); },
            QStringLiteral("Strategy comparison"),
            QStringLiteral("Total duration, loaded input and peak footprint of every strategy, one panel each."),
            QSize(1400, 600), plot};
    }
    case FigureKind::Sweep: {
        if (!kernelsFit(problem))
            throw FigureError("no group-size sweep: Row-by-Row and ZigZag keep all " + std::to_string(problem.layer.n)
                + " kernels on chip, which this layer's mem_size and nbop_pe do not allow (sweep --kernel-blocks "
                  "compares kernel block sizes)");
        const std::int64_t patches = problem.layer.patchCount();
        const std::int64_t to = request.sweepTo > 0
            ? request.sweepTo
            : std::min<std::int64_t>(patches, std::max<std::int64_t>(32, 2 * problem.nbPatchesMax()));
        if (request.sweepFrom < 1 || to < request.sweepFrom || to > patches)
            throw FigureError("group sizes " + std::to_string(request.sweepFrom) + ".." + std::to_string(to)
                + " are not within 1.." + std::to_string(patches) + " (the number of patches)");
        return chartFigure(sweepChart(source.sweep(request.sweepFrom, to)), QStringLiteral("ZigZag vs Row-by-Row by group size"),
            QStringLiteral("Total duration of both heuristics for each group size."), QSize(1400, 700), request);
    }
    }
    throw FigureError("unknown figure");
}

} // namespace convoffload::ui
