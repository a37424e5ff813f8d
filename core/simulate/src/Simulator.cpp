#include "convoffload/simulate/Simulator.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

namespace convoffload {

namespace {

// Values that freed or never-loaded memory holds: a compute that reads them
// produces a wrong output, which the functional check then names.
constexpr std::int32_t kPoisonInput = 1000003;
constexpr std::int32_t kPoisonKernel = -999983;
constexpr std::int64_t kUnwrittenOutput = std::int64_t(0x7EADBEEF) << 16;

enum class OutputState : std::uint8_t { Pending, OnChip, Written };

/// One run of a strategy. State is held in flat arrays indexed by id, so each
/// action costs O(ids it names) and nothing is proportional to the layer size
/// per step.
class Engine {
public:
    Engine(const Problem &problem, const SimulationOptions &options)
        : m_problem(problem)
        , m_layer(problem.layer)
        , m_options(options)
        , m_inputPresent(std::size_t(m_layer.pixelCount()), 0)
        , m_inputLoads(std::size_t(m_layer.pixelCount()), 0)
        , m_kernelPresent(std::size_t(m_layer.n), 0)
        , m_kernelLoads(std::size_t(m_layer.n), 0)
        , m_outputState(std::size_t(m_layer.outputCount()), OutputState::Pending)
        , m_computedAt(std::size_t(m_layer.outputCount()), 0)
        , m_patchCheckedAt(std::size_t(m_layer.patchCount()), 0)
    {
        if (options.functional) {
            m_data = options.data ? *options.data : seededTensors(m_layer, options.seed);
            if (m_data.input.size() != std::size_t(m_layer.c_in) * m_layer.h_in * m_layer.w_in
                || m_data.kernels.size() != std::size_t(m_layer.n * m_layer.kernelElements()))
                throw std::invalid_argument("the tensor data does not match the layer's shape");
            m_chipInput.assign(std::size_t(m_layer.pixelCount()) * m_layer.c_in, kPoisonInput);
            m_chipKernels.assign(m_data.kernels.size(), kPoisonKernel);
            m_chipOutput.assign(std::size_t(m_layer.outputCount()), 0);
            m_dramOutput.assign(std::size_t(m_layer.outputCount()), kUnwrittenOutput);
            m_narrow = outputsFitInt32(m_layer, m_data);
        }
    }

    SimulationResult run(const StepList &steps)
    {
        checkDram();
        m_result.steps.reserve(steps.size());
        if (m_options.trace) {
            m_result.trace.actions.reserve(steps.size() * kActionCount);
            std::size_t ids = 0;
            for (const Step &s : steps)
                ids += s.free_input.size() + s.free_kernels.size() + s.write.size() + s.load_input.size() + s.load_kernels.size()
                    + s.compute.size();
            m_result.trace.ids.reserve(ids);
        }
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (i % kPollEvery == 0)
                poll(i, steps.size());
            runStep(int(i + 1), steps[i]);
        }
        checkEnd(int(steps.size()));
        if (m_options.functional) {
            compareWithReference();
            if (m_options.keep_output)
                m_result.functional.dram_output = std::move(m_dramOutput);
        }
        std::stable_sort(m_result.diagnostics.begin(), m_result.diagnostics.end(),
            [](const Diagnostic &a, const Diagnostic &b) { return a.severity < b.severity; });
        m_result.input_load_counts = std::move(m_inputLoads);
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

    // ---- footprint -------------------------------------------------------
    Footprint footprint() const
    {
        return {m_inputOnChip * m_layer.c_in, m_kernelsOnChip * m_layer.kernelElements(), m_outputsOnChip};
    }

    void endAction(int step, Action action, std::uint32_t traceBegin)
    {
        const Footprint now = footprint();
        StepStats &stats = m_result.steps.back();
        stats.peak_footprint = std::max(stats.peak_footprint, now.total());
        stats.after = now;
        if (now.total() > m_problem.hardware.mem_size)
            report(Severity::Error, Rule::MemoryOverflow, step, action, [&] {
                return Finding{{},
                    "the on-chip footprint reaches " + std::to_string(now.total()) + " elements (input "
                        + std::to_string(now.input) + ", kernels " + std::to_string(now.kernels) + ", output "
                        + std::to_string(now.output) + "), more than mem_size " + std::to_string(m_problem.hardware.mem_size)};
            });
        if (m_options.trace)
            m_result.trace.actions.push_back({action, traceBegin, std::uint32_t(m_result.trace.ids.size()), now});
    }

