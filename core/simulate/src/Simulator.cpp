// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/Simulator.h"

#include "Executor.h"
#include "TransferCounter.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace convoffload {

namespace {

using detail::Reporter;

enum class OutputState : std::uint8_t { Pending, OnChip, Written };

/// One run of a strategy. State is held in flat arrays indexed by id, so each
/// action costs O(ids it names) and nothing is proportional to the layer size
/// per step.
class Engine : detail::Executor {
public:
    Engine(const Problem &problem, const SimulationOptions &options)
        : Executor(problem, options)
        , m_inputPresent(std::size_t(m_layer.sliceCount()), 0)
        , m_inputLoads(std::size_t(m_layer.sliceCount()), 0)
        , m_kernelPresent(std::size_t(m_layer.n), 0)
        , m_kernelLoads(std::size_t(m_layer.n), 0)
        , m_outputState(std::size_t(m_layer.outputCount()), OutputState::Pending)
        , m_patchCheckedAt(std::size_t(m_layer.patchCount() * m_layer.group), 0)
    {
        if (problem.hardware.transfer)
            m_transfer.emplace(m_layer, problem.options.padding_in_dram, *problem.hardware.transfer);
    }

    SimulationResult run(const StepList &steps)
    {
        m_steps = &steps;
        std::size_t ids = 0;
        if (m_options.trace)
            for (const Step &s : steps)
                ids += s.free_input.size() + s.free_kernels.size() + s.write.size() + s.load_input.size() + s.load_kernels.size()
                    + s.compute.size();
        std::size_t next = 0;
        return runEach(steps.size(), ids, [&]() -> const Step * { return next < steps.size() ? &steps[next++] : nullptr; });
    }

    /// One step at a time, as the expander makes it: the step list is never
    /// held. The trace reserves the expander's bound on its ids; the pages
    /// it does not fill are never touched, so they are not resident.
    SimulationResult run(S1Expander &expander)
    {
        Step step;
        return runEach(expander.stepCount(), m_options.trace ? expander.idBound() : 0,
            [&]() -> const Step * { return expander.next(step) ? &step : nullptr; });
    }

private:
    template <typename Next> SimulationResult runEach(std::size_t count, std::size_t traceIds, Next &&next)
    {
        checkDram();
        m_result.steps.reserve(count);
        if (m_options.trace) {
            m_result.trace.actions.reserve(count * kActionCount);
            m_result.trace.ids.reserve(traceIds);
        }
        std::size_t i = 0;
        for (const Step *s = nullptr; (s = next()) != nullptr; ++i) {
            if (i % kPollEvery == 0)
                poll(i, count);
            runStep(int(i + 1), *s);
        }
        checkEnd(int(i));
        return finish(std::move(m_inputLoads), std::move(m_kernelLoads));
    }

    void endAction(int step, Action action, std::uint32_t traceBegin)
    {
        const Footprint now = noteFootprint(step, action);
        if (m_options.trace)
            m_result.trace.actions.push_back({action, traceBegin, std::uint32_t(m_result.trace.ids.size()), now});
    }

    // ---- diagnostics -----------------------------------------------------
    using Finding = Reporter::Finding;
    Reporter::Element pixelElement(PixelId p) const { return m_reporter.pixel(p); }
    Reporter::Element kernelElement(KernelId k) const { return m_reporter.kernel(k); }
    Reporter::Element outputElement(OutputId o) const { return m_reporter.output(o); }
    Reporter::Element patchElement(PatchId p) const { return m_reporter.patch(p); }

    template <typename Describe>
    void report(Severity severity, Rule rule, int step, std::optional<Action> action, Describe &&describe)
    {
        m_reporter.report(severity, rule, step, action, std::forward<Describe>(describe));
    }

    bool inRange(int step, Action action, std::uint32_t id, std::int64_t bound, const char *kind)
    {
        if (std::int64_t(id) < bound) [[likely]]
            return true;
        outOfRange(step, action, id, bound, kind);
        return false;
    }

