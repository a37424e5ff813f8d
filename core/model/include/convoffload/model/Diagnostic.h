// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A located finding of the validity check: which rule, where (step, action),
// which element, and a sentence a user can act on.

#include "convoffload/model/Step.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace convoffload {

enum class Severity { Error, Warning };

enum class Rule {
    PatchNotOnChip, // compute needs its whole patch on chip
    KernelNotOnChip, // compute needs its kernel on chip
    ComputedTwice, // each output computed exactly once
    WriteNotComputed, // writes only of computed outputs...
    WriteAlreadyWritten, // ...that are not written yet
    FreeNotPresent, // frees only of what is present
    MemoryOverflow, // footprint <= mem_size after every action
    TooManyOps, // |Out|·C_in·H_K·W_K <= nbop_pe
    OutputNotWritten, // at the end every output written
    MemoryNotEmpty, // at the end the memory is empty
    IdOutOfRange, // an id that names no element
    PaddingLoaded, // padding synthesised on chip cannot be loaded
    DramOverflow, // the layer does not fit in DRAM
    UselessLoad, // warning: loads data already on chip
    ReloadBound // warning: loaded more than max_loads_per_element times
};
std::string ruleName(Rule r); // stable identifier, e.g. "memory-overflow"

/// What kind of element a diagnostic is about, so views can point at it.
enum class ElementKind { None, Pixel, Kernel, Output, Patch };

struct Diagnostic {
    Severity severity = Severity::Error;
    Rule rule = Rule::IdOutOfRange;
    int step = -1; // 1-based step number; 0 = the strategy as a whole
    Action action = Action::Compute;
    bool has_action = false;
    std::string element; // e.g. "pixel (3,0)"; empty when not about one element
    ElementKind element_kind = ElementKind::None;
    std::uint32_t element_id = 0; // pixel, kernel, output or patch id
    std::string message; // full sentence, located

    /// "step 3, a4 load input, pixel (3,0): ..." — the message is already that.
    const std::string &text() const { return message; }
};

} // namespace convoffload
