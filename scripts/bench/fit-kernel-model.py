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
With --objective choice the loss adds a penalty on the model's choice per
workload (Objective: a softmin-weighted log regret, weight --rank-weight,
temperature --tau).
Prints the constants, the per-workload rank correlation and the model's
choice among the measured plans against the fastest, and a
leave-one-workload-out check (fit without the workload by the same
objective, rank it), with the rms log error and the geomean choice /
fastest over all workloads in sample and held out. --probe N instead
searches the free constants at random for the best choice in sample.

With --json OUT --target NAME it writes the constants as a calibration
file (`{"target": NAME, "kernel": {...}}`) that --dsm-search="calibration=
OUT" applies on top of the built-in ones.

usage: fit-kernel-model.py CSV [--hbm-gbps 4800] [--hbm-efficiency 0.625]
                               [--launch-ns 2000] [--sm-gbps B] [--no-cv]
                               [--free NAMES] [--objective error|choice]
                               [--rank-weight W] [--tau T] [--probe N]
                               [--json OUT --target NAME]
       fit-kernel-model.py --bundles DIR --log LOG [--ff-opt FF_OPT]
                           [--search-options S] [--write-csv OUT] ...
       fit-kernel-model.py CSV --check-mirror [--ff-opt FF_OPT]
                           [--search-options S]
Needs numpy.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fidelity import spearman  # noqa: E402
from workloads import C as CONV_CHAINS  # noqa: E402

# 3x3 convolutions by name: (H, W) of the image, whose kernels tile m by
# whole image rows unless no row fits or a GEMM cluster splits A
# (ChainDesc::getMTileRows, ff::usesConvImageRows).
CONV_IMAGES = {name: (h, w) for name, _, h, w, _, _, k1, _ in CONV_CHAINS
               if k1 == 3}


def tile_rows(row):
    """Output rows of one m tile (ChainDesc::getMTileRows)."""
    image = CONV_IMAGES.get(row["workload"].split("-")[0])
    bm = row["blk_m"]
    if image is None:
        return bm
    h, w = image
    rows = next((r for r in range(h, 0, -1) if h % r == 0 and r * w <= bm), 0)
    gemm_cluster = row.get("l", 0) == 0 and (
        row.get("cluster_n", 1) * row.get("cluster_k", 1) > 1)
    return rows * w if rows and w <= 256 and not gemm_cluster else bm

# (name, value of ff::KernelFit): the fitted constants. The fit starts from
# these (a zero from 1, the search runs on logarithms); --check-mirror
# compares the C++ model with this one at exactly these values.
PARAMS = [("smGbps", 100.0), ("smTflops", 3.356), ("kStepNs", 0.0),
          ("chunkNs", 1873.0), ("reduceGbps", 7247.0), ("barrierNs", 220.1),
          ("finisherNs", 2485.0), ("shuffleStepNs", 0.0),
          ("streamLatencyNs", 670.0), ("l2Gbps", 3620.0),
          ("oneWarpgroupRate", 0.8159), ("finisherGbps", 28.78),
          ("countInNs", 163.2), ("soloChunkNs", 600.0)]
KEYS = {"smGbps": "sm_gbps", "smTflops": "sm_tflops", "kStepNs": "k_step_ns",
        "chunkNs": "chunk_ns", "reduceGbps": "reduce_gbps",
        "barrierNs": "barrier_ns", "finisherNs": "finisher_ns",
        "shuffleStepNs": "shuffle_step_ns",
        "streamLatencyNs": "stream_latency_ns", "l2Gbps": "l2_gbps",
        "oneWarpgroupRate": "one_warpgroup_rate",
        "finisherGbps": "finisher_gbps", "countInNs": "count_in_ns",
        "soloChunkNs": "solo_chunk_ns"}
# SMs per GPC of an H100/H200 SXM (GpuTarget::gpcSms): clusters never
# straddle GPCs, so 132 / 66 / 30 / 15 / 7 clusters of 1 / 2 / 4 / 8 / 16
# are co-resident at one CTA per SM (measured on an H100 and an H200).
GPC_SMS = (18, 18, 18, 18, 18, 16, 16, 10)
# Measured co-resident clusters of 3 and 6 at one CTA per SM, below the
# split's 43 and 20 (GpuTarget::residentClusters).
RESIDENT_CLUSTERS = {3: 39, 6: 17}
SMS = 132
DSM_GBPS = {2: 3300, 4: 3100, 8: 3000, 16: 2900}  # GpuTarget::dsmGbps
SHUFFLE_SUB_TILE = 128
# Streamed-n plans (n temporal: cluster_n * grid_n * blk_n < N): act(C)
# per element of an n tile, their wgmma rate and L2 rate
# (KernelFit::streamElementNs, streamTflops, streamL2Gbps), fitted on T3
# and conv kernels separately and held here.
STREAM_ELEMENT_NS = 0.06
STREAM_TFLOPS = 7.5
STREAM_L2_GBPS = 10000.0
MAX_PERSISTENT_WAVES = 8


