#!/usr/bin/env python3
"""Compiles the paper's FFN (G1-G10) and SwiGLU (S1-S8) chains with dynamic M
into one kernel bundle each, on the machine with the compiler:

  python3 scripts/gpu/compile_chains.py OUTDIR [--build BUILD]

Each OUTDIR/<name>/ holds cubins (format=bin) for every M bin of the chain's
#dsm.schedule_table, so ff-run can check it at any M (scripts/gpu/validate.sh
runs them at M = 128, 1000 and 4096). Shapes come from
scripts/bench/workloads.py; the linalg text from the Python package's
generator. Prints a line per workload and exits 1 if any failed to compile.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
import workloads as W  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = ap.parse_args()
    ff_opt = os.path.join(a.build, "bin", "ff-opt")
    os.makedirs(a.out, exist_ok=True)
    failed = 0
    for w in W.gemm_chains() + W.gated_chains():
        spec = {"kind": w.kind, "m": -1, "n": w.n, "k": w.k, "l": w.l,
                "activation": w.act, "dtype": "bf16"}
        src = os.path.join(a.out, w.name + ".mlir")
        with open(src, "w") as f:
            f.write(generate_mlir(spec))
        bundle = os.path.join(a.out, w.name)
        shutil.rmtree(bundle, ignore_errors=True)
        p = subprocess.run(
            [ff_opt, src, "--dsm-fuse", "--dsm-search",
             f"--lower-to-nvvm=format=bin emit-bundle={bundle}", "-o",
             os.devnull], capture_output=True, text=True)
        if p.returncode == 0:
            with open(os.path.join(bundle, "manifest.json")) as f:
                kernels = json.load(f)["kernels"]
            print(f"{w.name:5} ok   {len(kernels)} kernels (M bins)")
        else:
            failed += 1
            lines = p.stderr.strip().splitlines()
            err = next((l for l in lines if "error" in l), lines[0] if lines else "")
            print(f"{w.name:5} FAIL {err[:160]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
