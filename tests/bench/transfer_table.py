#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""How the transfer model changes the ranking of strategies.

Usage: transfer_table.py --cli BUILD/app/convoffload-cli [--samples DIR]

For each sample (the paper's example, LeNet-5 conv1, a ResNet-18 layer whose
kernels stream) and each transfer setting (linear; NCHW and NHWC with bursts
8, 16, 64 and set-up 0, 20, 100), runs `compare --json` (and the best
kernel-blocked family member where compare adds it) on a copy of the project
with `hardware.transfer` set, and prints a Markdown table: every strategy's
duration and the best one. Benchmark, never part of the test suite.
"""
import argparse
import json
import os
import subprocess
import tempfile

SAMPLES = ["paper-example.json", "lenet5-conv1.json", "streaming/resnet18-layer3-conv.json"]
SETTINGS = [None] + [{"layout": layout, "burst": burst, "t_setup": setup}
                     for layout in ("nchw", "nhwc") for burst in (8, 16, 64) for setup in (0, 20, 100)]


def label(setting):
    if setting is None:
        return "linear"
    return f"{setting['layout'].upper()} B={setting['burst']} S={setting['t_setup']}"


def compare(cli, project, setting, workdir):
    with open(project) as f:
        data = json.load(f)
    if setting is not None:
        data["hardware"]["transfer"] = setting
    path = os.path.join(workdir, "project.json")
    with open(path, "w") as f:
        json.dump(data, f)
    out = subprocess.run([cli, "compare", path, "--json", "--no-functional"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "samples"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        for sample in SAMPLES:
            rows = []
            names = None
            for setting in SETTINGS:
                report = compare(args.cli, os.path.join(args.samples, sample), setting, workdir)
                strategies = [r for r in report["strategies"] if r.get("valid")]
                for r in strategies:  # the family's best is named after its member: one column for it
                    if r["strategy"].startswith("best kernel-blocked"):
                        r["member"] = r["strategy"][len("best kernel-blocked "):]
                        r["strategy"] = "best kernel-blocked"
                if names is None:
                    names = [r["strategy"] for r in strategies]
                durations = {r["strategy"]: r["total_duration"] for r in strategies}
                shares = {r["strategy"]: r.get("setup_share", 0) for r in strategies}
                best_row = min(strategies, key=lambda r: r["total_duration"]) if strategies else None
                best = best_row["strategy"] + " " + best_row.get("member", "") if best_row else "none"
                best = best.strip()
                rows.append((label(setting), [durations.get(n) for n in names], best,
                             shares.get(best_row["strategy"], 0) if best_row else 0))
            print(f"\n### {sample}\n")
            short = names
            print("| transfer | " + " | ".join(short) + " | best | set-up share of best |")
            print("|---|" + "---|" * len(names) + "---|---|")
            for setting, durations, best, share in rows:
                cells = " | ".join("—" if d is None else f"{d:.0f}" for d in durations)
                print(f"| {setting} | {cells} | {best} | {share:.0%} |")


if __name__ == "__main__":
    main()
