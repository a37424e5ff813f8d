// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/Report.h"

#include "convoffload/io/FormatError.h"

#include <csv.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

namespace convoffload {

namespace {

nlohmann::ordered_json diagnosticToJson(const Diagnostic &d)
{
    nlohmann::ordered_json j{{"rule", std::string(ruleName(d.rule))}, {"step", d.step}, {"message", d.message}};
    if (d.has_action)
        j["action"] = std::string(actionIdentifier(d.action));
    if (!d.element.empty())
        j["element"] = d.element;
    return j;
}

/// Durations are printed as integers when they are whole, as users expect.
nlohmann::ordered_json number(double v)
{
    if (v == double(std::int64_t(v)))
        return std::int64_t(v);
    return v;
}

/// What a diagnostic is called in text: the reload bound's findings are about
/// the paper's assumption, not plain warnings.
const char *diagnosticLabel(const Diagnostic &d)
{
    if (d.severity == Severity::Error)
        return "error: ";
    return d.rule == Rule::ReloadBound ? "assumption: " : "warning: ";
}

/// The reload check without its patch list, which can hold a million ids.
nlohmann::ordered_json reloadSummaryToJson(const ReloadCheck &reload)
{
    return {{"max_loads_per_element", reload.bound}, {"met", reload.met()}, {"pixels", reload.pixels},
        {"kernels", reload.kernels}, {"patches", reload.patches.size()}};
}

nlohmann::ordered_json reloadToJson(const ReloadCheck &reload)
{
    nlohmann::ordered_json j = reloadSummaryToJson(reload);
    j["patch_ids"] = reload.patches;
    return j;
}

/// `object`'s members as nlohmann's dump(2) writes them `depth` objects
/// deep, without the braces: "\n<indent>\"key\": value,...". Strings in a
/// dump never hold a raw newline, so indenting after each one is safe.
std::string membersText(const nlohmann::ordered_json &object, int depth)
{
    const std::string text = object.dump(2);
    const std::string indent(std::size_t(2 * depth), ' ');
    std::string members;
    members.reserve(text.size() + text.size() / 8);
    for (std::size_t i = 1; i + 2 < text.size(); ++i) { // between "{" and "\n}"
        members += text[i];
        if (text[i] == '\n')
            members += indent;
    }
    return members;
}

/// `ids` as one line, "[3,17,18]": a million ids, one per indented line as
/// dump(2) writes them, made `simulate --json` 16.5 MB instead of 10 MB, and
/// writing it out cost more than simulating.
void appendIdsText(std::string &out, const std::vector<PatchId> &ids)
{
    out += '[';
    char number[16];
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0)
            out += ',';
        const auto [end, ec] = std::to_chars(number, number + sizeof number, ids[i]);
        out.append(number, end);
    }
    out += ']';
}

std::string groupSizeText(const CompareRow &r) { return r.group_size > 0 ? std::to_string(r.group_size) : std::string("-"); }

} // namespace

