// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The fast engine checked against the naive reference (tests/support/reference):
// the paper's Example by hand, then hundreds of randomised layers, strategies
// and corrupted step lists on which both executors must agree exactly.
// Every random case is rebuilt from its own seed; a failure names the seed.

#include "NaiveExecutor.h"
#include "TestProblems.h"

#include "convoffload/model/TensorData.h"
#include "convoffload/model/Ids.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/model/S1Strategy.h"
#include "convoffload/simulate/FusedSimulation.h"
#include "convoffload/simulate/Simulator.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <QtTest>

#include <algorithm>
#include <span>
#include <array>
#include <functional>
#include <random>
#include <sstream>

using namespace convoffload;
using ViolationSet = std::set<naive::Violation>;

namespace {

// ---------------------------------------------------------------- random cases

int uniform(std::mt19937 &rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
bool coin(std::mt19937 &rng, double p = 0.5) { return std::bernoulli_distribution(p)(rng); }

enum class Kind { Baseline, RowByRow, ZigZag, Partition };

const char *kindName(Kind k)
{
    switch (k) {
    case Kind::Baseline:
        return "s1-baseline";
    case Kind::RowByRow:
        return "row-by-row";
    case Kind::ZigZag:
        return "zigzag";
    case Kind::Partition:
        return "random-partition";
    }
    return "?";
}

// The rows of a data-driven test over the four strategy kinds, with the
// number of random cases each kind runs.
void addKindRows(const std::array<int, 4> &cases)
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("cases");
    for (Kind k : {Kind::Baseline, Kind::RowByRow, Kind::ZigZag, Kind::Partition})
        QTest::newRow(kindName(k)) << int(k) << cases[std::size_t(k)];
}

struct Case {
    std::uint64_t seed = 0;
    Problem problem;
    Kind kind = Kind::ZigZag;
    std::int64_t group_size = 1;
    Groups groups;
};

Layer randomLayer(std::mt19937 &rng)
{
    Layer l;
    l.c_in = uniform(rng, 1, 3);
    l.h_in = uniform(rng, 3, 12);
    l.w_in = uniform(rng, 3, 12);
    // Padding on about half the layers, each side independently 0-2.
    const bool padded = coin(rng);
    l.pad_top = padded ? uniform(rng, 0, 2) : 0;
    l.pad_bottom = padded ? uniform(rng, 0, 2) : 0;
    l.pad_left = padded ? uniform(rng, 0, 2) : 0;
    l.pad_right = padded ? uniform(rng, 0, 2) : 0;
    l.h_k = uniform(rng, 1, std::min(4, l.paddedHeight()));
    l.w_k = uniform(rng, 1, std::min(4, l.paddedWidth()));
    l.stride_h = uniform(rng, 1, 3);
    l.stride_w = uniform(rng, 1, 3);
    l.n = uniform(rng, 1, 3);
    // Grouped (depthwise when g = c_in) and dilated layers on some cases
    // (docs/reference/model.md#grouped-and-dilated).
    if (coin(rng, 0.35)) {
        l.group = uniform(rng, 2, 3);
        l.c_in = l.group * uniform(rng, 1, 2);
        l.n = l.group * uniform(rng, 1, 2);
    }
    if (coin(rng, 0.3)) {
        l.dilation_h = uniform(rng, 1, 3);
        l.dilation_w = uniform(rng, 1, 3);
        while (l.spanH() > l.paddedHeight())
            --l.dilation_h;
        while (l.spanW() > l.paddedWidth())
            --l.dilation_w;
    }
    return l;
}

/// Hardware sized around a group of `groupSize` patches: generous or tight
/// memory (tight ones overflow now and then), nbop_pe sometimes too small.
Hardware randomHardware(std::mt19937 &rng, const Layer &l, std::int64_t groupSize, bool generous)
{
    Hardware h;
    const std::int64_t opsPerPatch = l.kernelElements() * l.n;
    h.nbop_pe
        = coin(rng, 0.15) ? uniform(rng, 1, int(opsPerPatch)) : groupSize * opsPerPatch + uniform(rng, 0, int(opsPerPatch) - 1);
    const std::int64_t need = l.n * l.kernelElements() + groupSize * l.kernelElements() + 2 * groupSize * l.n;
    h.mem_size = generous ? 1000000000 : need * uniform(rng, 50, 130) / 100;
    h.t_l = uniform(rng, 0, 3);
    h.t_w = uniform(rng, 0, 3);
    h.t_acc = uniform(rng, 0, 3);
    h.max_loads_per_element = uniform(rng, 1, 3);
    return h;
}

Options randomOptions(std::mt19937 &rng)
{
    Options o;
    o.kernels_preloaded = coin(rng);
    o.write_policy = coin(rng) ? WritePolicy::NextStep : WritePolicy::AsLateAsPossible;
    o.padding_in_dram = coin(rng);
    return o;
}

/// An ordered partition of all patches into groups of 1..maxGroup patches.
Groups randomPartition(std::mt19937 &rng, std::int64_t patches, std::int64_t maxGroup)
{
    std::vector<PatchId> order(std::size_t(patches), 0);
    for (std::size_t p = 0; p < order.size(); ++p)
        order[p] = PatchId(p);
    std::shuffle(order.begin(), order.end(), rng);
    Groups groups;
    for (std::size_t at = 0; at < order.size();) {
        const std::size_t size = std::min<std::size_t>(std::size_t(uniform(rng, 1, int(maxGroup))), order.size() - at);
        groups.emplace_back(order.begin() + std::ptrdiff_t(at), order.begin() + std::ptrdiff_t(at + size));
        at += size;
    }
    return groups;
}

Case randomCase(std::uint64_t seed, Kind kind, bool generousMemory)
{
    std::mt19937 rng(std::uint32_t(seed * 2654435761u + 12345u));
    Case c;
    c.seed = seed;
    c.kind = kind;
    c.problem.layer = randomLayer(rng);
    c.problem.options = randomOptions(rng);
    const std::int64_t patches = c.problem.layer.patchCount();
    c.group_size = kind == Kind::Baseline ? 1 : uniform(rng, 1, int(std::min<std::int64_t>(patches, 8)));
    c.problem.hardware = randomHardware(rng, c.problem.layer, c.group_size, generousMemory || coin(rng));
    switch (kind) {
    case Kind::Baseline:
        c.groups = s1Baseline(c.problem.layer);
        break;
    case Kind::RowByRow:
        c.groups = rowByRow(c.problem.layer, c.group_size);
        break;
    case Kind::ZigZag:
        c.groups = zigzag(c.problem.layer, c.group_size);
        break;
    case Kind::Partition:
        c.groups = randomPartition(rng, patches, c.group_size);
        break;
    }
    return c;
}

std::string describe(const Case &c)
{
    const Layer &l = c.problem.layer;
    const Hardware &h = c.problem.hardware;
    const Options &o = c.problem.options;
    std::ostringstream s;
    s << "seed " << c.seed << " [" << kindName(c.kind) << " G=" << c.group_size << ", " << c.groups.size()
      << " groups; layer c_in=" << l.c_in << " " << l.h_in << "x" << l.w_in << " k" << l.h_k << "x" << l.w_k << " n=" << l.n
      << " g=" << l.group << " d=(" << l.dilation_h << "," << l.dilation_w << ") s=(" << l.stride_h << "," << l.stride_w
      << ") pad(t,b,l,r)=(" << l.pad_top << "," << l.pad_bottom << "," << l.pad_left << "," << l.pad_right
      << "); mem=" << h.mem_size << " nbop=" << h.nbop_pe << " t=(" << h.t_l << "," << h.t_w << "," << h.t_acc
      << ") maxLoads=" << h.max_loads_per_element << "; preloaded=" << o.kernels_preloaded
      << " write=" << writePolicyName(o.write_policy) << " paddingInDram=" << o.padding_in_dram << "]";
    return s.str();
}

// ---------------------------------------------------------------- comparison

template <typename T> std::vector<T> sorted(std::vector<T> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

std::string idList(const std::vector<std::uint32_t> &ids)
{
    std::ostringstream s;
    s << "{";
    for (std::size_t k = 0; k < ids.size() && k < 24; ++k)
        s << (k ? "," : "") << ids[k];
    s << (ids.size() > 24 ? ",...}" : "}");
    return s.str();
}

std::string compareExpansions(const StepList &fast, const StepList &ref)
{
    if (fast.size() != ref.size())
        return "expandS1 gives " + std::to_string(fast.size()) + " steps, naive " + std::to_string(ref.size());
    for (std::size_t k = 0; k < fast.size(); ++k) {
        const std::string at = "expanded step " + std::to_string(k + 1) + " ";
        const Step &f = fast[k], &r = ref[k];
        const std::pair<const char *, std::pair<const std::vector<std::uint32_t> *, const std::vector<std::uint32_t> *>> fields[]
            = {{"F_inp", {&f.free_input, &r.free_input}}, {"F_ker", {&f.free_kernels, &r.free_kernels}},
                {"W", {&f.write, &r.write}}, {"I_slice", {&f.load_input, &r.load_input}},
                {"K_sub", {&f.load_kernels, &r.load_kernels}}, {"Out", {&f.compute, &r.compute}}};
        for (const auto &[name, pair] : fields)
            if (sorted(*pair.first) != *pair.second)
                return at + name + ": fast " + idList(sorted(*pair.first)) + " naive " + idList(*pair.second);
    }
    return {};
}

std::pair<ViolationSet, ViolationSet> fastViolations(const SimulationResult &r)
{
    ViolationSet errors, warnings;
    for (const Diagnostic &d : r.diagnostics)
        (d.severity == Severity::Error ? errors : warnings).insert({d.step, d.rule});
    return {errors, warnings};
}

std::string violationList(const ViolationSet &v)
{
    std::ostringstream s;
    s << "{";
    for (const auto &[step, rule] : v)
        s << "(" << step << "," << ruleName(rule) << ")";
    s << "}";
    return s.str();
}

std::string footprintText(std::int64_t input, std::int64_t kernels, std::int64_t output)
{
    std::ostringstream s;
    s << "(" << input << "," << kernels << "," << output << ")";
    return s.str();
}

/// First difference in per-step figures and per-action footprints.
std::string compareStats(const SimulationResult &fast, const naive::NaiveReport &ref)
{
    if (fast.steps.size() != ref.steps.size())
        return "fast reports " + std::to_string(fast.steps.size()) + " steps, naive " + std::to_string(ref.steps.size());
    for (std::size_t k = 0; k < ref.steps.size(); ++k) {
        const StepStats &f = fast.steps[k];
        const naive::NaiveStepReport &r = ref.steps[k];
        const std::string at = "step " + std::to_string(k + 1) + ": ";
        const std::pair<const char *, std::pair<std::int64_t, std::int64_t>> counts[]
            = {{"loadedInput", {f.loaded_input, r.loaded_input}}, {"loadedKernels", {f.loaded_kernels, r.loaded_kernels}},
                {"freedInput", {f.freed_input, r.freed_input}}, {"freedKernels", {f.freed_kernels, r.freed_kernels}},
                {"written", {f.written, r.written}}, {"computed", {f.computed, r.computed}}};
        for (const auto &[name, pair] : counts)
            if (pair.first != pair.second)
                return at + name + " fast " + std::to_string(pair.first) + " naive " + std::to_string(pair.second);
        if (f.duration() != r.duration)
            return at + "duration fast " + std::to_string(f.duration()) + " naive " + std::to_string(r.duration);
        std::int64_t peak = 0;
        for (int a = 0; a < kActionCount; ++a) {
            const Footprint &fa = fast.trace.record(int(k), Action(a)).after;
            const naive::NaiveFootprint &ra = r.after[std::size_t(a)];
            peak = std::max(peak, ra.total());
            if (fa.input != ra.input || fa.kernels != ra.kernels || fa.output != ra.output)
                return at + std::string(actionName(Action(a))) + " footprint (input,kernels,output) fast "
                    + footprintText(fa.input, fa.kernels, fa.output) + " naive " + footprintText(ra.input, ra.kernels, ra.output);
        }
        const naive::NaiveFootprint &last = r.after[kActionCount - 1];
        if (f.after.input != last.input || f.after.kernels != last.kernels || f.after.output != last.output)
            return at + "StepStats::after differs from the naive footprint after a6";
        if (f.peak_footprint != peak)
            return at + "peakFootprint fast " + std::to_string(f.peak_footprint) + " naive " + std::to_string(peak);
        if (f.drain != (r.computed == 0))
            return at + "drain flag fast " + std::to_string(f.drain);
    }
    if (fast.totalDuration() != ref.totalDuration() || fast.peakFootprint() != ref.peakFootprint()
        || fast.loadedInput() != ref.loadedInput() || fast.written() != ref.written())
        return "totals differ";
    return {};
}

SimulationOptions traceOptions(bool functional = false, std::uint64_t seed = 1)
{
    SimulationOptions o;
    o.trace = true;
    o.functional = functional;
    o.seed = seed;
    o.max_diagnostics_per_rule = 1 << 30; // every (step, rule) must be visible to compare
    return o;
}

/// Both executors on the same steps: validity, (step, rule) sets and, when
/// asked, every per-step figure and per-action footprint.
std::string compareExecutions(const Problem &p, const StepList &steps, bool withStats)
{
    const SimulationResult fast = simulate(p, steps, traceOptions());
    const naive::NaiveReport ref = naive::naiveExecute(p, steps);
    if (fast.suppressed_diagnostics != 0)
        return "fast engine suppressed " + std::to_string(fast.suppressed_diagnostics) + " diagnostics";
    const auto [errors, warnings] = fastViolations(fast);
    if (errors != ref.errors)
        return "errors fast " + violationList(errors) + " naive " + violationList(ref.errors);
    if (warnings != ref.warnings)
        return "warnings fast " + violationList(warnings) + " naive " + violationList(ref.warnings);
    if (fast.valid() != ref.valid())
        return "valid() differs";
    return withStats ? compareStats(fast, ref) : std::string();
}

/// Runs `check` on `count` seeds; fails listing the first few failing cases.
void forSeeds(int count, std::uint64_t base, const std::function<std::string(std::uint64_t)> &check)
{
    std::vector<std::string> failures;
    for (int k = 0; k < count; ++k) {
        const std::uint64_t seed = base + std::uint64_t(k);
        std::string failure;
        try {
            failure = check(seed);
        } catch (const std::exception &e) {
            failure = "seed " + std::to_string(seed) + ": exception " + e.what();
        }
        if (!failure.empty())
            failures.push_back(failure);
    }
    std::string text = std::to_string(failures.size()) + " of " + std::to_string(count) + " cases disagree";
    for (std::size_t k = 0; k < failures.size() && k < 5; ++k)
        text += "\n  " + failures[k];
    QVERIFY2(failures.empty(), text.c_str());
}

/// How many agreeing cases reached each situation worth testing.
struct Coverage {
    int cases = 0, valid = 0, overflow = 0, tooManyOps = 0, reloadBound = 0, earlyLateWrites = 0;

    void add(const Problem &p, const StepList &steps, const naive::NaiveReport &r)
    {
        ++cases;
        valid += r.valid();
        auto has = [](const ViolationSet &v, Rule rule) {
            return std::any_of(v.begin(), v.end(), [rule](const naive::Violation &x) { return x.second == rule; });
        };
        overflow += has(r.errors, Rule::MemoryOverflow);
        tooManyOps += has(r.errors, Rule::TooManyOps);
        reloadBound += has(r.warnings, Rule::ReloadBound);
        // As-late-as-possible writing before the drain: memory ran short.
        const bool late = p.options.write_policy == WritePolicy::AsLateAsPossible;
        earlyLateWrites += late && std::any_of(steps.begin(), steps.end() - 1, [](const Step &s) { return !s.write.empty(); });
    }
    std::string text() const
    {
        std::ostringstream s;
        s << cases << " cases: " << valid << " valid, " << overflow << " with memory overflow, " << tooManyOps
          << " with too many ops, " << reloadBound << " with reload-bound warnings, " << earlyLateWrites
          << " as-late-as-possible cases writing before the drain";
        return s.str();
    }
};

// ---------------------------------------------------------------- mutations

using Mutation = bool (*)(StepList &, std::mt19937 &, const Layer &);

template <typename T> void insertSorted(std::vector<T> &v, T x) { v.insert(std::lower_bound(v.begin(), v.end(), x), x); }

/// (step index, position) of every id of one field.
template <typename Field> std::vector<std::pair<std::size_t, std::size_t>> positions(const StepList &s, Field field)
{
    std::vector<std::pair<std::size_t, std::size_t>> at;
    for (std::size_t k = 0; k < s.size(); ++k)
        for (std::size_t i = 0; i < (s[k].*field).size(); ++i)
            at.emplace_back(k, i);
    return at;
}

template <typename Field> bool dropOne(StepList &s, std::mt19937 &rng, Field field)
{
    const auto at = positions(s, field);
    if (at.empty())
        return false;
    const auto [k, i] = at[std::size_t(uniform(rng, 0, int(at.size()) - 1))];
    (s[k].*field).erase((s[k].*field).begin() + std::ptrdiff_t(i));
    return true;
}

bool dropLoad(StepList &s, std::mt19937 &rng, const Layer &) { return dropOne(s, rng, &Step::load_input); }
bool dropWrite(StepList &s, std::mt19937 &rng, const Layer &) { return dropOne(s, rng, &Step::write); }
bool dropKernelLoad(StepList &s, std::mt19937 &rng, const Layer &) { return dropOne(s, rng, &Step::load_kernels); }
bool dropFree(StepList &s, std::mt19937 &rng, const Layer &) { return dropOne(s, rng, &Step::free_input); }

bool duplicateCompute(StepList &s, std::mt19937 &rng, const Layer &)
{
    const auto at = positions(s, &Step::compute);
    if (at.empty() || s.size() < 2)
        return false;
    const auto [k, i] = at[std::size_t(uniform(rng, 0, int(at.size()) - 1))];
    std::size_t target = k;
    while (target == k)
        target = std::size_t(uniform(rng, 0, int(s.size()) - 1));
    const OutputId o = s[k].compute[i];
    if (std::find(s[target].compute.begin(), s[target].compute.end(), o) != s[target].compute.end())
        return false; // already duplicated there by an earlier mutation
    insertSorted(s[target].compute, o);
    return true;
}

bool spuriousFree(StepList &s, std::mt19937 &rng, const Layer &l)
{
    Step &step = s[std::size_t(uniform(rng, 0, int(s.size()) - 1))];
    if (coin(rng, 0.25)) {
        const KernelId k = KernelId(uniform(rng, 0, l.n - 1));
        if (std::find(step.free_kernels.begin(), step.free_kernels.end(), k) != step.free_kernels.end())
            return false;
        insertSorted(step.free_kernels, k);
        return true;
    }
    const PixelId p = PixelId(uniform(rng, 0, int(l.pixelCount()) - 1));
    if (std::find(step.free_input.begin(), step.free_input.end(), p) != step.free_input.end())
        return false;
    insertSorted(step.free_input, p);
    return true;
}

bool lateLoad(StepList &s, std::mt19937 &rng, const Layer &)
{
    auto at = positions(s, &Step::load_input);
    std::erase_if(at, [&](const auto &a) { return a.first + 1 >= s.size(); });
    if (at.empty())
        return false;
    const auto [k, i] = at[std::size_t(uniform(rng, 0, int(at.size()) - 1))];
    const PixelId p = s[k].load_input[i];
    auto &next = s[k + 1].load_input;
    if (std::find(next.begin(), next.end(), p) != next.end())
        return false;
    s[k].load_input.erase(s[k].load_input.begin() + std::ptrdiff_t(i));
    insertSorted(next, p);
    return true;
}

// ---------------------------------------------------------------- kernel streaming

/// A random explicit step list with kernel subsets (docs/reference/strategies.md#steps-strategies) on a random
/// layer; the options are set by the caller, since every combination is run.
struct StreamCase {
    std::uint64_t seed = 0;
    Problem problem;
    ComputeSteps steps;
    std::string shape; // how the steps were made, for messages
};

/// Every (patch, kernel) pair exactly once: a random partition of the patches
/// into groups crossed with a random partition of the kernels into blocks,
/// the (group, block) steps in a random order, a kernel block (or group)
/// sometimes reordered so that the order inside a step does not matter.
ComputeSteps randomProductPartition(std::mt19937 &rng, const Layer &l, std::int64_t maxGroup)
{
    const Groups groups = randomPartition(rng, l.patchCount(), maxGroup);
    std::vector<KernelId> kernels(std::size_t(l.n), 0);
    for (std::size_t k = 0; k < kernels.size(); ++k)
        kernels[k] = KernelId(k);
    std::shuffle(kernels.begin(), kernels.end(), rng);
    std::vector<std::vector<KernelId>> blocks;
    for (std::size_t at = 0; at < kernels.size();) {
        const std::size_t size = std::min<std::size_t>(std::size_t(uniform(rng, 1, l.n)), kernels.size() - at);
        blocks.emplace_back(kernels.begin() + std::ptrdiff_t(at), kernels.begin() + std::ptrdiff_t(at + size));
        at += size;
    }
    ComputeSteps steps;
    for (const Group &g : groups)
        for (const auto &b : blocks)
            steps.push_back({g, b});
    // Mostly keep runs of one group (or one block) together, as the
    // generators do, so that data is kept between steps; sometimes shuffle.
    if (coin(rng, 0.3))
        std::shuffle(steps.begin(), steps.end(), rng);
    else if (coin(rng))
        std::stable_sort(steps.begin(), steps.end(),
            [](const ComputeStep &a, const ComputeStep &b) { return a.kernels.front() < b.kernels.front(); });
    return steps;
}

/// Breaks the pair rules now and then: a step repeated (pairs computed twice),
/// a step dropped (pairs never computed), a random extra step.
std::string perturb(std::mt19937 &rng, const Layer &l, ComputeSteps &steps)
{
    const int what = uniform(rng, 0, 9);
    if (what == 0 && !steps.empty()) {
        steps.push_back(steps[std::size_t(uniform(rng, 0, int(steps.size()) - 1))]);
        return "+repeat";
    }
    if (what == 1 && steps.size() > 1) {
        steps.erase(steps.begin() + uniform(rng, 0, int(steps.size()) - 1));
        return "+drop";
    }
    if (what == 2) {
        ComputeStep extra;
        extra.patches.push_back(PatchId(uniform(rng, 0, int(l.patchCount()) - 1)));
        extra.kernels.push_back(KernelId(uniform(rng, 0, l.n - 1)));
        steps.insert(steps.begin() + uniform(rng, 0, int(steps.size())), extra);
        return "+extra";
    }
    return {};
}

StreamCase randomStreamCase(std::uint64_t seed, bool generousMemory, bool perturbed)
{
    std::mt19937 rng(std::uint32_t(seed * 2246822519u + 777u));
    StreamCase c;
    c.seed = seed;
    Layer &l = c.problem.layer;
    l = randomLayer(rng);
    l.n = l.group * uniform(rng, 1, 5 / l.group); // enough kernels for blocks, a multiple of the group count
    const std::int64_t group = uniform(rng, 1, int(std::min<std::int64_t>(l.patchCount(), 6)));
    c.steps = randomProductPartition(rng, l, group);
    c.shape = std::to_string(c.steps.size()) + " product steps, max group " + std::to_string(group);
    if (perturbed)
        c.shape += perturb(rng, l, c.steps);
    std::size_t maxPairs = 1, maxKernels = 1;
    for (const ComputeStep &st : c.steps) {
        maxPairs = std::max(maxPairs, st.patches.size() * st.kernels.size());
        maxKernels = std::max(maxKernels, st.kernels.size());
    }
    Hardware &h = c.problem.hardware;
    const std::int64_t ops = std::int64_t(maxPairs) * l.kernelElements();
    h.nbop_pe = coin(rng, 0.15) ? uniform(rng, 1, int(ops)) : ops + uniform(rng, 0, int(l.kernelElements()));
    const std::int64_t need
        = std::int64_t(maxKernels) * l.kernelElements() + group * l.kernelElements() + 2 * std::int64_t(maxPairs);
    h.mem_size = generousMemory || coin(rng) ? 1000000000 : need * uniform(rng, 50, 130) / 100;
    h.t_l = uniform(rng, 0, 3);
    h.t_w = uniform(rng, 0, 3);
    h.t_acc = uniform(rng, 0, 3);
    h.max_loads_per_element = uniform(rng, 1, 3);
    return c;
}

/// The eight option combinations (kernels_preloaded × write policy × padding).
std::vector<Options> everyOption()
{
    std::vector<Options> all;
    for (bool preloaded : {false, true})
        for (WritePolicy w : {WritePolicy::NextStep, WritePolicy::AsLateAsPossible})
            for (bool padding : {true, false})
                all.push_back({preloaded, w, padding});
    return all;
}

std::string describe(const StreamCase &c)
{
    Case asCase;
    asCase.seed = c.seed;
    asCase.problem = c.problem;
    asCase.kind = Kind::Partition;
    std::string text = describe(asCase);
    return text + " {" + c.shape + "}";
}

/// A ReloadBound warning about a kernel (not a pixel).
bool kernelReloadWarned(const SimulationResult &r)
{
    return std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic &d) {
        return d.rule == Rule::ReloadBound && d.element_kind == ElementKind::Kernel && d.action == Action::LoadKernels;
    });
}

