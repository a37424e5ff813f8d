#pragma once
// Whole-file helpers shared by the file formats.
#include <string>

namespace convoffload {

/// Whole-file helpers shared by the file formats. Errors are FormatError
/// with `where` = the path and the system's reason.
std::string readTextFile(const std::string &path);
/// Writes "<path>.tmp-XXXXXXXX" then renames it over `path`, so a failed save
/// never leaves a half-written file; the temporary file is removed on failure.
void writeTextFileAtomically(const std::string &path, const std::string &text);

} // namespace convoffload
