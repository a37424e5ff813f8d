// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/NetworkAnalysis.h"

#include "convoffload/simulate/CandidateCache.h"
#include "convoffload/simulate/ParallelFor.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StrategySimulation.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

namespace convoffload {

bool kernelsFitOnChip(const Problem &problem)
{
    const Layer &l = problem.layer;
    // Every kernel, one patch's input (all C_in channels: an S1 step needs
    // every slice) and its N outputs.
    const std::int64_t k = l.kernelElements(), patch = std::int64_t(l.c_in) * l.h_k * l.w_k;
    return std::int64_t(l.n) * k + patch + l.n <= problem.hardware.mem_size;
}

namespace {

/// The S1 heuristics at their own group size: the candidates where every
/// kernel fits beside a patch.
std::vector<StrategySpec> heuristicSpecs()
{
    return {{"S1-baseline", StrategyKind::S1Baseline, std::nullopt, {}}, {"Row-by-Row", StrategyKind::RowByRow, std::nullopt, {}},
        {"ZigZag", StrategyKind::ZigZag, std::nullopt, {}}};
}

StrategySpec kernelBlockedSpec(std::int64_t block, PatchOrder order, KernelLoop loop)
{
    StrategySpec s;
    s.name = "Kernel-blocked " + patchOrderName(order) + " " + kernelLoopName(loop) + " B=" + std::to_string(block);
    s.kind = StrategyKind::KernelBlocked;
    s.kernel_block = block;
    s.order = order;
    s.loop = loop;
    return s;
}

} // namespace

std::vector<StrategySpec> generatedStrategies(const Problem &problem)
{
    // Every family that applies, whether or not the kernels fit, from block
    // sizes that do not depend on mem_size: more memory only adds
    // candidates, so a layer's best never gets slower with more memory
    // (docs/reference/cli.md#network).
    std::vector<StrategySpec> specs;
    if (kernelsFitOnChip(problem) && problem.nbPatchesMax() >= 1)
        specs = heuristicSpecs();
    // The powers of two below N, largest first (kernels reloaded least).
    // B = N only fits where the kernels do (B_max = N needs N·K + K + N ≤
    // mem_size and nb_patches_max ≥ 1): one block, the S1 heuristics.
    const std::int64_t largest = largestKernelBlock(problem);
    std::vector<std::int64_t> blocks;
    for (std::int64_t b = 1; b < problem.layer.n; b *= 2)
        blocks.insert(blocks.begin(), b);
    // A grouped layer's block of one group, N/g kernels: kernels-outer walks
    // the groups one after another, loading only each group's slices
    // (docs/reference/model.md#grouped-and-dilated).
    if (const std::int64_t perGroup = problem.layer.n / problem.layer.group;
        problem.layer.isGrouped() && std::find(blocks.begin(), blocks.end(), perGroup) == blocks.end()) {
        blocks.push_back(perGroup);
        std::sort(blocks.begin(), blocks.end(), std::greater<>());
    }
    for (const std::int64_t b : blocks) {
        if (b > largest)
            continue;
        for (const PatchOrder order : {PatchOrder::RowByRow, PatchOrder::ZigZag})
            for (const KernelLoop loop : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter})
                specs.push_back(kernelBlockedSpec(b, order, loop));
    }
    return specs;
}

