// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "ShapeInferenceProcess.h"

#include "convoffload/io/ChildProcess.h"
#include "convoffload/io/FormatError.h"
#include "convoffload/io/HelperProgram.h"
#include "convoffload/io/TempDir.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/onnx/ShapeInferenceWorker.h"

#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#ifndef CONVOFFLOAD_WORKER_FROM_BIN
#define CONVOFFLOAD_WORKER_FROM_BIN "../libexec/convoffload"
#endif
#ifndef CONVOFFLOAD_ONNX_WORKER_BUILD_PATH
#define CONVOFFLOAD_ONNX_WORKER_BUILD_PATH ""
#endif

namespace fs = std::filesystem;

namespace convoffload {

namespace {

// Above this, a tensor's values go to the worker as dims only: shape
// inference reads the values of small integer tensors (shapes, axes, pads),
// never of weights, and a model of 1 GB would otherwise be written and read
// again in full.
constexpr std::size_t kMaxTensorBytesToWorker = 64 << 10;

/// The start of a line, quoted (appended piecewise: GCC 12's -Wrestrict
/// misreads "'" + line + "'").
std::string quoted(const std::string &line)
{
    std::string text = "'";
    text.append(line, 0, 80);
    text += '\'';
    return text;
}

/// What the worker said.
struct Answer {
    bool greeted = false;
    std::optional<int> node; // the main graph's node being inferred
    std::string inner; // the op of the subgraph's node being inferred, after `node`
    bool inferred = false;
    std::optional<std::string> failed;
    bool memory = false;
    bool complete = false;
    std::string error;
    std::string garbage;

    void read(const std::string &line)
    {
        if (!greeted) {
            if (line == kOnnxWorkerGreeting)
                greeted = true;
            else if (garbage.empty())
                garbage = quoted(line);
            return;
        }
        const auto rest = [&](const char *prefix) -> std::optional<std::string> {
            const std::size_t n = std::strlen(prefix);
            return line.compare(0, n, prefix) == 0 ? std::optional<std::string>(line.substr(n)) : std::nullopt;
        };
        if (const auto index = rest("node ")) {
            node = std::atoi(index->c_str());
            inner.clear();
        } else if (const auto op = rest("inner ")) {
            inner = *op;
        } else if (line == "inferred") {
            inferred = true;
        } else if (const auto message = rest("failed ")) {
            failed = *message;
        } else if (line == "memory") {
            memory = true;
        } else if (line == "end") {
            complete = true;
        } else if (const auto message = rest("error ")) {
            error = *message;
        } else if (garbage.empty()) {
            garbage = quoted(line);
        }
    }
};

/// The model as the worker gets it: every tensor, the large non-integer
/// ones without their values (kMaxTensorBytesToWorker).
std::string bytesForWorker(onnx::ModelProto &model)
{
    auto &initializers = *model.mutable_graph()->mutable_initializer();
    google::protobuf::RepeatedPtrField<onnx::TensorProto> originals;
    originals.Swap(&initializers);
    for (const onnx::TensorProto &t : originals) {
        onnx::TensorProto &copy = *initializers.Add();
        const bool integer = t.data_type() == onnx::TensorProto::INT64 || t.data_type() == onnx::TensorProto::INT32;
        if (integer || t.ByteSizeLong() <= kMaxTensorBytesToWorker) {
            copy = t;
            continue;
        }
        copy.set_name(t.name());
        copy.set_data_type(t.data_type());
        *copy.mutable_dims() = t.dims();
    }
    std::string bytes = model.SerializeAsString();
    initializers.Swap(&originals);
    return bytes;
}

std::string signalName(int signal)
{
    const char *abbrev = sigabbrev_np(signal);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

std::string seconds(double s)
{
    const double rounded = std::round(s * 10) / 10;
    std::string text = std::to_string(rounded);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
        text.pop_back();
    return text + " s";
}

/// Where the worker was: " at node 12 (Slice)", with the node's name when
/// it has one, or why that cannot be known.
std::string place(const onnx::ModelProto &model, const Answer &answer)
{
    if (answer.inferred)
        return " after its shape inference ended (no node can be named)";
    const auto &nodes = model.graph().node();
    if (!answer.node || *answer.node < 0 || *answer.node >= nodes.size())
        return answer.inner.empty() ? " before shape inference reached a node (no node can be named)"
                                    : " at a node of op " + answer.inner + " outside the main graph (its node cannot be named)";
    const onnx::NodeProto &node = nodes[*answer.node];
    const std::string name = node.name().empty() ? "" : " '" + node.name().substr(0, 80) + "'";
    std::string text = " at node " + std::to_string(*answer.node) + name + " (" + node.op_type().substr(0, 80) + ")";
    if (!answer.inner.empty())
        text += ", in a node of op " + answer.inner + " of its subgraph or function body";
    return text;
}

} // namespace

std::string defaultOnnxWorkerPath()
{
    return helperProgramPath(
        kOnnxWorkerName, "CONVOFFLOAD_ONNX_WORKER", CONVOFFLOAD_WORKER_FROM_BIN, CONVOFFLOAD_ONNX_WORKER_BUILD_PATH);
}

std::optional<std::string> inferShapesInWorker(
    onnx::ModelProto &model, const std::string &where, const ShapeInferenceLimits &limits)
{
    const TempDir dir({}, "convoffload-onnx-");
    if (dir.path().empty())
        throw FormatError(where, "cannot create a temporary directory for shape inference: " + dir.error());
    const fs::path in = dir.path() / "model.onnx", out = dir.path() / "inferred.onnx";
    {
        // A file of our private directory, read once by the worker: no
        // atomic replace and no fsync (writeTextFileAtomically is for the
        // user's files).
        std::ofstream file(in, std::ios::binary);
        const std::string bytes = bytesForWorker(model);
        if (!file.write(bytes.data(), std::streamsize(bytes.size())) || !file.flush())
            throw FormatError(where, "cannot write the model for shape inference to " + in.string());
    }

    const std::string worker = limits.worker.empty() ? defaultOnnxWorkerPath() : limits.worker;
    const auto cpu = static_cast<long long>(std::max(1.0, std::ceil(limits.cpu_seconds)));
    ChildProcess child;
    if (const std::string error = child.start(worker,
            {in.string(), out.string(), "--cpu-seconds", std::to_string(cpu), "--memory-bytes",
                std::to_string(limits.memory_bytes)});
        !error.empty())
        throw FormatError(where, "cannot start the ONNX shape inference worker '" + worker + "': " + error);

    Answer answer;
    bool timedOut = false, killed = false;
    const auto begin = std::chrono::steady_clock::now();
    while (child.poll(50, [&](const std::string &line) { answer.read(line); })) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        if (child.running() && !killed && (!answer.garbage.empty() || elapsed > limits.wall_seconds)) {
            timedOut = answer.garbage.empty();
            child.signal(SIGKILL);
            killed = true;
        }
    }

