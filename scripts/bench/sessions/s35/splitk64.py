"""Thirty-fifth session: cuBLAS draws the M = 128 down GEMMs with 128 x 64
tiles split over 2 along K on 8-10-stage rings (ncu: 128 CTAs), a shape
the search does not generate (split-K n tiles are 128 or 256 wide, or
64 x 64; split-K rings stop at 4 stages). This writes, for G5's, S3's,
S1's and G8's down GEMMs, the search's choice (OUT/<W>DN-r0) and that
schedule rewritten by hand to 128 x 64 tiles split over C in {2, 4} with
S in {4, 6, 7, 8} stages (OUT/<W>DN-r<100 + 10 C + S>), each lowered by
--lower-to-nvvm, for onegemm.py. Usage: THIS OUT (from the repository
root after a build)."""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
SCHED = re.compile(r"cluster = \[[^]]*\], block = \[[^]]*\], grid = "
                   r"\[[^]]*\](.*?)stages = \d+")
for name, n, k in (("G5DN", 4096, 16384), ("S3DN", 4096, 11008),
                   ("S1DN", 3072, 8192), ("G8DN", 2048, 8192)):
    src = generate_mlir(dict(kind="gemm", m=128, n=n, k=k, l=0,
                             activation="identity", dtype="bf16",
                             out_dtype="bf16", weight_layout="nk"))
    r = subprocess.run(["build/bin/ff-opt", "-",
                        "--dsm-fuse=fuse-single-gemms=true", "--dsm-search"],
                       input=src, capture_output=True, text=True, check=True)
    variants = {0: r.stdout}
    for c in (2, 4):
        for s in (4, 6, 7, 8):
            sched = (f"cluster = [1, 1, {c}, 1], block = [128, 64, {k // c}, "
                     f"16], grid = [1, {n // 64}, 1, 1]\\1stages = {s}")
            variants[100 + 10 * c + s] = SCHED.sub(sched, r.stdout, count=1)
    for rank, text in variants.items():
        b = f"{out}/{name}-r{rank}"
        subprocess.run(["rm", "-rf", b], check=True)
        low = subprocess.run(["build/bin/ff-opt", "-",
                              f"--lower-to-nvvm=format=bin emit-bundle={b}",
                              "-o", "/dev/null"], input=text,
                             capture_output=True, text=True)
        print(b, "rc", low.returncode, low.stderr[:200])
