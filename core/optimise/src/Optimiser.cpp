#include "convoffload/optimise/Optimiser.h"

#include "convoffload/optimise/IlpSolver.h"
#include "convoffload/optimise/SearchOptimiser.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace convoffload {

std::string optimiseMethodName(OptimiseMethod method) { return method == OptimiseMethod::Ilp ? "ilp" : "search"; }

std::optional<OptimiseMethod> optimiseMethodFromName(const std::string &text)
{
    if (text == "ilp")
        return OptimiseMethod::Ilp;
    if (text == "search")
        return OptimiseMethod::Search;
    return std::nullopt;
}

std::optional<double> OptimiseReport::gainOverHeuristic() const
{
    if (!best_heuristic || !result.hasSolution() || best_heuristic->evaluation.duration <= 0)
        return std::nullopt;
    return (best_heuristic->evaluation.duration - result.duration) / best_heuristic->evaluation.duration;
}

OptimiseReport optimise(const Problem &problem, const OptimiseRequest &request, const OptimiseControl &control)
{
    OptimiseReport report;
    report.instance = makeS1Instance(problem, request.settings);
    report.heuristics = heuristicCandidates(report.instance);
    report.best_heuristic = bestFeasibleHeuristic(report.instance);
    if (request.method == OptimiseMethod::Ilp) {
        IlpSolveOptions options;
        options.worker_path = request.worker_path;
        OptimiseControl ilpControl = control;
        double startSeconds = 0;
        if (!report.best_heuristic || request.ilp_start_from_search) {
            // Asked for, or no heuristic satisfies the problem (typically the
            // reload bound) and CBC would start from nothing.
            OptimiseControl startControl;
            startControl.time_limit_s = std::min(2.0, control.time_limit_s / 10);
            startControl.cancel = control.cancel;
            SearchOptions searchOptions;
            searchOptions.seed = request.seed;
            searchOptions.max_moves = automaticMoveBudget(report.instance); // a quick start, not the whole allowance
            searchOptions.threads = request.threads;
            const OptimiseResult start = searchOptimise(report.instance, searchOptions, startControl);
            startSeconds = start.seconds;
            if (start.hasSolution()) {
                options.start = start.groups;
                ilpControl.time_limit_s = std::max(0.1, control.time_limit_s - start.seconds);
            }
        }
        report.result = solveIlp(report.instance, options, ilpControl);
        if (options.start)
            report.result.message += std::string(report.result.message.empty() ? "" : "; ")
                + (report.best_heuristic ? "MIP start from a short search"
                                         : "MIP start from a short search, as no heuristic satisfies the problem");
        report.result.seconds += startSeconds;
    } else {
        SearchOptions options;
        options.seed = request.seed;
        options.max_moves = request.max_moves;
        options.threads = request.threads;
        report.result = searchOptimise(report.instance, options, control);
    }
    report.lower_bound = std::max(report.result.lower_bound, lowerBound(report.instance));
    return report;
}

StrategySpec toStrategy(const OptimiseReport &report, const std::string &name)
{
    return {name, StrategyKind::Groups, std::nullopt, report.result.groups};
}

namespace {

nlohmann::ordered_json optionalNumber(const std::optional<double> &value)
{
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string percent(const std::optional<double> &fraction)
{
    if (!fraction)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100.0 * *fraction);
    return text;
}

std::string number(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

nlohmann::ordered_json optimiseReportToJson(const OptimiseReport &report)
{
    const OptimiseResult &r = report.result;
    nlohmann::ordered_json heuristics = nlohmann::ordered_json::array();
    for (const NamedGroups &h : report.heuristics)
        heuristics.push_back({{"name", h.name}, {"duration", h.evaluation.duration}, {"feasible", h.evaluation.feasible},
            {"violation", h.evaluation.violation}});
    return {{"method", r.method}, {"status", optimiseStatusName(r.status)},
        {"duration", r.hasSolution() ? nlohmann::ordered_json(r.duration) : nlohmann::ordered_json(nullptr)},
        {"lower_bound", report.lower_bound}, {"gap", optionalNumber(r.gap())},
        {"best_heuristic", report.best_heuristic ? nlohmann::ordered_json(report.best_heuristic->name) : nullptr},
        {"gain_over_heuristic", optionalNumber(report.gainOverHeuristic())}, {"seconds", r.seconds}, {"cancelled", r.cancelled},
        {"timed_out", r.timed_out}, {"message", r.message}, {"group_size", report.instance.group_size},
        {"groups", r.groups.size()}, {"heuristics", heuristics}};
}

std::string optimiseReportToText(const OptimiseReport &report)
{
    const OptimiseResult &r = report.result;
    std::ostringstream out;
    out << "Method:          " << r.method << " (" << optimiseStatusName(r.status) << (r.cancelled ? ", cancelled" : "")
        << (r.timed_out ? ", time limit reached" : "") << ")\n";
    if (!r.message.empty())
        out << "Message:         " << r.message << "\n";
    if (r.hasSolution())
        out << "Duration:        " << number(r.duration) << " in " << r.groups.size() << " groups of at most "
            << report.instance.group_size << "\n";
    out << "Lower bound:     " << number(report.lower_bound) << " (gap " << percent(r.gap()) << ")\n";
    for (const NamedGroups &h : report.heuristics)
        out << "  " << h.name << ": " << number(h.evaluation.duration)
            << (h.evaluation.feasible ? "" : " (breaks the problem: " + h.evaluation.violation + ")") << "\n";
    if (report.best_heuristic)
        out << "Gain over " << report.best_heuristic->name << ": " << percent(report.gainOverHeuristic()) << "\n";
    out << "Time:            " << number(std::round(r.seconds * 1000) / 1000) << " s\n";
    return out.str();
}

} // namespace convoffload
