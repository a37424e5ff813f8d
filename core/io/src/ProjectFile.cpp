// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The project file (docs/reference/project-file.md) and the tensor data file, read and written with
// nlohmann_json. Reading is strict: every key is known, every value checked,
// and every error names its key path, so a user can fix a hand-edited file
// from the message alone.

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/TextFile.h"

#include "BoundedJsonParser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <span>
#include <string_view>
#include <system_error>

namespace convoffload {

nlohmann::ordered_json layerToJsonValue(const Layer &l)
{
    nlohmann::ordered_json j{{"c_in", l.c_in}, {"h_in", l.h_in}, {"w_in", l.w_in}, {"h_k", l.h_k}, {"w_k", l.w_k}, {"n", l.n},
        {"stride_h", l.stride_h}, {"stride_w", l.stride_w}, {"pad_top", l.pad_top}, {"pad_bottom", l.pad_bottom},
        {"pad_left", l.pad_left}, {"pad_right", l.pad_right}};
    // Written only when they differ from 1, so a dense layer's file is as before.
    if (l.group != 1)
        j["group"] = l.group;
    if (l.dilation_h != 1)
        j["dilation_h"] = l.dilation_h;
    if (l.dilation_w != 1)
        j["dilation_w"] = l.dilation_w;
    return j;
}

nlohmann::ordered_json hardwareToJsonValue(const Hardware &h)
{
    nlohmann::ordered_json j{{"mem_size", h.mem_size}, {"nbop_pe", h.nbop_pe}, {"t_l", h.t_l}, {"t_w", h.t_w}, {"t_acc", h.t_acc},
        {"dram_size", h.dram_size}, {"max_loads_per_element", h.max_loads_per_element}};
    if (h.transfer) // written only when set: a file without it is as before
        j["transfer"] = nlohmann::ordered_json{
            {"layout", layoutName(h.transfer->layout)}, {"burst", h.transfer->burst}, {"t_setup", h.transfer->t_setup}};
    return j;
}

namespace {

// ordered_json keeps keys in file order: files we write read like the
// examples of docs/reference/project-file.md, and the first unknown key reported is the first one in the file.
using Json = nlohmann::ordered_json;

constexpr std::string_view kFormatTag = "convoffload-project";
constexpr std::int64_t kFormatVersion = 1;
constexpr std::int64_t kNetworkFormatVersion = 2; // docs/reference/network-file.md: a network of layers
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// ---------------------------------------------------------------- key paths

std::string childPath(const std::string &path, std::string_view key)
{
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string itemPath(const std::string &path, std::size_t index) { return path + "[" + std::to_string(index) + "]"; }

// The document itself has no key path; say so rather than print nothing.
std::string displayPath(const std::string &path) { return path.empty() ? std::string("top level") : path; }

std::string jsonQuoted(std::string_view s) { return Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace); }

// ---------------------------------------------------------------- parsing

/// "line L, column C" of a byte offset, both 1-based, columns in bytes.
std::string textPosition(const std::string &text, std::size_t byte)
{
    // nlohmann's byte count is 1-based and points at the offending character
    // (one past the end for a truncated document).
    const std::size_t offset = std::min(byte > 0 ? byte - 1 : 0, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}

/// The part of nlohmann's message after its own "[json.exception...] parse
/// error at line L, column C: " prefix, which we replace by our position.
std::string parseErrorReason(const std::string &what)
{
    const std::size_t column = what.find("column ");
    const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
    return "invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2));
}

// nlohmann silently keeps one of two equal keys; a file with "h_k" twice is
// ambiguous, so a parser callback tracks the key path and rejects duplicates.
struct Frame {
    bool object = false;
    std::set<std::string> keys; // object: keys seen so far
    std::string key; // object: the member being parsed
    std::size_t index = 0; // array: the element being parsed
};

std::string framesPath(const std::vector<Frame> &frames, std::size_t count)
{
    std::string path;
    for (std::size_t i = 0; i < count; ++i)
        path = frames[i].object ? childPath(path, frames[i].key) : itemPath(path, frames[i].index);
    return path;
}

void elementDone(std::vector<Frame> &frames)
{
    if (!frames.empty() && !frames.back().object)
        ++frames.back().index;
}

Json parseJson(const std::string &text)
{
    std::vector<Frame> frames;
    const auto track = [&frames](Json::parse_event_t event, const std::string &key) {
        using E = Json::parse_event_t;
        switch (event) {
        case E::object_start:
        case E::array_start:
            frames.push_back(Frame{event == E::object_start, {}, {}, 0});
            break;
        case E::key: {
            Frame &f = frames.back();
            f.key = key;
            if (!f.keys.insert(f.key).second)
                throw FormatError(framesPath(frames, frames.size()), "duplicate key '" + f.key + "'");
            break;
        }
        case E::object_end:
        case E::array_end:
            frames.pop_back();
            elementDone(frames);
            break;
        case E::value:
            elementDone(frames);
            break;
        }
    };
    // Refused where the limit is reached, before more is built.
    const auto limit = [&frames](const std::string &what) {
        throw FormatError(displayPath(framesPath(frames, frames.size())), "refused: " + what + " (the limits of a project file)");
    };
    // nlohmann's own words for these ("unexpected end of input", "invalid
    // literal") would not tell a user what they opened.
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        throw FormatError(textPosition(text, text.size() + 1), "invalid JSON: the file is empty");
    const std::size_t head = std::min<std::size_t>(text.size(), 256);
    for (std::size_t i = 0; i < head; ++i)
        if (const auto c = static_cast<unsigned char>(text[i]); c < 0x20 && c != '\t' && c != '\r' && c != '\n')
            throw FormatError(textPosition(text, i + 1),
                "invalid JSON: this is a binary file, not JSON text (an ONNX model is imported as a network: "
                "File › Import Network, or convoffload-cli import-onnx)");
    try {
        Json result;
        BoundedJsonParser<Json> parser(result, track, limit);
        Json::sax_parse(text, &parser);
        return result;
    } catch (const Json::parse_error &e) {
        throw FormatError(textPosition(text, e.byte), parseErrorReason(e.what()));
    } catch (const Json::out_of_range &) {
        // A number like 1e999 overflows a double; nlohmann gives no position,
        // but the callback has tracked the key path up to that value.
        throw FormatError(displayPath(framesPath(frames, frames.size())), "is too large: the number overflows");
    }
}

// ---------------------------------------------------------------- values

std::string typeName(const Json &v) { return v.type_name(); }

/// How a number is shown in a message; nlohmann would print infinity as null.
std::string numberText(const Json &v)
{
    if (!v.is_number_float())
        return v.dump();
    const double d = v.get<double>();
    if (!std::isfinite(d))
        return "a number too large to represent";
    // 0 rather than 0.0 for bounds; integral values this small print exactly.
    if (std::floor(d) == d && std::fabs(d) < 1e15)
        return std::to_string(std::int64_t(d));
    return v.dump();
}

// JSON has a single number type. Like JSON Schema, a number with no
// fractional part (3, 3.0, 3e0) counts as an integer; anything else where an
// integer is needed is an error, and so is a value that does not fit the
// field, checked before any conversion so that huge values never reach a cast.
std::int64_t integerAt(const Json &v, const std::string &where, std::int64_t min, std::int64_t max)
{
    if (!v.is_number())
        throw FormatError(where, "expected an integer, got " + typeName(v));
    const auto tooSmall
        = [&] { return FormatError(where, "must be an integer ≥ " + std::to_string(min) + ", got " + numberText(v)); };
    const auto tooLarge
        = [&] { return FormatError(where, "is too large: got " + numberText(v) + ", the maximum is " + std::to_string(max)); };
    std::int64_t value = 0;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > std::uint64_t(max)) // every max we use is ≥ 0
            throw tooLarge();
        value = std::int64_t(u);
    } else if (v.is_number_integer()) {
        value = v.get<std::int64_t>();
    } else {
        const double d = v.get<double>();
        if (std::isinf(d))
            throw d > 0 ? tooLarge() : tooSmall();
        if (std::isnan(d) || std::floor(d) != d)
            throw FormatError(where, "must be an integer, got " + numberText(v));
        if (d >= 0x1p63)
            throw tooLarge();
        if (d < -0x1p63)
            throw tooSmall();
        value = std::int64_t(d);
    }
    if (value < min)
        throw tooSmall();
    if (value > max)
        throw tooLarge();
    return value;
}

/// The full uint64 range (the data seed), which integerAt cannot express.
std::uint64_t unsignedAt(const Json &v, const std::string &where)
{
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>();
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d >= 0 && d < 0x1p64 && std::floor(d) == d)
            return std::uint64_t(d);
        if (d >= 0x1p64)
            throw FormatError(where,
                "is too large: got " + numberText(v) + ", the maximum is "
                    + std::to_string(std::numeric_limits<std::uint64_t>::max()));
    }
    return std::uint64_t(integerAt(v, where, 0, kInt64Max)); // reports the error
}

