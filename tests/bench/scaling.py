#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""Scaling of the whole tool with the layer's size: for SIZE x SIZE inputs
(one 3x3 kernel, ZigZag G = 64, seeded data), runs

  - `convoffload-cli simulate PROJECT --strategy ZigZag --json` as a whole
    process (load, simulation with the functional check, JSON on stdout), and
  - `convoffload-bench-bigs --size SIZE` (the GUI's route: ProjectDocument
    simulates with the trace on its worker, the StepCursor seeks; the
    comparison and the sweep's first group sizes run too),

and prints, per size, the time per pixel visit (patches * H_K * W_K: every
patch pixel the simulation walks) and the bytes per input pixel (peak
resident memory / SIZE^2), so that linear growth shows as flat columns.

CLI figures are the min over --runs of CPU time (user + system, which the
load of a shared machine inflates much less than wall time) and of peak RSS
(ru_maxrss). GUI figures are one run: the open (load + simulation + cursor,
wall time), the seek from the start to the middle (GUI-thread CPU time, per
replayed visit: half the layer's), the worst of 20 random seeks, and the
process's VmHWM.

Usage: scaling.py --cli BUILD/app/convoffload-cli --gui BUILD/tests/convoffload-bench-bigs
                  [--sizes 64,256,1024,4096] [--runs 3]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cli_timing import project, timed  # noqa: E402  (the same project and wait4 timing)


def gui_run(gui, size):
    out = subprocess.run([gui, "--size", str(size)], capture_output=True, text=True, check=False)
    lines = [l for l in out.stdout.splitlines() if l.startswith("result ")]
    if out.returncode != 0 or not lines:
        sys.exit(f"{gui} --size {size} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return {k: float(v) for k, v in (f.split("=") for f in lines[-1].split()[1:])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--gui", required=True)
    ap.add_argument("--sizes", default="64,256,1024,4096")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = os.path.join(tmp, f"layer{size}.json")
            with open(path, "w") as f:
                json.dump(project(size, 64), f)
            patches = (size - 2) ** 2
            visits = 9 * patches
            cli = [timed([args.cli, "simulate", path, "--strategy", "ZigZag", "--json"]) for _ in range(args.runs)]
            cpu = min(c[1] for c in cli)
            rss = min(c[2] for c in cli) * 1024
            gui = gui_run(args.gui, size)
            rows.append((size, patches, cpu, rss, gui))
            print(f"done {size}^2", file=sys.stderr)

    print("One 3x3 kernel, ZigZag G = 64; visits = 9 per patch; bytes per pixel = peak RSS / input pixels\n")
    print("| input | patches | CLI simulate --json CPU | ns / visit | CLI peak | bytes / pixel "
          "| GUI open (wall) | seek start→middle (CPU) | ns / replayed visit | worst random seek | GUI peak | bytes / pixel |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size, patches, cpu, rss, g in rows:
        visits = 9 * patches
        pixels = size * size
        peak = g["peak_rss_kb"] * 1024
        print(f"| {size}² | {patches:,} | {cpu * 1e3:.0f} ms | {cpu * 1e9 / visits:.1f} | {rss / 1e6:.0f} MB "
              f"| {rss / pixels:.0f} | {g['open_ms']:.0f} ms | {g['seek_mid_ms']:.1f} ms "
              f"| {g['seek_mid_ms'] * 1e6 / (visits / 2):.2f} | {g['seek_worst_ms']:.1f} ms | {peak / 1e6:.0f} MB "
              f"| {peak / pixels:.0f} |")


if __name__ == "__main__":
    main()
