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

namespace {

/// The length of the UTF-8 sequence at `text[i]` when it is well formed
/// (no overlong form, no surrogate, at most U+10FFFF), else 0.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
    const unsigned lead = byte(i);
    const auto continuation
        = [&](std::size_t k, unsigned low = 0x80, unsigned high = 0xbf) { return byte(k) >= low && byte(k) <= high; };
    if (lead >= 0xc2 && lead <= 0xdf)
        return continuation(i + 1) ? 2 : 0;
    if (lead >= 0xe0 && lead <= 0xef) {
        const unsigned low = lead == 0xe0 ? 0xa0 : 0x80, high = lead == 0xed ? 0x9f : 0xbf;
        return continuation(i + 1, low, high) && continuation(i + 2) ? 3 : 0;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
        const unsigned low = lead == 0xf0 ? 0x90 : 0x80, high = lead == 0xf4 ? 0x8f : 0xbf;
        return continuation(i + 1, low, high) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
    }
    return 0;
}

void appendHex(std::string &out, const char *prefix, unsigned value, int digits)
{
    static const char hex[] = "0123456789abcdef";
    out += prefix;
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4)
        out += hex[(value >> shift) & 0xf];
}

} // namespace

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
            ++i;
            continue;
        }
        if (u >= 0x80) {
            const std::size_t length = utf8Length(text, i);
            if (length == 0) { // not UTF-8: binary, or another encoding
                appendHex(out, "\\x", u, 2);
                ++i;
                continue;
            }
            // U+0080..U+009F, the C1 controls (two bytes, C2 80..C2 9F):
            // terminals read U+009B as CSI, as ESC [.
            const unsigned second = static_cast<unsigned char>(text[i + 1]);
            if (length == 2 && u == 0xc2 && second <= 0x9f)
                appendHex(out, "\\u", second, 4);
            else
                out.append(text, i, length);
            i += length;
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
        default:
            appendHex(out, "\\x", u, 2);
        }
        ++i;
    }
    return out;
}

} // namespace convoffload