    void outOfRange(int step, Action action, std::uint32_t id, std::int64_t bound, const char *kind)
    {
        report(Severity::Error, Rule::IdOutOfRange, step, action, [&] {
            return Finding{{std::string(kind) + " " + std::to_string(id)},
                "no such " + std::string(kind) + " (ids 0.." + std::to_string(bound - 1) + ")"};
        });
    }

    void trace(std::uint32_t id)
    {
        if (m_options.trace)
            m_result.trace.ids.push_back(id);
    }

    // ---- the six actions ---------------------------------------------------
    void runStep(int step, const Step &s)
    {
        m_result.steps.emplace_back();
        m_result.steps.back().drain = s.compute.empty();
        const auto run = [&](Action action, auto &&body) {
            const auto begin = std::uint32_t(m_result.trace.ids.size());
            body();
            endAction(step, action, begin);
        };
        run(Action::FreeInput, [&] { freeInput(step, s.free_input); });
        run(Action::FreeKernels, [&] { freeKernels(step, s.free_kernels); });
        run(Action::Write, [&] { write(step, s.write); });
        run(Action::LoadInput, [&] { loadInput(step, s.load_input); });
        run(Action::LoadKernels, [&] { loadKernels(step, s.load_kernels); });
        run(Action::Compute, [&] { compute(step, s.compute); });

        StepStats &stats = m_result.steps.back();
        const Hardware &hw = m_problem.hardware;
        const std::int64_t paidKernels = m_problem.options.kernels_preloaded ? 0 : stats.loaded_kernels;
        stats.load_duration = double(stats.loaded_input + paidKernels) * hw.t_l;
        stats.kernel_load_duration = double(paidKernels) * hw.t_l;
        stats.write_duration = double(stats.written) * hw.t_w;
        stats.compute_duration = s.compute.empty() ? 0.0 : hw.t_acc;
        if (m_transfer)
            transferCosts(stats);
    }

    /// The transfer model's costs of the step's loads and writes, from what
    /// they moved (docs/reference/model.md#transfer-cost): per run t_setup,
    /// per aligned block burst·t. Kernel loads cost nothing when preloaded.
    void transferCosts(StepStats &stats)
    {
        const auto ascending = [](auto &ids) {
            if (!std::is_sorted(ids.begin(), ids.end())) // a hand-made step list
                std::sort(ids.begin(), ids.end());
        };
        ascending(m_movedInput);
        ascending(m_movedKernels);
        ascending(m_movedOutputs);
        if (m_problem.options.kernels_preloaded)
            m_movedKernels.clear(); // free: no run, no cost
        m_transfer->costStep(stats, m_problem.hardware, m_movedInput, m_movedKernels, m_movedOutputs);
        m_movedInput.clear();
        m_movedKernels.clear();
        m_movedOutputs.clear();
    }

    // Input ids are slice ids (pixel ids when g = 1), named "pixel" in
    // messages as users know them.
    void freeInput(int step, const std::vector<SliceId> &pixels)
    {
        for (SliceId p : pixels) {
            if (!inRange(step, Action::FreeInput, p, m_layer.sliceCount(), inputKind()))
                continue;
            trace(p);
            if (!m_inputPresent[p]) {
                report(Severity::Error, Rule::FreeNotPresent, step, Action::FreeInput, [&] {
                    return Finding{pixelElement(p), "freed but not on chip"};
                });
                continue;
            }
            m_inputPresent[p] = 0;
            --m_pixelsOnChip;
            m_result.steps.back().freed_input += m_inputUnitElements;
            if (m_chip)
                m_chip->freeSlice(p);
        }
    }

