// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench: the fast engine measured against the naive reference.
//
// 1. Row-by-row and zigzag on a 224x224x3 input, 3x3 kernels, N = 16, G = 16:
//    expandS1 + simulate (action-level trace + functional check) vs
//    naiveExpandS1 + naiveExecute (functional check), wall time, speed ratio
//    (target >= 50x) and the totals of both, which must agree.
// 2. The fast engine alone on growing inputs: ns per touched pixel, which
//    stays flat when the cost is linear.
// `--quick` runs smaller sizes. Exit status 1 when totals disagree, a check
// fails or the ratio misses the target.

#include "NaiveExecutor.h"

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/Simulator.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace convoffload;

namespace {

constexpr int kKernels = 16;
constexpr int kGroupSize = 16;
constexpr double kTargetRatio = 50.0;
constexpr double kNaiveBudgetSeconds = 120.0;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// The benchmark layer: size x size x 3 input, N 3x3 kernels, stride 1, no
/// padding; nbop_pe allows exactly G patches per step, memory is generous.
Problem benchProblem(int size)
{
    Problem p;
    p.layer.c_in = 3;
    p.layer.h_in = p.layer.w_in = size;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.n = kKernels;
    p.hardware.nbop_pe = std::int64_t(kGroupSize) * kKernels * p.layer.kernelElements();
    p.hardware.mem_size = std::int64_t(1) << 40;
    p.hardware.dram_size = std::int64_t(1) << 40;
    return p;
}

struct Heuristic {
    const char *name;
    Groups (*make)(const Layer &, std::int64_t);
};
const Heuristic kHeuristics[] = {{"row-by-row", rowByRow}, {"zigzag", zigzag}};

SimulationOptions fullOptions(bool functional = true)
{
    SimulationOptions o;
    o.trace = true;
    o.functional = functional;
    o.seed = 1;
    return o;
}

/// The fast route once: expansion + simulation with trace and (by default)
/// functional check.
SimulationResult runFast(const Problem &p, const Groups &groups, StepList *stepsOut = nullptr, bool functional = true)
{
    StepList steps = expandS1(p, groups);
    SimulationResult r = simulate(p, steps, fullOptions(functional));
    if (stepsOut)
        *stepsOut = std::move(steps);
    return r;
}

/// Best wall time of `runs` calls, in seconds.
double bestOf(int runs, const std::function<void()> &f)
{
    double best = 1e300;
    for (int k = 0; k < runs; ++k) {
        const Clock::time_point start = Clock::now();
        f();
        best = std::min(best, secondsSince(start));
    }
    return best;
}

bool check(bool ok, const std::string &what)
{
    if (!ok)
        std::printf("  CHECK FAILED: %s\n", what.c_str());
    return ok;
}

struct Comparison {
    double fastSeconds = 0, naiveSeconds = 0;
    bool agree = true;
};

/// Fast vs naive on one size and heuristic; prints one table row and the totals.
Comparison compareOne(int size, const Heuristic &h, int fastRuns)
{
    const Problem p = benchProblem(size);
    const Groups groups = h.make(p.layer, kGroupSize);
    Comparison c;

    SimulationResult fast;
    c.fastSeconds = bestOf(fastRuns, [&] { fast = runFast(p, groups); });
    // Where the fast time goes: the same run without the functional check.
    const double withoutFunctional = bestOf(fastRuns, [&] { runFast(p, groups, nullptr, false); });

    naive::NaiveOptions no;
    no.functional = true;
    no.seed = 1;
    const Clock::time_point start = Clock::now();
    const naive::NaiveReport ref = naive::naiveExecute(p, naive::naiveExpandS1(p, groups), no);
    c.naiveSeconds = secondsSince(start);

    std::printf("%5d^2  %-11s %8.1f ms %10.1f ms %9.0fx   %s\n", size, h.name, c.fastSeconds * 1e3, c.naiveSeconds * 1e3,
        c.naiveSeconds / c.fastSeconds, c.naiveSeconds / c.fastSeconds >= kTargetRatio ? "ok" : "BELOW TARGET");
    std::printf("         fast without functional check: %.1f ms (functional check: %.1f ms)\n", withoutFunctional * 1e3,
        (c.fastSeconds - withoutFunctional) * 1e3);
    std::printf("         totals  fast : steps %zu, duration %.0f, loaded input %lld, loaded kernels %lld, "
                "written %lld, peak %lld, valid %d, functional %s\n",
        fast.steps.size(), fast.totalDuration(), (long long)fast.loadedInput(), (long long)fast.loadedKernels(),
        (long long)fast.written(), (long long)fast.peakFootprint(), int(fast.valid()),
        functionalStatusName(fast.functional.status).c_str());
    std::printf("                 naive: steps %zu, duration %.0f, loaded input %lld, loaded kernels %lld, "
                "written %lld, peak %lld, valid %d, functional %s\n",
        ref.steps.size(), ref.totalDuration(), (long long)ref.loadedInput(), (long long)ref.loadedKernels(),
        (long long)ref.written(), (long long)ref.peakFootprint(), int(ref.valid()), ref.functionalPass ? "pass" : "fail");

    c.agree &= check(fast.steps.size() == ref.steps.size(), "step counts differ");
    c.agree &= check(fast.totalDuration() == ref.totalDuration(), "total durations differ");
    c.agree &= check(fast.loadedInput() == ref.loadedInput(), "loaded input differs");
    c.agree &= check(fast.loadedKernels() == ref.loadedKernels(), "loaded kernels differ");
    c.agree &= check(fast.written() == ref.written(), "written differs");
    c.agree &= check(fast.peakFootprint() == ref.peakFootprint(), "peak footprint differs");
    c.agree &= check(fast.valid() && ref.valid(), "a strategy is reported invalid");
    c.agree &= check(fast.functional.status == FunctionalStatus::Pass && ref.functionalPass, "functional check fails");
    return c;
}

/// Touched pixels: sum over steps of |I_slice| + |F_inp| (pixels) plus, for
/// every computed patch, its H_K x W_K pixels read (once per patch, not per kernel).
std::int64_t touchedPixels(const Layer &l, const StepList &steps)
{
    std::int64_t touched = 0;
    for (const Step &s : steps)
        touched += std::int64_t(s.load_input.size() + s.free_input.size()) + std::int64_t(s.compute.size()) / l.n * l.h_k * l.w_k;
    return touched;
}

void scaling(const std::vector<int> &sizes, int runs)
{
    std::printf("\nFast engine alone (expandS1 + simulate, trace + functional), best of %d runs\n", runs);
    std::printf("touched pixels = sum over steps of (|I_slice| + |F_inp|) pixels + H_K*W_K pixels per computed patch\n\n");
    std::printf("  input  strategy    patches   steps  touched px    best time   ns/touched px   ns/output\n");
    for (const Heuristic &h : kHeuristics)
        for (int size : sizes) {
            const Problem p = benchProblem(size);
            const Groups groups = h.make(p.layer, kGroupSize);
            StepList steps;
            const double t = bestOf(runs, [&] { runFast(p, groups, &steps); });
            const std::int64_t touched = touchedPixels(p.layer, steps);
            std::printf("%5d^2  %-11s %8lld %7zu %11lld %9.2f ms %12.1f %12.2f\n", size, h.name, (long long)p.layer.patchCount(),
                steps.size(), (long long)touched, t * 1e3, t * 1e9 / double(touched), t * 1e9 / double(p.layer.outputCount()));
        }
}

} // namespace

