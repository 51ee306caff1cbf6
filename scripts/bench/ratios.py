#!/usr/bin/env python3
"""Prints, per set (G, S, ...), the geomean of baseline / ours in CUDA graphs
(graph / ours_graph) and per call (eager / ours) from a bench.py
results.csv, with each workload's ratio.

usage: scripts/bench/ratios.py OUT/results.csv [SETS, default GS]"""
import csv
import math
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    sets = sys.argv[2] if len(sys.argv) > 2 else "GS"
    t = {(r["workload"], r["baseline"]): float(r["hot_us"]) for r in rows}
    for s in sets:
        ws = sorted({r["workload"] for r in rows
                     if r["workload"][0] == s and r["workload"][1:].isdigit()},
                    key=lambda w: int(w[1:]))
        for num, den in (("graph", "ours_graph"), ("eager", "ours"),
                         ("eager", "ours_py")):
            ws_here = [w for w in ws if (w, num) in t and (w, den) in t]
            if not ws_here:
                continue
            g = [t[w, num] / t[w, den] for w in ws_here]
            print(s, f"{num}/{den} geomean "
                  f"{math.exp(sum(map(math.log, g)) / len(g)):.3f}",
                  " ".join(f"{w} {x:.2f}" for w, x in zip(ws_here, g)))


if __name__ == "__main__":
    main()
