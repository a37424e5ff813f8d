#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""A straightforward Python set-based simulator of the S1 model (docs/reference/model.md and docs/reference/strategies.md),
the yardstick of the issue "Speed and memory, second round": the CLI's
`simulate --json` is timed against it.

Memory is a Python set of pixels (row, col); each group's union of patches
U(g) is a set, I_slice = U(g) - M, F_inp = M - U(g), all kernels loaded at
step 1 and freed at the drain, outputs written by the write policy. It prints
the totals the CLI prints (steps, duration, loads, writes, peak footprint).
No functional check (compare with `simulate --no-functional`).

Usage: naive_simulate.py PROJECT.json STRATEGY_NAME
"""
import json
import sys


def patch_pixels(layer, padding_in_dram, i, j):
    top, left = i * layer["stride_h"], j * layer["stride_w"]
    pixels = set()
    for r in range(top, top + layer["h_k"]):
        for c in range(left, left + layer["w_k"]):
            padding = (r < layer["pad_top"] or r >= layer["pad_top"] + layer["h_in"]
                       or c < layer["pad_left"] or c >= layer["pad_left"] + layer["w_in"])
            if padding_in_dram or not padding:
                pixels.add((r, c))
    return pixels


def groups_of(layer, hardware, strategy):
    h_pad = layer["h_in"] + layer["pad_top"] + layer["pad_bottom"]
    w_pad = layer["w_in"] + layer["pad_left"] + layer["pad_right"]
    h_out = (h_pad - layer["h_k"]) // layer["stride_h"] + 1
    w_out = (w_pad - layer["w_k"]) // layer["stride_w"] + 1
    kind = strategy["kind"]
    order = []
    for i in range(h_out):
        cols = range(w_out)
        if kind == "zigzag" and i % 2 == 1:
            cols = reversed(range(w_out))
        order.extend((i, j) for j in cols)
    ke = layer["c_in"] * layer["h_k"] * layer["w_k"]
    size = 1 if kind == "s1-baseline" else strategy.get("group_size", hardware["nbop_pe"] // (ke * layer["n"]))
    return [order[k:k + size] for k in range(0, len(order), size)]


def simulate(project, name):
    layer, hw, opt = project["layer"], project["hardware"], project["options"]
    strategy = next(s for s in project["strategies"] if s["name"] == name)
    groups = groups_of(layer, hw, strategy)
    c_in, n = layer["c_in"], layer["n"]
    ke = c_in * layer["h_k"] * layer["w_k"]
    memory, pending = set(), []  # pixels on chip; outputs computed, not written (oldest first)
    kernels_on_chip = 0
    loads = {}
    totals = {"steps": 0, "duration": 0.0, "loaded_input": 0, "loaded_kernels": 0, "written": 0, "peak": 0,
              "reload_warnings": 0, "overflows": 0}

    def footprint():
        return len(memory) * c_in + kernels_on_chip * ke + len(pending)

    def after_action():
        f = footprint()
        totals["peak"] = max(totals["peak"], f)
        if f > hw["mem_size"]:
            totals["overflows"] += 1

    for g, group in enumerate(groups):
        union = set()
        for (i, j) in group:
            union |= patch_pixels(layer, opt["padding_in_dram"], i, j)
        memory -= memory - union  # a1 free input
        after_action()
        after_action()  # a2 free kernels: none before the drain
        outputs = [(i, j, k) for (i, j) in group for k in range(n)]
        if opt["write_policy"] == "next-step":
            count = len(pending)
        else:
            excess = len(union) * c_in + ke * n + len(pending) + len(outputs) - hw["mem_size"]
            count = min(max(excess, 0), len(pending))
        written, pending = pending[:count], pending[count:]  # a3 write
        after_action()
        slice_ = union - memory  # a4 load input
        for p in slice_:
            loads[p] = loads.get(p, 0) + 1
            if loads[p] == hw["max_loads_per_element"] + 1:
                totals["reload_warnings"] += 1
        memory |= slice_
        after_action()
        loaded_kernels = 0
        if g == 0:  # a5 load kernels
            kernels_on_chip, loaded_kernels = n, n * ke
        after_action()
        pending.extend(outputs)  # a6 compute
        after_action()
        paid = 0 if opt["kernels_preloaded"] else loaded_kernels
        totals["duration"] += (len(slice_) * c_in + paid) * hw["t_l"] + len(written) * hw["t_w"] + hw["t_acc"]
        totals["loaded_input"] += len(slice_) * c_in
        totals["loaded_kernels"] += loaded_kernels
        totals["written"] += len(written)
        totals["steps"] += 1
    # the drain
    memory.clear()
    after_action()
    kernels_on_chip = 0
    after_action()
    totals["written"] += len(pending)
    totals["duration"] += len(pending) * hw["t_w"]
    pending = []
    for _ in range(4):
        after_action()
    totals["steps"] += 1
    return totals


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        project = json.load(f)
    print(json.dumps(simulate(project, sys.argv[2]), indent=2))