double numberAt(const Json &v, const std::string &where, double min)
{
    if (!v.is_number())
        throw FormatError(where, "expected a number, got " + typeName(v));
    const double d = v.get<double>();
    if (!std::isfinite(d))
        throw FormatError(where, "is too large: got " + numberText(v));
    if (d < min)
        throw FormatError(where, "must be a number ≥ " + numberText(Json(min)) + ", got " + numberText(v));
    return d;
}

bool booleanAt(const Json &v, const std::string &where)
{
    if (!v.is_boolean())
        throw FormatError(where, "expected true or false, got " + typeName(v));
    return v.get<bool>();
}

std::string stringAt(const Json &v, const std::string &where)
{
    if (!v.is_string())
        throw FormatError(where, "expected a string, got " + typeName(v));
    return v.get<std::string>();
}

const Json &arrayAt(const Json &v, const std::string &where)
{
    if (!v.is_array())
        throw FormatError(where, "expected an array, got " + typeName(v));
    return v;
}

// Readers for the field helpers below: (value, key path) -> field value.
auto intAtLeast(int min)
{
    return [min](const Json &v, const std::string &where) { return int(integerAt(v, where, min, INT_MAX)); };
}

auto int64AtLeast(std::int64_t min)
{
    return [min](const Json &v, const std::string &where) { return integerAt(v, where, min, kInt64Max); };
}

