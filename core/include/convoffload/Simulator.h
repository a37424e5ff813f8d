#pragma once
// Executes a list of steps action by action on the simulated on-chip memory:
// validity rules, durations, footprints, an optional action-level trace and an
// optional functional simulation on real values.

#include "convoffload/Diagnostic.h"
#include "convoffload/Functional.h"
#include "convoffload/Layer.h"
#include "convoffload/Step.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <optional>
#include <vector>

namespace convoffload {

/// On-chip occupancy in elements.
struct Footprint {
    std::int64_t input = 0, kernels = 0, output = 0;
    std::int64_t total() const { return input + kernels + output; }
    bool operator==(const Footprint &) const = default;
};

/// What one action did: the ids it touched and the footprint after it.
struct ActionRecord {
    Action action = Action::FreeInput;
    std::uint32_t begin = 0, end = 0; // range into Trace::ids
    Footprint after;
};

/// The action-level trace: 6 records per step, ids in one flat arena so the
/// cost stays linear in what the strategy touches.
struct Trace {
    std::vector<ActionRecord> actions;
    std::vector<std::uint32_t> ids;
    const ActionRecord &record(int stepIndex, Action a) const { return actions[std::size_t(stepIndex) * kActionCount + int(a)]; }
    std::vector<std::uint32_t> idsOf(int stepIndex, Action a) const;
};

struct StepStats {
    std::int64_t freedInput = 0; // elements
    std::int64_t freedKernels = 0; // elements
    std::int64_t written = 0; // elements (outputs)
    std::int64_t loadedInput = 0; // elements
    std::int64_t loadedKernels = 0; // elements
    std::int64_t computed = 0; // outputs
    std::int64_t peakFootprint = 0; // max over the step's actions
    Footprint after; // after the step's last action
    double loadDuration = 0, writeDuration = 0, computeDuration = 0;
    double duration() const { return loadDuration + writeDuration + computeDuration; }
    bool drain = false;
};

/// Thrown by simulate() when SimulationOptions::cancel is raised.
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") { }
};

struct SimulationOptions {
    bool trace = true;
    bool functional = true;
    std::uint64_t seed = 1; // for generated tensors
    const TensorData *data = nullptr; // explicit tensors instead of seeded ones
    int maxDiagnosticsPerRule = 50; // the rest are counted, not listed
    /// Long runs (big layers, sweeps) poll this every few hundred steps and
    /// throw Cancelled when it is set; another thread may set it.
    const std::atomic<bool> *cancel = nullptr;
    /// Called every few hundred steps with (steps done, steps in all).
    std::function<void(std::size_t, std::size_t)> progress;
};

enum class FunctionalStatus { Skipped, Pass, Fail };
std::string statusName(FunctionalStatus s);

struct FunctionalResult {
    FunctionalStatus status = FunctionalStatus::Skipped;
    std::string message; // first mismatch, named, when Fail
};

struct SimulationResult {
    std::vector<Diagnostic> diagnostics; // errors then warnings, each in step order
    std::int64_t suppressedDiagnostics = 0;
    std::int64_t errorCount = 0, warningCount = 0; // listed or not
    std::vector<StepStats> steps; // one per step, the drain included
    Trace trace; // empty unless requested
    FunctionalResult functional;
    std::vector<std::uint32_t> inputLoadCounts; // per pixel: times loaded

    bool valid() const;
    int computeSteps() const; // steps that compute (the paper's n)
    double totalDuration() const;
    std::int64_t loadedInput() const; // elements
    std::int64_t loadedKernels() const; // elements
    std::int64_t written() const; // elements
    std::int64_t peakFootprint() const;
    std::vector<const Diagnostic *> errors() const;
    std::vector<const Diagnostic *> warnings() const;
};

/// Throws std::invalid_argument when the problem itself is unsound
/// (Layer::problems / Hardware::problems non-empty).
SimulationResult simulate(const Problem &problem, const StepList &steps, const SimulationOptions &options = {});

} // namespace convoffload