    const std::string stderrTail
        = child.stderrTail().substr(child.stderrTail().size() > 300 ? child.stderrTail().size() - 300 : 0);
    const std::string details = stderrTail.empty() ? "" : " (stderr: " + stderrTail + ")";
    if (!answer.garbage.empty())
        throw FormatError(
            where, "the ONNX shape inference worker '" + worker + "' printed " + answer.garbage + "; is it the right program?");
    const std::string at = place(model, answer);
    if (timedOut)
        throw FormatError(where,
            "the model is malformed" + at + ": shape inference took more than " + seconds(limits.wall_seconds)
                + " and was stopped");
    if (answer.memory)
        throw FormatError(where,
            "the model is malformed" + at + ": shape inference needed more than " + std::to_string(limits.memory_bytes >> 20)
                + " MB of memory");
    if (const std::optional<int> sig = child.terminatingSignal()) {
        if (*sig == SIGXCPU || *sig == SIGKILL)
            throw FormatError(where,
                "the model is malformed" + at + ": shape inference used more than " + seconds(double(cpu))
                    + " of CPU time and was stopped (" + signalName(*sig) + ")");
        throw FormatError(where, "the model is malformed" + at + ": shape inference crashed (" + signalName(*sig) + ")");
    }
    if (!answer.error.empty())
        throw FormatError(where, "the ONNX shape inference worker failed: " + answer.error);
    if (!answer.complete)
        throw FormatError(where,
            "the ONNX shape inference worker '" + worker + "' ended without an answer (exit code "
                + std::to_string(child.exitCode()) + ")" + details);

    onnx::ModelProto inferred;
    const std::string bytes = readTextFile(out.string(), kMaxOnnxFileBytes);
    if (!inferred.ParseFromString(bytes) || !inferred.has_graph())
        throw FormatError(where, "the ONNX shape inference worker wrote a model that does not parse");
    inferred.mutable_graph()->mutable_initializer()->Swap(model.mutable_graph()->mutable_initializer());
    model = std::move(inferred);
    return answer.failed;
}

} // namespace convoffload
