#include "convoffload/simulate/FusedS1.h"

#include "ChipMemory.h"
#include "Reporter.h"

#include <algorithm>
#include <stdexcept>

namespace convoffload {

namespace {

using detail::Reporter;

/// One run of S1 groups. What expandS1 would list is only counted: M_inp
/// after step i is exactly U(g_i), so a pixel is kept iff its stamp is the
/// previous group's, loaded iff it is not; the write policy needs only how
/// many outputs are pending, since every output is computed once.
class FusedS1 {
public:
    FusedS1(const Problem &problem, const Groups &groups, const SimulationOptions &options)
        : m_problem(problem)
        , m_layer(problem.layer)
        , m_groups(groups)
        , m_options(options)
        , m_reporter(m_result, m_layer, options.max_diagnostics_per_rule)
    {
        if (options.functional)
            m_chip.emplace(problem, options.data ? *options.data : seededTensors(m_layer, options.seed));
    }

    SimulationResult run(std::vector<std::uint8_t> computed)
    {
        const std::int64_t total = detail::dramElements(m_problem);
        if (total > m_problem.hardware.dram_size)
            m_reporter.dramOverflow(total, m_problem.hardware.dram_size);

        const std::size_t stepCount = m_groups.size() + 1;
        m_result.steps.reserve(stepCount);
        m_stamp.assign(std::size_t(m_layer.pixelCount()), 0);
        m_loads.assign(std::size_t(m_layer.pixelCount()), 0);
        m_kernelLoads.assign(std::size_t(m_layer.n), 0);
        for (std::size_t g = 0; g < m_groups.size(); ++g) {
            if (g % kPollEvery == 0)
                poll(g, stepCount);
            runGroup(g);
        }
        if (m_groups.size() % kPollEvery == 0)
            poll(m_groups.size(), stepCount);
        drain(computed);

        const int lastStep = int(stepCount);
        for (PatchId p = 0; p < PatchId(computed.size()); ++p)
            if (!computed[p])
                for (int k = 0; k < m_layer.n; ++k)
                    m_reporter.neverComputed(lastStep, outputId(m_layer, p, KernelId(k)));
        if (m_chip)
            m_result.functional = m_chip->check(m_options.keep_output);
        std::stable_sort(m_result.diagnostics.begin(), m_result.diagnostics.end(),
            [](const Diagnostic &a, const Diagnostic &b) { return a.severity < b.severity; });
        m_result.input_load_counts = std::move(m_loads);
        m_result.kernel_load_counts = std::move(m_kernelLoads);
        return std::move(m_result);
    }

private:
    static constexpr std::size_t kPollEvery = 256;

    void poll(std::size_t done, std::size_t total) const
    {
        if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
            throw Cancelled();
        if (m_options.progress)
            m_options.progress(done, total);
    }

    Footprint footprint() const
    {
        return {m_pixelsOnChip * m_layer.c_in, m_kernelsOnChip * m_layer.kernelElements(), m_outputsOnChip};
    }

    void endAction(int step, Action action)
    {
        const Footprint now = footprint();
        StepStats &stats = m_result.steps.back();
        stats.peak_footprint = std::max(stats.peak_footprint, now.total());
        stats.after = now;
        if (now.total() > m_problem.hardware.mem_size)
            m_reporter.memoryOverflow(step, action, now, m_problem.hardware.mem_size);
    }

