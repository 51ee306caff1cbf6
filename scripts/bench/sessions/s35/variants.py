"""Table of ab.sh's bench.py runs: OUT/{c,gs}-NAME-ROUND/results.csv. Per
workload the CUDA-graph chain (median over all runs) and each variant's
best ours_graph run, with its ratio to the first variant (the base); per set
the geomean of graph / ours_graph for every variant.

    python3 variants.py OUT [--csv MERGED.csv]
"""
import csv
import glob
import math
import sys

out = sys.argv[1]
merged = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--csv" else None
t = {}
rows = []
order = []
# ab.sh records VARIANTS (name=dir ...) in OUT/variants; the first is the base.
try:
    order = [v.split("=")[0] for v in open(out + "/variants").read().split()]
except OSError:
    pass
for p in sorted(glob.glob(out + "/*-*-[0-9]*/results.csv")):
    run = p.split("/")[-2]
    name = run.split("-", 1)[1].rsplit("-", 1)[0]
    if name not in order:
        order.append(name)
    for r in csv.DictReader(open(p)):
        rows.append(dict(run=run, variant=name, **r))
        t.setdefault(r["workload"], {}).setdefault(
            (name, r["baseline"]), []).append(float(r["hot_us"]))

if merged and rows:
    with open(merged, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def med(xs):
    return sorted(xs)[len(xs) // 2] if xs else float("nan")


base = order[0] if order else None
geo = {}
for w in sorted(t, key=lambda w: (w[0], int("".join(
        c for c in w.split("-")[0][1:] if c.isdigit())), w)):
    d = t[w]
    g = med([x for (v, b), xs in d.items() if b == "graph" for x in xs])
    best = {v: min(d.get((v, "ours_graph"), [math.nan])) for v in order}
    cells = " | ".join(
        f"{v} {best[v]:8.2f}" + ("" if v == base else
                                 f" ({best[v] / best[base]:5.3f})")
        for v in order)
    print(f"{w:8s} graph {g:8.2f} | {cells}")
    for v in order:
        geo.setdefault((w[0], v), []).append(math.log(g / best[v]))
for s in "CGS":
    line = []
    for v in order:
        x = geo.get((s, v))
        if x:
            line.append(f"{v} {math.exp(sum(x) / len(x)):.3f}")
    if line:
        print(s, "graph/ours_graph geomean:", ", ".join(line))
