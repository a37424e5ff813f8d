// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer + hardware + options: everything the simulator needs besides a strategy.
#include "convoffload/model/Hardware.h"
#include "convoffload/model/Layer.h"
#include "convoffload/model/Options.h"

#include <cstdint>

namespace convoffload {

struct Problem {
    Layer layer;
    Hardware hardware;
    Options options;

    /// The paper's nb_patches_max_S1 = floor(nbop_pe / (C_in·H_K·W_K·N)).
    std::int64_t nbPatchesMax() const;
    /// ceil(|X| / nb_patches_max), 0 when nb_patches_max is 0.
    std::int64_t kMin() const;
    std::int64_t kMax() const { return layer.patchCount(); }
    bool operator==(const Problem &) const = default;
};

} // namespace convoffload
