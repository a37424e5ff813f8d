#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""Whole-process timings of `convoffload-cli simulate --json` (this build and,
optionally, a baseline binary such as main's) against the straightforward
Python set-based simulator (set_simulate.py), all in one run, alternating
the commands so that machine load hits them alike. Prints, for each, the
min / median wall time, the min CPU time (user + system: on a shared machine
the load inflates wall time, much less CPU time) and the peak resident memory;
ratios are of min CPU times.

Usage: cli_timing.py --cli BUILD/app/convoffload-cli [--baseline OTHER-CLI]
                     [--runs N] [--python-runs N] [--size 1024] [--group 64]
It writes the project (SIZE x SIZE input, one 3x3 kernel, ZigZag G) to a
temporary directory.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def project(size, group):
    return {
        "format": "convoffload-project", "version": 1,
        "layer": {"c_in": 1, "h_in": size, "w_in": size, "h_k": 3, "w_k": 3, "n": 1, "stride_h": 1, "stride_w": 1,
                  "pad_top": 0, "pad_bottom": 0, "pad_left": 0, "pad_right": 0},
        "hardware": {"mem_size": 1 << 40, "nbop_pe": 9 * group, "t_l": 1, "t_w": 1, "t_acc": 1,
                     "dram_size": 1 << 40, "max_loads_per_element": 2},
        "options": {"kernels_preloaded": False, "write_policy": "next-step", "padding_in_dram": True},
        "data": {"seed": 1},
        "strategies": [{"name": "ZigZag", "kind": "zigzag", "group_size": group}],
    }


def timed(cmd):
    """Wall time, CPU time and peak RSS (kB) of one run, via wait4.

    A child's ru_maxrss starts from this Python process's size at the fork
    (Linux keeps the high-water mark across exec), so the peak comes from
    GNU time, whose own small process forks the command, when it is there."""
    with tempfile.NamedTemporaryFile(mode="r") as rss_file:
        wrapped = ["/usr/bin/time", "-q", "-f", "%M", "-o", rss_file.name] + cmd if os.path.exists("/usr/bin/time") else cmd
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        if status != 0:
            sys.exit(f"{' '.join(cmd)} failed with status {status}")
        peak = int(rss_file.read().split()[-1]) if wrapped is not cmd else usage.ru_maxrss
    return seconds, usage.ru_utime + usage.ru_stime, peak, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--python-runs", type=int, default=1)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--group", type=int, default=64)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.json")
        with open(path, "w") as f:
            json.dump(project(args.size, args.group), f)
        commands = {}
        if args.baseline:
            commands["baseline simulate --json"] = [args.baseline, "simulate", path, "--strategy", "ZigZag", "--json"]
            commands["baseline simulate --json --no-functional"] = commands["baseline simulate --json"] + ["--no-functional"]
        commands["simulate --json"] = [args.cli, "simulate", path, "--strategy", "ZigZag", "--json"]
        commands["simulate --json --no-functional"] = commands["simulate --json"] + ["--no-functional"]
        results = {name: [] for name in commands}
        outputs = {}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                seconds, cpu, rss, out = timed(cmd)
                results[name].append((seconds, cpu, rss))
                outputs[name] = out
        # The fastest straightforward Python simulator (integer pixel ids,
        # set unions, counted outputs, a row per step as --json prints).
        python = [sys.executable, os.path.join(HERE, "set_simulate.py"), path, "ZigZag"]
        py = [timed(python) for _ in range(args.python_runs)]
        naive = json.loads(py[-1][3])["totals"]

    print(f"{args.size}x{args.size} input, one 3x3 kernel, ZigZag G = {args.group}; whole process, "
          f"{args.runs} runs each (interleaved), Python {args.python_runs} run(s)\n")
    print(f"  {'command':44} {'wall min':>10} {'median':>9} {'CPU min':>10} {'peak RSS':>10}")
    best = {}
    for name, rows in results.items():
        times = [s for s, _, _ in rows]
        best[name] = min(c for _, c, _ in rows)
        print(f"  {name:44} {min(times) * 1e3:7.0f} ms {statistics.median(times) * 1e3:6.0f} ms "
              f"{best[name] * 1e3:7.0f} ms {max(r for _, _, r in rows) / 1024:7.0f} MB")
    py_best = min(c for _, c, _, _ in py)
    print(f"  {'python set-based simulator (no functional)':44} {min(s for s, _, _, _ in py) * 1e3:7.0f} ms {'':9} "
          f"{py_best * 1e3:7.0f} ms {max(r for _, _, r, _ in py) / 1024:7.0f} MB")
    print()
    for name in results:
        print(f"  python / {name} (CPU): {py_best / best[name]:.1f}x")
    if args.baseline:
        for name in ("simulate --json", "simulate --json --no-functional"):
            print(f"  baseline / this build, {name} (CPU): {best['baseline ' + name] / best[name]:.1f}x")
    cli = json.loads(outputs["simulate --json"])
    print("\n  python totals:", {k: naive[k] for k in ("steps", "duration", "loaded_input", "written", "peak")})
    summary = cli.get("summary", cli)
    print("  cli summary:  ", {k: summary[k] for k in summary if not isinstance(summary[k], (list, dict))})


if __name__ == "__main__":
    main()
