"""Fifty-sixth session, on the machine with the compiler: single GEMMs on
their own, for the single-GEMM model's terms. Set `mid` (default): the
sequence halves of G4, G5, G6, G8, S1 and S3 at M = 330, 680 and 930
(static M, so the search ranks their swapped products too); set `large`:
the GEMMs whose dynamic-M tables moved at M = 480-6000 (call 2). For
each, the best-ranked plan of every tile shape (swapped or not) and
cluster among the search's first RANKS (default 16):
OUT/<W><M>-<s|p><tokens|blk_m>x<blk_n>c<cls>. FF_OPT (env, rankplans) picks the
ff-opt (a test build may widen the lowerable family).
(usage: THIS OUT [RANKS] [JOBS] [SET])."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
from rankplans import lower_each_shape, shape_of  # noqa: E402

# (name, kind, n, k, activation): up (or gated) GEMM and down GEMM.
HALVES = [("G4UP", "gemm", 3072, 768, "gelu_tanh"),
          ("G4DN", "gemm", 768, 3072, "identity"),
          ("G5UP", "gemm", 16384, 4096, "gelu_tanh"),
          ("G5DN", "gemm", 4096, 16384, "identity"),
          ("G6UP", "gemm", 4096, 1024, "gelu_tanh"),
          ("G6DN", "gemm", 1024, 4096, "identity"),
          ("G8UP", "gemm", 8192, 2048, "gelu_tanh"),
          ("G8DN", "gemm", 2048, 8192, "identity"),
          ("S1GG", "gated_gemm", 8192, 3072, "silu"),
          ("S1DN", "gemm", 3072, 8192, "identity"),
          ("S3GG", "gated_gemm", 11008, 4096, "silu"),
          ("S3DN", "gemm", 4096, 11008, "identity")]
# (name, kind, n, k, activation, M...): set `large`.
LARGE = [("GEMM4096", "gemm", 4096, 4096, "identity", 480, 1500),
         ("GEMM8192", "gemm", 8192, 8192, "identity", 300, 680),
         ("G4UP", "gemm", 3072, 768, "gelu_tanh", 3000),
         ("G4DN", "gemm", 768, 3072, "identity", 3000, 6000),
         ("G5DN", "gemm", 4096, 16384, "identity", 1500),
         ("G6DN", "gemm", 1024, 4096, "identity", 1500),
         ("G8DN", "gemm", 2048, 8192, "identity", 1500),
         ("S1DN", "gemm", 3072, 8192, "identity", 1500),
         ("T4K384UP", "gemm", 1536, 384, "gelu_tanh", 2048)]


def swapped_shape_of(mt):
    """s (swapped) or p, then rankplans' shape of a SCHED match."""
    return ("s" if mt[10] else "p") + shape_of(mt)


def write_source(src, kind, m, n, k, act):
    """Writes the bf16 GEMM (or gated pair) on PyTorch's weight layout
    to `src`."""
    with open(src, "w") as f:
        f.write(generate_mlir({
            "kind": kind, "m": m, "n": n, "k": k, "activation": act,
            "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))


def one(out, tmp, ranks, name, kind, n, k, act, m):
    w = f"{name}{m}"
    src = f"{tmp}/{w}.mlir"
    write_source(src, kind, m, n, k, act)
    lower_each_shape(src, out, w, ranks, swapped_shape_of)


def main():
    out = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    tmp = out + ".src"
    os.makedirs(out, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    if (sys.argv[4] if len(sys.argv) > 4 else "mid") == "large":
        work = [(h[:5], m) for h in LARGE for m in h[5:]]
    else:
        work = [(h, m) for h in HALVES for m in (330, 680, 930)]
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda hm: one(out, tmp, ranks, *hm[0], hm[1]), work))


if __name__ == "__main__":
    main()
