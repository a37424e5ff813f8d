// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench-kernelstream: simulating kernel-blocked strategies
// against S1 on the same layer, per touched element.
//
// Layer: 64x64x16 input, 32 3x3 kernels, stride 1, padding 1 (4096 patches),
// memory generous so every strategy is valid. Strategies: S1 zigzag with G
// = 8, then kernel-blocked zigzag G = 8 with B = 32 (= S1), 16, 4, 1, both
// loops. Each run is expandStrategy + simulate with the action-level trace
// (as the GUI runs it), without the functional check, whose cost is per MAC
// and the same for every strategy. "Touched elements" = the ids every action
// of the step list names (loads, frees, writes, computes, kernels included)
// plus the patch-pixel pairs the expansion walks (|patches_i|·H_K·W_K a
// step): the work any schedule of this layer must do. The figure is ns per
// touched element, best of 15 runs (after one warm-up run), and its ratio to S1 measured in the same
// run. Times are the thread's CPU time (user + system, page faults
// included), not wall time: on a shared machine wall time also counts the
// moments other processes hold the core. A step also has a fixed cost (six id lists, six trace records), so a
// strategy of many small steps costs more per element, S1 too: S1 with G = 1
// is measured to fit "seconds = a·steps + b·elements" from the two S1 rows,
// and every kernel-blocked run is also given as measured / that S1 model.
// `--quick` uses a 32x32 input.

#include "convoffload/model/KernelBlockedFamily.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/Simulator.h"

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace convoffload;

namespace {

/// This thread's CPU time in seconds.
double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

Problem benchProblem(int size)
{
    Problem p;
    p.layer = {.c_in = 16, .h_in = size, .w_in = size, .h_k = 3, .w_k = 3, .n = 32};
    p.layer.pad_top = p.layer.pad_bottom = p.layer.pad_left = p.layer.pad_right = 1;
    p.hardware.nbop_pe = std::int64_t(8) * 32 * p.layer.kernelElements(); // G = 8 with every kernel
    p.hardware.mem_size = std::int64_t(1) << 40;
    p.hardware.dram_size = std::int64_t(1) << 40;
    p.hardware.max_loads_per_element = 1000;
    return p;
}

std::int64_t touched(const Problem &p, const StrategySpec &spec, const StepList &steps)
{
    std::int64_t n = 0;
    for (const Step &s : steps)
        n += std::int64_t(s.free_input.size() + s.free_kernels.size() + s.write.size() + s.load_input.size()
            + s.load_kernels.size() + s.compute.size());
    for (const ComputeStep &c : computeStepsOf(p, spec))
        n += std::int64_t(c.patches.size()) * p.layer.h_k * p.layer.w_k;
    return n;
}

struct Measure {
    double seconds = 0;
    double duration = 0;
    std::int64_t elements = 0;
    std::int64_t steps = 0;
};

Measure measure(const Problem &p, const StrategySpec &spec)
{
    SimulationOptions options;
    options.trace = true;
    options.functional = false;
    Measure m;
    m.seconds = 1e30;
    for (int run = 0; run < 15; ++run) {
        const double start = cpuSeconds();
        const StepList steps = expandStrategy(p, spec);
        const SimulationResult r = simulate(p, steps, options);
        m.seconds = std::min(m.seconds, cpuSeconds() - start);
        m.duration = r.totalDuration();
        if (run == 0) {
            m.elements = touched(p, spec, steps);
            m.steps = std::int64_t(steps.size());
        }
    }
    return m;
}

} // namespace

int main(int argc, char **argv)
{
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    const Problem p = benchProblem(quick ? 32 : 64);
    std::printf("layer %dx%dx%d, %d kernels 3x3, padding 1: %lld patches\n", p.layer.c_in, p.layer.h_in, p.layer.w_in, p.layer.n,
        static_cast<long long>(p.layer.patchCount()));
    std::printf(
        "%-40s %8s %10s %7s %12s %9s %9s %7s\n", "strategy", "steps", "touched", "el/step", "duration", "ms", "ns/elem", "vs S1");
    const auto row = [](const std::string &name, const Measure &m, double ratio) {
        std::printf("%-40s %8lld %10lld %7lld %12.0f %9.1f %9.2f %7.2f\n", name.c_str(), static_cast<long long>(m.steps),
            static_cast<long long>(m.elements), static_cast<long long>(m.elements / std::max<std::int64_t>(m.steps, 1)),
            m.duration, 1e3 * m.seconds, 1e9 * m.seconds / double(m.elements), ratio);
    };

    StrategySpec s1{"S1 zigzag G=8", StrategyKind::ZigZag, 8, {}};
    measure(p, s1); // warm-up: page faults, caches
    const Measure base = measure(p, s1);
    const double baseNs = 1e9 * base.seconds / double(base.elements);
    row(s1.name, base, 1.0);
    // S1 with small steps (one patch each): the per-step share of the cost.
    const StrategySpec small{"S1 zigzag G=1", StrategyKind::ZigZag, 1, {}};
    const Measure smallSteps = measure(p, small);
    row(small.name, smallSteps, 1e9 * smallSteps.seconds / double(smallSteps.elements) / baseNs);
    // The S1 cost model from these two rows: seconds = perStep·steps + perElement·elements.
    const double perStep = (smallSteps.seconds - base.seconds * double(smallSteps.elements) / double(base.elements))
        / (double(smallSteps.steps) - double(base.steps) * double(smallSteps.elements) / double(base.elements));
    const double perElement = (base.seconds - perStep * double(base.steps)) / double(base.elements);
    std::printf("S1 model: %.2f us per step + %.2f ns per touched element\n", 1e6 * perStep, 1e9 * perElement);
    double worstModel = 0;
    double worst = 0;
    for (const std::int64_t b : {32, 16, 4, 1})
        for (const KernelLoop loop : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter}) {
            const KernelBlockedParams params{loop, PatchOrder::ZigZag, b, 8};
            const StrategySpec spec = kernelBlockedSpec(params, kernelBlockedParamsText(params));
            const Measure m = measure(p, spec);
            const double ns = 1e9 * m.seconds / double(m.elements);
            worst = std::max(worst, ns / baseNs);
            row(spec.name, m, ns / baseNs);
            const double model = perStep * double(m.steps) + perElement * double(m.elements);
            worstModel = std::max(worstModel, m.seconds / model);
            std::printf("%-40s measured / S1 model for the same steps and elements: %.2f\n", "", m.seconds / model);
            if (b == 32 && m.duration != base.duration) {
                std::printf("B = N should be the S1 strategy: %g != %g\n", m.duration, base.duration);
                return 1;
            }
        }
    std::printf("worst ratio of ns per touched element to S1 G=8: %.2f; worst measured / S1 model: %.2f\n", worst, worstModel);
    return 0;
}
