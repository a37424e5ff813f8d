// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The naive reference executor: every set of the paper is a std::set of
// element tuples and every rule is a literal reading of docs/reference/model.md. See the
// header for what is (and is not) shared with the fast engine.

#include "NaiveExecutor.h"

#include <algorithm>
#include <sstream>

namespace convoffload::naive {

namespace {

// A missing element reads as this value: any output that touched one is
// visibly wrong (unless every weight it met was 0, as on real hardware).
constexpr std::int64_t kPoison = 1000003;

// Beyond this many readable lines the report only keeps the (step, rule) sets.
constexpr std::size_t kMaxMessages = 500;

bool inPadding(const Layer &l, int row, int col)
{
    const bool rowInside = row >= l.pad_top && row < l.pad_top + l.h_in;
    const bool colInside = col >= l.pad_left && col < l.pad_left + l.w_in;
    return !(rowInside && colInside);
}

/// True when an element needs no load: padding synthesised on chip.
bool synthesised(const Problem &p, const InputElement &e)
{
    return !p.options.padding_in_dram && inPadding(p.layer, e.row, e.col);
}

/// The elements of one input slice: channels [γ·C_in/g, (γ+1)·C_in/g) of a pixel.
std::set<InputElement> sliceElements(const Layer &l, int row, int col, int group)
{
    std::set<InputElement> elements;
    const int channels = l.c_in / l.group;
    for (int c = group * channels; c < (group + 1) * channels; ++c)
        elements.insert({c, row, col});
    return elements;
}

/// Kernel k reads the channels of group floor(k / (N/g)).
int kernelGroup(const Layer &l, int kernel) { return kernel / (l.n / l.group); }

OutputElement outputOfId(const Layer &l, OutputId id)
{
    const int patch = int(id / OutputId(l.n));
    return {int(id % OutputId(l.n)), patch / l.wOut(), patch % l.wOut()};
}

template <typename T> std::set<T> minus(const std::set<T> &a, const std::set<T> &b)
{
    std::set<T> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
    return out;
}

std::set<KernelIndex> allKernels(const Layer &l)
{
    std::set<KernelIndex> kernels;
    for (int k = 0; k < l.n; ++k)
        kernels.insert(k);
    return kernels;
}

/// Outputs in the order "oldest first, within a step increasing output id".
std::vector<OutputElement> byOutputId(const Layer &l, const std::set<OutputElement> &outputs)
{
    std::vector<OutputElement> sorted(outputs.begin(), outputs.end());
    std::sort(sorted.begin(), sorted.end(),
        [&](const OutputElement &a, const OutputElement &b) { return naiveOutputId(l, a) < naiveOutputId(l, b); });
    return sorted;
}

/// Writes for the as-late-as-possible policy: the fewest oldest outputs whose
/// write lets the footprint after the compute of `out` fit; everything if
/// nothing fits. `pending` holds the outputs on chip, oldest first, each once,
/// so an output of `out` already there adds nothing to the footprint.
/// `kernelElements`: what the step's kernels occupy.
std::set<OutputElement> lateWrites(const Problem &p, std::vector<OutputElement> &pending, std::int64_t inputElements,
    std::int64_t kernelElements, const std::set<OutputElement> &out)
{
    const std::set<OutputElement> onChip(pending.begin(), pending.end());
    const std::int64_t newOutputs = std::int64_t(minus(out, onChip).size());
    std::size_t count = 0;
    auto fits = [&](std::size_t written) {
        const std::int64_t outputs = std::int64_t(pending.size() - written) + newOutputs;
        return inputElements + kernelElements + outputs <= p.hardware.mem_size;
    };
    while (count < pending.size() && !fits(count))
        ++count;
    const std::set<OutputElement> written(pending.begin(), pending.begin() + std::ptrdiff_t(count));
    pending.erase(pending.begin(), pending.begin() + std::ptrdiff_t(count));
    return written;
}

/// The outputs of `out` that are not on chip join `pending`, in output-id order.
void addPending(const Layer &l, std::vector<OutputElement> &pending, const std::set<OutputElement> &out)
{
    const std::set<OutputElement> onChip(pending.begin(), pending.end());
    for (const OutputElement &o : byOutputId(l, minus(out, onChip)))
        pending.push_back(o);
}

std::int64_t paddedValue(const Layer &l, const TensorData &data, const InputElement &e)
{
    if (inPadding(l, e.row, e.col))
        return 0;
    const int r = e.row - l.pad_top, c = e.col - l.pad_left;
    return data.input[(std::size_t(e.c) * l.h_in + r) * l.w_in + c];
}

/// Weight K^kernel[c][h][w], c counted within the kernel's group (c < C_in/g).
std::int64_t weight(const Layer &l, const TensorData &data, int kernel, int c, int h, int w)
{
    return data.kernels[((std::size_t(kernel) * (l.c_in / l.group) + c) * l.h_k + h) * l.w_k + w];
}

std::int64_t kernelSizeOf(const Layer &l) { return std::int64_t(l.c_in / l.group) * l.h_k * l.w_k; }

std::string pixelText(int row, int col) { return "pixel (" + std::to_string(row) + "," + std::to_string(col) + ")"; }

std::string outputText(const OutputElement &o)
{
    return "output O[" + std::to_string(o.kernel) + "](" + std::to_string(o.i) + "," + std::to_string(o.j) + ")";
}

/// The executor's state: the paper's M = [M_inp, M_ker, M_out] plus what the
/// rules need to remember (computed / written outputs, load counts) and,
/// for the functional check, values on chip and in DRAM.
class Machine {
public:
    Machine(const Problem &problem, const NaiveOptions &options, NaiveReport &report)
        : p(problem)
        , opt(options)
        , rep(report)
    {
        if (opt.functional)
            data = opt.data ? *opt.data : seededTensors(p.layer, opt.seed);
    }

