"""Thirty-ninth session, on the machine with the compiler: gated GEMMs
(the gate|up half of an S-series sequence) alone where the search now
splits K over a pair (S2 at M = 512; S3, S5, S7 at 256) and controls
where it does not (S1, S3 at 128 and 512): for each, the best-ranked plan
of every tile shape and cluster among the search's first RANKS (default
16) into OUT/<W><M>-<blk_m>x<blk_n>c<cls_k> (usage: THIS OUT [RANKS])."""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
from rankplans import lower_each_shape  # noqa: E402

out = sys.argv[1]
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
os.makedirs("/tmp/s39", exist_ok=True)
# (name, n, k, M): S-series gate|up shapes.
GATED = [("S2GG", 5632, 2048, 512), ("S3GG", 11008, 4096, 256),
         ("S5GG", 11008, 2048, 256), ("S7GG", 9728, 2560, 256),
         ("S1GG", 8192, 3072, 256), ("S3GG", 11008, 4096, 128),
         ("S3GG", 11008, 4096, 512)]
for name, n, k, m in GATED:
    w = f"{name}{m}"
    src = f"/tmp/s39/{w}.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gated_gemm", "m": m, "n": n, "k": k, "activation": "silu",
        "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    # A gated pair has no cluster along n: the cluster size is cls_k.
    lower_each_shape(src, out, w, ranks)
