#include "convoffload/simulate/FusedSimulation.h"

#include "Executor.h"

#include <algorithm>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace convoffload {

namespace {

using detail::Reporter;

/// S1 groups as a plan: every kernel at every step (expandS1 is expandSteps
/// of such steps).
struct GroupsPlan {
    const Groups &groups;
    std::vector<KernelId> all;
    std::size_t size() const { return groups.size(); }
    const std::vector<PatchId> &patches(std::size_t i) const { return groups[i]; }
    const std::vector<KernelId> &kernels(std::size_t) const { return all; }
};

/// A patch order cut every G patches as a plan: group i is a span of it.
struct SequencePlan {
    const PatchSequence &sequence;
    std::vector<KernelId> all;
    std::size_t size() const { return sequence.groupCount(); }
    std::span<const PatchId> patches(std::size_t i) const
    {
        const std::size_t g = std::size_t(sequence.group_size), begin = i * g;
        return std::span<const PatchId>(sequence.order).subspan(begin, std::min(g, sequence.order.size() - begin));
    }
    const std::vector<KernelId> &kernels(std::size_t) const { return all; }
};

struct StepsPlan {
    const ComputeSteps &steps;
    std::size_t size() const { return steps.size(); }
    const std::vector<PatchId> &patches(std::size_t i) const { return steps[i].patches; }
    const std::vector<KernelId> &kernels(std::size_t i) const { return steps[i].kernels; }
};

/// forEachPatchPixel with the layer's figures worked out once, the same
/// pixels in the same order: recomputing wOut() (a division) and testing
/// for padding at every pixel cost about a fifth of the fused pass.
class PatchWalk {
public:
    PatchWalk(const Layer &layer, bool paddingInDram)
        : m_layer(layer)
        , m_paddingInDram(paddingInDram)
        , m_plain(paddingInDram || (layer.pad_top == 0 && layer.pad_bottom == 0 && layer.pad_left == 0 && layer.pad_right == 0))
        , m_outWidth(PatchId(layer.wOut()))
        , m_width(PixelId(layer.paddedWidth()))
    {
    }

