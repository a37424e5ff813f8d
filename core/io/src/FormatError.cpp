// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/FormatError.h"

#include <utility>

namespace convoffload {

FormatError::FormatError(std::string where_, const std::string &reason_)
    : std::runtime_error(where_.empty() ? printable(reason_) : printable(where_) + ": " + printable(reason_))
    , where(std::move(where_))
    , reason(printable(reason_))
{
}

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            out += c;
            continue;
        }
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\0':
            out += "\\0";
            break;
        default: {
            static const char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 0xf];
        }
        }
    }
    return out;
}

} // namespace convoffload
