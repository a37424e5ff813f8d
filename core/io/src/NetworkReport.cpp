// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/NetworkReport.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/Report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace convoffload {

namespace {

using Json = nlohmann::ordered_json;

/// Durations as integers when they are whole, as the other reports print them.
Json number(double v)
{
    if (v == double(std::int64_t(v)))
        return std::int64_t(v);
    return v;
}

std::string numberText(double v)
{
    if (v == double(std::int64_t(v)))
        return std::to_string(std::int64_t(v));
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

double share(const NetworkAnalysis &a, const LayerAnalysis &l)
{
    return a.total_duration > 0 ? l.duration() / a.total_duration : 0.0;
}

Json bestToJson(const LayerCandidate &c)
{
    const CompareRow &r = c.row;
    Json j{{"strategy", r.name}, {"kind", r.kind}, {"total_duration", number(r.total_duration)}, {"valid", r.valid}};
    if (r.group_size > 0)
        j["group_size"] = r.group_size;
    if (c.spec.kind == StrategyKind::KernelBlocked) {
        j["kernel_block"] = c.spec.kernel_block.value_or(0);
        j["order"] = patchOrderName(c.spec.order);
        j["loop"] = kernelLoopName(c.spec.loop);
    }
    j["steps"] = r.steps;
    j["loaded_input"] = r.loaded_input;
    j["loaded_kernels"] = r.loaded_kernels;
    j["written"] = r.written;
    j["peak_footprint"] = r.peak_footprint;
    j["errors"] = r.errors;
    j["warnings"] = r.warnings;
    j["broken_assumptions"] = c.broken;
    const Verdict verdict = verdictOf(r);
    j["status"] = strategyStatusName(verdict.status);
    j["verdict"] = verdictText(verdict);
    j["reload_pixels"] = r.reload_pixels;
    j["reload_kernels"] = r.reload_kernels;
    return j;
}

/// Why a layer has no valid strategy: every candidate's failure or first error.
Json whyNoneValid(const LayerAnalysis &l)
{
    Json reasons = Json::array();
    for (const LayerCandidate &c : l.candidates)
        reasons.push_back(c.row.name + ": "
            + (!c.row.failure.empty()  ? c.row.failure
                    : c.broken.empty() ? "invalid"
                                       : c.broken.front()));
    return reasons;
}

std::string shapeText(const Layer &l)
{
    std::ostringstream out;
    out << l.c_in << 'x' << l.h_in << 'x' << l.w_in << " * " << l.n << 'x' << l.h_k << 'x' << l.w_k << " s" << l.stride_h;
    if (l.stride_w != l.stride_h)
        out << ',' << l.stride_w;
    out << " p" << l.pad_top << l.pad_bottom << l.pad_left << l.pad_right;
    // Only when not 1, as the project file writes them: a dense layer reads as before.
    if (l.group != 1)
        out << " g=" << l.group;
    if (l.dilation_h != 1 || l.dilation_w != 1)
        out << " d=" << l.dilation_h << 'x' << l.dilation_w;
    return out.str();
}

/// The reasons of the skipped convolutions, in graph order.
std::vector<std::string> skippedReasons(const NetworkAnalysis &a)
{
    std::vector<std::string> reasons;
    for (const SkippedConv &s : a.skipped)
        reasons.push_back(s.reason);
    return reasons;
}

/// "35 of 52 convolutions": the layers analysed of the model's convolutions.
std::string convolutionsText(const NetworkAnalysis &a)
{
    return std::to_string(a.layers.size()) + " of " + std::to_string(a.convolutions()) + " convolutions";
}

} // namespace

nlohmann::ordered_json networkToReportJson(const NetworkAnalysis &a)
{
    Json layers = Json::array();
    for (const LayerAnalysis &l : a.layers) {
        const Layer &s = l.problem.layer;
        Json j{{"name", l.name}, {"c_in", s.c_in}, {"h_in", s.h_in}, {"w_in", s.w_in}, {"n", s.n}, {"h_k", s.h_k}, {"w_k", s.w_k},
            {"stride_h", s.stride_h}, {"stride_w", s.stride_w}, {"pad_top", s.pad_top}, {"pad_bottom", s.pad_bottom},
            {"pad_left", s.pad_left}, {"pad_right", s.pad_right}};
        // Written only when not 1, as the project file's layer (layerJson) does.
        if (s.group != 1)
            j["group"] = s.group;
        if (s.dilation_h != 1)
            j["dilation_h"] = s.dilation_h;
        if (s.dilation_w != 1)
            j["dilation_w"] = s.dilation_w;
        j["h_out"] = s.hOut();
        j["w_out"] = s.wOut();
        j["kernels_fit"] = l.kernels_fit;
        j["nb_patches_max"] = l.nb_patches_max;
        if (const LayerCandidate *best = l.bestCandidate()) {
            j["best"] = bestToJson(*best);
        } else {
            j["best"] = nullptr;
            j["why_none_valid"] = whyNoneValid(l);
        }
        Json families = Json::object(); // the network chart's bars
        for (const StrategyFamily f : kStrategyFamilies)
            if (const LayerCandidate *c = l.bestOf(f))
                families[strategyFamilyName(f)] = bestToJson(*c);
        j["best_per_family"] = families;
        j["share"] = share(a, l);
        j["candidates"] = l.candidates.size();
        layers.push_back(j);
    }
    Json skipped = Json::array();
    for (const SkippedConv &s : a.skipped)
        skipped.push_back(Json{{"node", s.node}, {"reason", s.reason}});
    Json dominating = Json::array();
    for (const std::size_t i : a.dominating)
        dominating.push_back(Json{
            {"name", a.layers[i].name}, {"total_duration", number(a.layers[i].duration())}, {"share", share(a, a.layers[i])}});
    Json byReason = Json::object();
    for (const auto &[category, count] : skippedCategoryCounts(skippedReasons(a)))
        byReason[category] = count;
    return Json{{"layers", layers}, {"skipped", skipped}, {"total_duration", number(a.total_duration)},
        {"complete", a.complete()}, {"layers_without_valid", a.layers_without_valid}, {"dominating", dominating},
        {"convolutions", a.convolutions()}, {"imported", a.layers.size()}, {"skipped_by_reason", byReason}};
}

std::string networkToReportCsv(const NetworkAnalysis &a)
{
    std::ostringstream out;
    out << "layer,c_in,h_in,w_in,n,h_k,w_k,stride_h,stride_w,pad_top,pad_bottom,pad_left,pad_right,group,dilation_h,"
           "dilation_w,kernels_fit,best,kind,group_size,kernel_block,loop,valid,total_duration,loaded_input,loaded_kernels,"
           "written,peak_footprint,share\n";
    for (const LayerAnalysis &l : a.layers) {
        const Layer &s = l.problem.layer;
        out << csvField(l.name) << ',' << s.c_in << ',' << s.h_in << ',' << s.w_in << ',' << s.n << ',' << s.h_k << ',' << s.w_k
            << ',' << s.stride_h << ',' << s.stride_w << ',' << s.pad_top << ',' << s.pad_bottom << ',' << s.pad_left << ','
            << s.pad_right << ',' << s.group << ',' << s.dilation_h << ',' << s.dilation_w << ','
            << (l.kernels_fit ? "yes" : "no") << ',';
        if (const LayerCandidate *b = l.bestCandidate()) {
            const bool blocked = b->spec.kind == StrategyKind::KernelBlocked;
            out << csvField(b->row.name) << ',' << b->row.kind << ',' << b->row.group_size << ','
                << (blocked ? std::to_string(b->spec.kernel_block.value_or(0)) : std::string()) << ','
                << (blocked ? kernelLoopName(b->spec.loop) : std::string()) << ",yes," << numberText(b->row.total_duration) << ','
                << b->row.loaded_input << ',' << b->row.loaded_kernels << ',' << b->row.written << ',' << b->row.peak_footprint;
        } else {
            out << ",,,,,no,,,,,";
        }
        out << ',' << numberText(share(a, l)) << '\n';
    }
    // A row per skipped convolution (kind "skipped", its category as best),
    // then the total over "N of M convolutions".
    for (const SkippedConv &s : a.skipped)
        out << csvField(s.node) << ",,,,,,,,,,,,,,,,," << csvField(skippedCategory(s.reason)) << ",skipped,,,,no,,,,,,\n";
    out << csvField("(total)") << ",,,,,,,,,,,,,,,,," << csvField(convolutionsText(a)) << ",,,,," << (a.complete() ? "yes" : "no")
        << ',' << numberText(a.total_duration) << ",,,,," << numberText(a.total_duration > 0 ? 1.0 : 0.0) << '\n';
    return out.str();
}

std::string networkToReportText(const NetworkAnalysis &a)
{
    std::ostringstream out;
    char line[768];
    std::snprintf(line, sizeof line, "%-18s %-30s %5s %-40s %12s %6s %10s %10s %9s %10s\n", "layer", "shape (CxHxW * NxKxK s p)",
        "fit", "best strategy", "duration", "share", "loads", "writes", "peak", "warnings");
    out << line;
    for (const LayerAnalysis &l : a.layers) {
        const LayerCandidate *b = l.bestCandidate();
        // Names come from the file (an ONNX model's nodes): escaped (printable).
        std::snprintf(line, sizeof line, "%-18s %-30s %5s %-40s %12s %5.1f%% %10lld %10lld %9lld %10lld\n",
            printable(l.name).c_str(), shapeText(l.problem.layer).c_str(), l.kernels_fit ? "yes" : "NO",
            b ? printable(b->row.name).c_str() : "(none valid)", b ? numberText(b->row.total_duration).c_str() : "-",
            100.0 * share(a, l), static_cast<long long>(b ? b->row.loaded_input + b->row.loaded_kernels : 0),
            static_cast<long long>(b ? b->row.written : 0), static_cast<long long>(b ? b->row.peak_footprint : 0),
            static_cast<long long>(b ? verdictOf(b->row).plain_warnings : 0));
        out << line;
        if (b) {
            const Verdict verdict = verdictOf(b->row);
            if (verdict.status != StrategyStatus::MeetsAssumptions)
                out << "    " << verdictText(verdict) << "\n";
            for (const std::string &broken : b->broken)
                out << "      first " << printable(broken) << "\n";
        } else {
            for (const auto &why : whyNoneValid(l))
                out << "    " << printable(why.get<std::string>()) << "\n";
        }
    }
    out << "total duration: " << numberText(a.total_duration);
    if (!a.complete()) {
        out << " (incomplete: ";
        if (!a.skipped.empty())
            out << a.skipped.size() << " of " << a.convolutions() << " convolutions skipped by the import"
                << (a.layers_without_valid > 0 ? ", " : "");
        if (a.layers_without_valid > 0)
            out << a.layers_without_valid << (a.layers_without_valid == 1 ? " layer has" : " layers have")
                << " no valid strategy";
        out << ")";
    }
    out << "\n" << convolutionsText(a);
    if (!a.skipped.empty())
        out << "; skipped: " << skippedCountsText(skippedReasons(a));
    out << "\n";
    if (!a.dominating.empty()) {
        out << "dominated by:";
        for (const std::size_t i : a.dominating) {
            std::snprintf(line, sizeof line, " %s (%.1f%%)", printable(a.layers[i].name).c_str(), 100.0 * share(a, a.layers[i]));
            out << line;
        }
        out << "\n";
    }
    for (const SkippedConv &s : a.skipped)
        out << "skipped " << printable(s.node) << ": " << printable(s.reason) << "\n";
    return out.str();
}

} // namespace convoffload