// ---------------------------------------------------------------- fused S1 pass

/// First difference between two results of the same strategy, field by field
/// (the trace aside); empty when they are identical.
bool sameTrace(const Trace &a, const Trace &b)
{
    const auto sameRecord = [](const ActionRecord &x, const ActionRecord &y) {
        return x.action == y.action && x.begin == y.begin && x.end == y.end && x.after == y.after;
    };
    return a.ids == b.ids && std::equal(a.actions.begin(), a.actions.end(), b.actions.begin(), b.actions.end(), sameRecord);
}

std::string compareResults(const SimulationResult &a, const SimulationResult &b)
{
    if (a.steps.size() != b.steps.size())
        return std::to_string(a.steps.size()) + " steps vs " + std::to_string(b.steps.size());
    for (std::size_t k = 0; k < a.steps.size(); ++k) {
        const StepStats &x = a.steps[k], &y = b.steps[k];
        if (x.freed_input != y.freed_input || x.freed_kernels != y.freed_kernels || x.written != y.written
            || x.loaded_input != y.loaded_input || x.loaded_kernels != y.loaded_kernels || x.computed != y.computed
            || x.peak_footprint != y.peak_footprint || !(x.after == y.after) || x.load_duration != y.load_duration
            || x.write_duration != y.write_duration || x.compute_duration != y.compute_duration || x.drain != y.drain)
            return "step " + std::to_string(k + 1) + " statistics differ";
    }
    if (a.error_count != b.error_count || a.warning_count != b.warning_count
        || a.suppressed_diagnostics != b.suppressed_diagnostics)
        return "counts: errors " + std::to_string(a.error_count) + "/" + std::to_string(b.error_count) + ", warnings "
            + std::to_string(a.warning_count) + "/" + std::to_string(b.warning_count) + ", suppressed "
            + std::to_string(a.suppressed_diagnostics) + "/" + std::to_string(b.suppressed_diagnostics);
    if (a.diagnostics.size() != b.diagnostics.size())
        return std::to_string(a.diagnostics.size()) + " diagnostics vs " + std::to_string(b.diagnostics.size());
    for (std::size_t k = 0; k < a.diagnostics.size(); ++k) {
        const Diagnostic &x = a.diagnostics[k], &y = b.diagnostics[k];
        if (x.message != y.message || x.rule != y.rule || x.severity != y.severity || x.step != y.step
            || x.has_action != y.has_action || x.action != y.action || x.element != y.element || x.element_kind != y.element_kind
            || x.element_id != y.element_id)
            return "diagnostic " + std::to_string(k) + ": '" + x.message + "' vs '" + y.message + "'";
    }
    if (a.input_load_counts != b.input_load_counts || a.kernel_load_counts != b.kernel_load_counts)
        return "load counts differ";
    if (a.functional.status != b.functional.status || a.functional.message != b.functional.message
        || a.functional.dram_output != b.functional.dram_output)
        return "functional: " + functionalStatusName(a.functional.status) + " '" + a.functional.message + "' vs "
            + functionalStatusName(b.functional.status) + " '" + b.functional.message + "'";
    // The reload assumption in full: the fused pass flags patches while it
    // walks a group's pixels, the general executor at each compute.
    if (a.reload.bound != b.reload.bound || a.reload.pixels != b.reload.pixels || a.reload.kernels != b.reload.kernels
        || a.reload.patches != b.reload.patches)
        return "reload assumption: " + std::to_string(a.reload.pixels) + " pixels, " + std::to_string(a.reload.kernels)
            + " kernels, " + std::to_string(a.reload.patches.size()) + " patches vs " + std::to_string(b.reload.pixels) + ", "
            + std::to_string(b.reload.kernels) + ", " + std::to_string(b.reload.patches.size());
    return {};
}