    void runStep(int step, const NaiveStep &s)
    {
        NaiveStepReport r;
        const std::int64_t kernelSize = kernelSizeOf(p.layer);
        // Counts are of data that really moved: a free or write of something
        // absent moves nothing, a load of something present is still a
        // transfer, padding synthesised on chip is never transferred.
        const std::size_t inputBefore = mInp.size(), kernelsBefore = mKer.size(), outputsBefore = mOut.size();
        freeInput(step, s.free_input);
        after(step, r, Action::FreeInput);
        r.freed_input = std::int64_t(inputBefore - mInp.size());
        freeKernels(step, s.free_kernels);
        after(step, r, Action::FreeKernels);
        r.freed_kernels = std::int64_t(kernelsBefore - mKer.size()) * kernelSize;
        write(step, s.write);
        after(step, r, Action::Write);
        r.written = std::int64_t(outputsBefore - mOut.size());
        r.loaded_input = loadInput(step, s.load_input);
        after(step, r, Action::LoadInput);
        r.loaded_kernels = std::int64_t(s.load_kernels.size()) * kernelSize;
        loadKernels(step, s.load_kernels);
        after(step, r, Action::LoadKernels);
        r.computed = std::int64_t(s.compute.size());
        compute(step, s.compute, kernelSize);
        after(step, r, Action::Compute);

        const double kernelLoadCost = p.options.kernels_preloaded ? 0.0 : double(r.loaded_kernels);
        r.duration = (double(r.loaded_input) + kernelLoadCost) * p.hardware.t_l + double(r.written) * p.hardware.t_w
            + (s.compute.empty() ? 0.0 : p.hardware.t_acc);
        rep.steps.push_back(r);
    }

    /// "After the very last step the on-chip memory has to be empty and the
    /// results have to be written back": the value an output holds last must
    /// be in DRAM, so an output recomputed after its write and left on chip
    /// counts as not written.
    void finish(int lastStep)
    {
        for (int k = 0; k < p.layer.n; ++k)
            for (int i = 0; i < p.layer.hOut(); ++i)
                for (int j = 0; j < p.layer.wOut(); ++j)
                    if (!written.count({k, i, j}) || mOut.count({k, i, j}))
                        error(lastStep, Rule::OutputNotWritten, outputText({k, i, j}) + " not written back");
        if (!mInp.empty() || !mKer.empty() || !mOut.empty())
            error(lastStep, Rule::MemoryNotEmpty, "memory not empty at the end");
        if (opt.functional)
            functionalCheck();
    }

private:
    void error(int step, Rule rule, const std::string &what) { record(rep.errors, step, rule, what); }
    void warning(int step, Rule rule, const std::string &what) { record(rep.warnings, step, rule, what); }
    void record(std::set<Violation> &into, int step, Rule rule, const std::string &what)
    {
        into.insert({step, rule});
        if (rep.messages.size() < kMaxMessages)
            rep.messages.push_back("step " + std::to_string(step) + ": " + std::string(ruleName(rule)) + ": " + what);
    }

