// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/optimise/SolutionImport.h"
#include "convoffload/io/LineSplitter.h"
#include "convoffload/io/TextFile.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <vector>

namespace convoffload {

namespace {

std::vector<std::string> splitWords(const std::string &line)
{
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

std::string lineName(std::size_t number) { return "line " + std::to_string(number); }

bool parseNumber(const std::string &s, double &value)
{
    if (s.empty())
        return false;
    char *end = nullptr;
    errno = 0;
    value = std::strtod(s.c_str(), &end);
    return *end == '\0' && errno == 0 && std::isfinite(value);
}

/// Reads "<prefix><digits>" at pos; advances pos past the digits.
bool readIndex(const std::string &name, std::size_t &pos, const char *prefix, std::int64_t &value)
{
    const std::size_t len = std::strlen(prefix);
    if (name.compare(pos, len, prefix) != 0)
        return false;
    pos += len;
    const char *first = name.data() + pos, *last = name.data() + name.size();
    // Digits only: from_chars would take a sign, and "x_p-1_g0" is no column
    // of ours (a negative index must never reach an array).
    if (first == last || *first < '0' || *first > '9')
        return false;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr == first)
        return false;
    pos += std::size_t(ptr - first);
    return true;
}

struct PatchGroup {
    std::int64_t patch = 0, group = 0;
};

std::optional<PatchGroup> patchGroupOf(const std::string &name)
{
    PatchGroup pg;
    std::size_t pos = 0;
    if (readIndex(name, pos, "x_p", pg.patch) && readIndex(name, pos, "_g", pg.group) && pos == name.size())
        return pg;
    return std::nullopt;
}

/// The model's columns that do not decide the groups (IlpModel.h), and the
/// fixed column some LP files carry for the objective's constant.
bool isOtherModelColumn(const std::string &name)
{
    std::int64_t a = 0, b = 0;
    for (const char *prefix : {"y_px", "v_px", "z_px"}) {
        std::size_t pos = 0;
        if (readIndex(name, pos, prefix, a) && readIndex(name, pos, "_g", b) && pos == name.size())
            return true;
    }
    std::size_t pos = 0;
    return (readIndex(name, pos, "u_g", a) && pos == name.size()) || name == "duration_constant";
}

/// Statuses of a solution file that carry no strategy, with why in words.
std::optional<std::string> refusal(const std::string &status)
{
    std::string lower = status;
    for (char &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("infeasible") != std::string::npos)
        return "the solver reports the model infeasible (\"" + status
            + "\"): no strategy meets the constraints with this number of groups";
    if (lower.find("no integer solution") != std::string::npos || lower == "none")
        return "the solver stopped without an integer solution (\"" + status + "\"): there is no strategy to import";
    if (lower.find("unbounded") != std::string::npos)
        return "the solver reports the model unbounded (\"" + status + "\"): this is not a model of ours";
    return std::nullopt;
}

class SolutionReader {
public:
    explicit SolutionReader(const S1Instance &instance)
        : m_instance(instance)
        , m_groupOf(std::size_t(instance.patches), -1)
        , m_lineOf(std::size_t(instance.patches), 0)
    {
    }

    /// One line of the file (without '\n'), in order.
    void line(std::string_view text, std::int64_t lineNumber)
    {
        if (m_done)
            return;
        std::string line(text);
        const std::size_t number = std::size_t(lineNumber);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const std::vector<std::string> words = splitWords(line);
        if (words.empty())
            return;
        if (words[0][0] == '#') {
            if (const std::size_t at = line.find("Objective value = "); at != std::string::npos) // Gurobi
                readObjective(number, line.substr(at + std::strlen("Objective value = ")));
            if (!handleComment(line, m_skipSection))
                m_done = true; // dual values and basis follow: nothing for us
            return;
        }
        if (m_skipSection)
            return;
        if (m_expectStatus) {
            m_expectStatus = false;
            setStatus(number, line);
            return;
        }
        if (line == "Model status") {
            m_expectStatus = true;
            return;
        }
        if (number == 1 && line.find(" - objective value ") != std::string::npos) {
            readCbcStatus(number, line);
            return;
        }
        if (words.size() == 1 && (words[0] == "Feasible" || words[0] == "Infeasible" || words[0] == "None")) {
            if (words[0] != "Feasible")
                setStatus(number, words[0]);
            return;
        }
        if (words.size() == 2 && words[0] == "Objective") {
            readObjective(number, words[1]);
            return;
        }
        readValue(number, line, words);
    }

    ImportedSolution finish()
    {
        std::vector<Group> byGroup(std::size_t(m_instance.max_groups));
        for (std::size_t p = 0; p < m_groupOf.size(); ++p) {
            if (m_groupOf[p] < 0)
                throw FormatError(
                    "", "patch " + std::to_string(p) + " is in no group (no x_p" + std::to_string(p) + "_g<k> has the value 1)");
            byGroup[std::size_t(m_groupOf[p])].push_back(PatchId(p));
        }
        for (Group &g : byGroup)
            if (!g.empty())
                m_solution.groups.push_back(std::move(g));
        return std::move(m_solution);
    }

private:
    bool handleComment(const std::string &line, bool &skipSection)
    {
        if (line.starts_with("# Dual solution values") || line.starts_with("# Basis"))
            return false;
        skipSection = line.starts_with("# Rows");
        return true;
    }

