// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#include "convoffload/onnx/ShapeInferenceWorker.h"

#include "GraphOrder.h"
#include "GuardedSchemas.h"
#include "ShapeCompletion.h"

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
#include <vector>

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
/// nodes, a function body's) are "inner". The graph is inferred in sorted
/// order; `stored[i]` is the index node i had in the file, the one told.
class NodeTracker {
public:
    NodeTracker(const onnx::ModelProto &model, const std::vector<int> &stored)
        : m_graph(model.graph())
        , m_stored(stored)
    {
        for (const auto &o : model.opset_import())
            m_domains.insert(o.domain());
        skipUnimported();
    }

    void lookup(const std::string &op, const std::string &domain, bool nested)
    {
        if (!nested && m_next < m_graph.node_size() && m_graph.node(m_next).op_type() == op
            && m_graph.node(m_next).domain() == domain) {
            record("node " + std::to_string(m_stored[std::size_t(m_next)]));
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
    const std::vector<int> &m_stored;
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

// Rounds of inference and completion; a model whose shapes need more is
// left with the rest unknown (its convolutions are skipped, with the reason).
constexpr int kMaxRounds = 64;

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
        // ONNX's inference, then the shapes it leaves unknown where the model
        // computes them (ShapeCompletion.h), again until nothing is gained:
        // each round reaches one more computed shape down a chain of them.
        const std::vector<int> order = topologicalOrder(model.graph());
        reorderNodes(*model.mutable_graph(), order);
        for (int round = 0; round < kMaxRounds; ++round) {
            NodeTracker tracker(model, order);
            GuardedSchemas schemas(
                [&](const std::string &op, const std::string &domain, bool nested) { tracker.lookup(op, domain, nested); });
            try {
                onnx::shape_inference::InferShapes(model, &schemas);
            } catch (const std::bad_alloc &) {
                throw;
            } catch (const std::exception &e) {
                // As the import has always done: the shapes inferred so far are
                // kept, the failure is a warning.
                record("failed " + printable(std::string(e.what()).substr(0, 2000)));
                break;
            }
            if (completeShapes(model) == 0)
                break;
        }
        record("inferred");
        reorderNodes(*model.mutable_graph(), inverseOrder(order));
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
