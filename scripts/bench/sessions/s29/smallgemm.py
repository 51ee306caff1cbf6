"""The two GEMM kernels of G4, G6, G7, G9 and G10's sequences at M = 128 on
their own, with PyTorch-layout weights ([N, K]): the up GEMM (act(x w1) ->
bf16, a `gemm` chain with its gelu_tanh epilogue) and the down GEMM (c w2),
each through --dsm-fuse=fuse-single-gemms=true at the search's ranks
(usage: THIS OUT [RANKS]): the best-ranked plan of each tile shape and
cluster among the first RANKS (default 16), as OUT/<G>UP-<blk_m>x<blk_n>c<cls>
and OUT/<G>DN-<blk_m>x<blk_n>c<cls>, rank 0 being the search's choice."""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))  # scripts/bench
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from workloads import G  # noqa: E402
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
tmp = "/tmp/s29-smallgemm"
os.makedirs(tmp, exist_ok=True)
fuse = ["--dsm-fuse=fuse-single-gemms=true"]


def ranked(name, src):
    """Lowers the best-ranked plan of each tile shape and cluster."""
    seen = set()
    for r in range(ranks):
        res = subprocess.run(["build/bin/ff-opt", src] + fuse +
                             [f"--dsm-search=rank={r}"],
                             capture_output=True, text=True)
        mt = re.search(r"cluster = \[1, (\d+), (\d+), 1\], block = \[(\d+), "
                       r"(\d+),.*stages = (\d+), cost_ns = (\d+)", res.stdout)
        if not mt:
            continue  # fewer lowerable plans than ranks
        shape = f"{mt[3]}x{mt[4]}c{int(mt[1]) * int(mt[2])}"
        if shape in seen:
            continue
        seen.add(shape)
        b = f"{out}/{name}-{shape}"
        low = subprocess.run(["build/bin/ff-opt", "-",
                              "--lower-to-nvvm=format=bin emit-bundle=" + b,
                              "-o", "/dev/null"], input=res.stdout,
                             capture_output=True, text=True)
        print(b, "rank", r, "stages", mt[5], "cost_ns", mt[6],
              "" if low.returncode == 0 else low.stderr[:300])


for name, m, n, k, l in G:
    if name not in ("G4", "G6", "G7", "G9", "G10"):
        continue
    for half, spec in (("UP", {"n": n, "k": k, "activation": "gelu_tanh"}),
                       ("DN", {"n": l, "k": n, "activation": "identity"})):
        src = f"{tmp}/{name}{half}.mlir"
        open(src, "w").write(generate_mlir(dict(
            spec, kind="gemm", m=m, l=0, dtype="bf16", out_dtype="bf16",
            weight_layout="nk")))
        ranked(name + half, src)
