// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Stable identifiers of the validity rules, as files and messages show them.
#include "convoffload/model/Diagnostic.h"

namespace convoffload {

std::string ruleName(Rule r)
{
    switch (r) {
    case Rule::PatchNotOnChip:
        return "patch-not-on-chip";
    case Rule::KernelNotOnChip:
        return "kernel-not-on-chip";
    case Rule::ComputedTwice:
        return "computed-twice";
    case Rule::WriteNotComputed:
        return "write-not-computed";
    case Rule::WriteAlreadyWritten:
        return "write-already-written";
    case Rule::FreeNotPresent:
        return "free-not-present";
    case Rule::MemoryOverflow:
        return "memory-overflow";
    case Rule::TooManyOps:
        return "too-many-ops";
    case Rule::OutputNotWritten:
        return "output-not-written";
    case Rule::MemoryNotEmpty:
        return "memory-not-empty";
    case Rule::IdOutOfRange:
        return "id-out-of-range";
    case Rule::PaddingLoaded:
        return "padding-loaded";
    case Rule::DramOverflow:
        return "dram-overflow";
    case Rule::UselessLoad:
        return "useless-load";
    case Rule::ReloadBound:
        return "reload-bound";
    }
    return "?";
}

} // namespace convoffload
