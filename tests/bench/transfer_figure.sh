#!/bin/sh
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# The README's transfer figure (resources/screenshots/lenet5-conv1-transfer.png):
# LeNet-5 conv1's heuristics and a search result (300 000 moves, seed 1, one
# thread: reproducible) under the linear cost, NCHW and NHWC with burst 8 and
# no set-up, each panel the CLI's own `compare` figure, side by side with
# ImageMagick. Usage: tests/bench/transfer_figure.sh build/app/convoffload-cli OUT.png
set -eu
cli=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for setting in linear nchw nhwc; do
    python3 - "$here/samples/lenet5-conv1.json" "$work/$setting.json" "$setting" <<'PY'
import json, sys
project = json.load(open(sys.argv[1]))
if sys.argv[3] != "linear":
    project["hardware"]["transfer"] = {"layout": sys.argv[3], "burst": 8, "t_setup": 0}
json.dump(project, open(sys.argv[2], "w"), indent=1)
PY
    "$cli" optimize "$work/$setting.json" --method search --moves 300000 --threads 1 --seed 1 --save Optimised > /dev/null
    "$cli" export "$work/$setting.json" --figure compare --size 520x290 --no-title --out "$work/$setting.png" > /dev/null
done
label() {
    convert "$work/$1.png" -gravity north -background white -splice 0x34 -font DejaVu-Sans-Bold -pointsize 19 \
        -fill '#222' -annotate +0+6 "$2" "$work/$1-labelled.png"
}
label linear "linear cost (the paper's)"
label nchw "NCHW, burst 8"
label nhwc "NHWC, burst 8"
convert "$work/linear-labelled.png" "$work/nchw-labelled.png" "$work/nhwc-labelled.png" +append \
    -bordercolor white -border 6 "$out"
echo "Wrote $out"