auto numberAtLeast(double min)
{
    return [min](const Json &v, const std::string &where) { return numberAt(v, where, min); };
}

// ---------------------------------------------------------------- objects

/// A JSON object at a key path whose keys must all be known.
class ObjectReader {
public:
    ObjectReader(const Json &value, std::string path, std::initializer_list<std::string_view> keys)
        : m_value(value)
        , m_path(std::move(path))
    {
        if (!value.is_object())
            throw FormatError(displayPath(m_path), "expected an object, got " + typeName(value));
        for (const auto &member : value.items())
            if (std::find(keys.begin(), keys.end(), member.key()) == keys.end())
                throw FormatError(pathOf(member.key()), "unknown key " + quotedKey(member.key()) + knownKeys(keys));
    }

    const Json *find(std::string_view key) const
    {
        const auto it = m_value.find(std::string(key));
        return it == m_value.end() ? nullptr : &*it;
    }

    const Json &require(std::string_view key) const
    {
        if (const Json *v = find(key))
            return *v;
        // The key by name, not only in the place: "layer: missing required
        // key" read as a key missing inside the layer (issue 41).
        throw FormatError(pathOf(key), "missing required key " + quotedKey(key));
    }

    std::string pathOf(std::string_view key) const { return childPath(m_path, key); }

private:
    static std::string quotedKey(std::string_view key) { return "'" + std::string(key) + "'"; }

    static std::string knownKeys(std::initializer_list<std::string_view> keys)
    {
        std::string list;
        for (std::string_view k : keys)
            list += (list.empty() ? "" : ", ") + std::string(k);
        return " (known keys: " + list + ")";
    }

    const Json &m_value;
    std::string m_path;
};

template <typename Read> auto requiredField(const ObjectReader &r, std::string_view key, Read read)
{
    return read(r.require(key), r.pathOf(key));
}

template <typename T, typename Read> T optionalField(const ObjectReader &r, std::string_view key, const T &fallback, Read read)
{
    const Json *v = r.find(key);
    return v ? T(read(*v, r.pathOf(key))) : fallback;
}

// ---------------------------------------------------------------- sections

// The file format's names for the write policies: a public contract, kept
// apart from any display text.
WritePolicy writePolicyAt(const Json &v, const std::string &where)
{
    const std::string s = stringAt(v, where);
    if (const std::optional<WritePolicy> policy = writePolicyFromName(s))
        return *policy;
    throw FormatError(where, "must be \"next-step\" or \"as-late-as-possible\", got " + jsonQuoted(s));
}

/// The file's version: 1 (one layer) or 2 (a network).
std::int64_t checkFormatTag(const Json &root)
{
    const auto format = root.find("format");
    if (format == root.end())
        throw FormatError("format", "missing required key: this is not a ConvOffload project file");
    if (stringAt(*format, "format") != kFormatTag)
        throw FormatError("format",
            "must be " + jsonQuoted(kFormatTag) + ", got " + jsonQuoted(format->get<std::string>())
                + ": this is not a ConvOffload project file");
    const auto version = root.find("version");
    if (version == root.end())
        throw FormatError("version", "missing required key");
    const std::int64_t v = integerAt(*version, "version", 1, kInt64Max);
    if (v != kFormatVersion && v != kNetworkFormatVersion)
        throw FormatError("version",
            "unsupported version " + std::to_string(v) + ": this program reads versions " + std::to_string(kFormatVersion)
                + " (one layer) and " + std::to_string(kNetworkFormatVersion) + " (a network)");
    return v;
}

Layer readLayer(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path,
        {"c_in", "h_in", "w_in", "h_k", "w_k", "n", "stride_h", "stride_w", "pad_top", "pad_bottom", "pad_left", "pad_right",
            "group", "dilation_h", "dilation_w"});
    Layer l;
    l.c_in = requiredField(r, "c_in", intAtLeast(1));
    l.h_in = requiredField(r, "h_in", intAtLeast(1));
    l.w_in = requiredField(r, "w_in", intAtLeast(1));
    l.h_k = requiredField(r, "h_k", intAtLeast(1));
    l.w_k = requiredField(r, "w_k", intAtLeast(1));
    l.n = requiredField(r, "n", intAtLeast(1));
    l.stride_h = optionalField(r, "stride_h", 1, intAtLeast(1));
    l.stride_w = optionalField(r, "stride_w", 1, intAtLeast(1));
    l.pad_top = optionalField(r, "pad_top", 0, intAtLeast(0));
    l.pad_bottom = optionalField(r, "pad_bottom", 0, intAtLeast(0));
    l.pad_left = optionalField(r, "pad_left", 0, intAtLeast(0));
    l.pad_right = optionalField(r, "pad_right", 0, intAtLeast(0));
    l.group = optionalField(r, "group", 1, intAtLeast(1));
    l.dilation_h = optionalField(r, "dilation_h", 1, intAtLeast(1));
    l.dilation_w = optionalField(r, "dilation_w", 1, intAtLeast(1));
    return l;
}

