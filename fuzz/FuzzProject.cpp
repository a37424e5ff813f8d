// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the project loader (docs/reference/project-file.md), and the network loader (docs/reference/network-file.md,
// version 2, which also reads version 1). Any text either loads or throws
// FormatError; a project or network that loads must survive a save/load round trip, and
// small ones are expanded and simulated (with the functional check), so the
// loader cannot hand the simulator something it does not expect.
#include "FuzzTarget.h"

#include "convoffload/io/ProjectFile.h"
#include "convoffload/simulate/Simulator.h"

#include <cstdlib>
#include <string>

using namespace convoffload;

namespace {

// Simulation cost grows with patches × patch pixels × kernels; beyond this
// the target would measure the simulator's speed, not the loader's safety.
constexpr std::int64_t kMaxSimulatedWork = 200000;

void simulateSmall(const Project &project)
{
    const Layer &l = project.problem.layer;
    const std::int64_t work = l.patchCount() * (l.kernelElements() + l.n) + l.outputCount() * l.kernelElements();
    if (work > kMaxSimulatedWork)
        return;
    SimulationOptions options;
    options.seed = project.data.seed;
    for (const StrategySpec &spec : project.strategies) {
        try {
            (void)simulate(project.problem, expandS1(project.problem, groupsOf(project.problem, spec)), options);
        } catch (const StrategyError &) {
            // a strategy the layer cannot expand (group size 0...): a result
        }
    }
}

void roundTripNetwork(const std::string &text)
{
    Network network;
    try {
        network = networkFromJson(text);
    } catch (const FormatError &) {
        return;
    }
    if (!(networkFromJson(networkToJson(network)) == network))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    roundTripNetwork(text);
    Project project;
    try {
        project = projectFromJson(text);
    } catch (const FormatError &) {
        return 0;
    }
    // What we write, we read back as the same project.
    if (!(projectFromJson(projectToJson(project)) == project))
        std::abort();
    simulateSmall(project);
    return 0;
}