double durationLowerBound(const Problem &problem, std::int64_t computeSteps, std::int64_t inputPasses, std::int64_t kernelPasses,
    std::int64_t kernelBlock)
{
    const Layer &l = problem.layer;
    const Hardware &h = problem.hardware;
    // The input elements some patch reads: the patches form a grid, so the
    // pixels they cover are the covered rows times the covered columns.
    const auto covered = [](int size, int outputs, int stride, int pad, int kernel, int dilation) {
        std::vector<bool> used(std::size_t(std::max(size, 0)), false);
        for (int o = 0; o < outputs; ++o)
            for (int k = 0; k < kernel; ++k)
                if (const std::int64_t i = std::int64_t(o) * stride - pad + std::int64_t(k) * dilation; i >= 0 && i < size)
                    used[std::size_t(i)] = true;
        return std::int64_t(std::count(used.begin(), used.end(), true));
    };
    const std::int64_t pixels = covered(l.h_in, l.hOut(), l.stride_h, l.pad_top, l.h_k, l.dilation_h)
        * covered(l.w_in, l.wOut(), l.stride_w, l.pad_left, l.w_k, l.dilation_w);
    const std::int64_t inputs = std::int64_t(l.c_in) * pixels;
    // Elements needed in each of `passes` runs of steps: at most mem_size of
    // them are on chip when a run begins, the rest are loaded in it.
    const auto loads = [&](std::int64_t needed, std::int64_t passes) {
        return needed + std::max<std::int64_t>(passes - 1, 0) * std::max<std::int64_t>(needed - h.mem_size, 0);
    };
    std::int64_t inputLoads = loads(inputs, inputPasses);
    if (l.isGrouped() && kernelBlock > 0 && inputPasses > 1) {
        // Pass b needs the slices of its block's groups; every slice is
        // loaded at least once.
        std::int64_t passLoads = 0;
        bool first = true;
        for (std::int64_t k0 = 0; k0 < l.n; k0 += kernelBlock) {
            const std::int64_t k1 = std::min<std::int64_t>(l.n, k0 + kernelBlock) - 1;
            const std::int64_t needed = pixels * l.sliceChannels() * (l.groupOfKernel(k1) - l.groupOfKernel(k0) + 1);
            passLoads += first ? needed : std::max<std::int64_t>(needed - h.mem_size, 0);
            first = false;
        }
        inputLoads = std::max(inputs, passLoads);
    }
    // Each output is written at least once, each compute step costs t_acc.
    const std::int64_t kernels
        = problem.options.kernels_preloaded ? 0 : loads(std::int64_t(l.n) * l.kernelElements(), kernelPasses);
    return double(inputLoads + kernels) * h.t_l + double(l.outputCount()) * h.t_w + double(computeSteps) * h.t_acc;
}

namespace {

LayerCandidate evaluate(const Problem &problem, const StrategySpec &spec, bool &overflow);
bool isGenerator(StrategyKind kind);

/// Tries `spec`; when a generator's groups overflow the memory, finds the
/// largest group size that fits by bisection (the footprint grows with the
/// group), trying each as "… G=g", down to one patch per group. Each try
/// goes to `tried`. Returns the largest that fits, or the one-patch try
/// when none does.
template <class Tried> StrategySpec shrinkUntilItFits(const Problem &problem, const StrategySpec &spec, const Tried &tried)
{
    bool overflow = false;
    LayerCandidate first = evaluate(problem, spec, overflow);
    std::int64_t tooLarge = first.row.group_size; // the least group size known to overflow
    tried(std::move(first));
    if (!overflow || !isGenerator(spec.kind) || tooLarge <= 1)
        return spec;
    std::int64_t fits = 0; // the largest known to fit; 0: none yet
    StrategySpec best = spec;
    while (tooLarge - fits > 1) {
        StrategySpec smaller = spec;
        smaller.group_size = (fits + tooLarge) / 2;
        smaller.name = spec.name + " G=" + std::to_string(*smaller.group_size);
        LayerCandidate c = evaluate(problem, smaller, overflow);
        tried(std::move(c));
        if (overflow)
            tooLarge = *smaller.group_size;
        else
            fits = *smaller.group_size;
        if (!overflow || tooLarge == 1)
            best = smaller;
    }
    return best;
}

} // namespace

namespace {

// A layer whose one simulation the estimate puts above this is not
// simulated to choose its stored defaults (an import of three 1048576 x 64
// inputs spent 38 s so): its generators' groups are sized without it.
constexpr double kSimulatedDefaultsSeconds = 0.5;

/// Without simulating: the largest G whose groups fit even when no two of
/// their patches share a pixel (every window loaded whole, every kernel on
/// chip), at least 1; smaller than what the simulation finds, never larger.
StrategySpec fitWithoutSimulating(const Problem &problem, const StrategySpec &spec)
{
    const Layer &l = problem.layer;
    const std::int64_t perPatch = std::int64_t(l.c_in) * l.h_k * l.w_k + l.n;
    const std::int64_t room = problem.hardware.mem_size - std::int64_t(l.n) * l.kernelElements();
    const std::int64_t safe = std::max<std::int64_t>(1, room / perPatch);
    const std::int64_t g = spec.group_size.value_or(problem.nbPatchesMax());
    if (g <= safe)
        return spec;
    StrategySpec smaller = spec;
    smaller.group_size = safe;
    smaller.name = spec.name + " G=" + std::to_string(safe);
    return smaller;
}

} // namespace

