// Strategy CSV (SPEC §5): groups of patches exchanged with ILP solvers.
//
// How an imported text is read, in order:
// - Lines are split on '\n'. A trailing '\r' (CRLF files), spaces and tabs
//   around lines and fields, and a leading UTF-8 byte-order mark are ignored.
//   Blank lines are skipped but still counted: "line N" is the N-th line of
//   the text, as an editor shows it.
// - The separator is ';' when the first non-blank line contains one, ','
//   otherwise. A field may be wrapped in double quotes, which are removed.
// - The first non-blank line is a header when any of its fields is not an
//   integer.
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

#include "convoffload/io/TextFile.h"
#include "convoffload/model/Ids.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace convoffload {

namespace {

const std::string kEndOfFile = "end of file";

struct CsvLine {
    int number = 0; // 1-based line of the text
    std::vector<std::string> fields;
};

std::string lineName(const CsvLine &line) { return "line " + std::to_string(line.number); }

std::string_view trim(std::string_view s)
{
    constexpr std::string_view blanks = " \t\r";
    const std::size_t first = s.find_first_not_of(blanks);
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

std::string unquote(std::string_view field)
{
    field = trim(field);
    if (field.size() >= 2 && field.front() == '"' && field.back() == '"')
        field = trim(field.substr(1, field.size() - 2));
    return std::string(field);
}

std::vector<std::string> splitFields(std::string_view line, char separator)
{
    std::vector<std::string> fields;
    for (;;) {
        const std::size_t end = line.find(separator);
        fields.push_back(unquote(line.substr(0, end)));
        if (end == std::string_view::npos)
            return fields;
        line.remove_prefix(end + 1);
    }
}

/// The non-blank lines of the text, split into fields.
std::vector<CsvLine> readLines(std::string_view text)
{
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    if (text.substr(0, bom.size()) == bom)
        text.remove_prefix(bom.size());
    std::vector<CsvLine> lines;
    char separator = 0; // decided by the first non-blank line
    for (int number = 1; !text.empty(); ++number) {
        const std::size_t end = text.find('\n');
        const std::string_view line = trim(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.empty())
            continue;
        if (separator == 0)
            separator = line.find(';') != std::string_view::npos ? ';' : ',';
        lines.push_back({number, splitFields(line, separator)});
    }
    return lines;
}

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

Layout layoutOf(const CsvLine &first)
{
    const auto notInteger = [](const std::string &f) { return !toInteger(f); };
    if (std::any_of(first.fields.begin(), first.fields.end(), notInteger))
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
        first = line.number;
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

} // namespace

ComputeSteps computeStepsFromCsv(const Layer &layer, const std::string &text)
{
    const std::vector<CsvLine> lines = readLines(text);
    if (lines.empty())
        throw FormatError(kEndOfFile, "no data: expected step,patch,kernel rows");
    const CsvLine &first = lines.front();
    const bool header = std::any_of(first.fields.begin(), first.fields.end(), [](const std::string &f) { return !toInteger(f); });
    if (header) {
        std::vector<std::string> names;
        for (const std::string &f : first.fields)
            names.push_back(lowerCase(f));
        if (names != std::vector<std::string>{"step", "patch", "kernel"})
            throw FormatError(lineName(first), "unrecognised header '" + joined(first.fields) + "': expected step,patch,kernel");
    }
    const std::size_t firstData = header ? 1 : 0;
    if (lines.size() == firstData)
        throw FormatError(kEndOfFile, "no data after the header: expected step,patch,kernel rows");

    std::map<std::int64_t, StepRows> steps;
    for (std::size_t i = firstData; i < lines.size(); ++i) {
        const CsvLine &line = lines[i];
        if (line.fields.size() != 3)
            throw FormatError(lineName(line), "expected 3 fields (step,patch,kernel), got " + std::to_string(line.fields.size()));
        const std::int64_t index = integerField(line, 0);
        const PatchId patch = checkedPatch(line, integerField(line, 1), layer.patchCount());
        const std::int64_t kernel = integerField(line, 2);
        if (kernel < 0 || kernel >= layer.n)
            throw FormatError(lineName(line),
                "kernel " + std::to_string(kernel) + " is out of range (the layer has " + std::to_string(layer.n)
                    + " kernels, ids 0.." + std::to_string(layer.n - 1) + ")");
        StepRows &rows = steps[index];
        if (rows.first_line == 0)
            rows.first_line = line.number;
        const auto [it, fresh] = rows.pairs.emplace(std::pair{patch, KernelId(kernel)}, line.number);
        if (!fresh)
            throw FormatError(lineName(line),
                "step " + std::to_string(index) + " names patch " + std::to_string(patch) + " with kernel "
                    + std::to_string(kernel) + " again (first on line " + std::to_string(it->second) + ")");
        addOnce(rows.step.patches, patch);
        addOnce(rows.step.kernels, KernelId(kernel));
    }
    ComputeSteps result;
    for (const auto &[index, rows] : steps) {
        checkProduct(index, rows);
        result.push_back(rows.step);
    }
    return result;
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
    const std::string text = readTextFile(path);
    try {
        return computeStepsFromCsv(layer, text);
    } catch (const FormatError &e) {
        throw FormatError(path + ": " + e.where, e.reason);
    }
}

void saveComputeStepsCsv(const ComputeSteps &steps, const std::string &path)
{
    writeTextFileAtomically(path, computeStepsToCsv(steps));
}

Groups groupsFromCsv(const Layer &layer, const std::string &text)
{
    const std::vector<CsvLine> lines = readLines(text);
    const std::string expected = "expected one line per patch (the layer has " + std::to_string(layer.patchCount()) + " patches)";
    if (lines.empty())
        throw FormatError(kEndOfFile, "no data: " + expected);
    const Layout layout = layoutOf(lines.front());
    const std::size_t firstData = layout.header ? 1 : 0;
    if (lines.size() == firstData)
        throw FormatError(kEndOfFile, "no data after the header: " + expected);
    GroupCollector collector(layer.patchCount());
    for (std::size_t i = firstData; i < lines.size(); ++i)
        readRecord(layer, layout, lines[i], i - firstData, collector);
    return collector.finish();
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
    const std::string text = readTextFile(path, kMaxStrategyCsvBytes);
    try {
        return groupsFromCsv(layer, text);
    } catch (const FormatError &e) {
        throw FormatError(path + ": " + e.where, e.reason);
    }
}

void saveGroupsCsv(const Layer &layer, const Groups &groups, const std::string &path)
{
    writeTextFileAtomically(path, groupsToCsv(layer, groups));
}

} // namespace convoffload
