// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the two forms of a kernel-streaming strategy (docs/reference/strategies.md#steps-strategies).
// - Text starting with '{' is a project (docs/reference/project-file.md) whose `steps` and
//   `kernel-blocked` strategies are expanded and simulated when the layer is
//   small; a project that loads survives a save/load round trip.
// - Any other text is a `step,patch,kernel` CSV for the paper's Example
//   layer (9 patches, 2 kernels): accepted steps name patches and kernels in
//   range, each once per step, survive an export and re-import unchanged, and
//   are simulated with the functional check.
// Anything else a user could give must end in FormatError or StrategyError.
#include "FuzzTarget.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/StrategyCsv.h"
#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/StrategySimulation.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace convoffload;

namespace {

// Beyond this the target would measure the simulator's speed, not the
// readers' safety (as in FuzzProject.cpp).
constexpr std::int64_t kMaxSimulatedWork = 200000;

const char *const kPaperExample = R"({"format": "convoffload-project", "version": 1,
  "layer": {"c_in": 2, "h_in": 5, "w_in": 5, "h_k": 3, "w_k": 3, "n": 2},
  "hardware": {"mem_size": 80, "nbop_pe": 72}, "strategies": []})";

void simulateQuietly(const Problem &problem, const StrategySpec &spec)
{
    try {
        (void)simulateStrategy(problem, spec, SimulationOptions{});
    } catch (const StrategyError &) {
        // a strategy the layer refuses (a pair computed twice, a step over
        // the memory...): a result, not a finding
    }
}

std::int64_t pairsOf(const ComputeSteps &steps)
{
    std::int64_t pairs = 0;
    for (const ComputeStep &s : steps)
        pairs += std::int64_t(s.patches.size() * s.kernels.size());
    return pairs;
}

template <typename T> bool allDistinct(std::vector<T> ids)
{
    std::sort(ids.begin(), ids.end());
    return std::adjacent_find(ids.begin(), ids.end()) == ids.end();
}

void fuzzProject(const std::string &text)
{
    Project project;
    try {
        project = projectFromJson(text);
    } catch (const FormatError &) {
        return;
    }
    if (!(projectFromJson(projectToJson(project)) == project))
        std::abort();
    const Layer &l = project.problem.layer;
    const std::int64_t work = l.patchCount() * (l.kernelElements() + l.n) + l.outputCount() * l.kernelElements();
    if (work > kMaxSimulatedWork)
        return;
    for (const StrategySpec &spec : project.strategies)
        if (spec.kind == StrategyKind::Steps || spec.kind == StrategyKind::KernelBlocked)
            if (pairsOf(spec.steps) <= kMaxSimulatedWork)
                simulateQuietly(project.problem, spec);
}

void fuzzCsv(const std::string &text)
{
    static const Problem problem = projectFromJson(kPaperExample).problem;
    ComputeSteps steps;
    try {
        steps = computeStepsFromCsv(problem.layer, text);
    } catch (const FormatError &) {
        return;
    }
    for (const ComputeStep &s : steps) {
        if (s.patches.empty() || s.kernels.empty())
            std::abort(); // a step without work cannot come from rows
        for (PatchId p : s.patches)
            if (p >= PatchId(problem.layer.patchCount()))
                std::abort();
        for (KernelId k : s.kernels)
            if (k >= KernelId(problem.layer.n))
                std::abort();
        if (!allDistinct(s.patches) || !allDistinct(s.kernels))
            std::abort();
    }
    if (computeStepsFromCsv(problem.layer, computeStepsToCsv(steps)) != steps)
        std::abort();
    StrategySpec spec;
    spec.name = "fuzz";
    spec.kind = StrategyKind::Steps;
    spec.steps = steps;
    simulateQuietly(problem, spec);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    if (!text.empty() && text.front() == '{')
        fuzzProject(text);
    else
        fuzzCsv(text);
    return 0;
}
