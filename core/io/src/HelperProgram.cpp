// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/HelperProgram.h"

#include <climits>
#include <cstdlib>
#include <filesystem>

#include <unistd.h>

namespace convoffload {

std::string helperProgramPath(
    const std::string &name, const char *environment, const std::string &fromBin, const std::string &buildPath)
{
    namespace fs = std::filesystem;
    if (const char *path = environment ? std::getenv(environment) : nullptr; path && *path)
        return path;
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        const fs::path dir = fs::path(std::string(self, std::size_t(n))).parent_path();
        for (const fs::path &candidate : {dir / name, dir / fromBin / name})
            if (access(candidate.c_str(), X_OK) == 0)
                return candidate.lexically_normal().string();
    }
    if (!buildPath.empty() && access(buildPath.c_str(), X_OK) == 0)
        return buildPath;
    return name;
}

} // namespace convoffload
