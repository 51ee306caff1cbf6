#!/usr/bin/env python3
"""The performance issue's targets, computed from bench.py results.

usage: targets.py RESULTS.csv... [--out TARGETS.md]

Reads the results.csv files that scripts/bench/bench.py writes (one per
process: compare rows within a file; different sets may come from different
files, and a workload found in several files is taken from the last) and
prints, as markdown, every target of the performance issue with the value
measured and whether it holds:

- geomeans per set (G1-G10, S1-S8, C1-C8 at batch 1 and at batch 32, the
  G5 and S3 M sweeps) of baseline time / ours: the fused kernel per call
  against eager and torch.compile, in a CUDA graph against the eager chain
  in a graph, and the same for `fallback="auto"`; gated FFNs also against
  their chain with gate and up as two GEMMs in a graph (graph_split);
- % of the roofline bound of ours in a graph for S1-S8, G5, G8 and every
  workload whose bound exceeds 20 us (also against the sustained matmul
  peak where the results have it);
- the single GEMMs (GEMM-4096, GEMM-8192) in graphs against cuBLAS's;
- every workload where ours (auto, per call and in a graph) is slower than
  the best baseline timed the same way.

Only workloads with both sides of a ratio measured count; a set without
any reads "-". No dependencies beyond the standard library.
"""
import argparse
import csv
import math
import re
import sys

SETS = [
    ("G1-G10", re.compile(r"^G([1-9]|10)$")),
    ("S1-S8", re.compile(r"^S[1-8]$")),
    ("C1-C8, batch 1", re.compile(r"^C[1-8]-b1$")),
    ("C1-C8, batch 32", re.compile(r"^C[1-8]-b32$")),
    ("G5 M sweep", re.compile(r"^G5-m\d+$")),
    ("S3 M sweep", re.compile(r"^S3-m\d+$")),
]

# (set, column, ours, baseline, target or None): ratio baseline / ours.
RATIOS = [
    ("G1-G10", "fused vs eager, per call", "ours", "eager", 3.1),
    ("G1-G10", "fused vs torch.compile, per call", "ours", "compile", 3.1),
    ("G1-G10", "fused vs graph, in graphs", "ours_graph", "graph", 1.6),
    ("C1-C8, batch 1", "fused vs eager, per call", "ours", "eager", 3.9),
    ("C1-C8, batch 32", "fused vs eager, per call", "ours", "eager", 3.9),
    ("C1-C8, batch 1", "fused vs graph, in graphs", "ours_graph", "graph",
     2.0),
    ("C1-C8, batch 32", "fused vs graph, in graphs", "ours_graph", "graph",
     2.0),
]
# Reported for every set, without a target of their own.
EXTRA = [
    ("fused vs eager, per call", "ours", "eager"),
    ("fused, direct launches, vs eager, per call", "ours_direct", "eager"),
    ("fused vs graph, in graphs", "ours_graph", "graph"),
    ("auto vs eager, per call", "ours_auto", "eager"),
    ("auto vs graph, in graphs", "ours_auto_graph", "graph"),
    ("fused vs torch.compile, per call", "ours", "compile"),
    ("fused vs split gate/up graph, in graphs", "ours_graph", "graph_split"),
    ("auto vs split gate/up graph, in graphs", "ours_auto_graph",
     "graph_split"),
]
ROOFLINE_TARGET = 85.0
ROOFLINE_NAMES = re.compile(r"^(S[1-8]|G5|G8)$")
GEMMS = ("GEMM-4096", "GEMM-8192")
GEMM_TARGET = 0.9


def load(paths):
    """{workload: {baseline: row}}, later files overriding earlier ones."""
    table = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                table.setdefault(row["workload"], {})[row["baseline"]] = row
    return table


def hot(row):
    try:
        v = float(row["hot_us"])
    except (KeyError, TypeError, ValueError):
        return None
    return v if v > 0 and math.isfinite(v) else None


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def set_ratio(table, pattern, ours, base):
    """Geomean over the set of base / ours, and how many workloads count."""
    ratios = []
    for name, rows in table.items():
        if not pattern.match(name):
            continue
        a, b = rows.get(ours), rows.get(base)
        ta, tb = hot(a) if a else None, hot(b) if b else None
        if ta and tb:
            ratios.append(tb / ta)
    return geomean(ratios), len(ratios)


