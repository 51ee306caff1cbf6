"""Thirty-eighth session, on the machine with the compiler: the sequence
halves of G5, G8, S1 and S3 at M = 256, 512 and 1024 on their own, for the
single-GEMM model's L2 term. For each, the best-ranked plan of every tile
shape and cluster among the search's first RANKS (default 16), and for the
plain GEMMs that rank-0 plan set by hand to clusters of 2 along m (B
multicast, which the search does not emit): OUT/<W><M>-<blk_m>x<blk_n>c<cls>
(usage: THIS OUT [RANKS])."""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
from rankplans import lower, lower_each_shape  # noqa: E402

out = sys.argv[1]
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
os.makedirs("/tmp/s38", exist_ok=True)
# (name, kind, n, k, activation): up (or gated) GEMM and down GEMM.
HALVES = [("G5UP", "gemm", 16384, 4096, "gelu_tanh"),
          ("G5DN", "gemm", 4096, 16384, "identity"),
          ("G8UP", "gemm", 8192, 2048, "gelu_tanh"),
          ("G8DN", "gemm", 2048, 8192, "identity"),
          ("S1GG", "gated_gemm", 8192, 3072, "silu"),
          ("S1DN", "gemm", 3072, 8192, "identity"),
          ("S3GG", "gated_gemm", 11008, 4096, "silu"),
          ("S3DN", "gemm", 4096, 11008, "identity")]
for name, kind, n, k, act in HALVES:
    for m in (256, 512, 1024):
        w = f"{name}{m}"
        src = f"/tmp/s38/{w}.mlir"
        open(src, "w").write(generate_mlir({
            "kind": kind, "m": m, "n": n, "k": k, "activation": act,
            "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
        text, mt = lower_each_shape(src, out, w, ranks)
        # B multicast: the rank-0 plan's 128-row tiles in clusters of 2
        # consecutive m tiles (grid counted in clusters).
        if kind == "gemm" and mt.group(1, 2, 3) == ("1", "1", "1") and mt[4] == "128":
            sched = mt[0].replace("cluster = [1, 1, 1, 1]",
                                  "cluster = [2, 1, 1, 1]").replace(
                f"grid = [{mt[6]}, {mt[7]},",
                f"grid = [{(int(mt[6]) + 1) // 2}, {mt[7]},")
            b = f"{out}/{w}-{mt[4]}x{mt[5]}mcm"
            print(b, "hand-set", lower(text.replace(mt[0], sched), b))