std::vector<StrategySpec> defaultLayerStrategies(const Problem &problem)
{
    std::vector<StrategySpec> specs;
    if (kernelsFitOnChip(problem) && problem.nbPatchesMax() >= 1)
        specs = heuristicSpecs();
    else if (const std::int64_t b = largestKernelBlock(problem); b >= 1)
        // The largest block, where the kernels are reloaded least.
        for (const KernelLoop loop : {KernelLoop::KernelsOuter, KernelLoop::PatchesOuter})
            specs.push_back(kernelBlockedSpec(b, PatchOrder::ZigZag, loop));
    // The op limit's group size can overflow the memory next to the
    // kernels (resnet8's stage3_conv2: 3 patches beside 33 kernels reach
    // 20067 of 20000 elements): a stored default must be able to run.
    const bool simulated = estimateSimulation(problem, false, false).seconds <= kSimulatedDefaultsSeconds;
    for (StrategySpec &spec : specs)
        if (isGenerator(spec.kind) && simulated) // S1-baseline's one patch is the least a step can hold
            spec = shrinkUntilItFits(problem, spec, [](LayerCandidate &&) {});
        else if (spec.kind == StrategyKind::RowByRow || spec.kind == StrategyKind::ZigZag)
            spec = fitWithoutSimulating(problem, spec);
    return specs;
}

namespace {

/// What one walk of a patch order cut into groups tells: |U_0| and, over the
/// groups after the first, the sums of |U_i \ U_{i-1}| (forward) and of
/// |U_{i-1} \ U_i| (backward).
struct GroupWalk {
    std::int64_t groups = 0, first = 0, forward = 0, backward = 0;
};

/// The S1 spec whose patch order and group size a generated spec of a dense
/// layer walks; nullopt where the bound does not apply.
std::optional<StrategySpec> walkedOrder(const Problem &problem, const StrategySpec &spec)
{
    const Layer &l = problem.layer;
    if (l.isGrouped())
        return std::nullopt;
    if (spec.kind == StrategyKind::S1Baseline || spec.kind == StrategyKind::RowByRow || spec.kind == StrategyKind::ZigZag) {
        StrategySpec order = spec;
        if (spec.kind == StrategyKind::S1Baseline) {
            order.kind = StrategyKind::RowByRow;
            order.group_size = 1;
        }
        order.group_size = order.group_size.value_or(problem.nbPatchesMax());
        return *order.group_size >= 1 ? std::optional(order) : std::nullopt;
    }
    if (spec.kind != StrategyKind::KernelBlocked)
        return std::nullopt;
    const std::int64_t block = spec.kernel_block.value_or(l.n);
    if (block < 1 || block > l.n)
        return std::nullopt;
    StrategySpec order;
    order.kind = spec.order == PatchOrder::RowByRow ? StrategyKind::RowByRow : StrategyKind::ZigZag;
    order.group_size = spec.group_size.value_or(kernelBlockedGroupSize(problem, block));
    return *order.group_size >= 1 ? std::optional(order) : std::nullopt;
}

GroupWalk walkGroups(const Problem &problem, const StrategySpec &order)
{
    const Layer &l = problem.layer;
    const PatchSequence sequence = *patchSequenceOf(problem, order);
    const std::size_t g = std::size_t(sequence.group_size);
    GroupWalk w;
    w.groups = std::int64_t(sequence.groupCount());
    std::vector<std::uint32_t> stamp(std::size_t(l.pixelCount()), 0);
    std::int64_t previousSize = 0;
    for (std::size_t i = 0; i < std::size_t(w.groups); ++i) {
        const std::uint32_t mark = std::uint32_t(i + 1);
        std::int64_t size = 0, kept = 0;
        for (std::size_t k = i * g; k < std::min(sequence.order.size(), (i + 1) * g); ++k)
            forEachPatchPixel(l, problem.options.padding_in_dram, sequence.order[k], [&](PixelId px) {
                if (stamp[px] == mark)
                    return;
                kept += i > 0 && stamp[px] == mark - 1;
                stamp[px] = mark;
                ++size;
            });
        if (i == 0) {
            w.first = size;
        } else {
            w.forward += size - kept;
            w.backward += previousSize - kept;
        }
        previousSize = size;
    }
    return w;
}

/// The duration bound of a generated spec from the walk of its order: its
/// input and kernel loads counted exactly, every output written once, t_acc
/// a step. S1 and patches-outer steps load U_i \ U_{i-1} at each new group;
/// each kernels-outer pass after the first starts on the group the previous
/// one ended with (the walk is serpentine), so pass 2, 4, … load the forward
/// differences and pass 1, 3, … the backward ones. Patches-outer keeps the
/// block a group ends with for the next group, which starts with it.
double boundFromWalk(const Problem &problem, const StrategySpec &spec, const GroupWalk &w)
{
    const Layer &l = problem.layer;
    const Hardware &h = problem.hardware;
    const std::int64_t kernel = l.kernelElements();
    std::int64_t pixels = w.first + w.forward, kernels = std::int64_t(l.n), steps = w.groups;
    if (spec.kind == StrategyKind::KernelBlocked) {
        const std::int64_t block = spec.kernel_block.value_or(l.n);
        const std::int64_t passes = (l.n + block - 1) / block, last = l.n - (passes - 1) * block;
        steps = w.groups * passes;
        if (spec.loop == KernelLoop::KernelsOuter) {
            pixels += (passes / 2) * w.backward + ((passes - 1) / 2) * w.forward;
        } else {
            // Group i - 1 ends on the last block when i - 1 is even, on the first when odd.
            const std::int64_t transitions = w.groups - 1, even = w.groups / 2, odd = transitions - even;
            kernels += transitions * l.n - even * last - odd * block;
        }
    }
    if (problem.options.kernels_preloaded)
        kernels = 0;
    return double(pixels * l.c_in + kernels * kernel) * h.t_l + double(l.outputCount()) * h.t_w + double(steps) * h.t_acc;
}

} // namespace

