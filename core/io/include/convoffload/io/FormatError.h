// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one error every file format throws: where (key path, line, file) and why.
#include <stdexcept>
#include <string>
#include <string_view>

namespace convoffload {

/// A load failure: `where` is a key path ("layer.h_k"), "line 3" or a file.
/// The message and `reason` show control characters escaped (printable): a
/// name or value read from a file may hold an ESC, a newline or a NUL, which
/// must neither drive the terminal nor cut the message short.
struct FormatError : std::runtime_error {
    FormatError(std::string where, const std::string &reason);
    std::string where; // as given (a path compares equal to itself)
    std::string reason;
};

/// `text` safe to print on a terminal: control characters written as \n,
/// \r, \t, \0 or \xHH (DEL too), the C1 controls (U+0080..U+009F, which
/// terminals may obey as ESC sequences) as \u0080..\u009f, and a byte that
/// is not part of well-formed UTF-8 (binary output, another encoding) as
/// \xHH; every other character, UTF-8 included, as it is. Applying it twice
/// changes nothing more.
std::string printable(std::string_view text);

} // namespace convoffload
