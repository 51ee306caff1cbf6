#!/usr/bin/env python3
"""Prints, per set (G, S, ...), the geomean of baseline / ours in CUDA graphs
(graph / ours_graph) and per call (eager / ours) from a bench.py
results.csv, with each workload's ratio.

usage: scripts/bench/ratios.py OUT/results.csv [SETS, default GS]
(C's batch variants count as workloads: C1-b1, C1-b32.)"""
import csv
import math
import re
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    sets = sys.argv[2] if len(sys.argv) > 2 else "GS"
    t = {(r["workload"], r["baseline"]): float(r["hot_us"]) for r in rows}
    for s in sets:
        # The set's workloads: G1, S3, C4-b32 (not the M sweeps' G5-m16).
        ws = sorted({r["workload"] for r in rows
                     if r["workload"][0] == s and
                     re.fullmatch(r"\d+(-b\d+)?", r["workload"][1:])},
                    key=lambda w: (int(w[1:].split("-")[0]), w))
        for num, den in (("graph", "ours_graph"), ("eager", "ours"),
                         ("eager", "ours_py"), ("graph", "ours_auto_graph"),
                         ("eager", "ours_auto")):
            ws_here = [w for w in ws if (w, num) in t and (w, den) in t]
            if not ws_here:
                continue
            g = [t[w, num] / t[w, den] for w in ws_here]
            print(s, f"{num}/{den} geomean "
                  f"{math.exp(sum(map(math.log, g)) / len(g)):.3f}",
                  " ".join(f"{w} {x:.2f}" for w, x in zip(ws_here, g)))


if __name__ == "__main__":
    main()
