// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How big the section-5 ILP (IlpModel.h) of an instance will be, and the
// memory building it and writing it through CoinUtils takes, worked out from
// the instance's sizes before anything is allocated. CoinUtils does not check
// its allocations: a model beyond the memory ended in SIGSEGV inside it
// (LeNet-5 conv1 with G = 2 under a 4 GB address-space limit). The CLI's
// `model` and the ILP optimiser refuse such a model with these figures.
#include "convoffload/optimise/S1Instance.h"

#include <optional>
#include <string>

namespace convoffload {

struct IlpModelSize {
    double rows = 0;
    double columns = 0;
    double nonzeros = 0;
    /// Peak memory of building the model and writing it as LP or MPS (the
    /// model, CoinUtils' copies of it, and the names of rows and columns):
    /// an upper estimate, measured in docs/user/bad-input.md.
    double bytes = 0;
};

/// Counts from the instance's sizes alone (patches, needed pixels, the pixels
/// each patch holds, groups); doubles, so no size can overflow.
IlpModelSize estimateIlpModelSize(const S1Instance &instance);

/// Why the model is too big to build, in words ("the ILP would have about
/// 7.9 M rows, ... and need about 4.1 GB of memory (the limit is 3.0 GB)");
/// nullopt when it fits. `budgetBytes` 0 means 3/4 of availableMemoryBytes(),
/// the budget of simulations (WorkEstimate.h).
std::optional<std::string> ilpModelExceedsMemory(const IlpModelSize &size, double budgetBytes = 0);

} // namespace convoffload
