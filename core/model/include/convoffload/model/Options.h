// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Simulation options (docs/reference/project-file.md#options): kernel preloading, write policy, padding.
#include <optional>
#include <string>

namespace convoffload {

enum class WritePolicy {
    NextStep, // outputs of group i are written at step i+1 (the paper's Example)
    AsLateAsPossible // kept on chip until memory runs short, oldest written first
};

struct Options {
    bool kernels_preloaded = false; // kernel loads cost nothing (the paper's ILP)
    WritePolicy write_policy = WritePolicy::NextStep;
    bool padding_in_dram = true; // false: padding is synthesised on chip, never loaded
    bool operator==(const Options &) const = default;
};

std::string writePolicyName(WritePolicy policy); // "next-step", "as-late-as-possible"
std::optional<WritePolicy> writePolicyFromName(const std::string &name);

} // namespace convoffload