Transfer readTransfer(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path, {"layout", "burst", "t_setup"});
    Transfer t;
    t.layout = optionalField(r, "layout", t.layout, [](const Json &value, const std::string &where) {
        const std::string s = stringAt(value, where);
        if (const std::optional<Layout> layout = layoutFromName(s))
            return *layout;
        throw FormatError(where, "must be \"nchw\" or \"nhwc\", got " + jsonQuoted(s));
    });
    t.burst = optionalField(r, "burst", t.burst, int64AtLeast(1));
    t.t_setup = optionalField(r, "t_setup", t.t_setup, numberAtLeast(0));
    return t;
}

Hardware readHardware(const Json &v, const std::string &path)
{
    const ObjectReader r(
        v, path, {"mem_size", "nbop_pe", "t_l", "t_w", "t_acc", "dram_size", "max_loads_per_element", "transfer"});
    const Hardware defaults;
    Hardware h;
    h.mem_size = requiredField(r, "mem_size", int64AtLeast(1));
    h.nbop_pe = requiredField(r, "nbop_pe", int64AtLeast(1));
    h.t_l = optionalField(r, "t_l", defaults.t_l, numberAtLeast(0));
    h.t_w = optionalField(r, "t_w", defaults.t_w, numberAtLeast(0));
    h.t_acc = optionalField(r, "t_acc", defaults.t_acc, numberAtLeast(0));
    h.dram_size = optionalField(r, "dram_size", defaults.dram_size, int64AtLeast(1));
    h.max_loads_per_element = optionalField(r, "max_loads_per_element", defaults.max_loads_per_element, intAtLeast(1));
    if (const Json *t = r.find("transfer"))
        h.transfer = readTransfer(*t, r.pathOf("transfer"));
    return h;
}

Options readOptions(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path, {"kernels_preloaded", "write_policy", "padding_in_dram"});
    const Options defaults;
    Options o;
    o.kernels_preloaded = optionalField(r, "kernels_preloaded", defaults.kernels_preloaded, booleanAt);
    o.write_policy = optionalField(r, "write_policy", defaults.write_policy, writePolicyAt);
    o.padding_in_dram = optionalField(r, "padding_in_dram", defaults.padding_in_dram, booleanAt);
    return o;
}

DataSpec readData(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path, {"seed", "file"});
    const DataSpec defaults;
    DataSpec d;
    d.seed = optionalField(r, "seed", defaults.seed, unsignedAt);
    d.file = optionalField(r, "file", defaults.file, stringAt);
    // The system stops a path at a NUL: "a.json\u0000b" would open a.json.
    if (d.file.find('\0') != std::string::npos)
        throw FormatError(
            r.pathOf("file"), "the file name " + jsonQuoted(d.file) + " holds a NUL character, which no file name can");
    return d;
}

StrategyKind strategyKindAt(const Json &v, const std::string &where)
{
    const std::string s = stringAt(v, where);
    if (const auto kind = strategyKindFromName(s))
        return *kind;
    throw FormatError(where,
        "unknown strategy kind " + jsonQuoted(s)
            + " (known kinds: s1-baseline, row-by-row, zigzag, groups, steps, kernel-blocked)");
}

PatchOrder patchOrderAt(const Json &v, const std::string &where)
{
    const std::string s = stringAt(v, where);
    if (const auto order = patchOrderFromName(s))
        return *order;
    throw FormatError(where, "must be \"row-by-row\" or \"zigzag\", got " + jsonQuoted(s));
}

KernelLoop kernelLoopAt(const Json &v, const std::string &where)
{
    const std::string s = stringAt(v, where);
    if (const auto loop = kernelLoopFromName(s))
        return *loop;
    throw FormatError(where, "must be \"kernels-outer\" or \"patches-outer\", got " + jsonQuoted(s));
}

/// A non-empty array of ids (range checked later, once the layer is known).
std::vector<std::uint32_t> idsAt(const Json &v, const std::string &path, std::string_view what)
{
    const Json &items = arrayAt(v, path);
    // A step without patches or kernels would compute nothing, which the
    // model reserves for the final drain.
    if (items.empty())
        throw FormatError(path, "a step needs at least one " + std::string(what));
    std::vector<std::uint32_t> ids;
    for (std::size_t k = 0; k < items.size(); ++k)
        ids.push_back(std::uint32_t(integerAt(items[k], itemPath(path, k), 0, UINT32_MAX)));
    return ids;
}

