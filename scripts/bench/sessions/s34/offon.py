"""Off/on table of a session driver's bench.py runs: OUT/{c,gs}-{off,on}-N/
results.csv. Per workload the CUDA-graph chain (median over all runs) and
the best ours_graph run of each variant; per set the geomean of graph /
ours_graph.

    python3 offon.py OUT [--csv MERGED.csv]
"""
import csv
import glob
import math
import sys

out = sys.argv[1]
merged = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--csv" else None
t = {}
rows = []
for p in sorted(glob.glob(out + "/*-o*-[0-9]/results.csv")):
    run = p.split("/")[-2]
    v = run.split("-")[1]
    for r in csv.DictReader(open(p)):
        rows.append(dict(run=run, **r))
        t.setdefault(r["workload"], {}).setdefault(
            (v, r["baseline"]), []).append(float(r["hot_us"]))


if merged and rows:
    with open(merged, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def med(xs):
    return sorted(xs)[len(xs) // 2] if xs else float("nan")


geo = {}
for w, d in t.items():
    g = med(d.get(("off", "graph"), []) + d.get(("on", "graph"), []))
    o = min(d.get(("off", "ours_graph"), [math.nan]))
    n = min(d.get(("on", "ours_graph"), [math.nan]))
    print(f"{w:8s} graph {g:8.2f} | off {o:8.2f} | on {n:8.2f} | "
          f"on/off {n / o:6.3f}")
    for v, x in (("off", o), ("on", n)):
        geo.setdefault((w[0], v), []).append(math.log(g / x))
for s in "CGS":
    for v in ("off", "on"):
        x = geo.get((s, v))
        if x:
            print(s, v, f"graph/ours_graph geomean {math.exp(sum(x) / len(x)):.3f}")
