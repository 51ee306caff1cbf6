#!/usr/bin/env python3
"""Fits the single-GEMM constants of the kernel-family model (ff::KernelFit's
gemm*, lib/Analysis/CostModel.cpp estimateKernelNs for a chain of one GEMM)
to measured kernel times.

Input: a CSV of measured plans (docs/benchmarks/gemm-sweep-h100-s27.csv,
gemm-sweep-h100-s28.csv), written by --write-csv from <workload>-<variant>
bundles of single GEMMs or gated GEMMs (column g: 2 weights sharing A)
(compile-workloads.py --single-gemms --ranks R --spread S, or hand-set
plans) and the ff-run log that timed them (scripts/gpu/ab.sh). The model is
the C++ one term for term (--check-mirror compares it with the estimates
that bundles compiled by the current ff-opt carry in their manifests); the
free constants minimise the mean squared log error (Nelder-Mead on
logarithms from the current values), the others held. Prints per workload
the model's choice among the measured plans against the fastest, before
and after the fit, and the fitted constants.

usage: fit-gemm-model.py CSV... [--free gemmTflops,gemmSmemGbps] [--set N=V,...]
                             [--target h100-sxm|h200] [--report-only]
                             [--rows] [--json OUT]
       fit-gemm-model.py --bundles DIR... --log LOG --write-csv OUT
       fit-gemm-model.py --bundles DIR... --check-mirror
Needs numpy to fit.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fidelity import read_log  # noqa: E402

# The H100 SXM entry of lib/Analysis/Target.cpp (what the GEMM terms read);
# --target h200 takes that entry's HBM bandwidth, its only difference.
SMS = 132
GPC_SMS = [18, 18, 18, 18, 18, 16, 16, 10]
TARGET_HBM_GBPS = {"h100-sxm": 3350.0, "h200": 4800.0}
# Per-target KernelFit entries that differ from PARAMS (ff::lookupTarget).
TARGET_PARAMS = {"h200": {"gemmSplitKStreamLatencyNs": 1700.0}}
DSM_GBPS = {2: 3300.0, 4: 3100.0, 8: 3000.0}

# (name, value of ff::KernelFit): the single-GEMM constants and the shared
# ones their terms read. --free picks the fitted ones.
PARAMS = {"gemmTflops": 4.938, "gemmHbmEfficiency": 0.8,
          "gemmStreamLatencyNs": 2000.0, "gemmSmemGbps": 180.0,
          "smGbps": 100.0, "oneWarpgroupRate": 0.8159, "kStepNs": 0.0,
          "barrierNs": 220.1, "launchNs": 2000.0,
          "gemmLoneWarpgroupFactor": 1.01, "gemmL2Gbps": 9000.0,
          "gemmSplitKStreamLatencyNs": 2000.0,
          "gemmGatedLoneWaveFactor": 1.12}
KEYS = {"gemmTflops": "gemm_tflops", "gemmHbmEfficiency": "gemm_hbm_efficiency",
        "gemmStreamLatencyNs": "gemm_stream_latency_ns",
        "gemmSmemGbps": "gemm_smem_gbps",
        "gemmLoneWarpgroupFactor": "gemm_lone_warpgroup_factor",
        "gemmL2Gbps": "gemm_l2_gbps",
        "gemmSplitKStreamLatencyNs": "gemm_split_k_stream_latency_ns",
        "gemmGatedLoneWaveFactor": "gemm_gated_lone_wave_factor"}


def cdiv(a, b):
    return -(-a // b)


def max_active_clusters(c):
    return sum(g // c for g in GPC_SMS)


def predict_ns(r, p):
    """estimateKernelNs for one GEMM: whole waves of CTAs at `slots` active,
    a tail at its own count; each CTA its k steps then its store (a split-K
    cluster first reduce-scatters the fp32 tile over DSM)."""
    m, n, k = r["m"], r["n"], r["k"]
    bm, bn = r["blk_m"], r["blk_n"]
    g = r.get("g", 1)  # weights sharing A: 2 for a gated GEMM
    ck, cn = r["cluster_k"], r["cluster_n"]
    c = cn * ck
    # A solo tile may end past N (a partial last n tile).
    ctas = cdiv(m, bm) * cdiv(n, bn) * ck
    slots = max_active_clusters(c) * c
    ksteps = cdiv(cdiv(k, 64), ck)
    # getStreamReuse: what the CTAs stream over the chain's unique bytes.
    streamed = ksteps * 64.0 * (bm + g * bn) * 2
    unique = (m * k + g * k * n + m * n) * 2.0
    reuse = max(1.0, ctas * streamed / unique)
    flops = p["gemmTflops"] * 1e3 * (p["oneWarpgroupRate"] if bm == 64
                                     else 1.0)
    stage = (bm * 64 + g * 64 * bn) * 2.0
    # The SM's shared-memory port: the TMA writes the stage, and each
    # consumer warpgroup's wgmmas read its 64 rows of A and all of B (a
    # gated GEMM: once per weight).
    smem = stage + g * (bm * 64 + (bm // 64) * 64 * bn) * 2.0
    mma = 2.0 * bm * bn * 64 * g / flops

    # A lone consumer warpgroup (64-row tiles) pays a tie-break factor.
    lone = p["gemmLoneWarpgroupFactor"] if bm == 64 else 1.0
    # A split K whose CTAs fit one wave streams at its own ring latency.
    latency = max(p["gemmSplitKStreamLatencyNs"] if ck > 1 and ctas <= SMS
                  else p["gemmStreamLatencyNs"], 1.0)

    def cta(active):
        bw = min(p["smGbps"],
                 p["hbmGbps"] * p["gemmHbmEfficiency"] / active * reuse)
        # The consumers hold a stage only while its wgmmas (or their
        # shared-memory reads) run.
        held = min(1.0, max(mma, smem / p["gemmSmemGbps"]) / latency)
        bw0 = min(bw, max(r["stages"] - held, 1) * stage / latency)
        # Every active CTA draws its stage from L2 (an aggregate ceiling).
        l2 = stage * active / p["gemmL2Gbps"]
        t = ksteps * (max(stage / bw0, l2, mma, smem / p["gemmSmemGbps"]) +
                      p["kStepNs"])
        if ck > 1:
            dsm = DSM_GBPS[ck] / SMS
            return lone * (t + (ck - 1) * bm * (bn // ck) * 4.0 / dsm +
                           2 * p["barrierNs"] * math.log2(ck) +
                           bm * (bn // ck) * 2.0 / bw)
        return lone * (t + bm * bn * 2.0 / bw)

    full, tail = divmod(ctas, slots)
    t = 0.0
    if full:
        t += full * cta(slots)
    if tail:
        t += cta(tail)
    # A gated pair's lone warpgroup past one wave.
    if g == 2 and bm == 64 and ctas > slots:
        t *= p["gemmGatedLoneWaveFactor"]
    return p["launchNs"] + t


FIELDS = ["bundle", "workload", "m", "n", "k", "g", "cluster_n",
          "cluster_k", "blk_m", "blk_n", "stages", "cost_ns", "measured_us"]


def load_bundles(dirs, log):
    """Rows of the single-GEMM bundles in `dirs` that `log` timed and
    passed (all of them without a log)."""
    measured = read_log(log) if log else None
    rows = []
    for d in dirs:
        for name in sorted(os.listdir(d)):
            man = os.path.join(d, name, "manifest.json")
            if not os.path.isfile(man):
                continue
            status, us = (measured.get(name, ("missing", None))
                          if measured is not None else ("PASS", None))
            if status != "PASS" or (measured is not None and us is None):
                continue
            with open(man) as f:
                doc = json.load(f)
            chain, plan = doc["chain"], doc["kernels"][0]["plan"]
            # Plans the schedule attribute may hold (hand-set experiments
            # with deeper rings were built with a wider limit).
            if (chain["kind"] not in ("gemm", "gated_gemm") or
                    plan["stages"] > 8):
                continue
            rows.append({
                "bundle": name, "workload": name.rsplit("-", 1)[0],
                "m": chain["m"], "n": chain["n"], "k": chain["k"],
                "g": 2 if chain["kind"] == "gated_gemm" else 1,
                "cluster_n": plan["cluster"][1],
                "cluster_k": plan["cluster"][2], "blk_m": plan["block"][0],
                "blk_n": plan["block"][1], "stages": plan["stages"],
                "cost_ns": plan.get("cost_ns"), "measured_us": us})
    return rows


CSV_FIELDS = [f for f in FIELDS if f != "cost_ns"]


def load_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        # Sweeps before the gated GEMM have no `g` column.
        r["g"] = r.get("g") or 1
        for k in CSV_FIELDS[2:-1]:
            r[k] = int(r[k])
        r["measured_us"] = float(r["measured_us"])
    return rows


def report(rows, p, title):
    print("## " + title)
    print("workload | model's choice | µs | fastest | µs | choice/fastest")
    print("---|---|---|---|---|---")
    ratios = []
    by = {}
    for r in rows:
        by.setdefault(r["workload"], []).append(r)
    for w, rs in sorted(by.items()):
        choice = min(rs, key=lambda r: predict_ns(r, p))
        best = min(rs, key=lambda r: r["measured_us"])
        ratio = choice["measured_us"] / best["measured_us"]
        ratios.append(ratio)
        print("%s | %s | %.2f | %s | %.2f | %.3f" % (
            w, shape(choice), choice["measured_us"], shape(best),
            best["measured_us"], ratio))
    err = [math.log(predict_ns(r, p) / 1e3 / r["measured_us"]) for r in rows]
    print("geomean choice/fastest %.3f, rms log error %.3f over %d plans\n" % (
        math.exp(sum(map(math.log, ratios)) / len(ratios)),
        math.sqrt(sum(e * e for e in err) / len(err)),
        len(rows)))


def shape(r):
    return "%dx%d s%d c%dx%d" % (r["blk_m"], r["blk_n"], r["stages"],
                                 r["cluster_n"], r["cluster_k"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="*",
                    help="measured plans; with several, each file's "
                    "workloads are named FILE:WORKLOAD (their times compare "
                    "only within a file)")
    ap.add_argument("--bundles", nargs="+")
    ap.add_argument("--log", help="with --bundles: the ff-run log")
    ap.add_argument("--write-csv", help="with --bundles --log: write the rows")
    ap.add_argument("--check-mirror", action="store_true",
                    help="with --bundles: compare with the manifests' cost_ns")
    ap.add_argument("--free", default="gemmTflops,gemmSmemGbps")
    ap.add_argument("--set", default="",
                    help="NAME=VALUE,... starting values")
    ap.add_argument("--report-only", action="store_true",
                    help="the model's choices and error at the given "
                    "constants, no fit (no numpy needed)")
    ap.add_argument("--rows", action="store_true",
                    help="print every plan's measurement and estimate")
    ap.add_argument("--json")
    ap.add_argument("--target", default="h100-sxm")
    args = ap.parse_args()
    if args.target not in TARGET_HBM_GBPS:
        sys.exit("fit-gemm-model: --target is one of " +
                 ", ".join(TARGET_HBM_GBPS))
    p = dict(PARAMS, hbmGbps=TARGET_HBM_GBPS[args.target],
             **TARGET_PARAMS.get(args.target, {}))
    for kv in filter(None, args.set.split(",")):
        name, value = kv.split("=")
        p[name] = float(value)
    if args.check_mirror:
        if not args.bundles:
            sys.exit("fit-gemm-model: --check-mirror needs --bundles")
        rows = load_bundles(args.bundles, None)
        bad = 0
        for r in rows:
            est = predict_ns(r, p)
            if abs(est / r["cost_ns"] - 1) > 0.01:
                bad += 1
                print("%s: mirror %.0f ns, manifest %d ns" % (
                    r["bundle"], est, r["cost_ns"]))
        print("mirror: %d of %d estimates agree within 1 %%" % (
            len(rows) - bad, len(rows)))
        sys.exit(1 if bad or not rows else 0)
    if args.write_csv:
        if not args.bundles or not args.log:
            sys.exit("fit-gemm-model: --write-csv needs --bundles and --log")
        rows = load_bundles(args.bundles, args.log)
        with open(args.write_csv, "w", newline="") as f:
            # The manifests' estimates are the building ff-opt's, not kept.
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS, lineterminator="\n",
                               extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
        print("%d rows written to %s" % (len(rows), args.write_csv))
        return
    if not args.csv:
        sys.exit("fit-gemm-model: give a CSV to fit (or --bundles)")
    rows = []
    for path in args.csv:
        part = load_csv(path)
        if len(args.csv) > 1:
            stem = os.path.splitext(os.path.basename(path))[0]
            for r in part:
                r["workload"] = stem + ":" + r["workload"]
        rows += part
    if not rows:
        sys.exit("fit-gemm-model: no measured plans in " + " ".join(args.csv))
    report(rows, p, "before")
    if args.report_only:
        return
    import numpy as np
    free = args.free.split(",")
    meas = np.array([r["measured_us"] * 1e3 for r in rows])

    def loss(x):
        q = dict(p)
        q.update({f: math.exp(v) for f, v in zip(free, x)})
        est = np.array([predict_ns(r, q) for r in rows])
        return float(np.mean(np.square(np.log(est / meas))))

    from importlib import import_module
    nm = import_module("fit-kernel-model").nelder_mead
    x, _ = nm(loss, np.array([math.log(p[f]) for f in free]))
    p.update({f: math.exp(v) for f, v in zip(free, x)})
    print("fitted: " + ", ".join("%s = %.4g" % (f, p[f]) for f in free) + "\n")
    report(rows, p, "after")
    if args.rows:
        print("bundle | plan | measured µs | estimate µs")
        print("---|---|---|---")
        for r in sorted(rows, key=lambda r: (r["workload"], r["measured_us"])):
            print("%s | %s | %.2f | %.2f" % (r["bundle"], shape(r),
                                          r["measured_us"],
                                          predict_ns(r, p) / 1e3))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"target": args.target,
                       "kernel": {KEYS[f]: p[f] for f in free}}, f, indent=1)


if __name__ == "__main__":
    main()