/// A run without step stats (`totalsOnly`) against the same run with them:
/// no steps, totals equal to the sums over the full run's steps worked out
/// here, everything else equal.
std::string compareTotals(const SimulationResult &totalsOnly, const SimulationResult &full)
{
    if (!totalsOnly.steps.empty() || !totalsOnly.totals)
        return "per-step stats kept";
    const StepTotals &t = *totalsOnly.totals;
    int computeSteps = 0;
    double duration = 0;
    std::int64_t loadedInput = 0, loadedKernels = 0, written = 0, peak = 0;
    for (const StepStats &s : full.steps) {
        computeSteps += s.drain ? 0 : 1;
        duration += s.load_duration + s.write_duration + s.compute_duration;
        loadedInput += s.loaded_input;
        loadedKernels += s.loaded_kernels;
        written += s.written;
        peak = std::max(peak, s.peak_footprint);
    }
    if (t.compute_steps != computeSteps || t.duration != duration || t.loaded_input != loadedInput
        || t.loaded_kernels != loadedKernels || t.written != written || t.peak_footprint != peak)
        return "totals differ from the sums over the steps";
    if (totalsOnly.computeSteps() != computeSteps || totalsOnly.totalDuration() != duration
        || totalsOnly.loadedInput() != loadedInput || totalsOnly.loadedKernels() != loadedKernels
        || totalsOnly.written() != written || totalsOnly.peakFootprint() != peak)
        return "the accessors do not read the totals";
    SimulationResult rest = totalsOnly;
    rest.totals.reset();
    rest.steps = full.steps;
    return compareResults(rest, full);
}

