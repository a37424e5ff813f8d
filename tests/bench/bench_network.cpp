// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench-network: import a ResNet-18-shaped ONNX model (224×224
// input, 20 convolutions, 11.7 M weights, made by tools/onnx-networks) and
// analyse every layer (the S1 heuristics and the kernel-blocked family), as
// `convoffload-cli import-onnx` and `network` do. Target: import + analysis
// under 5 s on the 2-core machine.
//
// Prints, per phase, the best of --runs runs (default 3): model generation
// (not counted), file import (read, parse, shape inference, quantisation),
// the network project, the analysis of every layer (and per layer: shape,
// candidates tried, best, its time). Exit 1 above the target.
//
// Usage: convoffload-bench-network [--runs N] [--mem-size N] [--nbop-pe N]
#include "convoffload/io/NetworkReport.h"
#include "convoffload/onnx/OnnxNetwork.h"

#include "NetworkModels.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace convoffload;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

} // namespace

int main(int argc, char *argv[])
{
    int runs = 3;
    Accelerator accelerator;
    accelerator.hardware.mem_size = 1000000; // elements: layer4's 2.4 M kernel elements do not fit
    accelerator.hardware.nbop_pe = 1048576;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--mem-size"))
            accelerator.hardware.mem_size = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--nbop-pe"))
            accelerator.hardware.nbop_pe = std::atoll(argv[i + 1]);
    }

    auto start = Clock::now();
    const std::string bytes = samples::resnet18Model();
    const double generate = secondsSince(start);
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "convoffload-bench-resnet18.onnx";
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));

    double bestImport = 1e300, bestAnalysis = 1e300, bestTotal = 1e300;
    NetworkAnalysis analysis;
    std::vector<double> layerSeconds;
    for (int run = 0; run < runs; ++run) {
        start = Clock::now();
        const NetworkImport imported = importOnnx(path.string());
        const Network network = networkFromImport(imported, accelerator, true, "resnet18.onnx");
        const double import = secondsSince(start);
        const auto analysisStart = Clock::now();
        NetworkAnalysis a;
        std::vector<double> perLayer;
        a.skipped = network.skipped;
        for (std::size_t i = 0; i < network.layers.size(); ++i) {
            const auto layerStart = Clock::now();
            a.layers.push_back(analyseLayer(network.layers[i].name, network.problemOf(i), network.layers[i].strategies));
            perLayer.push_back(secondsSince(layerStart));
        }
        summariseNetwork(a);
        const double analysed = secondsSince(analysisStart);
        bestImport = std::min(bestImport, import);
        bestAnalysis = std::min(bestAnalysis, analysed);
        if (import + analysed < bestTotal) {
            bestTotal = import + analysed;
            analysis = a;
            layerSeconds = perLayer;
        }
    }
    std::filesystem::remove(path);

    std::printf("convoffload-bench-network: ResNet-18 shaped, 3x224x224 input, %zu convolutions, model %.1f MB\n",
        analysis.layers.size(), double(bytes.size()) / 1e6);
    std::printf("hardware: mem_size %lld elements, nbop_pe %lld MACs; best of %d runs\n\n",
        static_cast<long long>(accelerator.hardware.mem_size), static_cast<long long>(accelerator.hardware.nbop_pe), runs);
    std::printf("%-18s %-22s %4s %5s %-44s %12s %9s\n", "layer", "shape", "fit", "tried", "best", "duration", "time");
    for (std::size_t i = 0; i < analysis.layers.size(); ++i) {
        const LayerAnalysis &l = analysis.layers[i];
        const Layer &s = l.problem.layer;
        char shape[64];
        std::snprintf(shape, sizeof shape, "%dx%dx%d*%dx%dx%d s%d", s.c_in, s.h_in, s.w_in, s.n, s.h_k, s.w_k, s.stride_h);
        const LayerCandidate *b = l.bestCandidate();
        std::printf("%-18s %-22s %4s %5zu %-44s %12.0f %7.1f ms\n", l.name.c_str(), shape, l.kernels_fit ? "yes" : "no",
            l.candidates.size(), b ? b->row.name.c_str() : "(none valid)", l.duration(), 1e3 * layerSeconds[i]);
    }
    std::printf("\nnetwork total duration %.0f (%lld layers without a valid strategy)\n", analysis.total_duration,
        static_cast<long long>(analysis.layers_without_valid));
    std::printf("generate model (not counted) %8.1f ms\n", 1e3 * generate);
    std::printf("import (read, parse, infer)  %8.1f ms\n", 1e3 * bestImport);
    std::printf("analysis of every layer      %8.1f ms\n", 1e3 * bestAnalysis);
    std::printf("import + analysis            %8.1f ms  (target < 5000 ms)\n", 1e3 * bestTotal);
    const bool met = bestTotal < 5.0;
    std::printf("bench: %s\n", met ? "target met" : "TARGET MISSED");
    return met ? 0 : 1;
}
