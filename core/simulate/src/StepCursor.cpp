// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/StepCursor.h"

#include <algorithm>
#include <stdexcept>

namespace convoffload {

namespace {

enum Mark : std::uint8_t { None = 0, MarkLoaded = 1, MarkFreed = 2, MarkComputed = 1, MarkWritten = 2 };

int position(Moment m) { return m.step * kActionCount + int(m.action); }

} // namespace

StepCursor::StepCursor(const Problem &problem, const SimulationResult &result, std::size_t checkpointBudget)
    : m_problem(&problem)
    , m_result(&result)
    , m_group(std::max(problem.layer.group, 1))
    , m_input(std::size_t(problem.layer.sliceCount()), 0)
    , m_output(std::size_t(problem.layer.outputCount()), 0)
    , m_loads(std::size_t(problem.layer.sliceCount()), 0)
    , m_slicesOn(m_group > 1 ? std::size_t(problem.layer.pixelCount()) : 0, 0)
    , m_pixelMark(m_input.size(), None)
    , m_outputMark(m_output.size(), None)
    , m_kernels(std::size_t(std::max(problem.layer.n, 0)), 0)
    , m_kernelMark(m_kernels.size(), None)
{
    if (result.trace.actions.size() != result.steps.size() * kActionCount)
        throw std::invalid_argument("StepCursor needs a simulation run with its action trace");
    // Worst case per checkpoint: 32-bit load counts.
    const std::size_t stateBytes = m_input.size() * 5 + m_output.size();
    const int checkpoints = int(std::min<std::size_t>(kMaxCheckpoints, checkpointBudget / std::max<std::size_t>(stateBytes, 1)));
    if (checkpoints > 0 && stepCount() > 2 * checkpoints)
        m_checkpointEvery = stepCount() / checkpoints + 1; // at most `checkpoints` multiples
    if (!result.steps.empty())
        seek({0, Action::Compute});
}

void StepCursor::seek(Moment target)
{
    if (m_result->steps.empty())
        return;
    target.step = std::clamp(target.step, 0, stepCount() - 1);
    const int from = m_moment.step < 0 ? -1 : position(m_moment);
    const int to = position(target);
    if (to < from) {
        // Back to the last checkpoint before the target step (or the start).
        int checkpoint = -1;
        for (const auto &[step, state] : m_checkpoints)
            if (step < target.step)
                checkpoint = std::max(checkpoint, step);
        resetTo(checkpoint);
    }
    int pos = m_moment.step < 0 ? -1 : position(m_moment);
    while (pos < to) {
        const int step = (pos + 1) / kActionCount;
        const int last = std::min(kActionCount - 1, to - step * kActionCount);
        applyStep(step, last);
        pos = step * kActionCount + last;
        if (last == kActionCount - 1 && m_checkpointEvery > 0 && (step + 1) % m_checkpointEvery == 0
            && std::none_of(m_checkpoints.begin(), m_checkpoints.end(), [&](const auto &c) { return c.first == step; }))
            m_checkpoints.push_back({step, snapshot()});
    }
    m_moment = target;
    clearMarks();
    markStep(target.step, int(target.action));
}

void StepCursor::resetTo(int checkpointStep)
{
    if (checkpointStep < 0) {
        std::fill(m_input.begin(), m_input.end(), 0);
        std::fill(m_output.begin(), m_output.end(), 0);
        std::fill(m_loads.begin(), m_loads.end(), 0);
        std::fill(m_slicesOn.begin(), m_slicesOn.end(), 0);
        std::fill(m_kernels.begin(), m_kernels.end(), 0);
        m_moment = {-1, Action::Compute};
        return;
    }
    for (const auto &[step, state] : m_checkpoints)
        if (step == checkpointStep) {
            m_input = state.input;
            m_output = state.output;
            if (state.loads32.empty())
                std::copy(state.loads8.begin(), state.loads8.end(), m_loads.begin());
            else
                m_loads = state.loads32;
            m_kernels = state.kernels;
            countSlicesOnChip();
            m_moment = {step, Action::Compute};
            return;
        }
}

StepCursor::State StepCursor::snapshot() const
{
    State s{m_input, m_output, {}, {}, m_kernels};
    if (maxLoadsSoFar() <= 0xFF)
        s.loads8.assign(m_loads.begin(), m_loads.end()); // each fits in a byte
    else
        s.loads32 = m_loads;
    return s;
}

std::size_t StepCursor::checkpointBytes() const
{
    std::size_t bytes = 0;
    for (const auto &c : m_checkpoints)
        bytes += c.second.bytes();
    return bytes;
}

std::size_t StepCursor::memoryBytes() const
{
    return checkpointBytes() + m_input.size() + m_output.size() + (m_loads.size() + m_slicesOn.size()) * sizeof(std::uint32_t)
        + m_pixelMark.size() + m_outputMark.size() + m_kernels.size() + m_kernelMark.size()
        + (m_markedPixels.capacity() + m_markedOutputs.capacity() + m_markedKernels.capacity()) * sizeof(std::uint32_t);
}

// Replays what the executor did, from its trace: ids it named, in order.
// Loads of padding that is synthesised on chip were refused by the executor,
// so they are refused here too.
void StepCursor::applyStep(int step, int lastAction)
{
    const Layer &layer = m_problem->layer;
    const bool paddingInDram = m_problem->options.padding_in_dram;
    const int first = m_moment.step == step ? int(m_moment.action) + 1 : 0;
    for (int a = first; a <= lastAction; ++a) {
        const ActionRecord &r = m_result->trace.record(step, Action(a));
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
            const std::uint32_t id = m_result->trace.ids[i];
            switch (Action(a)) {
            case Action::FreeInput:
                if (m_input[id] && !m_slicesOn.empty())
                    --m_slicesOn[pixelOfSlice(layer, id)];
                m_input[id] = 0;
                break;
            case Action::Write:
                if (m_output[id] == 1)
                    m_output[id] = 2;
                break;
            case Action::LoadInput: {
                const Grid g = pixelPosition(layer, pixelOfSlice(layer, id));
                if (!paddingInDram && layer.isPadding(g.row, g.col))
                    break;
                ++m_loads[id];
                if (!m_input[id] && !m_slicesOn.empty())
                    ++m_slicesOn[pixelOfSlice(layer, id)];
                m_input[id] = 1;
                break;
            }
            case Action::Compute:
                m_output[id] = 1;
                break;
            case Action::FreeKernels:
                m_kernels[id] = 0;
                break;
            case Action::LoadKernels:
                m_kernels[id] = 1;
                break;
            }
        }
    }
    m_moment = {step, Action(lastAction)};
}

