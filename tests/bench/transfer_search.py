#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""The search under the transfer model, against the heuristics under the same cost.

Usage: transfer_search.py --cli BUILD/app/convoffload-cli [--samples DIR]
                          [--time-limit S] [--settings all|corners] [--kernel-blocked]

For each sample whose kernels fit and each transfer setting of
docs/design/transfer.md (NCHW and NHWC with bursts 8, 16, 64 and set-up 0,
20, 100), runs `optimize --json` (the search, one thread) on a copy of the
project with `hardware.transfer` set, and prints a Markdown table: the best
heuristic's duration, the search's, and the gain, all under the transfer
model (`transfer_durations` of the report: the strategies simulated again).

With --kernel-blocked, the samples whose kernels do not fit (samples/streaming)
instead: `optimize` regroups the best kernel-blocked member under the
transfer model's cost; the same member is regrouped under the linear cost
(`--loop-order`, `--kernel-block`, `--group-size` of the first run, no
transfer model, `--save`) and that result simulated under the transfer
model. The table gives the member, its duration, both regroupings' and the
gain of each over the member, all under the transfer model.

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


def run_json(cli, args):
    out = subprocess.run([cli] + args, capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"
    return json.loads(out.stdout), None


def kernel_blocked(args):
    print("| sample | transfer | member | its duration | regrouped, linear cost | regrouped, transfer cost | gains |")
    print("|---|---|---|---|---|---|---|")
    streaming = os.path.join(args.samples, "streaming")
    with tempfile.TemporaryDirectory() as workdir:
        for sample in sorted(os.listdir(streaming)):
            with open(os.path.join(streaming, sample)) as f:
                base = json.load(f)
            for setting in settings(args.settings):
                label = f"{setting['layout'].upper()} B={setting['burst']} S={setting['t_setup']}"
                data = json.loads(json.dumps(base))
                data["hardware"]["transfer"] = setting
                path = os.path.join(workdir, "transfer.json")
                with open(path, "w") as f:
                    json.dump(data, f)
                common = ["--json", "--threads", "1", "--time-limit", str(args.time_limit)]
                report, error = run_json(args.cli, ["optimize", path] + common)
                if report is None or not report.get("regrouped"):
                    print(f"| {sample} | {label} | — | — | — | — | {error or 'no regrouping'} |", flush=True)
                    continue
                member, regrouped = report["kernel_blocked"], report["regrouped"]
                start, new = regrouped["start_duration"], report["duration"]
                # The same member regrouped under the linear cost, then
                # simulated under the transfer model.
                linear = json.loads(json.dumps(base))
                linear["strategies"] = [s for s in linear.get("strategies", []) if s["name"] != "linear-regrouped"]
                lpath = os.path.join(workdir, "linear.json")
                with open(lpath, "w") as f:
                    json.dump(linear, f)
                _, error = run_json(args.cli, ["optimize", lpath] + common + [
                    "--loop-order", member["loop"], "--kernel-block", str(member["kernel_block"]),
                    "--group-size", str(member["group_size"]), "--save", "linear-regrouped"])
                old = None
                if error is None:
                    with open(lpath) as f:
                        saved = json.load(f)
                    saved["hardware"]["transfer"] = setting
                    with open(lpath, "w") as f:
                        json.dump(saved, f)
                    sim, error = run_json(args.cli, ["simulate", lpath, "--strategy", "linear-regrouped", "--json",
                                                     "--no-functional"])
                    old = sim["total_duration"] if sim else None
                what = f"{member['loop']}, {member['order']}, B = {member['kernel_block']}, G = {member['group_size']}"
                old_text = f"{old:.0f}" if old is not None else f"— ({error})"
                gains = (f"{(start - old) / start:+.1%} / {(start - new) / start:+.1%}" if old is not None
                         else f"— / {(start - new) / start:+.1%}")
                print(f"| {sample} | {label} | {what} | {start:.0f} | {old_text} | {new:.0f} | {gains} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "samples"))
    parser.add_argument("--time-limit", type=float, default=10)
    parser.add_argument("--settings", choices=["all", "corners"], default="all")
    parser.add_argument("--kernel-blocked", action="store_true", help="the kernel-blocked regrouping (samples/streaming)")
    args = parser.parse_args()
    if args.kernel_blocked:
        kernel_blocked(args)
        return
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
