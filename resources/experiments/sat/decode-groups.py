#!/usr/bin/env python3
"""Turns a SAT solver's model of paper-cnf.py's CNF into a "groups" strategy
in a copy of a project file, for `convoffload-cli simulate --strategy SAT`.

    decode-groups.py S G solution.txt project.json out.json
"""
import json
import sys

S, G, solution, project, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
P = (S - 2) ** 2
K = (P + G - 1) // G
true = set()
with open(solution) as f:
    for line in f:
        if line.startswith("v"):
            true.update(int(v) for v in line.split()[1:] if int(v) > 0)
groups = [[o for o in range(P) if o * K + t + 1 in true] for t in range(K)]
data = json.load(open(project))
data["strategies"] = [{"name": "SAT", "kind": "groups", "groups": groups}]
json.dump(data, open(out, "w"), indent=1)
