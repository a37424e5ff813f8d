// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one entry point every fuzz target defines: libFuzzer calls it with each
// generated input, and the replay executable (ReplayMain.cpp) with each file
// of a corpus. A target returns normally for any input a user could give;
// a crash, a sanitizer report or an escaping exception is a finding.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);