    NaiveFootprint footprint() const
    {
        const std::int64_t kernelSize = kernelSizeOf(p.layer);
        return {std::int64_t(mInp.size()), std::int64_t(mKer.size()) * kernelSize, std::int64_t(mOut.size())};
    }

    void after(int step, NaiveStepReport &r, Action a)
    {
        const NaiveFootprint f = footprint();
        r.after[std::size_t(a)] = f;
        if (f.total() > p.hardware.mem_size)
            error(step, Rule::MemoryOverflow,
                std::string(actionName(a)) + ": footprint " + std::to_string(f.total()) + " > mem_size");
    }

    // a1: M_inp \= F_inp
    void freeInput(int step, const std::set<InputElement> &f)
    {
        for (const InputElement &e : f)
            if (mInp.erase(e) == 0)
                error(step, Rule::FreeNotPresent, pixelText(e.row, e.col) + " freed but not on chip");
    }

    // a2: M_ker \= F_ker
    void freeKernels(int step, const std::set<KernelIndex> &f)
    {
        for (KernelIndex k : f)
            if (mKer.erase(k) == 0)
                error(step, Rule::FreeNotPresent, "kernel " + std::to_string(k) + " freed but not on chip");
    }

    // a3: M_out \= W, values move to DRAM
    void write(int step, const std::set<OutputElement> &w)
    {
        for (const OutputElement &o : w) {
            if (mOut.erase(o) == 1) {
                written.insert(o);
                if (opt.functional)
                    dram[o] = onChipValue.at(o);
            } else if (!computed.count(o)) {
                error(step, Rule::WriteNotComputed, outputText(o) + " written before being computed");
            } else {
                error(step, Rule::WriteAlreadyWritten, outputText(o) + " written twice");
            }
        }
    }

    // a4: M_inp U= I_slice; returns the elements transferred.
    std::int64_t loadInput(int step, const std::set<InputElement> &slice)
    {
        std::int64_t transferred = 0;
        for (const InputElement &e : slice) {
            if (synthesised(p, e)) {
                error(step, Rule::PaddingLoaded, pixelText(e.row, e.col) + " is padding synthesised on chip");
                continue;
            }
            ++transferred;
            if (!mInp.insert(e).second)
                warning(step, Rule::UselessLoad, pixelText(e.row, e.col) + " already on chip");
            // One warning per element, at the load that crosses the bound.
            if (++inputLoads[e] == p.hardware.max_loads_per_element + 1)
                warning(step, Rule::ReloadBound, pixelText(e.row, e.col) + " loaded too often");
        }
        return transferred;
    }

    // a5: M_ker U= K_sub
    void loadKernels(int step, const std::set<KernelIndex> &sub)
    {
        for (KernelIndex k : sub) {
            if (!mKer.insert(k).second)
                warning(step, Rule::UselessLoad, "kernel " + std::to_string(k) + " already on chip");
            if (++kernelLoads[k] == p.hardware.max_loads_per_element + 1)
                warning(step, Rule::ReloadBound, "kernel " + std::to_string(k) + " loaded too often");
        }
    }

    // a6: M_out U= Out, each output from what the memory holds now
    void compute(int step, const std::set<OutputElement> &out, std::int64_t kernelSize)
    {
        if (std::int64_t(out.size()) * kernelSize > p.hardware.nbop_pe)
            error(step, Rule::TooManyOps, std::to_string(out.size()) + " outputs exceed nbop_pe");
        for (const OutputElement &o : out) {
            for (const InputElement &e : patchElements(p, o.i, o.j, o.kernel))
                if (!mInp.count(e)) {
                    error(step, Rule::PatchNotOnChip, outputText(o) + " needs " + pixelText(e.row, e.col));
                    break;
                }
            if (!mKer.count(o.kernel))
                error(step, Rule::KernelNotOnChip, outputText(o) + " needs kernel " + std::to_string(o.kernel));
            if (!computed.insert(o).second)
                error(step, Rule::ComputedTwice, outputText(o) + " computed again");
            mOut.insert(o);
            if (opt.functional)
                onChipValue[o] = valueOnChip(o);
        }
    }

