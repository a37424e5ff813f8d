// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "CsvRecordReader.h"

#include "convoffload/io/FormatError.h"

#include <new>
#include <utility>

namespace convoffload {

namespace {

std::string_view trim(std::string_view s)
{
    constexpr std::string_view blanks = " \t\r";
    const std::size_t first = s.find_first_not_of(blanks);
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

std::string lineName(std::int64_t number) { return "line " + std::to_string(number); }

} // namespace

CsvRecordReader::CsvRecordReader(std::size_t maxFields, std::string fieldsReason, RecordHandler onRecord)
    : m_maxFields(maxFields)
    , m_fieldsReason(std::move(fieldsReason))
    , m_onRecord(std::move(onRecord))
{
    if (csv_init(&m_parser, 0) != 0)
        throw std::bad_alloc();
}

CsvRecordReader::~CsvRecordReader() { csv_free(&m_parser); }

// libcsv is C: its callbacks only collect, and every check (which may throw)
// runs after csv_parse has returned.
void CsvRecordReader::onField(void *field, std::size_t size, void *self)
{
    auto &reader = *static_cast<CsvRecordReader *>(self);
    if (reader.m_current.fields.size() >= reader.m_maxFields) {
        reader.m_tooManyFields = true;
        return;
    }
    reader.m_current.fields.emplace_back(trim(std::string_view(static_cast<const char *>(field), size)));
}

void CsvRecordReader::onRecordEnd(int, void *self)
{
    auto &reader = *static_cast<CsvRecordReader *>(self);
    const std::int64_t number = reader.m_current.number;
    reader.m_ready.push_back(std::move(reader.m_current));
    reader.m_current = CsvLine{number, {}}; // a lone '\r' may end a record mid-line
}

void CsvRecordReader::line(std::string_view text, std::int64_t number)
{
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    if (number == 1 && text.substr(0, bom.size()) == bom)
        text.remove_prefix(bom.size());
    if (trim(text).empty())
        return;
    if (!m_separatorChosen) {
        csv_set_delim(&m_parser, text.find(';') != std::string_view::npos ? ';' : ',');
        m_separatorChosen = true;
    }
    m_current.number = number;
    if (csv_parse(&m_parser, text.data(), text.size(), onField, onRecordEnd, this) != text.size()
        || csv_parse(&m_parser, "\n", 1, onField, onRecordEnd, this) != 1) {
        if (csv_error(&m_parser) == CSV_ENOMEM)
            throw std::bad_alloc();
        throw FormatError(lineName(number), std::string("cannot read the line: ") + csv_strerror(csv_error(&m_parser)));
    }
    if (m_tooManyFields)
        throw FormatError(lineName(number), "more than " + std::to_string(m_maxFields) + " fields: " + m_fieldsReason);
    if (m_ready.empty())
        throw FormatError(lineName(number), "a quoted field is not closed on this line (a '\"' without its pair)");
    std::vector<CsvLine> ready = std::move(m_ready);
    m_ready.clear();
    for (const CsvLine &record : ready)
        m_onRecord(record);
}

} // namespace convoffload
