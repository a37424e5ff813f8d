// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/Optimiser.h"

#include "convoffload/optimise/ExactOptimiser.h"
#include "convoffload/optimise/IlpModelSize.h"
#include "convoffload/optimise/IlpSolver.h"
#include "convoffload/optimise/SearchOptimiser.h"

#include "convoffload/io/Report.h"
#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace convoffload {

std::string optimiseMethodName(OptimiseMethod method)
{
    switch (method) {
    case OptimiseMethod::Search:
        return "search";
    case OptimiseMethod::Ilp:
        return "ilp";
    case OptimiseMethod::Exact:
        return "exact";
    }
    return "?";
}

std::optional<OptimiseMethod> optimiseMethodFromName(const std::string &text)
{
    if (text == "ilp")
        return OptimiseMethod::Ilp;
    if (text == "search")
        return OptimiseMethod::Search;
    if (text == "exact")
        return OptimiseMethod::Exact;
    return std::nullopt;
}

std::optional<double> OptimiseReport::gainOverHeuristic() const
{
    if (!best_heuristic || !result.hasSolution() || best_heuristic->evaluation.duration <= 0)
        return std::nullopt;
    return (best_heuristic->evaluation.duration - result.duration) / best_heuristic->evaluation.duration;
}

namespace {

/// A bound no strategy can beat: every kernel loaded once (unless
/// preloaded), every output written once, and as few compute steps as the
/// op limit allows. Input loads are left out, so it is weak.
double streamingLowerBound(const Problem &problem)
{
    const Layer &layer = problem.layer;
    const Hardware &hw = problem.hardware;
    const double outputs = double(layer.outputCount());
    const double steps = std::ceil(outputs * double(layer.opsPerOutput()) / double(hw.nbop_pe));
    const double kernels = problem.options.kernels_preloaded ? 0 : double(layer.n * layer.kernelElements()) * hw.t_l;
    return kernels + outputs * hw.t_w + steps * hw.t_acc;
}

std::string choiceText(const FamilyChoice &choice)
{
    std::string text;
    const auto add = [&text](const std::string &part) { text += (text.empty() ? " with " : ", ") + part; };
    if (choice.loop)
        add(kernelLoopName(*choice.loop));
    if (choice.kernel_block)
        add("B = " + std::to_string(*choice.kernel_block));
    if (choice.group_size)
        add("G = " + std::to_string(*choice.group_size));
    return text;
}

/// Why no kernel-blocked strategy exists: the limit that one patch with one
/// kernel (kernelBlockedMembers' smallest member, G = B = 1) exceeds.
std::string oneKernelShortfall(const Problem &problem)
{
    const Layer &layer = problem.layer;
    const std::int64_t k = layer.kernelElements();
    if (problem.hardware.nbop_pe < k)
        return "nbop_pe = " + std::to_string(problem.hardware.nbop_pe) + " cannot compute one patch with one kernel ("
            + std::to_string(k) + " MACs)";
    const std::int64_t need = k + (problem.options.padding_in_dram ? k : 0) + 1;
    return "mem_size = " + std::to_string(problem.hardware.mem_size)
        + " cannot hold one kernel, one patch's input and its output (" + std::to_string(need) + " elements)";
}

OptimiseReport optimiseKernelBlocked(const Problem &problem, const OptimiseRequest &request, const OptimiseControl &control)
{
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    SimulationOptions options;
    options.functional = false;
    options.trace = false;
    options.cancel = control.cancel;
    FamilyChoice choice = request.family;
    if (request.settings.group_size)
        choice.group_size = request.settings.group_size;
    OptimiseReport report;
    FamilySearch search;
    // Member by member, the time limit and the caller's cancel polled in
    // each simulation: on a layer of a million patches one member takes
    // seconds, and the best of those simulated is kept.
    const Deadline deadline(control.time_limit_s);
    const std::vector<KernelBlockedParams> members = chosenMembers(problem, choice);
    bool timedOut = false;
    double slowest = 0; // the estimate of a member left out for the time
    {
        const DeadlineFlag stop(deadline, control.cancel);
        options.cancel = stop.flag();
        for (const KernelBlockedParams &member : members) {
            // Expanding a member's steps cannot stop halfway (1 M patches
            // and 64 kernels: seconds): one the work estimate puts beyond
            // the time left is not started.
            const std::int64_t visits
                = (problem.layer.n + member.kernel_block - 1) / std::max<std::int64_t>(1, member.kernel_block);
            const double need = estimateSimulation(problem, false, false, visits).seconds;
            if (need > deadline.secondsLeft()) {
                timedOut = true;
                slowest = std::max(slowest, need);
                continue;
            }
            try {
                FamilySearch one = searchMembers(problem, {member}, options);
                const FamilyMember *best = search.bestMember();
                if (one.best && (!best || one.members[0].row.total_duration < best->row.total_duration))
                    search.best = search.members.size();
                search.members.push_back(std::move(one.members[0]));
            } catch (const Cancelled &) {
                if (stop.cancelled())
                    report.result.cancelled = true;
                else
                    timedOut = true;
                break;
            }
        }
        options.cancel = control.cancel;
    }
    report.kernel_blocked_tried = std::int64_t(search.members.size());
    report.result.timed_out = timedOut;
    OptimiseResult &r = report.result;
    r.method = "kernel-blocked";
    r.lower_bound = streamingLowerBound(problem);
    const std::string tried = std::to_string(search.members.size()) + " kernel-blocked strategies" + choiceText(choice)
        + (timedOut ? " (of " + std::to_string(members.size()) + ": the time limit ran out)" : "");
    if (const FamilyMember *best = search.bestMember()) {
        report.kernel_blocked = *best;
        r.status = OptimiseStatus::Feasible;
        r.groups = best->params.order == PatchOrder::RowByRow ? rowByRow(problem.layer, best->params.group_size)
                                                              : zigzag(problem.layer, best->params.group_size);
        r.duration = best->row.total_duration;
        r.message = "the kernels do not fit beside one patch, so no S1 strategy can run: best of " + tried + " ("
            + kernelBlockedParamsText(best->params) + ")";
        if (request.method == OptimiseMethod::Search && !r.cancelled && !timedOut) {
            SearchOptions searchOptions;
            searchOptions.seed = request.seed;
            searchOptions.max_moves = request.max_moves;
            searchOptions.threads = request.threads;
            OptimiseControl searchControl = control;
            searchControl.time_limit_s = std::max(0.1, control.time_limit_s - elapsed());
            searchControl.progress = {}; // its durations are the block instance's, not the layer's
            report.regrouped = regroupKernelBlocked(problem, *best, request.settings, searchOptions, searchControl);
            const RegroupResult &g = *report.regrouped;
            r.method = "search";
            r.groups = g.groups;
            r.duration = g.row.total_duration;
            r.cancelled = g.search.cancelled;
            r.timed_out = g.search.timed_out;
            r.message += g.improved ? "; the search regrouped its patches into " + std::to_string(g.groups.size()) + " groups"
                                    : "; the search found no better grouping, so its own groups are kept";
            // Under a transfer model: which cost the regrouping minimised
            // (docs/reference/cli.md#under-a-transfer-model).
            if (problem.hardware.transfer && !problem.hardware.transfer->isLinear())
                r.message += g.transfer_cost
                    ? " (the search minimised the transfer model's cost)"
                    : " (the search minimised the paper's linear cost; every duration is simulated under the transfer model)";
        }
    } else if (timedOut) {
        r.status = OptimiseStatus::NoSolution;
        r.message = "the time limit ran out while the kernel-blocked strategies were simulated (" + std::to_string(members.size())
            + " to try, " + std::to_string(problem.layer.patchCount()) + " patches), before one was valid";
        if (slowest > 0)
            r.message
                += "; by the work estimate one takes up to about " + durationText(slowest) + ": give it more time (--time-limit)";
    } else if (!r.cancelled && search.members.empty() && choiceText(choice).empty()) {
        throw InstanceError("the kernels do not fit beside one patch (no S1 strategy can run), and not even one kernel does: "
            + oneKernelShortfall(problem));
    } else if (!r.cancelled) {
        throw InstanceError("the kernels do not fit beside one patch (no S1 strategy can run) and none of the " + tried
            + " tried respects the hardware (raise mem_size or nbop_pe"
            + (choiceText(choice).empty() ? "" : ", or allow other members") + ")");
    }
    if (request.prove) {
        report.proof = BoundProof{};
        report.proof->incumbent = r.duration;
        report.proof->why = "the relaxed bound proves S1 strategies only, and this layer's kernels do not fit";
    }
    r.seconds = elapsed();
    report.lower_bound = r.lower_bound;
    if (control.progress && r.hasSolution())
        control.progress({r.seconds, r.duration, r.lower_bound});
    return report;
}

bool sound(const Problem &problem) { return problem.layer.problems().empty() && problem.hardware.problems().empty(); }

/// The seconds one simulation of the layer takes, by the work estimate
/// (docs/design/performance.md): what the re-simulation under a transfer
/// model costs per strategy.
double simulationSeconds(const Problem &problem) { return estimateSimulation(problem, false, false).seconds; }

/// Under a transfer model, the result and the heuristics simulated again
/// (the search minimised that cost already; the exact method and the ILP the
/// linear one), and the message says which cost was minimised. Each
/// simulation is skipped, and the message says why, when the estimate puts it
/// beyond the time left (the method had the time minus what these need, so
/// that happens only when the estimate is above half the time limit).
void costUnderTransfer(const Problem &problem, OptimiseReport &report, const Deadline &deadline, double timeLimit)
{
    SimulationOptions options;
    options.functional = false;
    options.step_stats = false;
    const double each = simulationSeconds(problem);
    bool skipped = false;
    const auto simulated = [&](const std::string &name, const Groups &groups) {
        // A little grace: the method may have used its share to the end.
        if (each > std::max(deadline.secondsLeft(), 0.1 * timeLimit)) {
            skipped = true;
            return;
        }
        StrategySpec spec;
        spec.name = name;
        spec.kind = StrategyKind::Groups;
        spec.groups = groups;
        report.transfer_durations.emplace_back(name, simulateStrategy(problem, spec, options).totalDuration());
    };
    if (report.result.hasSolution())
        simulated("result", report.result.groups);
    for (const NamedGroups &h : report.heuristics)
        simulated(h.name, h.groups);
    const std::string what = report.instance.transfer
        ? "every duration here is the transfer model's cost, which the search minimised; the bound and gap are the "
          "paper's linear cost's, which never exceeds it"
        : "the optimiser, its bound and gap use the paper's linear cost; the transfer model's durations are listed apart";
    report.result.message += std::string(report.result.message.empty() ? "" : "; ") + what;
    if (skipped)
        report.result.message += " (some not simulated: each simulation would take about " + durationText(each)
            + ", more than the time limit leaves)";
}

/// Time kept for the re-simulation under a transfer model: the estimate of
/// its three simulations, at most half the time.
double transferReserve(const Problem &problem, double timeLimit)
{
    if (!problem.hardware.transfer || problem.hardware.transfer->isLinear())
        return 0;
    return std::min(0.5 * timeLimit, 3 * simulationSeconds(problem));
}

/// The control of a part of the run that starts `offset` seconds after the
/// call: its seconds shifted to count from the call, so that the points line
/// up, and `timeLimit` of its own. `control` must outlive the copy.
OptimiseControl laterPart(const OptimiseControl &control, double offset, double timeLimit)
{
    OptimiseControl part = control;
    part.time_limit_s = timeLimit;
    if (control.progress)
        part.progress = [&control, offset](OptimiseProgress point) {
            point.seconds += offset;
            control.progress(point);
        };
    if (control.phase)
        part.phase = [&control, offset](OptimisePhase phase, double seconds) { control.phase(phase, seconds + offset); };
    return part;
}

void shiftSeconds(OptimiseResult &result, double offset)
{
    result.seconds += offset;
    for (OptimiseProgress &point : result.history)
        point.seconds += offset;
}

/// Seconds since a run began.
class Stopwatch {
public:
    double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_begin).count(); }

