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
    std::string file;      // optional JSON with "input" and "kernels", relative to the project
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

} // namespace convoffload