ComputeSteps stepsAt(const Json &v, const std::string &path)
{
    ComputeSteps steps;
    for (std::size_t i = 0; i < arrayAt(v, path).size(); ++i) {
        const ObjectReader r(v[i], itemPath(path, i), {"patches", "kernels"});
        ComputeStep step;
        step.patches = idsAt(r.require("patches"), r.pathOf("patches"), "patch");
        step.kernels = idsAt(r.require("kernels"), r.pathOf("kernels"), "kernel");
        steps.push_back(std::move(step));
    }
    return steps;
}

Groups groupsAt(const Json &v, const std::string &path)
{
    Groups groups;
    for (std::size_t g = 0; g < arrayAt(v, path).size(); ++g) {
        const std::string groupPath = itemPath(path, g);
        const Json &members = arrayAt(v[g], groupPath);
        // An empty group would expand to a step that computes nothing, which
        // the model reserves for the final drain.
        if (members.empty())
            throw FormatError(groupPath, "a group cannot be empty");
        Group group;
        for (std::size_t k = 0; k < members.size(); ++k)
            group.push_back(PatchId(integerAt(members[k], itemPath(groupPath, k), 0, UINT32_MAX)));
        groups.push_back(std::move(group));
    }
    return groups;
}

StrategySpec readStrategy(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path, {"name", "kind", "group_size", "groups", "steps", "kernel_block", "order", "loop"});
    StrategySpec s;
    s.name = requiredField(r, "name", stringAt);
    if (s.name.empty())
        throw FormatError(r.pathOf("name"), "must not be empty");
    s.kind = requiredField(r, "kind", strategyKindAt);
    const bool explicitGroups = s.kind == StrategyKind::Groups;
    const bool explicitSteps = s.kind == StrategyKind::Steps;
    const bool blocked = s.kind == StrategyKind::KernelBlocked;
    if (const Json *size = r.find("group_size")) {
        if (explicitGroups)
            throw FormatError(r.pathOf("group_size"), "not allowed for kind \"groups\": the groups set their own sizes");
        if (explicitSteps)
            throw FormatError(r.pathOf("group_size"), "not allowed for kind \"steps\": the steps set their own sizes");
        s.group_size = integerAt(*size, r.pathOf("group_size"), 1, kInt64Max);
    }
    if (explicitGroups)
        s.groups = groupsAt(r.require("groups"), r.pathOf("groups"));
    else if (r.find("groups"))
        throw FormatError(r.pathOf("groups"), "only allowed for kind \"groups\"");
    if (explicitSteps)
        s.steps = stepsAt(r.require("steps"), r.pathOf("steps"));
    else if (r.find("steps"))
        throw FormatError(r.pathOf("steps"), "only allowed for kind \"steps\"");
    for (std::string_view key : {"kernel_block", "order", "loop"})
        if (!blocked && r.find(key))
            throw FormatError(r.pathOf(key), "only allowed for kind \"kernel-blocked\"");
    if (blocked) {
        if (const Json *block = r.find("kernel_block"))
            s.kernel_block = integerAt(*block, r.pathOf("kernel_block"), 1, kInt64Max);
        s.order = optionalField(r, "order", s.order, patchOrderAt);
        s.loop = optionalField(r, "loop", s.loop, kernelLoopAt);
    }
    return s;
}

std::vector<StrategySpec> readStrategies(const Json &v, const std::string &path)
{
    std::vector<StrategySpec> strategies;
    std::map<std::string, std::size_t> firstIndex; // name -> index of its first use
    for (std::size_t i = 0; i < arrayAt(v, path).size(); ++i) {
        const std::string strategyPath = itemPath(path, i);
        StrategySpec s = readStrategy(v[i], strategyPath);
        const auto [it, fresh] = firstIndex.emplace(s.name, i);
        if (!fresh)
            throw FormatError(childPath(strategyPath, "name"),
                "duplicate name " + jsonQuoted(s.name) + " (already used by " + itemPath(path, it->second) + ")");
        strategies.push_back(std::move(s));
    }
    return strategies;
}

/// Layer::problems() and Hardware::problems() say "field: reason"; the field
/// becomes part of the key path.
void throwFirstProblem(const std::vector<std::string> &problems, const std::string &section)
{
    if (problems.empty())
        return;
    const std::string &message = problems.front();
    const std::size_t colon = message.find(": ");
    const std::string field = colon == std::string::npos ? std::string() : message.substr(0, colon);
    const bool named = !field.empty() && field.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
    if (!named)
        throw FormatError(section, message);
    throw FormatError(childPath(section, field), message.substr(colon + 2));
}

std::string patchOutOfRange(PatchId patch, std::int64_t patches)
{
    return "patch " + std::to_string(patch) + " is out of range (the layer has " + std::to_string(patches) + " patches, ids 0.."
        + std::to_string(patches - 1) + ")";
}

