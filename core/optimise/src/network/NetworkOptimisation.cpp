// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/NetworkOptimisation.h"

#include <algorithm>

namespace convoffload {

namespace {

std::string uniqueName(const LayerAnalysis &layer, const std::string &base)
{
    const auto taken = [&](const std::string &name) {
        return std::any_of(
            layer.candidates.begin(), layer.candidates.end(), [&](const LayerCandidate &c) { return c.spec.name == name; });
    };
    std::string name = base;
    for (int n = 2; taken(name); ++n)
        name = base + " " + std::to_string(n);
    return name;
}

} // namespace

bool layerOptimisable(const LayerAnalysis &layer) { return layer.kernels_fit && layer.nb_patches_max >= 1; }

std::string layerSkipReason(const LayerAnalysis &layer)
{
    if (!layer.kernels_fit)
        return "its kernels do not fit beside one patch and are streamed, and the network's optimiser improves S1 "
               "strategies only; Optimise Strategy\u2026 on the layer searches its kernel-blocked strategies";
    if (layer.nb_patches_max < 1)
        return "nbop_pe cannot compute one patch (nb_patches_max = 0)";
    return {};
}

std::vector<double> networkTimeShares(const NetworkAnalysis &analysis, double total)
{
    double weight = 0;
    for (const LayerAnalysis &l : analysis.layers)
        if (layerOptimisable(l))
            weight += std::max(1.0, l.duration());
    std::vector<double> shares(analysis.layers.size(), 0.0);
    for (std::size_t i = 0; i < analysis.layers.size(); ++i)
        if (layerOptimisable(analysis.layers[i]))
            shares[i] = std::max(0.05, total * std::max(1.0, analysis.layers[i].duration()) / weight);
    return shares;
}

NetworkOptimisation optimiseNetwork(NetworkAnalysis &analysis, const NetworkOptimiseOptions &options)
{
    const std::vector<double> shares = networkTimeShares(analysis, options.time_limit_s);
    NetworkOptimisation out;
    out.planned = std::size_t(std::count_if(analysis.layers.begin(), analysis.layers.end(), layerOptimisable));
    std::size_t position = 0;
    for (std::size_t i = 0; i < analysis.layers.size(); ++i) {
        LayerAnalysis &l = analysis.layers[i];
        if (!layerOptimisable(l)) {
            out.skipped.push_back({i, layerSkipReason(l)});
            continue;
        }
        if (options.cancel && options.cancel->load()) {
            out.cancelled = true;
            break;
        }
        ++position;
        LayerOptimisation result;
        result.layer = i;
        result.time_limit_s = shares[i];
        NetworkOptimiseProgress where{i, position, out.planned, shares[i], {}};
        if (options.progress)
            options.progress(where);
        OptimiseRequest request = options.request;
        request.method = OptimiseMethod::Search;
        OptimiseControl control;
        control.time_limit_s = shares[i];
        control.cancel = options.cancel;
        if (options.progress)
            control.progress = [&](const OptimiseProgress &p) {
                where.progress = p;
                options.progress(where);
            };
        try {
            const OptimiseReport report = optimise(l.problem, request, control);
            result.cancelled = report.result.cancelled;
            if (report.result.hasSolution()) {
                const double before = l.duration();
                const bool hadBest = l.bestCandidate() != nullptr;
                considerCandidate(l, toStrategy(report, uniqueName(l, options.strategy_name)));
                const LayerCandidate &added = l.candidates.back();
                result.strategy = added.spec;
                if (added.row.valid && added.row.failure.empty())
                    result.duration = added.row.total_duration;
                result.improved = l.bestCandidate() == &added && (!hadBest || added.row.total_duration < before);
            }
        } catch (const InstanceError &e) {
            result.note = e.what();
        }
        out.layers.push_back(std::move(result));
        if (out.layers.back().cancelled)
            out.cancelled = true;
    }
    summariseNetwork(analysis);
    return out;
}

} // namespace convoffload
