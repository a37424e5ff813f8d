// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/model/Project.h"

namespace convoffload {

const StrategySpec *Project::findStrategy(const std::string &name) const
{
    for (const StrategySpec &s : strategies)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace convoffload
