// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/onnx/ShapeInferenceWorker.h"

#include "GuardedSchemas.h"

#include "convoffload/io/FormatError.h"
#include "convoffload/io/TextFile.h"
#include "convoffload/onnx/OnnxImport.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <new>
#include <set>
#include <string>
#include <sys/resource.h>

namespace convoffload {

namespace {

/// One protocol record, flushed: the parent must see the last node line
/// even when the next instruction crashes.
void record(const std::string &line)
{
    std::fputs((line + "\n").c_str(), stdout);
    std::fflush(stdout);
}

bool limit(int resource, rlim_t soft, rlim_t hard)
{
    const rlimit value{soft, hard};
    return setrlimit(resource, &value) == 0;
}

/// Tells, before each main graph node's inference, which node it is:
/// ONNX's InferShapes looks each node's schema up in graph order, skipping
/// nodes of a domain the model does not import. Other lookups (a subgraph's
/// nodes, a function body's) are "inner".
class NodeTracker {
public:
    explicit NodeTracker(const onnx::ModelProto &model)
        : m_graph(model.graph())
    {
        for (const auto &o : model.opset_import())
            m_domains.insert(o.domain());
        skipUnimported();
    }

    void lookup(const std::string &op, const std::string &domain, bool nested)
    {
        if (!nested && m_next < m_graph.node_size() && m_graph.node(m_next).op_type() == op
            && m_graph.node(m_next).domain() == domain) {
            record("node " + std::to_string(m_next));
            ++m_next;
            skipUnimported();
            return;
        }
        record("inner " + printable(op.substr(0, 100)));
    }

private:
    void skipUnimported()
    {
        while (m_next < m_graph.node_size() && !m_domains.count(m_graph.node(m_next).domain()))
            ++m_next;
    }

    const onnx::GraphProto &m_graph;
    std::set<std::string> m_domains;
    int m_next = 0;
};

int fail(const std::string &message)
{
    record("error " + printable(message));
    return 2;
}

#ifdef __SANITIZE_ADDRESS__
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

} // namespace

int onnxShapeInferenceWorkerMain(int argc, char **argv)
{
    record(kOnnxWorkerGreeting);
    if (argc != 7 || std::string(argv[3]) != "--cpu-seconds" || std::string(argv[5]) != "--memory-bytes")
        return fail("usage: convoffload-onnx-worker IN OUT --cpu-seconds S --memory-bytes B");
    const std::string in = argv[1], out = argv[2];
    char *end = nullptr;
    const unsigned long long cpu = std::strtoull(argv[4], &end, 10);
    const bool cpuRead = *end == '\0' && cpu > 0;
    const unsigned long long memory = std::strtoull(argv[6], &end, 10);
    if (!cpuRead || *end != '\0' || memory == 0)
        return fail("the limits must be positive integers");
    // The soft CPU limit sends SIGXCPU, the hard one a second later SIGKILL;
    // no core file of a crash fills the disk. AddressSanitizer (the sanitize
    // build) reserves terabytes of address space for its shadow memory: there
    // the address space is not limited.
    if (!limit(RLIMIT_CPU, rlim_t(cpu), rlim_t(cpu + 1))
        || (!kAddressSanitizer && !limit(RLIMIT_AS, rlim_t(memory), rlim_t(memory))) || !limit(RLIMIT_CORE, 0, 0))
        return fail("cannot set the worker's resource limits");
    try {
        onnx::ModelProto model;
        const std::string bytes = readTextFile(in, kMaxOnnxFileBytes);
        if (!model.ParseFromString(bytes) || !model.has_graph())
            return fail(in + ": not an ONNX model");
        NodeTracker tracker(model);
        GuardedSchemas schemas(
            [&](const std::string &op, const std::string &domain, bool nested) { tracker.lookup(op, domain, nested); });
        try {
            onnx::shape_inference::InferShapes(model, &schemas);
            record("inferred");
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &e) {
            // As the import has always done: the shapes inferred so far are
            // kept, the failure is a warning.
            record("failed " + printable(std::string(e.what()).substr(0, 2000)));
        }
        model.mutable_graph()->clear_initializer();
        std::ofstream file(out, std::ios::binary | std::ios::trunc);
        if (!model.SerializeToOstream(&file) || !file.flush())
            return fail(out + ": cannot write the inferred model");
    } catch (const std::bad_alloc &) {
        record("memory");
        return 3;
    } catch (const FormatError &e) {
        return fail(e.what());
    }
    record("end");
    return 0;
}

} // namespace convoffload
