#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
"""CNF for "the paper's S×S instance (3×3 kernel, stride 1, K_min groups of at
most G) has a strategy with at most R reloads", for an outside SAT solver
(docs/notebook/optimiser.md, "Eleventh round": Debian's `cadical` settled that 12×12, G = 6 has no
strategy loading every pixel once). Not part of the product: an experiment.

Model (the exact method's): group t's union U_t holds the pixels its windows
need; memory keeps only U_{t-1}, so pixel p is loaded once per maximal run of
steps whose groups need it. Variables: x[o][t] (output o in group t), n[p][t]
(group t needs pixel p), s[p][t] (some group up to t needed p), r[p][t] (p is
loaded again at t). Symmetry: the eight turns and mirrors of the square and
the reversed order leave the loads unchanged, so a corner output (0) comes no
later than the other three corners, corner 1 no later than corner 3, and
step(corner 0) + step(corner i) <= K - 1.

    paper-cnf.py S G R out.cnf [--reload-bound-2] [--corner-step T]

R bounds the reloads (loads beyond each pixel's first). --reload-bound-2 adds
the issue's reload bound (each pixel loaded at most twice; the paper's grid in
`experiments` allows 9, so leave it out there unless R = 0) and counts the
reloaded pixels instead, a smaller counter. --corner-step T fixes output 0 at
step T (a cube: T = 0 .. (K-1)/2 cover every case). Check a solution with
decode-groups.py.
"""
import argparse
import itertools

parser = argparse.ArgumentParser()
parser.add_argument("size", type=int)
parser.add_argument("group_size", type=int)
parser.add_argument("reloads", type=int)
parser.add_argument("out")
parser.add_argument("--reload-bound-2", action="store_true")
parser.add_argument("--corner-step", type=int)
args = parser.parse_args()

S, G, R = args.size, args.group_size, args.reloads
if S < 3 or G < 1 or R < 0:
    parser.error("needs S >= 3 (a 3×3 kernel), G >= 1 and R >= 0")
O = S - 2  # outputs per side
P = O * O
K = (P + G - 1) // G
if args.corner_step is not None and not 0 <= args.corner_step <= (K - 1) // 2:
    parser.error(f"--corner-step must lie in 0..{(K - 1) // 2}: the corner comes first in the first half")
variables = 0
clauses = []


def new():
    global variables
    variables += 1
    return variables


def at_most_one(vs):
    clauses.extend([-a, -b] for a, b in itertools.combinations(vs, 2))


def at_most(vs, k):
    """Sinz's sequential counter."""
    if k >= len(vs):
        return
    if k == 0:
        clauses.extend([-v] for v in vs)
        return
    s = [[new() for _ in range(k)] for _ in vs]
    clauses.append([-vs[0], s[0][0]])
    clauses.extend([-s[0][j]] for j in range(1, k))
    for i in range(1, len(vs)):
        clauses.append([-vs[i], s[i][0]])
        clauses.append([-s[i - 1][0], s[i][0]])
        for j in range(1, k):
            clauses.append([-vs[i], -s[i - 1][j - 1], s[i][j]])
            clauses.append([-s[i - 1][j], s[i][j]])
        clauses.append([-vs[i], -s[i - 1][k - 1]])


x = {(o, t): new() for o in range(P) for t in range(K)}  # o·K + t + 1
for o in range(P):
    clauses.append([x[o, t] for t in range(K)])
    at_most_one([x[o, t] for t in range(K)])
for t in range(K):
    at_most([x[o, t] for o in range(P)], G)

reloaded = []
for i, j in itertools.product(range(S), range(S)):
    needing = [a * O + b for a in range(O) for b in range(O) if a <= i <= a + 2 and b <= j <= b + 2]
    n = []
    for t in range(K):
        v = new()
        n.append(v)
        clauses.extend([-x[o, t], v] for o in needing)
        clauses.append([-v] + [x[o, t] for o in needing])
    started, again = [], []
    for t in range(K):
        started.append(new())
        clauses.append([-n[t], started[t]])
        if t > 0:
            clauses.append([-started[t - 1], started[t]])
            r = new()
            again.append(r)
            clauses.append([-started[t - 1], -n[t], n[t - 1], r])
    if args.reload_bound_2:  # one reload at most: count the pixels reloaded
        at_most_one(again)
        b = new()
        clauses.extend([-r, b] for r in again)
        reloaded.append(b)
    else:
        reloaded.extend(again)
at_most(reloaded, R)

by = {}  # by[o, t]: output o is in group t or earlier
for o in range(P):
    for t in range(K):
        v = new()
        by[o, t] = v
        clauses.extend([-x[o, u], v] for u in range(t + 1))
        clauses.append([-v] + [x[o, u] for u in range(t + 1)])
c0, c1, c2, c3 = 0, O - 1, P - 1, P - O
for ci in (c1, c2, c3):
    clauses.extend([-by[ci, t], by[c0, t]] for t in range(K))
    clauses.extend([by[c0, t], by[ci, K - 2 - t]] for t in range(K - 1))
clauses.extend([-by[c3, t], by[c1, t]] for t in range(K))
if args.corner_step is not None:
    clauses.append([x[c0, args.corner_step]])

with open(args.out, "w") as f:
    f.write(f"p cnf {variables} {len(clauses)}\n")
    for c in clauses:
        f.write(" ".join(map(str, c)) + " 0\n")
print(f"{S}x{S} G={G} R<={R}: K={K}, {variables} variables, {len(clauses)} clauses")