/// Patch and kernel ids, and block sizes, can only be checked once the layer
/// is known to be sound.
void checkStrategyRanges(const Layer &layer, const std::vector<StrategySpec> &strategies, const std::string &strategiesPath)
{
    const std::int64_t patches = layer.patchCount();
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        const StrategySpec &spec = strategies[i];
        const std::string path = itemPath(strategiesPath, i);
        const Groups &groups = spec.groups;
        for (std::size_t g = 0; g < groups.size(); ++g)
            for (std::size_t k = 0; k < groups[g].size(); ++k)
                if (groups[g][k] >= patches)
                    throw FormatError(
                        itemPath(itemPath(childPath(path, "groups"), g), k), patchOutOfRange(groups[g][k], patches));
        for (std::size_t s = 0; s < spec.steps.size(); ++s) {
            const std::string stepPath = itemPath(childPath(path, "steps"), s);
            const ComputeStep &step = spec.steps[s];
            for (std::size_t k = 0; k < step.patches.size(); ++k)
                if (step.patches[k] >= patches)
                    throw FormatError(itemPath(childPath(stepPath, "patches"), k), patchOutOfRange(step.patches[k], patches));
            for (std::size_t k = 0; k < step.kernels.size(); ++k)
                if (std::int64_t(step.kernels[k]) >= layer.n)
                    throw FormatError(itemPath(childPath(stepPath, "kernels"), k),
                        "kernel " + std::to_string(step.kernels[k]) + " out of range (n = " + std::to_string(layer.n) + ")");
        }
        if (spec.kernel_block && *spec.kernel_block > layer.n)
            throw FormatError(childPath(path, "kernel_block"),
                "must be between 1 and n = " + std::to_string(layer.n) + " (the layer's kernels), got "
                    + std::to_string(*spec.kernel_block));
    }
}

// ---------------------------------------------------------------- writing

Json optionsJson(const Options &o)
{
    return Json{{"kernels_preloaded", o.kernels_preloaded}, {"write_policy", writePolicyName(o.write_policy)},
        {"padding_in_dram", o.padding_in_dram}};
}

Json dataJson(const DataSpec &d)
{
    Json j = Json::object();
    j["seed"] = d.seed;
    if (!d.file.empty()) // an empty file name means "no file"; omit it
        j["file"] = d.file;
    return j;
}

Json strategyJson(const StrategySpec &s)
{
    Json j = Json::object();
    j["name"] = s.name;
    j["kind"] = strategyKindName(s.kind);
    if (s.group_size) // absent means nb_patches_max
        j["group_size"] = *s.group_size;
    if (s.kind == StrategyKind::Groups)
        j["groups"] = s.groups;
    if (s.kind == StrategyKind::Steps) {
        Json steps = Json::array();
        for (const ComputeStep &step : s.steps)
            steps.push_back(Json{{"patches", step.patches}, {"kernels", step.kernels}});
        j["steps"] = steps;
    }
    if (s.kind == StrategyKind::KernelBlocked) {
        if (s.kernel_block) // absent means N
            j["kernel_block"] = *s.kernel_block;
        j["order"] = patchOrderName(s.order);
        j["loop"] = kernelLoopName(s.loop);
    }
    return j;
}

bool isFlat(const Json &array)
{
    return std::none_of(array.begin(), array.end(), [](const Json &e) { return e.is_structured(); });
}

/// An object of flat arrays only, such as a step {"patches": [...], "kernels": [...]}.
bool isObjectOfFlatArrays(const Json &v)
{
    return v.is_object() && std::all_of(v.begin(), v.end(), [](const Json &e) { return e.is_array() && isFlat(e); });
}

// Like dump(2), except that arrays of plain values stay on one line (a group
// reads "[0, 1]" instead of taking one line per patch), and so do objects
// holding only such arrays (a step reads {"patches": [0, 1], "kernels": [0]}).
void writePretty(const Json &v, int indent, std::string &out)
{
    const auto scalar = [](const Json &e) { return e.dump(-1, ' ', false, Json::error_handler_t::replace); };
    if (!v.is_structured() || v.empty()) {
        out += scalar(v);
    } else if (v.is_array() && isFlat(v)) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i)
            out += (i ? ", " : "") + scalar(v[i]);
        out += ']';
    } else if (isObjectOfFlatArrays(v)) {
        out += '{';
        std::size_t i = 0;
        for (const auto &member : v.items()) {
            out += (i++ ? ", " : "") + jsonQuoted(member.key()) + ": ";
            writePretty(member.value(), indent, out);
        }
        out += '}';
    } else {
        const std::string inner(std::size_t(indent) + 2, ' ');
        out += v.is_object() ? "{\n" : "[\n";
        std::size_t i = 0;
        for (const auto &member : v.items()) {
            out += inner;
            if (v.is_object())
                out += jsonQuoted(member.key()) + ": ";
            writePretty(member.value(), indent + 2, out);
            out += ++i < v.size() ? ",\n" : "\n";
        }
        out += std::string(std::size_t(indent), ' ') + (v.is_object() ? "}" : "]");
    }
}

// ---------------------------------------------------------------- tensors