    void freeKernels(int step, const std::vector<KernelId> &kernels)
    {
        for (KernelId k : kernels) {
            if (!inRange(step, Action::FreeKernels, k, m_layer.n, "kernel"))
                continue;
            trace(k);
            if (!m_kernelPresent[k]) {
                report(Severity::Error, Rule::FreeNotPresent, step, Action::FreeKernels, [&] {
                    return Finding{kernelElement(k), "freed but not on chip"};
                });
                continue;
            }
            m_kernelPresent[k] = 0;
            --m_kernelsOnChip;
            m_result.steps.back().freed_kernels += m_layer.kernelElements();
            if (m_chip)
                m_chip->freeKernel(k);
        }
    }

    void write(int step, const std::vector<OutputId> &outputs)
    {
        for (OutputId o : outputs) {
            if (!inRange(step, Action::Write, o, m_layer.outputCount(), "output"))
                continue;
            trace(o);
            switch (m_outputState[o]) {
            case OutputState::Pending:
                report(Severity::Error, Rule::WriteNotComputed, step, Action::Write, [&] {
                    return Finding{outputElement(o), "written back but not computed yet"};
                });
                continue;
            case OutputState::Written:
                report(Severity::Error, Rule::WriteAlreadyWritten, step, Action::Write, [&] {
                    return Finding{outputElement(o), "written back again (it is no longer on chip)"};
                });
                continue;
            case OutputState::OnChip:
                break;
            }
            m_outputState[o] = OutputState::Written;
            --m_outputsOnChip;
            ++m_result.steps.back().written;
            if (m_transfer)
                m_movedOutputs.push_back(o);
            if (m_chip)
                m_chip->write(o);
        }
    }

    void loadInput(int step, const std::vector<SliceId> &pixels)
    {
        const int maxLoads = m_problem.hardware.max_loads_per_element;
        for (SliceId p : pixels) {
            if (!inRange(step, Action::LoadInput, p, m_layer.sliceCount(), inputKind()))
                continue;
            trace(p);
            const Grid g = pixelPosition(m_layer, pixelOfSlice(m_layer, p));
            if (!m_problem.options.padding_in_dram && m_layer.isPadding(g.row, g.col)) {
                report(Severity::Error, Rule::PaddingLoaded, step, Action::LoadInput, [&] {
                    return Finding{pixelElement(p),
                        "is padding, which this project synthesises on chip (padding_in_dram is false): it cannot be loaded"};
                });
                continue;
            }
            m_result.steps.back().loaded_input += m_inputUnitElements;
            if (m_transfer)
                m_movedInput.push_back(p);
            if (++m_inputLoads[p] == std::uint32_t(maxLoads) + 1)
                m_reporter.reloadBound(step, Action::LoadInput, ElementKind::Pixel, p, maxLoads);
            m_reload.pixelLoaded(step, p, m_inputLoads[p]);
            if (m_inputPresent[p]) {
                report(Severity::Warning, Rule::UselessLoad, step, Action::LoadInput, [&] {
                    return Finding{pixelElement(p), "loaded while already on chip"};
                });
                continue;
            }
            m_inputPresent[p] = 1;
            ++m_pixelsOnChip;
            if (m_chip)
                m_chip->loadSlice(p);
        }
    }

    void loadKernels(int step, const std::vector<KernelId> &kernels)
    {
        const int maxLoads = m_problem.hardware.max_loads_per_element;
        for (KernelId k : kernels) {
            if (!inRange(step, Action::LoadKernels, k, m_layer.n, "kernel"))
                continue;
            trace(k);
            m_result.steps.back().loaded_kernels += m_layer.kernelElements();
            if (m_transfer)
                m_movedKernels.push_back(k);
            if (++m_kernelLoads[k] == std::uint32_t(maxLoads) + 1)
                m_reporter.reloadBound(step, Action::LoadKernels, ElementKind::Kernel, k, maxLoads);
            m_reload.kernelLoaded(step, k, m_kernelLoads[k]);
            if (m_kernelPresent[k]) {
                report(Severity::Warning, Rule::UselessLoad, step, Action::LoadKernels, [&] {
                    return Finding{kernelElement(k), "loaded while already on chip"};
                });
                continue;
            }
            m_kernelPresent[k] = 1;
            ++m_kernelsOnChip;
            if (m_chip)
                m_chip->loadKernel(k);
        }
    }