std::string formatNumber(double v)
{
    if (std::abs(v) < 9e15 && v == double(std::int64_t(v)))
        return std::to_string(std::int64_t(v));
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

nlohmann::ordered_json problemSummary(const Problem &problem)
{
    const Layer &l = problem.layer;
    return {{"input", {l.c_in, l.h_in, l.w_in}}, {"output", {l.n, l.hOut(), l.wOut()}}, {"patches", l.patchCount()},
        {"nb_patches_max", problem.nbPatchesMax()}, {"k_min", problem.kMin()}, {"k_max", problem.kMax()},
        {"mem_size", problem.hardware.mem_size},
        {"layer_elements", l.pixelCount() * l.c_in + l.kernelElements() * l.n + l.outputCount()}};
}

namespace {

/// One step's row of "per_step".
nlohmann::ordered_json stepToJson(const StepStats &s, bool transferModel)
{
    nlohmann::ordered_json row{{"loaded_input", s.loaded_input}, {"loaded_kernels", s.loaded_kernels},
        {"freed_input", s.freed_input}, {"written", s.written}, {"computed", s.computed}, {"footprint", s.peak_footprint},
        {"duration", number(s.duration())}, {"drain", s.drain}};
    if (transferModel) { // docs/reference/model.md#transfer-cost
        row["load_runs"] = s.load_runs;
        row["load_bursts"] = s.load_bursts;
        row["write_runs"] = s.write_runs;
        row["write_bursts"] = s.write_bursts;
        row["setup_duration"] = number(s.setup_duration);
    }
    return row;
}

/// `v` as number(v) dumps: an integer when whole, else nlohmann's double.
void appendNumber(std::string &out, double v)
{
    if (v == double(std::int64_t(v))) {
        char digits[24];
        const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, std::int64_t(v));
        out.append(digits, end);
    } else {
        out += nlohmann::ordered_json(v).dump();
    }
}

void appendMember(std::string &out, const char *key, std::int64_t value, bool first = false)
{
    out += first ? "\n      \"" : ",\n      \"";
    out += key;
    out += "\": ";
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end);
}

/// "per_step" byte for byte as dump(2) writes stepToJson's rows one object
/// deep, written straight into the text: a json tree of every row (16 k
/// steps, 130 k nodes), its dump and its destruction cost `simulate --json`
/// more than the simulation itself.
void appendStepsText(std::string &out, const SimulationResult &result)
{
    if (result.steps.empty()) {
        out += "[]";
        return;
    }
    out += '[';
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const StepStats &s = result.steps[i];
        out += i > 0 ? ",\n    {" : "\n    {";
        appendMember(out, "loaded_input", s.loaded_input, true);
        appendMember(out, "loaded_kernels", s.loaded_kernels);
        appendMember(out, "freed_input", s.freed_input);
        appendMember(out, "written", s.written);
        appendMember(out, "computed", s.computed);
        appendMember(out, "footprint", s.peak_footprint);
        out += ",\n      \"duration\": ";
        appendNumber(out, s.duration());
        out += s.drain ? ",\n      \"drain\": true" : ",\n      \"drain\": false";
        if (result.transfer_model) { // docs/reference/model.md#transfer-cost
            appendMember(out, "load_runs", s.load_runs);
            appendMember(out, "load_bursts", s.load_bursts);
            appendMember(out, "write_runs", s.write_runs);
            appendMember(out, "write_bursts", s.write_bursts);
            out += ",\n      \"setup_duration\": ";
            appendNumber(out, s.setup_duration);
        }
        out += "\n    }";
    }
    out += "\n  ]";
}

/// simulationToJson's members before "reload_assumption", and after it;
/// "per_step" is null when `perStep` is false (written as text by the caller).
std::pair<nlohmann::ordered_json, nlohmann::ordered_json> simulationJsonParts(
    const Problem &problem, const std::string &name, const SimulationResult &result, bool withSteps = true)
{
    nlohmann::ordered_json errors = nlohmann::ordered_json::array(), warnings = nlohmann::ordered_json::array(),
                           perStep = nlohmann::ordered_json::array();
    for (const Diagnostic &d : result.diagnostics)
        (d.severity == Severity::Error ? errors : warnings).push_back(diagnosticToJson(d));
    if (withSteps)
        for (const StepStats &s : result.steps)
            perStep.push_back(stepToJson(s, result.transfer_model));
    else
        perStep = nullptr;
    nlohmann::ordered_json head{{"strategy", name}, {"valid", result.valid()}, {"errors", errors}, {"warnings", warnings},
        {"error_count", result.error_count}, {"warning_count", result.warning_count}, {"steps", result.computeSteps()},
        {"total_duration", number(result.totalDuration())}, {"loaded_input", result.loadedInput()},
        {"loaded_kernels", result.loadedKernels()}, {"written", result.written()}, {"peak_footprint", result.peakFootprint()},
        {"functional_check", functionalStatusName(result.functional.status)}, {"layer", problemSummary(problem)},
        {"per_step", perStep}};
    if (result.transfer_model) {
        head["transfer_runs"] = result.transferRuns();
        head["setup_duration"] = number(result.setupDuration());
    }
    const Verdict verdict = verdictOf(result);
    head["status"] = strategyStatusName(verdict.status);
    head["verdict"] = verdictText(verdict);
    nlohmann::ordered_json tail{{"plain_warning_count", verdict.plain_warnings}};
    if (result.functional.status == FunctionalStatus::Fail)
        tail["functional_message"] = result.functional.message;
    return {std::move(head), std::move(tail)};
}

} // namespace

