#include "convoffload/simulate/StrategySimulation.h"

#include "convoffload/model/KernelStreaming.h"
#include "convoffload/simulate/FusedS1.h"

namespace convoffload {

SimulationResult simulateStrategy(const Problem &problem, const StrategySpec &spec, const SimulationOptions &options)
{
    if (!options.trace && isS1Kind(spec.kind))
        if (std::optional<SimulationResult> fused = simulateS1Fused(problem, groupsOf(problem, spec), options))
            return std::move(*fused);
    return simulate(problem, expandStrategy(problem, spec), options);
}

} // namespace convoffload
