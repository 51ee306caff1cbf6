#!/usr/bin/env python3
"""Warp-stall samples of one kernel per SASS instruction (call4.sh's
ncu source-page CSVs): totals per stall reason for each run, then the
instructions whose samples grow most from run A to run B (same SASS).

  stalls.py DIR A B [TOP]   e.g. stalls.py OUT old-384 old-257 25
"""
import csv, sys


def load(path):
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"Address"'))
    rows = list(csv.reader(lines[start:]))
    head, body = rows[0], [r for r in rows[1:] if r and r[0] != "Address"]
    return head, [dict(zip(head, r)) for r in body]


def num(v):
    try:
        return float(v)
    except ValueError:
        return 0.0


def main():
    d, a, b = sys.argv[1:4]
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 25
    runs = {n: load(f"{d}/src-{n}.csv") for n in (a, b)}
    head = runs[a][0]
    reasons = [h for h in head if h.startswith("stall_") and "(Not" not in h]
    print("| stall | " + " | ".join(runs) + " |\n|---|---|---|")
    tot = {n: sum(num(r["Warp Stall Sampling (All Samples)"]) for r in runs[n][1]) for n in runs}
    for s in reasons:
        v = [sum(num(r[s]) for r in runs[n][1]) for n in runs]
        if max(v) > 0.005 * max(tot.values()):
            print(f"| {s} | " + " | ".join(f"{x:.0f}" for x in v) + " |")
    print("| all | " + " | ".join(f"{tot[n]:.0f}" for n in runs) + " |")
    ra, rb = runs[a][1], runs[b][1]
    if len(ra) != len(rb):
        print(f"different SASS ({len(ra)} vs {len(rb)} instructions)")
        return
    key = "Warp Stall Sampling (All Samples)"
    diff = sorted(range(len(ra)), key=lambda i: num(rb[i][key]) - num(ra[i][key]), reverse=True)
    print(f"\ninstructions with the most added samples, {a} -> {b}:")
    for i in diff[:top]:
        main_reason = max(reasons, key=lambda s: num(rb[i][s]) - num(ra[i][s]))
        print(f"{i:5d} {num(ra[i][key]):7.0f} {num(rb[i][key]):7.0f} "
              f"exec {ra[i]['Instructions Executed']:>7}/{rb[i]['Instructions Executed']:<7} "
              f"{main_reason:22s} {rb[i]['Source'].strip()[:70]}")


if __name__ == "__main__":
    main()
