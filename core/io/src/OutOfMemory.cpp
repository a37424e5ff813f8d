// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/OutOfMemory.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/simulate/WorkEstimate.h"

#include <new>

namespace convoffload {

std::string outOfMemoryMessage(std::string_view doing, std::string_view file)
{
    std::string text = "out of memory while ";
    text += doing;
    if (!file.empty()) {
        text += " for ";
        text += file;
    }
    text += " (this process may use " + bytesText(availableMemoryBytes()) + ")";
    return printable(text);
}

std::string errorMessage(const std::exception &e, std::string_view doing, std::string_view file)
{
    if (dynamic_cast<const std::bad_alloc *>(&e))
        return outOfMemoryMessage(doing, file);
    return e.what();
}

} // namespace convoffload
