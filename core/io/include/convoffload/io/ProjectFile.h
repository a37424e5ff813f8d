#pragma once
// The project file (SPEC §4) and its tensor data file, loaded and saved as
// JSON. Every error names its key path and reason.
#include "convoffload/io/FormatError.h"
#include "convoffload/model/Project.h"
#include "convoffload/model/TensorData.h"

#include <string>

namespace convoffload {

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

} // namespace convoffload
