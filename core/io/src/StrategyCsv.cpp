// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Strategy CSV (docs/reference/strategy-csv.md#group-csv): groups of patches exchanged with ILP solvers.
//
// Files are streamed (readFileInChunks, LineSplitter, libcsv's incremental
// parser): the reading stops at the first bad line, and memory follows the
// layer, not the file (a line holds at most one field per patch, or 64).
//
// How an imported text is read, in order:
// - Lines are split on '\n', and a quoted field must close on its line. A
//   trailing '\r' (CRLF files), spaces and tabs around lines and fields, and
//   a leading UTF-8 byte-order mark are ignored.
//   Blank lines are skipped but still counted: "line N" is the N-th line of
//   the text, as an editor shows it.
// - The separator is ';' when the first non-blank line contains one, ','
//   otherwise. A field may be wrapped in double quotes, which are removed.
// - The first non-blank line is a header when any of its fields is not a
//   number (a line of numbers, 0.5 among them, is data: its wrong values are
//   named where they are).
// - The header decides the shape: `patch,group`, `row,col,group` or
//   `patch,row,col,group` (case-insensitive; `column` is accepted for `col`;
//   with four columns the patch id must agree with its row and column). Any
//   other header is a 0/1 matrix with one column per header field, unless it
//   uses one of the names patch/row/col/group: that is a typo to report, not a
//   matrix to guess.
// - Without a header the field count decides: 2 → patch,group; 3 →
//   row,col,group; any other count → a 0/1 matrix. Hence a 0/1 matrix with 2
//   or 3 groups needs a header (e.g. `g0,g1`): without one it would be read as
//   patch,group or row,col,group.
// - A 0/1 matrix has one line per patch (the k-th data line is patch k) and
//   one column per group; each line holds exactly one 1. Column k is group k;
//   a column of zeros (a group the solver left unused) gives no group.
// - Group indices are any integers; groups are ordered by ascending index, the
//   patches of a group by their order in the file. Empty groups cannot arise.
// - Every patch must appear exactly once.
// - A `step,patch,kernel` header belongs to the other CSV form, kernel
//   streaming steps (computeStepsFromCsv, read the same way line by line);
//   the groups import refuses it with a message saying so.

#include "convoffload/io/StrategyCsv.h"

#include "CsvRecordReader.h"
#include "convoffload/io/LineSplitter.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/model/Ids.h"

#include <algorithm>
#include <regex>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace convoffload {