    // ---- diagnostics -----------------------------------------------------
    struct Element {
        std::string name;
        ElementKind kind = ElementKind::None;
        std::uint32_t id = 0;
    };
    struct Finding {
        Element element;
        std::string what;
    };
    Element pixelElement(PixelId p) const { return {pixelName(m_layer, p), ElementKind::Pixel, p}; }
    Element kernelElement(KernelId k) const { return {kernelName(k), ElementKind::Kernel, k}; }
    Element outputElement(OutputId o) const { return {outputName(m_layer, o), ElementKind::Output, o}; }
    Element patchElement(PatchId p) const { return {patchName(m_layer, p), ElementKind::Patch, p}; }

    /// Counts a finding; lists it while its rule is under the cap. The text is
    /// built by `describe` only then, so a strategy that breaks a rule a
    /// million times does not build a million strings.
    template <typename Describe>
    void report(Severity severity, Rule rule, int step, std::optional<Action> action, Describe &&describe)
    {
        ++(severity == Severity::Error ? m_result.error_count : m_result.warning_count);
        int &count = m_reported[std::size_t(rule)];
        if (count >= m_options.max_diagnostics_per_rule) {
            ++m_result.suppressed_diagnostics;
            return;
        }
        ++count;
        Finding finding = describe();
        std::string element = std::move(finding.element.name), what = std::move(finding.what);
        Diagnostic d;
        d.severity = severity;
        d.rule = rule;
        d.step = step;
        d.has_action = action.has_value();
        if (action)
            d.action = *action;
        d.element = element;
        d.element_kind = finding.element.kind;
        d.element_id = finding.element.id;
        std::string where = step > 0 ? "step " + std::to_string(step) : std::string("strategy");
        if (action)
            where += ", " + std::string(actionName(*action));
        if (!element.empty())
            where += ", " + element;
        d.message = where + ": " + what;
        m_result.diagnostics.push_back(std::move(d));
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
        stats.write_duration = double(stats.written) * hw.t_w;
        stats.compute_duration = s.compute.empty() ? 0.0 : hw.t_acc;
    }

    void freeInput(int step, const std::vector<PixelId> &pixels)
    {
        for (PixelId p : pixels) {
            if (!inRange(step, Action::FreeInput, p, m_layer.pixelCount(), "pixel"))
                continue;
            trace(p);
            if (!m_inputPresent[p]) {
                report(Severity::Error, Rule::FreeNotPresent, step, Action::FreeInput, [&] {
                    return Finding{pixelElement(p), "freed but not on chip"};
                });
                continue;
            }
            m_inputPresent[p] = 0;
            --m_inputOnChip;
            m_result.steps.back().freed_input += m_layer.c_in;
            if (m_options.functional)
                std::fill_n(m_chipInput.begin() + std::ptrdiff_t(p) * m_layer.c_in, m_layer.c_in, kPoisonInput);
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
            if (m_options.functional)
                std::fill_n(m_chipKernels.begin() + std::ptrdiff_t(k) * m_layer.kernelElements(), m_layer.kernelElements(),
                    kPoisonKernel);
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
            if (m_options.functional)
                m_dramOutput[o] = m_chipOutput[o];
        }
    }

    void loadInput(int step, const std::vector<PixelId> &pixels)
    {
        const int maxLoads = m_problem.hardware.max_loads_per_element;
        for (PixelId p : pixels) {
            if (!inRange(step, Action::LoadInput, p, m_layer.pixelCount(), "pixel"))
                continue;
            trace(p);
            const Grid g = pixelPosition(m_layer, p);
            if (!m_problem.options.padding_in_dram && m_layer.isPadding(g.row, g.col)) {
                report(Severity::Error, Rule::PaddingLoaded, step, Action::LoadInput, [&] {
                    return Finding{pixelElement(p),
                        "is padding, which this project synthesises on chip (padding_in_dram is false): it cannot be loaded"};
                });
                continue;
            }
            m_result.steps.back().loaded_input += m_layer.c_in;
            if (++m_inputLoads[p] == std::uint32_t(maxLoads) + 1)
                report(Severity::Warning, Rule::ReloadBound, step, Action::LoadInput, [&] {
                    return Finding{pixelElement(p),
                        "loaded " + std::to_string(maxLoads + 1)
                            + " times, more than max_loads_per_element = " + std::to_string(maxLoads)};
                });
            if (m_inputPresent[p]) {
                report(Severity::Warning, Rule::UselessLoad, step, Action::LoadInput, [&] {
                    return Finding{pixelElement(p), "loaded while already on chip"};
                });
                continue;
            }
            m_inputPresent[p] = 1;
            ++m_inputOnChip;
            if (m_options.functional)
                for (int c = 0; c < m_layer.c_in; ++c)
                    m_chipInput[std::size_t(p) * m_layer.c_in + c]
                        = std::int32_t(paddedInputValue(m_layer, m_data, c, g.row, g.col));
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
            if (++m_kernelLoads[k] == std::uint32_t(maxLoads) + 1)
                report(Severity::Warning, Rule::ReloadBound, step, Action::LoadKernels, [&] {
                    return Finding{kernelElement(k),
                        "loaded " + std::to_string(maxLoads + 1)
                            + " times, more than max_loads_per_element = " + std::to_string(maxLoads)};
                });
            if (m_kernelPresent[k]) {
                report(Severity::Warning, Rule::UselessLoad, step, Action::LoadKernels, [&] {
                    return Finding{kernelElement(k), "loaded while already on chip"};
                });
                continue;
            }
            m_kernelPresent[k] = 1;
            ++m_kernelsOnChip;
            if (m_options.functional) {
                const std::size_t n = std::size_t(m_layer.kernelElements()), at = std::size_t(k) * n;
                std::copy_n(m_data.kernels.begin() + std::ptrdiff_t(at), n, m_chipKernels.begin() + std::ptrdiff_t(at));
            }
        }
    }