/// Tensors for the functional check: seeded (16-bit route), wide values
/// (32-bit route), or values whose outputs overflow 32 bits (64-bit route).
TensorData randomTensors(std::mt19937 &rng, const Layer &l, int range)
{
    TensorData d;
    d.input.resize(std::size_t(l.c_in) * l.h_in * l.w_in);
    d.kernels.resize(std::size_t(l.n) * std::size_t(l.kernelElements()));
    for (auto *v : {&d.input, &d.kernels})
        for (std::int32_t &x : *v)
            x = uniform(rng, -range, range);
    return d;
}

// ---------------------------------------------------------------- the paper's Example

std::vector<PixelId> pixelIds(const Layer &l, const std::vector<std::pair<int, int>> &rowCols)
{
    std::vector<PixelId> ids;
    for (const auto &[r, c] : rowCols)
        ids.push_back(PixelId(r * l.paddedWidth() + c));
    return sorted(ids);
}

} // namespace

class TestReference : public QObject {
    Q_OBJECT

private slots:
    void naiveConvolutionMatchesEngineReference();
    void paperExample_data();
    void paperExample();
    void agreement_data();
    void agreement();
    void mutations_data();
    void mutations();
    void functionalPasses_data();
    void functionalPasses();
    void functionalCatchesCorruption_data();
    void functionalCatchesCorruption();
    void streamingAllKernelsIsS1();
    void streamingAgreement_data();
    void streamingAgreement();
    void streamingMutations();
    void streamingFunctional();
    void streamingFunctionalCatchesCorruption();
    void fusedAgreement_data();
    void fusedAgreement();
    void fusedDeclinesRepeatedPatches();
    void fusedStreamingAgreement();
    void fusedKernelBlockedGroupedAgreement();
};

// The two direct convolutions must agree before either can judge a strategy.
void TestReference::naiveConvolutionMatchesEngineReference()
{
    forSeeds(100, 900000, [](std::uint64_t seed) -> std::string {
        const Case c = randomCase(seed, Kind::RowByRow, true);
        const Layer &l = c.problem.layer;
        const TensorData data = seededTensors(l, seed);
        const std::vector<std::int64_t> engine = referenceConvolution(l, data);
        const auto naive = naive::naiveConvolution(l, data);
        if (engine.size() != naive.size())
            return describe(c) + ": sizes differ";
        for (const auto &[o, value] : naive)
            if (engine[naive::naiveOutputId(l, o)] != value)
                return describe(c) + ": output " + std::to_string(naive::naiveOutputId(l, o)) + " differs";
        return {};
    });
}

void TestReference::paperExample_data()
{
    QTest::addColumn<bool>("zig");
    QTest::addColumn<int>("inputElements");
    QTest::newRow("row-by-row") << false << 32;
    QTest::newRow("zigzag") << true << 24;
}

