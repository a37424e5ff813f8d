// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// The file formats (docs/reference/project-file.md, strategy-csv.md): the project JSON, the tensor data file and
// the strategy CSV. Every error case checks both where the error is located
// (key path or line) and why. Expected values use the paper's example layer
// (C_in 2, 5×5 input, two 3×3 kernels, stride 1 → 3×3 output = 9 patches,
// patch id = row·3 + col) and are worked out by hand.

#include "convoffload/io/ProjectFile.h"
#include "convoffload/io/StrategyCsv.h"

#include "TestPrinting.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <optional>
#include <string>

using namespace convoffload;

Q_DECLARE_METATYPE(convoffload::Groups)
Q_DECLARE_METATYPE(std::string)

namespace {

using Json = nlohmann::ordered_json;

const std::string kDataDir = CONVOFFLOAD_TEST_DATA;
const std::string kSharedDataDir = CONVOFFLOAD_SHARED_TEST_DATA;

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::string &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

Layer paperLayer() { return {2, 5, 5, 3, 3, 2, 1, 1, 0, 0, 0, 0}; }

/// tests/core/data/spec-example.json, the paper's Example as a project with every key written out, as a Project.
Project specExampleProject()
{
    Project p;
    p.problem.layer = paperLayer();
    p.problem.hardware = {200, 72, 1.0, 1.0, 1.0, 100000, 2};
    p.data.seed = 1;
    p.strategies = {
        {"Row-by-Row", StrategyKind::RowByRow, 2, {}},
        {"ZigZag", StrategyKind::ZigZag, 2, {}},
        {"Mine", StrategyKind::Groups, std::nullopt, {{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}}},
    };
    return p;
}

/// Every field differs from its default.
Project fullProject()
{
    Project p;
    // Padded 10×10; output ((10-3)/2+1) × ((10-2)/1+1) = 4×9 = 36 patches.
    p.problem.layer = {3, 7, 6, 3, 2, 4, 2, 1, 1, 2, 3, 1};
    p.problem.hardware = {5000, 720, 0.1, 0.25, 3.75, 123456789, 3};
    p.problem.options = {true, WritePolicy::AsLateAsPossible, false};
    p.data = {18446744073709551615ull, "data/tensors.json"};
    p.strategies = {
        {"Baseline", StrategyKind::S1Baseline, std::nullopt, {}},
        {"Row-by-Row 3", StrategyKind::RowByRow, 3, {}},
        {"ZigZag \"big\"", StrategyKind::ZigZag, 5000000000, {}},
        {"Mine — ünïcode", StrategyKind::Groups, std::nullopt, {{35, 0}, {1, 2, 3}, {4}}},
    };
    return p;
}

/// `base` with the value at a JSON pointer replaced by `value` (JSON text).
std::string with(const std::string &base, const char *pointer, const char *value)
{
    Json doc = Json::parse(base);
    doc[Json::json_pointer(pointer)] = Json::parse(value);
    return doc.dump();
}

/// `base` without the key or element at a JSON pointer.
std::string without(const std::string &base, const char *pointer)
{
    Json doc = Json::parse(base);
    const Json::json_pointer ptr(pointer);
    Json &parent = doc[ptr.parent_pointer()];
    if (parent.is_array())
        parent.erase(std::stoul(ptr.back()));
    else
        parent.erase(ptr.back());
    return doc.dump();
}

std::string specExample() { return readFile(kDataDir + "/spec-example.json"); }

/// input[c][r][w] = 100c + 10r + w, kernels[k][c][r][w] = -(1000k + 100c + 10r + w),
/// the same values as tests/support/data/tensors-paper.json.
std::string paperTensors()
{
    Json input = Json::array(), kernels = Json::array();
    for (int c = 0; c < 2; ++c) {
        Json channel = Json::array();
        for (int r = 0; r < 5; ++r) {
            Json row = Json::array();
            for (int w = 0; w < 5; ++w)
                row.push_back(100 * c + 10 * r + w);
            channel.push_back(row);
        }
        input.push_back(channel);
    }
    for (int k = 0; k < 2; ++k) {
        Json kernel = Json::array();
        for (int c = 0; c < 2; ++c) {
            Json channel = Json::array();
            for (int r = 0; r < 3; ++r) {
                Json row = Json::array();
                for (int w = 0; w < 3; ++w)
                    row.push_back(-(1000 * k + 100 * c + 10 * r + w));
                channel.push_back(row);
            }
            kernel.push_back(channel);
        }
        kernels.push_back(kernel);
    }
    return Json{{"input", input}, {"kernels", kernels}}.dump();
}

template <typename F> std::optional<FormatError> formatErrorOf(F &&f)
{
    try {
        f();
    } catch (const FormatError &e) {
        return e;
    }
    return std::nullopt;
}

void addErrorRow(const char *name, const std::string &text, const std::string &where, const std::string &reason)
{
    QTest::newRow(name) << text << where << reason;
}

QString qs(const std::string &s) { return QString::fromStdString(s); }

} // namespace

// Checks that `call` throws a FormatError at `where` whose reason contains `reason`.
#define VERIFY_FORMAT_ERROR(call, expectedWhere, expectedReason)                                                                 \
    do {                                                                                                                         \
        const auto error_ = formatErrorOf([&] { (void)(call); });                                                                \
        QVERIFY2(error_.has_value(), "no FormatError was thrown");                                                               \
        QCOMPARE(qs(error_->where), qs(expectedWhere));                                                                          \
        QVERIFY2(error_->reason.find(expectedReason) != std::string::npos, error_->what());                                      \
        QCOMPARE(qs(error_->what()), qs(error_->where + ": " + error_->reason));                                                 \
    } while (false)

