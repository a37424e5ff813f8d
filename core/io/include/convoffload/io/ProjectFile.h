// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The project file (docs/reference/project-file.md) and its tensor data file, loaded and saved as
// JSON; version 2 of the project file holds a network (docs/reference/network-file.md). Every error
// names its key path and reason.
#include "convoffload/io/FormatError.h"
#include "convoffload/model/Network.h"
#include "convoffload/model/Project.h"
#include "convoffload/model/TensorData.h"

#include <nlohmann/json.hpp>

#include <string>

namespace convoffload {

/// Parses project JSON text; throws FormatError.
Project projectFromJson(const std::string &text);
std::string projectToJson(const Project &project);
/// A layer's and a hardware's objects as the project file writes them (the
/// timeline's otherData too).
nlohmann::ordered_json layerToJsonValue(const Layer &layer);
nlohmann::ordered_json hardwareToJsonValue(const Hardware &hardware);

/// File versions; errors also name the file. saveProject writes atomically
/// (temporary file then rename).
Project loadProject(const std::string &path);
void saveProject(const Project &project, const std::string &path);

/// Network projects (format version 2): layers in graph order with one shared
/// hardware and options. Reading also accepts a version-1 project, as a
/// network of one layer (named "layer", or after the file by loadNetwork);
/// projectFromJson refuses version 2, saying it is a network.
Network networkFromJson(const std::string &text);
std::string networkToJson(const Network &network);
Network loadNetwork(const std::string &path);
/// True when `path` is a readable network project (format version 2), false
/// for anything else (a version-1 project, another file, an unreadable one):
/// lets File › Open send a network to the network view.
bool isNetworkProjectFile(const std::string &path);
void saveNetwork(const Network &network, const std::string &path);

/// A hardware description file (docs/reference/network-file.md#hardware-file `--hardware`): {"hardware": {...},
/// "options": {...}} (options optional), or any project file, whose hardware
/// and options are taken. Errors name the key path (and the file).
Accelerator acceleratorFromJson(const std::string &text);
Accelerator loadAccelerator(const std::string &path);

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
