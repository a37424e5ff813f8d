// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// convoffload-cli is two programs (docs/user/install.md):
// the front, on QtCore and the core alone, starts in a few milliseconds and
// runs every command that draws nothing and reads no ONNX model; the others
// (export, sweep, experiments, import-onnx) it hands over, arguments and all,
// to convoffload-cli-full, which links the GUI's renderers and ONNX.

namespace convoffload::cli {

/// Replaces this process by the full program with the same arguments
/// (execv: the same pid, terminal, signals and exit status). Returns 1,
/// after one message on stderr, only when that program cannot be run.
int runFullProgram(int argc, char **argv);

} // namespace convoffload::cli