private:
    std::chrono::steady_clock::time_point m_begin = std::chrono::steady_clock::now();
};

/// Runs the requested method on the instance within the time `deadline`
/// leaves (the set-up has used the rest), less `reserve`; the phases go to
/// the caller's control and every second counts from the run's start.
void runMethod(OptimiseReport &report, const OptimiseRequest &request, const OptimiseControl &control, const Deadline &deadline,
    double reserve, const Stopwatch &clock)
{
    const auto enter = [&](OptimisePhase phase) {
        if (control.phase)
            control.phase(phase, clock.elapsed());
    };
    const auto left = [&](double minimum) { return std::max(minimum, deadline.secondsLeft() - reserve); };
    if (request.method == OptimiseMethod::Exact) {
        enter(OptimisePhase::Exact);
        ExactOptions options;
        options.search.seed = request.seed;
        options.search.max_moves = request.max_moves;
        options.search.threads = request.threads;
        options.max_states = request.prove_max_states;
        const double begins = clock.elapsed();
        ExactOutcome exact = exactOptimise(report.instance, options, laterPart(control, begins, left(0.0)));
        report.result = std::move(exact.result);
        shiftSeconds(report.result, begins);
        report.proof = std::move(exact.proof);
    } else if (request.method == OptimiseMethod::Ilp) {
        IlpSolveOptions options;
        options.worker_path = request.worker_path;
        // A model the memory refuses (solveIlp says so at once) needs no start.
        const bool refused = ilpModelExceedsMemory(estimateIlpModelSize(report.instance)).has_value();
        if (!refused && (!report.best_heuristic || request.ilp_start_from_search)) {
            // Asked for, or no heuristic satisfies the problem (typically the
            // reload bound) and CBC would start from nothing.
            enter(OptimisePhase::Searching);
            OptimiseControl startControl = laterPart(control, clock.elapsed(), std::min(2.0, left(0.0) / 10));
            startControl.phase = {}; // the search is this phase
            SearchOptions searchOptions;
            searchOptions.seed = request.seed;
            searchOptions.max_moves = automaticMoveBudget(report.instance); // a quick start, not the whole allowance
            searchOptions.threads = request.threads;
            const OptimiseResult start = searchOptimise(report.instance, searchOptions, startControl);
            if (start.hasSolution())
                options.start = start.groups;
        }
        // The ILP gets what is left of the limit (nothing left: it says so
        // and keeps its start), and its seconds count from the user's start.
        const double ilpBegins = clock.elapsed();
        report.result = solveIlp(report.instance, options, laterPart(control, ilpBegins, left(1e-3)));
        shiftSeconds(report.result, ilpBegins);
        if (options.start)
            report.result.message += std::string(report.result.message.empty() ? "" : "; ")
                + (report.best_heuristic ? "the start strategy came from a short search"
                                         : "the start strategy came from a short search, as no heuristic satisfies the problem");
    } else {
        enter(OptimisePhase::Searching);
        SearchOptions options;
        options.seed = request.seed;
        options.max_moves = request.max_moves;
        options.threads = request.threads;
        const double begins = clock.elapsed();
        report.result = searchOptimise(report.instance, options, laterPart(control, begins, left(0.0)));
        shiftSeconds(report.result, begins);
        if (request.prove) {
            BoundProofLimits limits;
            limits.max_states = request.prove_max_states;
            limits.time_limit_s = request.prove_time_limit_s;
            limits.threads = request.threads;
            report.proof = proveSearchResult(report.instance, report.result, limits, control);
        }
    }
}