    void compute(int step, const std::vector<OutputId> &outputs)
    {
        const std::int64_t ops = std::int64_t(outputs.size()) * m_layer.opsPerOutput();
        if (ops > m_problem.hardware.nbop_pe)
            m_reporter.tooManyOps(step, outputs.size(), ops, m_problem.hardware.nbop_pe);
        // Outputs are patch-major (patch·N + kernel) and listed in order, so a
        // patch's outputs come in a run: one division and one patch check per
        // run, not per output (which matters when a step has few kernels).
        const OutputId n = OutputId(m_layer.n);
        OutputId runFirst = 1, runEnd = 0; // empty: the first output starts a run
        int runGroup = -1; // the group of the run's last kernel: a patch is checked once per group
        for (OutputId o : outputs) {
            if (!inRange(step, Action::Compute, o, m_layer.outputCount(), "output"))
                continue;
            trace(o);
            if (o < runFirst || o >= runEnd) {
                const PatchId patch = o / n;
                runFirst = patch * n;
                runEnd = runFirst + n;
                runGroup = -1;
            }
            const KernelId k = o - runFirst;
            if (const int group = m_layer.groupOfKernel(k); group != runGroup) {
                runGroup = group;
                checkPatchOnChip(step, PatchId(o / n), group);
            }
            if (m_reload.breaks(step)) [[unlikely]]
                m_reload.computed(step, PatchId(o / n), k);
            if (!m_kernelPresent[k])
                report(Severity::Error, Rule::KernelNotOnChip, step, Action::Compute, [&] {
                    return Finding{outputElement(o), "needs " + kernelName(k) + ", which is not on chip"};
                });
            if (m_outputState[o] != OutputState::Pending) {
                report(Severity::Error, Rule::ComputedTwice, step, Action::Compute, [&] {
                    const int first = firstComputed(o, step);
                    return Finding{outputElement(o),
                        "computed again"
                            + (first > 0 ? " (first computed at step " + std::to_string(first) + ")" : std::string())};
                });
            }
            if (m_outputState[o] != OutputState::OnChip)
                ++m_outputsOnChip;
            m_outputState[o] = OutputState::OnChip;
            ++m_result.steps.back().computed;
        }
        if (!m_chip)
            return;
        // The functional simulation: the memory does not change during the
        // compute action, so whole patches (every kernel, in order, as S1
        // expansions list them) go in one call, anything else output by output.
        if (wholePatches(outputs)) {
            m_chip->computePatches(step, m_wholePatches);
            return;
        }
        for (OutputId o : outputs)
            if (std::int64_t(o) < m_layer.outputCount())
                m_chip->compute(step, o);
    }

    /// Whether `outputs` is whole patches, each patch's outputs in kernel
    /// order; if so they are left in m_wholePatches.
    bool wholePatches(const std::vector<OutputId> &outputs)
    {
        const std::size_t n = std::size_t(m_layer.n);
        m_wholePatches.clear();
        if (outputs.size() % n != 0)
            return false;
        for (std::size_t i = 0; i < outputs.size(); i += n) {
            const OutputId first = outputs[i];
            if (first % OutputId(n) != 0 || std::int64_t(first) >= m_layer.outputCount())
                return false;
            for (std::size_t k = 1; k < n; ++k)
                if (outputs[i + k] != first + OutputId(k))
                    return false;
            m_wholePatches.push_back(first / OutputId(n));
        }
        return true;
    }