namespace {

std::int64_t defaultGroupSize(const Problem &problem, const StrategySpec &spec)
{
    switch (spec.kind) {
    case StrategyKind::RowByRow:
    case StrategyKind::ZigZag:
        return spec.group_size.value_or(problem.nbPatchesMax());
    case StrategyKind::S1Baseline:
        return 1;
    case StrategyKind::KernelBlocked:
        return spec.group_size.value_or(kernelBlockedGroupSize(problem, spec.kernel_block.value_or(problem.layer.n)));
    default:
        return 0;
    }
}

/// How often a strategy computes each patch: once per kernel block.
std::int64_t visitsPerPatch(const Problem &problem, const StrategySpec &spec)
{
    if (spec.kind == StrategyKind::KernelBlocked) {
        const std::int64_t b = std::max<std::int64_t>(1, spec.kernel_block.value_or(problem.layer.n));
        return (problem.layer.n + b - 1) / b;
    }
    if (spec.kind == StrategyKind::Steps)
        return std::max<std::int64_t>(1, std::int64_t(spec.steps.size()) / std::max<std::int64_t>(1, problem.layer.patchCount()));
    return 1;
}

/// One line per rule that reported, errors first: "reload-bound: step 9, a4
/// load input, pixel (3,4): loaded 3 times, more than ...".
std::vector<std::string> brokenRules(const SimulationResult &result)
{
    std::vector<std::string> lines;
    std::vector<Rule> seen;
    for (const Diagnostic &d : result.diagnostics)
        if (std::find(seen.begin(), seen.end(), d.rule) == seen.end()) {
            seen.push_back(d.rule);
            lines.push_back(ruleName(d.rule) + ": " + d.message);
        }
    return lines;
}

bool overflowsMemory(const SimulationResult &result)
{
    return std::any_of(
        result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic &d) { return d.rule == Rule::MemoryOverflow; });
}

