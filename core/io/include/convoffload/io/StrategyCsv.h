#pragma once
// Strategy CSV (SPEC §5), the exchange format with ILP solvers.
// Import: `patch,group`, `row,col,group` or a 0/1 patch×group matrix, with or
// without a header, comma or semicolon separated. Export: `patch,row,col,group`.

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

} // namespace convoffload