void StepCursor::markStep(int step, int lastAction)
{
    for (int a = 0; a <= lastAction; ++a) {
        const ActionRecord &r = m_result->trace.record(step, Action(a));
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
            const std::uint32_t id = m_result->trace.ids[i];
            switch (Action(a)) {
            case Action::FreeInput:
                m_pixelMark[id] = MarkFreed;
                m_markedPixels.push_back(id);
                break;
            case Action::LoadInput:
                m_pixelMark[id] = MarkLoaded;
                m_markedPixels.push_back(id);
                break;
            case Action::Write:
                m_outputMark[id] = MarkWritten;
                m_markedOutputs.push_back(id);
                break;
            case Action::Compute:
                m_outputMark[id] = MarkComputed;
                m_markedOutputs.push_back(id);
                break;
            case Action::FreeKernels:
                m_kernelMark[id] = MarkFreed;
                m_markedKernels.push_back(id);
                break;
            case Action::LoadKernels:
                m_kernelMark[id] = MarkLoaded;
                m_markedKernels.push_back(id);
                break;
            }
        }
    }
}

void StepCursor::clearMarks()
{
    for (SliceId s : m_markedPixels)
        m_pixelMark[s] = None;
    for (OutputId o : m_markedOutputs)
        m_outputMark[o] = None;
    for (KernelId k : m_markedKernels)
        m_kernelMark[k] = None;
    m_markedPixels.clear();
    m_markedOutputs.clear();
    m_markedKernels.clear();
}

PixelState StepCursor::slice(SliceId s) const
{
    const bool onChip = m_input[s] != 0;
    if (m_pixelMark[s] == MarkLoaded && onChip)
        return PixelState::Loaded;
    if (m_pixelMark[s] == MarkFreed && !onChip)
        return PixelState::Freed;
    return onChip ? PixelState::Kept : PixelState::Off;
}

PixelState StepCursor::pixel(PixelId p) const
{
    const SliceId first = SliceId(p) * SliceId(m_group);
    if (m_group == 1)
        return slice(first);
    bool freed = false, onChip = false;
    for (SliceId s = first; s < first + SliceId(m_group); ++s) {
        const PixelState state = slice(s);
        if (state == PixelState::Loaded)
            return state; // the step's news first, as with one slice
        freed = freed || state == PixelState::Freed;
        onChip = onChip || state == PixelState::Kept;
    }
    if (onChip)
        return PixelState::Kept;
    return freed ? PixelState::Freed : PixelState::Off;
}

int StepCursor::slicesOnChip(PixelId p) const { return m_slicesOn.empty() ? int(m_input[p]) : int(m_slicesOn[p]); }