/// Simulates `spec`; `overflow` tells whether the memory overflowed.
LayerCandidate evaluate(const Problem &problem, const StrategySpec &spec, bool &overflow)
{
    LayerCandidate c;
    c.spec = spec;
    CompareRow &row = c.row;
    row.name = spec.name;
    row.kind = strategyKindName(spec.kind);
    row.group_size = defaultGroupSize(problem, spec);
    overflow = false;
    const WorkEstimate work = estimateRanking(problem, spec, visitsPerPatch(problem, spec));
    if (const std::optional<std::string> why = exceedsBudget(work)) {
        row.failure = "not simulated: " + *why;
        return c;
    }
    SimulationOptions options;
    options.trace = false;
    options.functional = false;
    options.max_diagnostics_per_rule = 1;
    options.step_stats = false; // totals only: no per-step rows to allocate and sum again
    try {
        const SimulationResult r = simulateStrategy(problem, spec, options);
        setRowFigures(row, r);
        c.broken = brokenRules(r);
        overflow = overflowsMemory(r);
    } catch (const StrategyError &e) {
        row.failure = e.what();
    }
    return c;
}

/// Equal but for the name.
bool sameStrategy(StrategySpec a, const StrategySpec &b)
{
    a.name = b.name;
    return a == b;
}

bool isGenerator(StrategyKind kind)
{
    return kind == StrategyKind::RowByRow || kind == StrategyKind::ZigZag || kind == StrategyKind::KernelBlocked;
}

void checkCancel(const NetworkAnalysisOptions &options)
{
    if (options.cancel && options.cancel->load())
        throw Cancelled();
}

bool better(const LayerCandidate &c, const LayerCandidate *best)
{
    return c.row.valid && c.row.failure.empty() && (!best || c.row.total_duration < best->row.total_duration);
}

/// One member of the grid analyseLayer searches: a generated spec at one
/// group size, and a lower bound on its duration.
struct GridMember {
    StrategySpec spec;
    double bound = 0;
};

/// Every generated spec with its own group size G (the op limit's), then
/// G/4, G/16, … and one patch, each smaller one named "… G=g". The sizes do
/// not depend on mem_size, so more memory only turns more of them valid.
/// (Quarters of G and powers of two for B, rather than halves and every
/// divisor: convoffload-bench-network's analysis took 2.3 s instead of
/// 3.8 s, for the same total.)
std::vector<GridMember> candidateGrid(const Problem &problem, const std::vector<StrategySpec> &specs)
{
    std::vector<GridMember> grid;
    std::map<std::pair<StrategyKind, std::int64_t>, GroupWalk> walks;
    const Layer &l = problem.layer;
    const std::int64_t patches = l.patchCount();
    for (const StrategySpec &spec : specs) {
        const std::int64_t head = defaultGroupSize(problem, spec);
        const std::int64_t blocks = visitsPerPatch(problem, spec);
        for (std::int64_t g = std::max<std::int64_t>(head, 1); g >= 1; g = g > 1 && g < 4 ? 1 : g / 4) {
            GridMember m{spec, 0};
            if (g != head) {
                m.spec.group_size = g;
                m.spec.name = spec.name + " G=" + std::to_string(g);
            }
            const std::int64_t groups = (patches + g - 1) / g;
            // Kernels outer: every input again in each block's pass; patches
            // outer: every kernel again for each group.
            const bool kernelsOuter = spec.kind != StrategyKind::KernelBlocked || spec.loop == KernelLoop::KernelsOuter;
            m.bound = durationLowerBound(problem, groups * blocks, kernelsOuter ? blocks : 1, kernelsOuter ? 1 : groups,
                spec.kind == StrategyKind::KernelBlocked ? spec.kernel_block.value_or(l.n) : 0);
            // On a dense layer, one walk of the member's patch order (shared
            // by every member with that order and group size) bounds it
            // tightly: the grid is then simulated nearly in duration order.
            if (const std::optional<StrategySpec> order = walkedOrder(problem, m.spec)) {
                const std::pair key{order->kind, *order->group_size};
                auto walk = walks.find(key);
                if (walk == walks.end())
                    walk = walks.emplace(key, walkGroups(problem, *order)).first;
                m.bound = std::max(m.bound, boundFromWalk(problem, m.spec, walk->second));
            }
            grid.push_back(std::move(m));
            if (!isGenerator(spec.kind))
                break; // S1-baseline: one patch per step already
        }
    }
    return grid;
}

} // namespace

double LayerAnalysis::duration() const
{
    const LayerCandidate *b = bestCandidate();
    return b ? b->row.total_duration : 0.0;
}

const LayerCandidate *LayerAnalysis::bestOf(StrategyFamily family) const
{
    const LayerCandidate *found = nullptr;
    for (const LayerCandidate &c : candidates)
        if (strategyFamilyOf(c.spec.kind) == family && better(c, found))
            found = &c;
    return found;
}

