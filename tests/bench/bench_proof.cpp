// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// convoffload-bench-proof: the proof step of `--method exact` (the relaxed
// dynamic programming pruned by an incumbent, S1InstanceBoundProof.h) alone,
// on instances of the paper's grid (PaperExperiments.h), with a given
// incumbent, so that its speed is measured apart from the search.
//
// Per instance: the outcome (proven, bounded with the bound, or why it did
// not end), the states kept, the wall time and the process's CPU time.
//
// Usage: convoffload-bench-proof SIZE G INCUMBENT [SIZE G INCUMBENT ...]
//        [--time-limit S] [--states N] [--threads N] [--climb]
// --climb climbs from the pixel bound (BoundProofLimits::known_bound).
// Without instances: the eight unproven instances of at most 64 patches of
// docs/notebook/experiments/paper-grid-exact-60s.csv with their incumbents.
//
//        convoffload-bench-proof --load-once [SIZE G ...] [--nodes N]
// The complete load-once search (LoadOnceProof.h) instead: whether a strategy
// loads every pixel once, the groups tried and the time; without instances,
// every instance of the grid of at most 64 patches.

#include "convoffload/optimise/PaperExperiments.h"
#include "convoffload/optimise/S1Instance.h"
#include "convoffload/optimise/S1InstanceBoundProof.h"

#include "exact/LoadOnceProof.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

using namespace convoffload;

namespace {

struct Case {
    int size, group;
    double incumbent;
};

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

constexpr const char *kUsage = "usage: convoffload-bench-proof [SIZE G INCUMBENT ...] [--time-limit S] [--states N] "
                               "[--threads N] [--climb]\n"
                               "       convoffload-bench-proof --load-once [SIZE G ...] [--nodes N]\n";

/// `pairs`: SIZE G ...; none: the grid's instances of at most 64 patches.
int loadOnce(const std::vector<double> &pairs, const LoadOnceProofLimits &limits)
{
    std::vector<std::pair<int, int>> cases;
    for (std::size_t i = 0; i + 2 <= pairs.size(); i += 2)
        cases.push_back({int(pairs[i]), int(pairs[i + 1])});
    if (cases.empty())
        for (int size = 4; size <= 10; ++size)
            for (int g = 2; g <= 10; ++g)
                cases.push_back({size, g});
    std::printf("%-6s %3s  %-28s %12s %8s %10s\n", "H=W", "G", "answer", "steps", "wall s", "bound");
    for (const auto &[size, g] : cases) {
        const S1Instance in = makeS1Instance(paperInstance(size, g));
        const auto wall0 = std::chrono::steady_clock::now();
        const LoadOnceProof proof = proveLoadOnce(in, limits);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        const char *answer = proof.status == LoadOnceProofStatus::Exists ? "one loads every pixel once"
            : proof.status == LoadOnceProofStatus::None                  ? "none: the bound rises"
                                                                         : proof.why.c_str();
        std::printf("%2dx%-3d %3d  %-28s %12lld %8.2f %10.0f\n", size, size, g, answer, static_cast<long long>(proof.nodes), wall,
            proof.status == LoadOnceProofStatus::None ? boundWithoutLoadOnce(in) : lowerBound(in));
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    BoundProofLimits limits;
    std::vector<Case> cases;
    std::vector<double> numbers;
    bool climb = false;
    bool loadOnceMode = false;
    LoadOnceProofLimits loadOnceLimits;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--time-limit") && i + 1 < argc)
            limits.time_limit_s = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--states") && i + 1 < argc)
            limits.max_states = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--load-once"))
            loadOnceMode = true;
        else if (!std::strcmp(argv[i], "--climb"))
            climb = true;
        else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            limits.threads = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--nodes") && i + 1 < argc)
            loadOnceLimits.max_nodes = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (argv[i][0] == '-' || argv[i][0] == '\0') { // an unknown option would run the whole default table
            std::fprintf(stderr, "convoffload-bench-proof: unknown option or missing value: %s\n%s", argv[i], kUsage);
            return 1;
        } else
            numbers.push_back(std::atof(argv[i]));
    }
    if (loadOnceMode)
        return loadOnce(numbers, loadOnceLimits);
    for (std::size_t i = 0; i + 3 <= numbers.size(); i += 3)
        cases.push_back({int(numbers[i]), int(numbers[i + 1]), numbers[i + 2]});
    if (cases.empty())
        cases = {{8, 2, 100}, {9, 2, 133}, {9, 3, 110}, {9, 4, 97}, {10, 2, 170}, {10, 3, 141}, {10, 4, 126}, {10, 5, 115}};
    std::printf("%-6s %3s %9s  %-40s %12s %8s %8s\n", "H=W", "G", "incumbent", "outcome", "states", "wall s", "cpu s");
    for (const Case &c : cases) {
        const S1Instance in = makeS1Instance(paperInstance(c.size, c.group));
        if (climb)
            limits.known_bound = lowerBound(in);
        const double cpu0 = cpuSeconds();
        const auto wall0 = std::chrono::steady_clock::now();
        const BoundProof proof = proveByRelaxedBound(in, c.incumbent, limits);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        const double cpu = cpuSeconds() - cpu0;
        std::printf("%2dx%-3d %3d %9.0f  %-40s %12lld %8.2f %8.2f\n", c.size, c.size, c.group, c.incumbent, proof.text().c_str(),
            static_cast<long long>(proof.states), wall, cpu);
        std::fflush(stdout);
    }
    return 0;
}