nlohmann::ordered_json simulationToJson(const Problem &problem, const std::string &name, const SimulationResult &result)
{
    auto [j, tail] = simulationJsonParts(problem, name, result);
    j["reload_assumption"] = reloadToJson(result.reload);
    for (auto it = tail.begin(); it != tail.end(); ++it)
        j[it.key()] = std::move(*it);
    return j;
}

std::string simulationToJsonText(const Problem &problem, const std::string &name, const SimulationResult &result)
{
    // As simulationToJson(...).dump(2) + "\n", but the patch list, up to one
    // id per patch, is written straight into the text on one line: a json
    // node per id cost a fifth of `simulate --json` on a million-patch layer.
    const auto [head, tail] = simulationJsonParts(problem, name, result, false);
    std::string text(1, '{');
    // The rows go where the placeholder is: a key at the start of a line,
    // which no string of the dump can hold (strings have no raw newline).
    const std::string members = membersText(head, 0);
    const std::string placeholder = "\n  \"per_step\": null";
    const std::size_t at = members.find(placeholder);
    text.reserve(members.size() + result.steps.size() * 230 + result.reload.patches.size() * 11 + 4096);
    text.append(members, 0, at + placeholder.size() - 4);
    appendStepsText(text, result);
    text.append(members, at + placeholder.size());
    text += ",\n  \"reload_assumption\": {";
    text += membersText(reloadSummaryToJson(result.reload), 1);
    text += ",\n    \"patch_ids\": ";
    appendIdsText(text, result.reload.patches);
    text += "\n  },";
    text += membersText(tail, 0);
    text += "\n}\n";
    return text;
}

std::string simulationToText(const Problem &problem, const std::string &name, const SimulationResult &result)
{
    std::ostringstream out;
    out << "strategy        " << printable(name) << "\n"
        << "valid           " << (result.valid() ? "yes" : "no") << "\n"
        << "verdict         " << verdictSummary(verdictOf(result)) << "\n"
        << "reload bound    " << reloadAssumptionRule(problem.hardware.max_loads_per_element)
        << (result.reload.met() ? ": met" : ": broken on " + std::to_string(result.reload.patches.size()) + " patches") << "\n"
        << "steps           " << result.computeSteps() << " (+1 drain; K_min " << problem.kMin() << ", K_max " << problem.kMax()
        << ")\n"
        << "total duration  " << formatNumber(result.totalDuration()) << "\n"
        << "loaded input    " << result.loadedInput() << " elements\n"
        << "loaded kernels  " << result.loadedKernels() << " elements\n"
        << "written         " << result.written() << " elements\n"
        << "peak footprint  " << result.peakFootprint() << " / " << problem.hardware.mem_size << " elements\n"
        << "functional      " << functionalStatusName(result.functional.status);
    if (!result.functional.message.empty())
        out << " (" << result.functional.message << ")";
    out << "\n";
    out << "\n  step   loaded(in)  loaded(ker)  freed(in)  written  computed  footprint   duration\n";
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const StepStats &st = result.steps[i];
        char line[160];
        std::snprintf(line, sizeof line, "%6s %12lld %12lld %10lld %8lld %9lld %10lld %10s\n",
            st.drain ? "drain" : std::to_string(i + 1).c_str(), static_cast<long long>(st.loaded_input),
            static_cast<long long>(st.loaded_kernels), static_cast<long long>(st.freed_input), static_cast<long long>(st.written),
            static_cast<long long>(st.computed), static_cast<long long>(st.peak_footprint), formatNumber(st.duration()).c_str());
        out << line;
    }
    out << "  (element counts; footprint = peak over the step's actions)\n";
    for (const Diagnostic &d : result.diagnostics)
        out << diagnosticLabel(d) << d.message << "\n";
    if (result.suppressed_diagnostics > 0)
        out << "(" << result.suppressed_diagnostics << " more diagnostics not listed)\n";
    return out.str();
}