namespace {

/// `spec` simulated, or its run taken from the cache (CandidateCache.h):
/// simulated once with an unbounded memory, then judged against this
/// layer's mem_size by its peak footprint.
LayerCandidate evaluateShared(const Problem &problem, const StrategySpec &spec, CandidateCache *cache)
{
    bool overflow = false;
    const std::optional<std::string> key = cache ? CandidateCache::keyOf(problem, spec) : std::nullopt;
    if (!key)
        return evaluate(problem, spec, overflow);
    std::optional<LayerCandidate> c = cache->find(*key);
    if (!c) {
        Problem unbounded = problem;
        unbounded.hardware.mem_size = std::numeric_limits<std::int64_t>::max();
        c = evaluate(unbounded, spec, overflow);
        cache->insert(*key, *c);
    }
    c->spec = spec;
    c->row.name = spec.name;
    if (c->row.failure.empty() && c->row.peak_footprint > problem.hardware.mem_size) {
        c->row.valid = false;
        ++c->row.errors;
        c->broken.insert(c->broken.begin(),
            ruleName(Rule::MemoryOverflow) + ": the peak footprint " + std::to_string(c->row.peak_footprint)
                + " is more than mem_size " + std::to_string(problem.hardware.mem_size));
    }
    return std::move(*c);
}

void considerCandidate(LayerAnalysis &layer, const StrategySpec &spec, CandidateCache *cache)
{
    LayerCandidate c = evaluateShared(layer.problem, spec, cache);
    const bool wins = better(c, layer.bestCandidate());
    layer.candidates.push_back(std::move(c));
    if (wins)
        layer.best = std::ptrdiff_t(layer.candidates.size() - 1);
}

} // namespace

std::optional<double> generatedLowerBound(const Problem &problem, const StrategySpec &spec)
{
    const std::optional<StrategySpec> order = walkedOrder(problem, spec);
    if (!order)
        return std::nullopt;
    return boundFromWalk(problem, spec, walkGroups(problem, *order));
}

void considerCandidate(LayerAnalysis &layer, const StrategySpec &spec) { considerCandidate(layer, spec, nullptr); }

LayerAnalysis analyseLayer(
    const std::string &name, const Problem &problem, const std::vector<StrategySpec> &own, const NetworkAnalysisOptions &options)
{
    LayerAnalysis a;
    a.name = name;
    a.problem = problem;
    a.kernels_fit = kernelsFitOnChip(problem);
    a.nb_patches_max = problem.nbPatchesMax();
    for (const StrategySpec &spec : own) {
        checkCancel(options);
        considerCandidate(a, spec, options.cache);
    }
    if (!options.generate)
        return a;
    std::vector<GridMember> grid = candidateGrid(problem, generatedStrategies(problem));
    std::erase_if(grid, [&](const GridMember &m) {
        return std::any_of(own.begin(), own.end(), [&](const StrategySpec &o) { return sameStrategy(o, m.spec); });
    }); // the project holds it already
    // The heuristics at their own group sizes first, as `compare` shows
    // them; then the rest by increasing lower bound, until no member left
    // can beat the best: its best is the grid's, whatever was skipped.
    const auto first = std::stable_partition(grid.begin(), grid.end(),
        [](const GridMember &m) { return strategyFamilyOf(m.spec.kind) == StrategyFamily::Heuristic && !m.spec.group_size; });
    std::stable_sort(first, grid.end(), [](const GridMember &x, const GridMember &y) { return x.bound < y.bound; });
    for (auto it = grid.begin(); it != grid.end(); ++it) {
        const LayerCandidate *best = a.bestCandidate();
        if (it >= first && best && it->bound >= best->row.total_duration)
            break;
        checkCancel(options);
        considerCandidate(a, it->spec, options.cache);
    }
    return a;
}

void summariseNetwork(NetworkAnalysis &analysis)
{
    analysis.total_duration = 0;
    analysis.layers_without_valid = 0;
    for (const LayerAnalysis &l : analysis.layers) {
        analysis.total_duration += l.duration();
        if (!l.bestCandidate())
            ++analysis.layers_without_valid;
    }
    std::vector<std::size_t> order(analysis.layers.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return analysis.layers[a].duration() > analysis.layers[b].duration(); });
    analysis.dominating.clear();
    double covered = 0;
    for (const std::size_t i : order) {
        if (analysis.total_duration <= 0 || covered * 2 >= analysis.total_duration)
            break;
        analysis.dominating.push_back(i);
        covered += analysis.layers[i].duration();
    }
}

