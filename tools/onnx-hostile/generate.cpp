// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Writes the hostile ONNX models (HostileOnnxModels.h) for the fuzzer:
//   convoffload-generate-hostile-onnx FUZZ_DIR
//     FUZZ_DIR/corpus/onnx/op-<Op>.onnx   one node of every default-domain op
//     FUZZ_DIR/crashes/onnx/<case>.onnx   the reproducers of issue 42
//     FUZZ_DIR/onnx.dict                  the op names, for libFuzzer's -dict
//   convoffload-generate-hostile-onnx --probe
//     runs ONNX's own shape inference on every model in a child process, as
//     the import did before issue 42, and prints how each child ended: which
//     models still crash the installed ONNX.
#include "HostileOnnxModels.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace convoffload::hostile;

namespace {

bool writeFile(const std::string &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out.flush()) {
        std::cerr << "convoffload-generate-hostile-onnx: cannot write " << path << "\n";
        return false;
    }
    return true;
}

/// "exit 0", "SIGSEGV", ...: how ONNX's shape inference of `bytes` ends in a child.
std::string probe(const std::string &bytes)
{
    const pid_t pid = fork();
    if (pid == 0) {
        rlimit cpu{5, 5}, memory{rlim_t(2) << 30, rlim_t(2) << 30};
        setrlimit(RLIMIT_CPU, &cpu);
        setrlimit(RLIMIT_AS, &memory);
        std::cerr.setstate(std::ios::failbit); // ONNX's warnings
        onnx::ModelProto model;
        model.ParseFromString(bytes);
        try {
            onnx::shape_inference::InferShapes(model);
        } catch (const std::exception &) {
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        return std::string("SIG") + sigabbrev_np(WTERMSIG(status));
    return "exit " + std::to_string(WEXITSTATUS(status));
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc == 2 && std::string(argv[1]) == "--probe") {
        for (const auto &cases : {shapeInferenceCrashes(), defaultDomainOps()})
            for (const OnnxCase &c : cases)
                std::cout << c.name << " node " << c.node << " (" << c.op << "), " << c.bytes.size()
                          << " bytes: " << probe(c.bytes) << "\n";
        return 0;
    }
    if (argc != 2) {
        std::cerr << "usage: convoffload-generate-hostile-onnx FUZZ_DIR | --probe\n";
        return 1;
    }
    const std::string dir = argv[1];
    for (const OnnxCase &c : defaultDomainOps())
        if (!writeFile(dir + "/corpus/onnx/" + c.name + ".onnx", c.bytes))
            return 1;
    for (const OnnxCase &c : shapeInferenceCrashes())
        if (!writeFile(dir + "/crashes/onnx/" + c.name + ".onnx", c.bytes))
            return 1;
    std::string dict = "# Op types of ONNX's default domain, written by convoffload-generate-hostile-onnx\n";
    for (const std::string &op : defaultDomainOpTypes())
        dict += "\"" + op + "\"\n";
    if (!writeFile(dir + "/onnx.dict", dict))
        return 1;
    std::cout << "Wrote the ONNX seeds, crash reproducers and dictionary under " << dir << "\n";
    return 0;
}
