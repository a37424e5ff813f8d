// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Options.h"

namespace convoffload {

std::string writePolicyName(WritePolicy policy) { return policy == WritePolicy::NextStep ? "next-step" : "as-late-as-possible"; }

std::optional<WritePolicy> writePolicyFromName(const std::string &name)
{
    for (const WritePolicy policy : {WritePolicy::NextStep, WritePolicy::AsLateAsPossible})
        if (writePolicyName(policy) == name)
            return policy;
    return std::nullopt;
}

} // namespace convoffload
