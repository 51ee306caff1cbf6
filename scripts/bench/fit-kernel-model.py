#!/usr/bin/env python3
"""Fits the kernel-family model (ff::KernelFit, lib/Analysis/CostModel.cpp
estimateKernelNs) to measured kernel times.

Input: a fidelity CSV (docs/benchmarks/fidelity-h200.csv: workload shape,
plan, measured_us per candidate; scripts/bench/fidelity.py writes the
measurements, compile-workloads.sh --ranks/--spread the candidates). The
model is the C++ one, term for term; the constants minimise the mean
squared log error over all measured candidates (Nelder-Mead from the
current constants), with the HBM efficiency and the launch cost held at the
values given (they trade off against the per-step constants otherwise).
Prints the constants, the per-workload rank correlation and the model's
choice among the measured plans against the fastest, and a
leave-one-workload-out check (fit without the workload, rank it).

With --json OUT --target NAME it writes the constants as a calibration
file (`{"target": NAME, "kernel": {...}}`) that --dsm-search="calibration=
OUT" applies on top of the built-in ones.

usage: fit-kernel-model.py CSV [--hbm-gbps 4800] [--hbm-efficiency 0.625]
                               [--launch-ns 2000] [--no-cv]
                               [--json OUT --target NAME]
Needs numpy.
"""

import argparse
import csv
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fidelity import spearman  # noqa: E402

# (name, starting value): the fitted constants of ff::KernelFit.
PARAMS = [("smGbps", 36.15), ("smTflops", 2.313), ("kStepNs", 1361.0),
          ("chunkNs", 1008.0), ("reduceGbps", 2886.0), ("barrierNs", 19.6),
          ("finisherNs", 2742.0)]
# CTAs of one cluster size resident at once on an H200/H100 SXM (132 SMs,
# GPCs of 16-18 SMs; GpuTarget::getMaxActiveClusters x cluster size).
SLOTS = {1: 132, 2: 132, 4: 128, 8: 120, 16: 112}


def predict_ns(row, p, hbm, launch):
    sm_gbps, sm_tflops, kstep, chunk, red_gbps, barrier, finisher = p
    c, bm, bn, bk, bl = (row[k] for k in ("cluster_n", "blk_m", "blk_n",
                                         "blk_k", "blk_l"))
    g = 2 if row["kind"] == "gated_ffn" else 1
    ctas = math.ceil(row["m"] / bm) * row["grid_n"] * c
    slots = SLOTS[c]
    active = min(ctas, slots)
    waves = max(1.0, ctas / slots)
    bw = min(sm_gbps, hbm / active)
    flops = sm_tflops * 1e3
    stage = (bm * bk + bk * bn * g) * 2
    mma0 = 2.0 * bm * bn * bk * g / flops
    cta = math.ceil(row["k"] / bk) * (max(stage / bw, mma0) + kstep)
    workspace = row["grid_n"] > 1
    reduce = bm * bl * 4.0 / c * active / red_gbps if workspace else 0
    sync = 2 * barrier * math.log2(c) if c > 1 else 0
    mma1 = 2.0 * bm * bl * bn / flops
    cta += math.ceil(row["l"] / bl) * (max(bn * bl * 2 / bw, mma1 + reduce) +
                                       chunk + sync)
    if workspace:
        cta += finisher
    return launch + waves * cta


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["status"] != "PASS" or not r["measured_us"]:
                continue
            for k in ("m", "n", "k", "l", "cluster_n", "blk_m", "blk_n",
                      "blk_k", "blk_l", "grid_n", "stages", "sweep_rank"):
                r[k] = int(r[k])
            r["measured_us"] = float(r["measured_us"])
            rows.append(r)
    return rows


def nelder_mead(f, x0, iters=3000, step=0.4):
    n = len(x0)
    pts = [x0] + [x0 + step * np.eye(n)[i] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = np.argsort(vals)
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        c = np.mean(pts[:-1], axis=0)
        xr = c + (c - pts[-1])
        fr = f(xr)
        if fr < vals[0]:
            xe = c + 2 * (c - pts[-1])
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = c + 0.5 * (pts[-1] - c)
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                pts = [pts[0] + 0.5 * (p - pts[0]) for p in pts]
                vals = [f(p) for p in pts]
    i = int(np.argmin(vals))
    return pts[i], vals[i]


def fit(rows, hbm, launch):
    def loss(lp):
        p = np.exp(lp)
        return float(np.mean([math.log(predict_ns(r, p, hbm, launch) /
                                       (r["measured_us"] * 1e3)) ** 2
                              for r in rows]))
    x = np.log([v for _, v in PARAMS])
    for _ in range(2):
        x, v = nelder_mead(loss, x)
    return np.exp(x), math.sqrt(v)


def judge(rows, p, hbm, launch):
    """(rho, model's choice / fastest measured) over `rows`."""
    pred = [predict_ns(r, p, hbm, launch) for r in rows]
    meas = [r["measured_us"] for r in rows]
    choice = min(range(len(rows)), key=lambda i: (pred[i], i))
    return spearman(pred, meas), meas[choice] / min(meas)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--hbm-gbps", type=float, default=4800)
    ap.add_argument("--hbm-efficiency", type=float, default=0.625)
    ap.add_argument("--launch-ns", type=float, default=2000)
    ap.add_argument("--no-cv", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--target", default="h200")
    args = ap.parse_args()
    rows = load(args.csv)
    if not rows:
        sys.exit("fit-kernel-model: no measured rows in " + args.csv)
    hbm = args.hbm_gbps * args.hbm_efficiency
    p, rmse = fit(rows, hbm, args.launch_ns)
    print("%d measured kernels; rms log error %.3f" % (len(rows), rmse))
    for (name, _), v in zip(PARAMS, p):
        print("  %-11s = %.4g" % (name, v))
    if args.json:
        keys = {"smGbps": "sm_gbps", "smTflops": "sm_tflops",
                "kStepNs": "k_step_ns", "chunkNs": "chunk_ns",
                "reduceGbps": "reduce_gbps", "barrierNs": "barrier_ns",
                "finisherNs": "finisher_ns"}
        kernel = {keys[n]: round(float(v), 4) for (n, _), v in zip(PARAMS, p)}
        kernel["hbm_efficiency"] = args.hbm_efficiency
        kernel["launch_ns"] = args.launch_ns
        with open(args.json, "w") as f:
            json.dump({"target": args.target, "kernel": kernel}, f, indent=2)
            f.write("\n")
    workloads = sorted({r["workload"] for r in rows})
    print("| workload | rho (in sample) | choice / fastest | rho (held out) "
          "| choice / fastest (held out) |")
    print("|---|---|---|---|---|")
    for w in workloads:
        mine = [r for r in rows if r["workload"] == w]
        rho, ratio = judge(mine, p, hbm, args.launch_ns)
        cv = "| - | -"
        if not args.no_cv:
            q, _ = fit([r for r in rows if r["workload"] != w], hbm,
                       args.launch_ns)
            crho, cratio = judge(mine, q, hbm, args.launch_ns)
            cv = "| %.2f | %.3f" % (crho, cratio)
        print("| %s | %.2f | %.3f %s |" % (w, rho, ratio, cv), flush=True)


if __name__ == "__main__":
    main()
