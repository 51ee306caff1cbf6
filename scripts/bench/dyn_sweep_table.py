#!/usr/bin/env python3
"""The dynamic-M sweep's table from bench.py's results.csv files (one per
set): per workload PyTorch's best CUDA-graph chain (merged or split), ours
from the dynamic-M bundle (ours_dyn_graph) and, where the run had them,
from the bundle compiled for that very M (ours_graph); then the geomeans
per set (G, S) of best / ours and dynamic / exact-M.

usage: dyn_sweep_table.py RESULTS_CSV...
"""
import csv
import math
import os
import sys


def main(paths):
    acc = {}
    for path in paths:
        if not os.path.exists(path):
            print("missing", path)
            continue
        rows = list(csv.DictReader(open(path)))
        t = {(r["workload"], r["baseline"]): r for r in rows}
        for w in dict.fromkeys(r["workload"] for r in rows):
            def us(b):
                return float(t[w, b]["hot_us"]) if (w, b) in t else math.nan
            best = min(x for x in (us("graph"), us("graph_split"))
                       if x == x)
            dyn, exact = us("ours_dyn_graph"), us("ours_graph")
            checked = next((t[w, b]["rel_err"] for b in ("ours_dyn", "ours")
                            if (w, b) in t), "-")
            line = (f"{w:16s} best {best:9.2f} dyn {dyn:9.2f} "
                    f"best/dyn {best / dyn:5.2f}")
            ratios = {"best/dyn": best / dyn}
            if exact == exact:
                line += (f" exact {exact:9.2f} best/exact {best / exact:5.2f}"
                         f" dyn/exact {dyn / exact:5.2f}")
                ratios.update({"best/exact": best / exact,
                               "dyn/exact": dyn / exact})
            print(f"{line} err {checked}")
            chain_set = w.split("-")[1][0]
            for k, v in ratios.items():
                acc.setdefault(f"{chain_set} {k}", []).append(v)
    for k, v in acc.items():
        print(k, "geomean", round(math.exp(sum(map(math.log, v)) / len(v)), 3),
              "min", round(min(v), 3), "max", round(max(v), 3))


if __name__ == "__main__":
    main(sys.argv[1:])
