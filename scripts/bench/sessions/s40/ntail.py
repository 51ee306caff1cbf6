"""Fortieth session, on the machine with the compiler: would S3's gated
GEMM at M = 256 (2 x 86 tiles of 128 x 128 on 132 SMs: 1.3 waves) run
faster split along N into a full-wave kernel and a split-K tail kernel?
Builds gated GEMMs (silu(x Wg^T) * (x Wu^T), PyTorch weight layout) with
hand-written schedules into OUT/<name> (usage: THIS OUT):
  whole-<tile>       the whole N = 11008, for reference;
  wave-<tile>        N = 8448: 2 x 66 tiles of 128 x 128, one full wave;
  tail-<tile>-k<s>   N = 2560: the rest, K split over s CTAs of a cluster.
The sum of a wave and a tail kernel's times bounds what the sequence
would take (less whatever programmatic launch overlaps)."""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
os.makedirs("/tmp/s40", exist_ok=True)
M, K = 256, 4096
# (name, n, blk_m, blk_n, split, stages)
PLANS = [("whole-128x128", 11008, 128, 128, 1, 4),
         ("whole-128x64", 11008, 128, 64, 1, 6),
         ("wave-128x128", 8448, 128, 128, 1, 4),
         ("wave-128x64", 8448, 128, 64, 1, 6),
         ("tail-128x128-k2", 2560, 128, 128, 2, 4),
         ("tail-128x64-k2", 2560, 128, 64, 2, 6),
         ("tail-128x64-k4", 2560, 128, 64, 4, 6),
         ("tail-128x128-k1", 2560, 128, 128, 1, 4),
         ("tail-128x64-k1", 2560, 128, 64, 1, 6),
         ("tail-64x128-k1", 2560, 64, 128, 1, 5)]
SCHED = re.compile(r"#dsm\.schedule<[^>]*>")
for name, n, bm, bn, split, stages in PLANS:
    src = f"/tmp/s40/{name}.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gated_gemm", "m": M, "n": n, "k": K, "activation": "silu",
        "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    res = subprocess.run(["build/bin/ff-opt", src,
                          "--dsm-fuse=fuse-single-gemms=true",
                          "--dsm-search"], capture_output=True, text=True)
    if res.returncode:
        sys.exit(res.stderr)
    chosen = SCHED.search(res.stdout)[0]
    # A split K names k spatial and exchanges partials; whole K steps 64.
    sched = (f"#dsm.schedule<cluster = [1, 1, {split}, 1], block = [{bm}, "
             f"{bn}, {K // split if split > 1 else 64}, 16], grid = "
             f"[{M // bm}, {n // bn}, 1, 1], order = [m, n, k, l], spatial = "
             f"[m, n{', k' if split > 1 else ''}], residency = [], "
             f"collectives = [{'all_exchange' if split > 1 else ''}], "
             f"stages = {stages}, cost_ns = 1000>")
    text = res.stdout.replace(chosen, sched)
    low = subprocess.run(["build/bin/ff-opt", "-", "--lower-to-nvvm="
                          "format=bin emit-bundle=" + f"{out}/{name}", "-o",
                          "/dev/null"], input=text, capture_output=True,
                         text=True)
    print(name, "search chose:", chosen, "|", low.returncode,
          low.stderr[:300])
