// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/simulate/StrategySimulation.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/FusedSimulation.h"
#include "convoffload/simulate/Simulator.h"

#include <algorithm>
#include <span>

namespace convoffload {

SimulationResult simulateStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options)
{
    if (!options.trace) {
        // Generated S1 groups: a patch order and G, no vector per group.
        if (const std::optional<PatchSequence> sequence = patchSequenceOf(problem, spec))
            if (std::optional<SimulationResult> fused = simulateS1Fused(problem, *sequence, options))
                return std::move(*fused);
        std::optional<SimulationResult> fused = isS1Kind(spec.kind) ? simulateS1Fused(problem, groupsOf(problem, spec), options)
            : spec.kind == StrategyKind::KernelBlocked
            ? simulateKernelBlockedFused(problem, kernelBlockedPartsOf(problem, spec), options)
            : simulateStepsFused(problem, computeStepsOf(problem, spec), options);
        if (fused)
            return std::move(*fused);
    }
    // A trace: the general executor, S1 steps executed as they are expanded
    // (the step list of a 4096² layer is as large as its trace; a repeated
    // output's first step is found in the trace).
    if (!options.trace)
        return simulate(problem, expandStrategy(problem, spec), options);
    if (const std::optional<PatchSequence> sequence = patchSequenceOf(problem, spec)) {
        const std::size_t g = std::size_t(sequence->group_size);
        S1Expander expander(problem, sequence->groupCount(), [&](std::size_t i) {
            return std::span<const PatchId>(sequence->order).subspan(i * g, std::min(g, sequence->order.size() - i * g));
        });
        return simulate(problem, expander, options);
    }
    if (isS1Kind(spec.kind)) {
        const Groups groups = groupsOf(problem, spec);
        S1Expander expander(problem, groups.size(), [&](std::size_t i) { return std::span<const PatchId>(groups[i]); });
        return simulate(problem, expander, options);
    }
    return simulate(problem, expandStrategy(problem, spec), options);
}

} // namespace convoffload