namespace {

nlohmann::ordered_json rowToJson(const CompareRow &r)
{
    nlohmann::ordered_json j{{"strategy", r.name}, {"kind", r.kind},
        {"group_size", r.group_size > 0 ? nlohmann::ordered_json(r.group_size) : nlohmann::ordered_json()}, {"valid", r.valid},
        {"steps", r.steps}, {"total_duration", number(r.total_duration)}, {"loaded_input", r.loaded_input},
        {"loaded_kernels", r.loaded_kernels}, {"written", r.written}, {"peak_footprint", r.peak_footprint}, {"errors", r.errors},
        {"warnings", r.warnings}, {"functional_check", functionalStatusName(r.functional)}};
    if (r.transfer_model && r.failure.empty()) {
        j["transfer_runs"] = r.transfer_runs;
        j["setup_share"] = number(r.total_duration > 0 ? r.setup_duration / r.total_duration : 0.0);
    }
    if (!r.failure.empty()) {
        j["failure"] = r.failure;
    } else {
        const Verdict verdict = verdictOf(r);
        j["status"] = strategyStatusName(verdict.status);
        j["verdict"] = verdictText(verdict);
        j["reload_pixels"] = r.reload_pixels;
        j["reload_kernels"] = r.reload_kernels;
        j["plain_warnings"] = verdict.plain_warnings;
    }
    return j;
}

} // namespace

nlohmann::ordered_json compareToJson(const Problem &problem, const std::vector<CompareRow> &rows)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    const CompareRow *best = nullptr;
    for (const CompareRow &r : rows) {
        list.push_back(rowToJson(r));
        if (r.failure.empty() && r.valid && (!best || r.total_duration < best->total_duration))
            best = &r;
    }
    return {{"layer", problemSummary(problem)}, {"strategies", list},
        {"best", best ? nlohmann::ordered_json(best->name) : nlohmann::ordered_json()}};
}

std::string csvField(const std::string &text)
{
    const bool plain
        = text.find_first_of(",;\"\r\n") == std::string::npos && (text.empty() || (text.front() != ' ' && text.back() != ' '));
    if (plain)
        return text;
    std::string out(text.size() * 2 + 2, '\0');
    out.resize(csv_write(out.data(), out.size(), text.data(), text.size()));
    return out;
}

std::string compareToCsv(const std::vector<CompareRow> &rows)
{
    std::ostringstream out;
    // With a transfer model, two more columns (docs/reference/cli.md#compare).
    const bool transfer = std::any_of(rows.begin(), rows.end(), [](const CompareRow &r) { return r.transfer_model; });
    out << "strategy,kind,group_size,valid,steps,total_duration,loaded_input,loaded_kernels,written,peak_footprint,errors,"
           "warnings,"
           "functional_check,status,reload_pixels,reload_kernels"
        << (transfer ? ",transfer_runs,setup_share" : "") << '\n';
    for (const CompareRow &r : rows) {
        out << csvField(r.name) << ',' << r.kind << ',' << (r.group_size > 0 ? std::to_string(r.group_size) : std::string())
            << ',' << (r.failure.empty() ? (r.valid ? "yes" : "no") : "failed") << ',' << r.steps << ','
            << formatNumber(r.total_duration) << ',' << r.loaded_input << ',' << r.loaded_kernels << ',' << r.written << ','
            << r.peak_footprint << ',' << r.errors << ',' << r.warnings << ',' << functionalStatusName(r.functional) << ','
            << (r.failure.empty() ? strategyStatusName(verdictOf(r).status) : std::string("failed")) << ',' << r.reload_pixels
            << ',' << r.reload_kernels;
        if (transfer)
            out << ',' << r.transfer_runs << ','
                << formatNumber(r.total_duration > 0 ? r.setup_duration / r.total_duration : 0.0);
        out << '\n';
    }
    return out.str();
}