void StepCursor::countSlicesOnChip()
{
    if (m_slicesOn.empty())
        return;
    // Checkpoints hold the slices only: the counts are derived, in one pass.
    for (std::size_t p = 0; p < m_slicesOn.size(); ++p)
        m_slicesOn[p] = std::uint32_t(std::count(
            m_input.begin() + std::ptrdiff_t(p * m_group), m_input.begin() + std::ptrdiff_t((p + 1) * m_group), std::uint8_t(1)));
}

std::vector<int> StepCursor::groupsOnChip(PixelId p) const
{
    std::vector<int> groups;
    const SliceId first = SliceId(p) * SliceId(m_group);
    for (int g = 0; g < m_group; ++g)
        if (m_input[first + SliceId(g)])
            groups.push_back(g);
    return groups;
}

std::uint32_t StepCursor::loadsSoFar(PixelId p) const
{
    const auto first = m_loads.begin() + std::ptrdiff_t(p) * m_group;
    return *std::max_element(first, first + m_group);
}

PixelState StepCursor::kernel(KernelId k) const
{
    const bool onChip = m_kernels[k] != 0;
    if (m_kernelMark[k] == MarkLoaded && onChip)
        return PixelState::Loaded;
    if (m_kernelMark[k] == MarkFreed && !onChip)
        return PixelState::Freed;
    return onChip ? PixelState::Kept : PixelState::Off;
}

OutputState StepCursor::output(OutputId o) const
{
    if (m_outputMark[o] == MarkWritten && m_output[o] == 2)
        return OutputState::Written;
    if (m_outputMark[o] == MarkComputed && m_output[o] == 1)
        return OutputState::Computed;
    switch (m_output[o]) {
    case 1:
        return OutputState::OnChip;
    case 2:
        return OutputState::Done;
    default:
        return OutputState::Pending;
    }
}

OutputState StepCursor::patch(PatchId p) const
{
    static constexpr auto rank = [](OutputState s) {
        switch (s) {
        case OutputState::Pending:
            return 0;
        case OutputState::Done:
            return 1;
        case OutputState::OnChip:
            return 2;
        case OutputState::Computed:
            return 3;
        case OutputState::Written:
            return 4;
        }
        return 0;
    };
    OutputState best = OutputState::Pending;
    for (int k = 0; k < m_problem->layer.n; ++k) {
        const OutputState s = output(outputId(m_problem->layer, p, KernelId(k)));
        if (rank(s) > rank(best))
            best = s;
    }
    return best;
}

std::uint32_t StepCursor::maxLoadsSoFar() const
{
    return m_loads.empty() ? 0 : *std::max_element(m_loads.begin(), m_loads.end());
}

Footprint StepCursor::footprint() const
{
    if (m_moment.step < 0)
        return {};
    return m_result->trace.record(m_moment.step, m_moment.action).after;
}

std::vector<PatchId> StepCursor::currentPatches() const
{
    std::vector<PatchId> patches;
    if (m_moment.step < 0)
        return patches;
    const ActionRecord &r = m_result->trace.record(m_moment.step, Action::Compute);
    for (std::uint32_t i = r.begin; i < r.end; ++i)
        patches.push_back(patchOfOutput(m_problem->layer, m_result->trace.ids[i]));
    std::sort(patches.begin(), patches.end());
    patches.erase(std::unique(patches.begin(), patches.end()), patches.end());
    return patches;
}

std::vector<KernelId> StepCursor::currentKernels() const
{
    std::vector<KernelId> kernels;
    if (m_moment.step < 0)
        return kernels;
    const ActionRecord &r = m_result->trace.record(m_moment.step, Action::Compute);
    for (std::uint32_t i = r.begin; i < r.end; ++i)
        kernels.push_back(kernelOfOutput(m_problem->layer, m_result->trace.ids[i]));
    std::sort(kernels.begin(), kernels.end());
    kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());
    return kernels;
}

std::vector<int> StepCursor::stepsLoading(PixelId p) const
{
    // The trace names slices; a pixel's are the ids p·g .. p·g + g − 1.
    const SliceId first = SliceId(p) * SliceId(m_group), last = first + SliceId(m_group);
    std::vector<int> steps;
    for (int s = 0; s < stepCount(); ++s) {
        const ActionRecord &r = m_result->trace.record(s, Action::LoadInput);
        const auto begin = m_result->trace.ids.begin() + r.begin, end = m_result->trace.ids.begin() + r.end;
        if (std::any_of(begin, end, [&](std::uint32_t id) { return id >= first && id < last; }))
            steps.push_back(s);
    }
    return steps;
}

} // namespace convoffload
