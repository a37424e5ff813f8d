// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strategy CSV (docs/reference/strategy-csv.md#group-csv), the exchange format with ILP solvers.
// Import: `patch,group`, `row,col,group` or a 0/1 patch×group matrix, with or
// without a header, comma or semicolon separated. Export: `patch,row,col,group`.
// Kernel-streaming steps (docs/reference/strategy-csv.md#steps-csv): `step,patch,kernel` rows, import and export.

#include "convoffload/model/Problem.h"
#include "convoffload/io/FormatError.h"
#include "convoffload/model/S1Strategy.h"

#include <string>

namespace convoffload {

/// Throws FormatError naming the line ("line 4") and the reason.
Groups groupsFromCsv(const Layer &layer, const std::string &text);
std::string groupsToCsv(const Layer &layer, const Groups &groups);

/// File versions: errors are prefixed with the path ("plan.csv: line 4");
/// saving is atomic like saveProject.
Groups loadGroupsCsv(const Layer &layer, const std::string &path);
void saveGroupsCsv(const Layer &layer, const Groups &groups, const std::string &path);

/// `step,patch,kernel` rows, one per computed (patch, kernel) pair, with or
/// without a header, comma or semicolon separated. Steps follow ascending
/// step index (any integers); a step's patches and kernels keep the order in
/// which they first appear, and its rows must be exactly its patches × its
/// kernels. A pair in two steps, or in none, is left for the simulation to
/// report (computed twice, never computed), as in the project file. Throws
/// FormatError naming the line ("line 4") and the reason.
ComputeSteps computeStepsFromCsv(const Layer &layer, const std::string &text);
/// A `step,patch,kernel` header, then the pairs step by step (steps numbered
/// from 0), patch-major: the order import reads back.
std::string computeStepsToCsv(const ComputeSteps &steps);
ComputeSteps loadComputeStepsCsv(const Layer &layer, const std::string &path);
void saveComputeStepsCsv(const ComputeSteps &steps, const std::string &path);

} // namespace convoffload