    /// The paper's O[l][i][j] sum, reading only what the memory holds.
    std::int64_t valueOnChip(const OutputElement &o) const
    {
        const Layer &l = p.layer;
        const bool kernelHere = mKer.count(o.kernel) > 0;
        const int channels = l.c_in / l.group, first = kernelGroup(l, o.kernel) * channels;
        std::int64_t sum = 0;
        for (int c = 0; c < channels; ++c)
            for (int h = 0; h < l.h_k; ++h)
                for (int w = 0; w < l.w_k; ++w) {
                    const InputElement e{first + c, o.i * l.stride_h + h * l.dilation_h, o.j * l.stride_w + w * l.dilation_w};
                    const bool inputHere = synthesised(p, e) || mInp.count(e) > 0;
                    const std::int64_t x = inputHere ? paddedValue(l, data, e) : kPoison;
                    const std::int64_t k = kernelHere ? weight(l, data, o.kernel, c, h, w) : kPoison;
                    sum += x * k;
                }
        return sum;
    }

    void functionalCheck()
    {
        const std::map<OutputElement, std::int64_t> expected = naiveConvolution(p.layer, data);
        rep.functionalChecked = true;
        rep.functionalPass = true;
        // The map is ordered (kernel, i, j): the tensor order O[l][i][j].
        for (const auto &[o, value] : expected) {
            const auto got = dram.find(o);
            if (got != dram.end() && got->second == value)
                continue;
            std::ostringstream m;
            m << outputText(o) << ": expected " << value << ", ";
            if (got == dram.end())
                m << "never written to DRAM";
            else
                m << "got " << got->second;
            rep.functionalPass = false;
            rep.firstWrongOutput = o;
            rep.functionalMessage = m.str();
            return;
        }
    }

    const Problem &p;
    const NaiveOptions &opt;
    NaiveReport &rep;
    TensorData data;