// docs/reference/strategies.md#s1-strategies / paper Example "Row-by-Row VS ZigZag": step 2, on both engines.
void TestReference::paperExample()
{
    QFETCH(bool, zig);
    QFETCH(int, inputElements);
    const Problem p = paperExampleProblem();
    const Layer &l = p.layer;
    QCOMPARE(p.nbPatchesMax(), std::int64_t(2));
    const Groups groups = zig ? zigzag(l, 2) : rowByRow(l, 2);
    const std::vector<PixelId> freed
        = zig ? pixelIds(l, {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}}) : pixelIds(l, {{0, 0}, {0, 1}});
    const std::vector<PixelId> loaded = zig ? pixelIds(l, {{0, 4}, {1, 4}, {2, 4}, {3, 4}, {3, 3}, {3, 2}})
                                            : pixelIds(l, {{0, 4}, {1, 4}, {2, 4}, {3, 0}, {3, 1}, {3, 2}});
    const std::vector<OutputId> written{0, 1, 2, 3}; // both kernels on patches (0,0), (0,1)

    // Fast engine.
    const StepList fast = expandS1(p, groups);
    QCOMPARE(fast.size(), std::size_t(6)); // 9 patches in groups of 2, then the drain
    QCOMPARE(sorted(fast[1].free_input), freed);
    QCOMPARE(sorted(fast[1].load_input), loaded);
    QCOMPARE(sorted(fast[1].write), written);
    QVERIFY(fast[1].load_kernels.empty() && fast[1].free_kernels.empty());
    const SimulationResult r = simulate(p, fast, traceOptions(true));
    QVERIFY2(r.valid(), r.diagnostics.empty() ? "" : r.diagnostics.front().message.c_str());
    QCOMPARE(r.trace.record(1, Action::LoadInput).after.input, std::int64_t(inputElements));
    QCOMPARE(r.steps[1].after.input, std::int64_t(inputElements));
    QCOMPARE(r.steps[1].loaded_input, std::int64_t(12));
    QCOMPARE(r.steps[1].written, std::int64_t(4));
    QCOMPARE(r.steps[1].duration(), 12.0 + 4.0 + 1.0); // elements: 12·t_l + 4·t_w + t_acc
    QCOMPARE(sorted(r.trace.idsOf(1, Action::FreeInput)), freed);
    QCOMPARE(sorted(r.trace.idsOf(1, Action::LoadInput)), loaded);
    QVERIFY2(r.functional.status == FunctionalStatus::Pass, r.functional.message.c_str());

    // Naive reference.
    const naive::NaiveSteps sets = naive::naiveExpandS1Sets(p, groups);
    QCOMPARE(sets.size(), std::size_t(6));
    QCOMPARE(sets[1].free_input.size(), freed.size() * 2); // elements: 2 channels
    QCOMPARE(sets[1].load_input.size(), std::size_t(12));
    const StepList ref = naive::toStepList(l, sets);
    QCOMPARE(ref[1].free_input, freed);
    QCOMPARE(ref[1].load_input, loaded);
    QCOMPARE(ref[1].write, written);
    naive::NaiveOptions no;
    no.functional = true;
    const naive::NaiveReport n = naive::naiveExecute(p, ref, no);
    QVERIFY(n.valid());
    QCOMPARE(n.steps[1].after[std::size_t(Action::LoadInput)].input, std::int64_t(inputElements));
    QCOMPARE(n.steps[1].loaded_input, std::int64_t(12));
    QCOMPARE(n.steps[1].written, std::int64_t(4));
    QCOMPARE(n.steps[1].duration, 17.0);
    QVERIFY2(n.functionalPass, n.functionalMessage.c_str());
}

void TestReference::agreement_data() { addKindRows({150, 200, 200, 250}); }

// expandS1 + simulate vs naiveExpandS1 + naiveExecute on random cases.
void TestReference::agreement()
{
    QFETCH(int, kind);
    QFETCH(int, cases);
    Coverage seen;
    forSeeds(cases, std::uint64_t(kind) * 100000 + 1, [&](std::uint64_t seed) -> std::string {
        const Case c = randomCase(seed, Kind(kind), false);
        const StepList fast = expandS1(c.problem, c.groups);
        const StepList ref = naive::naiveExpandS1(c.problem, c.groups);
        if (const std::string diff = compareExpansions(fast, ref); !diff.empty())
            return describe(c) + ": " + diff;
        if (const std::string diff = compareExecutions(c.problem, fast, true); !diff.empty())
            return describe(c) + ": " + diff;
        seen.add(c.problem, ref, naive::naiveExecute(c.problem, ref));
        return {};
    });
    // The random cases must reach the interesting situations, or agreement
    // would prove little.
    qInfo("%s", seen.text().c_str());
    QVERIFY(seen.valid > 0 && seen.overflow > 0 && seen.earlyLateWrites > 0);
    if (Kind(kind) != Kind::Baseline)
        QVERIFY(seen.tooManyOps > 0 && seen.reloadBound > 0);
}

void TestReference::mutations_data()
{
    QTest::addColumn<QString>("mutation");
    QTest::addColumn<int>("cases");
    for (const char *m :
        {"drop-load", "duplicate-compute", "drop-write", "spurious-free", "late-load", "drop-kernel-load", "drop-free", "mixed"})
        QTest::newRow(m) << QString::fromLatin1(m) << 120;
}

// General step lists (corrupted expansions) through both executors.
void TestReference::mutations()
{
    QFETCH(QString, mutation);
    QFETCH(int, cases);
    const std::map<QString, Mutation> byName{{QStringLiteral("drop-load"), dropLoad},
        {QStringLiteral("duplicate-compute"), duplicateCompute}, {QStringLiteral("drop-write"), dropWrite},
        {QStringLiteral("spurious-free"), spuriousFree}, {QStringLiteral("late-load"), lateLoad},
        {QStringLiteral("drop-kernel-load"), dropKernelLoad}, {QStringLiteral("drop-free"), dropFree}};
    const std::vector<Mutation> all{dropLoad, duplicateCompute, dropWrite, spuriousFree, lateLoad, dropKernelLoad, dropFree};
    const std::uint64_t base = 500000 + std::uint64_t(qHash(mutation) % 1000) * 1000;

    forSeeds(cases, base, [&](std::uint64_t seed) -> std::string {
        const Case c = randomCase(seed, Kind(seed % 4), false);
        std::mt19937 rng{std::uint32_t(seed)};
        StepList steps = expandS1(c.problem, c.groups);
        const int count = mutation == QStringLiteral("mixed") ? uniform(rng, 2, 4) : 1;
        std::string applied;
        for (int k = 0; k < count; ++k) {
            const Mutation m = mutation == QStringLiteral("mixed") ? all[std::size_t(uniform(rng, 0, int(all.size()) - 1))]
                                                                   : byName.at(mutation);
            applied += m(steps, rng, c.problem.layer) ? "+" : "-"; // '-': nothing to mutate, the case runs as is
        }
        if (const std::string diff = compareExecutions(c.problem, steps, true); !diff.empty())
            return describe(c) + " mutated (" + applied + "): " + diff;
        return {};
    });
}

void TestReference::functionalPasses_data()
{
    QTest::addColumn<int>("kind");
    for (Kind k : {Kind::Baseline, Kind::RowByRow, Kind::ZigZag, Kind::Partition})
        QTest::newRow(kindName(k)) << int(k);
}

// Every generator on random layers computes the right convolution.
void TestReference::functionalPasses()
{
    QFETCH(int, kind);
    forSeeds(100, 700000 + std::uint64_t(kind) * 1000, [kind](std::uint64_t seed) -> std::string {
        const Case c = randomCase(seed, Kind(kind), true);
        const StepList steps = expandS1(c.problem, c.groups);
        const SimulationResult fast = simulate(c.problem, steps, traceOptions(true, seed));
        if (fast.functional.status != FunctionalStatus::Pass)
            return describe(c) + ": fast functional " + functionalStatusName(fast.functional.status) + " "
                + fast.functional.message;
        naive::NaiveOptions no;
        no.functional = true;
        no.seed = seed;
        const naive::NaiveReport ref = naive::naiveExecute(c.problem, steps, no);
        if (!ref.functionalPass)
            return describe(c) + ": naive functional fails: " + ref.functionalMessage;
        return {};
    });
}

void TestReference::functionalCatchesCorruption_data()
{
    QTest::addColumn<bool>("removePatch");
    QTest::newRow("patch-removed") << true;
    QTest::newRow("load-removed") << false;
}

// A corrupted strategy fails the functional check, naming the first wrong
// output (in tensor order O[k][i][j]), the same one the naive reference finds.
void TestReference::functionalCatchesCorruption()
{
    QFETCH(bool, removePatch);
    int observable = 0;
    forSeeds(150, removePatch ? 800000 : 810000, [&](std::uint64_t seed) -> std::string {
        Case c = randomCase(seed, Kind::ZigZag, true);
        std::mt19937 rng{std::uint32_t(seed)};
        StepList steps;
        if (removePatch) {
            Group &g = c.groups[std::size_t(uniform(rng, 0, int(c.groups.size()) - 1))];
            g.erase(g.begin() + uniform(rng, 0, int(g.size()) - 1));
            std::erase_if(c.groups, [](const Group &group) { return group.empty(); });
            steps = expandS1(c.problem, c.groups);
        } else {
            steps = expandS1(c.problem, c.groups);
            // Remove the load of a real (non-padding) pixel: its value is not 0.
            std::vector<std::pair<std::size_t, std::size_t>> candidates;
            for (std::size_t k = 0; k < steps.size(); ++k)
                for (std::size_t i = 0; i < steps[k].load_input.size(); ++i) {
                    const Grid g = pixelPosition(c.problem.layer, steps[k].load_input[i]);
                    if (!c.problem.layer.isPadding(g.row, g.col))
                        candidates.emplace_back(k, i);
                }
            if (candidates.empty())
                return {};
            const auto [k, i] = candidates[std::size_t(uniform(rng, 0, int(candidates.size()) - 1))];
            steps[k].load_input.erase(steps[k].load_input.begin() + std::ptrdiff_t(i));
        }
        naive::NaiveOptions no;
        no.functional = true;
        no.seed = seed;
        const naive::NaiveReport ref = naive::naiveExecute(c.problem, steps, no);
        const SimulationResult fast = simulate(c.problem, steps, traceOptions(true, seed));
        if (ref.functionalPass) // e.g. every weight the missing pixel met was 0
            return fast.functional.status == FunctionalStatus::Pass
                ? std::string()
                : describe(c) + ": naive passes, fast says " + fast.functional.message;
        ++observable;
        if (fast.functional.status != FunctionalStatus::Fail)
            return describe(c) + ": fast functional " + functionalStatusName(fast.functional.status)
                + ", naive: " + ref.functionalMessage;
        const std::string name = outputName(c.problem.layer, naive::naiveOutputId(c.problem.layer, *ref.firstWrongOutput));
        if (fast.functional.message.find(name) == std::string::npos)
            return describe(c) + ": fast message '" + fast.functional.message + "' does not name " + name
                + " (naive: " + ref.functionalMessage + ")";
        return {};
    });
    QVERIFY2(observable >= 100, ("only " + std::to_string(observable) + " observable corruptions").c_str());
}