NetworkAnalysis analyseNetwork(const Network &network, const NetworkAnalysisOptions &options)
{
    // Layers are independent (parallelFor: a failure, a cancel included,
    // stops the others at their next layer). Each result has its slot, so
    // the analysis is the same whatever the number of threads.
    const std::size_t count = network.layers.size();
    std::vector<std::optional<LayerAnalysis>> layers(count);
    // A layer identical to an earlier one (same shape, hardware, options and
    // own strategies: ResNets repeat their blocks) has the same analysis; it
    // is run once and copied under each name.
    std::vector<Problem> problems;
    for (std::size_t i = 0; i < count; ++i)
        problems.push_back(network.problemOf(i));
    std::vector<std::size_t> unique; // layers analysed, in order
    std::vector<std::vector<std::size_t>> copies(count); // for each of them, its later twins
    for (std::size_t i = 0; i < count; ++i) {
        const auto twin = std::find_if(unique.begin(), unique.end(), [&](std::size_t j) {
            return problems[j] == problems[i] && network.layers[j].strategies == network.layers[i].strategies;
        });
        if (twin == unique.end())
            unique.push_back(i);
        else
            copies[*twin].push_back(i);
    }
    std::mutex lock; // progress calls
    std::size_t done = 0;
    if (options.progress)
        options.progress(0, count);
    parallelFor(unique.size(), options.threads > 0 ? std::size_t(options.threads) : 0, [&](std::size_t u) {
        const std::size_t i = unique[u];
        layers[i] = analyseLayer(network.layers[i].name, problems[i], network.layers[i].strategies, options);
        for (const std::size_t twin : copies[i]) {
            layers[twin] = layers[i];
            layers[twin]->name = network.layers[twin].name;
        }
        const std::lock_guard guard(lock);
        done += 1 + copies[i].size();
        if (options.progress)
            options.progress(done, count);
    });

    NetworkAnalysis analysis;
    analysis.skipped = network.skipped;
    for (std::optional<LayerAnalysis> &layer : layers)
        analysis.layers.push_back(std::move(*layer));
    summariseNetwork(analysis);
    return analysis;
}

std::vector<std::vector<StrategySpec>> defaultStrategiesOf(const std::vector<Problem> &problems, std::size_t threads)
{
    std::vector<std::vector<StrategySpec>> strategies(problems.size());
    std::vector<std::size_t> unique; // the first of each set of equal problems (a ResNet's repeated blocks)
    std::vector<std::size_t> firstOf(problems.size());
    for (std::size_t i = 0; i < problems.size(); ++i) {
        const auto same = std::find_if(unique.begin(), unique.end(), [&](std::size_t j) { return problems[j] == problems[i]; });
        firstOf[i] = same == unique.end() ? i : *same;
        if (same == unique.end())
            unique.push_back(i);
    }
    parallelFor(
        unique.size(), threads, [&](std::size_t u) { strategies[unique[u]] = defaultLayerStrategies(problems[unique[u]]); });
    for (std::size_t i = 0; i < problems.size(); ++i)
        if (firstOf[i] != i)
            strategies[i] = strategies[firstOf[i]];
    return strategies;
}

WorkEstimate estimateNetworkAnalysis(const Network &network, bool generate, std::size_t threads)
{
    WorkEstimate total;
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        const Problem problem = network.problemOf(i);
        std::vector<StrategySpec> specs = network.layers[i].strategies;
        if (generate)
            for (const StrategySpec &s : generatedStrategies(problem))
                specs.push_back(s);
        for (const StrategySpec &s : specs) {
            const WorkEstimate w = estimateRanking(problem, s, visitsPerPatch(problem, s));
            total.seconds += w.seconds;
            total.pixel_visits += w.pixel_visits;
            total.bytes = std::max(total.bytes, w.bytes);
        }
    }
    total.bytes *= double(std::min(std::max<std::size_t>(threads, 1), std::max<std::size_t>(network.layers.size(), 1)));
    return total;
}

} // namespace convoffload