/// The result of a run whose time ran out before the method: the best
/// heuristic when one was evaluated and is feasible, else no solution; the
/// message says what was under way.
void endAtTimeLimit(OptimiseReport &report, const OptimiseRequest &request, const TimeLimitReached &reached)
{
    OptimiseResult &r = report.result;
    r = OptimiseResult{};
    r.method = optimiseMethodName(request.method);
    r.timed_out = true;
    r.message = std::string(reached.what()) + " (" + std::to_string(report.instance.patches) + " patches)";
    if (report.best_heuristic) {
        r.status = OptimiseStatus::Feasible;
        r.groups = report.best_heuristic->groups;
        r.duration = report.best_heuristic->evaluation.duration;
        r.message
            += ", before the " + r.method + " could start: the best heuristic (" + report.best_heuristic->name + ") is kept";
    } else {
        r.status = OptimiseStatus::NoSolution;
        r.message += ", before any strategy was found: give it more time (--time-limit)";
    }
}

} // namespace

OptimiseReport optimise(const Problem &problem, const OptimiseRequest &request, const OptimiseControl &control)
{
    // One clock for every phase: on a layer of millions of patches, setting
    // up the instance and the heuristics alone take seconds.
    const Stopwatch clock;
    const auto enter = [&](OptimisePhase phase) {
        if (control.phase)
            control.phase(phase, clock.elapsed());
    };
    if (request.stream_kernels && sound(problem) && !kernelsFit(problem)) {
        enter(OptimisePhase::Simulating);
        return optimiseKernelBlocked(problem, request, control);
    }
    enter(OptimisePhase::Preparing);
    const Deadline deadline(control.time_limit_s);
    OptimiseReport report;
    try {
        report.instance = makeS1Instance(problem, request.settings, deadline);
        // The search minimises the transfer model's cost where it can price
        // it (docs/reference/cli.md#under-a-transfer-model); the exact method
        // and the ILP are the paper's linear model, and so is a proof.
        if (request.method == OptimiseMethod::Search && !request.prove)
            report.instance.transfer = S1TransferCost::make(problem);
        report.heuristics = heuristicCandidates(report.instance, deadline);
        report.best_heuristic = bestFeasible(report.heuristics);
        deadline.check("evaluating the heuristics");
    } catch (const TimeLimitReached &reached) {
        if (report.instance.patches == 0) // the instance was not finished: its size is the layer's
            report.instance.patches = problem.layer.patchCount();
        endAtTimeLimit(report, request, reached);
        report.result.seconds = clock.elapsed();
        return report;
    }
    runMethod(report, request, control, deadline, transferReserve(problem, control.time_limit_s), clock);
    if (!report.result.hasSolution() && deadline.passed() && report.best_heuristic
        && report.result.status != OptimiseStatus::Failed) {
        // The method's time ran out before it had a strategy of its own (a
        // layer of millions of patches): the best so far is the heuristic.
        OptimiseResult &r = report.result;
        r.status = OptimiseStatus::Feasible;
        r.timed_out = true;
        r.groups = report.best_heuristic->groups;
        r.duration = report.best_heuristic->evaluation.duration;
        r.message = "the time limit ran out before the " + r.method + " found a strategy of its own: the best heuristic ("
            + report.best_heuristic->name + ") is kept";
    } else if (!report.result.hasSolution() && deadline.passed() && report.result.status != OptimiseStatus::Failed) {
        // No heuristic to fall back on either: say that the time was short.
        report.result.timed_out = true;
        if (report.result.message.find("time limit") == std::string::npos)
            report.result.message += std::string(report.result.message.empty() ? "" : "; ")
                + "the time limit ran out before any strategy satisfying the problem was found";
    }
    report.lower_bound = std::max(report.result.lower_bound, lowerBound(report.instance));
    if (problem.hardware.transfer && !problem.hardware.transfer->isLinear()) {
        enter(OptimisePhase::Simulating);
        costUnderTransfer(problem, report, deadline, control.time_limit_s);
    }
    return report;
}

