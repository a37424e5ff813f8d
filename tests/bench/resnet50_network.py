#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""Writes a ResNet-50-shaped network project (224x224 input, the 53
convolutions of torchvision's resnet50: conv1, 16 bottlenecks of three, four
downsampling 1x1) for the exploration and network benchmarks
(docs/design/performance.md). Shapes only: a network project stores a data
seed, never weights.

Usage: resnet50_network.py OUT.json [--mem-size N] [--nbop-pe N]
"""
import argparse
import json


def conv(name, c_in, h, n, k, stride, pad):
    return {"name": name,
            "layer": {"c_in": c_in, "h_in": h, "w_in": h, "h_k": k, "w_k": k, "n": n,
                      "stride_h": stride, "stride_w": stride,
                      "pad_top": pad, "pad_bottom": pad, "pad_left": pad, "pad_right": pad},
            "data": {"seed": 1}, "strategies": []}


def resnet50():
    layers = [conv("conv1", 3, 224, 64, 7, 2, 3)]
    h, c = 56, 64  # after the 3x3/2 max pool
    for stage, (width, blocks, stride) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)], start=1):
        for b in range(blocks):
            s = stride if b == 0 else 1
            prefix = f"layer{stage}.{b}"
            layers.append(conv(prefix + ".conv1", c, h, width, 1, 1, 0))
            layers.append(conv(prefix + ".conv2", width, h, width, 3, s, 1))
            h_out = (h + 2 - 3) // s + 1
            layers.append(conv(prefix + ".conv3", width, h_out, 4 * width, 1, 1, 0))
            if b == 0:
                layers.append(conv(prefix + ".downsample", c, h, 4 * width, 1, s, 0))
            h, c = h_out, 4 * width
    return layers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--mem-size", type=int, default=20000)
    parser.add_argument("--nbop-pe", type=int, default=73728)
    args = parser.parse_args()
    project = {"format": "convoffload-project", "version": 2, "name": "resnet50", "source": "",
               "hardware": {"mem_size": args.mem_size, "nbop_pe": args.nbop_pe, "t_l": 1.0, "t_w": 1.0,
                            "t_acc": 1.0, "dram_size": 100000000, "max_loads_per_element": 2},
               "options": {"kernels_preloaded": False, "write_policy": "next-step", "padding_in_dram": True},
               "layers": resnet50(), "skipped": []}
    assert len(project["layers"]) == 53
    with open(args.out, "w") as f:
        json.dump(project, f, indent=1)


if __name__ == "__main__":
    main()