    /// The first step (1-based) whose compute names `o`, `step` when it is
    /// the first, 0 when the run keeps neither its steps nor a trace. Looked
    /// up only for a listed finding, so the run keeps no per-output step array.
    int firstComputed(OutputId o, int step) const
    {
        if (m_steps) {
            for (std::size_t i = 0; i < m_steps->size(); ++i) {
                const std::vector<OutputId> &c = (*m_steps)[i].compute;
                if (std::find(c.begin(), c.end(), o) != c.end())
                    return int(i + 1);
            }
            return 0;
        }
        if (!m_options.trace)
            return 0;
        const std::vector<ActionRecord> &actions = m_result.trace.actions;
        const std::vector<std::uint32_t> &ids = m_result.trace.ids;
        for (std::size_t a = std::size_t(Action::Compute); a < actions.size(); a += std::size_t(kActionCount))
            if (std::find(ids.begin() + actions[a].begin, ids.begin() + actions[a].end, o) != ids.begin() + actions[a].end)
                return int(a / std::size_t(kActionCount) + 1);
        return step;
    }

    const char *inputKind() const { return m_layer.isGrouped() ? "pixel slice" : "pixel"; }

    /// Once per patch, group and step: the (non-synthesised) pixels' slices
    /// of that group must be on chip.
    void checkPatchOnChip(int step, PatchId patch, int group)
    {
        std::uint32_t &checked = m_patchCheckedAt[std::size_t(patch) * std::size_t(m_layer.group) + std::size_t(group)];
        if (checked == std::uint32_t(step))
            return;
        checked = std::uint32_t(step);
        std::int64_t missing = 0;
        SliceId first = 0;
        forEachPatchPixel(m_layer, m_problem.options.padding_in_dram, patch, [&](PixelId p) {
            const SliceId s = sliceId(m_layer, p, group);
            if (!m_inputPresent[s] && missing++ == 0)
                first = s;
        });
        if (missing > 0)
            report(Severity::Error, Rule::PatchNotOnChip, step, Action::Compute, [&] {
                return Finding{patchElement(patch),
                    "needs " + sliceName(m_layer, first)
                        + (missing > 1 ? " and " + std::to_string(missing - 1) + " more pixel(s)" : std::string())
                        + ", not on chip"};
            });
    }

    // ---- whole-strategy checks ---------------------------------------------
    void checkEnd(int lastStep)
    {
        for (std::size_t o = 0; o < m_outputState.size(); ++o)
            if (m_outputState[o] != OutputState::Written)
                report(Severity::Error, Rule::OutputNotWritten, lastStep, std::nullopt, [&] {
                    return Finding{outputElement(OutputId(o)),
                        m_outputState[o] == OutputState::Pending ? "never computed" : "computed but never written back"};
                });
        const Footprint left = footprint();
        if (left.total() > 0)
            report(Severity::Error, Rule::MemoryNotEmpty, lastStep, std::nullopt, [&] {
                return Finding{{},
                    "the memory is not empty at the end: " + std::to_string(left.input) + " input, "
                        + std::to_string(left.kernels) + " kernel and " + std::to_string(left.output)
                        + " output elements remain on chip"};
            });
    }

    std::vector<std::uint8_t> m_inputPresent;
    std::vector<std::uint32_t> m_inputLoads;
    std::vector<std::uint8_t> m_kernelPresent;
    std::vector<std::uint32_t> m_kernelLoads;
    std::vector<OutputState> m_outputState;
    const StepList *m_steps = nullptr; // the run's steps: where a repeated output was first computed
    std::vector<std::uint32_t> m_patchCheckedAt;
    std::vector<PatchId> m_wholePatches; // compute: the step's patches, when it computes whole ones
    // The transfer model, when the hardware has one, and what the step moved.
    std::optional<detail::TransferCounter> m_transfer;
    std::vector<SliceId> m_movedInput;
    std::vector<KernelId> m_movedKernels;
    std::vector<OutputId> m_movedOutputs;
};

} // namespace

SimulationResult simulate(const Problem &problem, const StepList &steps, const SimulationOptions &options)
{
    detail::requireSound(problem);
    return Engine(problem, options).run(steps);
}

SimulationResult simulate(const Problem &problem, S1Expander &steps, const SimulationOptions &options)
{
    detail::requireSound(problem);
    return Engine(problem, options).run(steps);
}

} // namespace convoffload
