// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/explore/Exploration.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/NetworkAnalysis.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace convoffload {

namespace {

/// FNV-1a, 64 bits: stable across compilers and machines (std::hash is not),
/// which is all a run id needs; it guards against mistakes, not attacks.
std::uint64_t fnv1a(const std::string &bytes, std::uint64_t hash = 14695981039346656037ull)
{
    for (const unsigned char c : bytes) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

} // namespace

std::string exploreRunId(const std::string &targetBytes, const DesignSpace &space, std::int64_t maxPoints,
    const ExploreOptions &options, const std::string &version)
{
    // Each part with its length, so no two different inputs concatenate alike.
    std::string text = "convoffload-explore-1";
    const auto part = [&text](const std::string &p) { text += '\n' + std::to_string(p.size()) + ':' + p; };
    part(version);
    part(targetBytes);
    part(space.canonicalText());
    part(std::to_string(maxPoints));
    char optionsText[160];
    std::snprintf(optionsText, sizeof optionsText, "generate=%d;optimise=%.17g;seed=%llu;moves=%lld", options.generate ? 1 : 0,
        options.optimise_s, static_cast<unsigned long long>(options.seed), static_cast<long long>(options.moves.value_or(0)));
    part(optionsText);
    char id[17];
    std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
    return id;
}

ExploredPoint explorePoint(const Network &target, const DesignSpace &space, std::int64_t point, const ExploreOptions &options)
{
    Network network = target;
    network.hardware = space.hardwareAt(target.hardware, point);

    NetworkAnalysisOptions analysisOptions;
    analysisOptions.generate = options.generate;
    analysisOptions.cancel = options.cancel;
    analysisOptions.threads = options.threads;
    analysisOptions.cache = options.cache;
    NetworkAnalysis analysis = analyseNetwork(network, analysisOptions);
    if (options.optimise_s > 0) {
        NetworkOptimiseOptions optimiseOptions;
        optimiseOptions.time_limit_s = options.optimise_s;
        optimiseOptions.request.seed = options.seed;
        optimiseOptions.request.max_moves = options.moves.value_or(0);
        // One chain: with --moves and a seed the result is then the same on
        // every machine; shards are where an exploration runs in parallel.
        optimiseOptions.request.threads = 1;
        optimiseOptions.cancel = options.cancel;
        const NetworkOptimisation done = optimiseNetwork(analysis, optimiseOptions);
        if (done.cancelled)
            throw Cancelled();
    }

    ExploredPoint result;
    result.point = point;
    result.hardware = network.hardware;
    result.skipped = std::int64_t(analysis.skipped.size());
    result.total_duration = analysis.total_duration;
    result.all_valid = analysis.layers_without_valid == 0;
    for (const LayerAnalysis &l : analysis.layers) {
        ExploredLayer layer;
        layer.name = l.name;
        if (const LayerCandidate *best = l.bestCandidate()) {
            layer.strategy = best->row.name;
            layer.duration = best->row.total_duration;
            layer.peak_footprint = best->row.peak_footprint;
        }
        result.layers.push_back(std::move(layer));
    }
    return result;
}

std::string exploreLine(const std::string &runId, std::int64_t points, const ExploredPoint &result)
{
    using Json = nlohmann::ordered_json;
    Json layers = Json::array();
    for (const ExploredLayer &l : result.layers) {
        Json best = nullptr;
        if (l.strategy)
            best = Json{{"strategy", *l.strategy}, {"total_duration", l.duration}, {"valid", true}};
        layers.push_back(
            Json{{"name", l.name}, {"best", best}, {"peak_footprint", l.strategy ? Json(l.peak_footprint) : Json(nullptr)}});
    }
    const Json line{{"run", runId}, {"point", result.point}, {"points", points},
        {"hardware", hardwareToJsonValue(result.hardware)}, {"layers", layers}, {"skipped", result.skipped},
        {"total_duration", result.total_duration}, {"all_valid", result.all_valid}};
    // Names come from model files: ensure_ascii-free dump, but invalid UTF-8
    // is replaced rather than thrown on.
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace convoffload