/// Reads a nested array of the given shape into `out`, row-major.
void readTensor(const Json &v, const std::string &path, std::span<const int> shape, std::vector<std::int32_t> &out)
{
    if (shape.empty()) {
        out.push_back(std::int32_t(integerAt(v, path, INT32_MIN, INT32_MAX)));
        return;
    }
    const std::size_t expected = std::size_t(shape.front());
    if (!v.is_array())
        throw FormatError(displayPath(path), "expected an array of " + std::to_string(expected) + " values, got " + typeName(v));
    if (v.size() != expected)
        throw FormatError(displayPath(path), "expected " + std::to_string(expected) + " values, got " + std::to_string(v.size()));
    for (std::size_t i = 0; i < expected; ++i)
        readTensor(v[i], itemPath(path, i), shape.subspan(1), out);
}

/// Rethrows a FormatError with the file path in front of its location.
template <typename F> auto withPath(const std::string &path, F &&f)
{
    try {
        return f();
    } catch (const FormatError &e) {
        throw FormatError(e.where.empty() ? path : path + ": " + e.where, e.reason);
    }
}

} // namespace

// ---------------------------------------------------------------- public API

namespace {

Project readProject(const Json &root)
{
    const ObjectReader r(root, "", {"format", "version", "layer", "hardware", "options", "data", "strategies"});
    Project p;
    p.problem.layer = readLayer(r.require("layer"), "layer");
    p.problem.hardware = readHardware(r.require("hardware"), "hardware");
    if (const Json *options = r.find("options"))
        p.problem.options = readOptions(*options, "options");
    if (const Json *data = r.find("data"))
        p.data = readData(*data, "data");
    if (const Json *strategies = r.find("strategies"))
        p.strategies = readStrategies(*strategies, "strategies");
    throwFirstProblem(p.problem.layer.problems(), "layer");
    throwFirstProblem(p.problem.hardware.problems(), "hardware");
    checkStrategyRanges(p.problem.layer, p.strategies, "strategies");
    return p;
}

} // namespace

Project projectFromJson(const std::string &text)
{
    const Json root = parseJson(text);
    if (!root.is_object())
        throw FormatError(displayPath(""), "expected an object, got " + typeName(root));
    if (checkFormatTag(root) == kNetworkFormatVersion)
        throw FormatError(
            "version", "this is a network project (version 2): run `convoffload-cli network` on it, or open one of its layers");
    return readProject(root);
}

std::string projectToJson(const Project &p)
{
    Json strategies = Json::array();
    for (const StrategySpec &s : p.strategies)
        strategies.push_back(strategyJson(s));
    const Json root{{"format", std::string(kFormatTag)}, {"version", kFormatVersion},
        {"layer", layerToJsonValue(p.problem.layer)}, {"hardware", hardwareToJsonValue(p.problem.hardware)},
        {"options", optionsJson(p.problem.options)}, {"data", dataJson(p.data)}, {"strategies", strategies}};
    std::string out;
    writePretty(root, 0, out);
    out += '\n';
    return out;
}

Project loadProject(const std::string &path)
{
    const std::string text = readTextFile(path);
    return withPath(path, [&] { return projectFromJson(text); });
}

void saveProject(const Project &project, const std::string &path) { writeTextFileAtomically(path, projectToJson(project)); }

TensorData tensorDataFromJson(const Layer &layer, const std::string &text)
{
    const Json root = parseJson(text);
    const ObjectReader r(root, "", {"input", "kernels"});
    const int inputShape[] = {layer.c_in, layer.h_in, layer.w_in};
    const int kernelShape[] = {layer.n, layer.c_in, layer.h_k, layer.w_k};
    TensorData data;
    readTensor(r.require("input"), "input", inputShape, data.input);
    readTensor(r.require("kernels"), "kernels", kernelShape, data.kernels);
    return data;
}

TensorData loadTensorData(const Layer &layer, const std::string &path)
{
    const std::string text = readTextFile(path, kMaxTensorFileBytes);
    return withPath(path, [&] { return tensorDataFromJson(layer, text); });
}

std::string resolveDataFile(const std::string &projectPath, const DataSpec &data)
{
    if (data.file.empty())
        return {};
    const std::filesystem::path file(data.file);
    if (file.is_absolute())
        return file.string();
    return (std::filesystem::path(projectPath).parent_path() / file).string();
}

// ---------------------------------------------------------------- networks

namespace {

SkippedConv readSkipped(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path, {"node", "reason"});
    return SkippedConv{requiredField(r, "node", stringAt), requiredField(r, "reason", stringAt)};
}

NetworkLayer readNetworkLayer(const Json &v, const std::string &path)
{
    const ObjectReader r(v, path, {"name", "layer", "data", "strategies"});
    NetworkLayer l;
    l.name = requiredField(r, "name", stringAt);
    if (l.name.empty())
        throw FormatError(r.pathOf("name"), "must not be empty");
    l.layer = readLayer(r.require("layer"), r.pathOf("layer"));
    if (const Json *data = r.find("data"))
        l.data = readData(*data, r.pathOf("data"));
    if (const Json *strategies = r.find("strategies"))
        l.strategies = readStrategies(*strategies, r.pathOf("strategies"));
    throwFirstProblem(l.layer.problems(), r.pathOf("layer"));
    checkStrategyRanges(l.layer, l.strategies, r.pathOf("strategies"));
    return l;
}

