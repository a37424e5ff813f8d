// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench-simulate: the simulator near its floor (issue "Speed and
// memory, second round"), every figure measured in this process, ratios
// against baselines measured in the same run.
//
// 1. 1024×1024 input, one 3×3 kernel, ZigZag G = 64 (1.04 M patches, 16,321
//    steps): the general route (expandS1 + simulate, no trace) against the
//    fused S1 pass, with and without the functional check; results must be
//    identical.
//    Then the functional check's cost (fused pass with it minus without it)
//    against one plain convolution pass of the layer (a vectorised direct
//    convolution, int16 operands, int32 sums), and against the former
//    baseline (gather + dot product per patch).
// 2. 64×56×56 input, 64 kernels 3×3, padding 1, ZigZag G = 16: the same
//    functional check figures.
// 3. The step cursor on 1024² and 2048² (ZigZag G = 64, with the trace the GUI
//    uses): its memory at the last step, the trace's, and the time of seeks
//    back (worst of 20 random seeks).
// 4. Scaling from 64² to 4096²: ns per pixel visit of the fused pass and of
//    the GUI's route (trace + cursor, up to 1024²), cursor bytes per pixel.
//
// Times are this thread's CPU time (min and median of the runs), which the
// load of a shared machine does not inflate.
//
// Usage: convoffload-bench-simulate [--quick] (halves the sizes) [--functional] (sections 1 and 2 only)
//        [--floor RUNS] (only the fused pass against its floor, 1024², RUNS interleaved runs)
// Exit status 1 when the fused and general results differ, a functional
// check fails or the plain passes disagree with the reference.

#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/FusedSimulation.h"
#include "convoffload/simulate/StepCursor.h"

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace convoffload;

