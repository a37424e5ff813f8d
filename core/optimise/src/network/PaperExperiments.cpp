// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/PaperExperiments.h"

#include "convoffload/io/Report.h"
#include "convoffload/optimise/SearchOptimiser.h"

#include <algorithm>
#include <cstdio>

namespace convoffload {

Problem paperInstance(int inputSize, int groupSize)
{
    Problem p;
    p.layer.c_in = 1;
    p.layer.h_in = p.layer.w_in = inputSize;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.n = 1;
    p.hardware.nbop_pe = 9 * std::int64_t(groupSize);
    p.hardware.mem_size = 9 * std::int64_t(groupSize) + 9 + groupSize; // G patches, one kernel, G outputs
    p.hardware.t_l = 1;
    p.hardware.t_acc = 1;
    p.hardware.t_w = 0;
    p.hardware.max_loads_per_element = 9;
    p.options.kernels_preloaded = true;
    return p;
}

double ExperimentRow::bestOptimised() const
{
    double best = search.hasSolution() ? search.duration : bestHeuristic();
    if (ilp && ilp->hasSolution())
        best = std::min(best, ilp->duration);
    return best;
}

std::vector<ExperimentRow> runPaperExperiments(const ExperimentGrid &grid, const std::atomic<bool> *cancel,
    const ExperimentProgress &progress, const ExperimentInstanceProgress &running)
{
    std::vector<ExperimentRow> rows;
    const int total = grid.instances();
    for (int size = grid.size_from; size <= grid.size_to; ++size)
        for (int g = grid.group_from; g <= grid.group_to; ++g) {
            if (cancel && cancel->load())
                return rows;
            const Problem problem = paperInstance(size, g);
            ExperimentRow row;
            row.input_size = size;
            row.group_size = g;

            OptimiseRequest request;
            request.method = grid.method;
            request.seed = grid.seed;
            request.threads = grid.threads;
            // The search keeps a move budget unless asked for the anytime
            // search: 81 instances at the whole time limit each would take a
            // quarter of an hour by default. Exact spends the time limit
            // where it cannot prove sooner.
            if (grid.search_max_moves > 0)
                request.max_moves = grid.search_max_moves;
            else if (grid.method != OptimiseMethod::Exact && !grid.search_anytime)
                request.max_moves = automaticMoveBudget(makeS1Instance(problem));
            OptimiseControl control;
            control.cancel = cancel;
            control.time_limit_s = grid.search_time_limit_s;
            if (running)
                control.progress = [&running, size, g](const OptimiseProgress &p) { running(size, g, p); };
            const OptimiseReport search = optimise(problem, request, control);
            row.patches = search.instance.patches;
            row.min_groups = search.instance.min_groups;
            for (const NamedGroups &h : search.heuristics)
                (h.name == "ZigZag" ? row.zigzag : row.row_by_row) = h.evaluation.duration;
            row.s1_baseline = evaluate(search.instance, s1Baseline(problem.layer)).duration;
            row.search = search.result;
            row.lower_bound = search.lower_bound;

            if (grid.ilp_time_limit_s > 0) {
                request.method = OptimiseMethod::Ilp;
                request.worker_path = grid.worker_path;
                request.ilp_start_from_search = grid.ilp_start_from_search;
                control.time_limit_s = grid.ilp_time_limit_s;
                const OptimiseReport ilp = optimise(problem, request, control);
                row.ilp = ilp.result;
                row.lower_bound = std::max(row.lower_bound, ilp.lower_bound);
            }
            rows.push_back(row);
            if (progress)
                progress(rows.back(), int(rows.size()), total);
        }
    return rows;
}

namespace {

std::string fixed(double value, int decimals)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string ilpDuration(const ExperimentRow &row) { return row.ilp && row.ilp->hasSolution() ? fixed(row.ilp->duration, 0) : ""; }

std::string ilpStatus(const ExperimentRow &row) { return row.ilp ? optimiseStatusName(row.ilp->status) : "not run"; }

} // namespace

std::string experimentsToCsv(const std::vector<ExperimentRow> &rows)
{
    std::string out = "input_size,group_size,patches,k_min,s1_baseline,row_by_row,zigzag,best_heuristic,search,search_seconds,"
                      "cbc,cbc_status,cbc_seconds,lower_bound,gap,gain,method,status,stopped\n";
    for (const ExperimentRow &r : rows) {
        out += std::to_string(r.input_size) + "," + std::to_string(r.group_size) + "," + std::to_string(r.patches) + ","
            + std::to_string(r.min_groups) + "," + fixed(r.s1_baseline, 0) + "," + fixed(r.row_by_row, 0) + ","
            + fixed(r.zigzag, 0) + "," + fixed(r.bestHeuristic(), 0) + ","
            + (r.search.hasSolution() ? fixed(r.search.duration, 0) : "") + "," + fixed(r.search.seconds, 3) + ","
            + ilpDuration(r) + "," + csvField(ilpStatus(r)) + "," + (r.ilp ? fixed(r.ilp->seconds, 3) : "") + ","
            + fixed(r.lower_bound, 0) + "," + fixed(r.gap(), 4) + "," + fixed(r.gain(), 4) + "," + r.search.method + ","
            + csvField(optimiseStatusName(r.search.status)) + "," + (r.stopped() ? "1" : "0") + "\n";
    }
    return out;
}

std::string experimentsToText(const std::vector<ExperimentRow> &rows)
{
    std::string out = " H=W   G  Row-by-Row  ZigZag  Search   (s)     CBC  status        (s)   bound    gap   gain\n";
    for (const ExperimentRow &r : rows) {
        char line[200];
        std::snprintf(line, sizeof line, "%4d %3d %11.0f %7.0f %7s %5.2f %7s  %-12s %5s %7.0f %5.1f%% %5.1f%%\n", r.input_size,
            r.group_size, r.row_by_row, r.zigzag, r.search.hasSolution() ? fixed(r.search.duration, 0).c_str() : "-",
            r.search.seconds, r.ilp && r.ilp->hasSolution() ? fixed(r.ilp->duration, 0).c_str() : "-", ilpStatus(r).c_str(),
            r.ilp ? fixed(r.ilp->seconds, 1).c_str() : "", r.lower_bound, 100 * r.gap(), 100 * r.gain());
        out += line;
        if (r.stopped()) // its best so far, not its result
            out.insert(out.size() - 1, "  (stopped)");
    }
    return out;
}

nlohmann::ordered_json experimentsToJson(const std::vector<ExperimentRow> &rows)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ExperimentRow &r : rows) {
        nlohmann::ordered_json row = {{"input_size", r.input_size}, {"group_size", r.group_size}, {"patches", r.patches},
            {"k_min", r.min_groups}, {"row_by_row", r.row_by_row}, {"zigzag", r.zigzag},
            {"search", r.search.hasSolution() ? nlohmann::ordered_json(r.search.duration) : nullptr},
            {"search_status", optimiseStatusName(r.search.status)}, {"search_seconds", r.search.seconds},
            {"lower_bound", r.lower_bound}, {"gap", r.gap()}, {"gain", r.gain()}, {"stopped", r.stopped()}};
        if (r.ilp) {
            row["cbc"] = r.ilp->hasSolution() ? nlohmann::ordered_json(r.ilp->duration) : nullptr;
            row["cbc_status"] = optimiseStatusName(r.ilp->status);
            row["cbc_seconds"] = r.ilp->seconds;
        }
        out.push_back(row);
    }
    return out;
}

} // namespace convoffload