std::string compareToText(const std::vector<CompareRow> &rows)
{
    std::ostringstream out;
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %-12s %5s %6s %6s %12s %10s %10s %6s %-6s %s\n", "strategy", "kind", "G", "valid",
        "steps", "duration", "loaded", "peak", "warn", "check", "verdict");
    out << line;
    for (const CompareRow &r : rows) {
        if (!r.failure.empty()) {
            out << printable(r.name) << ": " << printable(r.failure) << "\n";
            continue;
        }
        const Verdict verdict = verdictOf(r);
        // A name comes from the project file: escaped (printable).
        std::snprintf(line, sizeof line, "%-20s %-12s %5s %6s %6d %12s %10lld %10lld %6lld %-6s %s\n", printable(r.name).c_str(),
            r.kind.c_str(), groupSizeText(r).c_str(), r.valid ? "yes" : "NO", r.steps, formatNumber(r.total_duration).c_str(),
            static_cast<long long>(r.loaded_input), static_cast<long long>(r.peak_footprint),
            static_cast<long long>(verdict.plain_warnings), functionalStatusName(r.functional).c_str(),
            verdictText(verdict).c_str());
        out << line;
    }
    return out.str();
}

nlohmann::ordered_json sweepToJson(const Problem &problem, const std::vector<SweepRow> &rows)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const SweepRow &r : rows)
        list.push_back({{"group_size", r.group_size}, {"row_by_row", rowToJson(r.row_by_row)}, {"zigzag", rowToJson(r.zigzag)}});
    return {{"layer", problemSummary(problem)}, {"sweep", list}};
}

std::string sweepToCsv(const std::vector<SweepRow> &rows)
{
    std::ostringstream out;
    out << "group_size,row_by_row_duration,row_by_row_valid,row_by_row_peak,zigzag_duration,zigzag_valid,zigzag_peak\n";
    for (const SweepRow &r : rows)
        out << r.group_size << ',' << formatNumber(r.row_by_row.total_duration) << ',' << (r.row_by_row.valid ? "yes" : "no")
            << ',' << r.row_by_row.peak_footprint << ',' << formatNumber(r.zigzag.total_duration) << ','
            << (r.zigzag.valid ? "yes" : "no") << ',' << r.zigzag.peak_footprint << '\n';
    return out.str();
}

std::string sweepToText(const std::vector<SweepRow> &rows)
{
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%5s %14s %10s %14s %10s  %s\n", "G", "Row-by-Row", "peak", "ZigZag", "peak", "best");
    out << line;
    for (const SweepRow &r : rows) {
        const auto cell = [](const CompareRow &c) { return formatNumber(c.total_duration) + (c.valid ? "" : "*"); };
        const char *best = r.row_by_row.total_duration < r.zigzag.total_duration ? "Row-by-Row"
            : r.zigzag.total_duration < r.row_by_row.total_duration              ? "ZigZag"
                                                                                 : "tie";
        std::snprintf(line, sizeof line, "%5lld %14s %10lld %14s %10lld  %s\n", static_cast<long long>(r.group_size),
            cell(r.row_by_row).c_str(), static_cast<long long>(r.row_by_row.peak_footprint), cell(r.zigzag).c_str(),
            static_cast<long long>(r.zigzag.peak_footprint), best);
        out << line;
    }
    out << "(* = invalid on this hardware: see compare/simulate for the reasons)\n";
    return out.str();
}

} // namespace convoffload