StrategySpec toStrategy(const OptimiseReport &report, const std::string &name)
{
    if (report.regrouped) {
        StrategySpec spec{name, StrategyKind::Steps, std::nullopt, {}};
        spec.steps = report.regrouped->steps;
        return spec;
    }
    if (report.kernel_blocked)
        return kernelBlockedSpec(report.kernel_blocked->params, name);
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

} // namespace

namespace {

nlohmann::ordered_json kernelBlockedToJson(const FamilyMember &member, std::int64_t tried)
{
    return {{"loop", kernelLoopName(member.params.loop)}, {"order", patchOrderName(member.params.order)},
        {"kernel_block", member.params.kernel_block}, {"group_size", member.params.group_size}, {"steps", member.row.steps},
        {"loaded_input", member.row.loaded_input}, {"loaded_kernels", member.row.loaded_kernels},
        {"warnings", member.row.warnings}, {"tried", tried}};
}

nlohmann::ordered_json regroupedToJson(const RegroupResult &g)
{
    return {{"start", kernelBlockedParamsText(g.start.params)}, {"start_duration", g.start.row.total_duration},
        {"improved", g.improved}, {"groups", g.groups.size()}, {"steps", g.steps.size()}, {"loaded_input", g.row.loaded_input},
        {"loaded_kernels", g.row.loaded_kernels}, {"warnings", g.row.warnings}, {"search_seconds", g.search.seconds}};
}

nlohmann::ordered_json proofToJson(const BoundProof &proof)
{
    return {{"status", boundProofStatusName(proof.status)}, {"bound", optionalNumber(proof.bound)}, {"states", proof.states},
        {"seconds", proof.seconds}, {"why", proof.why}, {"text", proof.text()}};
}

} // namespace

