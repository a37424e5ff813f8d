// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/explore/DesignSpace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string_view>

namespace convoffload {

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

std::string trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return std::string(text);
}

std::vector<std::string> splitOn(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(trimmed(std::string_view(text).substr(start, end == std::string::npos ? end : end - start)));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

/// Doubles as the shortest text that reads back the same (%.17g is exact).
std::string exactText(double v)
{
    char buffer[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
        if (std::strtod(buffer, nullptr) == v)
            break;
    }
    return buffer;
}

/// `v` to 12 significant digits: 0.1 + 2 · 0.1 is the 0.3 the user means,
/// not 0.30000000000000004.
double rounded(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.12g", v);
    return std::strtod(buffer, nullptr);
}

/// One number with an optional k or M suffix, as a double (exact for
/// integers up to 2^53; larger integers are read as integers by the caller).
double numberWithSuffix(const std::string &text, const std::string &option)
{
    const auto fail = [&](const std::string &why) -> double { throw DesignSpaceError(option + ": '" + text + "' " + why); };
    if (text.empty())
        throw DesignSpaceError(option + ": an item of the list is empty (expected numbers separated by commas, e.g. 16k,32k)");
    std::string digits = text;
    double scale = 1;
    if (digits.back() == 'k' || digits.back() == 'K') {
        scale = 1024;
        digits.pop_back();
    } else if (digits.back() == 'M') {
        scale = 1024.0 * 1024.0;
        digits.pop_back();
    }
    double value = 0;
    const char *end = digits.data() + digits.size();
    const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
    if (digits.empty() || ec == std::errc::invalid_argument || ptr != end)
        fail("is not a number (expected digits with at most one k or M suffix, e.g. 64k)");
    if (ec == std::errc::result_out_of_range || !std::isfinite(value * scale))
        fail("is too large");
    return value * scale;
}

std::int64_t integerWithSuffix(const std::string &text, const std::string &option, std::int64_t min)
{
    const auto tooLarge = [&]() -> DesignSpaceError {
        return DesignSpaceError(option + ": '" + text + "' is too large (at most " + std::to_string(kInt64Max) + ")");
    };
    std::int64_t integer = 0;
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
        // Digits alone are read exactly, not through a double (2^53 and up).
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), integer);
        if (ec != std::errc() || ptr != text.data() + text.size())
            throw tooLarge();
    } else {
        const double value = numberWithSuffix(text, option);
        // 2^63 itself does not fit; every double below it is an integer's value.
        if (value >= 9223372036854775808.0)
            throw tooLarge();
        if (value != std::floor(value))
            throw DesignSpaceError(option + ": '" + text + "' is not a whole number");
        integer = std::int64_t(value);
    }
    if (integer < min)
        throw DesignSpaceError(option + ": " + text + " is below the smallest value, " + std::to_string(min));
    return integer;
}

void refuseDuplicates(const std::vector<std::string> &texts, const std::string &option)
{
    std::set<std::string> seen;
    for (const std::string &t : texts)
        if (!seen.insert(t).second)
            throw DesignSpaceError(option + ": " + t + " appears twice in the list (each value once)");
}

void tooMany(const std::string &option, std::int64_t maxItems)
{
    throw DesignSpaceError(option + ": the list has more than " + std::to_string(maxItems)
        + " values, more than the points an exploration takes (--max-points raises the limit)");
}

/// "a..b", "a..b*F", "a..b+S" split into its three texts (step empty for
/// "a..b"); nullopt when `item` is not a range.
struct RangeText {
    std::string from, to, step;
    char kind = 0; // 0, '*' or '+'
};
std::optional<RangeText> rangeOf(const std::string &item)
{
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos)
        return std::nullopt;
    RangeText r;
    r.from = trimmed(std::string_view(item).substr(0, dots));
    std::string rest = item.substr(dots + 2);
    const std::size_t op = rest.find_first_of("*+");
    if (op != std::string::npos) {
        r.kind = rest[op];
        r.step = trimmed(std::string_view(rest).substr(op + 1));
        rest = rest.substr(0, op);
    }
    r.to = trimmed(rest);
    return r;
}

} // namespace