namespace {

const std::string kEndOfFile = "end of file";

std::string lineName(const CsvLine &line) { return "line " + std::to_string(line.number); }

/// A decimal integer with an optional sign; nullopt for anything else,
/// including values that do not fit 64 bits.
std::optional<std::int64_t> toInteger(std::string_view s)
{
    if (s.size() > 1 && s.front() == '+' && std::isdigit(static_cast<unsigned char>(s[1])))
        s.remove_prefix(1);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || error != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return value;
}

bool isSignedDigits(std::string_view s)
{
    if (!s.empty() && (s.front() == '+' || s.front() == '-'))
        s.remove_prefix(1);
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::int64_t integerField(const CsvLine &line, std::size_t index)
{
    const std::string &field = line.fields[index];
    if (const auto value = toInteger(field))
        return *value;
    const std::string name = "field " + std::to_string(index + 1);
    if (isSignedDigits(field)) // digits that overflow 64 bits: say so rather than "not an integer"
        throw FormatError(lineName(line), name + " is too large: '" + field + "'");
    throw FormatError(lineName(line), name + " is not an integer: '" + field + "'");
}

// ---------------------------------------------------------------- layout

enum class Shape { PatchGroup, RowColGroup, PatchRowColGroup, Matrix };

struct Layout {
    Shape shape = Shape::Matrix;
    std::size_t columns = 0;
    bool header = false;
};

std::string lowerCase(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s == "column" ? std::string("col") : s;
}

std::string joined(const std::vector<std::string> &fields)
{
    std::string s;
    for (const std::string &f : fields)
        s += (s.empty() ? "" : ",") + f;
    return s;
}

Layout headerLayout(const CsvLine &header)
{
    std::vector<std::string> names;
    for (const std::string &f : header.fields)
        names.push_back(lowerCase(f));
    using Names = std::vector<std::string>;
    const std::size_t columns = names.size();
    if (names == Names{"patch", "group"})
        return {Shape::PatchGroup, columns, true};
    if (names == Names{"row", "col", "group"})
        return {Shape::RowColGroup, columns, true};
    if (names == Names{"patch", "row", "col", "group"})
        return {Shape::PatchRowColGroup, columns, true};
    if (names == Names{"step", "patch", "kernel"})
        throw FormatError(lineName(header),
            "this is a step,patch,kernel file, a strategy that streams kernels: import it as steps, not as groups");
    const auto keyword = [](const std::string &n) { return n == "patch" || n == "row" || n == "col" || n == "group"; };
    if (std::any_of(names.begin(), names.end(), keyword))
        throw FormatError(lineName(header),
            "unrecognised header '" + joined(header.fields)
                + "': expected patch,group or row,col,group or patch,row,col,group, "
                  "or one name per group for a 0/1 matrix");
    return {Shape::Matrix, columns, true};
}

/// A field that reads as a number, integer or not (0.5, 1e3, -7, 23 digits):
/// a line of such fields is data whose wrong values are named, not a header.
bool looksNumeric(const std::string &f)
{
    static const std::regex number(R"([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)");
    return std::regex_match(f, number);
}

Layout layoutOf(const CsvLine &first)
{
    const auto notNumber = [](const std::string &f) { return !looksNumeric(f); };
    if (std::any_of(first.fields.begin(), first.fields.end(), notNumber))
        return headerLayout(first);
    const std::size_t columns = first.fields.size();
    const Shape shape = columns == 2 ? Shape::PatchGroup : columns == 3 ? Shape::RowColGroup : Shape::Matrix;
    return {shape, columns, false};
}

// ---------------------------------------------------------------- records

/// Patch → group assignments in file order, each patch at most once.
class GroupCollector {
public:
    explicit GroupCollector(std::int64_t patches)
        : m_firstLine(std::size_t(std::max<std::int64_t>(patches, 0)), 0)
    {
    }

    std::int64_t patchCount() const { return std::int64_t(m_firstLine.size()); }

    /// `patch` must be in range.
    void add(const CsvLine &line, PatchId patch, std::int64_t group)
    {
        int &first = m_firstLine[patch];
        if (first != 0)
            throw FormatError(lineName(line),
                "patch " + std::to_string(patch) + " appears again (first on line " + std::to_string(first) + ")");
        first = int(line.number); // a file under the size cap has fewer than 2^31 lines
        m_groups[group].push_back(patch);
    }

    Groups finish() const
    {
        std::vector<PatchId> missing;
        for (std::size_t p = 0; p < m_firstLine.size(); ++p)
            if (m_firstLine[p] == 0)
                missing.push_back(PatchId(p));
        if (!missing.empty())
            throw FormatError(kEndOfFile,
                "patch " + std::to_string(missing.front()) + " is missing (every patch must appear once; " + listOf(missing)
                    + ")");
        Groups groups;
        for (const auto &[index, group] : m_groups)
            groups.push_back(group);
        return groups;
    }

private:
    static std::string listOf(const std::vector<PatchId> &missing)
    {
        constexpr std::size_t shown = 10;
        std::string s = std::to_string(missing.size()) + " missing:";
        for (std::size_t i = 0; i < std::min(shown, missing.size()); ++i)
            s += (i ? ", " : " ") + std::to_string(missing[i]);
        return s + (missing.size() > shown ? ", ..." : "");
    }

    std::vector<int> m_firstLine; // per patch: line where it appeared, 0 = not yet
    std::map<std::int64_t, Group> m_groups;
};

std::string outOfRange(std::string_view what, std::int64_t value, std::int64_t count, std::string_view unit)
{
    return std::string(what) + " " + std::to_string(value) + " is out of range (the " + (what == "patch" ? "layer" : "output")
        + " has " + std::to_string(count) + " " + std::string(unit) + ", ids 0.." + std::to_string(count - 1) + ")";
}

PatchId checkedPatch(const CsvLine &line, std::int64_t patch, std::int64_t patches)
{
    if (patch < 0 || patch >= patches)
        throw FormatError(lineName(line), outOfRange("patch", patch, patches, "patches"));
    return PatchId(patch);
}

PatchId patchAt(const Layer &layer, const CsvLine &line, std::int64_t row, std::int64_t col)
{
    if (row < 0 || row >= layer.hOut())
        throw FormatError(lineName(line), outOfRange("row", row, layer.hOut(), "rows"));
    if (col < 0 || col >= layer.wOut())
        throw FormatError(lineName(line), outOfRange("col", col, layer.wOut(), "columns"));
    return patchId(layer, int(row), int(col));
}

/// The group of a matrix line: the column of its single 1.
std::int64_t matrixGroup(const CsvLine &line, PatchId patch)
{
    std::optional<std::size_t> one;
    for (std::size_t c = 0; c < line.fields.size(); ++c) {
        const std::int64_t v = integerField(line, c);
        if (v != 0 && v != 1)
            throw FormatError(
                lineName(line), "value " + std::to_string(v) + " in column " + std::to_string(c + 1) + " must be 0 or 1");
        if (v == 1 && one)
            throw FormatError(lineName(line),
                "patch " + std::to_string(patch) + " has a 1 in columns " + std::to_string(*one + 1) + " and "
                    + std::to_string(c + 1) + ": a patch belongs to exactly one group");
        if (v == 1)
            one = c;
    }
    if (!one)
        throw FormatError(lineName(line), "patch " + std::to_string(patch) + " is in no group: the line has no 1");
    return std::int64_t(*one);
}

void readRecord(const Layer &layer, const Layout &layout, const CsvLine &line, std::size_t dataIndex, GroupCollector &collector)
{
    if (line.fields.size() != layout.columns)
        throw FormatError(lineName(line),
            "expected " + std::to_string(layout.columns) + " fields" + (layout.shape == Shape::Matrix ? " (one per group)" : "")
                + ", got " + std::to_string(line.fields.size()));
    const std::int64_t patches = collector.patchCount();
    switch (layout.shape) {
    case Shape::PatchGroup: {
        const PatchId patch = checkedPatch(line, integerField(line, 0), patches);
        collector.add(line, patch, integerField(line, 1));
        return;
    }
    case Shape::RowColGroup: {
        const PatchId patch = patchAt(layer, line, integerField(line, 0), integerField(line, 1));
        collector.add(line, patch, integerField(line, 2));
        return;
    }
    case Shape::PatchRowColGroup: {
        const PatchId patch = checkedPatch(line, integerField(line, 0), patches);
        const PatchId atPosition = patchAt(layer, line, integerField(line, 1), integerField(line, 2));
        if (patch != atPosition)
            throw FormatError(lineName(line),
                "patch " + std::to_string(patch) + " is not at row " + line.fields[1] + ", col " + line.fields[2]
                    + " (that position is patch " + std::to_string(atPosition) + ")");
        collector.add(line, patch, integerField(line, 3));
        return;
    }
    case Shape::Matrix: {
        if (std::int64_t(dataIndex) >= patches)
            throw FormatError(lineName(line),
                "one line too many: the layer has " + std::to_string(patches) + " patches, so the matrix has "
                    + std::to_string(patches) + " lines");
        const PatchId patch = PatchId(dataIndex);
        collector.add(line, patch, matrixGroup(line, patch));
        return;
    }
    }
}

// ---------------------------------------------------------------- steps

/// One step of a `step,patch,kernel` file as its rows arrive.
struct StepRows {
    int first_line = 0;
    ComputeStep step; // patches and kernels in order of first appearance
    std::map<std::pair<PatchId, KernelId>, int> pairs; // -> line
};

template <typename T> void addOnce(std::vector<T> &ids, T id)
{
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
        ids.push_back(id);
}

/// The rows of a step must be its patches × its kernels.
void checkProduct(std::int64_t index, const StepRows &rows)
{
    if (rows.pairs.size() == rows.step.patches.size() * rows.step.kernels.size())
        return;
    for (PatchId p : rows.step.patches)
        for (KernelId k : rows.step.kernels)
            if (!rows.pairs.count({p, k}))
                throw FormatError("line " + std::to_string(rows.first_line),
                    "step " + std::to_string(index) + " does not compute every one of its patches with every one of its kernels: "
                        + "patch " + std::to_string(p) + " with kernel " + std::to_string(k)
                        + " is missing (a step computes its patches × its kernels)");
}

/// The `step,patch,kernel` records as they arrive.
class StepsCsvReader {
public:
    explicit StepsCsvReader(const Layer &layer)
        : m_layer(layer)
    {
    }

    void record(const CsvLine &line)
    {
        if (!m_started) {
            m_started = true;
            const bool header
                = std::any_of(line.fields.begin(), line.fields.end(), [](const std::string &f) { return !toInteger(f); });
            if (header) {
                std::vector<std::string> names;
                for (const std::string &f : line.fields)
                    names.push_back(lowerCase(f));
                if (names != std::vector<std::string>{"step", "patch", "kernel"})
                    throw FormatError(
                        lineName(line), "unrecognised header '" + joined(line.fields) + "': expected step,patch,kernel");
                return;
            }
        }
        m_data = true;
        if (line.fields.size() != 3)
            throw FormatError(lineName(line), "expected 3 fields (step,patch,kernel), got " + std::to_string(line.fields.size()));
        const std::int64_t index = integerField(line, 0);
        const PatchId patch = checkedPatch(line, integerField(line, 1), m_layer.patchCount());
        const std::int64_t kernel = integerField(line, 2);
        if (kernel < 0 || kernel >= m_layer.n)
            throw FormatError(lineName(line),
                "kernel " + std::to_string(kernel) + " is out of range (the layer has " + std::to_string(m_layer.n)
                    + " kernels, ids 0.." + std::to_string(m_layer.n - 1) + ")");
        StepRows &rows = m_steps[index];
        if (rows.first_line == 0)
            rows.first_line = int(line.number);
        const auto [it, fresh] = rows.pairs.emplace(std::pair{patch, KernelId(kernel)}, int(line.number));
        if (!fresh)
            throw FormatError(lineName(line),
                "step " + std::to_string(index) + " names patch " + std::to_string(patch) + " with kernel "
                    + std::to_string(kernel) + " again (first on line " + std::to_string(it->second) + ")");
        addOnce(rows.step.patches, patch);
        addOnce(rows.step.kernels, KernelId(kernel));
    }

    ComputeSteps finish() const
    {
        if (!m_started)
            throw FormatError(kEndOfFile, "no data: expected step,patch,kernel rows");
        if (!m_data)
            throw FormatError(kEndOfFile, "no data after the header: expected step,patch,kernel rows");
        ComputeSteps result;
        for (const auto &[index, rows] : m_steps) {
            checkProduct(index, rows);
            result.push_back(rows.step);
        }
        return result;
    }

private:
    const Layer &m_layer;
    bool m_started = false;
    bool m_data = false;
    std::map<std::int64_t, StepRows> m_steps;
};

/// The groups records as they arrive: the first decides the layout.
class GroupsCsvReader {
public:
    explicit GroupsCsvReader(const Layer &layer)
        : m_layer(layer)
        , m_collector(layer.patchCount())
    {
    }

    void record(const CsvLine &line)
    {
        if (!m_layout) {
            m_layout = layoutOf(line);
            if (m_layout->header)
                return;
        }
        readRecord(m_layer, *m_layout, line, m_dataLines++, m_collector);
    }

    Groups finish() const
    {
        const std::string expected
            = "expected one line per patch (the layer has " + std::to_string(m_layer.patchCount()) + " patches)";
        if (!m_layout)
            throw FormatError(kEndOfFile, "no data: " + expected);
        if (m_dataLines == 0)
            throw FormatError(kEndOfFile, "no data after the header: " + expected);
        return m_collector.finish();
    }

private:
    const Layer &m_layer;
    std::optional<Layout> m_layout;
    std::size_t m_dataLines = 0;
    GroupCollector m_collector;
};

// Bounds that keep a streamed read's memory in proportion to the layer, not
// to the file: a line of a groups file has at most one field per patch (a
// 0/1 matrix has one column per group, and a plan has at most one group per
// patch); a steps line has three. A field needs at most a few dozen bytes.
constexpr std::size_t kMinFieldsPerLine = 64;
constexpr std::size_t kBytesPerField = 32;
constexpr std::size_t kLineSlackBytes = std::size_t(1) << 20;

std::size_t maxGroupFields(const Layer &layer)
{
    return std::max<std::size_t>(kMinFieldsPerLine, std::size_t(std::max<std::int64_t>(layer.patchCount(), 0)));
}

/// Runs `reader` (GroupsCsvReader or StepsCsvReader) over text fed by
/// `source`, which calls its argument with each chunk in order.
template <typename Reader, typename Source>
auto readCsv(Reader &reader, std::size_t maxFields, const std::string &why, Source source)
{
    CsvRecordReader records(maxFields, why, [&reader](const CsvLine &line) { reader.record(line); });
    LineSplitter lines(kLineSlackBytes + kBytesPerField * maxFields,
        [&records](std::string_view line, std::int64_t number) { records.line(line, number); });
    source([&lines](std::string_view chunk) { lines.feed(chunk); });
    lines.finish();
    return reader.finish();
}

const std::string kWhyGroupFields = "a line has at most one field per patch of the layer (a 0/1 matrix one column per group)";
const std::string kWhyStepFields = "a line holds step,patch,kernel";

ComputeSteps readSteps(const Layer &layer, const std::function<void(const std::function<void(std::string_view)> &)> &source)
{
    StepsCsvReader reader(layer);
    return readCsv(reader, kMinFieldsPerLine, kWhyStepFields, source);
}

Groups readGroups(const Layer &layer, const std::function<void(const std::function<void(std::string_view)> &)> &source)
{
    GroupsCsvReader reader(layer);
    return readCsv(reader, maxGroupFields(layer), kWhyGroupFields, source);
}

/// A reader's error prefixed with the file ("plan.csv: line 4"); the file
/// reader's own errors already name it.
FormatError locatedInFile(const std::string &path, const FormatError &e)
{
    return e.where == path ? e : FormatError(path + ": " + e.where, e.reason);
}

} // namespace

ComputeSteps computeStepsFromCsv(const Layer &layer, const std::string &text)
{
    return readSteps(layer, [&text](const std::function<void(std::string_view)> &feed) { feed(text); });
}

std::string computeStepsToCsv(const ComputeSteps &steps)
{
    std::string out = "step,patch,kernel\n";
    for (std::size_t s = 0; s < steps.size(); ++s)
        for (const PatchId patch : steps[s].patches)
            for (const KernelId kernel : steps[s].kernels)
                out += std::to_string(s) + ',' + std::to_string(patch) + ',' + std::to_string(kernel) + '\n';
    return out;
}

ComputeSteps loadComputeStepsCsv(const Layer &layer, const std::string &path)
{
    try {
        return readSteps(layer,
            [&path](const std::function<void(std::string_view)> &feed) { readFileInChunks(path, kMaxStrategyCsvBytes, feed); });
    } catch (const FormatError &e) {
        throw locatedInFile(path, e);
    }
}

void saveComputeStepsCsv(const ComputeSteps &steps, const std::string &path)
{
    writeTextFileAtomically(path, computeStepsToCsv(steps));
}

Groups groupsFromCsv(const Layer &layer, const std::string &text)
{
    return readGroups(layer, [&text](const std::function<void(std::string_view)> &feed) { feed(text); });
}

std::string groupsToCsv(const Layer &layer, const Groups &groups)
{
    std::string out = "patch,row,col,group\n";
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (const PatchId patch : groups[g]) {
            const Grid at = patchPosition(layer, patch);
            out += std::to_string(patch) + ',' + std::to_string(at.row) + ',' + std::to_string(at.col) + ',' + std::to_string(g)
                + '\n';
        }
    return out;
}

Groups loadGroupsCsv(const Layer &layer, const std::string &path)
{
    try {
        return readGroups(layer,
            [&path](const std::function<void(std::string_view)> &feed) { readFileInChunks(path, kMaxStrategyCsvBytes, feed); });
    } catch (const FormatError &e) {
        throw locatedInFile(path, e);
    }
}

void saveGroupsCsv(const Layer &layer, const Groups &groups, const std::string &path)
{
    writeTextFileAtomically(path, groupsToCsv(layer, groups));
}

} // namespace convoffload
