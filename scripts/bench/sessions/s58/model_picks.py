"""Fifty-eighth session, on the machine with the compiler: how often the
model's pick among the tile shapes timed alone on an H200 is the fastest
of them. For every timed GEMM the search's dump (`--dsm-search=dump`)
prices each shape (its best-ranked lowerable plan, as the bundles were
built); the pick is the shape it prices lowest. Prints the GEMMs whose
pick is not the fastest, the geomean of pick / fastest, and the mean and
rms log error of estimate / measured.

  gated: the gated GEMMs (g = 2) of gemm-sweep-h200-s56.csv,
         gated-alone-h200-s57.csv and call 1 of gemm-variants-h200-s58.csv
  gemm:  the plain GEMMs of gemm-sweep-h200-s56.csv and call 1's
         as-ranked (-base) bundles

(usage: [FF_OPT=<ff-opt>] [FF_TARGET=h200] [FF_CALIBRATION=JSON] THIS
gated|gemm [-v]; env settings of a test build pass through)."""
import collections
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..", "..", "..")
sys.path.insert(0, os.path.join(root, "python"))
from flashfuser.mlirgen import generate_mlir  # noqa: E402

FF_OPT = os.environ.get("FF_OPT", os.path.join(root, "build/bin/ff-opt"))
# FF_TARGET: the search's target entry (default: ff-opt's, h100-sxm);
# FF_CALIBRATION: a calibration file for it (--dsm-search=calibration=).
TARGET = os.environ.get("FF_TARGET")
CALIBRATION = os.environ.get("FF_CALIBRATION")
BENCH = os.path.join(root, "docs", "benchmarks")
# (n, k) of call 1's GEMMs, named as its bundles.
CALL1 = {"S6DN": (1536, 8960), "S3DN": (4096, 11008), "G4DN": (768, 3072),
         "G5DN": (4096, 16384), "G6DN": (1024, 4096), "G9DN": (512, 2048),
         "S6GG": (8960, 1536)}


def timed(kind):
    """{(workload, m, n, k, gated): {shape: us}}, shape as s|p BMxBN cC."""
    meas = collections.defaultdict(dict)
    gated = kind == "gated"
    for name in ("gemm-sweep-h200-s56.csv", "gated-alone-h200-s57.csv"):
        if name.endswith("s57.csv") and not gated:
            continue
        for r in csv.DictReader(open(os.path.join(BENCH, name))):
            if (r["g"] == "2") != gated:
                continue
            key = (r["workload"], int(r["m"]), int(r["n"]), int(r["k"]))
            meas[key][r["bundle"].split("-")[-1]] = float(r["measured_us"])
    for r in csv.DictReader(open(os.path.join(BENCH,
                                              "gemm-variants-h200-s58.csv"))):
        if r["call"] != "1" or not r["bundle"].endswith("-base") or \
                (r["gated"] == "1") != gated:
            continue
        w = r["workload"]
        n, k = CALL1[w[:4]]
        shape = r["bundle"][len(w):-len("-base")]
        meas[(w + "-s58", int(r["m"]), n, k)][shape] = float(r["median_us"])
    return meas


def priced(kind, m, n, k, act, tmp):
    """{shape: estimate in us} of the search's lowerable candidates."""
    src, dump = os.path.join(tmp, "g.mlir"), os.path.join(tmp, "d.json")
    with open(src, "w") as f:
        f.write(generate_mlir({
            "kind": kind, "m": m, "n": n, "k": k, "activation": act,
            "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    search = f"dump={dump}" + (f" target={TARGET}" if TARGET else "") + \
        (f" calibration={CALIBRATION}" if CALIBRATION else "")
    subprocess.run([FF_OPT, src, "--dsm-fuse=fuse-single-gemms=true",
                    f"--dsm-search={search}", "-o", os.devnull], check=True)
    best = {}
    for x in json.load(open(dump))["chains"][0]["lowerable_candidates"]:
        c = x["cluster"][0] * x["cluster"][1] * x["cluster"][2]
        shape = ("s" if x["swap_ab"] else "p") + \
            "%dx%dc%d" % (x["block"][0], x["block"][1], c)
        best.setdefault(shape, x["cost_ns"] / 1000)
    return best


def main():
    kind, verbose = sys.argv[1], "-v" in sys.argv
    regret, err = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for (w, m, n, k), d in sorted(timed(kind).items()):
            act = "silu" if kind == "gated" else \
                ("gelu_tanh" if "UP" in w else "identity")
            est = priced("gated_gemm" if kind == "gated" else "gemm",
                         m, n, k, act, tmp)
            have = {s: est[s] for s in d if s in est}
            if len(have) < 2:
                continue
            pick = min(have, key=have.get)
            fastest = min(d, key=d.get)
            regret.append(d[pick] / d[fastest])
            err += [math.log(have[s] / d[s]) for s in have]
            if verbose or pick != fastest:
                print(f"{w} M={m} pick {pick} {d[pick]} fastest {fastest} "
                      f"{d[fastest]} ({d[pick] / d[fastest]:.3f}):",
                      " ".join(f"{s} {d[s]:.1f}/{have[s]:.1f}"
                               for s in sorted(have, key=have.get)))
    print(f"{len(regret)} GEMMs: pick / fastest {math.exp(sum(map(math.log, regret)) / len(regret)):.4f} "
          f"in geomean (max {max(regret):.3f}), picks the fastest on "
          f"{sum(r == 1.0 for r in regret)}; log error mean "
          f"{sum(err) / len(err):.3f}, rms "
          f"{math.sqrt(sum(e * e for e in err) / len(err)):.3f} over "
          f"{len(err)} plans")


if __name__ == "__main__":
    main()