std::vector<std::int64_t> parseIntegerList(
    const std::string &text, const std::string &option, std::int64_t min, std::int64_t maxItems)
{
    if (trimmed(text).empty())
        throw DesignSpaceError(option + ": the list is empty (expected e.g. 16k,32k or 16k..1M*2)");
    std::vector<std::int64_t> values;
    std::vector<std::string> texts;
    const auto add = [&](std::int64_t v) {
        if (std::int64_t(values.size()) >= maxItems)
            tooMany(option, maxItems);
        values.push_back(v);
        texts.push_back(std::to_string(v));
    };
    for (const std::string &item : splitOn(text, ',')) {
        const std::optional<RangeText> range = rangeOf(item);
        if (!range) {
            add(integerWithSuffix(item, option, min));
            continue;
        }
        const std::int64_t from = integerWithSuffix(range->from, option, min);
        const std::int64_t to = integerWithSuffix(range->to, option, min);
        if (to < from)
            throw DesignSpaceError(option + ": the range " + item + " is inverted (its end is below its start)");
        if (range->kind == '*') {
            const std::int64_t factor = integerWithSuffix(range->step, option, 1);
            if (factor < 2)
                throw DesignSpaceError(option + ": the factor of " + item + " must be at least 2");
            for (std::int64_t v = from;; v *= factor) {
                add(v);
                if (v > to / factor)
                    break; // the next would pass `to` (or overflow)
            }
        } else {
            const std::int64_t step = range->kind == '+' ? integerWithSuffix(range->step, option, 1) : 1;
            // Counted before anything is built: 1..10^18 is refused at once.
            const std::int64_t count = (to - from) / step + 1;
            if (count > maxItems - std::int64_t(values.size()))
                tooMany(option, maxItems);
            for (std::int64_t i = 0; i < count; ++i)
                add(from + i * step);
        }
    }
    refuseDuplicates(texts, option);
    return values;
}

std::vector<double> parseNumberList(const std::string &text, const std::string &option, std::int64_t maxItems)
{
    if (trimmed(text).empty())
        throw DesignSpaceError(option + ": the list is empty (expected e.g. 0.5,1,2 or 0.25..4*2)");
    std::vector<double> values;
    std::vector<std::string> texts;
    const auto number = [&](const std::string &t) {
        const double v = numberWithSuffix(t, option);
        if (v < 0)
            throw DesignSpaceError(option + ": " + t + " is negative (expected a number ≥ 0)");
        return v;
    };
    const auto add = [&](double v) {
        if (std::int64_t(values.size()) >= maxItems)
            tooMany(option, maxItems);
        values.push_back(v);
        texts.push_back(exactText(v));
    };
    for (const std::string &item : splitOn(text, ',')) {
        const std::optional<RangeText> range = rangeOf(item);
        if (!range) {
            add(number(item));
            continue;
        }
        const double from = number(range->from), to = number(range->to);
        if (to < from)
            throw DesignSpaceError(option + ": the range " + item + " is inverted (its end is below its start)");
        if (range->kind == 0)
            throw DesignSpaceError(option + ": the range " + item + " needs a step: a..b*F (a factor > 1) or a..b+S (S > 0)");
        const double step = number(range->step);
        // A relative tolerance, so 0.1..0.3+0.1 ends at 0.3 despite rounding.
        const double end = to * (1 + 1e-9) + 1e-12;
        if (range->kind == '*') {
            if (!(step > 1))
                throw DesignSpaceError(option + ": the factor of " + item + " must be greater than 1");
            if (from == 0)
                throw DesignSpaceError(option + ": the range " + item + " starts at 0, which no factor can grow");
            for (double v = from; v <= end; v *= step)
                add(rounded(v));
        } else {
            if (!(step > 0))
                throw DesignSpaceError(option + ": the step of " + item + " must be greater than 0");
            const double count = std::floor((end - from) / step) + 1;
            if (count > double(maxItems - std::int64_t(values.size())))
                tooMany(option, maxItems);
            for (std::int64_t i = 0; i < std::int64_t(count); ++i)
                add(rounded(from + double(i) * step));
        }
    }
    refuseDuplicates(texts, option);
    return values;
}

std::vector<Layout> parseLayoutList(const std::string &text, const std::string &option)
{
    if (trimmed(text).empty())
        throw DesignSpaceError(option + ": the list is empty (expected nchw, nhwc or nchw,nhwc)");
    std::vector<Layout> layouts;
    const std::vector<std::string> items = splitOn(text, ',');
    for (const std::string &item : items) {
        const std::optional<Layout> layout = layoutFromName(item);
        if (!layout)
            throw DesignSpaceError(option + ": '" + item + "' is not a layout (expected nchw or nhwc)");
        layouts.push_back(*layout);
    }
    refuseDuplicates(items, option);
    return layouts;
}

