// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/WorkEstimate.h"

#include "convoffload/model/S1Strategy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <sys/resource.h>
#include <unistd.h>

namespace convoffload {

namespace {

// Measured with convoffload-bench (224² × 3 channels, 3×3, N = 16): about
// 40 ns per patch pixel for expansion, execution and trace together, and
// about 1 ns per multiply-accumulate of the functional check. Rounded up:
// the estimate is there to tell seconds from days, not to predict.
constexpr double kSecondsPerPixelVisit = 60e-9;
constexpr double kSecondsPerMac = 1.5e-9;
// What a step costs whatever its size (its stats, its action records, the
// trace's lists): a layer of a million one-pixel patches (a 1x1 input padded
// 2^20 high) has a million steps and as many pixel visits, where the
// estimate said 0.06 s. Measured in CPU time on that layer: about 0.5 us a
// step traced (export --figure durations, S1-baseline: 0.65 s, Qt and the
// SVG included), 0.1 us untraced (compare: 0.22 s for 2 M steps); rounded up.
constexpr double kSecondsPerTracedStep = 1e-6;
constexpr double kSecondsPerStep = 0.25e-6;

// What any run holds whatever the layer (its result and diagnostics, the
// allocator's first arenas): the measured peak of the paper's Example is
// 0.2 MB (docs/design/performance.md, "Work estimate against the measured peak").
constexpr double kBaseBytes = 1e6;

/// Per step of the expansion and its trace: 40-byte records of each action
/// kind when traced, 160 bytes of step statistics and the step itself (an
/// S1-baseline traced on 650 k patches peaks at 580 bytes a step in all:
/// tst_workestimate).
double perStepBytes(bool trace) { return (trace ? 40.0 * kActionCount : 0.0) + 160.0; }

std::string format(const char *pattern, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

} // namespace

WorkEstimate estimateSimulation(const Problem &problem, bool functional, bool trace, std::int64_t visitsPerPatch)
{
    const Layer &l = problem.layer;
    // Doubles throughout: the products of a hostile layer overflow 64 bits.
    const double patches = double(l.patchCount()) * double(std::max<std::int64_t>(1, visitsPerPatch));
    const double window = double(l.h_k) * double(l.w_k);
    const double outputs = double(l.patchCount()) * double(l.n);
    const double pixels = double(l.paddedHeight()) * double(l.paddedWidth());
    WorkEstimate w;
    w.pixel_visits = patches * window;
    w.macs = functional ? outputs * double(l.kernelElements()) : 0.0;
    // A grouped layer's patch needs each of its g slices in some visit:
    // max(visits, g) slice visits a pixel (a visit of a block within one
    // group touches one slice, an S1 visit all g). The fused pass walks an
    // S1 strategy's whole pixels, a kernel-streaming one's slices.
    const double sliceVisits
        = double(l.patchCount()) * window * std::max(double(std::max<std::int64_t>(1, visitsPerPatch)), double(l.group));
    w.seconds = (visitsPerPatch > 1 ? sliceVisits : w.pixel_visits) * kSecondsPerPixelVisit + w.macs * kSecondsPerMac;

    // Step lists and trace hold 4-byte ids: at most every patch pixel's
    // slices loaded and freed once per visit, every output computed and
    // written once.
    const double ids = 2.0 * sliceVisits + 2.0 * outputs;
    // The most steps any strategy has: one patch per step, each patch once
    // per visit (S1-baseline; a kernels-outer strategy with G = 1).
    const double steps = patches + 1;
    w.bytes = kBaseBytes + 4.0 * ids * (trace ? 2.0 : 1.0) // the expanded steps, and their trace
        + perStepBytes(trace) * steps // their records and statistics (S1-baseline on 1 M patches: 380 MB traced)
        + 16.0 * pixels * double(l.group) // per-slice state and load counts
        + 8.0 * outputs; // per-output state
    if (functional)
        w.bytes += 4.0 * pixels * double(l.c_in) * 3.0 // input tensor, its padded DRAM copy, the on-chip copy
            + 4.0 * double(l.n) * double(l.kernelElements()) * 3.0 // kernels, likewise (and 16-bit)
            + 9.0 * outputs * 2.0; // outputs on chip and in DRAM, with their exactness flags
    return w;
}

WorkEstimate estimateRanking(const Problem &problem, const StrategySpec &spec, std::int64_t visitsPerPatch)
{
    WorkEstimate w = estimateSimulation(problem, false, false, visitsPerPatch);
    const bool s1 = isS1Kind(spec.kind);
    const bool fused = problem.hardware.transfer ? s1 && problem.options.write_policy == WritePolicy::NextStep
                                                 : s1 || spec.kind == StrategyKind::KernelBlocked;
    if (fused) {
        const Layer &l = problem.layer;
        const double pixels = double(l.paddedHeight()) * double(l.paddedWidth());
        const double outputs = double(l.patchCount()) * double(l.n);
        // Per slice a stamp and a load count, per output its state, per
        // patch its place in the plan's groups (and a repeated walk's mark).
        w.bytes = kBaseBytes + 16.0 * pixels * double(l.group) + 8.0 * outputs + 8.0 * double(l.patchCount());
    }
    return w;
}

WorkEstimate estimateStrategy(const Problem &problem, const StrategySpec &spec, bool functional, bool trace)
{
    WorkEstimate w = estimateSimulation(problem, functional, trace);
    const Layer &l = problem.layer;
    const double patches = double(l.patchCount()), pixels = double(l.pixelCount()), outputs = patches * double(l.n);
    const double window = double(l.h_k) * double(l.w_k);
    // Pixel loads per patch, patches per step and visits of each patch (the
    // kernel blocks of a kernel-blocked strategy, whichever loop: each block
    // of kernels is a compute step of its own).
    double loads = window, perStep = 1, visits = 1;
    if (spec.kind == StrategyKind::S1Baseline || spec.kind == StrategyKind::RowByRow || spec.kind == StrategyKind::ZigZag) {
        perStep = spec.kind == StrategyKind::S1Baseline
            ? 1.0
            : double(std::max<std::int64_t>(1, spec.group_size.value_or(problem.nbPatchesMax())));
        const double run = std::min(perStep, double(l.wOut()));
        loads = std::min(window, double(l.h_k) * (run * l.stride_w + l.spanW() - l.stride_w) / run);
    } else if (spec.kind == StrategyKind::Groups && !spec.groups.empty()) {
        perStep = patches / double(spec.groups.size());
    } else if (spec.kind == StrategyKind::KernelBlocked) {
        const double block = double(std::max<std::int64_t>(1, spec.kernel_block.value_or(l.n)));
        perStep = double(std::max<std::int64_t>(1, spec.group_size.value_or(1)));
        visits = std::ceil(double(l.n) / block);
    } else if (spec.kind == StrategyKind::Steps && !spec.steps.empty()) {
        visits = double(spec.steps.size()) / patches; // the steps as they are
    }
    const double steps = std::ceil(patches / perStep) * visits + 1;
    w.seconds += steps * (trace ? kSecondsPerTracedStep : kSecondsPerStep);
    // Trace: 4-byte ids (each load and free, each output computed and
    // written) and 40-byte action records; step stats 120 bytes a step.
    w.bytes = kBaseBytes + (trace ? 4.0 * patches * (2.0 * loads * double(l.group) * visits + 2.0 * double(l.n)) : 0.0)
        + perStepBytes(trace) * steps + 9.0 * pixels * double(l.group) // on chip, load count, the expander's mark (per slice)
        + 8.0 * patches // patch order, compute check
        + 6.0 * outputs // output state, the write scheduler's
        + 24.0 * pixels; // what the terms above miss (allocator slack, the check's reference), measured on 4096²
    if (functional) // DRAM and chip copies of inputs (32-bit) and outputs, with state bytes
        w.bytes += 9.0 * pixels * double(l.c_in) + 4.0 * double(l.n) * double(l.kernelElements()) * 3.0 + 9.0 * outputs;
    return w;
}

double availableMemoryBytes()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    double available = pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 8.0 * (1ull << 30);
    struct rlimit limit { };
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        available = std::min(available, double(limit.rlim_cur));
    return available;
}

std::optional<std::string> exceedsBudget(const WorkEstimate &work, const WorkBudget &budget, std::string_view subject)
{
    const double memory = budget.bytes > 0 ? budget.bytes : availableMemoryBytes() * 0.75;
    const bool slow = work.seconds > budget.seconds, big = work.bytes > memory;
    if (!slow && !big)
        return std::nullopt;
    std::string why = std::string(subject) + " would take about " + durationText(work.seconds) + " and need about "
        + bytesText(work.bytes) + " of memory";
    why += slow ? " (the limit is " + durationText(budget.seconds) : " (the limit is " + bytesText(memory);
    if (slow && big)
        why += " and " + bytesText(memory);
    why += ")";
    return why;
}

std::string layerForMessages(const std::string &name, const Layer &layer)
{
    char shape[128];
    std::snprintf(shape, sizeof shape, "%dx%dx%d input, %d kernels %dx%d", layer.c_in, layer.h_in, layer.w_in, layer.n, layer.h_k,
        layer.w_k);
    return (name.empty() ? std::string("the layer") : "layer '" + name + "'") + " (" + shape + ")";
}

std::string bytesText(double bytes)
{
    if (bytes >= 1e12)
        return format("%.1f TB", bytes / 1e12);
    if (bytes >= 1e9)
        return format("%.1f GB", bytes / 1e9);
    if (bytes >= 1e6)
        return format("%.0f MB", bytes / 1e6);
    return format("%.0f kB", std::max(1.0, bytes / 1e3));
}

std::string durationText(double seconds)
{
    if (seconds >= 2 * 86400.0)
        return format("%.0f days", seconds / 86400.0);
    if (seconds >= 2 * 3600.0)
        return format("%.1f h", seconds / 3600.0);
    if (seconds >= 120)
        return format("%.0f min", seconds / 60.0);
    return format("%.0f s", std::max(1.0, seconds));
}

} // namespace convoffload
