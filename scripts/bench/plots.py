#!/usr/bin/env python3
"""The benchmark's plots from bench.py results (PNG, needs matplotlib).

  python3 scripts/bench/plots.py RESULTS.csv... --out DIR [--prefix P]

Writes DIR/Pspeedup.png (per workload: eager / ours and torch.compile /
ours per call, the eager chain's graph / ours in a graph, log scale) and
DIR/Proofline.png (% of the roofline bound of ours, the eager chain and
`fallback="auto"` in graphs). bench.py draws the same two from its rows;
this script redraws them from committed CSVs (docs/benchmarks/*.csv).
Exit status 2 without matplotlib.
"""
import argparse
import csv
import os
import sys

# (label, baseline, ours): bars of baseline / ours.
SPEEDUPS = [("eager / ours, per call", "eager", "ours"),
            ("torch.compile / ours, per call", "compile", "ours"),
            ("graph / ours, in graphs", "graph", "ours_graph")]
ROOFLINE = [("ours in a graph", "ours_graph"), ("eager chain in a graph", "graph"),
            ("auto in a graph", "ours_auto_graph")]


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def by_workload(rows):
    """{workload: {baseline: row}} in first-seen order."""
    by = {}
    for r in rows:
        by.setdefault(r["workload"], {})[r["baseline"]] = r
    return by


def _save(plt, fig, ax, path):
    """The legend, the layout, the PNG at `path` (returned); the figure
    closed."""
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_plots(rows, out, prefix=""):
    """Draws both plots of `rows` (bench.py's row dicts, values numbers or
    strings) into `out`; returns the files written ([] without
    matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    by = by_workload(rows)
    written = []
    names = [n for n, d in by.items() if "ours" in d or "ours_graph" in d]
    if names:
        fig, ax = plt.subplots(figsize=(max(6, len(names) * 0.35), 4))
        width = 0.8 / len(SPEEDUPS)
        for i, (label, base, ours) in enumerate(SPEEDUPS):
            xs, ys = [], []
            for j, n in enumerate(names):
                b = _num(by[n].get(base, {}).get("hot_us"))
                o = _num(by[n].get(ours, {}).get("hot_us"))
                if b and o:
                    xs.append(j + i * width)
                    ys.append(b / o)
            if xs:
                ax.bar(xs, ys, width, label=label)
        ax.set_yscale("log")
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(names))], names,
                      rotation=90, fontsize=6)
        ax.axhline(1.0, color="k", lw=0.5)
        ax.set_ylabel("speedup of ours (hot L2)")
        written.append(_save(plt, fig, ax, os.path.join(
            out, prefix + "speedup.png")))
    fig, ax = plt.subplots(figsize=(max(6, len(by) * 0.3), 4))
    for label, base in ROOFLINE:
        xs, ys = [], []
        for i, n in enumerate(by):
            p = _num(by[n].get(base, {}).get("pct_roofline"))
            if p is not None:
                xs.append(i)
                ys.append(p)
        if xs:
            ax.scatter(xs, ys, label=label, s=10)
    ax.axhline(85.0, color="k", lw=0.5, ls="--")
    ax.set_xticks(range(len(by)), list(by), rotation=90, fontsize=6)
    ax.set_ylabel("% of the roofline bound (hot L2)")
    written.append(_save(plt, fig, ax, os.path.join(
        out, prefix + "roofline.png")))
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--prefix", default="")
    a = ap.parse_args()
    rows = []
    for path in a.csv:
        with open(path, newline="") as f:
            rows += list(csv.DictReader(f))
    os.makedirs(a.out, exist_ok=True)
    written = write_plots(rows, a.out, a.prefix)
    if not written:
        sys.exit("plots: needs matplotlib")
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