nlohmann::ordered_json optimiseReportToJson(const OptimiseReport &report)
{
    const OptimiseResult &r = report.result;
    nlohmann::ordered_json heuristics = nlohmann::ordered_json::array();
    for (const NamedGroups &h : report.heuristics)
        heuristics.push_back({{"name", h.name}, {"duration", h.evaluation.duration}, {"feasible", h.evaluation.feasible},
            {"violation", h.evaluation.violation}, {"reload_pixels", h.evaluation.reload_pixels},
            {"verdict", evaluationVerdict(h.evaluation)}});
    // Under a transfer model, by name ("result" first); null without one.
    nlohmann::ordered_json transferDurations = nullptr;
    if (!report.transfer_durations.empty()) {
        transferDurations = nlohmann::ordered_json::object();
        for (const auto &[name, duration] : report.transfer_durations)
            transferDurations[name] = duration;
    }
    return {{"method", r.method}, {"status", optimiseStatusName(r.status)},
        {"duration", r.hasSolution() ? nlohmann::ordered_json(r.duration) : nlohmann::ordered_json(nullptr)},
        {"lower_bound", report.lower_bound}, {"gap", optionalNumber(r.gap())},
        {"best_heuristic", report.best_heuristic ? nlohmann::ordered_json(report.best_heuristic->name) : nullptr},
        {"gain_over_heuristic", optionalNumber(report.gainOverHeuristic())}, {"seconds", r.seconds}, {"cancelled", r.cancelled},
        {"timed_out", r.timed_out}, {"message", r.message}, {"group_size", report.instance.group_size},
        {"groups", r.groups.size()}, {"heuristics", heuristics}, {"transfer_durations", transferDurations},
        {"kernel_blocked",
            report.kernel_blocked ? kernelBlockedToJson(*report.kernel_blocked, report.kernel_blocked_tried)
                                  : nlohmann::ordered_json(nullptr)},
        {"regrouped", report.regrouped ? regroupedToJson(*report.regrouped) : nlohmann::ordered_json(nullptr)},
        {"proof", report.proof ? proofToJson(*report.proof) : nlohmann::ordered_json(nullptr)}};
}

