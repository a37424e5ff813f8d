// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CSV records of a text that arrives line by line (LineSplitter), parsed
// with libcsv's incremental API: quotes, separators and blanks as libcsv reads
// them, one line held at a time, and every record handed over with the number
// of its line, so a reader can stop at the first bad one.
#include <csv.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace convoffload {

struct CsvLine {
    std::int64_t number = 0; // 1-based line of the text
    std::vector<std::string> fields; // trimmed, quotes removed
};

class CsvRecordReader {
public:
    using RecordHandler = std::function<void(const CsvLine &)>;
    /// A line with more than `maxFields` fields is refused (FormatError
    /// "line N") with `fieldsReason` saying why no line needs that many.
    CsvRecordReader(std::size_t maxFields, std::string fieldsReason, RecordHandler onRecord);
    ~CsvRecordReader();
    CsvRecordReader(const CsvRecordReader &) = delete;
    CsvRecordReader &operator=(const CsvRecordReader &) = delete;

    /// One line of the text, without its '\n'. Blank lines are skipped; a
    /// UTF-8 byte-order mark opening line 1 is ignored; the separator is ';'
    /// when the first non-blank line holds one, ',' otherwise. A quote left
    /// open at the end of a line is an error naming the line.
    void line(std::string_view text, std::int64_t number);

private:
    static void onField(void *field, std::size_t size, void *self);
    static void onRecordEnd(int terminator, void *self);

    csv_parser m_parser{};
    std::size_t m_maxFields;
    std::string m_fieldsReason;
    RecordHandler m_onRecord;
    bool m_separatorChosen = false;
    bool m_tooManyFields = false;
    CsvLine m_current;
    std::vector<CsvLine> m_ready; // records completed by the current line
};

} // namespace convoffload
