// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
// Writes the sample ONNX models: `convoffload-generate-networks DIR` makes
// DIR/lenet5.onnx, DIR/resnet8.onnx and DIR/mobilenet-tiny.onnx (samples/networks/ holds the committed
// ones; the test tst_network checks they are byte for byte what this makes).
#include "NetworkModels.h"

#include <fstream>
#include <iostream>

int main(int argc, char *argv[])
{
    if (argc != 2) {
        std::cerr << "usage: convoffload-generate-networks DIR\n";
        return 1;
    }
    const std::string dir = argv[1];
    for (const auto &[name, bytes] : {std::pair{"lenet5.onnx", convoffload::samples::lenet5Model()},
             std::pair{"resnet8.onnx", convoffload::samples::resnet8Model()},
             std::pair{"mobilenet-tiny.onnx", convoffload::samples::mobileNetModel()}}) {
        const std::string path = dir + "/" + name;
        std::ofstream out(path, std::ios::binary);
        out.write(bytes.data(), std::streamsize(bytes.size()));
        if (!out.flush()) {
            std::cerr << "convoffload-generate-networks: cannot write " << path << "\n";
            return 1;
        }
        std::cout << "Wrote " << path << " (" << bytes.size() << " bytes)\n";
    }
    return 0;
}
