// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/FormatError.h"

#include <utility>

namespace convoffload {

FormatError::FormatError(std::string where_, const std::string &reason_)
    : std::runtime_error(where_.empty() ? reason_ : where_ + ": " + reason_)
    , where(std::move(where_))
    , reason(reason_)
{
}

} // namespace convoffload
