// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// `import-onnx` (docs/reference/cli.md#import-onnx): in the full program only,
// which links ONNX and protobuf; the front convoffload-cli hands it over
// (CliForward.h).
#include "CliNetwork.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/onnx/OnnxNetwork.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <limits>

namespace convoffload::cli {

namespace {

QString opt(const char *name) { return QString::fromLatin1(name); }

double parseNumber(const QCommandLineParser &parser, const QString &option)
{
    bool ok = false;
    const double value = parser.value(option).toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < 0)
        throw UsageError("--" + str(option) + ": expected a number ≥ 0, got '" + str(parser.value(option)) + "'");
    return value;
}

/// --hardware FILE, then the flags on top of it (or of the defaults).
Accelerator acceleratorFrom(const QCommandLineParser &parser)
{
    const bool file = parser.isSet(opt("hardware"));
    if (!file && !(parser.isSet(opt("mem-size")) && parser.isSet(opt("nbop-pe"))))
        throw UsageError("import-onnx needs the hardware: --hardware HW.json (e.g. samples/networks/lenet5-hardware.json) or at "
                         "least --mem-size N and --nbop-pe N");
    Accelerator a = file ? loadAccelerator(str(parser.value(opt("hardware")))) : Accelerator{};
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (parser.isSet(opt("mem-size")))
        a.hardware.mem_size = parseInteger(parser, opt("mem-size"), 1, kMax);
    if (parser.isSet(opt("nbop-pe")))
        a.hardware.nbop_pe = parseInteger(parser, opt("nbop-pe"), 1, kMax);
    if (parser.isSet(opt("dram-size")))
        a.hardware.dram_size = parseInteger(parser, opt("dram-size"), 1, kMax);
    if (parser.isSet(opt("max-loads")))
        a.hardware.max_loads_per_element = int(parseInteger(parser, opt("max-loads"), 1, std::numeric_limits<int>::max()));
    if (parser.isSet(opt("t-l")))
        a.hardware.t_l = parseNumber(parser, opt("t-l"));
    if (parser.isSet(opt("t-w")))
        a.hardware.t_w = parseNumber(parser, opt("t-w"));
    if (parser.isSet(opt("t-acc")))
        a.hardware.t_acc = parseNumber(parser, opt("t-acc"));
    if (const std::vector<std::string> problems = a.hardware.problems(); !problems.empty())
        throw UsageError("hardware: " + problems.front());
    return a;
}

bool withStrategies(const QCommandLineParser &parser)
{
    const QString value = parser.value(opt("strategies"));
    if (value != QLatin1String("default") && value != QLatin1String("none"))
        throw UsageError("--strategies: expected default or none, got '" + str(value) + "'");
    return value == QLatin1String("default");
}

/// --input-shape NAME=D1,D2,… (repeatable): sizes ≥ 1 for every dimension
/// of a graph input; whether the model has that input is the import's check.
InputShapes inputShapes(const QCommandLineParser &parser)
{
    InputShapes shapes;
    for (const QString &value : parser.values(opt("input-shape"))) {
        const qsizetype equals = value.indexOf(QLatin1Char('='));
        const QString name = value.left(equals);
        const QStringList sizes = value.mid(equals + 1).split(QLatin1Char(','));
        std::vector<std::int64_t> dims;
        for (const QString &size : sizes) {
            bool ok = false;
            const qlonglong d = size.trimmed().toLongLong(&ok);
            if (!ok || d < 1 || d > std::numeric_limits<int>::max()) {
                dims.clear();
                break;
            }
            dims.push_back(d);
        }
        if (equals < 1 || dims.empty())
            throw UsageError("--input-shape: expected NAME=D1,D2,... (the graph input and its sizes, each ≥ 1, e.g. "
                             "images=1,3,640,640), got '"
                + str(value) + "'");
        shapes.emplace_back(str(name), dims);
    }
    return shapes;
}

std::string shape(const Layer &l)
{
    // Group and dilation only when not 1, so a dense layer's line is as before.
    char variant[64] = "";
    if (l.group != 1 && l.isDilated())
        std::snprintf(variant, sizeof variant, ", g=%d, d=%dx%d", l.group, l.dilation_h, l.dilation_w);
    else if (l.group != 1)
        std::snprintf(variant, sizeof variant, ", g=%d", l.group);
    else if (l.isDilated())
        std::snprintf(variant, sizeof variant, ", d=%dx%d", l.dilation_h, l.dilation_w);
    char text[224];
    std::snprintf(text, sizeof text, "%dx%dx%d, %d kernels %dx%d, stride %d,%d, pads %d %d %d %d%s -> %dx%d", l.c_in, l.h_in,
        l.w_in, l.n, l.h_k, l.w_k, l.stride_h, l.stride_w, l.pad_top, l.pad_bottom, l.pad_left, l.pad_right, variant, l.hOut(),
        l.wOut());
    return text;
}

/// The names are the model's (graph, nodes): escaped (printable), as the
/// import's reasons, notes and warnings already are.
std::string importSummary(const NetworkImport &imported, const Network &network, const std::string &out)
{
    std::string text = "Imported " + std::to_string(network.layers.size()) + " convolution layers"
        + (imported.graph_name.empty() ? std::string() : " of '" + printable(imported.graph_name) + "'") + ":\n";
    for (const NetworkLayer &l : network.layers)
        text += "  " + printable(l.name) + ": " + shape(l.layer) + " (" + std::to_string(l.strategies.size()) + " strategies)\n";
    text += "Skipped " + std::to_string(network.skipped.size()) + " convolutions" + (network.skipped.empty() ? "." : ":") + "\n";
    for (const SkippedConv &s : network.skipped)
        text += "  " + printable(s.node) + ": " + printable(s.reason) + "\n";
    for (const std::string &n : imported.notes)
        text += "Note: " + n + "\n";
    for (const std::string &w : imported.warnings)
        text += "Warning: " + w + "\n";
    text += "Wrote " + printable(out) + "\n";
    return text;
}

} // namespace

int importOnnxCommand(const QCommandLineParser &parser, const QString &modelPath)
{
    const QString out = parser.value(opt("out"));
    if (out.isEmpty())
        throw UsageError("import-onnx needs --out NETWORK.json");
    if (!QFileInfo(out).absoluteDir().exists())
        throw UsageError("--out: the folder of '" + str(out) + "' does not exist");
    const Accelerator accelerator = acceleratorFrom(parser);
    const bool strategies = withStrategies(parser);
    const InputShapes shapes = inputShapes(parser);
    NetworkImport imported;
    try {
        imported = importOnnx(str(modelPath), {}, shapes);
    } catch (const InputShapeError &e) {
        throw UsageError("--input-shape: " + std::string(e.what()));
    }
    const Network network = networkFromImport(imported, accelerator, strategies, str(QFileInfo(modelPath).fileName()));
    saveNetwork(network, str(out));
    print(importSummary(imported, network, str(out)));
    return 0;
}

} // namespace convoffload::cli
