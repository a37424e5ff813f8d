// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/io/LineSplitter.h"

#include "convoffload/io/FormatError.h"

#include <utility>

namespace convoffload {

LineSplitter::LineSplitter(std::size_t maxLineBytes, LineHandler onLine)
    : m_maxLineBytes(maxLineBytes)
    , m_onLine(std::move(onLine))
{
}

void LineSplitter::append(std::string_view part)
{
    if (m_pending.size() + part.size() > m_maxLineBytes)
        throw FormatError("line " + std::to_string(m_number),
            "the line is longer than " + std::to_string(m_maxLineBytes)
                + " bytes, more than any line of this kind of file needs (is this the right file?)");
    m_pending.append(part);
}

void LineSplitter::feed(std::string_view chunk)
{
    while (!chunk.empty()) {
        const std::size_t end = chunk.find('\n');
        if (end == std::string_view::npos) {
            append(chunk);
            return;
        }
        // Whole lines inside the chunk go straight to the handler, uncopied.
        std::string_view line = chunk.substr(0, end);
        if (!m_pending.empty()) {
            append(line);
            line = m_pending;
        } else if (line.size() > m_maxLineBytes) {
            append(line); // throws
        }
        m_onLine(line, m_number);
        ++m_number;
        m_pending.clear();
        chunk.remove_prefix(end + 1);
    }
}

void LineSplitter::finish()
{
    if (m_pending.empty())
        return;
    m_onLine(m_pending, m_number);
    m_pending.clear();
}

} // namespace convoffload
