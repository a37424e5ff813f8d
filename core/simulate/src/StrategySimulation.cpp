#include "convoffload/simulate/StrategySimulation.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/FusedSimulation.h"

namespace convoffload {

SimulationResult simulateStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options)
{
    if (!options.trace) {
        // Generated S1 groups: a patch order and G, no vector per group.
        if (const std::optional<PatchSequence> sequence = patchSequenceOf(problem, spec))
            if (std::optional<SimulationResult> fused = simulateS1Fused(problem, *sequence, options))
                return std::move(*fused);
        std::optional<SimulationResult> fused = isS1Kind(spec.kind)
            ? simulateS1Fused(problem, groupsOf(problem, spec), options)
            : simulateStepsFused(problem, computeStepsOf(problem, spec), options);
        if (fused)
            return std::move(*fused);
    }
    return simulate(problem, expandStrategy(problem, spec), options);
}

} // namespace convoffload