std::string optimiseReportToText(const OptimiseReport &report)
{
    const OptimiseResult &r = report.result;
    std::ostringstream out;
    out << "Method:          " << r.method << " (" << optimiseStatusName(r.status) << (r.cancelled ? ", cancelled" : "")
        << (r.timed_out ? ", time limit reached" : "") << ")\n";
    if (!r.message.empty())
        out << "Message:         " << r.message << "\n";
    if (report.regrouped) {
        const RegroupResult &g = *report.regrouped;
        out << "Duration:        " << formatNumber(r.duration) << " in " << g.steps.size() << " steps (" << g.groups.size()
            << " groups in the loop of " << kernelBlockedParamsText(g.start.params) << "; " << g.row.loaded_input << " input and "
            << g.row.loaded_kernels << " kernel elements loaded)\n";
        out << "Start:           " << formatNumber(g.start.row.total_duration) << " (" << kernelBlockedParamsText(g.start.params)
            << ", its own groups)"
            << (g.improved ? "; regrouping saves " + percent(1 - g.row.total_duration / g.start.row.total_duration)
                           : ", kept: no shorter grouping found")
            << "\n";
    } else if (report.kernel_blocked) {
        const FamilyMember &m = *report.kernel_blocked;
        out << "Duration:        " << formatNumber(r.duration) << " in " << m.row.steps << " steps ("
            << kernelBlockedParamsText(m.params) << "; " << m.row.loaded_input << " input and " << m.row.loaded_kernels
            << " kernel elements loaded)\n";
    } else if (r.hasSolution()) {
        out << "Duration:        " << formatNumber(r.duration) << " in " << r.groups.size() << " groups of at most "
            << report.instance.group_size << "\n";
    }
    out << "Lower bound:     " << formatNumber(report.lower_bound) << " (gap " << percent(r.gap()) << ")\n";
    if (report.proof)
        out << "Proof:           " << report.proof->text() << "\n";
    for (const NamedGroups &h : report.heuristics)
        out << "  " << h.name << ": " << formatNumber(h.evaluation.duration)
            << (h.evaluation.feasible ? "" : " (" + evaluationVerdict(h.evaluation) + ")") << "\n";
    if (report.best_heuristic)
        out << "Gain over " << report.best_heuristic->name << ": " << percent(report.gainOverHeuristic()) << "\n";
    if (!report.transfer_durations.empty()) {
        out << "Transfer model:  ";
        for (std::size_t i = 0; i < report.transfer_durations.size(); ++i)
            out << (i ? "; " : "") << report.transfer_durations[i].first << " "
                << formatNumber(report.transfer_durations[i].second);
        out << "\n";
    }
    out << "Time:            " << formatNumber(std::round(r.seconds * 1000) / 1000) << " s\n";
    return out.str();
}

} // namespace convoffload
