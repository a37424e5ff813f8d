// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/TraceExport.h"

#include "convoffload/io/ProjectFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace convoffload {

namespace {

using Json = nlohmann::ordered_json;

// Track ids (Trace Event "tid"s), in display order. Frees (a1, a2) take no
// time, so they have no track.
enum Track : int { kSteps = 1, kWrite, kLoadInput, kLoadKernels, kCompute, kCounters };
constexpr int kPid = 1;
constexpr std::size_t kListedIds = 32; // ids named in a step's args; the count says how many there are

Json trackName(int tid, const char *name)
{
    return Json{{"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"name", "thread_name"}, {"args", {{"name", name}}}};
}

Json trackOrder(int tid)
{
    return Json{{"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"name", "thread_sort_index"}, {"args", {{"sort_index", tid}}}};
}

template <typename Ids> Json listed(const Ids &ids)
{
    Json list = Json::array();
    for (std::size_t i = 0; i < ids.size() && i < kListedIds; ++i)
        list.push_back(ids[i]);
    return list;
}

Json span(int tid, const std::string &name, double ts, double dur, Json args = Json::object())
{
    return Json{{"ph", "X"}, {"pid", kPid}, {"tid", tid}, {"name", name}, {"ts", ts}, {"dur", dur}, {"args", std::move(args)}};
}

} // namespace

std::string traceToJson(
    const Problem &problem, const StrategySpec &spec, const ComputeSteps &plan, const SimulationResult &result)
{
    if (result.steps.empty() && result.totals)
        throw std::invalid_argument("the trace needs the simulation's per-step figures");
    Json events = Json::array();
    events.push_back(
        Json{{"ph", "M"}, {"pid", kPid}, {"name", "process_name"}, {"args", {{"name", "ConvOffload: " + spec.name}}}});
    for (const auto &[tid, name] : {std::pair{kSteps, "Steps"}, std::pair{kWrite, "Write"}, std::pair{kLoadInput, "Load input"},
             std::pair{kLoadKernels, "Load kernels"}, std::pair{kCompute, "Compute"}}) {
        events.push_back(trackName(tid, name));
        events.push_back(trackOrder(tid));
    }
    events.push_back(Json{{"ph", "C"}, {"pid", kPid}, {"tid", kCounters}, {"name", "capacity"}, {"ts", 0.0},
        {"args", {{"mem_size", problem.hardware.mem_size}}}});

    double t = 0;
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const StepStats &s = result.steps[i];
        Json args{{"loaded_input", s.loaded_input}, {"loaded_kernels", s.loaded_kernels}, {"freed_input", s.freed_input},
            {"written", s.written}, {"computed", s.computed}, {"footprint", s.peak_footprint}};
        if (i < plan.size()) {
            args["patches"] = listed(plan[i].patches);
            args["patch_count"] = plan[i].patches.size();
            args["kernels"] = listed(plan[i].kernels);
            args["kernel_count"] = plan[i].kernels.size();
        }
        if (result.transfer_model) {
            args["load_runs"] = s.load_runs;
            args["load_bursts"] = s.load_bursts;
            args["write_runs"] = s.write_runs;
            args["write_bursts"] = s.write_bursts;
            args["setup_duration"] = s.setup_duration;
        }
        const std::string name = s.drain ? std::string("drain") : "step " + std::to_string(i + 1);
        events.push_back(span(kSteps, name, t, s.duration(), std::move(args)));
        // Inside the step, the timed actions in their order (a3 write, a4
        // load input, a5 load kernels, a6 compute): their lengths add up to
        // the step's. Empty ones are left out.
        const double input = s.load_duration - s.kernel_load_duration;
        double at = t;
        for (const auto &[tid, part, what] : {std::tuple{kWrite, s.write_duration, "write"},
                 std::tuple{kLoadInput, input, "load input"}, std::tuple{kLoadKernels, s.kernel_load_duration, "load kernels"},
                 std::tuple{kCompute, s.compute_duration, "compute"}}) {
            if (part > 0)
                events.push_back(
                    span(tid, std::string(what) + " " + (s.drain ? std::string("(drain)") : std::to_string(i + 1)), at, part));
            at += part;
        }
        t += s.duration();
        events.push_back(Json{{"ph", "C"}, {"pid", kPid}, {"tid", kCounters}, {"name", "footprint"}, {"ts", t},
            {"args", {{"input", s.after.input}, {"kernels", s.after.kernels}, {"output", s.after.output}}}});
    }
    events.push_back(Json{{"ph", "C"}, {"pid", kPid}, {"tid", kCounters}, {"name", "capacity"}, {"ts", t},
        {"args", {{"mem_size", problem.hardware.mem_size}}}});

    const Json other{{"generator", "convoffload"}, {"time_unit", "one cost unit = 1 us"},
        {"layer", layerToJsonValue(problem.layer)}, {"hardware", hardwareToJsonValue(problem.hardware)},
        {"strategy", {{"name", spec.name}, {"kind", strategyKindName(spec.kind)}}}, {"total_duration", result.totalDuration()},
        {"valid", result.valid()}};
    // One event a line: a long trace stays readable and diffable.
    std::ostringstream out;
    out << "{\"displayTimeUnit\": \"ms\",\n\"otherData\": " << other.dump() << ",\n\"traceEvents\": [\n";
    for (std::size_t i = 0; i < events.size(); ++i)
        out << events[i].dump() << (i + 1 < events.size() ? ",\n" : "\n");
    out << "]}\n";
    return out.str();
}

} // namespace convoffload