// A steps strategy whose every step has all kernels is the S1 strategy of the
// same groups (docs/reference/strategies.md#steps-strategies), on both expansions.
void TestReference::streamingAllKernelsIsS1()
{
    forSeeds(200, 1300000, [](std::uint64_t seed) -> std::string {
        const Case c = randomCase(seed, Kind(seed % 4), false);
        const ComputeSteps steps = stepsOfGroups(c.problem.layer, c.groups);
        if (expandSteps(c.problem, steps) != expandS1(c.problem, c.groups))
            return describe(c) + ": expandSteps differs from expandS1";
        if (const std::string diff
            = compareExpansions(naive::naiveExpandSteps(c.problem, steps), naive::naiveExpandS1(c.problem, c.groups));
            !diff.empty())
            return describe(c) + ": naive expansions differ: " + diff;
        return {};
    });
}

void TestReference::streamingAgreement_data()
{
    QTest::addColumn<bool>("perturbed");
    QTest::addColumn<int>("cases");
    QTest::newRow("product-partitions") << false << 120;
    QTest::newRow("pairs-twice-or-never") << true << 120;
}

// expandSteps + simulate vs naiveExpandSteps + naiveExecute: random layers ×
// random explicit step lists with kernel subsets × every option combination.
void TestReference::streamingAgreement()
{
    QFETCH(bool, perturbed);
    QFETCH(int, cases);
    Coverage seen;
    int kernelReloads = 0, kernelsFreedEarly = 0;
    forSeeds(cases, perturbed ? 1400000 : 1500000, [&](std::uint64_t seed) -> std::string {
        StreamCase c = randomStreamCase(seed, false, perturbed);
        for (const Options &o : everyOption()) {
            c.problem.options = o;
            const StepList fast = expandSteps(c.problem, c.steps);
            const StepList ref = naive::naiveExpandSteps(c.problem, c.steps);
            if (const std::string diff = compareExpansions(fast, ref); !diff.empty())
                return describe(c) + ": " + diff;
            if (const std::string diff = compareExecutions(c.problem, fast, true); !diff.empty())
                return describe(c) + ": " + diff;
            seen.add(c.problem, ref, naive::naiveExecute(c.problem, ref));
            kernelReloads += kernelReloadWarned(simulate(c.problem, fast, traceOptions()));
            kernelsFreedEarly
                += std::any_of(fast.begin(), fast.end() - 1, [](const Step &st) { return !st.free_kernels.empty(); });
        }
        return {};
    });
    qInfo("%s; %d with kernel reload-bound warnings, %d freeing kernels before the drain", seen.text().c_str(), kernelReloads,
        kernelsFreedEarly);
    QVERIFY(seen.valid > 0 && seen.overflow > 0 && seen.earlyLateWrites > 0 && seen.tooManyOps > 0 && seen.reloadBound > 0);
    QVERIFY(kernelReloads > 0 && kernelsFreedEarly > 0);
}

// Corrupted kernel-streaming expansions through both executors.
void TestReference::streamingMutations()
{
    const std::vector<Mutation> all{dropLoad, duplicateCompute, dropWrite, spuriousFree, lateLoad, dropKernelLoad, dropFree};
    const Mutation dropKernelFree
        = [](StepList &s, std::mt19937 &rng, const Layer &) { return dropOne(s, rng, &Step::free_kernels); };
    forSeeds(200, 1600000, [&](std::uint64_t seed) -> std::string {
        StreamCase c = randomStreamCase(seed, false, false);
        std::mt19937 rng{std::uint32_t(seed)};
        c.problem.options = everyOption()[std::size_t(uniform(rng, 0, 7))];
        StepList steps = expandSteps(c.problem, c.steps);
        std::string applied;
        for (int k = uniform(rng, 1, 3); k > 0; --k) {
            const std::size_t pick = std::size_t(uniform(rng, 0, int(all.size())));
            const Mutation m = pick == all.size() ? dropKernelFree : all[pick];
            applied += m(steps, rng, c.problem.layer) ? "+" : "-";
        }
        if (const std::string diff = compareExecutions(c.problem, steps, true); !diff.empty())
            return describe(c) + " mutated (" + applied + "): " + diff;
        return {};
    });
}

// Valid kernel-streaming strategies compute the right convolution, on both
// executors, under every option combination.
void TestReference::streamingFunctional()
{
    forSeeds(60, 1700000, [](std::uint64_t seed) -> std::string {
        StreamCase c = randomStreamCase(seed, true, false);
        for (const Options &o : everyOption()) {
            c.problem.options = o;
            const StepList steps = expandSteps(c.problem, c.steps);
            const SimulationResult fast = simulate(c.problem, steps, traceOptions(true, seed));
            if (fast.functional.status != FunctionalStatus::Pass)
                return describe(c) + ": fast functional " + functionalStatusName(fast.functional.status) + " "
                    + fast.functional.message;
            naive::NaiveOptions no;
            no.functional = true;
            no.seed = seed;
            const naive::NaiveReport ref = naive::naiveExecute(c.problem, steps, no);
            if (!ref.functionalPass)
                return describe(c) + ": naive functional fails: " + ref.functionalMessage;
        }
        return {};
    });
}

// A kernel-streaming expansion with one kernel load removed, or one kernel
// freed a step too early, fails the functional check on both executors,
// naming the same first wrong output.
void TestReference::streamingFunctionalCatchesCorruption()
{
    int observable = 0;
    forSeeds(150, 1800000, [&](std::uint64_t seed) -> std::string {
        StreamCase c = randomStreamCase(seed, true, false);
        std::mt19937 rng{std::uint32_t(seed)};
        c.problem.options = everyOption()[std::size_t(uniform(rng, 0, 7))];
        StepList steps = expandSteps(c.problem, c.steps);
        // Candidates: every kernel load but the first of all (so the strategy
        // really loads that kernel again later), as (step, position).
        std::vector<std::pair<std::size_t, std::size_t>> loads;
        for (std::size_t k = 0; k < steps.size(); ++k)
            for (std::size_t i = 0; i < steps[k].load_kernels.size(); ++i)
                loads.emplace_back(k, i);
        if (loads.empty())
            return {};
        const auto [k, i] = loads[std::size_t(uniform(rng, 0, int(loads.size()) - 1))];
        const KernelId kernel = steps[k].load_kernels[i];
        steps[k].load_kernels.erase(steps[k].load_kernels.begin() + std::ptrdiff_t(i));
        naive::NaiveOptions no;
        no.functional = true;
        no.seed = seed;
        const naive::NaiveReport ref = naive::naiveExecute(c.problem, steps, no);
        const SimulationResult fast = simulate(c.problem, steps, traceOptions(true, seed));
        if (ref.functionalPass) // every weight of that kernel was 0
            return fast.functional.status == FunctionalStatus::Pass
                ? std::string()
                : describe(c) + ": naive passes, fast says " + fast.functional.message;
        ++observable;
        if (fast.functional.status != FunctionalStatus::Fail)
            return describe(c) + ": fast functional " + functionalStatusName(fast.functional.status)
                + ", naive: " + ref.functionalMessage;
        const std::string name = outputName(c.problem.layer, naive::naiveOutputId(c.problem.layer, *ref.firstWrongOutput));
        if (fast.functional.message.find(name) == std::string::npos)
            return describe(c) + ": fast message '" + fast.functional.message + "' does not name " + name
                + " (naive: " + ref.functionalMessage + ")";
        if (int(kernelOfOutput(c.problem.layer, naive::naiveOutputId(c.problem.layer, *ref.firstWrongOutput))) != int(kernel))
            return describe(c) + ": the first wrong output does not use the kernel whose load was removed";
        return {};
    });
    QVERIFY2(observable >= 100, ("only " + std::to_string(observable) + " observable corruptions").c_str());
}

