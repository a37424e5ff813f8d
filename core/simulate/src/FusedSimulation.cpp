// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/FusedSimulation.h"

#include "Executor.h"
#include "TransferCounter.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace convoffload {

namespace {

using detail::Reporter;

/// S1 groups as a plan: every kernel at every step (expandS1 is expandSteps
/// of such steps).
struct GroupsPlan {
    static constexpr bool kEveryKernel = true;
    static constexpr bool kPartition = false;
    const Groups &groups;
    std::vector<KernelId> all;
    std::size_t size() const { return groups.size(); }
    const std::vector<PatchId> &patches(std::size_t i) const { return groups[i]; }
    const std::vector<KernelId> &kernels(std::size_t) const { return all; }
};

/// A patch order cut every G patches as a plan: group i is a span of it.
struct SequencePlan {
    static constexpr bool kEveryKernel = true;
    static constexpr bool kPartition = false;
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
    static constexpr bool kEveryKernel = false;
    static constexpr bool kPartition = false;
    const ComputeSteps &steps;
    std::size_t size() const { return steps.size(); }
    const std::vector<PatchId> &patches(std::size_t i) const { return steps[i].patches; }
    const std::vector<KernelId> &kernels(std::size_t i) const { return steps[i].kernels; }
};

/// The steps of kernelBlockedSteps as a plan, read off its groups and
/// blocks instead of a copy of a group per step (with B = 1 that list held
/// every patch N times). Groups that partition the patches and blocks that
/// partition the kernels compute every output once: coverageOf checks the
/// two partitions instead of every (patch, kernel) pair.
struct BlocksPlan {
    static constexpr bool kEveryKernel = false;
    static constexpr bool kPartition = true;
    const Groups &groups;
    const std::vector<KernelBlock> &blocks;
    KernelLoop loop;
    std::size_t size() const { return groups.size() * blocks.size(); }
    const std::vector<PatchId> &patches(std::size_t i) const
    {
        return groups[kernelBlockedStepAt(i, groups.size(), blocks.size(), loop).group];
    }
    const std::vector<KernelId> &kernels(std::size_t i) const
    {
        return blocks[kernelBlockedStepAt(i, groups.size(), blocks.size(), loop).block];
    }
    /// Step i computes the patches of step i - 1 (patches-outer, within a group).
    bool repeatsPatches(std::size_t i) const
    {
        return i > 0
            && kernelBlockedStepAt(i, groups.size(), blocks.size(), loop).group
            == kernelBlockedStepAt(i - 1, groups.size(), blocks.size(), loop).group;
    }
};

/// forEachPatchPixel with the layer's figures worked out once, the same
/// pixels in the same order: recomputing wOut() (a division) and testing
/// for padding at every pixel cost about a fifth of the fused pass.
class PatchWalk {
public:
    PatchWalk(const Layer &layer, bool paddingInDram)
        : m_layer(layer)
        , m_paddingInDram(paddingInDram)
        , m_plain(!layer.isDilated()
              && (paddingInDram || (layer.pad_top == 0 && layer.pad_bottom == 0 && layer.pad_left == 0 && layer.pad_right == 0)))
        , m_outWidth(PatchId(layer.wOut()))
        , m_width(PixelId(layer.paddedWidth()))
        , m_rowMagic(m_outWidth > 1 ? ~std::uint64_t(0) / m_outWidth + 1 : 0)
    {
    }

    /// True when the pixels of a patch are a plain K×K square of the stored
    /// input (no padding to skip, no dilation): forEach<K> walks them fully unrolled.
    bool plainSquare(int k) const { return m_plain && m_layer.h_k == k && m_layer.w_k == k; }

