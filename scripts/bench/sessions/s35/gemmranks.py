"""Thirty-fifth session: the up and down GEMMs of the bandwidth-bound
chains (G5, G8, S3's down GEMM) at M = 128 on their own, with
PyTorch-layout weights ([N, K]): the up GEMM is a `gemm` chain with the
chain's gelu_tanh epilogue, the down GEMM its second matmul. Each through
--dsm-fuse=fuse-single-gemms=true at the search's ranks (usage: THIS OUT
[RANKS]): the best-ranked plan of each tile shape, cluster and stage count
among the first RANKS (default 12), as OUT/<W><UP|DN>-r<rank>, rank 0 being
the search's choice. onegemm.py times them against cuBLAS."""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))  # scripts/bench
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from workloads import G, S  # noqa: E402
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 12
tmp = "/tmp/s35-gemmranks"
os.makedirs(tmp, exist_ok=True)
fuse = ["--dsm-fuse=fuse-single-gemms=true"]
PLAN = re.compile(r"cluster = \[(\d+), (\d+), (\d+), (\d+)\], block = "
                  r"\[(\d+), (\d+), (\d+), \d+\].*stages = (\d+), "
                  r"cost_ns = (\d+)")


def ranked(name, src):
    seen = set()
    for r in range(ranks):
        res = subprocess.run(["build/bin/ff-opt", src] + fuse +
                             [f"--dsm-search=rank={r}"],
                             capture_output=True, text=True)
        mt = PLAN.search(res.stdout)
        if not mt:
            continue  # fewer lowerable plans than ranks
        shape = (f"{mt[5]}x{mt[6]}x{mt[7]} cluster {mt[1]}x{mt[2]}x{mt[3]}x"
                 f"{mt[4]} stages {mt[8]}")
        if shape in seen:
            continue
        seen.add(shape)
        b = f"{out}/{name}-r{r}"
        low = subprocess.run(["build/bin/ff-opt", "-",
                              "--lower-to-nvvm=format=bin emit-bundle=" + b,
                              "-o", "/dev/null"], input=res.stdout,
                             capture_output=True, text=True)
        print(f"{name}-r{r}", shape, "cost_ns", mt[9],
              "" if low.returncode == 0 else low.stderr[:300])


for name, m, n, k, l in G + S:
    halves = {"G5": "UP DN", "G8": "UP DN", "S3": "DN"}.get(name)
    if not halves:
        continue
    act = "gelu_tanh" if name[0] == "G" else "silu"
    for half, spec in (("UP", {"n": n, "k": k, "activation": act}),
                       ("DN", {"n": l, "k": n, "activation": "identity"})):
        if half not in halves:
            continue
        src = f"{tmp}/{name}{half}.mlir"
        open(src, "w").write(generate_mlir(dict(
            spec, kind="gemm", m=m, l=0, dtype="bf16", out_dtype="bf16",
            weight_layout="nk")))
        ranked(name + half, src)