void TestReference::fusedAgreement_data() { addKindRows({40, 60, 60, 60}); }

// The fused S1 pass against the general executor on the expanded steps
// (every field, every diagnostic word for word) and against the naive
// executor (per-step figures, (step, rule) sets, functional verdict): random
// layers and strategies × the eight option combinations × a diagnostics cap
// of 1 or none × the three dot-product routes, some groups missing a patch.
void TestReference::fusedAgreement()
{
    QFETCH(int, kind);
    QFETCH(int, cases);
    int dropped = 0, capped = 0, overflow = 0, reload = 0, failing = 0;
    forSeeds(cases, 900000 + std::uint64_t(kind) * 1000, [&](std::uint64_t seed) -> std::string {
        Case c = randomCase(seed, Kind(kind), false);
        std::mt19937 rng{std::uint32_t(seed * 7 + 3)};
        bool generated = c.kind != Kind::Partition; // the groups are the generator's
        if (coin(rng, 0.2) && c.groups.size() > 1) { // a patch never computed
            generated = false;
            Group &g = c.groups[std::size_t(uniform(rng, 0, int(c.groups.size()) - 1))];
            g.erase(g.begin() + uniform(rng, 0, int(g.size()) - 1));
            std::erase_if(c.groups, [](const Group &group) { return group.empty(); });
            ++dropped;
        }
        const int range = std::array{4, 40000, 1 << 30}[std::size_t(uniform(rng, 0, 2))];
        const TensorData data = randomTensors(rng, c.problem.layer, range);
        for (const Options &o : everyOption()) {
            Problem p = c.problem;
            p.options = o;
            SimulationOptions so;
            so.trace = false;
            so.functional = coin(rng, 0.7);
            so.data = &data;
            so.keep_output = true;
            so.max_diagnostics_per_rule = coin(rng) ? 1 : 1 << 30;
            const std::string where = describe(c) + " options(preloaded=" + std::to_string(o.kernels_preloaded)
                + " write=" + writePolicyName(o.write_policy) + " paddingInDram=" + std::to_string(o.padding_in_dram) + ") range "
                + std::to_string(range) + " cap " + std::to_string(so.max_diagnostics_per_rule);
            const std::optional<SimulationResult> fused = simulateS1Fused(p, c.groups, so);
            if (!fused)
                return where + ": the fused pass declined";
            const StepList steps = expandS1(p, c.groups);
            const SimulationResult general = simulate(p, steps, so);
            if (const std::string diff = compareResults(*fused, general); !diff.empty())
                return where + ": fused vs general: " + diff;
            SimulationOptions totalsOnly = so;
            totalsOnly.step_stats = false;
            if (const std::string diff = compareTotals(*simulateS1Fused(p, c.groups, totalsOnly), general); !diff.empty())
                return where + ": fused, totals only: " + diff;
            if (const std::string diff = compareTotals(simulate(p, steps, totalsOnly), general); !diff.empty())
                return where + ": general, totals only: " + diff;
            // A trace: the steps executed as the expander makes them (the
            // list never held) give the same result and trace as the list.
            SimulationOptions traced = so;
            traced.trace = true;
            const SimulationResult listed = simulate(p, steps, traced);
            S1Expander expander(p, c.groups.size(), [&](std::size_t g) { return std::span<const PatchId>(c.groups[g]); });
            const SimulationResult streamed = simulate(p, expander, traced);
            if (const std::string diff = compareResults(streamed, listed); !diff.empty())
                return where + ": streamed vs listed steps: " + diff;
            if (!sameTrace(streamed.trace, listed.trace))
                return where + ": streamed vs listed steps: the traces differ";
            if (generated) { // simulateStrategy: the patch order and G, no vector per group
                const StrategyKind kind = c.kind == Kind::Baseline ? StrategyKind::S1Baseline
                    : c.kind == Kind::RowByRow                     ? StrategyKind::RowByRow
                                                                   : StrategyKind::ZigZag;
                const StrategySpec spec{"generated", kind, c.group_size, {}};
                if (const std::string diff = compareResults(simulateStrategy(p, spec, so), general); !diff.empty())
                    return where + ": patch sequence vs general: " + diff;
                const SimulationResult sequenced = simulateStrategy(p, spec, traced);
                if (const std::string diff = compareResults(sequenced, listed); !diff.empty())
                    return where + ": traced patch sequence vs listed steps: " + diff;
                if (!sameTrace(sequenced.trace, listed.trace))
                    return where + ": traced patch sequence vs listed steps: the traces differ";
            }
            capped += fused->suppressed_diagnostics > 0;
            failing += fused->functional.status == FunctionalStatus::Fail;
            if (so.max_diagnostics_per_rule > 1) {
                naive::NaiveOptions no;
                no.functional = so.functional;
                no.data = &data;
                const naive::NaiveReport ref = naive::naiveExecute(p, naive::naiveExpandS1(p, c.groups), no);
                const auto [errors, warnings] = fastViolations(*fused);
                if (errors != ref.errors || warnings != ref.warnings)
                    return where + ": fused vs naive: errors " + violationList(errors) + " / " + violationList(ref.errors)
                        + ", warnings " + violationList(warnings) + " / " + violationList(ref.warnings);
                overflow
                    += std::any_of(errors.begin(), errors.end(), [](const auto &v) { return v.second == Rule::MemoryOverflow; });
                reload += !warnings.empty();
                for (std::size_t k = 0; k < ref.steps.size(); ++k)
                    if (fused->steps[k].duration() != ref.steps[k].duration
                        || fused->steps[k].loaded_input != ref.steps[k].loaded_input
                        || fused->steps[k].written != ref.steps[k].written)
                        return where + ": fused vs naive: step " + std::to_string(k + 1) + " differs";
                if (fused->peakFootprint() != ref.peakFootprint())
                    return where + ": fused vs naive: peak footprint differs";
                if (so.functional && (fused->functional.status == FunctionalStatus::Pass) != ref.functionalPass)
                    return where + ": fused vs naive: functional " + fused->functional.message + " / " + ref.functionalMessage;
            }
        }
        return {};
    });
    qInfo("%d cases with a dropped patch; option runs: %d capped, %d overflowing, %d with reload warnings, %d failing the "
          "functional check",
        dropped, capped, overflow, reload, failing);
    QVERIFY(dropped > 0 && capped > 0 && overflow > 0 && failing > 0);
    if (Kind(kind) != Kind::Baseline)
        QVERIFY(reload > 0);
}

// A patch named twice is computed twice, a patch id may be out of range:
// the fused pass leaves both to the general executor, and simulateStrategy
// still gives the general result.
void TestReference::fusedDeclinesRepeatedPatches()
{
    Problem p;
    p.layer = {1, 4, 4, 2, 2, 2};
    p.hardware.mem_size = 1000;
    p.hardware.nbop_pe = 1000;
    StrategySpec spec{"repeated", StrategyKind::Groups, std::nullopt, {{0, 1}, {1, 2}, {3, 4, 5, 6, 7, 8}}};
    SimulationOptions so;
    so.trace = false;
    QVERIFY(!simulateS1Fused(p, spec.groups, so));
    const SimulationResult viaStrategy = simulateStrategy(p, spec, so);
    const SimulationResult general = simulate(p, expandS1(p, spec.groups), so);
    QCOMPARE(compareResults(viaStrategy, general), std::string());
    QVERIFY(std::any_of(general.diagnostics.begin(), general.diagnostics.end(),
        [](const Diagnostic &d) { return d.rule == Rule::ComputedTwice; }));
    // An id out of range or a repeat after good groups, as groups or as a
    // sequence: the walk gives up there (simulateStrategy rejects the id
    // before any simulation).
    QVERIFY(!simulateS1Fused(p, Groups{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 99}}, so));
    QVERIFY(!simulateS1Fused(p, PatchSequence{{0, 1, 2, 3, 4, 5, 6, 7, 8, 99}, 3}, so));
    QVERIFY(!simulateS1Fused(p, PatchSequence{{0, 1, 2, 3, 4, 5, 6, 7, 8, 4}, 3}, so));
    QVERIFY(simulateS1Fused(p, PatchSequence{{0, 1, 2, 3, 4, 5, 6, 7, 8}, 3}, so));
    // With a trace the general executor runs even for a plain partition.
    so.trace = true;
    QVERIFY(!simulateS1Fused(p, s1Baseline(p.layer), so));
    // Traced, the steps run as they are expanded: the repeated patch's first
    // step (group 1, step 1) is found in the trace, as in the listed steps.
    const SimulationResult streamed = simulateStrategy(p, spec, so);
    QCOMPARE(compareResults(streamed, simulate(p, expandS1(p, spec.groups), so)), std::string());
    QVERIFY(std::any_of(streamed.diagnostics.begin(), streamed.diagnostics.end(), [](const Diagnostic &d) {
        return d.rule == Rule::ComputedTwice && d.message.find("(first computed at step 1)") != std::string::npos;
    }));
}