    void setStatus(std::size_t number, const std::string &status)
    {
        m_solution.solver_status = status;
        if (const auto why = refusal(status))
            throw FormatError(lineName(number), *why);
    }

    void readObjective(std::size_t number, const std::string &word)
    {
        double value = 0;
        if (!parseNumber(word, value))
            throw FormatError(lineName(number), "objective '" + word + "' is not a number");
        m_solution.objective = value;
    }

    void readCbcStatus(std::size_t number, const std::string &line)
    {
        const std::size_t dash = line.find(" - objective value ");
        std::size_t begin = line.find_first_not_of(' ');
        setStatus(number, line.substr(begin, dash - begin));
        const std::vector<std::string> rest = splitWords(line.substr(dash + std::strlen(" - objective value ")));
        if (rest.empty())
            throw FormatError(lineName(number), "the status line has no number after 'objective value'");
        readObjective(number, rest.front());
    }

    void readValue(std::size_t number, const std::string &line, std::vector<std::string> words)
    {
        // CBC marks values that break a bound or a row with "**".
        if (words[0] == "**")
            words.erase(words.begin());
        else if (words[0].starts_with("**"))
            words[0].erase(0, 2);
        double index = 0;
        if (words.size() >= 3 && parseNumber(words[0], index)) // CBC: index name value reduced-cost
            words.erase(words.begin());
        if (words.size() < 2 || words.size() > 3)
            throw FormatError(lineName(number), "expected 'name value', got '" + line + "'");
        const std::string &name = words[0];
        double value = 0;
        if (!parseNumber(words[1], value))
            throw FormatError(lineName(number), "value '" + words[1] + "' is not a number");
        const std::optional<PatchGroup> pg = patchGroupOf(name);
        if (!pg) {
            if (isOtherModelColumn(name))
                return;
            if (name.starts_with("x_p"))
                throw FormatError(lineName(number),
                    "'" + name + "' is no column of the model: x_p<patch>_g<group> takes two whole numbers from 0");
            throw FormatError(lineName(number), "unknown variable '" + name + "'");
        }
        if (pg->patch >= m_instance.patches)
            throw FormatError(lineName(number),
                name + " names patch " + std::to_string(pg->patch) + ", but the layer has " + std::to_string(m_instance.patches)
                    + " patches");
        if (pg->group >= m_instance.max_groups)
            throw FormatError(lineName(number),
                name + " names group " + std::to_string(pg->group) + ", but the problem has groups 0 to "
                    + std::to_string(m_instance.max_groups - 1));
        // Solvers print integral values with a little noise; anything else is
        // a relaxation, not a strategy.
        if (std::fabs(value) > 1e-4 && std::fabs(value - 1) > 1e-4)
            throw FormatError(lineName(number), name + " = " + words[1] + " is neither 0 nor 1: the solution is not integral");
        if (value < 0.5)
            return;
        std::int64_t &group = m_groupOf[std::size_t(pg->patch)];
        if (group >= 0 && group != pg->group)
            throw FormatError(lineName(number),
                "patch " + std::to_string(pg->patch) + " is already in group " + std::to_string(group) + " (line "
                    + std::to_string(m_lineOf[std::size_t(pg->patch)]) + ")");
        group = pg->group;
        m_lineOf[std::size_t(pg->patch)] = number;
    }

    const S1Instance &m_instance;
    std::vector<std::int64_t> m_groupOf;
    std::vector<std::size_t> m_lineOf;
    ImportedSolution m_solution;
    bool m_expectStatus = false; // HiGHS: the line after "Model status"
    bool m_skipSection = false; // HiGHS: row values until the next '#' header
    bool m_done = false; // past the primal values
};

/// No line of a solution file needs more: a variable name, a value and a
/// reduced cost. A file with longer lines is not a solution file.
constexpr std::size_t kMaxSolutionLineBytes = std::size_t(64) << 10;

/// Runs the reader over text fed by `source`, which calls its argument with
/// each chunk in order; memory holds one line, not the file.
ImportedSolution readSolution(
    const S1Instance &instance, const std::function<void(const std::function<void(std::string_view)> &)> &source)
{
    SolutionReader reader(instance);
    LineSplitter lines(kMaxSolutionLineBytes, [&reader](std::string_view line, std::int64_t number) {
        // A UTF-8 byte order mark (an editor's) is no part of the first name.
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        if (number == 1 && line.starts_with(bom))
            line.remove_prefix(bom.size());
        reader.line(line, number);
    });
    source([&lines](std::string_view chunk) { lines.feed(chunk); });
    lines.finish();
    return reader.finish();
}

} // namespace

ImportedSolution solutionFromText(const S1Instance &instance, const std::string &text)
{
    return readSolution(instance, [&text](const std::function<void(std::string_view)> &feed) { feed(text); });
}

ImportedSolution loadSolution(const S1Instance &instance, const std::string &path)
{
    try {
        return readSolution(instance,
            [&path](const std::function<void(std::string_view)> &feed) { readFileInChunks(path, kMaxSolutionFileBytes, feed); });
    } catch (const FormatError &e) {
        if (e.where == path) // the file reader's own error
            throw;
        throw FormatError(e.where.empty() ? path : path + ": " + e.where, e.reason);
    }
}

} // namespace convoffload
