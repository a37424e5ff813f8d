// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Solutions of the section-5 ILP (IlpModel.h) solved by an external solver,
// read back as a strategy. Two shapes are accepted:
//  - CBC's solution file (`cbc model.lp solve solu FILE`): a status line
//    "Optimal - objective value 34.00000000", then "index name value reduced-cost";
//  - "name value" lines (Gurobi .sol, HiGHS solution files, hand-written),
//    '#' starting a comment.
// Only the x_p<patch>_g<group> values decide the groups; the model's other
// columns are recognised and ignored. For CSV strategies see StrategyCsv.h.
#include "convoffload/io/FormatError.h"
#include "convoffload/optimise/S1Instance.h"

#include <optional>
#include <string>

namespace convoffload {

struct ImportedSolution {
    std::string solver_status; // as the file says it ("Optimal", "Stopped on time"...); may be empty
    std::optional<double> objective; // as the file says it
    Groups groups; // in group order, empty groups dropped; not yet evaluated
};

/// Throws FormatError naming the line ("line 7", "unknown variable 'foo'"),
/// or with no line for what only the whole file shows ("patch 4 is in no
/// group"); a file reporting an infeasible model or no integer solution is an
/// error that says so.
ImportedSolution solutionFromText(const S1Instance &instance, const std::string &text);

/// The file version: errors start with the path ("out.txt: line 7: ...").
ImportedSolution loadSolution(const S1Instance &instance, const std::string &path);

} // namespace convoffload
