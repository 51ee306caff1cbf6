#!/usr/bin/env python3
"""DRAM bytes (read + write) of ours vs PyTorch eager, per workload, by ncu.

Runs on the GPU machine (PyTorch, Nsight Compute; bundles compiled elsewhere
with `compile-workloads.py DIR --weight-layout nk`, as for bench.py):

  python3 scripts/bench/dram_bytes.py --bundles DIR --out OUT.csv [--only G,S]

For every workload and each of `eager` and `ours` it starts one process
under

  ncu --clock-control none --profile-from-start off --cache-control all
      --metrics dram__bytes_read.sum,dram__bytes_write.sum --csv
      --print-units base

whose child (this script with --one) builds the inputs, calls the variant
once outside the profiled range (module loads, workspace allocation), then
once between cudaProfilerStart/Stop. Every kernel of that call is profiled
with caches flushed before it (ncu's default), and its read and write bytes
are summed, so an unfused chain pays for its intermediate in DRAM. The
paper's claim to compare with: 58 % fewer DRAM bytes than PyTorch. Prints a
table and writes OUT.csv (workload, variant, kernels, read, write, total,
and the ours/eager ratio).
"""
import argparse
import csv
import io
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum")


def run_one(name, variant, bundles):
    """The child: one profiled call of `variant` on workload `name`."""
    sys.path.insert(0, HERE)
    import torch
    import bench
    import workloads as W
    w = {x.name: x for x in W.all_workloads()}[name]
    gen = torch.Generator(device="cuda")
    gen.manual_seed(hash(name) & 0xFFFF)
    inputs, eager, _ = bench.make(w, gen)
    if variant == "eager":
        fn = lambda: eager(*inputs)  # noqa: E731
    else:
        fn, _ = bench.ours_callable(w, inputs, bundles)
        if fn is None:
            sys.exit(3)
    fn()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    fn()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


def parse_ncu_csv(text):
    """{metric: summed value} over every profiled kernel, and the kernel
    count, from `ncu --csv --print-units base` output."""
    start = text.find('"ID"')
    if start < 0:
        return None, 0
    sums = {m: 0.0 for m in METRICS}
    kernels = set()
    for row in csv.DictReader(io.StringIO(text[start:])):
        metric = row.get("Metric Name")
        if metric in sums:
            value = row["Metric Value"].replace(",", "")
            sums[metric] += float(value)
            kernels.add(row["ID"])
    return sums, len(kernels)


def profile(ncu, name, variant, bundles):
    cmd = [ncu, "--clock-control", "none", "--profile-from-start", "off",
           "--cache-control", "all", "--metrics", ",".join(METRICS), "--csv",
           "--print-units", "base", sys.executable, os.path.abspath(__file__),
           "--one", name, "--variant", variant, "--bundles", bundles or ""]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None, 0, (proc.stderr.strip().splitlines() or ["failed"])[-1]
    sums, kernels = parse_ncu_csv(proc.stdout)
    if sums is None:
        return None, 0, "no metrics in ncu's output"
    return sums, kernels, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundles")
    ap.add_argument("--out", default="dram-bytes.csv")
    ap.add_argument("--only", default="", help="comma-separated name "
                    "prefixes; NAME$ selects NAME alone (as in bench.py)")
    ap.add_argument("--ncu", default=shutil.which("ncu") or "ncu")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--variant", choices=("eager", "ours"),
                    help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        run_one(a.one, a.variant, a.bundles)
        return
    if not shutil.which(a.ncu) and not os.path.isfile(a.ncu):
        sys.exit("dram_bytes: ncu not found (Nsight Compute; or --ncu PATH)")
    sys.path.insert(0, HERE)
    import workloads as W
    prefixes = [p for p in a.only.split(",") if p]
    rows = []
    print("| workload | eager MB | ours MB | ours / eager | min MB |")
    print("|---|---|---|---|---|")
    for w in W.all_workloads():
        if prefixes and not any(w.name == p[:-1] if p.endswith("$")
                                else w.name.startswith(p) for p in prefixes):
            continue
        total = {}
        for variant in ("eager", "ours"):
            sums, kernels, why = profile(a.ncu, w.name, variant, a.bundles)
            if sums is None:
                rows.append(dict(workload=w.name, variant=variant, kernels=0,
                                 read="", write="", total="", note=why))
                continue
            t = sums[METRICS[0]] + sums[METRICS[1]]
            total[variant] = t
            rows.append(dict(workload=w.name, variant=variant,
                             kernels=kernels, read=int(sums[METRICS[0]]),
                             write=int(sums[METRICS[1]]), total=int(t),
                             note=""))
        ratio = (total["ours"] / total["eager"]
                 if "ours" in total and total.get("eager") else None)
        mb = lambda v: "-" if v is None else "%.1f" % (v / 1e6)  # noqa: E731
        print("| %s | %s | %s | %s | %.1f |" % (
            w.name, mb(total.get("eager")), mb(total.get("ours")),
            "-" if ratio is None else "%.2f" % ratio, w.min_bytes() / 1e6),
            flush=True)
    with open(a.out, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else
                            ["workload"])
        wr.writeheader()
        wr.writerows(rows)


if __name__ == "__main__":
    main()
