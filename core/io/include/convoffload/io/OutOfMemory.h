// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a std::bad_alloc becomes where it is caught (the CLI's commands, the
// headless report and --screenshot, the GUI's background jobs): one message
// saying what was being done and for which file, never a signal, never
// "std::bad_alloc" and never a guess at a cause (a layer that may not exist).
#include <exception>
#include <string>
#include <string_view>

namespace convoffload {

/// "out of memory while <doing> for <file> (this process may use 7.5 GB)":
/// `doing` as "simulating strategy 'ZigZag'", `file` as given (empty: no
/// "for"); the memory is availableMemoryBytes() (the machine's, or ulimit -v
/// when lower). Escaped for a terminal (printable): names come from files.
std::string outOfMemoryMessage(std::string_view doing, std::string_view file = {});

/// outOfMemoryMessage(doing, file) for a std::bad_alloc, else e.what().
std::string errorMessage(const std::exception &e, std::string_view doing, std::string_view file = {});

} // namespace convoffload