namespace {

/// This thread's CPU time: the machine is shared, so wall time swings with
/// the load while CPU time does not (the process is single-threaded).
double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Timing {
    double best = 1e300, median = 0; // CPU seconds
};

Timing timeOf(int runs, const std::function<void()> &f)
{
    std::vector<double> t;
    for (int k = 0; k < runs; ++k) {
        const double start = cpuSeconds();
        f();
        t.push_back(cpuSeconds() - start);
    }
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
}

Problem zigzagProblem(int size, int channels, int kernels, int pad, std::int64_t groupSize)
{
    Problem p;
    p.layer.c_in = channels;
    p.layer.h_in = p.layer.w_in = size;
    p.layer.h_k = p.layer.w_k = 3;
    p.layer.n = kernels;
    p.layer.pad_top = p.layer.pad_bottom = p.layer.pad_left = p.layer.pad_right = pad;
    p.hardware.nbop_pe = groupSize * kernels * p.layer.kernelElements();
    p.hardware.mem_size = std::int64_t(1) << 40;
    p.hardware.dram_size = std::int64_t(1) << 40;
    return p;
}

SimulationOptions noTrace(bool functional)
{
    SimulationOptions o;
    o.trace = false;
    o.functional = functional;
    return o;
}

bool sameResult(const SimulationResult &a, const SimulationResult &b)
{
    if (a.steps.size() != b.steps.size() || a.diagnostics.size() != b.diagnostics.size()
        || a.input_load_counts != b.input_load_counts || a.functional.status != b.functional.status
        || a.functional.message != b.functional.message)
        return false;
    for (std::size_t k = 0; k < a.steps.size(); ++k) {
        const StepStats &x = a.steps[k], &y = b.steps[k];
        if (x.loaded_input != y.loaded_input || x.freed_input != y.freed_input || x.written != y.written
            || x.peak_footprint != y.peak_footprint || x.duration() != y.duration() || !(x.after == y.after))
            return false;
    }
    for (std::size_t k = 0; k < a.diagnostics.size(); ++k)
        if (a.diagnostics[k].message != b.diagnostics[k].message)
            return false;
    return true;
}

/// The padded input in 16 bits (the seeded values fit), [c][row][col].
std::vector<std::int16_t> paddedInput16(const Layer &l, const TensorData &d)
{
    const int height = l.paddedHeight(), width = l.paddedWidth();
    std::vector<std::int16_t> padded(std::size_t(l.c_in) * height * width, 0);
    for (int c = 0; c < l.c_in; ++c)
        for (int r = 0; r < l.h_in; ++r)
            for (int col = 0; col < l.w_in; ++col)
                padded[(std::size_t(c) * height + r + l.pad_top) * width + col + l.pad_left]
                    = std::int16_t(d.input[(std::size_t(c) * l.h_in + r) * l.w_in + col]);
    return padded;
}

/// The patch of output (i, j) in kernel layout, [c][h][w], from the padded input.
void gatherPatch(const Layer &l, const std::vector<std::int16_t> &padded, int i, int j, std::vector<std::int16_t> &patch)
{
    const int height = l.paddedHeight(), width = l.paddedWidth();
    std::size_t e = 0;
    for (int c = 0; c < l.c_in; ++c)
        for (int h = 0; h < l.h_k; ++h)
            for (int w = 0; w < l.w_k; ++w)
                patch[e++] = padded[(std::size_t(c) * height + i * l.stride_h + h) * width + j * l.stride_w + w];
}

/// The former baseline: each patch gathered in kernel layout, then an int16
/// dot product with int32 sums per kernel (sizes known at run time only).
std::vector<std::int32_t> patchGatherConvolution(const Layer &l, const TensorData &d)
{
    const std::vector<std::int16_t> padded = paddedInput16(l, d);
    const std::vector<std::int16_t> weights(d.kernels.begin(), d.kernels.end());
    const std::size_t n = std::size_t(l.kernelElements());
    std::vector<std::int16_t> patch(n);
    std::vector<std::int32_t> out(std::size_t(l.outputCount()));
    for (int i = 0; i < l.hOut(); ++i)
        for (int j = 0; j < l.wOut(); ++j) {
            gatherPatch(l, padded, i, j, patch);
            for (int k = 0; k < l.n; ++k) {
                const std::int16_t *wk = weights.data() + std::size_t(k) * n;
                std::int32_t sum = 0;
                for (std::size_t x = 0; x < n; ++x)
                    sum += std::int32_t(patch[x]) * std::int32_t(wk[x]);
                out[std::size_t(i * l.wOut() + j) * std::size_t(l.n) + std::size_t(k)] = sum;
            }
        }
    return out;
}

/// One channel, stride 1, a KH×KW kernel fixed at compile time: each output
/// row as one sweep, the column loop innermost so the compiler vectorises it.
template <int KH, int KW>
void rowSweep(const std::int16_t *in, int width, const Layer &l, const std::int16_t *kernel, int k, std::int32_t *out)
{
    const std::size_t n = std::size_t(l.n);
    for (int i = 0; i < l.hOut(); ++i) {
        const std::int16_t *top = in + std::size_t(i) * std::size_t(width);
        std::int32_t *row = out + std::size_t(i) * std::size_t(l.wOut()) * n + std::size_t(k);
        for (int j = 0; j < l.wOut(); ++j) {
            std::int32_t sum = 0;
            for (int h = 0; h < KH; ++h)
                for (int w = 0; w < KW; ++w)
                    sum += std::int32_t(top[std::size_t(h) * std::size_t(width) + std::size_t(j + w)])
                        * std::int32_t(kernel[h * KW + w]);
            row[std::size_t(j) * n] = sum;
        }
    }
}

/// One plain convolution pass, written as a performance engineer would for
/// these data (int16 operands, int32 sums): one channel and a 3×3 kernel as
/// row sweeps with a fixed-size inner loop; several channels as one gather per
/// patch and dot products four kernels at a time (pmaddwd, each gathered
/// value used four times).
std::vector<std::int32_t> plainConvolution(const Layer &l, const TensorData &d)
{
    const int width = l.paddedWidth();
    const std::vector<std::int16_t> padded = paddedInput16(l, d);
    const std::vector<std::int16_t> weights(d.kernels.begin(), d.kernels.end());
    std::vector<std::int32_t> out(std::size_t(l.outputCount()));
    if (l.c_in == 1 && l.h_k == 3 && l.w_k == 3 && l.stride_h == 1 && l.stride_w == 1) {
        for (int k = 0; k < l.n; ++k)
            rowSweep<3, 3>(padded.data(), width, l, weights.data() + std::size_t(k) * 9, k, out.data());
        return out;
    }
    const std::size_t n = std::size_t(l.kernelElements());
    std::vector<std::int16_t> patch(n);
    for (int i = 0; i < l.hOut(); ++i)
        for (int j = 0; j < l.wOut(); ++j) {
            gatherPatch(l, padded, i, j, patch);
            std::int32_t *o = out.data() + std::size_t(i * l.wOut() + j) * std::size_t(l.n);
            int k = 0;
            for (; k + 4 <= l.n; k += 4) {
                const std::int16_t *w0 = weights.data() + std::size_t(k) * n, *w1 = w0 + n, *w2 = w1 + n, *w3 = w2 + n;
                std::int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                for (std::size_t x = 0; x < n; ++x) {
                    const std::int32_t v = patch[x];
                    s0 += v * w0[x];
                    s1 += v * w1[x];
                    s2 += v * w2[x];
                    s3 += v * w3[x];
                }
                o[k] = s0;
                o[k + 1] = s1;
                o[k + 2] = s2;
                o[k + 3] = s3;
            }
            for (; k < l.n; ++k) {
                const std::int16_t *wk = weights.data() + std::size_t(k) * n;
                std::int32_t sum = 0;
                for (std::size_t x = 0; x < n; ++x)
                    sum += std::int32_t(patch[x]) * std::int32_t(wk[x]);
                o[k] = sum;
            }
        }
    return out;
}

/// The functional check's cost against one plain pass, all measured in the
/// same loop, run after run (fused pass without the check, with it, the plain
/// pass, the former baseline), so that a change of load hits all four alike.
/// The check gets the same tensors as the plain passes (not generating them
/// is fair to both). The check's cost is the difference of the fused pass
/// with and without it, min from min and median from median (a difference
/// per run would add two runs' noise). Returns whether the check passes and
/// the passes agree.
bool checkAgainstPlainPass(const Problem &p, const Groups &groups, int runs)
{
    const TensorData data = seededTensors(p.layer, 1);
    SimulationOptions withCheck = noTrace(true);
    withCheck.data = &data;
    const SimulationOptions without = noTrace(false);
    std::vector<double> t[4];
    SimulationResult checked;
    std::vector<std::int32_t> plain, former;
    for (int r = 0; r < runs; ++r) {
        const std::function<void()> parts[4]
            = {[&] { (void)simulateS1Fused(p, groups, without); }, [&] { checked = *simulateS1Fused(p, groups, withCheck); },
                [&] { plain = plainConvolution(p.layer, data); }, [&] { former = patchGatherConvolution(p.layer, data); }};
        for (int k = 0; k < 4; ++k)
            t[k].push_back(timeOf(1, parts[k]).best);
    }
    for (auto &v : t)
        std::sort(v.begin(), v.end());
    const auto med = [](const std::vector<double> &v) { return v[v.size() / 2]; };
    const double checkMin = t[1].front() - t[0].front(), checkMed = med(t[1]) - med(t[0]);
    const std::vector<std::int64_t> reference = referenceConvolution(p.layer, data);
    const bool agree = plain == former && std::equal(plain.begin(), plain.end(), reference.begin(), reference.end());
    std::printf("   fused pass without functional check     %7.1f ms %9.1f ms\n", t[0].front() * 1e3, med(t[0]) * 1e3);
    std::printf("   fused pass with functional check        %7.1f ms %9.1f ms   (functional %s)\n", t[1].front() * 1e3,
        med(t[1]) * 1e3, functionalStatusName(checked.functional.status).c_str());
    std::printf("   functional check alone (difference)     %7.1f ms %9.1f ms   (min - min, median - median)\n", checkMin * 1e3,
        checkMed * 1e3);
    std::printf("   one plain convolution pass (int16)      %7.2f ms %9.2f ms   (vectorised direct convolution)\n",
        t[2].front() * 1e3, med(t[2]) * 1e3);
    std::printf("   former baseline (gather + dot per patch) %6.2f ms %9.2f ms   (plain passes %s the reference)\n",
        t[3].front() * 1e3, med(t[3]) * 1e3, agree ? "equal" : "DIFFER FROM");
    std::printf("   functional check / plain pass: %.2fx min, %.2fx median (target <= 2x); / former baseline: %.2fx\n\n",
        checkMin / t[2].front(), checkMed / med(t[2]), checkMin / t[3].front());
    return agree && checked.functional.status == FunctionalStatus::Pass;
}

/// The floor, written here apart from the library: a bare S1 pass
/// over the same groups (one channel, a 3×3 kernel, stride 1, no padding)
/// with a stamp and a load count per pixel and nothing else: no step
/// records, lists, findings, reload tally or footprint. Its totals must
/// match the simulator's; its time is what the fused pass is compared with.
struct FloorTotals {
    std::int64_t loaded = 0, written = 0;
    double duration = 0;
};

FloorTotals floorPass(const Problem &p, const Groups &groups)
{
    const Layer &l = p.layer;
    const int width = l.w_in, outWidth = int(l.wOut());
    std::vector<std::uint32_t> stamp(std::size_t(l.pixelCount()), 0);
    std::vector<std::uint8_t> loads(std::size_t(l.pixelCount()), 0);
    FloorTotals t;
    std::uint32_t step = 1;
    for (const Group &group : groups) {
        ++step;
        for (PatchId q : group) {
            const int top = int(q) / outWidth, left = int(q) % outWidth;
            for (int dy = 0; dy < 3; ++dy) {
                std::uint32_t *row = &stamp[std::size_t((top + dy) * width + left)];
                std::uint8_t *count = &loads[std::size_t((top + dy) * width + left)];
                for (int dx = 0; dx < 3; ++dx) {
                    const std::uint32_t was = row[dx];
                    if (was == step)
                        continue;
                    if (was != step - 1) {
                        ++t.loaded;
                        ++count[dx];
                    }
                    row[dx] = step;
                }
            }
        }
        t.written += std::int64_t(group.size()); // next-step policy: written one step later (or at the drain)
    }
    const Hardware &hw = p.hardware;
    t.duration
        = hw.t_l * double(t.loaded + l.kernelElements() * l.n) + hw.t_w * double(t.written) + hw.t_acc * double(groups.size());
    return t;
}

/// The fused pass against the bare stamp pass, interleaved so that both see
/// the same machine; false when their totals differ.
bool fusedAgainstFloor(const Problem &p, const Groups &groups, int runs)
{
    SimulationResult fused;
    FloorTotals floor;
    // Interleaved, so both see the same machine.
    Timing f, b;
    for (int k = 0; k < runs; ++k) {
        const Timing fk = timeOf(1, [&] { fused = *simulateS1Fused(p, groups, noTrace(false)); });
        const Timing bk = timeOf(1, [&] { floor = floorPass(p, groups); });
        f.best = std::min(f.best, fk.best);
        b.best = std::min(b.best, bk.best);
    }
    const bool agree
        = floor.loaded == fused.loadedInput() && floor.written == fused.written() && floor.duration == fused.totalDuration();
    std::printf("   floor (bare stamp pass, this bench)       %7.1f ms   loaded %lld, written %lld, duration %.0f: %s\n",
        b.best * 1e3, (long long)floor.loaded, (long long)floor.written, floor.duration,
        agree ? "the simulator's totals" : "DIFFERENT from the simulator's");
    std::printf("   fused pass / floor (min of %d interleaved runs): %.1f ms / %.1f ms = %.2fx (issue: within 3x)\n\n", runs,
        f.best * 1e3, b.best * 1e3, f.best / b.best);
    return agree;
}

bool simulatorFloor(int size, int runs)
{
    const Problem p = zigzagProblem(size, 1, 1, 0, 64);
    const Groups groups = zigzag(p.layer, 64);
    std::printf("1. %dx%d input, 3x3 kernel, ZigZag G = 64: %lld patches, %zu steps; min / median of %d runs\n\n", size, size,
        (long long)p.layer.patchCount(), groups.size() + 1, runs);
    bool same = true;
    std::printf("   route                                         min        median     ratio to fused\n");
    for (bool functional : {false, true}) {
        SimulationResult general, fused;
        const Timing g = timeOf(runs, [&] { general = simulate(p, expandS1(p, groups), noTrace(functional)); });
        const Timing f = timeOf(runs, [&] { fused = *simulateS1Fused(p, groups, noTrace(functional)); });
        same &= sameResult(general, fused);
        const char *what = functional ? "with functional check" : "simulation only";
        std::printf("   general (expandS1 + simulate), %-14s %7.1f ms %9.1f ms %8.1fx\n", what, g.best * 1e3, g.median * 1e3,
            g.best / f.best);
        std::printf("   fused S1 pass, %-30s %7.1f ms %9.1f ms %8.1fx\n", what, f.best * 1e3, f.median * 1e3, 1.0);
        std::printf("   totals: duration %.0f, loaded input %lld, written %lld, peak %lld, functional %s\n",
            fused.totalDuration(), (long long)fused.loadedInput(), (long long)fused.written(), (long long)fused.peakFootprint(),
            functionalStatusName(fused.functional.status).c_str());
    }
    std::printf("   fused and general results %s\n", same ? "identical" : "DIFFER");
    same &= fusedAgainstFloor(p, groups, runs);
    std::printf("   functional check, one kernel (min / median of %d runs):\n", 2 * runs - 1);
    return checkAgainstPlainPass(p, groups, 2 * runs - 1) && same;
}

bool functionalCost(int size, int runs)
{
    const Problem p = zigzagProblem(size, 64, 64, 1, 16);
    const Groups groups = zigzag(p.layer, 16);
    std::printf("2. 64x%dx%d input, 64 kernels 3x3, padding 1, ZigZag G = 16: %lld outputs, %.0f M MACs; min / median of %d "
                "runs\n\n",
        size, size, (long long)p.layer.outputCount(), double(p.layer.outputCount() * p.layer.opsPerOutput()) / 1e6, 2 * runs - 1);
    return checkAgainstPlainPass(p, groups, 2 * runs - 1);
}

void cursorMemory(int size)
{
    const Problem p = zigzagProblem(size, 1, 1, 0, 64);
    SimulationOptions o;
    o.trace = true;
    o.functional = false;
    SimulationResult r;
    const double simulateSeconds = timeOf(1, [&] { r = simulate(p, expandS1(p, zigzag(p.layer, 64)), o); }).best;
    StepCursor c(p, r);
    const int steps = c.stepCount();
    const Timing toEnd = timeOf(1, [&] { c.seek({steps - 1, Action::Compute}); });
    std::mt19937 rng(3);
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
        const Moment m{int(rng() % std::uint32_t(steps)), Action(rng() % kActionCount)};
        worst = std::max(worst, timeOf(1, [&] { c.seek(m); }).best);
    }
    const double traceBytes = double(r.trace.ids.size() * sizeof(std::uint32_t) + r.trace.actions.size() * sizeof(ActionRecord));
    // What the former cursor held: a full state (input byte, output byte,
    // 32-bit load count) every 256 steps, by formula.
    const double formerBytes
        = double(steps / 256) * double(p.layer.pixelCount() * 5 + p.layer.outputCount()) + double(p.layer.pixelCount() * 7);
    std::printf("   %4d^2  %8d steps  cursor %7.1f MB (checkpoints %6.1f MB, every %5d steps)  trace %6.1f MB  "
                "former cursor %7.1f MB  simulate+trace %6.0f ms  seek to end %6.1f ms  worst random seek %5.1f ms\n",
        size, steps, double(c.memoryBytes()) / 1e6, double(c.checkpointBytes()) / 1e6, c.checkpointSpacing(), traceBytes / 1e6,
        formerBytes / 1e6, simulateSeconds * 1e3, toEnd.best * 1e3, worst * 1e3);
}