class TestFiles : public QObject {
    Q_OBJECT

private slots:
    // ------------------------------------------------------------ project JSON

    void specExampleLoads()
    {
        const Project p = loadProject(kDataDir + "/spec-example.json");
        QVERIFY(p == specExampleProject());
        QCOMPARE(p.problem.layer.patchCount(), 9);
    }

    void roundTripText()
    {
        const Project p = fullProject();
        const std::string text = projectToJson(p);
        const Project back = projectFromJson(text);
        QCOMPARE(qs(projectToJson(back)), qs(text));
        QVERIFY(back == p);
    }

    void roundTripFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("project.json")).toStdString();
        saveProject(specExampleProject(), path);
        saveProject(fullProject(), path); // replaces the first one
        QVERIFY(loadProject(path) == fullProject());
        // The temporary file was renamed, not left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("project.json")});
    }

    void writtenLayout()
    {
        const std::string text = projectToJson(specExampleProject());
        // Keys in the reference's order, 2-space indent, a group on one line.
        QVERIFY2(text.starts_with("{\n  \"format\": \"convoffload-project\",\n  \"version\": 1,\n  \"layer\": {\n"
                                  "    \"c_in\": 2,\n"),
            text.c_str());
        QVERIFY2(text.find("      \"groups\": [\n        [0, 1],\n        [2, 5],\n") != std::string::npos, text.c_str());
        // Every key is explicit, even those at their default value...
        QVERIFY(text.find("\"pad_right\": 0") != std::string::npos);
        QVERIFY(text.find("\"write_policy\": \"next-step\"") != std::string::npos);
        // ...but an unset group size and an empty data file have no value to write.
        QVERIFY(text.find("\"file\"") == std::string::npos);
        QVERIFY(text.ends_with("}\n"));
    }

    // group and dilations are written only when they are not 1, so a dense
    // layer's file is unchanged; read back, they round-trip.
    void groupedLayerRoundTrip()
    {
        Project p = specExampleProject();
        QVERIFY(projectToJson(p).find("\"group\"") == std::string::npos);
        QVERIFY(projectToJson(p).find("dilation") == std::string::npos);
        p.problem.layer.group = 2;
        p.problem.layer.dilation_h = 2; // spans 5 rows: padded to 7, the 3 output rows the strategies name stay
        p.problem.layer.pad_top = p.problem.layer.pad_bottom = 1;
        const std::string text = projectToJson(p);
        QVERIFY2(text.find("\"group\": 2") != std::string::npos, text.c_str());
        QVERIFY2(text.find("\"dilation_h\": 2") != std::string::npos, text.c_str());
        QVERIFY2(text.find("dilation_w") == std::string::npos, text.c_str());
        const Project back = projectFromJson(text);
        QCOMPARE(back.problem.layer.group, 2);
        QCOMPARE(back.problem.layer.dilation_h, 2);
        QCOMPARE(back.problem.layer.dilation_w, 1);
        QVERIFY(back == p);
    }

    // The transfer model is written only when set, and round-trips.
    void transferRoundTrip()
    {
        Project p = specExampleProject();
        QVERIFY(projectToJson(p).find("transfer") == std::string::npos);
        p.problem.hardware.transfer = Transfer{Layout::Nhwc, 16, 40};
        const std::string text = projectToJson(p);
        QVERIFY2(text.find("\"transfer\": {") != std::string::npos, text.c_str());
        QVERIFY(projectFromJson(text) == p);
        // Keys left out take the linear model's values.
        const Project partial = projectFromJson(with(specExample(), "/hardware/transfer", R"({"burst": 8})"));
        QVERIFY(partial.problem.hardware.transfer == (Transfer{Layout::Nchw, 8, 0}));
    }

    void defaultsWhenOmitted()
    {
        const Project p = projectFromJson(R"({"format": "convoffload-project", "version": 1,
            "layer": {"c_in": 2, "h_in": 5, "w_in": 5, "h_k": 3, "w_k": 3, "n": 2},
            "hardware": {"mem_size": 200, "nbop_pe": 72},
            "options": {"padding_in_dram": false},
            "strategies": [{"name": "Z", "kind": "zigzag"}]})");
        QVERIFY(p.problem.layer == paperLayer()); // strides 1, paddings 0
        Hardware hardware;
        hardware.mem_size = 200;
        hardware.nbop_pe = 72;
        QVERIFY(p.problem.hardware == hardware);
        QCOMPARE(p.problem.options.kernels_preloaded, false);
        QVERIFY(p.problem.options.write_policy == WritePolicy::NextStep);
        QCOMPARE(p.problem.options.padding_in_dram, false);
        QVERIFY(p.data == DataSpec{});
        QCOMPARE(p.strategies.size(), 1u);
        QVERIFY(!p.strategies[0].group_size.has_value());
        QVERIFY(p.strategies[0].groups.empty());
    }

    void integralNumbersAreIntegers()
    {
        // Like JSON Schema: 5.0 and 1e3 have no fractional part, so they are integers.
        std::string text = with(specExample(), "/layer/h_in", "5.0");
        text = with(text, "/data/seed", "1e3");
        const Project p = projectFromJson(text);
        QCOMPARE(p.problem.layer.h_in, 5);
        QCOMPARE(p.data.seed, 1000u);
    }

    void projectErrors_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("where");
        QTest::addColumn<std::string>("reason");
        const std::string s = specExample();

        // Malformed JSON: the position is line and column (1-based, in bytes).
        // The position is the last character read: the end of the unexpected token.
        addErrorRow("json: missing comma", "{\n  \"format\": \"convoffload-project\"\n  \"version\": 1\n}", "line 3, column 11",
            "invalid JSON");
        addErrorRow("json: truncated", "{\"format\": ", "line 1, column 12", "invalid JSON");
        addErrorRow("json: empty", "", "line 1, column 1", "invalid JSON: the file is empty");
        addErrorRow("json: only white space", "\n  \n", "line 3, column 1", "invalid JSON: the file is empty");
        addErrorRow("json: binary (an ONNX model's first bytes)", std::string("\x08\x07\x12\x07pytorch", 11), "line 1, column 1",
            "a binary file, not JSON text (an ONNX model is imported as a network");
        addErrorRow("json: a control character late in the head", "{\n  \x01}", "line 2, column 3", "a binary file");
        addErrorRow("json: not an object", "[1, 2]", "top level", "expected an object, got array");
        addErrorRow("json: duplicate key", R"({"format": "convoffload-project", "version": 1, "layer": {"h_k": 3, "h_k": 2}})",
            "layer.h_k", "duplicate key 'h_k'");
        addErrorRow("json: duplicate key in an array",
            R"({"strategies": [{"name": "a"}, {"kind": "zigzag", "name": "a", "name": "b"}]})", "strategies[1].name",
            "duplicate key 'name'");

        // Format tag and version.
        addErrorRow("format: wrong", with(s, "/format", "\"other\""), "format", "must be \"convoffload-project\"");
        addErrorRow("format: missing", without(s, "/format"), "format", "missing required key");
        addErrorRow("format: not a string", with(s, "/format", "1"), "format", "expected a string, got number");
        addErrorRow("version: 3", with(s, "/version", "3"), "version", "unsupported version 3");
        addErrorRow("version: 2 is a network", with(s, "/version", "2"), "version", "this is a network project");
        addErrorRow("version: missing", without(s, "/version"), "version", "missing required key");
        addErrorRow("version: string", with(s, "/version", "\"1\""), "version", "expected an integer, got string");

        // Unknown keys.
        addErrorRow("unknown: top level", with(s, "/foo", "1"), "foo", "unknown key 'foo'");
        addErrorRow("unknown: layer", with(s, "/layer/kernel", "3"), "layer.kernel", "unknown key 'kernel'");
        addErrorRow("unknown: hardware", with(s, "/hardware/t_load", "1"), "hardware.t_load", "unknown key 't_load'");
        addErrorRow("unknown: options", with(s, "/options/fast", "true"), "options.fast", "unknown key 'fast'");
        addErrorRow("unknown: data", with(s, "/data/path", "\"x\""), "data.path", "unknown key 'path'");
        addErrorRow("unknown: strategy", with(s, "/strategies/1/size", "2"), "strategies[1].size", "unknown key 'size'");

        // Missing required keys.
        addErrorRow("missing: layer.h_k", without(s, "/layer/h_k"), "layer.h_k", "missing required key 'h_k'");
        addErrorRow("missing: layer", without(s, "/layer"), "layer", "missing required key 'layer'");
        addErrorRow("missing: hardware", without(s, "/hardware"), "hardware", "missing required key 'hardware'");
        addErrorRow("missing: nbop_pe", without(s, "/hardware/nbop_pe"), "hardware.nbop_pe", "missing required key 'nbop_pe'");
        addErrorRow(
            "missing: strategy name", without(s, "/strategies/0/name"), "strategies[0].name", "missing required key 'name'");
        addErrorRow("missing: strategy kind", without(s, "/strategies/1/kind"), "strategies[1].kind", "missing required key");

        // Wrong types.
        addErrorRow("type: c_in string", with(s, "/layer/c_in", "\"2\""), "layer.c_in", "expected an integer, got string");
        addErrorRow("type: n null", with(s, "/layer/n", "null"), "layer.n", "expected an integer, got null");
        addErrorRow("type: t_l string", with(s, "/hardware/t_l", "\"fast\""), "hardware.t_l", "expected a number, got string");
        addErrorRow(
            "type: t_acc boolean", with(s, "/hardware/t_acc", "true"), "hardware.t_acc", "expected a number, got boolean");
        addErrorRow("type: kernels_preloaded number", with(s, "/options/kernels_preloaded", "1"), "options.kernels_preloaded",
            "expected true or false, got number");
        addErrorRow("type: padding_in_dram string", with(s, "/options/padding_in_dram", "\"yes\""), "options.padding_in_dram",
            "expected true or false, got string");
        addErrorRow("type: write_policy number", with(s, "/options/write_policy", "1"), "options.write_policy",
            "expected a string, got number");
        addErrorRow("type: data.file number", with(s, "/data/file", "3"), "data.file", "expected a string, got number");
        addErrorRow("type: layer array", with(s, "/layer", "[2, 5]"), "layer", "expected an object, got array");
        addErrorRow("type: options string", with(s, "/options", "\"none\""), "options", "expected an object, got string");
        addErrorRow("type: strategies object", with(s, "/strategies", "{}"), "strategies", "expected an array, got object");
        addErrorRow(
            "type: strategy string", with(s, "/strategies/0", "\"zigzag\""), "strategies[0]", "expected an object, got string");
        addErrorRow("type: strategy name number", with(s, "/strategies/0/name", "7"), "strategies[0].name",
            "expected a string, got number");

        // Negative and zero sizes.
        addErrorRow("range: h_k -3", with(s, "/layer/h_k", "-3"), "layer.h_k", "must be an integer ≥ 1, got -3");
        addErrorRow("range: c_in 0", with(s, "/layer/c_in", "0"), "layer.c_in", "must be an integer ≥ 1, got 0");
        addErrorRow("range: stride_w 0", with(s, "/layer/stride_w", "0"), "layer.stride_w", "must be an integer ≥ 1, got 0");
        addErrorRow("range: pad_top -1", with(s, "/layer/pad_top", "-1"), "layer.pad_top", "must be an integer ≥ 0, got -1");
        addErrorRow(
            "range: mem_size 0", with(s, "/hardware/mem_size", "0"), "hardware.mem_size", "must be an integer ≥ 1, got 0");
        addErrorRow("range: nbop_pe -72", with(s, "/hardware/nbop_pe", "-72"), "hardware.nbop_pe", "≥ 1, got -72");
        addErrorRow("range: dram_size 0", with(s, "/hardware/dram_size", "0"), "hardware.dram_size", "≥ 1, got 0");
        addErrorRow("range: max_loads 0", with(s, "/hardware/max_loads_per_element", "0"), "hardware.max_loads_per_element",
            "≥ 1, got 0");
        addErrorRow("range: t_w -1", with(s, "/hardware/t_w", "-1"), "hardware.t_w", "must be a number ≥ 0, got -1");
        addErrorRow("range: seed -1", with(s, "/data/seed", "-1"), "data.seed", "must be an integer ≥ 0, got -1");
        addErrorRow("range: group_size 0", with(s, "/strategies/0/group_size", "0"), "strategies[0].group_size",
            "must be an integer ≥ 1, got 0");

        // Integers required: fractions, and values that do not fit.
        addErrorRow("integer: h_in 2.5", with(s, "/layer/h_in", "2.5"), "layer.h_in", "must be an integer, got 2.5");
        addErrorRow("integer: group_size 1.5", with(s, "/strategies/1/group_size", "1.5"), "strategies[1].group_size",
            "must be an integer, got 1.5");
        addErrorRow("integer: seed 0.5", with(s, "/data/seed", "0.5"), "data.seed", "must be an integer, got 0.5");
        addErrorRow("huge: w_in 1e30", with(s, "/layer/w_in", "1e30"), "layer.w_in", "is too large: got 1e+30");
        addErrorRow("huge: w_in 99999999999", with(s, "/layer/w_in", "99999999999"), "layer.w_in",
            "is too large: got 99999999999, the maximum is 2147483647");
        addErrorRow("huge: pad_left -99999999999", with(s, "/layer/pad_left", "-99999999999"), "layer.pad_left",
            "must be an integer ≥ 0, got -99999999999");
        addErrorRow("huge: mem_size 1e30", with(s, "/hardware/mem_size", "1e30"), "hardware.mem_size",
            "is too large: got 1e+30, the maximum is 9223372036854775807");
        addErrorRow(
            "huge: mem_size 2^64", with(s, "/hardware/mem_size", "18446744073709551616"), "hardware.mem_size", "is too large");
        addErrorRow("huge: t_l 1e999", "{\"format\": \"convoffload-project\", \"version\": 1, \"hardware\": {\"t_l\": 1e999}}",
            "hardware.t_l", "is too large");
        addErrorRow("huge: group id 1e999", R"({"strategies": [{}, {"groups": [[0], [1, -1e999]]}]})",
            "strategies[1].groups[1][1]", "is too large");
        addErrorRow("huge: seed 1e30", with(s, "/data/seed", "1e30"), "data.seed", "is too large");
        addErrorRow("huge: group id 99999999999", with(s, "/strategies/2/groups/0/0", "99999999999"),
            "strategies[2].groups[0][0]", "is too large");

        // Layer::problems and Hardware::problems, located by field.
        addErrorRow(
            "layer: kernel taller than input", with(s, "/layer/h_k", "7"), "layer.h_k", "exceeds the padded input height 5");
        addErrorRow("layer: kernel wider than padded input", with(with(s, "/layer/w_k", "8"), "/layer/pad_left", "2"),
            "layer.w_k", "exceeds the padded input width 7");
        addErrorRow("layer: input too large", with(s, "/layer/h_in", "2000000"), "layer.h_in", "too large");
        // The transfer model (docs/reference/model.md#transfer-cost).
        addErrorRow("transfer: unknown layout", with(s, "/hardware/transfer", R"({"layout": "nwhc"})"),
            "hardware.transfer.layout", "must be \"nchw\" or \"nhwc\", got \"nwhc\"");
        addErrorRow(
            "transfer: burst 0", with(s, "/hardware/transfer", R"({"burst": 0})"), "hardware.transfer.burst", "≥ 1, got 0");
        addErrorRow("transfer: negative set-up", with(s, "/hardware/transfer", R"({"t_setup": -5})"), "hardware.transfer.t_setup",
            "must be a number ≥ 0, got -5");
        addErrorRow("transfer: unknown key", with(s, "/hardware/transfer", R"({"bursts": 4})"), "hardware.transfer.bursts",
            "unknown key 'bursts'");
        addErrorRow("transfer: not an object", with(s, "/hardware/transfer", "16"), "hardware.transfer",
            "expected an object, got number");
        // Grouped and dilated layers (the example has c_in = n = 2, 5×5, 3×3 kernels).
        addErrorRow("range: group 0", with(s, "/layer/group", "0"), "layer.group", "must be an integer ≥ 1, got 0");
        addErrorRow(
            "range: dilation_h -1", with(s, "/layer/dilation_h", "-1"), "layer.dilation_h", "must be an integer ≥ 1, got -1");
        addErrorRow("type: dilation_w string", with(s, "/layer/dilation_w", "\"2\""), "layer.dilation_w",
            "expected an integer, got string");
        addErrorRow("layer: group not dividing c_in", with(s, "/layer/group", "3"), "layer.group", "3 does not divide c_in = 2");
        addErrorRow("layer: group not dividing n", with(with(s, "/layer/group", "2"), "/layer/n", "3"), "layer.group",
            "2 does not divide n = 3");
        addErrorRow("layer: dilated kernel wider than the input", with(s, "/layer/dilation_w", "3"), "layer.dilation_w",
            "spans 7 columns");

        // Options and strategies.
        addErrorRow("write_policy: unknown", with(s, "/options/write_policy", "\"later\""), "options.write_policy",
            "must be \"next-step\" or \"as-late-as-possible\", got \"later\"");
        addErrorRow("strategy: duplicate name", with(s, "/strategies/2/name", "\"Row-by-Row\""), "strategies[2].name",
            "duplicate name \"Row-by-Row\" (already used by strategies[0])");
        addErrorRow("strategy: empty name", with(s, "/strategies/1/name", "\"\""), "strategies[1].name", "must not be empty");
        addErrorRow("strategy: unknown kind", with(s, "/strategies/1/kind", "\"snake\""), "strategies[1].kind",
            "unknown strategy kind \"snake\"");
        addErrorRow("strategy: group_size on groups", with(s, "/strategies/2/group_size", "2"), "strategies[2].group_size",
            "not allowed for kind \"groups\"");
        addErrorRow(
            "strategy: groups missing", without(s, "/strategies/2/groups"), "strategies[2].groups", "missing required key");
        addErrorRow("strategy: groups on zigzag", with(s, "/strategies/1/groups", "[[0]]"), "strategies[1].groups",
            "only allowed for kind \"groups\"");
        addErrorRow("groups: not an array", with(s, "/strategies/2/groups", "\"0,1\""), "strategies[2].groups",
            "expected an array, got string");
        addErrorRow("groups: group not an array", with(s, "/strategies/2/groups/1", "3"), "strategies[2].groups[1]",
            "expected an array, got number");
        addErrorRow("groups: empty group", with(s, "/strategies/2/groups/1", "[]"), "strategies[2].groups[1]", "cannot be empty");
        addErrorRow("groups: negative id", with(s, "/strategies/2/groups/1/0", "-1"), "strategies[2].groups[1][0]",
            "must be an integer ≥ 0, got -1");
        addErrorRow("groups: id out of range", with(s, "/strategies/2/groups/4/0", "9"), "strategies[2].groups[4][0]",
            "patch 9 is out of range (the layer has 9 patches, ids 0..8)");
        addErrorRow("groups: id string", with(s, "/strategies/2/groups/3/1", "\"7\""), "strategies[2].groups[3][1]",
            "expected an integer, got string");
    }

    void projectErrors()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, where);
        QFETCH(std::string, reason);
        VERIFY_FORMAT_ERROR(projectFromJson(text), where, reason);
    }

    void loadErrorsNameTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
        writeFile(path, with(specExample(), "/layer/h_k", "-3"));
        VERIFY_FORMAT_ERROR(loadProject(path), path + ": layer.h_k", "must be an integer ≥ 1, got -3");

        writeFile(path, "{\n  \"format\": }");
        VERIFY_FORMAT_ERROR(loadProject(path), path + ": line 2, column 13", "invalid JSON");

        const std::string missing = dir.filePath(QStringLiteral("missing.json")).toStdString();
        VERIFY_FORMAT_ERROR(loadProject(missing), missing, "cannot open: No such file or directory");
        VERIFY_FORMAT_ERROR(loadProject(dir.path().toStdString()), dir.path().toStdString(), "cannot");
    }

    void saveFailures()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string noFolder = dir.filePath(QStringLiteral("no-such-folder/p.json")).toStdString();
        VERIFY_FORMAT_ERROR(saveProject(fullProject(), noFolder), noFolder, "cannot create a temporary file");

        // A folder is refused before a temporary file is made: the error
        // names the target and nothing is left beside it.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
        const std::string folder = dir.filePath(QStringLiteral("folder")).toStdString();
        VERIFY_FORMAT_ERROR(saveProject(fullProject(), folder), folder, "cannot replace it: it is a directory");
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{QStringLiteral("folder")});
    }

    void findStrategy()
    {
        const Project p = specExampleProject();
        QVERIFY(p.findStrategy("ZigZag") == &p.strategies[1]);
        QVERIFY(p.findStrategy("zigzag") == nullptr); // names are case-sensitive
        QVERIFY(p.findStrategy("") == nullptr);
    }

    void resolveDataFile_data()
    {
        QTest::addColumn<std::string>("project");
        QTest::addColumn<std::string>("file");
        QTest::addColumn<std::string>("resolved");
        QTest::newRow("no file") << std::string("/p/a.json") << std::string() << std::string();
        QTest::newRow("relative") << std::string("/p/a.json") << std::string("d/t.json") << std::string("/p/d/t.json");
        QTest::newRow("absolute") << std::string("/p/a.json") << std::string("/q/t.json") << std::string("/q/t.json");
        QTest::newRow("project in cwd") << std::string("a.json") << std::string("t.json") << std::string("t.json");
    }

    void resolveDataFile()
    {
        QFETCH(std::string, project);
        QFETCH(std::string, file);
        QFETCH(std::string, resolved);
        DataSpec data;
        data.file = file;
        QCOMPARE(qs(convoffload::resolveDataFile(project, data)), qs(resolved));
    }

    // ------------------------------------------------------------ tensor data

    void tensorFile()
    {
        const TensorData data = loadTensorData(paperLayer(), kSharedDataDir + "/tensors-paper.json");
        QCOMPARE(data.input.size(), 50u); // 2·5·5
        QCOMPARE(data.kernels.size(), 36u); // 2·2·3·3
        // input[c][r][w] at (c·5 + r)·5 + w holds 100c + 10r + w.
        QCOMPARE(data.input[0], 0);
        QCOMPARE(data.input[(1 * 5 + 3) * 5 + 4], 134);
        // kernels[k][c][r][w] at ((k·2 + c)·3 + r)·3 + w holds -(1000k + 100c + 10r + w).
        QCOMPARE(data.kernels[((1 * 2 + 0) * 3 + 2) * 3 + 1], -1021);
        QCOMPARE(data.kernels[35], -1122);
        QVERIFY(tensorDataFromJson(paperLayer(), paperTensors()) == data);
    }

    void tensorErrors_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("where");
        QTest::addColumn<std::string>("reason");
        const std::string t = paperTensors();
        addErrorRow("short row", with(t, "/input/1/3", "[1, 2, 3, 4]"), "input[1][3]", "expected 5 values, got 4");
        addErrorRow("missing channel", without(t, "/input/1"), "input", "expected 2 values, got 1");
        addErrorRow("missing kernel", without(t, "/kernels/1"), "kernels", "expected 2 values, got 1");
        addErrorRow("long kernel row", with(t, "/kernels/0/1/2", "[1, 2, 3, 4]"), "kernels[0][1][2]", "expected 3 values, got 4");
        addErrorRow("number for a row", with(t, "/input/0/2", "7"), "input[0][2]", "expected an array of 5 values, got number");
        addErrorRow("fraction", with(t, "/input/0/0/0", "1.5"), "input[0][0][0]", "must be an integer, got 1.5");
        addErrorRow("string", with(t, "/input/1/4/4", "\"a\""), "input[1][4][4]", "expected an integer, got string");
        addErrorRow("above int32", with(t, "/kernels/1/1/1/1", "2147483648"), "kernels[1][1][1][1]",
            "is too large: got 2147483648, the maximum is 2147483647");
        addErrorRow("below int32", with(t, "/kernels/1/1/1/1", "-2147483649"), "kernels[1][1][1][1]",
            "must be an integer ≥ -2147483648, got -2147483649");
        addErrorRow("missing kernels", without(t, "/kernels"), "kernels", "missing required key");
        addErrorRow("unknown key", with(t, "/bias", "[]"), "bias", "unknown key 'bias'");
        addErrorRow("not an object", "[]", "top level", "expected an object, got array");
        addErrorRow("malformed", "{", "line 1, column 2", "invalid JSON");
    }

    void tensorErrors()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, where);
        QFETCH(std::string, reason);
        VERIFY_FORMAT_ERROR(tensorDataFromJson(paperLayer(), text), where, reason);
    }

    void tensorFileErrorNamesTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("t.json")).toStdString();
        writeFile(path, with(paperTensors(), "/input/1/3", "[1, 2, 3, 4]"));
        VERIFY_FORMAT_ERROR(loadTensorData(paperLayer(), path), path + ": input[1][3]", "expected 5 values, got 4");
    }

    // ------------------------------------------------------------ strategy CSV

    void csvImport_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<Groups>("groups");
        // The example's "Mine": [[0,1],[2,5],[4,3],[6,7],[8]]; patch = row·3 + col.
        const Groups mine{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}};
        const std::string patchGroup = "0,0\n1,0\n2,1\n5,1\n4,2\n3,2\n6,3\n7,3\n8,4\n";
        const std::string rowColGroup = "0,0,0\n0,1,0\n0,2,1\n1,2,1\n1,1,2\n1,0,2\n2,0,3\n2,1,3\n2,2,4\n";
        // Matrix lines are patches 0..8; the k-th column is group k.
        const std::string matrix = "1,0,0,0,0\n1,0,0,0,0\n0,1,0,0,0\n0,0,1,0,0\n0,0,1,0,0\n"
                                   "0,1,0,0,0\n0,0,0,1,0\n0,0,0,1,0\n0,0,0,0,1\n";
        // In a matrix the patches of a group come in patch order.
        const Groups mineByPatch{{0, 1}, {2, 5}, {3, 4}, {6, 7}, {8}};

        QTest::newRow("patch,group") << patchGroup << mine;
        QTest::newRow("patch,group header") << "patch,group\n" + patchGroup << mine;
        QTest::newRow("Patch,GROUP header") << "Patch,GROUP\n" + patchGroup << mine;
        QTest::newRow("row,col,group") << rowColGroup << mine;
        QTest::newRow("row,col,group header") << "row,col,group\n" + rowColGroup << mine;
        QTest::newRow("row,column,group header") << "row,column,group\n" + rowColGroup << mine;
        QTest::newRow("patch,row,col,group header") << std::string(
            "patch,row,col,group\n0,0,0,0\n1,0,1,0\n2,0,2,1\n5,1,2,1\n4,1,1,2\n3,1,0,2\n"
            "6,2,0,3\n7,2,1,3\n8,2,2,4\n") << mine;
        QTest::newRow("matrix") << matrix << mineByPatch;
        QTest::newRow("matrix header") << "g0,g1,g2,g3,g4\n" + matrix << mineByPatch;
        QTest::newRow("matrix header 2 groups")
            << std::string("a,b\n1,0\n1,0\n1,0\n0,1\n0,1\n0,1\n1,0\n1,0\n1,0\n") << Groups{{0, 1, 2, 6, 7, 8}, {3, 4, 5}};
        QTest::newRow("matrix 1 column") << std::string("1\n1\n1\n1\n1\n1\n1\n1\n1\n") << Groups{{0, 1, 2, 3, 4, 5, 6, 7, 8}};
        QTest::newRow("matrix unused column")
            << std::string("x;y;z\n0;0;1\n1;0;0\n0;0;1\n1;0;0\n0;0;1\n1;0;0\n0;0;1\n1;0;0\n0;0;1\n")
            << Groups{{1, 3, 5, 7}, {0, 2, 4, 6, 8}};
        QTest::newRow("semicolon header") << std::string("patch;group\n0;0\n1;0\n2;1\n5;1\n4;2\n3;2\n6;3\n7;3\n8;4") << mine;
        QTest::newRow("semicolon row,col,group")
            << std::string("0;0;0\n0;1;0\n0;2;1\n1;2;1\n1;1;2\n1;0;2\n2;0;3\n2;1;3\n2;2;4\n") << mine;
        QTest::newRow("CRLF, blanks, spaces") << std::string(
            "\r\npatch , group\r\n\r\n 0,0\r\n1 , 0\r\n\t2,1\r\n5,1\r\n\r\n4,2\r\n3,2\r\n6,3\r\n7,3\r\n8,4\r\n\r\n")
                                              << mine;
        QTest::newRow("quoted header") << std::string("\"patch\";\"group\"\n0;0\n1;0\n2;1\n5;1\n4;2\n3;2\n6;3\n7;3\n8;4\n")
                                       << mine;
        QTest::newRow("byte-order mark") << "\xEF\xBB\xBFpatch,group\n" + patchGroup << mine;
        QTest::newRow("plus sign") << std::string("+0,+0\n1,0\n2,1\n5,1\n4,2\n3,2\n6,3\n7,3\n8,4\n") << mine;
        // Groups sorted by index -2 < 7 < 100; patches keep their file order.
        QTest::newRow("group indices 7,-2,100")
            << std::string("4,-2\n0,7\n8,100\n3,-2\n1,7\n6,100\n5,-2\n2,7\n7,100\n") << Groups{{4, 3, 5}, {0, 1, 2}, {8, 6, 7}};
    }

    void csvImport()
    {
        QFETCH(std::string, text);
        QFETCH(Groups, groups);
        QCOMPARE(groupsFromCsv(paperLayer(), text), groups);
    }

    void csvErrors_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("where");
        QTest::addColumn<std::string>("reason");
        const std::string all = "0,0\n1,0\n2,0\n3,0\n4,0\n5,0\n6,0\n7,0\n8,0\n";
        addErrorRow("patch out of range", "patch,group\n0,0\n1,0\n12,0\n", "line 4",
            "patch 12 is out of range (the layer has 9 patches, ids 0..8)");
        addErrorRow("negative patch", "0,0\n-1,0\n", "line 2", "patch -1 is out of range");
        addErrorRow("row out of range", "0,0,0\n3,0,0\n", "line 2", "row 3 is out of range (the output has 3 rows, ids 0..2)");
        addErrorRow(
            "col out of range", "row,col,group\n0,5,1\n", "line 2", "col 5 is out of range (the output has 3 columns, ids 0..2)");
        addErrorRow("duplicate patch", "patch,group\n3,0\n0,0\n1,0\n3,1\n", "line 5", "patch 3 appears again (first on line 2)");
        addErrorRow("duplicate position", "1,0,0\n0,0,0\n1,0,1\n", "line 3", "patch 3 appears again (first on line 1)");
        addErrorRow("missing patch", "0,0\n1,0\n2,0\n3,0\n4,0\n5,0\n6,0\n8,0\n", "end of file", "patch 7 is missing");
        addErrorRow("missing patches", "0,0\n1,0\n2,0\n3,0\n4,0\n5,0\n6,0\n", "end of file",
            "patch 7 is missing (every patch must appear once; 2 missing: 7, 8)");
        addErrorRow("too few fields", "row,col,group\n0,0,0\n0,1\n", "line 3", "expected 3 fields, got 2");
        addErrorRow("too many fields", "0,0\n1,0,0\n", "line 2", "expected 2 fields, got 3");
        addErrorRow("not an integer", "patch,group\nx,0\n", "line 2", "field 1 is not an integer: 'x'");
        addErrorRow("group not an integer", "0,0\n1,a\n", "line 2", "field 2 is not an integer: 'a'");
        addErrorRow("fraction", "0,0\n1,1.0\n", "line 2", "field 2 is not an integer: '1.0'");
        addErrorRow("empty field", "0,0\n1,\n", "line 2", "field 2 is not an integer: ''");
        addErrorRow("huge value", "0,0\n1,99999999999999999999\n", "line 2", "field 2 is too large");
        addErrorRow("blank lines count", "patch,group\n\n0,0\n\nx,0\n", "line 5", "not an integer: 'x'");
        addErrorRow("inconsistent patch,row,col", "patch,row,col,group\n0,0,0,0\n4,0,2,0\n", "line 3",
            "patch 4 is not at row 0, col 2 (that position is patch 2)");
        addErrorRow("unknown header", "patch,grp\n0,0\n", "line 1", "unrecognised header 'patch,grp'");
        addErrorRow("empty text", "", "end of file", "no data");
        addErrorRow("blank text", "\n \r\n\t\n", "end of file", "no data");
        addErrorRow("header only", "patch,group\n", "end of file", "no data after the header");
        addErrorRow("matrix two 1s", "g0,g1,g2,g3\n1,0,0,0\n0,1,1,0\n", "line 3",
            "patch 1 has a 1 in columns 2 and 3: a patch belongs to exactly one group");
        addErrorRow("matrix no 1", "g0,g1,g2,g3\n0,0,0,0\n", "line 2", "patch 0 is in no group");
        addErrorRow("matrix value 2", "g0,g1,g2,g3\n2,0,0,0\n", "line 2", "value 2 in column 1 must be 0 or 1");
        addErrorRow("matrix field count", "1,0,0,0\n0,1,0\n", "line 2", "expected 4 fields (one per group), got 3");
        addErrorRow("matrix too many lines", "g\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n", "line 11",
            "one line too many: the layer has 9 patches");
        addErrorRow("matrix too few lines", "1,0,0,0\n1,0,0,0\n1,0,0,0\n1,0,0,0\n1,0,0,0\n1,0,0,0\n1,0,0,0\n1,0,0,0\n",
            "end of file", "patch 8 is missing");
        addErrorRow("duplicate after all", all + "4,1\n", "line 10", "patch 4 appears again (first on line 5)");
        // A first line of numbers is data, not a header: its wrong value is named.
        addErrorRow("fraction on the first line", "0.5,1\n", "line 1", "field 1 is not an integer: '0.5'");
        addErrorRow("23 digits on the first line", "12345678901234567890123,1\n", "line 1", "field 1 is too large");
        addErrorRow("exponent on the first line", "1e3,0\n", "line 1", "field 1 is not an integer: '1e3'");
        // Control characters in a value are shown escaped, never raw (a NUL
        // would cut the message short, an ESC drive the terminal).
        addErrorRow("NUL in a value", std::string("patch,group\n0,1\0\n", 17), "line 2", "field 2 is not an integer: '1\\0'");
        addErrorRow("ESC in a value", "patch,group\n0,\x1b[2J\n", "line 2", "field 2 is not an integer: '\\x1b[2J'");
    }

    void csvErrors()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, where);
        QFETCH(std::string, reason);
        VERIFY_FORMAT_ERROR(groupsFromCsv(paperLayer(), text), where, reason);
    }

    void csvExport()
    {
        const Groups mine{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}};
        QCOMPARE(qs(groupsToCsv(paperLayer(), mine)),
            QStringLiteral("patch,row,col,group\n"
                           "0,0,0,0\n1,0,1,0\n"
                           "2,0,2,1\n5,1,2,1\n"
                           "4,1,1,2\n3,1,0,2\n"
                           "6,2,0,3\n7,2,1,3\n"
                           "8,2,2,4\n"));
    }

    void csvRoundTrip_data()
    {
        QTest::addColumn<Groups>("groups");
        QTest::newRow("example Mine") << Groups{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}};
        QTest::newRow("one group") << Groups{{8, 7, 6, 5, 4, 3, 2, 1, 0}};
        QTest::newRow("singletons") << Groups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
        QTest::newRow("uneven") << Groups{{8, 0}, {4}, {1, 2, 3, 5, 6, 7}};
    }

    void csvRoundTrip()
    {
        QFETCH(Groups, groups);
        QCOMPARE(groupsFromCsv(paperLayer(), groupsToCsv(paperLayer(), groups)), groups);
    }

    void csvFiles()
    {
        // Semicolons, CRLF and a row,col,group header in a real file.
        const Groups mine{{0, 1}, {2, 5}, {4, 3}, {6, 7}, {8}};
        QCOMPARE(loadGroupsCsv(paperLayer(), kSharedDataDir + "/groups-mine.csv"), mine);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("plan.csv")).toStdString();
        saveGroupsCsv(paperLayer(), mine, path);
        QCOMPARE(loadGroupsCsv(paperLayer(), path), mine);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("plan.csv")});

        writeFile(path, "patch,group\n0,0\n1,0\n12,0\n");
        VERIFY_FORMAT_ERROR(loadGroupsCsv(paperLayer(), path), path + ": line 4", "patch 12 is out of range");
        writeFile(path, "0,0\n");
        VERIFY_FORMAT_ERROR(loadGroupsCsv(paperLayer(), path), path + ": end of file", "patch 1 is missing");
        const std::string missing = dir.filePath(QStringLiteral("missing.csv")).toStdString();
        VERIFY_FORMAT_ERROR(loadGroupsCsv(paperLayer(), missing), missing, "cannot open");
    }
};

QTEST_GUILESS_MAIN(TestFiles)
#include "tst_files.moc"