Network readNetwork(const Json &root)
{
    const ObjectReader r(root, "", {"format", "version", "name", "source", "hardware", "options", "layers", "skipped"});
    Network n;
    n.name = optionalField(r, "name", std::string(), stringAt);
    n.source = optionalField(r, "source", std::string(), stringAt);
    n.hardware = readHardware(r.require("hardware"), "hardware");
    throwFirstProblem(n.hardware.problems(), "hardware");
    if (const Json *options = r.find("options"))
        n.options = readOptions(*options, "options");
    const Json &layers = arrayAt(r.require("layers"), "layers");
    if (layers.empty())
        throw FormatError("layers", "a network needs at least one layer");
    std::map<std::string, std::size_t> firstIndex; // name -> index of its first use
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string layerPath = itemPath("layers", i);
        NetworkLayer l = readNetworkLayer(layers[i], layerPath);
        const auto [it, fresh] = firstIndex.emplace(l.name, i);
        if (!fresh)
            throw FormatError(childPath(layerPath, "name"),
                "duplicate name " + jsonQuoted(l.name) + " (already used by " + itemPath("layers", it->second) + ")");
        n.layers.push_back(std::move(l));
    }
    if (const Json *skipped = r.find("skipped"))
        for (std::size_t i = 0; i < arrayAt(*skipped, "skipped").size(); ++i)
            n.skipped.push_back(readSkipped((*skipped)[i], itemPath("skipped", i)));
    return n;
}

} // namespace

namespace {

/// `singleLayer` tells whether the text was a version-1 project.
Network networkFromText(const std::string &text, bool &singleLayer)
{
    const Json root = parseJson(text);
    if (!root.is_object())
        throw FormatError(displayPath(""), "expected an object, got " + typeName(root));
    singleLayer = checkFormatTag(root) == kFormatVersion;
    return singleLayer ? networkOfProject(readProject(root), "layer") : readNetwork(root);
}

} // namespace

Network networkFromJson(const std::string &text)
{
    bool singleLayer = false;
    return networkFromText(text, singleLayer);
}

std::string networkToJson(const Network &n)
{
    Json layers = Json::array();
    for (const NetworkLayer &l : n.layers) {
        Json strategies = Json::array();
        for (const StrategySpec &s : l.strategies)
            strategies.push_back(strategyJson(s));
        layers.push_back(
            Json{{"name", l.name}, {"layer", layerToJsonValue(l.layer)}, {"data", dataJson(l.data)}, {"strategies", strategies}});
    }
    Json skipped = Json::array();
    for (const SkippedConv &s : n.skipped)
        skipped.push_back(Json{{"node", s.node}, {"reason", s.reason}});
    Json root{{"format", std::string(kFormatTag)}, {"version", kNetworkFormatVersion}};
    if (!n.name.empty())
        root["name"] = n.name;
    if (!n.source.empty())
        root["source"] = n.source;
    root["hardware"] = hardwareToJsonValue(n.hardware);
    root["options"] = optionsJson(n.options);
    root["layers"] = layers;
    root["skipped"] = skipped;
    std::string out;
    writePretty(root, 0, out);
    out += '\n';
    return out;
}

Network loadNetwork(const std::string &path)
{
    const std::string text = readTextFile(path);
    bool singleLayer = false;
    Network n = withPath(path, [&] { return networkFromText(text, singleLayer); });
    if (singleLayer) // its one layer is named after the file
        n.layers.front().name = std::filesystem::path(path).stem().string();
    return n;
}

bool isNetworkProjectFile(const std::string &path)
{
    try {
        const Json root = parseJson(readTextFile(path));
        return root.is_object() && checkFormatTag(root) == kNetworkFormatVersion;
    } catch (const std::exception &) {
        return false;
    }
}

void saveNetwork(const Network &network, const std::string &path) { writeTextFileAtomically(path, networkToJson(network)); }

Accelerator acceleratorFromJson(const std::string &text)
{
    const Json root = parseJson(text);
    if (root.is_object() && root.contains("format")) {
        const Network n = networkFromJson(text);
        return Accelerator{n.hardware, n.options};
    }
    const ObjectReader r(root, "", {"hardware", "options"});
    Accelerator a;
    a.hardware = readHardware(r.require("hardware"), "hardware");
    throwFirstProblem(a.hardware.problems(), "hardware");
    if (const Json *options = r.find("options"))
        a.options = readOptions(*options, "options");
    return a;
}

Accelerator loadAccelerator(const std::string &path)
{
    const std::string text = readTextFile(path);
    return withPath(path, [&] { return acceleratorFromJson(text); });
}

} // namespace convoffload