// The fused pass on compute steps (kernel streaming) against the general
// executor on expandSteps, every field, and against the naive executor; steps
// that name a pair twice are declined (and simulateStrategy still gives the
// general result).
void TestReference::fusedStreamingAgreement()
{
    int declined = 0, fusedRuns = 0, kernelFrees = 0, kernelReloads = 0, failing = 0;
    forSeeds(300, 950000, [&](std::uint64_t seed) -> std::string {
        const StreamCase c = randomStreamCase(seed, false, seed % 3 == 0);
        std::mt19937 rng{std::uint32_t(seed * 5 + 1)};
        const int range = std::array{4, 40000, 1 << 30}[std::size_t(uniform(rng, 0, 2))];
        const TensorData data = randomTensors(rng, c.problem.layer, range);
        for (const Options &o : everyOption()) {
            Problem p = c.problem;
            p.options = o;
            SimulationOptions so;
            so.trace = false;
            so.functional = coin(rng, 0.7);
            so.data = &data;
            so.keep_output = true;
            so.max_diagnostics_per_rule = coin(rng) ? 1 : 1 << 30;
            const std::string where = describe(c) + " options(preloaded=" + std::to_string(o.kernels_preloaded)
                + " write=" + writePolicyName(o.write_policy) + " paddingInDram=" + std::to_string(o.padding_in_dram) + ")";
            const StepList steps = expandSteps(p, c.steps);
            const SimulationResult general = simulate(p, steps, so);
            const std::optional<SimulationResult> fused = simulateStepsFused(p, c.steps, so);
            StrategySpec spec{"s", StrategyKind::Steps, std::nullopt, {}, c.steps};
            if (const std::string diff = compareResults(simulateStrategy(p, spec, so), general); !diff.empty())
                return where + ": simulateStrategy vs general: " + diff;
            if (!fused) {
                const bool twice = std::any_of(general.diagnostics.begin(), general.diagnostics.end(),
                    [](const Diagnostic &d) { return d.rule == Rule::ComputedTwice; });
                if (!twice)
                    return where + ": the fused pass declined steps that compute no pair twice";
                ++declined;
                continue;
            }
            ++fusedRuns;
            if (const std::string diff = compareResults(*fused, general); !diff.empty())
                return where + ": fused vs general: " + diff;
            kernelFrees += std::any_of(steps.begin(), steps.end() - 1, [](const Step &s) { return !s.free_kernels.empty(); });
            kernelReloads += kernelReloadWarned(*fused);
            failing += fused->functional.status == FunctionalStatus::Fail;
            if (so.max_diagnostics_per_rule > 1) {
                naive::NaiveOptions no;
                no.functional = so.functional;
                no.data = &data;
                const naive::NaiveReport ref = naive::naiveExecute(p, naive::naiveExpandSteps(p, c.steps), no);
                const auto [errors, warnings] = fastViolations(*fused);
                if (errors != ref.errors || warnings != ref.warnings)
                    return where + ": fused vs naive: errors " + violationList(errors) + " / " + violationList(ref.errors)
                        + ", warnings " + violationList(warnings) + " / " + violationList(ref.warnings);
                if (fused->totalDuration() != ref.totalDuration() || fused->peakFootprint() != ref.peakFootprint()
                    || fused->loadedKernels() != ref.loadedKernels())
                    return where + ": fused vs naive: totals differ";
                if (so.functional && (fused->functional.status == FunctionalStatus::Pass) != ref.functionalPass)
                    return where + ": fused vs naive: functional " + fused->functional.message + " / " + ref.functionalMessage;
            }
        }
        return {};
    });
    qInfo("%d fused runs (%d freeing kernels before the drain, %d with kernel reload warnings, %d failing the functional "
          "check), %d declined",
        fusedRuns, kernelFrees, kernelReloads, failing, declined);
    QVERIFY(fusedRuns > 1000 && declined > 0 && kernelFrees > 0 && kernelReloads > 0 && failing > 0);
}

QTEST_GUILESS_MAIN(TestReference)
// Kernel-blocked strategies on grouped layers, fused pass vs general
// executor: blocks whose groups partition the layer's (B a multiple of N/g,
// or dividing it) are walked by the fused pass chunk by chunk, blocks that
// straddle a group boundary slice by slice; both must be the general
// executor's result, functional check included.
void TestReference::fusedKernelBlockedGroupedAgreement()
{
    int runs = 0;
    forSeeds(150, 960000, [&](std::uint64_t seed) -> std::string {
        std::mt19937 rng{std::uint32_t(seed * 7 + 3)};
        Problem p;
        p.layer = randomLayer(rng);
        p.layer.group = uniform(rng, 2, 4);
        p.layer.c_in = p.layer.group * uniform(rng, 1, 2);
        p.layer.n = p.layer.group * uniform(rng, 1, 3);
        if (!p.layer.problems().empty())
            return {};
        p.options = randomOptions(rng);
        const std::int64_t b = uniform(rng, 1, p.layer.n);
        const std::int64_t g = uniform(rng, 1, int(std::min<std::int64_t>(p.layer.patchCount(), 6)));
        p.hardware.nbop_pe = g * b * p.layer.kernelElements();
        p.hardware.mem_size = coin(rng) ? 1000000 : uniform(rng, 20, 200);
        p.hardware.max_loads_per_element = uniform(rng, 1, 3);
        const TensorData data = randomTensors(rng, p.layer, 40000);
        StrategySpec spec;
        spec.name = "kb";
        spec.kind = StrategyKind::KernelBlocked;
        spec.kernel_block = b;
        spec.group_size = g;
        spec.order = coin(rng) ? PatchOrder::ZigZag : PatchOrder::RowByRow;
        spec.loop = coin(rng) ? KernelLoop::KernelsOuter : KernelLoop::PatchesOuter;
        SimulationOptions so;
        so.trace = false;
        so.functional = true;
        so.data = &data;
        so.keep_output = true;
        so.max_diagnostics_per_rule = 1 << 30;
        const std::optional<SimulationResult> fused = simulateStepsFused(p, computeStepsOf(p, spec), so);
        if (!fused)
            return "seed " + std::to_string(seed) + ": the fused pass declined a kernel-blocked strategy";
        ++runs;
        const SimulationResult general = simulate(p, expandStrategy(p, spec), so);
        const std::string where = "seed " + std::to_string(seed) + " g=" + std::to_string(p.layer.group)
            + " n=" + std::to_string(p.layer.n) + " B=" + std::to_string(b) + " G=" + std::to_string(g);
        if (const std::string diff = compareResults(*fused, general); !diff.empty())
            return where + ": fused vs general: " + diff;
        // The route simulateStrategy takes: the steps walked off the groups
        // and blocks, never listed.
        const std::optional<SimulationResult> walked = simulateKernelBlockedFused(p, kernelBlockedPartsOf(p, spec), so);
        if (!walked)
            return where + ": the fused pass declined the kernel-blocked plan";
        if (const std::string diff = compareResults(*walked, general); !diff.empty())
            return where + ": kernel-blocked plan vs general: " + diff;
        // ... and on the same layer made dense.
        Problem dense = p;
        dense.layer.group = 1;
        const TensorData denseData = randomTensors(rng, dense.layer, 40000);
        so.data = &denseData;
        const std::optional<SimulationResult> walkedDense
            = simulateKernelBlockedFused(dense, kernelBlockedPartsOf(dense, spec), so);
        if (!walkedDense)
            return where + ": the fused pass declined the dense kernel-blocked plan";
        if (const std::string diff = compareResults(*walkedDense, simulate(dense, expandStrategy(dense, spec), so));
            !diff.empty())
            return where + " dense: kernel-blocked plan vs general: " + diff;
        // Without the functional check the plan skips the walk of a step that
        // repeats the previous step's patches (patches-outer).
        so.functional = false;
        so.data = nullptr;
        so.keep_output = false;
        for (const Problem *q : {&p, &dense}) {
            const std::optional<SimulationResult> quick = simulateKernelBlockedFused(*q, kernelBlockedPartsOf(*q, spec), so);
            if (!quick)
                return where + ": the fused pass declined the kernel-blocked plan without the functional check";
            if (const std::string diff = compareResults(*quick, simulate(*q, expandStrategy(*q, spec), so)); !diff.empty())
                return where + (q == &dense ? " dense" : "") + ", no functional check: kernel-blocked plan vs general: " + diff;
        }
        return {};
    });
    QVERIFY(runs > 100);
}

#include "tst_reference.moc"
