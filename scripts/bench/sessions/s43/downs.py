"""Forty-third session, on the machine with the compiler: the down GEMMs
of S1-S8 and G5, G8 at M = 128 on their own (PyTorch weight layout), the
best-ranked plan of every tile shape and cluster among the search's first
RANKS (default 16): OUT/<W>-<blk_m>x<blk_n>c<cls> (usage: THIS OUT [RANKS])."""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
from rankplans import lower_each_shape  # noqa: E402

out = sys.argv[1]
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
os.makedirs("/tmp/s43h", exist_ok=True)
# (name, N, K) of each down GEMM (E = act(C) · D: N = L, K = N of the chain).
DOWNS = [("S1DN", 3072, 8192), ("S2DN", 2048, 5632), ("S3DN", 4096, 11008),
         ("S4DN", 2048, 8192), ("S5DN", 2048, 11008), ("S6DN", 1536, 8960),
         ("S7DN", 2560, 9728), ("S8DN", 1024, 3072), ("G5DN", 4096, 16384),
         ("G8DN", 2048, 8192)]
for w, n, k in DOWNS:
    src = f"/tmp/s43h/{w}.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gemm", "m": 128, "n": n, "k": k, "activation": "identity",
        "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    lower_each_shape(src, out, w, ranks)
