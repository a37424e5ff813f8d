// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one error every file format throws: where (key path, line, file) and why.
#include <stdexcept>
#include <string>

namespace convoffload {

/// A load failure: `where` is a key path ("layer.h_k"), "line 3" or a file.
struct FormatError : std::runtime_error {
    FormatError(std::string where, const std::string &reason);
    std::string where;
    std::string reason;
};

} // namespace convoffload
