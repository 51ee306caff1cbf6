"""Fortieth session, on the machine with the compiler: gated GEMMs with
few tiles (under half a wave of 128 x 128 tiles on 132 SMs) split along K
over a cluster, against the search's pick. Thirty-ninth session's study
covered large S-series gate|up GEMMs only (split lost 1.00-1.34x); call 2
found S3's 2560-column tail at M = 256 (40 tiles) 1.20x faster split over
pairs. usage: THIS OUT; bundles OUT/<W><M>-<variant>, variant `search`
(the search's pick) or <blk_m>x<blk_n>k<split> (hand-written)."""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
os.makedirs("/tmp/s40", exist_ok=True)
# (name, n, k, M): S-series gate|up GEMMs (N, K of S8, S2, S6, S3).
SHAPES = [("S8GG", 3072, 1024, 128), ("S8GG", 3072, 1024, 64),
          ("S2GG", 5632, 2048, 64), ("S6GG", 8960, 1536, 64),
          ("S3GG", 11008, 4096, 64), ("S3GG", 2560, 4096, 256)]
# (blk_m, blk_n, split, stages)
SPLITS = [(128, 128, 2, 4), (128, 64, 2, 6), (64, 128, 2, 5), (128, 128, 4, 4),
          (64, 128, 4, 5)]
SCHED = re.compile(r"#dsm\.schedule<[^>]*>")


def emit(text, bundle):
    low = subprocess.run(["build/bin/ff-opt", "-", "--lower-to-nvvm="
                          "format=bin emit-bundle=" + bundle, "-o",
                          "/dev/null"], input=text, capture_output=True,
                         text=True)
    print(bundle, "ok" if low.returncode == 0 else low.stderr[:300],
          flush=True)


for name, n, k, m in SHAPES:
    src = f"/tmp/s40/{name}{m}-{n}.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gated_gemm", "m": m, "n": n, "k": k, "activation": "silu",
        "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    res = subprocess.run(["build/bin/ff-opt", src,
                          "--dsm-fuse=fuse-single-gemms=true",
                          "--dsm-search"], capture_output=True, text=True)
    if res.returncode:
        sys.exit(res.stderr)
    chosen = SCHED.search(res.stdout)[0]
    w = f"{name}{m}" + ("" if n != 2560 else "tail")
    print(w, chosen)
    emit(res.stdout, f"{out}/{w}-search")
    for bm, bn, split, stages in SPLITS:
        if m % bm and m > bm or (m < bm and bm == 128 and m <= 64):
            continue
        sched = (f"#dsm.schedule<cluster = [1, 1, {split}, 1], block = "
                 f"[{bm}, {bn}, {k // split}, 16], grid = "
                 f"[{-(-m // bm)}, {n // bn}, 1, 1], order = [m, n, k, l], "
                 "spatial = [m, n, k], residency = [], collectives = "
                 f"[all_exchange], stages = {stages}, cost_ns = 1000>")
        emit(res.stdout.replace(chosen, sched),
             f"{out}/{w}-{bm}x{bn}k{split}")
