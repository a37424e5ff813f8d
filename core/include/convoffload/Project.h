#pragma once
// The project file (SPEC §4): problem, data and strategies, loaded and saved
// as JSON. Every error names its key path and reason.

#include "convoffload/Functional.h"
#include "convoffload/Layer.h"
#include "convoffload/S1Strategy.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace convoffload {

struct DataSpec {
    std::uint64_t seed = 1;
    std::string file; // optional JSON with "input" and "kernels", relative to the project
    bool operator==(const DataSpec &) const = default;
};

struct Project {
    Problem problem;
    DataSpec data;
    std::vector<StrategySpec> strategies;

    const StrategySpec *findStrategy(const std::string &name) const;
    bool operator==(const Project &) const = default;
};

/// A load failure: `where` is a key path ("layer.h_k"), "line 3" or a file.
struct FormatError : std::runtime_error {
    FormatError(std::string where, const std::string &reason);
    std::string where;
    std::string reason;
};

/// Parses project JSON text; throws FormatError.
Project projectFromJson(const std::string &text);
std::string projectToJson(const Project &project);

/// File versions; errors also name the file. saveProject writes atomically
/// (temporary file then rename).
Project loadProject(const std::string &path);
void saveProject(const Project &project, const std::string &path);

/// Tensors of data.file (path resolved against the project's folder), checked
/// against the layer's shape; throws FormatError.
TensorData loadTensorData(const Layer &layer, const std::string &path);
/// The same from JSON text: {"input": [c_in][h_in][w_in], "kernels":
/// [n][c_in][h_k][w_k]}, int32 values; `where` is the key path ("input[1][3]").
TensorData tensorDataFromJson(const Layer &layer, const std::string &text);
/// Where data.file lives: relative paths are resolved against the folder of
/// the project file. Empty when the project has no data file.
std::string resolveDataFile(const std::string &projectPath, const DataSpec &data);

/// Whole-file helpers shared by the file formats. Errors are FormatError
/// with `where` = the path and the system's reason.
std::string readTextFile(const std::string &path);
/// Writes "<path>.tmp-XXXXXXXX" then renames it over `path`, so a failed save
/// never leaves a half-written file; the temporary file is removed on failure.
void writeTextFileAtomically(const std::string &path, const std::string &text);

} // namespace convoffload