    std::set<InputElement> mInp;
    std::set<KernelIndex> mKer;
    std::set<OutputElement> mOut;
    std::set<OutputElement> computed, written;
    std::map<InputElement, int> inputLoads;
    std::map<KernelIndex, int> kernelLoads;
    std::map<OutputElement, std::int64_t> onChipValue, dram;
};

/// Ids to element sets; ids that name nothing are reported and dropped.
NaiveStep fromStep(const Problem &p, int step, const Step &s, NaiveReport &rep)
{
    const Layer &l = p.layer;
    auto outOfRange = [&](const std::string &what) {
        rep.errors.insert({step, Rule::IdOutOfRange});
        if (rep.messages.size() < kMaxMessages)
            rep.messages.push_back("step " + std::to_string(step) + ": id-out-of-range: " + what);
    };
    // Input ids are slice ids: pixel · g + group (the pixel when g = 1).
    auto pixels = [&](const std::vector<PixelId> &ids) {
        std::set<InputElement> elements;
        for (PixelId id : ids) {
            if (std::int64_t(id) >= l.pixelCount() * l.group) {
                outOfRange("pixel " + std::to_string(id));
                continue;
            }
            const int pixel = int(id) / l.group, group = int(id) % l.group;
            const std::set<InputElement> px = sliceElements(l, pixel / l.paddedWidth(), pixel % l.paddedWidth(), group);
            elements.insert(px.begin(), px.end());
        }
        return elements;
    };
    auto kernels = [&](const std::vector<KernelId> &ids) {
        std::set<KernelIndex> out;
        for (KernelId id : ids) {
            if (std::int64_t(id) >= l.n)
                outOfRange("kernel " + std::to_string(id));
            else
                out.insert(KernelIndex(id));
        }
        return out;
    };
    auto outputs = [&](const std::vector<OutputId> &ids) {
        std::set<OutputElement> out;
        for (OutputId id : ids) {
            if (std::int64_t(id) >= l.outputCount())
                outOfRange("output " + std::to_string(id));
            else
                out.insert(outputOfId(l, id));
        }
        return out;
    };
    NaiveStep n;
    n.free_input = pixels(s.free_input);
    n.free_kernels = kernels(s.free_kernels);
    n.write = outputs(s.write);
    n.load_input = pixels(s.load_input);
    n.load_kernels = kernels(s.load_kernels);
    n.compute = outputs(s.compute);
    return n;
}

} // namespace

OutputId naiveOutputId(const Layer &layer, const OutputElement &o)
{
    return OutputId((o.i * layer.wOut() + o.j) * layer.n + o.kernel);
}

std::set<InputElement> patchElements(const Problem &problem, int i, int j, int kernel)
{
    const Layer &l = problem.layer;
    const int channels = l.c_in / l.group;
    const int firstChannel = kernel < 0 ? 0 : kernelGroup(l, kernel) * channels;
    const int endChannel = kernel < 0 ? l.c_in : firstChannel + channels;
    std::set<InputElement> patch;
    for (int c = firstChannel; c < endChannel; ++c)
        for (int h = 0; h < l.h_k; ++h)
            for (int w = 0; w < l.w_k; ++w) {
                const int row = l.stride_h * i + h * l.dilation_h, col = l.stride_w * j + w * l.dilation_w;
                if (problem.options.padding_in_dram || !inPadding(l, row, col))
                    patch.insert({c, row, col});
            }
    return patch;
}

namespace {

/// The drain: frees what is on chip and writes what is not written yet, by
/// the write policy (the previous step's outputs, or every pending one).
NaiveStep drainStep(const Problem &problem, const std::set<InputElement> &inputOnChip, const std::set<KernelIndex> &kernelsOnChip,
    const std::set<OutputElement> &previousOut, const std::vector<OutputElement> &pending)
{
    NaiveStep drain;
    drain.free_input = inputOnChip;
    drain.free_kernels = kernelsOnChip;
    if (problem.options.write_policy == WritePolicy::NextStep)
        drain.write = previousOut;
    else
        drain.write.insert(pending.begin(), pending.end());
    return drain;
}

} // namespace

NaiveSteps naiveExpandS1Sets(const Problem &problem, const Groups &groups)
{
    const Layer &l = problem.layer;
    NaiveSteps steps;
    std::set<InputElement> onChip; // M_inp after each step
    std::set<OutputElement> previousOut; // next-step policy: Out_{i-1}
    std::vector<OutputElement> pending; // late policy: on chip, oldest first

    for (const Group &group : groups) {
        NaiveStep s;
        std::set<InputElement> needed; // U(g_i)
        for (PatchId patch : group) {
            const int i = int(patch) / l.wOut(), j = int(patch) % l.wOut();
            const std::set<InputElement> elements = patchElements(problem, i, j);
            needed.insert(elements.begin(), elements.end());
            for (int k = 0; k < l.n; ++k)
                s.compute.insert({k, i, j});
        }
        s.load_input = minus(needed, onChip);
        s.free_input = minus(onChip, needed);
        if (steps.empty())
            s.load_kernels = allKernels(l);
        if (problem.options.write_policy == WritePolicy::NextStep) {
            s.write = previousOut;
            previousOut = s.compute;
        } else {
            const std::int64_t kernelElements = std::int64_t(l.n) * kernelSizeOf(l);
            s.write = lateWrites(problem, pending, std::int64_t(needed.size()), kernelElements, s.compute);
            addPending(l, pending, s.compute);
        }
        onChip = needed;
        steps.push_back(std::move(s));
    }

    steps.push_back(drainStep(problem, onChip, allKernels(l), previousOut, pending));
    return steps;
}

NaiveSteps naiveExpandStepsSets(const Problem &problem, const ComputeSteps &plan)
{
    const Layer &l = problem.layer;
    const std::int64_t kernelSize = kernelSizeOf(l);
    NaiveSteps steps;
    std::set<InputElement> inputOnChip; // M_inp after each step
    std::set<KernelIndex> kernelsOnChip; // M_ker after each step
    std::set<OutputElement> previousOut; // next-step policy: Out_{i-1}
    std::vector<OutputElement> pending; // late policy: on chip, oldest first

    for (const ComputeStep &planned : plan) {
        NaiveStep s;
        std::set<InputElement> needed; // U_i
        const std::set<KernelIndex> kernels(planned.kernels.begin(), planned.kernels.end()); // K_i
        for (PatchId patch : planned.patches) {
            const int i = int(patch) / l.wOut(), j = int(patch) % l.wOut();
            for (KernelIndex k : kernels) {
                const std::set<InputElement> elements = patchElements(problem, i, j, k);
                needed.insert(elements.begin(), elements.end());
                s.compute.insert({k, i, j});
            }
        }
        s.free_input = minus(inputOnChip, needed);
        s.free_kernels = minus(kernelsOnChip, kernels);
        s.load_input = minus(needed, inputOnChip);
        s.load_kernels = minus(kernels, kernelsOnChip);
        if (problem.options.write_policy == WritePolicy::NextStep) {
            s.write = previousOut;
            previousOut = s.compute;
        } else {
            s.write
                = lateWrites(problem, pending, std::int64_t(needed.size()), std::int64_t(kernels.size()) * kernelSize, s.compute);
            addPending(l, pending, s.compute);
        }
        inputOnChip = needed;
        kernelsOnChip = kernels;
        steps.push_back(std::move(s));
    }

    steps.push_back(drainStep(problem, inputOnChip, kernelsOnChip, previousOut, pending));
    return steps;
}

StepList toStepList(const Layer &layer, const NaiveSteps &steps)
{
    auto pixels = [&](const std::set<InputElement> &elements) {
        std::set<PixelId> ids; // slice ids: pixel · g + the element's channel group
        for (const InputElement &e : elements)
            ids.insert((PixelId(e.row) * PixelId(layer.paddedWidth()) + PixelId(e.col)) * PixelId(layer.group)
                + PixelId(e.c / (layer.c_in / layer.group)));
        return std::vector<PixelId>(ids.begin(), ids.end());
    };
    auto kernels = [](const std::set<KernelIndex> &ks) { return std::vector<KernelId>(ks.begin(), ks.end()); };
    auto outputs = [&](const std::set<OutputElement> &os) {
        std::vector<OutputId> ids;
        for (const OutputElement &o : os)
            ids.push_back(naiveOutputId(layer, o));
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    StepList list;
    for (const NaiveStep &s : steps)
        list.push_back({pixels(s.free_input), kernels(s.free_kernels), outputs(s.write), pixels(s.load_input),
            kernels(s.load_kernels), outputs(s.compute)});
    return list;
}

StepList naiveExpandS1(const Problem &problem, const Groups &groups)
{
    return toStepList(problem.layer, naiveExpandS1Sets(problem, groups));
}

StepList naiveExpandSteps(const Problem &problem, const ComputeSteps &steps)
{
    return toStepList(problem.layer, naiveExpandStepsSets(problem, steps));
}

std::map<OutputElement, std::int64_t> naiveConvolution(const Layer &l, const TensorData &data)
{
    std::map<OutputElement, std::int64_t> out;
    for (int k = 0; k < l.n; ++k)
        for (int i = 0; i < l.hOut(); ++i)
            for (int j = 0; j < l.wOut(); ++j) {
                std::int64_t sum = 0;
                const int channels = l.c_in / l.group, first = kernelGroup(l, k) * channels;
                for (int c = 0; c < channels; ++c)
                    for (int h = 0; h < l.h_k; ++h)
                        for (int w = 0; w < l.w_k; ++w)
                            sum += paddedValue(
                                       l, data, {first + c, i * l.stride_h + h * l.dilation_h, j * l.stride_w + w * l.dilation_w})
                                * weight(l, data, k, c, h, w);
                out[{k, i, j}] = sum;
            }
    return out;
}

NaiveReport naiveExecute(const Problem &problem, const StepList &steps, const NaiveOptions &options)
{
    NaiveReport report;
    Machine machine(problem, options, report);
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const int step = int(k) + 1;
        machine.runStep(step, fromStep(problem, step, steps[k], report));
    }
    machine.finish(int(steps.size()));
    return report;
}

double NaiveReport::totalDuration() const
{
    double total = 0;
    for (const NaiveStepReport &s : steps)
        total += s.duration;
    return total;
}

std::int64_t NaiveReport::loadedInput() const
{
    std::int64_t total = 0;
    for (const NaiveStepReport &s : steps)
        total += s.loaded_input;
    return total;
}

std::int64_t NaiveReport::loadedKernels() const
{
    std::int64_t total = 0;
    for (const NaiveStepReport &s : steps)
        total += s.loaded_kernels;
    return total;
}

std::int64_t NaiveReport::written() const
{
    std::int64_t total = 0;
    for (const NaiveStepReport &s : steps)
        total += s.written;
    return total;
}

std::int64_t NaiveReport::peakFootprint() const
{
    std::int64_t peak = 0;
    for (const NaiveStepReport &s : steps)
        for (const NaiveFootprint &f : s.after)
            peak = std::max(peak, f.total());
    return peak;
}

} // namespace convoffload::naive