    template <typename F> void forEach(PatchId patch, F &&f) const
    {
        if (!m_plain) {
            forEachPatchPixel(m_layer, m_paddingInDram, patch, f);
            return;
        }
        const PatchId row = patch / m_outWidth, col = patch - row * m_outWidth;
        PixelId first = PixelId(row) * PixelId(m_layer.stride_h) * m_width + PixelId(col) * PixelId(m_layer.stride_w);
        for (int r = 0; r < m_layer.h_k; ++r, first += m_width)
            for (int c = 0; c < m_layer.w_k; ++c)
                f(first + PixelId(c));
    }

private:
    const Layer &m_layer;
    bool m_paddingInDram, m_plain;
    PatchId m_outWidth;
    PixelId m_width;
};

/// One run of a plan. What the expansion would list is only counted: M_inp
/// after step i is exactly U_i and M_ker exactly K_i, so an element is kept
/// iff its stamp is the previous step's, loaded iff it is not; the write
/// policy needs only how many outputs are pending, since every output is
/// computed at most once.
template <typename Plan> class FusedPass : detail::Executor {
public:
    FusedPass(const Problem &problem, const Plan &plan, const SimulationOptions &options)
        : Executor(problem, options)
        , m_groups(plan)
        , m_walk(m_layer, problem.options.padding_in_dram)
        , m_warnAt(std::uint32_t(problem.hardware.max_loads_per_element) + 1)
        , m_ordinaryLoads(std::min(m_reload.bound(), m_warnAt - 1))
    {
    }

    /// `computed`: per output, whether the plan computes it.
    SimulationResult run(const std::vector<std::uint8_t> &computed)
    {
        checkDram();
        const std::size_t stepCount = m_groups.size() + 1;
        if (m_options.step_stats)
            m_result.steps.reserve(stepCount);
        else
            m_result.totals.emplace();
        m_stamp.assign(std::size_t(m_layer.pixelCount()), 0);
        m_loads.assign(std::size_t(m_layer.pixelCount()), 0);
        m_kernelLoads.assign(std::size_t(m_layer.n), 0);
        m_kernelStamp.assign(std::size_t(m_layer.n), 0);
        for (std::size_t g = 0; g < m_groups.size(); ++g) {
            if (g % kPollEvery == 0)
                poll(g, stepCount);
            runGroup(g);
            foldStep();
        }
        if (m_groups.size() % kPollEvery == 0)
            poll(m_groups.size(), stepCount);
        drain();
        foldStep();

        const int lastStep = int(stepCount);
        for (OutputId o = 0; o < OutputId(computed.size()); ++o)
            if (!computed[o])
                m_reporter.neverComputed(lastStep, o);
        return finish(std::move(m_loads), std::move(m_kernelLoads));
    }

private:
    /// Without step stats, the step just run goes into the totals.
    void foldStep()
    {
        if (!m_result.totals)
            return;
        m_result.totals->add(m_result.steps.back());
        m_result.steps.pop_back();
    }

    void endAction(int step, Action action) { noteFootprint(step, action); }

    void runGroup(std::size_t g)
    {
        const int step = int(g + 1);
        const std::uint32_t stamp = std::uint32_t(g + 2); // 0 = never needed, so group 0 keeps nothing
        const std::uint32_t pixelStamp = stamp << 1; // | 1 when loaded beyond the reload bound at this step
        const auto &group = m_groups.patches(g); // a vector or a span
        const std::vector<KernelId> &kernels = m_groups.kernels(g);
        const Hardware &hw = m_problem.hardware;
        StepStats &stats = m_result.steps.emplace_back();

        // U(g): kept pixels carry the previous stamp, the others are loads,
        // counted here; the lists are built only for the chip memory.
        const WalkCounts walked = m_chip ? walkGroup<true>(group, step, pixelStamp) : walkGroup<false>(group, step, pixelStamp);
        const std::int64_t inGroup = walked.kept + walked.loaded;

        // a1: F_inp = U(g-1) \ U(g).
        const std::int64_t freed = m_previousCount - walked.kept;
        if (m_chip)
            for (PixelId p : m_previous)
                if ((m_stamp[p] | 1) != (pixelStamp | 1))
                    m_chip->freePixel(p);
        m_pixelsOnChip -= freed;
        stats.freed_input = freed * m_layer.c_in;
        endAction(step, Action::FreeInput);

        // K_i, and a2: F_ker = K_{i-1} \ K_i.
        m_currentKernels.clear();
        m_loadingKernels.clear();
        for (KernelId k : kernels) {
            const std::uint32_t was = m_kernelStamp[k];
            if (was == stamp)
                continue;
            if (was != stamp - 1)
                m_loadingKernels.push_back(k);
            m_kernelStamp[k] = stamp;
            m_currentKernels.push_back(k);
        }
        for (KernelId k : m_previousKernels)
            if (m_kernelStamp[k] != stamp) {
                --m_kernelsOnChip;
                stats.freed_kernels += m_layer.kernelElements();
                if (m_chip)
                    m_chip->freeKernel(k);
            }
        endAction(step, Action::FreeKernels);

        // a3: the write policy, on counts.
        const std::int64_t outputs = std::int64_t(group.size()) * std::int64_t(kernels.size());
        std::int64_t writes = m_pending;
        if (m_problem.options.write_policy == WritePolicy::AsLateAsPossible) {
            const std::int64_t resident
                = inGroup * m_layer.c_in + m_layer.kernelElements() * std::int64_t(m_currentKernels.size());
            writes = std::clamp<std::int64_t>(resident + m_pending + outputs - hw.mem_size, 0, m_pending);
        }
        m_pending -= writes;
        m_outputsOnChip -= writes;
        stats.written = writes;
        endAction(step, Action::Write);

        // a4: I_slice = U(g) \ U(g-1), counted in the walk; reload warnings
        // in ascending pixel order.
        if (m_chip)
            m_chip->loadPixels(m_loading);
        m_pixelsOnChip += walked.loaded;
        stats.loaded_input = walked.loaded * m_layer.c_in;
        if (!m_reporter.listing(Rule::ReloadBound)) {
            m_reporter.countUnlisted(Severity::Warning, std::int64_t(m_warned.size()));
        } else {
            std::sort(m_warned.begin(), m_warned.end());
            for (PixelId p : m_warned)
                m_reporter.reloadBound(step, Action::LoadInput, ElementKind::Pixel, p, hw.max_loads_per_element);
        }
        endAction(step, Action::LoadInput);

        // a5: K_sub = K_i \ K_{i-1}, in ascending order (S1: every kernel at step 1).
        std::sort(m_loadingKernels.begin(), m_loadingKernels.end());
        for (KernelId k : m_loadingKernels) {
            stats.loaded_kernels += m_layer.kernelElements();
            if (++m_kernelLoads[k] == m_warnAt)
                m_reporter.reloadBound(step, Action::LoadKernels, ElementKind::Kernel, k, hw.max_loads_per_element);
            m_reload.kernelLoaded(step, k, m_kernelLoads[k]);
            ++m_kernelsOnChip;
            if (m_chip)
                m_chip->loadKernel(k);
        }
        endAction(step, Action::LoadKernels);

        // a6: Out = patches × K_i.
        const std::int64_t ops = outputs * m_layer.opsPerOutput();
        if (ops > hw.nbop_pe)
            m_reporter.tooManyOps(step, std::size_t(outputs), ops, hw.nbop_pe);
        if (m_reload.kernelsBreak(step)) // pixels beyond the bound were flagged in the walk above
            for (PatchId patch : group)
                for (KernelId k : kernels)
                    m_reload.kernelComputed(step, patch, k);
        if (m_chip) {
            if (!std::is_same_v<Plan, StepsPlan>)
                m_chip->computePatches(step, group);
            else
                for (PatchId patch : group)
                    for (KernelId k : kernels)
                        m_chip->compute(step, outputId(m_layer, patch, k));
        }
        m_outputsOnChip += outputs;
        m_pending += outputs;
        stats.computed = outputs;
        endAction(step, Action::Compute);

        const std::int64_t paidKernels = m_problem.options.kernels_preloaded ? 0 : stats.loaded_kernels;
        stats.load_duration = double(stats.loaded_input + paidKernels) * hw.t_l;
        stats.write_duration = double(stats.written) * hw.t_w;
        stats.compute_duration = hw.t_acc;
        std::swap(m_previous, m_current);
        m_previousCount = inGroup;
        std::swap(m_previousKernels, m_currentKernels);
    }

    struct WalkCounts {
        std::int64_t kept = 0, loaded = 0;
    };

    /// Stamps the group's pixels and counts them: kept (stamped by the
    /// previous group) or loaded (their load count goes up here). With
    /// `Lists`, U(g) and the loads are listed for the chip memory too.
    /// `stamp` is even; a pixel loaded beyond the reload bound gets stamp | 1,
    /// so every patch of the group that reads it is flagged in this walk
    /// without a second array.
    template <bool Lists, typename Patches> WalkCounts walkGroup(const Patches &group, int step, std::uint32_t stamp)
    {
        m_warned.clear();
        if constexpr (Lists) {
            m_current.clear();
            m_loading.clear();
        }
        WalkCounts counts;
        std::uint32_t *const stamps = m_stamp.data();
        std::uint32_t *const loads = m_loads.data();
        const std::uint32_t inGroup = stamp | 1, inPrevious = (stamp - 2) | 1; // stamps with the flag bit set
        PatchId flagged = std::numeric_limits<PatchId>::max(); // the patch last flagged, not to tell the tally twice
        const auto breakRead = [&](PatchId patch) {
            if (patch != flagged) {
                flagged = patch;
                m_reload.pixelBreakRead(step, patch);
            }
        };
        for (PatchId patch : group)
            m_walk.forEach(patch, [&](PixelId p) {
                const std::uint32_t was = stamps[p];
                if ((was | 1) == inGroup) { // read by an earlier patch of the group
                    if (was & 1)
                        breakRead(patch);
                    return;
                }
                if constexpr (Lists)
                    m_current.push_back(p);
                if ((was | 1) == inPrevious) {
                    stamps[p] = stamp;
                    ++counts.kept;
                    return;
                }
                ++counts.loaded;
                const std::uint32_t n = ++loads[p];
                std::uint32_t mark = stamp;
                if (n > m_ordinaryLoads) [[unlikely]] {
                    if (n == m_warnAt)
                        m_warned.push_back(p);
                    if (n > m_reload.bound()) {
                        mark |= 1;
                        breakRead(patch);
                    }
                }
                stamps[p] = mark;
                if constexpr (Lists)
                    m_loading.push_back(p);
            });
        return counts;
    }

    /// The final step: writes what is pending, frees everything.
    void drain()
    {
        const int step = int(m_groups.size() + 1);
        StepStats &stats = m_result.steps.emplace_back();
        stats.drain = true;
        if (m_chip)
            for (PixelId p : m_previous)
                m_chip->freePixel(p);
        stats.freed_input = m_previousCount * m_layer.c_in;
        m_pixelsOnChip = 0;
        endAction(step, Action::FreeInput);
        for (KernelId k : m_previousKernels) {
            stats.freed_kernels += m_layer.kernelElements();
            if (m_chip)
                m_chip->freeKernel(k);
        }
        m_kernelsOnChip = 0;
        endAction(step, Action::FreeKernels);
        stats.written = m_pending;
        m_outputsOnChip -= m_pending;
        m_pending = 0;
        // Each output was computed once and is written once, so DRAM ends
        // with every computed output's chip value, whenever it was written.
        if (m_chip)
            m_chip->writeComputed();
        endAction(step, Action::Write);
        endAction(step, Action::LoadInput);
        endAction(step, Action::LoadKernels);
        endAction(step, Action::Compute);
        stats.write_duration = double(stats.written) * m_problem.hardware.t_w;
    }

    const Plan &m_groups;

    PatchWalk m_walk;
    std::vector<std::uint32_t>
        m_stamp; // per pixel: (2 + the last group that needed it) << 1, | 1 when loaded beyond the bound then
    const std::uint32_t m_warnAt; // the load count that is warned about
    const std::uint32_t m_ordinaryLoads; // up to this count, a load needs neither a warning nor a reload flag
    std::int64_t m_previousCount = 0; // |U(g-1)|
    std::vector<std::uint32_t> m_loads, m_kernelLoads;
    std::vector<PixelId> m_previous, m_current, m_loading, m_warned;
    std::vector<std::uint32_t> m_kernelStamp;
    std::vector<KernelId> m_previousKernels, m_currentKernels, m_loadingKernels;
    std::int64_t m_pending = 0; // outputs computed, not written yet
};

/// Per output, whether the plan computes it; nullopt when a pair repeats, a
/// step is empty or an id is out of range (the general executor's cases).
template <typename Plan> std::optional<std::vector<std::uint8_t>> outputsComputed(const Layer &layer, const Plan &plan)
{
    std::vector<std::uint8_t> computed(std::size_t(layer.outputCount()), 0);
    const std::int64_t patchCount = layer.patchCount();
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const auto &patches = plan.patches(i);
        const auto &kernels = plan.kernels(i);
        if (patches.empty() || kernels.empty())
            return std::nullopt;
        for (KernelId k : kernels)
            if (std::int64_t(k) >= layer.n)
                return std::nullopt;
        for (PatchId p : patches) {
            if (std::int64_t(p) >= patchCount)
                return std::nullopt;
            for (KernelId k : kernels) {
                std::uint8_t &c = computed[outputId(layer, p, k)];
                if (c)
                    return std::nullopt;
                c = 1;
            }
        }
    }
    return computed;
}

