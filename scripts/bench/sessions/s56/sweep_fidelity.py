"""Fifty-sixth session: the single-GEMM sweeps of calls 1 and 3 (halves.py
bundles and the ab.sh logs that timed them) as one CSV, and the model's
choice among each GEMM's timed plans as ff-opt prices them (the search's
dump, so exactly the C++ model, with a calibration file's overrides).

  sweep_fidelity.py --csv OUT  DIR:LOG...        write the rows
  sweep_fidelity.py [--calibration JSON] [--ff-opt BIN] DIR:LOG...
      per GEMM: the model's choice among the timed plans against the
      fastest; geomean and rms log error

DIR is a halves.py bundle directory (its sources in DIR.src), LOG the
ab.sh log of it. Matches plans on block, cluster, stages and swap_ab."""
import argparse
import collections
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from fidelity import read_log  # noqa: E402


def load(spec):
    bdir, log = spec.split(":")
    us = {name: t for name, (status, t) in read_log(log).items()
          if status == "PASS"}
    rows = []
    for bundle, t in sorted(us.items()):
        man = json.load(open(os.path.join(bdir, bundle, "manifest.json")))
        chain, plan = man["chain"], man["kernels"][0]["plan"]
        rows.append({
            "bundle": bundle, "workload": bundle.rsplit("-", 1)[0],
            "m": chain["m"], "n": chain["n"], "k": chain["k"],
            "g": 2 if chain["kind"] == "gated_gemm" else 1,
            "swap_ab": int(bool(plan.get("swap_ab"))),
            "cluster_m": plan["cluster"][0], "cluster_n": plan["cluster"][1],
            "cluster_k": plan["cluster"][2], "block_0": plan["block"][0],
            "block_1": plan["block"][1], "block_2": plan["block"][2],
            "stages": plan["stages"], "measured_us": t,
            "src": os.path.join(bdir + ".src", bundle.rsplit("-", 1)[0] +
                                ".mlir")})
    return rows


def key(c):
    return (tuple(c["block"][:3]), tuple(c["cluster"]), c["stages"],
            bool(c.get("swap_ab")))


def row_key(r):
    return ((r["block_0"], r["block_1"], r["block_2"]),
            (r["cluster_m"], r["cluster_n"], r["cluster_k"], 1),
            r["stages"], bool(r["swap_ab"]))


def estimates(ff_opt, src, calibration):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    opts = f"dump={out}" + (f" calibration={calibration}"
                            if calibration else "")
    subprocess.run([ff_opt, src, "--dsm-fuse=fuse-single-gemms=true",
                    f"--dsm-search={opts}", "-o", "/dev/null"],
                   capture_output=True, check=True)
    with open(out) as f:
        chain = json.load(f)["chains"][0]
    os.unlink(out)
    est = {}
    for c in chain.get("lowerable_candidates", []) + chain["candidates"]:
        if c["lowerable"]:
            est.setdefault(key(c), c["kernel_ns"])
    return est


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", help="DIR:LOG")
    ap.add_argument("--csv")
    ap.add_argument("--calibration")
    ap.add_argument("--ff-opt", default="build/bin/ff-opt")
    args = ap.parse_args()
    rows = [r for s in args.sets for r in load(s)]
    if args.csv:
        fields = [f for f in rows[0] if f != "src"]
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore",
                               lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        print(f"{len(rows)} rows written to {args.csv}")
        return
    srcs = sorted({r["src"] for r in rows})
    with ThreadPoolExecutor(2) as ex:
        est = dict(zip(srcs, ex.map(
            lambda s: estimates(args.ff_opt, s, args.calibration), srcs)))
    by = collections.defaultdict(list)
    errs = []
    for r in rows:
        e = est[r["src"]].get(row_key(r))
        if e is None:
            print(f"{r['bundle']}: not ranked")
            continue
        by[r["workload"]].append((r, e))
        errs.append(math.log(e / 1e3 / r["measured_us"]))
    ratios = []
    print("gemm | model's choice | µs | fastest | µs | choice/fastest")
    print("---|---|---|---|---|---")
    for w, rs in sorted(by.items()):
        # Ties go to the deeper ring, as the search breaks them.
        choice = min(rs, key=lambda x: (x[1], -x[0]["stages"]))[0]
        best = min(rs, key=lambda x: x[0]["measured_us"])[0]
        ratios.append(choice["measured_us"] / best["measured_us"])
        print(f"{w} | {choice['bundle'].rsplit('-', 1)[1]} | "
              f"{choice['measured_us']:.2f} | "
              f"{best['bundle'].rsplit('-', 1)[1]} | "
              f"{best['measured_us']:.2f} | {ratios[-1]:.3f}")
    print(f"geomean choice/fastest "
          f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.4f}, rms "
          f"log error {math.sqrt(sum(e * e for e in errs) / len(errs)):.3f} "
          f"over {len(errs)} plans of {len(ratios)} GEMMs")


if __name__ == "__main__":
    main()