def streamed(row):
    """Whether the plan walks n inside the CTA (a streamed-n plan)."""
    return (row["kind"] != "gemm" and
            row["cluster_n"] * row["grid_n"] * row["blk_n"] < row["n"])


def splits_columns(row):
    """ff::splitsStreamedColumns: a streamed 64-row tile whose accumulators
    are split over two consumer warpgroups."""
    bm, bn, bl = row["blk_m"], row["blk_n"], row["blk_l"]
    return (streamed(row) and bm == 64 and bn + bl > 256 and
            bn % 128 == 0 and bl % 128 == 0 and (bn + bl) // 2 <= 256)


def solo(row):
    """A solo plan of at least a full wave (estimateCtaNs: `solo`): a
    two-GEMM plan whose CTA computes its m tile's whole chain alone
    (Plan::isSolo: a cluster of one, grid_n = 1, n not streamed) with as
    many CTAs as SMs or more."""
    return (row["kind"] != "gemm" and row["cluster_n"] == 1 and
            row.get("cluster_k", 1) == 1 and row.get("cluster_l", 1) == 1 and
            row["grid_n"] == 1 and not streamed(row) and
            kernel_ctas(row) >= SMS)


def persistent(row, per_sm):
    """runsPersistent: a solo plan, or a streamed one on a cluster of one
    whose columns one warpgroup holds, at one CTA per SM over more than one
    wave of the SMs and at most eight (the runtime's kMaxPersistentWaves)."""
    alone = solo(row) or (streamed(row) and row["cluster_n"] == 1 and
                          row["grid_n"] == 1 and not splits_columns(row))
    return (alone and per_sm == 1 and
            SMS < kernel_ctas(row) <= MAX_PERSISTENT_WAVES * SMS)


SMEM_LIMIT = 227 * 1024 - 1024  # smemPerBlock - smemReserved


def halo_stages(row, per_sm):
    """getConvHaloStages: the ring depth of a persistent resident-weights
    3x3 convolution whose 128-row tile is two image rows (0: no halo)."""
    image = CONV_IMAGES.get(row["workload"].split("-")[0])
    if image is None:
        return 0
    w = image[1]
    bm, bn, bk, st = row["blk_m"], row["blk_n"], k_tile(row), row["stages"]
    if (bm != 128 or bk != 64 or w + 2 > 256 or (row["k"] // 9) % 64 or
            tile_rows(row) != 2 * w or not solo(row) or
            not persistent(row, per_sm)):
        return 0
    g = 2 if row["kind"] == "gated_ffn" else 1
    ring = st * bm * bk * 2
    resident = -(-(ring + math.ceil(row["k"] / bk) * g * bk * bn * 2 +
                   bm * bn * 2 + bn * row["l"] * 2 + 16) // 1024) * 1024
    if resident > SMEM_LIMIT:
        return 0
    slot = -(-max(3 * (w + 2), 2 * (w + 2) + 66) * 128 // 1024) * 1024
    for stages in range(st, 1, -1):
        if stages * 2 * slot + resident - ring <= SMEM_LIMIT:
            return stages
    return 0


def a_scale(row, per_sm):
    """The share of A's ring bytes a conv halo loads (estimateKernelNs)."""
    if not halo_stages(row, per_sm):
        return 1.0
    w = CONV_IMAGES[row["workload"].split("-")[0]][1]
    return 6.0 * (w + 2) / (9.0 * row["blk_m"])


def slots(c, ctas_per_sm=1):
    n = sum(g * ctas_per_sm // c for g in GPC_SMS)
    if c in RESIDENT_CLUSTERS:
        n = min(n, RESIDENT_CLUSTERS[c] * ctas_per_sm)
    return n * c


def in_flight(stages):
    """Stages of the ring loading while the consumer holds one
    (estimateCtaNs: `inFlight`)."""
    return max(stages - 1, 1)


def finisher_bytes(row):
    """What the workspace's last arriver reads back: the m tile's valid
    rows of the fp32 columns its rank owns (blk_l in the shuffle family,
    its 1/c of every l chunk in the reduce-scatter family); 0 without a
    workspace."""
    if row["grid_n"] <= 1:
        return 0.0
    c, bl = row["cluster_n"], row["blk_l"]
    owned = bl if row.get("cluster_l", 1) > 1 else \
        math.ceil(row["l"] / bl) * bl / c
    return min(tile_rows(row), max(row["m"], 1)) * owned * 4.0


def kernel_ctas(row):
    """getKernelCtas: m tiles x grid_n x cluster."""
    return (math.ceil(row["m"] / tile_rows(row)) * row["grid_n"] *
            row["cluster_n"] * row.get("cluster_k", 1))


def k_tile(row):
    """The k step: 64 for a split K (the shuffle family's cls_k > 1, whose
    blk_k is each CTA's share), else blk_k."""
    return 64 if row.get("cluster_k", 1) > 1 else row["blk_k"]


def k_steps(row):
    """k steps one CTA runs: of all of K, or of its 1 / cls_k share."""
    return math.ceil(math.ceil(row["k"] / k_tile(row)) /
                     row.get("cluster_k", 1))


def dsm_per_sm(c):
    """The per-SM DSM rate of a cluster of c CTAs (GpuTarget::getDsmGbps)."""
    return DSM_GBPS[min(x for x in DSM_GBPS if x >= max(c, 2))] / SMS


def stream_reuse(row):
    """getStreamReuse: bytes the CTAs stream over the chain's unique bytes."""
    c, bm, bn, bk, bl = (row[k] for k in ("cluster_n", "blk_m", "blk_n",
                                         "blk_k", "blk_l"))
    g = 2 if row["kind"] == "gated_ffn" else 1
    # A gathered split K streams its share of K in 64-wide steps.
    k_len = (k_steps(row) * 64 if row.get("cluster_k", 1) > 1 else
             math.ceil(row["k"] / bk) * bk)
    cta = k_len * (bm + bn * g) * 2.0
    if row.get("cluster_l", 1) > 1:
        sub = min(bl, SHUFFLE_SUB_TILE)
        cta += math.ceil(bl / sub) * (c * bn // 64) * 64.0 * sub * 2
    else:
        cta += math.ceil(row["l"] / bl) * bn * bl * 2.0
    if streamed(row):
        cta *= math.ceil(row["n"] / (bn * c))
    a = row["m"] * row["k"] * 2.0
    if row["workload"].split("-")[0] in CONV_IMAGES:
        a /= 9
    unique = (a + row["k"] * row["n"] * g * 2.0 + row["n"] * row["l"] * 2.0 +
              row["m"] * row["l"] * 2.0)
    return max(1.0, kernel_ctas(row) * cta / unique)


def cta_ns(row, p, hbm, active, alone=False, ascale=1.0):
    """estimateCtaNs (lib/Analysis/CostModel.cpp), term for term; `alone`:
    no other CTA shares the SM; `ascale`: its aScale."""
    (sm_gbps, sm_tflops, kstep, chunk, red_gbps, barrier, finisher,
     shuffle_step, stream_latency, l2_gbps, one_wg, fin_gbps, count_in,
     solo_chunk) = p
    c, bm, bn, bl = (row[k] for k in ("cluster_n", "blk_m", "blk_n", "blk_l"))
    bk, ck = k_tile(row), row.get("cluster_k", 1)
    g = 2 if row["kind"] == "gated_ffn" else 1
    # Streamed and solo plans: each CTA runs its m tile's chain alone, at
    # the streamed family's L2 and wgmma rates.
    if streamed(row) or solo(row):
        l2_gbps = STREAM_L2_GBPS
    bw = min(sm_gbps, l2_gbps / active, hbm * stream_reuse(row) / active)
    if streamed(row) or solo(row):
        sm_tflops = STREAM_TFLOPS
    one = bm == 64 and not splits_columns(row)
    flops = sm_tflops * 1e3 * (one_wg if one else 1.0)
    stage = (ascale * bm * bk + bk * bn * g) * 2
    mma0 = 2.0 * bm * bn * bk * g / flops
    bw0 = min(bw, in_flight(row["stages"]) * stage / max(stream_latency, 1.0))
    cta = k_steps(row) * (max(stage / bw0, mma0) + kstep)
    workspace = row["grid_n"] > 1
    if streamed(row):
        mma1 = 2.0 * bm * bl * bn / flops
        tiles = (math.ceil(row["n"] / (bn * c)) *
                 (cta + max(bn * bl * 2 / bw, mma1) +
                  bm * bn * STREAM_ELEMENT_NS))
        # Split over c > 1 CTAs: one reduce-scatter of E's partials, then
        # each rank stores its 1/c of the columns.
        pull = barriers = 0.0
        if c > 1:
            dsm = DSM_GBPS[min(x for x in DSM_GBPS if x >= c)] / SMS
            pull = (c - 1) * bm * (bl // c) * 4.0 / dsm
            barriers = 2 * barrier * math.log2(c)
        return tiles + pull + barriers + bm * (bl // c) * 2 / bw
    if row.get("cluster_l", 1) > 1:  # the shuffle family
        sub = min(bl, SHUFFLE_SUB_TILE)
        ranks = c * ck
        dsm = dsm_per_sm(ranks)
        syncs = 2 * barrier * math.log2(ranks)
        if ck > 1:  # the k group's reduce-scatter of fp32 partials
            cta += (ck - 1) * bm * (bn // ck) * 4.0 / dsm + syncs
        cta += (ranks - 1) * bm * (bn // ck) * 2 / dsm + syncs
        mma1 = 2.0 * bm * sub * 64 / flops
        steps = math.ceil(bl / sub) * (c * bn // 64)
        cta += steps * (max(64.0 * sub * 2 / bw, mma1) + shuffle_step)
        if workspace:
            cta += bm * bl * 4.0 * active / red_gbps
    else:
        reduce = bm * bl * 4.0 / c * active / red_gbps if workspace else 0
        sync = 2 * barrier * math.log2(c) if c > 1 else 0
        mma1 = 2.0 * bm * bl * bn / flops
        cta += math.ceil(row["l"] / bl) * (
            max(bn * bl * 2 / bw, mma1 + reduce) +
            (solo_chunk if solo(row) else chunk) + sync)
        # A solo CTA alone on its SM exposes its last chunk's E store.
        if solo(row) and alone:
            cta += bm * bl * 2.0 / bw
    if workspace:
        cta += (finisher + finisher_bytes(row) / fin_gbps +
                count_in * row["grid_n"])
    return cta


def predict_ns(row, p, hbm, launch):
    """estimateKernelNs: whole waves of co-resident clusters."""
    c = row["cluster_n"] * row.get("cluster_k", 1)
    ctas = kernel_ctas(row)
    # A streamed n split over a cluster counts one CTA per SM.
    per_sm = 1 if streamed(row) and c > 1 else row.get("ctas_per_sm", 1)
    s = slots(c, per_sm)
    if persistent(row, per_sm):
        # The CTA with the most tiles: one ring latency hidden per tile
        # after its first, only its last E store exposed.
        tiles = -(-ctas // s)
        bw = min(p[0], STREAM_L2_GBPS / s, hbm * stream_reuse(row) / s)
        e_store = row["blk_m"] * row["blk_l"] * 2.0 / bw
        # A streamed CTA's time already ends in its E store.
        cta = (cta_ns(row, p, hbm, s, ascale=a_scale(row, per_sm)) -
               (e_store if streamed(row) else 0))
        return launch + tiles * cta - (tiles - 1) * p[8] + e_store
    full, tail = divmod(ctas, s)
    t = launch
    if full:
        t += full * cta_ns(row, p, hbm, s, per_sm == 1)
    if tail:
        t += cta_ns(row, p, hbm, tail, per_sm == 1 or tail <= SMS)
    return t


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["status"] != "PASS" or not r["measured_us"]:
                continue
            for k in ("m", "n", "k", "l", "cluster_n", "blk_m", "blk_n",
                      "blk_k", "blk_l", "grid_n", "stages", "sweep_rank"):
                r[k] = int(r[k])
            r["cluster_l"] = int(r.get("cluster_l") or 1)
            r["cluster_k"] = int(r.get("cluster_k") or 1)
            r["ctas_per_sm"] = int(r.get("ctas_per_sm") or 1)
            r["measured_us"] = float(r["measured_us"])
            rows.append(r)
    return rows


CSV_FIELDS = ["workload", "sweep_rank", "kind", "m", "n", "k", "l",
              "cluster_n", "cluster_k", "cluster_l", "blk_m", "blk_n", "blk_k",
              "blk_l",
              "grid_n", "stages", "ctas_per_sm", "status", "measured_us"]


def load_bundles(bundles, log, ff_opt, search_options):
    """Rows from <workload>-r<rank> bundles (their manifests' plans) and the
    RESULT lines of the ff-run log (scripts/gpu/ab.sh, validate.sh). The
    CTAs per SM each plan runs at come from `ff_opt`'s search dump (the
    kernel's own shared memory; the manifests do not record it)."""
    from fidelity import read_log, current_candidates, plan_key
    measured = read_log(log)
    dumps = {}
    rows = []
    for d in sorted(os.listdir(bundles)):
        m = re.match(r"^(.*)-r(\d+)$", d)
        man = os.path.join(bundles, d, "manifest.json")
        if not m or not os.path.isfile(man):
            continue
        status, us = measured.get(d, ("missing", None))
        if status != "PASS" or us is None:
            continue
        with open(man) as f:
            doc = json.load(f)
        plan, chain = doc["kernels"][0]["plan"], doc["chain"]
        kind = chain["kind"]
        w = m.group(1)
        if w not in dumps:
            dumps[w] = current_candidates(ff_opt, w, search_options)
        cand = dumps[w].get(plan_key(plan))
        if cand is None:
            sys.exit("fit-kernel-model: %s: the plan is not among the "
                     "current search's candidates" % d)
        rows.append({
            "workload": m.group(1), "sweep_rank": int(m.group(2)),
            "kind": "gated_ffn" if kind in ("gated_ffn", "gated_conv")
            else kind, "m": chain["m"], "n": chain["n"], "k": chain["k"],
            "l": chain["l"], "cluster_n": plan["cluster"][1],
            "cluster_k": plan["cluster"][2], "cluster_l": plan["cluster"][3],
            "blk_m": plan["block"][0],
            "blk_n": plan["block"][1], "blk_k": plan["block"][2],
            "blk_l": plan["block"][3], "grid_n": plan["grid"][1],
            "stages": plan["stages"],
            "ctas_per_sm": cand["kernel_ctas_per_sm"], "status": status,
            "measured_us": us})
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


class Batch:
    """predict_ns over many rows at once (numpy), for the fit's loss: the
    per-row integers (waves, steps, slots) do not depend on the constants,
    so they are computed once. Agrees with predict_ns to rounding; fit()
    checks that."""

    def __init__(self, rows):
        def col(f):
            return np.array([f(r) for r in rows], dtype=float)
        c = col(lambda r: r["cluster_n"])
        ck = col(lambda r: r.get("cluster_k", 1))
        bm, bn, bl = (col(lambda r, k=k: r[k])
                      for k in ("blk_m", "blk_n", "blk_l"))
        bk = col(k_tile)
        g = col(lambda r: 2 if r["kind"] == "gated_ffn" else 1)
        self.ws = col(lambda r: r["grid_n"] > 1)
        self.planes = self.ws * col(lambda r: r["grid_n"])
        self.reuse = col(stream_reuse)
        self.bm64 = col(lambda r: r["blk_m"] == 64) > 0
        self.shuffle = col(lambda r: r.get("cluster_l", 1) > 1)
        # A conv halo's A bytes (persistent rows only, whose estimate is
        # the persistent one).
        ascale = col(lambda r: a_scale(
            r, 1 if streamed(r) and r["cluster_n"] > 1
            else r.get("ctas_per_sm", 1)))
        self.stage = (ascale * bm * bk + bk * bn * g) * 2
        self.flops0 = 2.0 * bm * bn * bk * g
        self.depth = col(lambda r: in_flight(r["stages"])) * self.stage
        self.ksteps = col(k_steps)
        self.log2c = np.log2(c)
        ranks = c * ck
        # The shuffle family's terms (zero where the row is not one).
        sub = np.minimum(bl, SHUFFLE_SUB_TILE)
        dsm = col(lambda r: dsm_per_sm(r["cluster_n"] *
                                       r.get("cluster_k", 1)))
        sh = self.shuffle
        # Split K: the k group's pull of fp32 partials, then the gather of
        # the cluster's c * cls_k slices (each with two cluster barriers).
        self.gather = sh * ((ranks - 1) * bm * (bn // ck) * 2 +
                            (ck - 1) * bm * (bn // ck) * 4.0) / dsm
        self.syncs = sh * (1 + (ck > 1)) * np.log2(ranks)
        self.dbytes = 64.0 * sub * 2
        self.flops1s = 2.0 * bm * sub * 64
        self.steps = sh * col(lambda r: math.ceil(
            r["blk_l"] / min(r["blk_l"], SHUFFLE_SUB_TILE)) *
            (r["cluster_n"] * r["blk_n"] // 64))
        self.sred = sh * self.ws * bm * bl * 4.0
        # The reduce-scatter family's.
        self.chunks = (1 - sh) * col(lambda r: math.ceil(r["l"] / r["blk_l"]))
        self.solo = col(solo) > 0
        self.wbytes = bn * bl * 2
        self.ebytes = self.solo * bm * bl * 2.0
        self.flops1 = 2.0 * bm * bl * bn
        self.rred = self.ws * bm * bl * 4.0 / c
        self.sync = (c > 1) * 2 * self.log2c
        self.fbytes = col(finisher_bytes)
        # Waves: `full` CTA times at `slots` active CTAs, one at `tail`.
        self.slots = col(lambda r: slots(r["cluster_n"] *
                                         r.get("cluster_k", 1),
                                         r.get("ctas_per_sm", 1)))
        ctas = col(kernel_ctas)
        self.full, self.tail = np.divmod(ctas, self.slots)
        # Whether a full wave's CTAs, a tail's, are alone on their SMs.
        per_sm = col(lambda r: 1 if streamed(r) and r["cluster_n"] > 1
                     else r.get("ctas_per_sm", 1))
        self.alone_full = per_sm == 1
        self.alone_tail = (per_sm == 1) | (self.tail <= SMS)
        self.pers = col(lambda r: persistent(
            r, 1 if streamed(r) and r["cluster_n"] > 1
            else r.get("ctas_per_sm", 1))) > 0
        self.ptiles = np.ceil(ctas / self.slots)
        self.pbytes = bm * bl * 2.0

    def cta(self, p, hbm, active, alone):
        (sm_gbps, sm_tflops, kstep, chunk, red_gbps, barrier, finisher,
         shuffle_step, stream_latency, l2_gbps, one_wg, fin_gbps, count_in,
         solo_chunk) = p
        l2 = np.where(self.solo, STREAM_L2_GBPS, l2_gbps)
        bw = np.minimum(np.minimum(sm_gbps, l2 / active),
                        hbm * self.reuse / active)
        flops = (np.where(self.solo, STREAM_TFLOPS, sm_tflops) * 1e3 *
                 np.where(self.bm64, one_wg, 1.0))
        bw0 = np.minimum(bw, self.depth / max(stream_latency, 1.0))
        cta = self.ksteps * (np.maximum(self.stage / bw0,
                                        self.flops0 / flops) + kstep)
        cta = cta + self.gather + 2 * barrier * self.syncs
        cta = cta + self.steps * (np.maximum(self.dbytes / bw,
                                             self.flops1s / flops) +
                                  shuffle_step)
        cta = cta + self.sred * active / red_gbps
        cta = cta + self.chunks * (
            np.maximum(self.wbytes / bw,
                       self.flops1 / flops + self.rred * active / red_gbps) +
            np.where(self.solo, solo_chunk, chunk) + barrier * self.sync)
        cta = cta + alone * self.ebytes / bw
        return (cta + self.ws * finisher + self.fbytes / fin_gbps +
                count_in * self.planes)

    def predict(self, p, hbm, launch):
        per_wave = self.cta(p, hbm, self.slots, self.alone_full)
        t = launch + self.full * per_wave
        tail = np.maximum(self.tail, 1)
        t = t + (self.tail > 0) * self.cta(p, hbm, tail, self.alone_tail)
        # Persistent solo kernels (predict_ns).
        bw = np.minimum(np.minimum(p[0], STREAM_L2_GBPS / self.slots),
                        hbm * self.reuse / self.slots)
        pers = (launch + self.ptiles * self.cta(p, hbm, self.slots, False) -
                (self.ptiles - 1) * p[8] + self.pbytes / bw)
        return np.where(self.pers, pers, t)


class Objective:
    """The fit's loss over `rows`: the mean squared log error, plus with
    rank_weight > 0 a penalty on the model's choice. For each workload the
    plans are weighted by a softmin of their log estimates (temperature
    tau: the plan the model would choose has weight ~1 as tau -> 0), and
    the penalty is the weighted mean of log(measured / fastest measured),
    averaged over workloads: a smooth stand-in for the log regret of the
    choice, near zero when the model ranks the fastest plan first."""

    def __init__(self, rows, hbm, launch, rank_weight=0.0, tau=0.05):
        self.batch = Batch(rows)
        self.hbm, self.launch = hbm, launch
        self.rank_weight, self.tau = rank_weight, tau
        self.log_meas = np.log([r["measured_us"] * 1e3 for r in rows])
        self.names = sorted({r["workload"] for r in rows})
        self.groups = [np.array([i for i, r in enumerate(rows)
                                 if r["workload"] == w]) for w in self.names]
        self.regret = np.zeros(len(rows))
        for idx in self.groups:
            self.regret[idx] = self.log_meas[idx] - self.log_meas[idx].min()

    def __call__(self, p):
        err = np.log(self.batch.predict(p, self.hbm, self.launch))
        mse = float(np.mean((err - self.log_meas) ** 2))
        if self.rank_weight <= 0:
            return mse
        pen = 0.0
        for idx in self.groups:
            z = -(err[idx] - err[idx].min()) / self.tau
            w = np.exp(z)
            pen += float(np.dot(w, self.regret[idx]) / w.sum())
        return mse + self.rank_weight * pen / len(self.groups)


def fit(rows, hbm, launch, held=None, rank_weight=0.0, tau=0.05):
    """Constants minimising the Objective over `rows` (by default the mean
    squared log error) and the rms log error at them; `held` maps names of
    PARAMS to values kept fixed."""
    held = held or {}
    free = [i for i, (n, _) in enumerate(PARAMS) if n not in held]
    obj = Objective(rows, hbm, launch, rank_weight, tau)
    p0 = [held.get(n, v) for n, v in PARAMS]
    scalar = [predict_ns(r, p0, hbm, launch) for r in rows]
    if not np.allclose(obj.batch.predict(p0, hbm, launch), scalar,
                       rtol=1e-9, atol=1e-6):
        sys.exit("fit-kernel-model: Batch differs from predict_ns")

    def full(lp):
        p = list(p0)
        for i, x in zip(free, np.exp(lp)):
            p[i] = x
        return p

    def loss(lp):
        return obj(full(lp))
    x = np.log([max(PARAMS[i][1], 1.0) for i in free])
    for _ in range(2):
        x, v = nelder_mead(loss, x)
    p = np.array(full(x))
    return p, rms_log_error(rows, p, hbm, launch)


def rms_log_error(rows, p, hbm, launch):
    return math.sqrt(np.mean([math.log(predict_ns(r, p, hbm, launch) /
                                       (r["measured_us"] * 1e3)) ** 2
                              for r in rows]))


def probe(rows, hbm, launch, held, n, seed=0):
    """The best choice any constants give in sample: `n` random vectors of
    the free constants (log-uniform within e^±1.5 of PARAMS), then `n`
    steps of hill-climbing from the best 4 (log-normal steps of 0.3), judged
    by the geomean of choice / fastest, then the number of workloads whose
    fastest plan is chosen, then the rms log error. Prints the best and,
    per workload, how many of the random vectors choose its fastest plan."""
    obj, rng = Objective(rows, hbm, launch), np.random.default_rng(seed)
    batch, log_meas, names, groups = (obj.batch, obj.log_meas, obj.names,
                                      obj.groups)
    free = [i for i, (name, _) in enumerate(PARAMS) if name not in held]
    p0 = np.array([held.get(name, v) for name, v in PARAMS])

    def judge_all(p):
        pred = batch.predict(p, hbm, launch)
        regret = np.array([log_meas[g[np.lexsort((g, pred[g]))[0]]] -
                           log_meas[g].min() for g in groups])
        rms = math.sqrt(np.mean((np.log(pred) - log_meas) ** 2))
        return (round(float(np.mean(regret)), 9), -int(np.sum(regret == 0)),
                rms), regret == 0

    def draw(center, scale, uniform):
        p = center.copy()
        x = np.log(np.maximum(center[free], 1e-9))
        p[free] = np.exp(x + (rng.uniform(-scale, scale, len(free))
                              if uniform else
                              rng.normal(0, scale, len(free))))
        return p
    starts, hits = [(judge_all(p0)[0], p0)], np.zeros(len(names), dtype=int)
    for _ in range(n):
        p = draw(np.maximum(p0, 1.0), 1.5, True)
        k, chosen = judge_all(p)
        hits += chosen
        starts = sorted(starts + [(k, p)], key=lambda b: b[0])[:4]
    climbed = []
    for best in starts:
        for _ in range(n // len(starts)):
            p = draw(best[1], 0.3, False)
            k, _ = judge_all(p)
            best = min(best, (k, p), key=lambda b: b[0])
        climbed.append(best)
    (regret, count, rms), p = min(climbed, key=lambda b: b[0])
    print("probe: best of %d random and %d hill-climbing vectors: first "
          "choice fastest on %d of %d, geomean choice / fastest %.3f, rms "
          "log error %.3f" % (n, n, -count, len(names), math.exp(regret),
                              rms))
    for (name, _), v in zip(PARAMS, p):
        print("  %-11s = %.4g" % (name, v))
    print("fastest chosen by the random vectors: " +
          ", ".join("%s %d" % (w, h) for w, h in zip(names, hits)))


def judge(rows, p, hbm, launch):
    """(rho, model's choice / fastest measured) over `rows`."""
    pred = [predict_ns(r, p, hbm, launch) for r in rows]
    meas = [r["measured_us"] for r in rows]
    choice = min(range(len(rows)), key=lambda i: (pred[i], i))
    return spearman(pred, meas), meas[choice] / min(meas)


def row_key(r):
    """The plan key (fidelity.plan_key) of a row."""
    return ((1, r["cluster_n"], r.get("cluster_k", 1), r["cluster_l"]),
            (r["blk_m"], r["blk_n"], r["blk_k"], r["blk_l"]),
            (-(-r["m"] // r["blk_m"]), r["grid_n"], 1, 1), r["stages"])


def refresh_cps(rows, ff_opt, search_options):
    """Rows with the CTAs per SM the current search grants their plans;
    rows of plans it no longer offers are left out."""
    from fidelity import current_candidates
    cands, out, changed = {}, [], 0
    for r in rows:
        w = r["workload"]
        if w not in cands:
            cands[w] = current_candidates(ff_opt, w, search_options)
        cand = cands[w].get(row_key(r))
        if cand is not None:
            changed += cand["kernel_ctas_per_sm"] != r["ctas_per_sm"]
            out.append(dict(r, ctas_per_sm=cand["kernel_ctas_per_sm"]))
    print("refresh-cps: %d of %d rows kept, %d with new CTAs per SM" %
          (len(out), len(rows), changed))
    return out


def check_mirror(rows, ff_opt, search_options, hbm, launch):
    """Whether this model at PARAMS gives the estimates --dsm-search
    records (rounded to 1 ns) for every row's plan that is one of its
    lowerable candidates (a row of a plan the search no longer offers, e.g.
    a split K outside passesSplitKRule, is counted as skipped)."""
    from fidelity import current_candidates
    p = [v for _, v in PARAMS]
    cands, differ, skipped = {}, 0, 0
    for r in rows:
        w = r["workload"]
        if w not in cands:
            cands[w] = current_candidates(ff_opt, w, search_options)
        cand = cands[w].get(row_key(r))
        if cand is None:
            skipped += 1
            continue
        # The CTAs per SM the search's dataflow grants the plan now (a
        # row's own column is what it granted when the row was measured).
        r = dict(r, ctas_per_sm=cand["kernel_ctas_per_sm"])
        cxx, py = cand["cost_ns"], predict_ns(r, p, hbm, launch)
        if abs(cxx - py) > 1:
            differ += 1
            print("differs: %s r%d: ff-opt %s, here %.0f ns" %
                  (w, r["sweep_rank"], cxx, py))
    print("mirror: %d of %d estimates agree with %s (%d rows not "
          "lowerable candidates now, skipped)" %
          (len(rows) - skipped - differ, len(rows) - skipped, ff_opt,
           skipped))
    return differ == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="?")
    ap.add_argument("--bundles", help="a --ranks sweep's bundle directory")
    ap.add_argument("--log", help="the ff-run log of timing --bundles")
    ap.add_argument("--ff-opt", default="build/bin/ff-opt",
                    help="with --bundles: the compiler whose search dump "
                    "gives each plan's CTAs per SM")
    ap.add_argument("--search-options", default="target=h200",
                    help="with --bundles: the --dsm-search options the "
                    "bundles were compiled with")
    ap.add_argument("--check-mirror", action="store_true",
                    help="compare this model at the compiled-in constants "
                    "with --ff-opt's estimates of every row's plan, then "
                    "exit (non-zero if any differs)")
    ap.add_argument("--refresh-cps", action="store_true",
                    help="take each CSV row's CTAs per SM from --ff-opt's "
                    "search dump (the dataflow's occupancy now) and leave "
                    "out rows whose plan it no longer offers")
    ap.add_argument("--write-csv", help="with --bundles: write the rows "
                    "(the input of a later fit without the bundles)")
    ap.add_argument("--hbm-gbps", type=float, default=4800)
    ap.add_argument("--hbm-efficiency", type=float, default=0.625)
    ap.add_argument("--launch-ns", type=float, default=2000)
    ap.add_argument("--sm-gbps", type=float,
                    help="hold one SM's stream cap at this value (B/ns) "
                    "instead of fitting it")
    ap.add_argument("--free", help="comma-separated constants to fit; the "
                    "others are held at their current values (PARAMS)")
    ap.add_argument("--objective", choices=("error", "choice"),
                    default="error",
                    help="error: the mean squared log error over all plans; "
                    "choice: plus --rank-weight times the mean over "
                    "workloads of a softmin-weighted log regret of the "
                    "model's choice (Objective)")
    ap.add_argument("--rank-weight", type=float, default=1.0,
                    help="with --objective choice: the regret's weight")
    ap.add_argument("--tau", type=float, default=0.05,
                    help="with --objective choice: the softmin's "
                    "temperature, in log units of the estimate")
    ap.add_argument("--probe", type=int, metavar="N",
                    help="instead of fitting, search N random vectors of "
                    "the free constants for the best choice in sample "
                    "(probe), then exit")
    ap.add_argument("--no-cv", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--target", default="h200")
    args = ap.parse_args()
    if args.bundles and args.log:
        rows = load_bundles(args.bundles, args.log, args.ff_opt,
                            args.search_options)
        if args.write_csv:
            with open(args.write_csv, "w", newline="") as f:
                out = csv.DictWriter(f, CSV_FIELDS)
                out.writeheader()
                for r in rows:
                    out.writerow({k: r[k] for k in CSV_FIELDS})
    elif args.csv:
        rows = load(args.csv)
        if args.refresh_cps:
            rows = refresh_cps(rows, args.ff_opt, args.search_options)
    else:
        sys.exit("fit-kernel-model: give a CSV or --bundles DIR --log LOG")
    if not rows:
        sys.exit("fit-kernel-model: no measured rows")
    hbm = args.hbm_gbps * args.hbm_efficiency
    if args.check_mirror:
        sys.exit(0 if check_mirror(rows, args.ff_opt, args.search_options,
                                   hbm, args.launch_ns) else 1)
    held = {"smGbps": args.sm_gbps} if args.sm_gbps else {}
    if args.free:
        free = args.free.split(",")
        unknown = [n for n in free if n not in dict(PARAMS)]
        if unknown:
            sys.exit("fit-kernel-model: no constant named " + unknown[0])
        held.update({n: v for n, v in PARAMS if n not in free})
    if args.probe:
        probe(rows, hbm, args.launch_ns, held, args.probe)
        return
    weight = args.rank_weight if args.objective == "choice" else 0.0
    p, rmse = fit(rows, hbm, args.launch_ns, held, weight, args.tau)
    print("%d measured kernels; rms log error %.3f" % (len(rows), rmse))
    for (name, _), v in zip(PARAMS, p):
        print("  %-11s = %.4g" % (name, v))
    if args.json:
        kernel = {KEYS[n]: round(float(v), 4) for (n, _), v in zip(PARAMS, p)}
        kernel["hbm_efficiency"] = args.hbm_efficiency
        kernel["launch_ns"] = args.launch_ns
        with open(args.json, "w") as f:
            json.dump({"target": args.target, "kernel": kernel}, f, indent=2)
            f.write("\n")
    workloads = sorted({r["workload"] for r in rows})
    print("| workload | rho (in sample) | choice / fastest | rho (held out) "
          "| choice / fastest (held out) |")
    print("|---|---|---|---|---|")
    ratios, cv_ratios, cv_err = [], [], []
    for w in workloads:
        mine = [r for r in rows if r["workload"] == w]
        rho, ratio = judge(mine, p, hbm, args.launch_ns)
        ratios.append(ratio)
        cv = "| - | -"
        if not args.no_cv:
            # The held-out fit uses the same objective, without `w`.
            q, _ = fit([r for r in rows if r["workload"] != w], hbm,
                       args.launch_ns, held, weight, args.tau)
            crho, cratio = judge(mine, q, hbm, args.launch_ns)
            cv_ratios.append(cratio)
            cv_err += [math.log(predict_ns(r, q, hbm, args.launch_ns) /
                                (r["measured_us"] * 1e3)) for r in mine]
            cv = "| %.2f | %.3f" % (crho, cratio)
        print("| %s | %.2f | %.3f %s |" % (w, rho, ratio, cv), flush=True)

    def summary(rs):
        return "first choice fastest on %d of %d, geomean choice / fastest " \
            "%.3f" % (sum(x == 1.0 for x in rs), len(rs),
                      math.exp(np.mean(np.log(rs))))
    print("in sample: rms log error %.3f; %s" % (rmse, summary(ratios)))
    if cv_ratios:
        print("held out:  rms log error %.3f; %s" %
              (math.sqrt(np.mean(np.square(cv_err))), summary(cv_ratios)))


if __name__ == "__main__":
    main()
