// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cuts a text that arrives in chunks (readFileInChunks) into lines numbered
// from 1, holding at most one line: what streamed readers (strategy CSV,
// solution files) need to stop at the first bad line with its number,
// whatever the size of the file.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace convoffload {

class LineSplitter {
public:
    /// `onLine` gets each line without its '\n' (a '\r' before it is kept)
    /// and its number. A line longer than `maxLineBytes` is a FormatError
    /// ("line N", "longer than ...") thrown as soon as it is seen, so a file
    /// without line breaks is never held whole.
    using LineHandler = std::function<void(std::string_view line, std::int64_t number)>;
    LineSplitter(std::size_t maxLineBytes, LineHandler onLine);

    void feed(std::string_view chunk);
    /// Hands over the last line when the text does not end with '\n'.
    void finish();

    /// Lines handed over or being read so far (the number of the current one).
    std::int64_t lineNumber() const { return m_number; }

private:
    void append(std::string_view part);

    std::size_t m_maxLineBytes;
    LineHandler m_onLine;
    std::string m_pending; // the current line, before its '\n' arrives
    std::int64_t m_number = 1;
};

} // namespace convoffload