    void compute(int step, const std::vector<OutputId> &outputs)
    {
        const std::int64_t ops = std::int64_t(outputs.size()) * m_layer.opsPerOutput();
        if (ops > m_problem.hardware.nbop_pe)
            report(Severity::Error, Rule::TooManyOps, step, Action::Compute, [&] {
                return Finding{{},
                    std::to_string(outputs.size()) + " outputs need " + std::to_string(ops) + " MACs, more than nbop_pe "
                        + std::to_string(m_problem.hardware.nbop_pe)};
            });
        for (OutputId o : outputs) {
            if (!inRange(step, Action::Compute, o, m_layer.outputCount(), "output"))
                continue;
            trace(o);
            checkPatchOnChip(step, patchOfOutput(m_layer, o));
            const KernelId k = kernelOfOutput(m_layer, o);
            if (!m_kernelPresent[k])
                report(Severity::Error, Rule::KernelNotOnChip, step, Action::Compute, [&] {
                    return Finding{outputElement(o), "needs " + kernelName(k) + ", which is not on chip"};
                });
            if (m_outputState[o] != OutputState::Pending) {
                report(Severity::Error, Rule::ComputedTwice, step, Action::Compute, [&] {
                    return Finding{
                        outputElement(o), "computed again (first computed at step " + std::to_string(m_computedAt[o]) + ")"};
                });
            } else {
                m_computedAt[o] = std::uint32_t(step);
            }
            if (m_outputState[o] != OutputState::OnChip)
                ++m_outputsOnChip;
            m_outputState[o] = OutputState::OnChip;
            ++m_result.steps.back().computed;
            if (m_options.functional)
                m_chipOutput[o] = macFromChip(step, o);
        }
    }

    /// Once per patch and step: every (non-synthesised) pixel must be on chip.
    void checkPatchOnChip(int step, PatchId patch)
    {
        if (m_patchCheckedAt[patch] == std::uint32_t(step))
            return;
        m_patchCheckedAt[patch] = std::uint32_t(step);
        std::int64_t missing = 0;
        PixelId first = 0;
        forEachPatchPixel(m_layer, m_problem.options.padding_in_dram, patch, [&](PixelId p) {
            if (!m_inputPresent[p] && missing++ == 0)
                first = p;
        });
        if (missing > 0)
            report(Severity::Error, Rule::PatchNotOnChip, step, Action::Compute, [&] {
                return Finding{patchElement(patch),
                    "needs " + pixelName(m_layer, first)
                        + (missing > 1 ? " and " + std::to_string(missing - 1) + " more pixel(s)" : std::string())
                        + ", not on chip"};
            });
    }

    /// The MACs of one output, reading only what the simulated memory holds.
    /// The patch's values are gathered once per (step, patch) and reused for
    /// every kernel, since a compute action does not change the memory.
    std::int64_t macFromChip(int step, OutputId o)
    {
        const PatchId patch = patchOfOutput(m_layer, o);
        if (m_gathered.step != step || m_gathered.patch != patch)
            gatherPatch(step, patch);
        const std::size_t n = std::size_t(m_layer.kernelElements());
        const std::int32_t *weights = m_chipKernels.data() + std::size_t(kernelOfOutput(m_layer, o)) * n;
        return dotProduct(m_gathered.values.data(), weights, n, m_narrow);
    }