def fmt(x, digits=2, suffix="x"):
    return "-" if x is None else f"{x:.{digits}f}{suffix}"


def verdict(value, target):
    if value is None:
        return "not measured"
    return "met" if value >= target else f"missed ({value / target:.0%} of it)"


def report(table):
    out = ["## Targets (computed by scripts/bench/targets.py)", "",
           "| set | target | measured | n | verdict |",
           "|---|---|---|---|---|"]
    patterns = dict(SETS)
    for set_name, what, ours, base, target in RATIOS:
        g, n = set_ratio(table, patterns[set_name], ours, base)
        out.append(f"| {set_name} | {what} >= {target}x | {fmt(g)} | {n} | "
                   f"{verdict(g, target)} |")

    # Roofline, against the peak at once (the bound) and, where
    # bench.py measured it, the peak after 2 s of matmuls (power-capped).
    rows = []
    for name, r in sorted(table.items()):
        ours = r.get("ours_graph")
        if not ours or hot(ours) is None:
            continue
        try:
            bound = float(ours["bound_us"])
            pct = float(ours["pct_roofline"])
        except (KeyError, ValueError):
            continue
        try:
            sust = float(ours.get("pct_roofline_sustained") or "")
        except ValueError:
            sust = None
        if ROOFLINE_NAMES.match(name) or bound > 20:
            rows.append((name, pct, sust))
    met = [n for n, p, _ in rows if p >= ROOFLINE_TARGET]
    sust = [p for _, _, p in rows if p is not None]
    also = (f" ({sum(p >= ROOFLINE_TARGET for p in sust)} of {len(sust)} "
            "against the sustained peak)" if sust else "")
    out.append(f"| S1-S8, G5, G8, bound > 20 us | ours in a graph >= "
               f"{ROOFLINE_TARGET:.0f}% of the roofline | "
               f"{len(met)} of {len(rows)}{also} | {len(rows)} | "
               f"{'met' if rows and len(met) == len(rows) else 'missed' if rows else 'not measured'} |")

    # Single GEMMs.
    for name in GEMMS:
        r = table.get(name, {})
        a, b = r.get("ours_graph"), r.get("graph")
        ratio = hot(b) / hot(a) if a and b and hot(a) and hot(b) else None
        out.append(f"| {name} | vs cuBLAS in graphs >= {GEMM_TARGET}x | "
                   f"{fmt(ratio)} | {1 if ratio else 0} | "
                   f"{verdict(ratio, GEMM_TARGET)} |")

    # Every set, every ratio.
    out += ["", "| set | " + " | ".join(w for w, _, _ in EXTRA) + " |",
            "|---|" + "---|" * len(EXTRA)]
    for set_name, pattern in SETS:
        cells = []
        for _, ours, base in EXTRA:
            g, n = set_ratio(table, pattern, ours, base)
            cells.append(f"{fmt(g)} ({n})" if n else "-")
        out.append(f"| {set_name} | " + " | ".join(cells) + " |")

    # Never slower than the best baseline, each way of timing.
    out += ["", "Workloads where `fallback=\"auto\"` is slower than the best "
            "baseline timed the same way (per call: eager, torch.compile, "
            "the split gate/up chain; in graphs: the eager chain's graph, "
            "the split chain's), by more than 5 %:", ""]
    slower = []
    for name, r in sorted(table.items()):
        for ours, bases in (("ours_auto", ("eager", "eager_split",
                                           "compile", "autotune")),
                            ("ours_auto_graph", ("graph", "graph_split"))):
            t = hot(r[ours]) if ours in r else None
            best = [(hot(r[b]), b) for b in bases if b in r and hot(r[b])]
            if t is None or not best:
                continue
            tb, b = min(best)
            if t > 1.05 * tb:
                slower.append(f"- {name}: {ours} {t:.2f} us, {b} {tb:.2f} us "
                              f"({t / tb:.2f}x)")
    out += slower or ["- none"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out")
    a = ap.parse_args()
    text = report(load(a.csv))
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
