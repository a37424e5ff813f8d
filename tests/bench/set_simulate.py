#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""The fastest straightforward Python simulator of an S1 strategy we could
write (docs/reference/model.md, docs/reference/strategies.md): the yardstick
of `simulate --json` in cli_timing.py (docs/design/performance.md).

Pixels are integer ids (row * padded width + col); a patch's pixels come
from one list of offsets; U(g) is a set union; on-chip memory is a set;
I_slice = U(g) - M, F_inp = M - U(g); outputs are counted, not listed
(each is computed once and written at the next step, or by the
as-late-as-possible rule); all kernels are loaded at step 1 and freed at the
drain. It prints the totals the CLI prints, and one row per step as
`simulate --json` does (so both do the same work). No functional check.

Usage: set_simulate.py PROJECT.json STRATEGY_NAME
"""
import json
import sys


def patch_order(layer, kind):
    h_pad = layer["h_in"] + layer["pad_top"] + layer["pad_bottom"]
    w_pad = layer["w_in"] + layer["pad_left"] + layer["pad_right"]
    h_out = (h_pad - layer["h_k"]) // layer["stride_h"] + 1
    w_out = (w_pad - layer["w_k"]) // layer["stride_w"] + 1
    order = []
    for i in range(h_out):
        cols = range(w_out - 1, -1, -1) if kind == "zigzag" and i % 2 == 1 else range(w_out)
        order.extend((i, j) for j in cols)
    return order, w_pad


def simulate(project, name):
    layer, hw, opt = project["layer"], project["hardware"], project["options"]
    strategy = next(s for s in project["strategies"] if s["name"] == name)
    kind = strategy["kind"]
    order, w_pad = patch_order(layer, kind)
    c_in, n = layer["c_in"], layer["n"]
    ke = c_in * layer["h_k"] * layer["w_k"]
    size = 1 if kind == "s1-baseline" else strategy.get("group_size", hw["nbop_pe"] // (ke * n))
    offsets = [r * w_pad + c for r in range(layer["h_k"]) for c in range(layer["w_k"])]
    top, left = layer["pad_top"], layer["pad_left"]
    h_in, w_in = layer["h_in"], layer["w_in"]
    sh, sw = layer["stride_h"], layer["stride_w"]

    def pixels(i, j):
        base = i * sh * w_pad + j * sw
        if opt["padding_in_dram"]:
            return [base + o for o in offsets]
        return [base + o for o in offsets
                if top <= (base + o) // w_pad < top + h_in and left <= (base + o) % w_pad < left + w_in]

    memory = set()
    pending = 0
    loads = {}
    bound = hw["max_loads_per_element"]
    t_l, t_w, t_acc, mem_size = hw["t_l"], hw["t_w"], hw["t_acc"], hw["mem_size"]
    rows = []
    totals = {"steps": 0, "duration": 0.0, "loaded_input": 0, "loaded_kernels": 0, "written": 0, "peak": 0,
              "reload_warnings": 0}
    for g in range(0, len(order), size):
        group = order[g:g + size]
        union = set()
        for (i, j) in group:
            union.update(pixels(i, j))
        kernels = n if g > 0 else 0
        freed = memory - union  # a1 free input
        memory -= freed
        peak = len(memory) * c_in + kernels * ke + pending
        outputs = len(group) * n
        if opt["write_policy"] == "next-step":
            written = pending
        else:
            excess = len(union) * c_in + ke * n + pending + outputs - mem_size
            written = min(max(excess, 0), pending)
        pending -= written  # a3 write
        loading = union - memory  # a4 load input
        for p in loading:
            count = loads.get(p, 0) + 1
            loads[p] = count
            if count == bound + 1:
                totals["reload_warnings"] += 1
        memory |= loading
        peak = max(peak, len(memory) * c_in + kernels * ke + pending)
        loaded_kernels = n * ke if g == 0 else 0  # a5 load kernels
        pending += outputs  # a6 compute
        footprint = len(memory) * c_in + n * ke + pending
        peak = max(peak, footprint)
        paid = 0 if opt["kernels_preloaded"] else loaded_kernels
        duration = (len(loading) * c_in + paid) * t_l + written * t_w + t_acc
        rows.append({"loaded_input": len(loading) * c_in, "freed_input": len(freed) * c_in, "written": written,
                     "computed": outputs, "footprint": footprint, "duration": duration})
        totals["peak"] = max(totals["peak"], peak)
        totals["duration"] += duration
        totals["loaded_input"] += len(loading) * c_in
        totals["loaded_kernels"] += loaded_kernels
        totals["written"] += written
        totals["steps"] += 1
    # the drain: everything freed, the pending outputs written
    rows.append({"loaded_input": 0, "freed_input": len(memory) * c_in, "written": pending, "computed": 0,
                 "footprint": 0, "duration": pending * t_w})
    totals["written"] += pending
    totals["duration"] += pending * t_w
    totals["steps"] += 1
    return totals, rows


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        project = json.load(f)
    totals, rows = simulate(project, sys.argv[2])
    json.dump({"totals": totals, "per_step": rows}, sys.stdout)
    sys.stdout.write("\n")
