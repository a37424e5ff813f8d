// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a helper program of ConvOffload is: the CBC and ONNX workers, and the
// CLI's full program (docs/user/install.md).
#include <string>

namespace convoffload {

/// The first of: the environment variable `environment` (when not null and
/// set to a non-empty path); `name` next to the running program (the build
/// tree); `name` in `fromBin`, relative to the running program's folder
/// (installed: bin/ → libexec/convoffload/); `buildPath` when it is
/// executable (test suites, which sit in folders of their own); else `name`
/// itself, for the PATH.
std::string helperProgramPath(
    const std::string &name, const char *environment, const std::string &fromBin, const std::string &buildPath = {});

} // namespace convoffload