    /// f(pixel) for every pixel of `patch`; with Square = K > 0, only when
    /// plainSquare(K).
    template <int Square = 0, typename F> void forEach(PatchId patch, F &&f) const
    {
        if (Square == 0 && !m_plain) {
            forEachPatchPixel(m_layer, m_paddingInDram, patch, f);
            return;
        }
        const PatchId row = rowOf(patch), col = patch - row * m_outWidth;
        PixelId first = PixelId(row) * PixelId(m_layer.stride_h) * m_width + PixelId(col) * PixelId(m_layer.stride_w);
        if constexpr (Square > 0) {
            for (int r = 0; r < Square; ++r, first += m_width)
                for (int c = 0; c < Square; ++c)
                    f(first + PixelId(c));
        } else {
            for (int r = 0; r < m_layer.h_k; ++r, first += m_width)
                for (int c = 0; c < m_layer.w_k; ++c)
                    f(first + PixelId(c));
        }
    }

private:
    /// patch / m_outWidth by a multiplication: the division's latency was
    /// the walk's largest single cost. Exact for every 32-bit patch id
    /// (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
    /// 2019: M = 2^64 / d rounded up, n / d = (M · n) >> 64).
    PatchId rowOf(PatchId patch) const
    {
        static_assert(sizeof(PatchId) == 4);
        if (m_rowMagic == 0) // one output column
            return patch;
        // The high half of the 96-bit product, from two 64-bit products.
        const std::uint64_t high = m_rowMagic >> 32, low = m_rowMagic & 0xffffffffu;
        return PatchId((high * patch + ((low * patch) >> 32)) >> 32);
    }

    const Layer &m_layer;
    bool m_paddingInDram, m_plain;
    PatchId m_outWidth;
    PixelId m_width;
    std::uint64_t m_rowMagic;
};

/// Which outputs a plan computes: one bit per patch when every step
/// computes its patches with every kernel (a pair repeats iff a patch
/// does), one byte per output otherwise.
struct Coverage {
    std::vector<std::uint64_t> patches; // marked by the fused pass's walk, patch by patch
    std::vector<std::uint8_t> outputs; // filled before the run
    std::int64_t patchCount = 0;

    /// Marks `patch` computed; false when it is out of range or repeats.
    bool mark(PatchId patch)
    {
        if (std::int64_t(patch) >= patchCount) [[unlikely]]
            return false;
        std::uint64_t &word = patches[patch / 64];
        const std::uint64_t bit = std::uint64_t(1) << (patch % 64);
        const bool fresh = !(word & bit);
        word |= bit;
        return fresh;
    }