int main(int argc, char **argv)
{
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    const int compareSize = quick ? 56 : 224;
    const std::vector<int> sizes = quick ? std::vector<int>{28, 56, 112} : std::vector<int>{56, 112, 224};
    const int runs = quick ? 3 : 5;

    const Problem p = benchProblem(compareSize);
    std::printf("convoffload-bench%s: input %dx%dx%d, %d kernels 3x3 (N = %d), stride 1, no padding\n", quick ? " --quick" : "",
        compareSize, compareSize, p.layer.c_in, kKernels, kKernels);
    std::printf("hardware: nbop_pe %lld -> G = nb_patches_max = %lld, mem_size generous (%lld elements)\n",
        (long long)p.hardware.nbop_pe, (long long)p.nbPatchesMax(), (long long)p.hardware.mem_size);
    std::printf("%lld patches, %lld outputs\n\n", (long long)p.layer.patchCount(), (long long)p.layer.outputCount());
    std::printf("Fast = expandS1 + simulate (action trace + functional check), best of %d runs\n", runs);
    std::printf("Naive = naiveExpandS1 + naiveExecute (std::set memory + functional check), one run\n\n");
    std::printf("  input  strategy        fast         naive     ratio\n");

    bool ok = true;
    double slowestNaive = 0;
    for (const Heuristic &h : kHeuristics) {
        const Comparison c = compareOne(compareSize, h, runs);
        ok &= c.agree && c.naiveSeconds / c.fastSeconds >= kTargetRatio;
        slowestNaive = std::max(slowestNaive, c.naiveSeconds);
    }
    if (slowestNaive > kNaiveBudgetSeconds) {
        std::printf("\nThe naive run exceeded %.0f s; the same comparison on a smaller input:\n", kNaiveBudgetSeconds);
        for (const Heuristic &h : kHeuristics)
            ok &= compareOne(compareSize / 2, h, runs).agree;
    }

    scaling(sizes, runs);
    std::printf("\n%s\n", ok ? "bench: totals agree, ratio target met" : "bench: FAILED (see above)");
    return ok ? 0 : 1;
}
