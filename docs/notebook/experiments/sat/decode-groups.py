#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""Turns a SAT solver's model of paper-cnf.py's CNF into a "groups" strategy
in a copy of a project file, for `convoffload-cli simulate --strategy SAT`.

    decode-groups.py S G solution.txt project.json out.json
"""
import json
import sys

if len(sys.argv) != 6 or not sys.argv[1].isdigit() or not sys.argv[2].isdigit() or int(sys.argv[1]) < 3 or int(sys.argv[2]) < 1:
    sys.exit("usage: decode-groups.py S G solution.txt project.json out.json (S >= 3, G >= 1)")
S, G, solution, project, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
P = (S - 2) ** 2
K = (P + G - 1) // G
true = set()
try:
    f = open(solution)
except OSError as e:
    sys.exit(f"decode-groups.py: {solution}: {e.strerror}")
with f:
    for line in f:
        if line.startswith("v"):
            true.update(int(v) for v in line.split()[1:] if int(v) > 0)
groups = [[o for o in range(P) if o * K + t + 1 in true] for t in range(K)]
if sum(map(len, groups)) != P:
    sys.exit(f"decode-groups.py: {solution} is not a model of paper-cnf.py {S} {G} (each output in one group)")
data = json.load(open(project))
data["strategies"] = [{"name": "SAT", "kind": "groups", "groups": groups}]
json.dump(data, open(out, "w"), indent=1)