/// Linear growth: the fused pass (no trace, no functional check) and the
/// GUI's route (general executor with trace, cursor seek to the last step)
/// per pixel visit (H_K·W_K per patch), and the cursor's bytes per pixel.
void scaling(const std::vector<int> &sizes, int guiLimit)
{
    std::printf("\n4. Scaling, ZigZag G = 64, one 3x3 kernel (CPU time, best of 3)\n\n");
    std::printf("   input    patches     fused pass   ns/visit   general+trace   ns/visit   seek to end   cursor bytes/pixel\n");
    for (int size : sizes) {
        const Problem p = zigzagProblem(size, 1, 1, 0, 64);
        const Groups groups = zigzag(p.layer, 64);
        const double visits = double(p.layer.patchCount()) * 9;
        const double fused = timeOf(3, [&] { (void)simulateS1Fused(p, groups, noTrace(false)); }).best;
        std::printf("   %5d^2 %10lld %10.1f ms %10.2f", size, (long long)p.layer.patchCount(), fused * 1e3, fused * 1e9 / visits);
        if (size > guiLimit) {
            std::printf("   (GUI route not run above %d^2)\n", guiLimit);
            continue;
        }
        SimulationOptions o;
        o.trace = true;
        o.functional = false;
        SimulationResult r;
        const double general = timeOf(3, [&] { r = simulate(p, expandS1(p, groups), o); }).best;
        StepCursor c(p, r);
        const double seek = timeOf(1, [&] { c.seek({c.stepCount() - 1, Action::Compute}); }).best;
        std::printf(" %12.1f ms %10.2f %10.1f ms %14.1f\n", general * 1e3, general * 1e9 / visits, seek * 1e3,
            double(c.memoryBytes()) / double(p.layer.pixelCount()));
    }
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = false, functionalOnly = false;
    int floorRuns = 0;
    for (int a = 1; a < argc; ++a) {
        quick |= std::strcmp(argv[a], "--quick") == 0;
        functionalOnly |= std::strcmp(argv[a], "--functional") == 0;
        if (std::strcmp(argv[a], "--floor") == 0) {
            floorRuns = a + 1 < argc ? std::atoi(argv[++a]) : 0;
            if (floorRuns < 1 || floorRuns > 100000) {
                std::fprintf(stderr, "convoffload-bench-simulate: --floor needs a number of runs from 1 to 100000\n");
                return 2;
            }
        }
    }
    if (floorRuns > 0) { // the fused pass against its floor only: quick to re-run, and to profile
        const Problem p = zigzagProblem(1024, 1, 1, 0, 64);
        return fusedAgainstFloor(p, zigzag(p.layer, 64), floorRuns) ? 0 : 1;
    }
    const int runs = quick ? 3 : 7;
    bool ok = simulatorFloor(quick ? 512 : 1024, runs);
    ok &= functionalCost(quick ? 28 : 56, runs);
    if (functionalOnly) {
        std::printf("%s\n", ok ? "bench-simulate: results identical, functional checks pass" : "bench-simulate: FAILED");
        return ok ? 0 : 1;
    }
    std::printf("3. Step cursor, ZigZag G = 64, one 3x3 kernel, trace on; memory after seeking to the last step\n\n");
    for (int size : quick ? std::vector<int>{256, 512} : std::vector<int>{1024, 2048})
        cursorMemory(size);
    scaling(quick ? std::vector<int>{64, 256} : std::vector<int>{64, 256, 1024, 4096}, 1024);
    std::printf("\n%s\n", ok ? "bench-simulate: results identical, functional checks pass" : "bench-simulate: FAILED");
    return ok ? 0 : 1;
}