    /// f(o) for every output never computed, ascending.
    template <typename F> void forEachNever(const Layer &layer, F &&f) const
    {
        if (outputs.empty()) {
            for (std::size_t w = 0; w < patches.size(); ++w) {
                if (patches[w] == ~std::uint64_t(0))
                    continue;
                for (PatchId p = PatchId(w * 64); p < PatchId(w * 64 + 64) && std::int64_t(p) < patchCount; ++p)
                    if (!(patches[w] >> (p % 64) & 1))
                        for (KernelId k = 0; std::int64_t(k) < layer.n; ++k)
                            f(outputId(layer, p, k));
            }
            return;
        }
        for (OutputId o = 0; o < OutputId(outputs.size()); ++o)
            if (!outputs[o])
                f(o);
    }
};

/// Thrown when the walk finds a patch out of range or repeated: the
/// general executor reports it.
struct NotFusable { };

/// One run of a plan. What the expansion would list is only counted: M_inp
/// after step i is exactly U_i and M_ker exactly K_i, so an element is kept
/// iff its stamp is the previous step's, loaded iff it is not; the write
/// policy needs only how many outputs are pending, since every output is
/// computed at most once.
template <typename Plan> class FusedPass : detail::Executor {
public:
    FusedPass(const Problem &problem, const Plan &plan, const SimulationOptions &options, Coverage &coverage)
        : Executor(problem, options)
        , m_groups(plan)
        , m_coverage(coverage)
        , m_walk(m_layer, problem.options.padding_in_dram)
        , m_warnAt(std::uint32_t(problem.hardware.max_loads_per_element) + 1)
    {
        // S1 plans need every slice of a pixel, so they walk whole pixels; a
        // steps plan on a grouped layer walks the slices of its kernels'
        // groups (docs/reference/model.md#grouped-and-dilated).
        m_inputUnitElements = m_slices ? m_layer.sliceChannels() : m_layer.c_in;
        // The transfer model (S1 plans, writes at the next step: runFused):
        // each action's ids are listed and counted as the general executor
        // counts them (docs/reference/model.md#transfer-cost).
        if (problem.hardware.transfer)
            m_transfer.emplace(m_layer, problem.options.padding_in_dram, *problem.hardware.transfer);
    }

    SimulationResult run()
    {
        checkDram();
        const std::size_t stepCount = m_groups.size() + 1;
        if (m_options.step_stats)
            m_result.steps.reserve(stepCount);
        else
            m_result.totals.emplace();
        const std::size_t units = std::size_t(m_slices ? m_layer.sliceCount() : m_layer.pixelCount());
        m_stamp.assign(units, 0);
        m_loads.assign(units, 0);
        m_hasGroup.assign(std::size_t(m_layer.group), 0);
        m_chunked = m_slices && chunkedGroups();
        m_kernelLoads.assign(std::size_t(m_layer.n), 0);
        m_kernelStamp.assign(std::size_t(m_layer.n), 0);
        m_patchFlags = m_reload.patchFlags();
        if (m_chip)
            m_narrowLoad = m_transfer ? detail::ChipMemory::NarrowLoader{}
                                      : m_chip->narrowLoader(); // the transfer model needs the loads listed
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
        m_coverage.forEachNever(m_layer, [&](OutputId o) { m_reporter.neverComputed(lastStep, o); });
        return finish(sliceLoads(), std::move(m_kernelLoads));
    }

private:
    /// The load counts per slice, as the general executor counts them: a
    /// pixel's g slices are loaded together.
    std::vector<std::uint32_t> sliceLoads()
    {
        if (!m_layer.isGrouped() || m_slices)
            return std::move(m_loads);
        const std::size_t g = std::size_t(m_layer.group);
        std::vector<std::uint32_t> slices(m_loads.size() * g);
        for (std::size_t p = 0; p < m_loads.size(); ++p)
            std::fill_n(slices.begin() + std::ptrdiff_t(p * g), g, m_loads[p]);
        return slices;
    }

    /// Without step stats, the step just run goes into the totals.
    void foldStep()
    {
        if (!m_result.totals)
            return;
        m_result.totals->add(m_result.steps.back());
        m_result.steps.pop_back();
    }

    [[gnu::always_inline]] void endAction(int step, Action action) { noteFootprint(step, action); }

    void runGroup(std::size_t g)
    {
        const int step = int(g + 1);
        const std::uint32_t stamp = std::uint32_t(g + 2); // 0 = never needed, so group 0 keeps nothing
        // A step computing the previous step's patches again (patches-outer
        // kernel blocks) keeps every pixel and loads none: without the chip
        // memory, which lists them, its walk is skipped. Pixel stamps count
        // walks, not steps, so the pixels it keeps still carry the stamp of
        // the step before the next walk.
        bool repeat = false;
        if constexpr (Plan::kPartition)
            repeat = !m_chip && !m_slices && !m_transfer && m_groups.repeatsPatches(g);
        if (!repeat)
            ++m_walks;
        const std::uint32_t pixelStamp = std::uint32_t(m_walks + 1) << 1; // | 1 when loaded beyond the reload bound at this step
        const auto &group = m_groups.patches(g); // a vector or a span
        const std::vector<KernelId> &kernels = m_groups.kernels(g);
        const Hardware &hw = m_problem.hardware;
        StepStats &stats = m_result.steps.emplace_back();

        // U(g): kept pixels carry the previous stamp, the others are loads,
        // counted here; the lists are built only for the chip memory.
        // Reload warnings are listed at a4 only while their rule is under
        // the cap; nothing reports them between here and there.
        const bool listWarnings = m_reporter.listing(Rule::ReloadBound);
        if (m_slices)
            noteGroups(kernels);
        if (repeat)
            m_warned.clear(); // the walk's list of pixels reaching the warning: none here
        const WalkCounts walked = repeat ? WalkCounts{m_previousCount, 0, 0} : walk(group, pixelStamp, listWarnings);
        const std::int64_t inGroup = walked.kept + walked.loaded;

        // a1: F_inp = U(g-1) \ U(g).
        const std::int64_t freed = m_previousCount - walked.kept;
        if (m_chip && m_slices) {
            for (SliceId p : previousPixels())
                if ((m_stamp[p] | 1) != (pixelStamp | 1))
                    m_chip->freeSlice(p);
        } else if (m_chip) {
            m_chip->freePixelsExcept(previousPixels(), [&](PixelId p) { return (m_stamp[p] | 1) == (pixelStamp | 1); });
        }
        m_pixelsOnChip -= freed;
        stats.freed_input = freed * m_inputUnitElements;
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
                = inGroup * m_inputUnitElements + m_layer.kernelElements() * std::int64_t(m_currentKernels.size());
            writes = std::clamp<std::int64_t>(resident + m_pending + outputs - hw.mem_size, 0, m_pending);
        }
        m_pending -= writes;
        m_outputsOnChip -= writes;
        stats.written = writes;
        endAction(step, Action::Write);

        // a4: I_slice = U(g) \ U(g-1), counted and listed in the walk;
        // reload warnings in ascending pixel order.
        if (m_chip && m_slices) {
            for (SliceId p : std::span<const SliceId>(m_loading.data(), std::size_t(walked.loaded)))
                m_chip->loadSlice(p);
        } else if (m_chip && !m_narrowLoad) { // else loaded in the walk
            m_chip->loadPixels(std::span<const PixelId>(m_loading.data(), std::size_t(walked.loaded)));
        }
        m_pixelsOnChip += walked.loaded;
        stats.loaded_input = walked.loaded * m_inputUnitElements;
        // A whole pixel of a grouped layer is g slices, each warned about.
        const int perUnit = m_slices ? 1 : m_layer.group;
        if (!listWarnings) {
            m_reporter.countUnlisted(Severity::Warning, walked.warned * perUnit);
        } else {
            std::sort(m_warned.begin(), m_warned.end());
            for (std::uint32_t p : m_warned)
                for (int group = 0; group < perUnit; ++group)
                    m_reporter.reloadBound(step, Action::LoadInput, ElementKind::Pixel, m_slices ? p : sliceId(m_layer, p, group),
                        hw.max_loads_per_element);
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
            if constexpr (Plan::kEveryKernel) // every kernel of each patch
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
        stats.kernel_load_duration = double(paidKernels) * hw.t_l;
        stats.write_duration = double(stats.written) * hw.t_w;
        stats.compute_duration = hw.t_acc;
        if (m_transfer) {
            // Next-step writes: the previous group's outputs, all of them.
            transferCosts(stats, std::span<const PixelId>(m_loading.data(), std::size_t(walked.loaded)),
                stats.written > 0 ? m_previousPatches : std::span<const PatchId>());
            m_previousPatches.assign(group.begin(), group.end());
            std::sort(m_previousPatches.begin(), m_previousPatches.end());
        }
        if (!repeat)
            std::swap(m_previous, m_current);
        m_previousCount = inGroup;
        std::swap(m_previousKernels, m_currentKernels);
    }

    /// walkGroup for this run: with the lists when the chip memory needs
    /// them, unrolled for the common 3×3 kernel.
    template <typename Patches> auto walk(const Patches &group, std::uint32_t stamp, bool listWarnings)
    {
        if (m_slices)
            return m_chip ? walkGroup<true, 0, true>(group, stamp, listWarnings)
                          : walkGroup<false, 0, true>(group, stamp, listWarnings);
        const bool square = m_walk.plainSquare(3);
        if (m_chip || m_transfer)
            return square ? walkGroup<true, 3>(group, stamp, listWarnings) : walkGroup<true>(group, stamp, listWarnings);
        return square ? walkGroup<false, 3>(group, stamp, listWarnings) : walkGroup<false>(group, stamp, listWarnings);
    }

    /// U(g-1) as listed for the chip memory.
    std::span<const PixelId> previousPixels() const { return {m_previous.data(), std::size_t(m_previousCount)}; }

    struct WalkCounts {
        std::int64_t kept = 0, loaded = 0, warned = 0;
    };

    /// Stamps the group's pixels and counts them: kept (stamped by the
    /// previous group) or loaded (their load count goes up here). With
    /// `Lists` (with the chip memory), U(g) and the loads are listed too.
    /// `stamp` is even; a pixel loaded beyond the reload bound gets stamp | 1,
    /// so every patch of the group that reads it is flagged in this walk
    /// without a second array. Pixels reaching the warning are counted, and
    /// listed in m_warned when `listWarnings`.
    /// With `Slices`, the units stamped are the slices (pixel, γ) of the
    /// step's groups (noteGroups), not whole pixels.
    template <bool Lists, int Square = 0, bool Slices = false, typename Patches>
    WalkCounts walkGroup(const Patches &group, std::uint32_t stamp, bool listWarnings)
    {
        m_warned.clear();
        // The lists are written through pointers into buffers sized for the
        // group: push_back, left out of line in this large function, cost
        // the functional check a fifth of its time.
        const detail::ChipMemory::NarrowLoader load = m_narrowLoad;
        PixelId *current = nullptr, *loading = nullptr;
        if constexpr (Lists) {
            const std::size_t most = group.size() * std::size_t(m_layer.h_k) * std::size_t(m_layer.w_k)
                * (Slices ? m_stepGroups.size() : std::size_t(1));
            if (m_current.size() < most)
                m_current.resize(most);
            if (!load && m_loading.size() < most)
                m_loading.resize(most);
            current = m_current.data();
            loading = m_loading.data();
        }
        WalkCounts counts;
        std::uint32_t *const stamps = m_stamp.data();
        std::uint32_t *const loads = m_loads.data();
        const std::uint32_t inGroup = stamp | 1, inPrevious = (stamp - 2) | 1; // stamps with the flag bit set
        const std::uint32_t bound = m_reload.bound(), warnAt = m_warnAt;
        std::uint8_t *const patchFlags = m_patchFlags;
        const std::uint32_t ordinary = std::min(bound, warnAt - 1); // up to this count, a load needs neither
        for (PatchId patch : group) {
            if constexpr (Plan::kEveryKernel)
                if (!m_coverage.mark(patch))
                    throw NotFusable{};
            // Whether the patch reads a pixel loaded beyond the bound at this
            // step: one flag write per patch, not a tally call per pixel (on
            // a layer the strategy reloads a lot, a third of the loads are such).
            std::uint32_t breaks = 0;
            const auto unit = [&](std::uint32_t p) { // a pixel, or a slice with Slices
                const std::uint32_t was = stamps[p];
                if ((was | 1) == inGroup) { // read by an earlier patch of the group
                    if (was & 1)
                        breaks = 1;
                    return;
                }
                if constexpr (Lists)
                    *current++ = p;
                if ((was | 1) == inPrevious) {
                    stamps[p] = stamp;
                    ++counts.kept;
                    return;
                }
                ++counts.loaded;
                const std::uint32_t n = ++loads[p];
                std::uint32_t mark = stamp;
                if (n > ordinary) {
                    const bool warn = n == warnAt;
                    counts.warned += warn;
                    if (warn && listWarnings)
                        m_warned.push_back(p);
                    if (n > bound) {
                        mark |= 1;
                        breaks = 1;
                    }
                }
                stamps[p] = mark;
                if constexpr (Lists) {
                    if (!Slices && load) // a4 at once: no pixel loaded now is in U(g-1), which a1 frees
                        load(p);
                    else
                        *loading++ = p;
                }
            };
            // A chunk of slices with one history (chunkedGroups): one
            // decision, then the chunk's stamps and counts written at once.
            const auto chunk = [&](std::uint32_t p, std::uint32_t width) {
                const std::uint32_t was = stamps[p];
                if ((was | 1) == inGroup) {
                    if (was & 1)
                        breaks = 1;
                    return;
                }
                if constexpr (Lists)
                    for (std::uint32_t w = 0; w < width; ++w)
                        *current++ = p + w;
                if ((was | 1) == inPrevious) {
                    std::fill_n(stamps + p, width, stamp);
                    counts.kept += width;
                    return;
                }
                counts.loaded += width;
                const std::uint32_t n = loads[p] + 1;
                std::fill_n(loads + p, width, n);
                std::uint32_t mark = stamp;
                if (n > ordinary) {
                    const bool warn = n == warnAt;
                    counts.warned += warn ? width : 0;
                    if (warn && listWarnings)
                        for (std::uint32_t w = 0; w < width; ++w)
                            m_warned.push_back(p + w);
                    if (n > bound) {
                        mark |= 1;
                        breaks = 1;
                    }
                }
                std::fill_n(stamps + p, width, mark);
                if constexpr (Lists)
                    for (std::uint32_t w = 0; w < width; ++w)
                        *loading++ = p + w;
            };
            m_walk.forEach<Square>(patch, [&](PixelId pixel) {
                if constexpr (Slices) {
                    if (m_chunked)
                        chunk(sliceId(m_layer, pixel, m_stepGroups.front()), std::uint32_t(m_stepGroups.size()));
                    else
                        for (const int g : m_stepGroups)
                            unit(sliceId(m_layer, pixel, g));
                } else {
                    unit(pixel);
                }
            });
            patchFlags[patch] |= std::uint8_t(breaks);
        }
        return counts;
    }

    /// The final step: writes what is pending, frees everything.
    void drain()
    {
        const int step = int(m_groups.size() + 1);
        StepStats &stats = m_result.steps.emplace_back();
        stats.drain = true;
        if (m_chip)
            for (std::uint32_t p : previousPixels()) {
                if (m_slices)
                    m_chip->freeSlice(p);
                else
                    m_chip->freePixel(p);
            }
        stats.freed_input = m_previousCount * m_inputUnitElements;
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
        if (m_transfer)
            transferCosts(stats, {}, stats.written > 0 ? m_previousPatches : std::span<const PatchId>());
    }

    /// The transfer model's counts and costs of a step: the pixels it loaded
    /// (in walk order), the kernels it loaded (m_loadingKernels, ascending;
    /// empty at the drain) and the outputs it wrote (every kernel of
    /// `written`'s patches, ascending).
    void transferCosts(StepStats &stats, std::span<const PixelId> loaded, std::span<const PatchId> written)
    {
        // The loads in ascending order, as slice ids (a whole pixel is its g slices).
        m_sortedLoads.clear();
        for (const PixelId p : loaded)
            for (int g = 0; g < m_layer.group; ++g)
                m_sortedLoads.push_back(sliceId(m_layer, p, g));
        std::sort(m_sortedLoads.begin(), m_sortedLoads.end());
        m_writeIds.clear();
        for (const PatchId p : written)
            for (int k = 0; k < m_layer.n; ++k)
                m_writeIds.push_back(outputId(m_layer, p, KernelId(k)));
        const bool freeKernels = m_problem.options.kernels_preloaded || stats.drain;
        m_transfer->costStep(stats, m_problem.hardware, m_sortedLoads,
            freeKernels ? std::span<const KernelId>() : std::span<const KernelId>(m_loadingKernels), m_writeIds);
    }

    std::optional<detail::TransferCounter> m_transfer;
    std::vector<PatchId> m_previousPatches; // the last group's patches, ascending (its outputs are written next)
    std::vector<SliceId> m_sortedLoads;
    std::vector<OutputId> m_writeIds;

    const Plan &m_groups;
    Coverage &m_coverage;

    PatchWalk m_walk;
    // A steps plan on a grouped layer: stamps, load counts and lists are per
    // slice, over the groups of each step's kernels (m_stepGroups, ascending).
    const bool m_slices = !Plan::kEveryKernel && m_layer.isGrouped();
    std::vector<int> m_stepGroups;
    std::vector<std::uint8_t> m_hasGroup;
    // Whether every step's groups are a range of consecutive groups, and
    // any two steps' ranges are equal or disjoint (kernel-blocked blocks
    // are): then the slices of a range at one pixel are needed by the same
    // steps, share their stamps and load counts, and are walked as one chunk.
    bool m_chunked = false;
    bool chunkedGroups() const
    {
        std::vector<std::pair<int, int>> owner(std::size_t(m_layer.group), {-1, -1});
        std::vector<std::uint8_t> seen(std::size_t(m_layer.group), 0);
        for (std::size_t i = 0; i < m_groups.size(); ++i) {
            int lo = m_layer.group, hi = -1;
            for (KernelId k : m_groups.kernels(i)) {
                const int g = m_layer.groupOfKernel(k);
                seen[std::size_t(g)] = 1;
                lo = std::min(lo, g);
                hi = std::max(hi, g);
            }
            if (hi < lo)
                return false;
            for (int g = lo; g <= hi; ++g) {
                std::pair<int, int> &o = owner[std::size_t(g)];
                if (!seen[std::size_t(g)] || (o.first >= 0 && o != std::pair{lo, hi}))
                    return false;
                o = {lo, hi};
            }
            std::fill(seen.begin() + lo, seen.begin() + hi + 1, std::uint8_t(0));
        }
        return true;
    }
    void noteGroups(const std::vector<KernelId> &kernels)
    {
        std::fill(m_hasGroup.begin(), m_hasGroup.end(), 0);
        for (KernelId k : kernels)
            m_hasGroup[std::size_t(m_layer.groupOfKernel(k))] = 1;
        m_stepGroups.clear();
        for (int g = 0; g < m_layer.group; ++g)
            if (m_hasGroup[std::size_t(g)])
                m_stepGroups.push_back(g);
    }
    // Per pixel: (2 + the last group that needed it) << 1, | 1 when that
    // group loaded it beyond the reload bound.
    std::vector<std::uint32_t> m_stamp;
    const std::uint32_t m_warnAt; // the load count that is warned about
    std::int64_t m_previousCount = 0; // |U(g-1)|
    std::uint32_t m_walks = 0; // steps whose pixels were walked: the pixel stamps' clock
    std::uint8_t *m_patchFlags = nullptr; // the reload tally's, set in the walk without a call
    detail::ChipMemory::NarrowLoader m_narrowLoad; // set: the walk loads into the chip memory itself
    std::vector<std::uint32_t> m_loads, m_kernelLoads;
    std::vector<PixelId> m_previous, m_current, m_loading; // with the chip memory: buffers, the first |U| or loads entries used
    std::vector<PixelId> m_warned;
    std::vector<std::uint32_t> m_kernelStamp;
    std::vector<KernelId> m_previousKernels, m_currentKernels, m_loadingKernels;
    std::int64_t m_pending = 0; // outputs computed, not written yet
};

/// The plan's coverage; nullopt when a pair repeats, a step is empty or an
/// id is out of range (the general executor's cases). For S1 plans only
/// the steps are checked here: the walk marks the patches (one read of the
/// plan, not two) and gives up on a bad one.
template <typename Plan> std::optional<Coverage> coverageOf(const Layer &layer, const Plan &plan)
{
    const std::int64_t patchCount = layer.patchCount();
    Coverage coverage;
    coverage.patchCount = patchCount;
    if constexpr (Plan::kEveryKernel) {
        if (layer.n < 1)
            return std::nullopt;
        for (std::size_t i = 0; i < plan.size(); ++i)
            if (plan.patches(i).empty())
                return std::nullopt;
        coverage.patches.assign(std::size_t((patchCount + 63) / 64), 0);
        return coverage;
    }
    if constexpr (Plan::kPartition) {
        // Each patch in exactly one group, each kernel in exactly one block:
        // every output computed once, so none is left for forEachNever.
        const auto partition = [](const auto &parts, std::int64_t count) {
            std::vector<char> seen(std::size_t(count), 0);
            std::int64_t total = 0;
            for (const auto &part : parts) {
                if (part.empty())
                    return false;
                for (const auto id : part) {
                    if (std::int64_t(id) >= count || seen[id])
                        return false;
                    seen[id] = 1;
                    ++total;
                }
            }
            return total == count;
        };
        if (!partition(plan.groups, patchCount) || !partition(plan.blocks, layer.n))
            return std::nullopt;
        coverage.patches.assign(std::size_t((patchCount + 63) / 64), ~std::uint64_t(0));
        return coverage;
    }
    coverage.outputs.assign(std::size_t(layer.outputCount()), 0);
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
                std::uint8_t &c = coverage.outputs[outputId(layer, p, k)];
                if (c)
                    return std::nullopt;
                c = 1;
            }
        }
    }
    return coverage;
}

template <typename Plan>
std::optional<SimulationResult> runFused(const Problem &problem, const Plan &plan, const SimulationOptions &options)
{
    if (options.trace || plan.size() >= std::numeric_limits<std::uint32_t>::max() / 2 - 2) // a pixel stamp is (group + 2) << 1
        return std::nullopt;
    // The transfer model's runs need each action's elements: the fused pass
    // lists them for S1 plans whose outputs are written at the next step;
    // anything else runs on the general executor.
    if (problem.hardware.transfer && (!Plan::kEveryKernel || problem.options.write_policy != WritePolicy::NextStep))
        return std::nullopt;
    detail::requireSound(problem);
    std::optional<Coverage> coverage = coverageOf(problem.layer, plan);
    if (!coverage)
        return std::nullopt;
    try {
        return FusedPass<Plan>(problem, plan, options, *coverage).run();
    } catch (const NotFusable &) {
        return std::nullopt;
    }
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

std::optional<SimulationResult> simulateKernelBlockedFused(
    const Problem &problem, const KernelBlockedParts &parts, const SimulationOptions &options)
{
    return runFused(problem, BlocksPlan{parts.groups, parts.blocks, parts.loop}, options);
}

} // namespace convoffload