    void runGroup(std::size_t g)
    {
        const int step = int(g + 1);
        const std::uint32_t stamp = std::uint32_t(g + 2); // 0 = never needed, so group 0 keeps nothing
        const Group &group = m_groups[g];
        const bool paddingInDram = m_problem.options.padding_in_dram;
        const Hardware &hw = m_problem.hardware;
        StepStats &stats = m_result.steps.emplace_back();

        // U(g): kept pixels carry the previous stamp, the others are loads.
        m_current.clear();
        m_loading.clear();
        for (PatchId patch : group)
            forEachPatchPixel(m_layer, paddingInDram, patch, [&](PixelId p) {
                const std::uint32_t was = m_stamp[p];
                if (was == stamp)
                    return;
                if (was != stamp - 1)
                    m_loading.push_back(p);
                m_stamp[p] = stamp;
                m_current.push_back(p);
            });

        // a1: F_inp = U(g-1) \ U(g).
        std::int64_t freed = 0;
        for (PixelId p : m_previous)
            if (m_stamp[p] != stamp) {
                ++freed;
                if (m_chip)
                    m_chip->freePixel(p);
            }
        m_pixelsOnChip -= freed;
        stats.freed_input = freed * m_layer.c_in;
        endAction(step, Action::FreeInput);
        endAction(step, Action::FreeKernels);

        // a3: the write policy, on counts.
        const std::int64_t outputs = std::int64_t(group.size()) * m_layer.n;
        std::int64_t writes = m_pending;
        if (m_problem.options.write_policy == WritePolicy::AsLateAsPossible) {
            const std::int64_t resident = std::int64_t(m_current.size()) * m_layer.c_in + m_layer.kernelElements() * m_layer.n;
            writes = std::clamp<std::int64_t>(resident + m_pending + outputs - hw.mem_size, 0, m_pending);
        }
        m_pending -= writes;
        m_outputsOnChip -= writes;
        stats.written = writes;
        endAction(step, Action::Write);

        // a4: I_slice = U(g) \ U(g-1); reload warnings in ascending pixel order.
        const std::uint32_t warnAt = std::uint32_t(hw.max_loads_per_element) + 1;
        m_warned.clear();
        for (PixelId p : m_loading) {
            if (++m_loads[p] == warnAt)
                m_warned.push_back(p);
            if (m_chip)
                m_chip->loadPixel(p);
        }
        m_pixelsOnChip += std::int64_t(m_loading.size());
        stats.loaded_input = std::int64_t(m_loading.size()) * m_layer.c_in;
        std::sort(m_warned.begin(), m_warned.end());
        for (PixelId p : m_warned)
            m_reporter.reloadBound(step, Action::LoadInput, m_reporter.pixel(p), hw.max_loads_per_element);
        endAction(step, Action::LoadInput);

        // a5: every kernel, once, at the first step.
        if (g == 0)
            for (int k = 0; k < m_layer.n; ++k) {
                stats.loaded_kernels += m_layer.kernelElements();
                if (++m_kernelLoads[std::size_t(k)] == warnAt)
                    m_reporter.reloadBound(step, Action::LoadKernels, m_reporter.kernel(KernelId(k)), hw.max_loads_per_element);
                ++m_kernelsOnChip;
                if (m_chip)
                    m_chip->loadKernel(KernelId(k));
            }
        endAction(step, Action::LoadKernels);

        // a6: every kernel on every patch of the group.
        const std::int64_t ops = outputs * m_layer.opsPerOutput();
        if (ops > hw.nbop_pe)
            m_reporter.tooManyOps(step, std::size_t(outputs), ops, hw.nbop_pe);
        if (m_chip)
            for (PatchId patch : group)
                m_chip->computePatch(step, patch);
        m_outputsOnChip += outputs;
        m_pending += outputs;
        stats.computed = outputs;
        endAction(step, Action::Compute);

        const std::int64_t paidKernels = m_problem.options.kernels_preloaded ? 0 : stats.loaded_kernels;
        stats.load_duration = double(stats.loaded_input + paidKernels) * hw.t_l;
        stats.write_duration = double(stats.written) * hw.t_w;
        stats.compute_duration = hw.t_acc;
        std::swap(m_previous, m_current);
    }

    /// The final step: writes what is pending, frees everything.
    void drain(const std::vector<std::uint8_t> &computed)
    {
        const int step = int(m_groups.size() + 1);
        StepStats &stats = m_result.steps.emplace_back();
        stats.drain = true;
        if (m_chip)
            for (PixelId p : m_previous)
                m_chip->freePixel(p);
        stats.freed_input = std::int64_t(m_previous.size()) * m_layer.c_in;
        m_pixelsOnChip = 0;
        endAction(step, Action::FreeInput);
        if (!m_groups.empty())
            for (int k = 0; k < m_layer.n; ++k) {
                stats.freed_kernels += m_layer.kernelElements();
                if (m_chip)
                    m_chip->freeKernel(KernelId(k));
            }
        m_kernelsOnChip = 0;
        endAction(step, Action::FreeKernels);
        stats.written = m_pending;
        m_outputsOnChip -= m_pending;
        m_pending = 0;
        // Each output was computed once and is written once, so DRAM ends
        // with every computed output's chip value, whenever it was written.
        if (m_chip)
            for (PatchId p = 0; p < PatchId(computed.size()); ++p)
                if (computed[p])
                    for (int k = 0; k < m_layer.n; ++k)
                        m_chip->write(outputId(m_layer, p, KernelId(k)));
        endAction(step, Action::Write);
        endAction(step, Action::LoadInput);
        endAction(step, Action::LoadKernels);
        endAction(step, Action::Compute);
        stats.write_duration = double(stats.written) * m_problem.hardware.t_w;
    }

    const Problem &m_problem;
    const Layer &m_layer;
    const Groups &m_groups;
    const SimulationOptions &m_options;
    SimulationResult m_result;
    Reporter m_reporter;
    std::optional<detail::ChipMemory> m_chip;

    std::vector<std::uint32_t> m_stamp; // per pixel: 2 + the last group that needed it
    std::vector<std::uint32_t> m_loads, m_kernelLoads;
    std::vector<PixelId> m_previous, m_current, m_loading, m_warned;
    std::int64_t m_pixelsOnChip = 0, m_kernelsOnChip = 0, m_outputsOnChip = 0;
    std::int64_t m_pending = 0; // outputs computed, not written yet
};

} // namespace

std::optional<SimulationResult> simulateS1Fused(const Problem &problem, const Groups &groups, const SimulationOptions &options)
{
    if (options.trace)
        return std::nullopt;
    std::vector<std::string> problems = problem.layer.problems();
    const std::vector<std::string> hw = problem.hardware.problems();
    problems.insert(problems.end(), hw.begin(), hw.end());
    if (!problems.empty())
        throw std::invalid_argument(problems.front());
    std::vector<std::uint8_t> computed(std::size_t(problem.layer.patchCount()), 0);
    for (const Group &g : groups) {
        if (g.empty())
            return std::nullopt;
        for (PatchId p : g) {
            if (p >= computed.size() || computed[p])
                return std::nullopt;
            computed[p] = 1;
        }
    }
    return FusedS1(problem, groups, options).run(std::move(computed));
}

} // namespace convoffload