std::int64_t DesignSpace::pointCount(std::int64_t maxPoints) const
{
    const std::size_t sizes[] = {mem_sizes.size(), nbop_pes.size(), t_ls.size(), layouts.size(), bursts.size(), t_setups.size()};
    std::int64_t count = 1;
    bool over = false;
    for (const std::size_t s : sizes) {
        const std::int64_t n = std::max<std::int64_t>(1, std::int64_t(s));
        if (count > maxPoints / n)
            over = true; // saturates: the product may not even fit in 64 bits
        else
            count *= n;
    }
    if (over || count > maxPoints) {
        std::string product;
        double exact = 1;
        for (const std::size_t s : sizes)
            exact *= double(std::max<std::size_t>(1, s));
        char text[64];
        std::snprintf(text, sizeof text, "%.0f", exact);
        throw DesignSpaceError("the lists make " + std::string(text) + " design points, more than the limit of "
            + std::to_string(maxPoints) + " (shorten a list, or raise the limit with --max-points)");
    }
    return count;
}

Hardware DesignSpace::hardwareAt(const Hardware &base, std::int64_t point) const
{
    Hardware h = base;
    // Mixed radix, the last list fastest: peel the digits from the end.
    std::int64_t rest = point;
    const auto digit = [&rest](std::size_t size) {
        if (size == 0)
            return std::size_t(0);
        const std::size_t d = std::size_t(rest % std::int64_t(size));
        rest /= std::int64_t(size);
        return d;
    };
    const std::size_t setup = digit(t_setups.size());
    const std::size_t burst = digit(bursts.size());
    const std::size_t layout = digit(layouts.size());
    const std::size_t tl = digit(t_ls.size());
    const std::size_t nbop = digit(nbop_pes.size());
    const std::size_t mem = digit(mem_sizes.size());
    if (!mem_sizes.empty())
        h.mem_size = mem_sizes[mem];
    if (!nbop_pes.empty())
        h.nbop_pe = nbop_pes[nbop];
    if (!t_ls.empty())
        h.t_l = t_ls[tl];
    if (!layouts.empty() || !bursts.empty() || !t_setups.empty()) {
        Transfer t = h.transfer.value_or(Transfer{});
        if (!layouts.empty())
            t.layout = layouts[layout];
        if (!bursts.empty())
            t.burst = bursts[burst];
        if (!t_setups.empty())
            t.t_setup = t_setups[setup];
        h.transfer = t;
    }
    return h;
}

std::string DesignSpace::canonicalText() const
{
    std::string text;
    const auto list = [&text](const char *name, const auto &values, const auto &write) {
        text += name;
        text += '=';
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i > 0)
                text += ',';
            text += write(values[i]);
        }
        text += ';';
    };
    const auto integer = [](std::int64_t v) { return std::to_string(v); };
    list("mem_size", mem_sizes, integer);
    list("nbop_pe", nbop_pes, integer);
    list("t_l", t_ls, exactText);
    list("layout", layouts, layoutName);
    list("burst", bursts, integer);
    list("t_setup", t_setups, exactText);
    return text;
}

std::int64_t Shard::pointsOf(std::int64_t points) const { return points <= index ? 0 : (points - index - 1) / count + 1; }

Shard parseShard(const std::string &text)
{
    const std::size_t slash = text.find('/');
    const auto integer = [&](const std::string &part) {
        std::int64_t v = -1;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
            throw DesignSpaceError("--shard: expected I/N with 0 ≤ I < N (e.g. 0/4, or $SLURM_ARRAY_TASK_ID/"
                                   "$SLURM_ARRAY_TASK_COUNT), got '"
                + text + "'");
        return v;
    };
    if (slash == std::string::npos)
        integer(std::string()); // the message above
    Shard s{
        integer(trimmed(std::string_view(text).substr(0, slash))), integer(trimmed(std::string_view(text).substr(slash + 1)))};
    if (s.count < 1)
        throw DesignSpaceError("--shard: the number of shards must be at least 1, got '" + text + "'");
    if (s.index < 0 || s.index >= s.count)
        throw DesignSpaceError("--shard: the shard index must be between 0 and " + std::to_string(s.count - 1)
            + " (shards are numbered from 0), got '" + text + "'");
    return s;
}

} // namespace convoffload
