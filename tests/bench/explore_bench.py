#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""Exploration throughput (docs/design/performance.md#exploration): design
points x layers per second of `convoffload-cli explore` on the
ResNet-50-shaped network (resnet50_network.py, 53 convolutions), heuristics
only and with --optimize, on one and two cores (one process with --threads,
and two shards run at once), against `network` run once per point, as a
user without `explore` would (this build's, and a baseline build's with
--baseline). Whole processes, wall and CPU times.

Usage: explore_bench.py --cli BUILD/app/convoffload-cli [--baseline OTHER-CLI]
                        [--mem-size 16k..128k*2] [--nbop-pe 73728,294912]
                        [--moves 20000]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import resnet50_network  # noqa: E402


def run(cmds):
    """Runs the commands at once; wall seconds and their total CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c in cmds]
    for p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"failed: {err.decode()}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--mem-size", default="16k..128k*2")
    ap.add_argument("--nbop-pe", default="73728,294912")
    ap.add_argument("--moves", type=int, default=20000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "r50.json")
        project = {"format": "convoffload-project", "version": 2, "name": "resnet50", "source": "",
                   "hardware": {"mem_size": 20000, "nbop_pe": 73728, "t_l": 1.0, "t_w": 1.0, "t_acc": 1.0,
                                "dram_size": 100000000, "max_loads_per_element": 2},
                   "options": {"kernels_preloaded": False, "write_policy": "next-step", "padding_in_dram": True},
                   "layers": resnet50_network.resnet50(), "skipped": []}
        with open(target, "w") as f:
            json.dump(project, f)
        # The estimate is an upper bound far above these runs: not a benchmark's concern.
        lists = ["--mem-size", args.mem_size, "--nbop-pe", args.nbop_pe, "--no-work-limit"]
        out = os.path.join(tmp, "all.jsonl")
        # The points, from an explore run: each line holds its hardware.
        run([[args.cli, "explore", target, *lists, "--out", out, "--quiet"]])
        points = [json.loads(line)["hardware"] for line in open(out)]
        layers = len(project["layers"])
        rows = []

        def row(name, wall, cpu, n=len(points)):
            rows.append((name, wall, cpu, n * layers / wall))

        for threads in (1, 2):
            wall, cpu = run([[args.cli, "explore", target, *lists, "--threads", str(threads), "--quiet", "--out", out]])
            row(f"explore, 1 process, --threads {threads}", wall, cpu)
        wall, cpu = run([[args.cli, "explore", target, *lists, "--threads", "1", "--quiet", "--shard", f"{i}/2",
                          "--out", os.path.join(tmp, f"s{i}.jsonl")] for i in (0, 1)])
        row("explore, 2 shards at once, --threads 1", wall, cpu)
        opt = ["--optimize", "--time-limit", "600", "--moves", str(args.moves)]
        for threads in (1, 2):
            wall, cpu = run([[args.cli, "explore", target, *lists, *opt, "--threads", str(threads), "--quiet",
                              "--out", out]])
            row(f"explore --optimize --moves {args.moves}, --threads {threads}", wall, cpu)
        # network once per point, as without explore.
        for name, cli in (("network per point", args.cli), ("baseline network per point", args.baseline)):
            if not cli:
                continue
            files = []
            for k, hw in enumerate(points):
                p = dict(project, hardware=hw)
                files.append(os.path.join(tmp, f"p{k}.json"))
                with open(files[-1], "w") as f:
                    json.dump(p, f)
            wall = cpu = 0
            for f in files:
                w, c = run([[cli, "network", f, "--threads", "1", "--quiet", "--no-work-limit"]])
                wall, cpu = wall + w, cpu + c
            row(f"{name}, --threads 1", wall, cpu)

    print(f"ResNet-50-shaped network, {layers} layers, {len(points)} design points "
          f"(--mem-size {args.mem_size} --nbop-pe {args.nbop_pe})\n")
    print(f"  {'run':52} {'wall':>8} {'CPU':>8} {'points x layers / s':>20}")
    for name, wall, cpu, rate in rows:
        print(f"  {name:52} {wall:7.1f}s {cpu:7.1f}s {rate:20.1f}")
    base = {name: cpu for name, _, cpu, _ in rows}
    if "baseline network per point, --threads 1" in base:
        print(f"\n  baseline network per point / explore --threads 1 (CPU): "
              f"{base['baseline network per point, --threads 1'] / base['explore, 1 process, --threads 1']:.1f}x")


if __name__ == "__main__":
    main()