    /// Copies the patch's on-chip values in kernel layout [c][h][w];
    /// synthesised padding reads as zero.
    void gatherPatch(int step, PatchId patch)
    {
        m_gathered.step = step;
        m_gathered.patch = patch;
        m_gathered.values.resize(std::size_t(m_layer.kernelElements()));
        const Grid out = patchPosition(m_layer, patch);
        const bool synthesised = !m_problem.options.padding_in_dram;
        const std::size_t plane = std::size_t(m_layer.h_k) * m_layer.w_k;
        std::size_t e = 0;
        for (int h = 0; h < m_layer.h_k; ++h)
            for (int w = 0; w < m_layer.w_k; ++w, ++e) {
                const int row = out.row * m_layer.stride_h + h, col = out.col * m_layer.stride_w + w;
                const bool zero = synthesised && m_layer.isPadding(row, col);
                const std::int32_t *pixel = m_chipInput.data() + std::size_t(pixelId(m_layer, row, col)) * m_layer.c_in;
                for (int c = 0; c < m_layer.c_in; ++c)
                    m_gathered.values[std::size_t(c) * plane + e] = zero ? 0 : pixel[c];
            }
    }

    // ---- whole-strategy checks ---------------------------------------------
    void checkDram()
    {
        const std::int64_t inputElements = std::int64_t(m_layer.c_in) * m_layer.h_in * m_layer.w_in
            + (m_problem.options.padding_in_dram
                    ? (m_layer.pixelCount() - std::int64_t(m_layer.h_in) * m_layer.w_in) * m_layer.c_in
                    : 0);
        const std::int64_t total = inputElements + m_layer.kernelElements() * m_layer.n + m_layer.outputCount();
        if (total > m_problem.hardware.dram_size)
            report(Severity::Error, Rule::DramOverflow, 0, std::nullopt, [&] {
                return Finding{{},
                    "the layer needs " + std::to_string(total)
                        + " elements of DRAM (input, kernels, output), more than dram_size "
                        + std::to_string(m_problem.hardware.dram_size)};
            });
    }

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

    void compareWithReference()
    {
        const std::vector<std::int64_t> expected = referenceConvolution(m_layer, m_data);
        FunctionalResult &f = m_result.functional;
        f.status = FunctionalStatus::Pass;
        // Report the first mismatch in tensor order O[k][i][j], as users read it.
        for (int k = 0; k < m_layer.n && f.status == FunctionalStatus::Pass; ++k)
            for (PatchId p = 0; p < PatchId(m_layer.patchCount()); ++p) {
                const OutputId o = outputId(m_layer, p, KernelId(k));
                if (m_dramOutput[o] == expected[o])
                    continue;
                f.status = FunctionalStatus::Fail;
                f.message = outputName(m_layer, o) + " in DRAM is "
                    + (m_dramOutput[o] == kUnwrittenOutput ? std::string("never written") : std::to_string(m_dramOutput[o]))
                    + ", the direct convolution gives " + std::to_string(expected[o]);
                break;
            }
    }

    const Problem &m_problem;
    const Layer &m_layer;
    const SimulationOptions &m_options;
    SimulationResult m_result;
    std::array<int, 32> m_reported{};

    std::vector<std::uint8_t> m_inputPresent;
    std::vector<std::uint32_t> m_inputLoads;
    std::int64_t m_inputOnChip = 0; // pixels
    std::vector<std::uint8_t> m_kernelPresent;
    std::vector<std::uint32_t> m_kernelLoads;
    std::int64_t m_kernelsOnChip = 0;
    std::vector<OutputState> m_outputState;
    std::vector<std::uint32_t> m_computedAt;
    std::vector<std::uint32_t> m_patchCheckedAt;
    std::int64_t m_outputsOnChip = 0;

    TensorData m_data;
    std::vector<std::int32_t> m_chipInput, m_chipKernels;
    std::vector<std::int64_t> m_chipOutput, m_dramOutput;
    bool m_narrow = false; // 32-bit dot products are exact for these tensors
    struct {
        int step = -1;
        PatchId patch = 0;
        std::vector<std::int32_t> values;
    } m_gathered;
};

} // namespace

SimulationResult simulate(const Problem &problem, const StepList &steps, const SimulationOptions &options)
{
    std::vector<std::string> problems = problem.layer.problems();
    const std::vector<std::string> hw = problem.hardware.problems();
    problems.insert(problems.end(), hw.begin(), hw.end());
    if (!problems.empty())
        throw std::invalid_argument(problems.front());
    return Engine(problem, options).run(steps);
}

} // namespace convoffload
