"""Forty-second session, on the machine with the compiler: gate|up GEMMs
of the S chains (silu(x Wg^T) * (x Wu^T), PyTorch weight layout) on n
tiles sized so the grid fills the 132 SMs of an H100/H200 in whole waves
(any multiple of 16 columns: B's tile is one TMA box of blk_n rows),
against the widths the search takes today. Writes OUT/<name>-<variant>
(usage: [SET=call1|call4] THIS OUT [NAME...]):
  <name>-search  the search's own plan (--dsm-search rank 0);
  <name>-n<bn>   blk_m = 128, blk_n = bn over all of K, the deepest ring
                 (<= 8 stages) that --lower-to-nvvm accepts;
  <name>-n<bn>s<s>  the same on s stages."""
import math, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from flashfuser.mlirgen import generate_mlir  # noqa: E402

FF_OPT = "build/bin/ff-opt"
# (name, M, N, K, widths)
# (name, M, N, K, widths): call 1, then call 4's 8-column multiples.
SETS = {"call1": [("S3-m128", 128, 11008, 4096, (128, 96, 64)),
                  ("S3-m16", 16, 11008, 4096, (128, 96, (96, 5))),
                  ("S3-m256", 256, 11008, 4096, (192, 176)),
                  ("S2-m128", 128, 5632, 2048, (64, 48)),
                  ("S6-m128", 128, 8960, 1536, (64, 80)),
                  ("S7-m128", 128, 9728, 2560, (64, 80)),
                  ("S5-m128", 128, 11008, 2048, (128, 96, 64))],
        "call4": [("S3-m128", 128, 11008, 4096, (96, 88)),
                  ("S3-m16", 16, 11008, 4096, ((96, 5), (88, 5))),
                  ("S3-m256", 256, 11008, 4096, (176, 168)),
                  ("S6-m128", 128, 8960, 1536, (80, 72)),
                  ("S5-m128", 128, 11008, 2048, (96, 88))]}
SCHED = re.compile(r"#dsm\.schedule<[^>]*>")

out = sys.argv[1]
GEMMS = SETS[os.environ.get("SET", "call1")]
only = set(sys.argv[2:])
os.makedirs("/tmp/s42", exist_ok=True)


def lower(text, bundle):
    low = subprocess.run([FF_OPT, "-", "--lower-to-nvvm=format=bin "
                          "emit-bundle=" + bundle, "-o", "/dev/null"],
                         input=text, capture_output=True, text=True)
    return "" if low.returncode == 0 else low.stderr.strip()[:200]


for name, m, n, k, widths in GEMMS:
    if only and name not in only:
        continue
    src = f"/tmp/s42/{name}.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gated_gemm", "m": m, "n": n, "k": k, "activation": "silu",
        "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    res = subprocess.run([FF_OPT, src, "--dsm-fuse=fuse-single-gemms=true",
                          "--dsm-search"], capture_output=True, text=True)
    if res.returncode:
        sys.exit(res.stderr)
    chosen = SCHED.search(res.stdout)[0]
    print(f"{name}-search: {chosen} {lower(res.stdout, f'{out}/{name}-search')}")
    for w in widths:
        bn, depths = (w[0], [w[1]]) if isinstance(w, tuple) else (w, None)
        tag = f"n{bn}" + (f"s{depths[0]}" if depths else "")
        grid = f"[{math.ceil(m / 128)}, {math.ceil(n / bn)}, 1, 1]"
        for stages in depths or range(8, 1, -1):
            sched = (f"#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, "
                     f"{bn}, 64, 16], grid = {grid}, order = [m, n, k, l], "
                     f"spatial = [m, n], residency = [], collectives = [], "
                     f"stages = {stages}, cost_ns = 1000>")
            err = lower(res.stdout.replace(chosen, sched),
                        f"{out}/{name}-{tag}")
            if not err:
                print(f"{name}-{tag}: grid {grid} stages {stages}")
                break
        else:
            print(f"{name}-{tag}: FAILED {err}")