template <typename Plan>
std::optional<SimulationResult> runFused(const Problem &problem, const Plan &plan, const SimulationOptions &options)
{
    if (options.trace || plan.size() >= std::numeric_limits<std::uint32_t>::max() / 2 - 2) // a pixel stamp is (group + 2) << 1
        return std::nullopt;
    detail::requireSound(problem);
    const std::optional<std::vector<std::uint8_t>> computed = outputsComputed(problem.layer, plan);
    if (!computed)
        return std::nullopt;
    return FusedPass<Plan>(problem, plan, options).run(*computed);
}

} // namespace

std::optional<SimulationResult> simulateS1Fused(const Problem &problem, const Groups &groups, const SimulationOptions &options)
{
    GroupsPlan plan{groups, {}};
    for (int k = 0; k < problem.layer.n; ++k)
        plan.all.push_back(KernelId(k));
    return runFused(problem, plan, options);
}

std::optional<SimulationResult> simulateS1Fused(
    const Problem &problem, const PatchSequence &sequence, const SimulationOptions &options)
{
    SequencePlan plan{sequence, {}};
    for (int k = 0; k < problem.layer.n; ++k)
        plan.all.push_back(KernelId(k));
    return runFused(problem, plan, options);
}

std::optional<SimulationResult> simulateStepsFused(
    const Problem &problem, const ComputeSteps &steps, const SimulationOptions &options)
{
    return runFused(problem, StepsPlan{steps}, options);
}

} // namespace convoffload
