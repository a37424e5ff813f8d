#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""The search under the transfer model, against the heuristics under the same cost.

Usage: transfer_search.py --cli BUILD/app/convoffload-cli [--samples DIR]
                          [--time-limit S] [--settings all|corners]

For each sample whose kernels fit and each transfer setting of
docs/design/transfer.md (NCHW and NHWC with bursts 8, 16, 64 and set-up 0,
20, 100), runs `optimize --json` (the search, one thread) on a copy of the
project with `hardware.transfer` set, and prints a Markdown table: the best
heuristic's duration, the search's, and the gain, all under the transfer
model (`transfer_durations` of the report: the strategies simulated again).
Benchmark, never part of the test suite.
"""
import argparse
import json
import os
import subprocess
import tempfile

SAMPLES = ["paper-example.json", "lenet5-conv1.json", "lenet5-conv2.json", "resnet8-conv1.json",
           "resnet8-stage1-conv.json", "mobilenetv2-depthwise-conv.json", "deeplab-dilated-conv.json"]


def settings(which):
    bursts, setups = ((8, 16, 64), (0, 20, 100)) if which == "all" else ((8, 64), (0, 100))
    return [{"layout": layout, "burst": burst, "t_setup": setup}
            for layout in ("nchw", "nhwc") for burst in bursts for setup in setups]


def optimise(cli, project, setting, workdir, time_limit):
    with open(project) as f:
        data = json.load(f)
    data["hardware"]["transfer"] = setting
    path = os.path.join(workdir, "project.json")
    with open(path, "w") as f:
        json.dump(data, f)
    out = subprocess.run([cli, "optimize", path, "--json", "--threads", "1", "--time-limit", str(time_limit)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"
    return json.loads(out.stdout), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "samples"))
    parser.add_argument("--time-limit", type=float, default=10)
    parser.add_argument("--settings", choices=["all", "corners"], default="all")
    args = parser.parse_args()
    print("| sample | transfer | best heuristic | its duration | search | gain | minimised |")
    print("|---|---|---|---|---|---|---|")
    worst = None
    with tempfile.TemporaryDirectory() as workdir:
        for sample in SAMPLES:
            for setting in settings(args.settings):
                label = f"{setting['layout'].upper()} B={setting['burst']} S={setting['t_setup']}"
                report, error = optimise(args.cli, os.path.join(args.samples, sample), setting, workdir, args.time_limit)
                if report is None:
                    print(f"| {sample} | {label} | — | — | — | — | {error} |")
                    continue
                real = report["transfer_durations"] or {}
                # Every heuristic, valid or not: on LeNet-5 both break the
                # reload assumption (a warning) and still run.
                valid = {h["name"] + ("" if h["feasible"] else " (reloads)"): real.get(h["name"])
                         for h in report["heuristics"]}
                valid = {k: v for k, v in valid.items() if v is not None}
                result = real.get("result")
                minimised = "transfer" if "which the search minimised" in report["message"] else "linear"
                if not valid or result is None:
                    print(f"| {sample} | {label} | none valid | — | {result} | — | {minimised} |")
                    continue
                name, best = min(valid.items(), key=lambda kv: kv[1])
                gain = (best - result) / best
                worst = gain if worst is None else min(worst, gain)
                print(f"| {sample} | {label} | {name} | {best:.0f} | {result:.0f} | {gain:+.1%} | {minimised} |",
                      flush=True)
    print(f"\nSmallest gain over the best heuristic: {worst:+.1%}" if worst is not None else "\nno comparison")


if __name__ == "__main__":
    main()
