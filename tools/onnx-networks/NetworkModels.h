// SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
// SPDX-License-Identifier: Apache-2.0
#pragma once
// ONNX models of the networks the samples and benchmarks use, built through
// ONNX's protobuf messages with deterministic weights (a fixed-seed linear
// congruential generator, He-like scale), so the committed .onnx files can be
// made again bit for bit: LeNet-5 and ResNet-8 (the paper's networks), a
// small MobileNet-style network (grouped and dilated convolutions) and a
// ResNet-18-shaped network for the import benchmark.
#include <string>

namespace convoffload::samples {

/// LeNet-5: 1x32x32 -> conv1 6@5x5 -> tanh -> avgpool 2 -> conv2 16@5x5 ->
/// tanh -> avgpool 2 -> flatten -> Gemm 400x120, 120x84, 84x10.
std::string lenet5Model();

/// ResNet-8 of MLPerf Tiny (CIFAR-10): conv1 16@3x3, three stages (16, 32, 64
/// channels) of two 3x3 convolutions and a residual add, stride-2 stages with
/// a 1x1 stride-2 shortcut and TensorFlow's "same" padding (auto_pad
/// SAME_UPPER: bottom/right), global average pool, Gemm 64x10.
std::string resnet8Model();

/// A small MobileNet: 3x64x64 -> stem 16@3x3 s2 p1 -> three
/// depthwise-separable blocks (depthwise 3x3 with group = channels, then a
/// pointwise 1x1: 16->24 s1, 24->32 s2, 32->64 s1) with a dense dilated 3x3
/// (32@3x3, dilation 2, pad 2) between blocks 2 and 3, ReLUs, global average
/// pool, Gemm 64x10: 8 convolutions.
std::string mobileNetModel();

/// ResNet-18 shaped: 3x224x224, conv1 64@7x7 s2 p3, max pool 3x3 s2 p1, four
/// stages of two basic blocks (64, 128, 256, 512 channels; stages 2-4 start
/// with a stride-2 block and a 1x1 shortcut): 20 convolutions.
std::string resnet18Model();

} // namespace convoffload::samples
